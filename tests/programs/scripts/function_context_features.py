"""Custom Functions using the context: non-Tensor arguments, mark_dirty for an in-place
op, mark_non_differentiable for an index output, several outputs."""

import torch


class ScaledShift(torch.autograd.Function):
    """y = scale * x + shift, with scale a Python number and shift a string-selected mode."""

    @staticmethod
    def forward(ctx, x, scale, mode):
        ctx.scale = scale
        ctx.mode = mode
        return x * scale + (1.0 if mode == "plus" else -1.0)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None, None


class DoubleInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 2


class MaxWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        index = x.argmax()
        value = x[index]
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(index)
        ctx.size = x.shape[0]
        return value, index

    @staticmethod
    def backward(ctx, grad_value, grad_index):
        (index,) = ctx.saved_tensors
        grad = torch.zeros(ctx.size, dtype=grad_value.dtype)
        grad[index] = grad_value
        return grad


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = ScaledShift.apply(x, 2.5, "plus")
print(y, y.grad_fn.name())
y.sum().backward()
print("grad with scale 2.5:", x.grad)

leaf = torch.tensor([1.0, 4.0], requires_grad=True)
try:
    DoubleInPlace.apply(leaf)
except RuntimeError as error:
    print("RuntimeError:", error)
base = leaf.clone()
result = DoubleInPlace.apply(base)
print("same object:", result is base, result, result.grad_fn.name())
(result * result).sum().backward()
print("leaf.grad through the in-place op:", leaf.grad)

v = torch.tensor([0.5, 2.0, -1.0, 1.5], requires_grad=True)
value, index = MaxWithIndex.apply(v)
print("value", value, "index", index)
print("index requires grad:", index.requires_grad, "value requires grad:", value.requires_grad)
(value * 3).backward()
print("v.grad:", v.grad)
