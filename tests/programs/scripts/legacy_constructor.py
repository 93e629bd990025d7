"""The legacy torch.Tensor constructor that older code and tutorials still use."""

import torch

t = torch.Tensor([1.0, 2.0])
print(t, t.dtype, t.requires_grad, t.shape)
ints = torch.Tensor([1, 2, 3])
print("from ints:", ints, ints.dtype)
shape_only = torch.Tensor(2, 3)
print("from sizes:", shape_only.shape, shape_only.dtype)
empty = torch.Tensor()
print("empty:", empty, empty.shape)
nested = torch.Tensor([[1, 2], [3, 4]])
print(nested)
w = torch.Tensor([0.5, -0.5]).requires_grad_()
(w * t).sum().backward()
print("grad:", w.grad)
print("isinstance:", isinstance(t, torch.Tensor), isinstance(torch.tensor(1), torch.Tensor))
print("torch.tensor keeps ints:", torch.tensor([1, 2]).dtype, "Tensor makes floats:", ints.dtype)
