"""Reductions: ``sum``, ``mean``, ``max`` and ``min``, over everything or along dims.

Their derivatives undo the change of shape: the gradient of the smaller result is put
back in the reduced dimensions and spread over the elements that were reduced.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
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
    saved_as = ("indices",)
    options_as = {"dim": "axis", "keepdim": "keepdim", "self_sym_sizes": "shape"}

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
        ctx.save_for_backward(indices)
        return values

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        if not ctx.shape:
            return grad
        (indices,) = ctx.saved_tensors
        indices = indices._array if ctx.keepdim else np.expand_dims(indices._array, ctx.axis)
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


def _moments(a: Tensor, dims: tuple[int, ...], correction: float) -> tuple[Tensor, float]:
    """The deviations from the mean along ``dims``, and the divisor ``n − correction``."""
    count = int(np.prod([a.shape[d] for d in dims])) if a.ndim else 1
    return a - a.mean(dims, keepdim=True), count - correction


def _var_arguments(
    a: np.ndarray, dim: Any, correction: Any, name: str
) -> tuple[tuple[int, ...], float]:
    if a.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims = normalize_dims(dim, a.ndim)
    count = int(np.prod([a.shape[d] for d in dims])) if a.ndim else 1
    correction = 1 if correction is None else correction
    if count - correction <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=5,
        )
    return dims, correction


@contextlib.contextmanager
def _numpy_quiet() -> Iterator[None]:
    """numpy's own warnings for n − correction <= 0 (its "Degrees of freedom" and its
    division warnings) stay out: the student has already had PyTorch's warning."""
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


class Var(Op):
    """``a.var(dim, correction=1)``: the mean squared deviation, divided by n − correction
    (``unbiased=False`` is ``correction=0``)."""

    formula = "∂var/∂aᵢ = 2(aᵢ − mean)/(n − correction)"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, dim: Any = None, correction: Any = None, keepdim: bool = False
    ) -> np.ndarray:
        ctx.dims, ctx.correction = _var_arguments(a, dim, correction, "var")
        ctx.keepdim, ctx.shape = keepdim, a.shape
        ctx.save_for_backward(a)
        axis = ctx.dims if a.ndim else None
        with _numpy_quiet():
            result = np.var(a, axis=axis, ddof=ctx.correction, keepdims=keepdim)
        return np.asarray(result, dtype=a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        deviations, divisor = _moments(a, ctx.dims, ctx.correction)
        # ÷ divisor as a tensor op: n − correction = 0 gives nan, as in PyTorch, not an error
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape) * deviations * 2 / divisor


class Std(Op):
    """``a.std(dim, correction=1)``: the square root of ``var``."""

    formula = "∂std/∂aᵢ = (aᵢ − mean)/((n − correction)·std)"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, dim: Any = None, correction: Any = None, keepdim: bool = False
    ) -> np.ndarray:
        ctx.dims, ctx.correction = _var_arguments(a, dim, correction, "std")
        ctx.keepdim, ctx.shape = keepdim, a.shape
        axis = ctx.dims if a.ndim else None
        with _numpy_quiet():
            result = np.asarray(
                np.std(a, axis=axis, ddof=ctx.correction, keepdims=keepdim), dtype=a.dtype
            )
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        deviations, divisor = _moments(a, ctx.dims, ctx.correction)
        grad_over_std = _unreduce(grad / result, ctx.dims, ctx.keepdim, ctx.shape)
        return grad_over_std * deviations / divisor


class Prod(Op):
    """``a.prod()`` or ``a.prod(dim)``. Each element's derivative is the product of the
    others: ``result / aᵢ`` when no element is 0, else computed without dividing (one 0
    leaves the gradient only at that 0; two or more leave none), as in PyTorch."""

    formula = "∂(Π a)/∂aᵢ = Π_{j≠i} aⱼ"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False, dtype: Any = None
    ) -> np.ndarray:
        if dim is not None:
            ctx.node_name = "ProdBackward1"
            (axis,) = normalize_dims(dim, a.ndim)
        else:
            axis = None
        target = dtype if dtype is not None else (np.int64 if a.dtype.kind in "biu" else a.dtype)
        ctx.axis, ctx.keepdim, ctx.shape = axis, keepdim, a.shape
        values = a.astype(target, copy=False)
        result = np.asarray(
            np.prod(values, axis=axis if a.ndim else None, keepdims=keepdim and dim is not None),
            dtype=target,
        )
        ctx.has_zero = bool(np.any(values == 0))
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        gradient = Prod.gradient(ctx, grad, a, result)
        # prod(dtype=float64) of float32 values: the gradient is cast back, as for .to()
        return gradient if gradient.dtype == a.dtype else gradient.to(a.dtype)

    @staticmethod
    def gradient(ctx: Context, grad: Tensor, a: Tensor, result: Tensor) -> Tensor:
        if not ctx.shape:  # one number: its product is itself (PyTorch's shortcut too)
            return grad
        if ctx.axis is None:
            grad = grad.expand(ctx.shape)
            if not ctx.has_zero:
                return grad * (result / a)
            flat = a.reshape(-1)
            return grad * _product_of_others(flat, 0).reshape(ctx.shape)
        dims = (ctx.axis,)
        spread = _unreduce(grad, dims, ctx.keepdim, ctx.shape)
        if not ctx.has_zero:
            return spread * (_unreduce(result, dims, ctx.keepdim, ctx.shape) / a)
        return spread * _product_of_others(a, ctx.axis)


def _product_of_others(a: Tensor, axis: int) -> Tensor:
    """For each element along ``axis``, the product of the other elements, with no
    division (so exact where elements are 0): row i of an n × n matrix holds the slice
    with its i-th element replaced by 1, and each row is multiplied out."""
    moved = a.transpose(axis, -1) if a.ndim > 1 else a
    n = moved.shape[-1]
    others_one = constant(np.eye(n, dtype=bool))
    grid = moved.unsqueeze(-2).expand(*moved.shape[:-1], n, n)
    from .unary import where

    products = where(others_one._array, 1.0, grid).prod(-1)
    return products.transpose(axis, -1) if a.ndim > 1 else products


class Cumsum(Op):
    formula = "∂(cumsum a)ⱼ/∂aᵢ = 1 for j ≥ i"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = 0, dtype: Any = None) -> np.ndarray:
        (ctx.axis,) = normalize_dims(dim, a.ndim)
        target = dtype if dtype is not None else (np.int64 if a.dtype.kind in "biu" else a.dtype)
        if a.ndim == 0:
            return a.astype(target)
        return np.cumsum(a, axis=ctx.axis, dtype=target)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        if grad.ndim == 0:
            return grad
        # The sums from the right: total − (sum up to i) + gᵢ.
        dim = ctx.axis
        return grad.sum(dim, keepdim=True) - grad.cumsum(dim) + grad
