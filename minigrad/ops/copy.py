"""Copies and overwrites: a change of dtype, ``clone``, and the in-place ``fill_``,
``zero_`` and ``copy_`` as PyTorch records them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..function import Context
from ..shapes import broadcast_shape
from .base import Op, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class ToCopy(Op):
    """A change of dtype: the gradient is cast back to the input's dtype."""

    formula = "cast: the gradient is cast back"
    jvp_formula = "ȧ cast"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dtype: Any = None) -> np.ndarray:
        ctx.dtype = a.dtype
        return a.astype(dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.to(ctx.dtype)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return ToCopy.apply(a_t, dtype=ctx.result._array.dtype)


class Clone(Op):
    formula = "clone: the gradient passes through"
    jvp_formula = "ȧ"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        return a.copy()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return Clone.apply(a_t)


class Fill(Op):
    """``x.fill_(value)`` recorded: the old values no longer matter, so no gradient flows."""

    name = "FillBackward2"  # PyTorch's node for fill_ with a number
    formula = "fill: ∂/∂a = 0"
    jvp_formula = "0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: Any = 0) -> np.ndarray:
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        # Zeros with no history, as PyTorch's (grad * 0 would be -0. or nan where the
        # gradient is negative or not finite).
        return constant(np.zeros_like(grad._array))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return constant(np.zeros_like(ctx.result._array))


class Zero(Fill):
    """``x.zero_()`` recorded: PyTorch's own node for it."""

    name = "ZeroBackward0"
    formula = "zero: ∂/∂a = 0"
    jvp_formula = "0"


class FillWithTensor(Op):
    """``x.fill_(value)`` with a 0-d tensor, which is how ``x[...] = 5.0`` and ``x[i] = 5.0``
    fill in PyTorch: no gradient to the old values; ``value`` gets the sum of the gradient,
    as it was copied into every place."""

    name = "FillBackward3"
    formula = "fill: ∂/∂a = 0,  ∂/∂value = Σ of the gradient"
    jvp_formula = "v̇ everywhere"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: np.ndarray) -> np.ndarray:
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        # Zeros with no history, as PyTorch's: the old values had no effect at all.
        return constant(np.zeros_like(grad._array)), grad.sum()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, value_t: Tensor | None) -> Tensor:
        return _copied_tangent(value_t, ctx.result)


class CopyFrom(Op):
    """``x.copy_(source)`` recorded: the gradient goes to ``source``, none to old ``x``."""

    name = "minigrad::autograd::CopyBackwards"  # PyTorch's, in minigrad's namespace
    formula = "copy: ∂/∂x = 0, ∂/∂source = 1"
    jvp_formula = "ṡ"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, source: np.ndarray) -> np.ndarray:
        shape = broadcast_shape(a.shape, source.shape)  # PyTorch's error if they clash
        if shape != a.shape:
            raise RuntimeError(
                f"output with shape {list(a.shape)} doesn't match the broadcast shape {list(shape)}"
            )
        return np.broadcast_to(source, a.shape).astype(a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return constant(np.zeros_like(grad._array)), grad  # zeros, as Fill's

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, source_t: Tensor | None) -> Tensor:
        return _copied_tangent(source_t, ctx.result)


def _copied_tangent(source_t: Tensor | None, result: Tensor) -> Tensor:
    """The tangent of a tensor overwritten by a source: the source's tangent, copied in the
    result's dtype (the engine broadcasts it), or zeros for a source without one. Copied,
    not added to zeros, which would turn a -0. into 0 where PyTorch keeps it."""
    if source_t is None:
        return constant(np.zeros_like(result._array))
    return ToCopy.apply(source_t, dtype=result._array.dtype)
