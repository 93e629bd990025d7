"""The same cubic fit with gradients written by hand, then checked against autograd's."""

import numpy as np
import torch

x = torch.linspace(-1, 1, 300, dtype=torch.float64)
y = torch.exp(x) - 1
rng = np.random.default_rng(5)
coefficients = torch.tensor(rng.normal(size=4))

for step in range(200):
    a, b, c, d = coefficients
    prediction = a + b * x + c * x**2 + d * x**3
    residual = prediction - y
    loss = residual.pow(2).sum()
    g = 2.0 * residual
    manual = torch.stack([g.sum(), (g * x).sum(), (g * x**2).sum(), (g * x**3).sum()])
    coefficients = coefficients - 1e-3 * manual
    if step % 40 == 0:
        print(step, loss.item())

leaf = coefficients.clone().requires_grad_(True)
a, b, c, d = leaf
loss = (a + b * x + c * x**2 + d * x**3 - y).pow(2).sum()
loss.backward()
residual = (a + b * x + c * x**2 + d * x**3 - y).detach()
g = 2.0 * residual
manual = torch.stack([g.sum(), (g * x).sum(), (g * x**2).sum(), (g * x**3).sum()])
print("final coefficients:", coefficients)
print("autograd:", leaf.grad)
print("by hand: ", manual)
print("agree:", torch.allclose(leaf.grad, manual))
