"""The setup_context style (forward without ctx), once_differentiable, and
set_materialize_grads with a Function of two outputs."""

import torch
from torch.autograd.function import once_differentiable


class Hypot(torch.autograd.Function):
    @staticmethod
    def forward(a, b):
        return (a * a + b * b).sqrt()

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        ctx.save_for_backward(a, b, output)

    @staticmethod
    def backward(ctx, grad_output):
        a, b, out = ctx.saved_tensors
        return grad_output * a / out, grad_output * b / out


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log(1 + torch.exp(x))

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.sigmoid(x)


class SplitSigns(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clamp(min=0), x.clamp(max=0)

    @staticmethod
    def backward(ctx, grad_positive, grad_negative):
        (x,) = ctx.saved_tensors
        grad = torch.zeros_like(x)
        print("  backward sees None:", grad_positive is None, grad_negative is None)
        if grad_positive is not None:
            grad = grad + grad_positive * (x > 0).to(x.dtype)
        if grad_negative is not None:
            grad = grad + grad_negative * (x < 0).to(x.dtype)
        return grad


a = torch.tensor([3.0, 5.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([4.0, 12.0], dtype=torch.float64, requires_grad=True)
h = Hypot.apply(a, b)
print("hypot:", h, h.grad_fn.name())
h.sum().backward()
print("grads:", a.grad, b.grad)
print("gradcheck:", torch.autograd.gradcheck(Hypot.apply, (a.detach().requires_grad_(), b)))

x = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
s = Softplus.apply(x)
(g,) = torch.autograd.grad(s.sum(), x, create_graph=True)
print("softplus grad:", g)
try:
    g.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
positive, negative = SplitSigns.apply(x)
print(positive, negative)
print("one output used:")
positive.sum().backward()
print("  x.grad:", x.grad)
