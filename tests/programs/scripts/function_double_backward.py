"""A custom Function whose backward is itself differentiable (written with tensor ops), so
autograd.grad with create_graph=True gives second derivatives through it."""

import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = Cube.apply(x)
print("y:", y)
(first,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("first derivative 3x^2:", first)
print("first has a graph:", first.requires_grad, first.grad_fn is not None)
(second,) = torch.autograd.grad(first.sum(), x, create_graph=True)
print("second derivative 6x:", second)
(third,) = torch.autograd.grad(second.sum(), x)
print("third derivative 6:", third)

# Backward of backward through .backward(create_graph=True) accumulates into .grad.
z = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
out = Cube.apply(z) * z
out.backward(create_graph=True)
print("d(z^4)/dz at 1.5:", z.grad)
g = z.grad
z.grad = None
g.backward()
print("d2(z^4)/dz2 at 1.5:", z.grad)

print("gradgradcheck:", torch.autograd.gradgradcheck(Cube.apply, (x.detach().requires_grad_(),)))
