"""Reductions: ``sum``, ``mean``, ``max`` and ``min``, over everything or along dims.

Their derivatives undo the change of shape: the gradient of the smaller result is put
back in the reduced dimensions and spread over the elements that were reduced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..function import Context
from ..shapes import normalize_dims
from .base import Op, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


def _unreduce(grad: Tensor, dims: tuple[int, ...], keepdim: bool, shape: tuple[int, ...]):
    """Undo a reduction's shape change: put back the reduced dims, then broadcast. Leading
    dims need no putting back, broadcasting adds them (a full sum's gradient just expands)."""
    if not keepdim and sorted(dims) != list(range(len(dims))):
        grad = grad.reshape(tuple(1 if i in dims else n for i, n in enumerate(shape)))
    return grad.expand(shape)


class Sum(Op):
    formula = "∂(Σ a)/∂aᵢ = 1"
    options_as = {"dim": "dims", "keepdim": "keepdim", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if dim is not None:
            ctx.node_name = "SumBackward1"
        ctx.dims, ctx.keepdim, ctx.shape = normalize_dims(dim, a.ndim), keepdim, a.shape
        dtype = np.int64 if a.dtype.kind in "biu" else None
        return np.sum(a, axis=ctx.dims if a.ndim else None, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape)


class Mean(Op):
    formula = "∂(mean a)/∂aᵢ = 1/n"
    options_as = {
        "dim": "dims",
        "keepdim": "keepdim",
        "self_sym_sizes": "shape",
        "self_sym_numel": "count",
    }

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if a.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {dtypes.scalar_type_name(a.dtype)}"
            )
        if dim is not None:
            ctx.node_name = "MeanBackward1"
        ctx.dims, ctx.keepdim, ctx.shape = normalize_dims(dim, a.ndim), keepdim, a.shape
        ctx.count = int(np.prod([a.shape[d] for d in ctx.dims])) if a.ndim else 1
        return np.mean(a, axis=ctx.dims if a.ndim else None, keepdims=keepdim).astype(a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape) / ctx.count


class MaxAll(Op):
    """``x.max()`` over all elements; ties share the gradient evenly, as in PyTorch."""

    name = "MaxBackward1"
    formula = "∂max/∂aᵢ = 1/k at the k maxima, else 0"
    saved_as = ("self", "result")
    reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.size == 0:
            raise RuntimeError(
                f"{cls.reduce.__name__}(): Expected reduction dim to be specified for "
                "input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        result = np.asarray(cls.reduce(a))
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        # A nan is the max (or min) of anything it is in, as in PyTorch: it gets the gradient.
        at_extreme = (a == result)._array | (np.isnan(a._array) & np.isnan(result._array))
        return grad * constant((at_extreme / at_extreme.sum()).astype(a._array.dtype))


class MinAll(MaxAll):
    name = "MinBackward1"
    formula = "∂min/∂aᵢ = 1/k at the k minima, else 0"
    reduce = staticmethod(np.min)


class MaxDim(Op):
    """``x.max(dim)``: values and the index of each; the gradient goes to that index."""

    name = "MaxBackward0"
    formula = "∂max/∂aᵢ = 1 at the chosen index, else 0"
    pick = staticmethod(np.argmax)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray, dim: int = 0, keepdim: bool = False):
        (axis,) = normalize_dims(dim, a.ndim)
        if a.ndim == 0:
            indices = np.zeros((), dtype=np.int64)
            values = a.copy()
        else:
            indices = cls.pick(a, axis=axis, keepdims=True)
            values = np.take_along_axis(a, indices, axis=axis)
            if not keepdim:
                values, indices = values.squeeze(axis), indices.squeeze(axis)
        ctx.axis, ctx.keepdim, ctx.shape = axis, keepdim, a.shape
        ctx.indices = indices
        return values

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        if not ctx.shape:
            return grad
        indices = ctx.indices if ctx.keepdim else np.expand_dims(ctx.indices, ctx.axis)
        positions = np.arange(ctx.shape[ctx.axis]).reshape(
            [-1 if i == ctx.axis else 1 for i in range(len(ctx.shape))]
        )
        chosen = constant(positions == indices)
        grad = grad if ctx.keepdim else grad.unsqueeze(ctx.axis)
        return grad * chosen


class MinDim(MaxDim):
    name = "MinBackward0"
    formula = "∂min/∂aᵢ = 1 at the chosen index, else 0"
    pick = staticmethod(np.argmin)
