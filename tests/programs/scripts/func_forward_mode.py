"""torch.func's forward-mode transforms as its documentation uses them: jvp for a
directional derivative, jacfwd beside jacrev, hessian, and Hessian-vector products as
forward-over-reverse."""

import numpy as np
import torch
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vmap

rng = np.random.default_rng(12)


def f(x):
    return torch.stack([x[0] * x[1], x[1].exp(), (x**2).sum()])


x = torch.tensor(rng.normal(size=2))
v = torch.tensor([1.0, -0.5], dtype=torch.float64)
value, tangent = jvp(f, (x,), (v,))
print("value:", value)
print("J v by jvp:", tangent)
print("J v by jacrev:", jacrev(f)(x) @ v)
print("jacfwd equals jacrev:", torch.allclose(jacfwd(f)(x), jacrev(f)(x)))
print("jacfwd:", jacfwd(f)(x))


def rosenbrock(z):
    return (1 - z[0]) ** 2 + 100 * (z[1] - z[0] ** 2) ** 2


point = torch.tensor([0.5, -0.25], dtype=torch.float64)
print("hessian:", hessian(rosenbrock)(point))
print("jacfwd(jacrev):", jacfwd(jacrev(rosenbrock))(point))


def hvp(func, primal, direction):
    return jvp(grad(func), (primal,), (direction,))[1]


print("Hessian-vector product:", hvp(rosenbrock, point, v))
print("per-point Hessians:", vmap(hessian(rosenbrock))(torch.stack([point, 2 * point])))
