"""Vector-Jacobian, Jacobian-vector and Hessian-vector products from
torch.autograd.functional."""

import numpy as np
import torch
from torch.autograd import functional as AF

rng = np.random.default_rng(37)


def model(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.pow(2).sum()])


x = torch.tensor(rng.normal(size=2))
v_out = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)
v_in = torch.tensor([0.3, 2.0], dtype=torch.float64)

value, vjp = AF.vjp(model, x, v_out)
print("value:", value)
print("vjp:", vjp)
value, jvp = AF.jvp(model, x, v_in)
print("jvp:", jvp)
J = AF.jacobian(model, x)
print("J^T v:", J.T @ v_out)
print("J u:", J @ v_in)


def rosenbrock(z):
    return (1 - z[0]) ** 2 + 100 * (z[1] - z[0] ** 2) ** 2


z = torch.tensor([0.5, 1.5], dtype=torch.float64)
value, hvp = AF.hvp(rosenbrock, z, v_in)
print("f:", value, "hvp:", hvp)
value, vhp = AF.vhp(rosenbrock, z, v_in)
print("vhp:", vhp)
print("H v:", AF.hessian(rosenbrock, z) @ v_in)

try:
    AF.vjp(model, x, torch.ones(2, dtype=torch.float64))
except RuntimeError as error:
    print("RuntimeError:", error)

try:
    AF.jacobian(lambda t: torch.ones(2, dtype=torch.float64), x, strict=True)
except RuntimeError as error:
    print("RuntimeError:", error)
