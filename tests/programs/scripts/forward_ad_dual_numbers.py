"""Forward-mode AD with torch.autograd.forward_ad, as its tutorial and docs use it: dual
tensors, a Jacobian-vector product in one pass, a custom Function with jvp, a Jacobian
column by column, and a Hessian-vector product forward over reverse."""

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD

rng = np.random.default_rng(41)
x = torch.tensor(rng.normal(size=3))
v = torch.tensor([1.0, 0.0, -1.0], dtype=torch.float64)


def f(t):
    return (t.sin() * t.exp()).cumsum(0) / (1 + t * t)


with fwAD.dual_level():
    dual = fwAD.make_dual(x, v)
    print("dual:", dual)
    out = f(dual)
    print("out:", out)
    primal, tangent = fwAD.unpack_dual(out)
    print("J v in one forward pass:", tangent)
    print("unpacked:", fwAD.unpack_dual(out).tangent is tangent)
print("after the level:", fwAD.unpack_dual(out).tangent)

# The same product from reverse mode: the Jacobian row by row, then times v.
J = torch.autograd.functional.jacobian(f, x)
print("J @ v:", J @ v)
print("same:", torch.allclose(J @ v, tangent))

# The Jacobian column by column: one forward pass per input element.
columns = []
for k in range(3):
    with fwAD.dual_level():
        basis = torch.zeros(3, dtype=torch.float64)
        basis[k] = 1.0
        columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, basis))).tangent)
print("columns stacked:", torch.stack(columns, dim=1))
print(
    "forward-mode jacobian:",
    torch.autograd.functional.jacobian(f, x, vectorize=True, strategy="forward-mode"),
)


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_forward(z)
        ctx.save_for_backward(z)
        return torch.log(1 + z.exp())

    @staticmethod
    def jvp(ctx, z_t):
        (z,) = ctx.saved_tensors
        return z_t * z.sigmoid()

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return grad * z.sigmoid()


with fwAD.dual_level():
    soft = Softplus.apply(fwAD.make_dual(x, v))
    print("softplus:", soft)


class NoForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


with fwAD.dual_level():
    try:
        NoForward.apply(fwAD.make_dual(x, v))
    except NotImplementedError as error:
        print("NotImplementedError:", error)
    try:
        fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))
    except RuntimeError as error:
        print("RuntimeError:", error)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as error:
        print("RuntimeError:", error)
try:
    fwAD.make_dual(x, v)
except RuntimeError as error:
    print("RuntimeError:", error)

# Forward over reverse: the gradient, computed inside the level, carries H v.
w = x.clone().requires_grad_()
with fwAD.dual_level():
    dual = fwAD.make_dual(w, v)
    (gradient,) = torch.autograd.grad((dual.sin() * dual.pow(3)).sum(), dual, create_graph=True)
    print("H v forward over reverse:", fwAD.unpack_dual(gradient).tangent)
_, hvp = torch.autograd.functional.hvp(lambda t: (t.sin() * t.pow(3)).sum(), x, v)
print("H v double backward:", hvp)
