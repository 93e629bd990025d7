"""Functions of one tensor, elementwise: ``exp``, ``log``, ``sin``, ``tanh``, ``clamp``, ...
and ``where``, which picks elementwise between two."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..function import Context
from .base import Elementwise, Op, as_float, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class Exp(Op):
    formula = "∂eᵃ/∂a = eᵃ"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.exp(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * result


class Log(Op):
    formula = "∂ln a/∂a = 1/a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad / a


class Sqrt(Op):
    formula = "∂√a/∂a = 1/(2√a)"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            result = np.sqrt(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad / (2 * result)


class Abs(Op):
    formula = "∂|a|/∂a = sign(a)"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.sign()


class Sign(Op):
    """``sign(a)``: recorded, as in PyTorch, with a derivative that is zero everywhere (so
    that the derivative of ``abs``, which uses it, is itself differentiable)."""

    formula = "∂sign(a)/∂a = 0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "f":  # sign(nan) is 0 in PyTorch (numpy says nan)
            return np.where(np.isnan(a), 0, np.sign(a)).astype(a.dtype, copy=False)
        return np.sign(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad * 0


class Sin(Op):
    formula = "∂sin a/∂a = cos a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.sin(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.cos()


class Cos(Op):
    formula = "∂cos a/∂a = −sin a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.cos(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * -a.sin()


class Tanh(Op):
    formula = "∂tanh a/∂a = 1 − tanh²a"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.tanh(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * (1 - result * result)


class Clamp(Op):
    name = "ClampBackward1"
    formula = "∂clamp(a)/∂a = 1 inside [min, max], else 0"
    saved_as = ("self",)
    options_as = {"min": lambda node: node.bounds[0], "max": lambda node: node.bounds[1]}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, min: Any = None, max: Any = None) -> np.ndarray:
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        return np.clip(a, min, max)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        low, high = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a._array >= low
        if high is not None:
            inside &= a._array <= high
        return grad * constant(inside)


class Where(Elementwise):
    formula = "∂where(c, a, b)/∂a = c,  ∂/∂b = not c"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, condition: Any = None) -> np.ndarray:
        ctx.condition = condition
        return np.where(condition, a, b).astype(np.result_type(a, b), copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        keep = constant(np.asarray(ctx.condition))
        return grad * keep, grad * ~keep


def where(condition: Any, a: Any, b: Any) -> Tensor:
    """``a`` where ``condition`` holds, else ``b``: ``minigrad.where(x > 0, x, 0.0)``."""
    from ..tensor import Tensor, _operand

    condition = condition._array if isinstance(condition, Tensor) else np.asarray(condition)
    return Where.apply(_operand(a), _operand(b), condition=condition)
