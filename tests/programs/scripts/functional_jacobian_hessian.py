"""torch.autograd.functional.jacobian and hessian of small functions, checked against the
formulas they should equal."""

import numpy as np
import torch
from torch.autograd.functional import hessian, jacobian

rng = np.random.default_rng(29)


def squash(v):
    return torch.tanh(v) * v.sum()


v = torch.tensor(rng.normal(size=3))
J = jacobian(squash, v)
print("jacobian:\n", J)
expected = torch.eye(3, dtype=v.dtype) * (1 - torch.tanh(v) ** 2) * v.sum() + torch.tanh(
    v
).unsqueeze(1)
print("matches the formula:", torch.allclose(J, expected))


def energy(p):
    return (p**4).sum() / 4 + p[0] * p[1]


p = torch.tensor([1.0, -2.0], dtype=torch.float64)
H = hessian(energy, p)
print("hessian:\n", H)


def two_inputs(a, b):
    return a * b.exp()


a = torch.tensor(rng.normal(size=2))
b = torch.tensor(rng.normal(size=2))
Ja, Jb = jacobian(two_inputs, (a, b))
print("jacobian wrt a:\n", Ja)
print("jacobian wrt b:\n", Jb)

Hs = hessian(lambda s, t: (s * t).sum() ** 2, (a, b))
print("hessian blocks:", len(Hs), len(Hs[0]))
print(Hs[0][1])

matrix = torch.tensor(rng.normal(size=(2, 3)))
Jm = jacobian(lambda m: m @ m.T, matrix)
print("jacobian of m @ m.T has shape:", tuple(Jm.shape))
print(
    "vectorized off by default, create_graph result requires grad:",
    jacobian(squash, v.clone().requires_grad_(), create_graph=True).requires_grad,
)
