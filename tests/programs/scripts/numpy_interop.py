"""Moving between numpy and tensors: dtypes kept from numpy, from_numpy sharing memory,
numpy() of a detached tensor, and numpy scalars."""

import numpy as np
import torch

rng = np.random.default_rng(47)
array = rng.normal(size=(2, 3))
t = torch.tensor(array)
print("from float64 array:", t.dtype, t.shape)
print("from float32 array:", torch.tensor(array.astype(np.float32)).dtype)
print("from int array:", torch.tensor(np.arange(3)).dtype)
print("from a numpy float64 scalar:", torch.tensor(array[0, 0]).dtype)
print("from a numpy float32 scalar:", torch.tensor(np.float32(0.5)).dtype)
print("from a Python float:", torch.tensor(float(array[0, 0])).dtype)

shared = torch.from_numpy(array)
array[0, 0] = 100.0
print("from_numpy shares memory:", shared[0, 0].item())

x = torch.tensor(array, requires_grad=True)
y = (x * 2).sum()
y.backward()
print("grad back to numpy:", type(x.grad.numpy()).__name__, x.grad.numpy().dtype)
print("detached numpy:", x.detach().numpy()[0])
print("tolist:", x.detach()[1].tolist())
print("item type:", type(y.item()).__name__)
