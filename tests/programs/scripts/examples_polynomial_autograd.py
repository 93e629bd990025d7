"""Fit y = cos(x) on [-2, 2] with a cubic a + b x + c x^2 + d x^3: the coefficients are
leaves, autograd gives their gradients, and the update runs under no_grad."""

import math

import numpy as np
import torch

x = torch.linspace(-2, 2, 200, dtype=torch.float64)
y = torch.cos(x)
rng = np.random.default_rng(11)
a, b, c, d = (torch.tensor(v, requires_grad=True) for v in rng.normal(size=4))

learning_rate = 4e-5
for step in range(300):
    prediction = a + b * x + c * x**2 + d * x**3
    loss = (prediction - y).pow(2).sum()
    if step % 60 == 59:
        print(step, loss.item())
    loss.backward()
    with torch.no_grad():
        for coefficient in (a, b, c, d):
            coefficient -= learning_rate * coefficient.grad
            coefficient.grad = None

print(f"y = {a.item():.6f} + {b.item():.6f} x + {c.item():.6f} x^2 + {d.item():.6f} x^3")
print("a.grad after the loop:", a.grad)
print("max error at 0:", abs(a.item() - math.cos(0.0)))
