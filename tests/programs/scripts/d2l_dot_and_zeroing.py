"""y = 2 x.x has gradient 4x; gradients add up across backward calls until zeroed."""

import numpy as np
import torch

x = torch.arange(4.0)
print(x, x.requires_grad, x.grad)
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
print("y =", y)
y.backward()
print("x.grad =", x.grad)
print("x.grad == 4 * x:", x.grad == 4 * x)

# A second backward of a new graph adds to what is there.
y = 2 * torch.dot(x, x)
y.backward()
print("after a second backward:", x.grad)

x.grad.zero_()
y = x.sum()
y.backward()
print("grad of sum after zero_():", x.grad)

# Five rounds with the same grad tensor, zeroed in place each time.
grad_before = x.grad
for step in range(5):
    x.grad.zero_()
    loss = (x * float(step)).sum()
    loss.backward()
    print(step, x.grad.tolist())
print("same grad tensor throughout:", x.grad is grad_before)

rng = np.random.default_rng(0)
w = torch.tensor(rng.normal(size=4), requires_grad=True)
total = None
for _ in range(3):
    (w * w).sum().backward()
    total = w.grad.clone()
print("three backwards accumulate to 6w:", torch.allclose(total, 6 * w.detach()))
