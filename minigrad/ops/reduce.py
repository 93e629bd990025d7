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
from ..alike import expanded, kept_where, unsqueezed
from ..function import Context
from ..shapes import normalize_dims, reduced_dims
from .base import Op, as_float, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


def _unreduce(
    grad: Tensor,
    dims: tuple[int, ...],
    keepdim: bool,
    shape: tuple[int, ...],
    all_dims: bool = False,
) -> Tensor:
    """Undo a reduction's shape change: put back the reduced dims one by one (unsqueeze),
    then broadcast, as PyTorch does. A reduction over everything with no dim given
    (``all_dims``) has a 0-d result, which simply expands."""
    if not keepdim and not all_dims and shape:  # (a number reduced stays one)
        for dim in sorted(dims):
            grad = unsqueezed(grad, dim)
    return expanded(grad, shape)


def _all_dims(ctx: Context) -> bool:
    """Whether the op reduced everything because no dim was given (``x.sum()``)."""
    return getattr(ctx, "all_dims", False)


def _reduce_like(tangent: Tensor, ctx: Context) -> Tensor:
    """``tangent`` summed over the dims the op reduced (``ctx.dims``, ``ctx.keepdim``)."""
    if tangent.ndim == 0:
        return tangent.clone()
    return tangent.sum(dim=ctx.dims, keepdim=ctx.keepdim)


class Sum(Op):
    formula = "∂(Σ a)/∂aᵢ = 1"
    jvp_formula = "Σ ȧ"
    options_as = {"dim": "dims", "keepdim": "keepdim", "self_sym_sizes": "shape"}
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if dim is not None:
            ctx.node_name = "SumBackward1"
        ctx.all_dims = dim is None
        ctx.dims, ctx.keepdim, ctx.shape = reduced_dims(dim, a.ndim), keepdim, a.shape
        dtype = np.int64 if a.dtype.kind in "biu" else None
        # np.add.reduce is what np.sum runs for an array, without its Python wrapper (which
        # costs as much as summing a hundred numbers).
        return np.add.reduce(a, axis=ctx.dims if a.ndim else None, dtype=dtype, keepdims=keepdim)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, ctx.all_dims)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return _reduce_like(a_t, ctx)


class Mean(Op):
    formula = "∂(mean a)/∂aᵢ = 1/n"
    jvp_formula = "mean of ȧ"
    options_as = {
        "dim": "dims",
        "keepdim": "keepdim",
        "self_sym_sizes": "shape",
        "self_sym_numel": "count",
    }
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if a.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {dtypes.scalar_type_name(a.dtype)}"
            )
        if dim is not None:
            ctx.node_name = "MeanBackward1"
        ctx.all_dims = dim is None
        ctx.dims, ctx.keepdim, ctx.shape = reduced_dims(dim, a.ndim), keepdim, a.shape
        count = 1
        for d in ctx.dims if a.ndim else ():
            count *= a.shape[d]
        ctx.count = count
        axis = ctx.dims if a.ndim else None
        if count == 0 or a.dtype.itemsize == 2:  # empty (its warning) or float16 (float32 sum)
            return np.mean(a, axis=axis, keepdims=keepdim).astype(a.dtype)
        # The sum divided by the count, as np.mean computes it, without its Python wrapper.
        total = np.add.reduce(a, axis=axis, keepdims=keepdim)
        return np.true_divide(total, count, dtype=a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, ctx.all_dims) / ctx.count

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return _reduce_like(a_t, ctx) / ctx.count


class MaxAll(Op):
    """``x.max()`` over all elements; ties share the gradient evenly, as in PyTorch."""

    name = "MaxBackward1"
    formula = "∂max/∂aᵢ = 1/k at the k maxima, else 0"
    jvp_formula = "Σ ȧ at the k maxima / k"
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
        # grad / k, as PyTorch divides (grad · (1/k) can round the other way), put at the
        # extremes: 0, not -0.0, away from them.
        return kept_where(at_extreme, grad / int(at_extreme.sum()))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        # PyTorch's forward rule, Σ (ȧ / k) · mask, is not its backward's: a nan is equal
        # to nothing here, so a nan max has k = 0 and the tangent nan; and it multiplies by
        # the 0/1 mask (an inf away from the extremes gives nan).
        a, result = ctx.primals[0]._array, ctx.result._array
        at_extreme = a == result
        return (a_t / int(at_extreme.sum()) * constant(at_extreme.astype(a.dtype))).sum()


class MinAll(MaxAll):
    name = "MinBackward1"
    formula = "∂min/∂aᵢ = 1/k at the k minima, else 0"
    jvp_formula = "Σ ȧ at the k minima / k"
    reduce = staticmethod(np.min)


class MaxDim(Op):
    """``x.max(dim)``: values and the index of each; the gradient goes to that index."""

    name = "MaxBackward0"
    formula = "∂max/∂aᵢ = 1 at the chosen index, else 0"
    jvp_formula = "ȧ at the chosen index"
    pick = staticmethod(np.argmax)
    saved_as = ("indices",)
    options_as = {"dim": "axis", "keepdim": "keepdim", "self_sym_sizes": "shape"}

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray, dim: int = 0, keepdim: bool = False):
        (axis,) = normalize_dims(dim, a.ndim)
        if a.ndim and a.shape[axis] == 0:  # no element to pick (PyTorch names the dim >= 0)
            name = cls.pick.__name__.removeprefix("arg")
            raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
        if a.ndim == 0:
            indices = np.zeros((), dtype=np.int64)
            values = a.copy()
        else:
            indices = cls.pick(a, axis=axis, keepdims=True)
            values = np.take_along_axis(a, indices, axis=axis)
            if not keepdim:
                values, indices = values.squeeze(axis), indices.squeeze(axis)
        ctx.axis, ctx.keepdim, ctx.shape, ctx.indices = axis, keepdim, a.shape, indices
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
        chosen = positions == indices
        grad = grad if ctx.keepdim else grad.unsqueeze(ctx.axis)
        return kept_where(chosen, grad)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        if not ctx.shape:
            return a_t.clone()
        indices = ctx.indices if ctx.keepdim else np.expand_dims(ctx.indices, ctx.axis)
        picked = a_t.gather(ctx.axis, constant(indices))
        return picked if ctx.keepdim else picked.squeeze(ctx.axis)


class MinDim(MaxDim):
    name = "MinBackward0"
    formula = "∂min/∂aᵢ = 1 at the chosen index, else 0"
    jvp_formula = "ȧ at the chosen index"
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
    dims = reduced_dims(dim, a.ndim)
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
    jvp_formula = "2·Σ (a − mean)·ȧ / (n − correction)"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, dim: Any = None, correction: Any = None, keepdim: bool = False
    ) -> np.ndarray:
        ctx.dims, ctx.correction = _var_arguments(a, dim, correction, "var")
        ctx.all_dims = dim is None
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
        spread = _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        return spread * deviations * 2 / divisor

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        deviations, divisor = _moments(ctx.primals[0], ctx.dims, ctx.correction)
        return _reduce_like(deviations * a_t, ctx) * 2 / divisor


class Std(Op):
    """``a.std(dim, correction=1)``: the square root of ``var``."""

    formula = "∂std/∂aᵢ = (aᵢ − mean)/((n − correction)·std)"
    jvp_formula = "Σ (a − mean)·ȧ / ((n − correction)·std)"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, dim: Any = None, correction: Any = None, keepdim: bool = False
    ) -> np.ndarray:
        ctx.dims, ctx.correction = _var_arguments(a, dim, correction, "std")
        ctx.all_dims = dim is None
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
        grad_over_std = _unreduce(grad / result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        return grad_over_std * deviations / divisor

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        deviations, divisor = _moments(ctx.primals[0], ctx.dims, ctx.correction)
        return _reduce_like(deviations * a_t, ctx) / divisor / ctx.result


class Prod(Op):
    """``a.prod()`` or ``a.prod(dim)``. Each element's derivative is the product of the
    others: ``result / aᵢ`` when no element is 0, else computed without dividing (one 0
    leaves the gradient only at that 0; two or more leave none), as in PyTorch."""

    formula = "∂(Π a)/∂aᵢ = Π_{j≠i} aⱼ"
    jvp_formula = "Σ ȧᵢ·Π_{j≠i} aⱼ"

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

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        (a,) = ctx.primals
        result = ctx.result
        ones = constant(np.ones(result._array.shape, dtype=result._array.dtype))
        others = Prod.gradient(ctx, ones, a.to(result.dtype), result)  # Π of the others
        if not ctx.shape:
            return a_t * others
        if ctx.axis is None:
            return (a_t * others).sum()
        return (a_t * others).sum(ctx.axis, keepdim=ctx.keepdim)


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


def _reduced_dims(a: np.ndarray, dim: Any, name: str) -> tuple[int, ...]:
    """The dims ``amax``/``amin`` reduce (all of them for ``dim=()``), refusing an empty
    tensor or dim with PyTorch's messages."""
    dims = reduced_dims(dim, a.ndim)
    if a.size == 0 and dim in ((), [], None):
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    given = dims if dim in ((), [], None) else (dim if isinstance(dim, tuple | list) else (dim,))
    for d, as_given in zip(dims, given, strict=True):
        if a.ndim and a.shape[d] == 0:  # named as it was given (amax(-1) says -1)
            raise IndexError(f"{name}(): Expected reduction dim {as_given} to have non-zero size.")
    return dims


class Amax(Op):
    """``a.amax(dim)``: the largest values along ``dim`` (all dims by default). Ties share
    the gradient evenly, as in PyTorch (``max(dim)`` gives it all to one index instead)."""

    formula = "∂amax/∂aᵢ = 1/k at the k maxima, else 0"
    jvp_formula = "Σ ȧ at the k maxima / k"
    saved_as = ("self", "result")
    options_as = {"dim": "dims", "keepdim": "keepdim"}
    reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray, dim: Any = (), keepdim: bool = False):
        ctx.dims = _reduced_dims(a, dim, cls.__name__.lower())
        ctx.all_dims = dim in ((), [], None)
        ctx.keepdim, ctx.shape = keepdim, a.shape
        axis = ctx.dims if a.ndim else None
        result = np.asarray(cls.reduce(a, axis=axis, keepdims=keepdim and a.ndim > 0))
        ctx.save_for_backward(a, result)
        return result

    # PyTorch's formulas, kept to the letter. A nan equals nothing, not even the nan result
    # of its slice: there k = 0, and the whole slice's gradient and tangent are nan (unlike
    # max()'s, which go to the nans). The gradient is (grad / k) · mask, multiplied, so a
    # negative one gives -0. away from the extremes; the tangent selects.

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        extreme = _unreduce(result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))._array
        at_extreme = a._array == extreme
        dtype = a._array.dtype
        count = at_extreme.sum(axis=ctx.dims if a.ndim else None, keepdims=True, dtype=dtype)
        spread = _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        return spread / constant(count) * constant(at_extreme.astype(dtype))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        a = ctx.primals[0]._array
        extreme = _unreduce(ctx.result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))._array
        at_extreme = a == extreme
        axis = ctx.dims if a.ndim else None
        count = at_extreme.sum(axis=axis, keepdims=ctx.keepdim, dtype=a.dtype)
        return _reduce_like(kept_where(at_extreme, a_t), ctx) / constant(count)


class Amin(Amax):
    formula = "∂amin/∂aᵢ = 1/k at the k minima, else 0"
    jvp_formula = "Σ ȧ at the k minima / k"
    reduce = staticmethod(np.min)


def _logsumexp_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """The dims logsumexp reduces: as any reduction's, except that ``dim=()`` reduces none
    (the result is the input; PyTorch fails on it with an internal shape error)."""
    return () if dim in ((), []) else reduced_dims(dim, ndim)


class Logsumexp(Op):
    """``a.logsumexp(dim)``: ``log Σ exp(aᵢ)`` along ``dim``, computed after taking out the
    largest value, so that large ``aᵢ`` do not overflow. Its derivative is softmax."""

    formula = "∂logsumexp/∂aᵢ = exp(aᵢ − logsumexp) = softmax(a)ᵢ"
    jvp_formula = "Σ ȧ·softmax(a)"
    saved_as = ("self", "result")
    options_as = {"dim": "dims", "keepdim": "keepdim"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        ctx.dims, ctx.keepdim, ctx.shape = _logsumexp_dims(dim, a.ndim), keepdim, a.shape
        values = as_float(a)
        axis = ctx.dims if a.ndim else None
        if values.size == 0:
            result = np.full(np.sum(values, axis=axis, keepdims=keepdim).shape, -np.inf)
        else:
            largest = np.max(values, axis=axis, keepdims=True)
            largest = np.where(np.isfinite(largest), largest, 0)  # all -inf, or an inf
            with np.errstate(divide="ignore"):
                total = np.log(np.sum(np.exp(values - largest), axis=axis, keepdims=True))
            result = total + largest
            if not keepdim and a.ndim:
                result = np.squeeze(result, axis=ctx.dims)
        result = np.asarray(result, dtype=values.dtype)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        full = _unreduce(result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx)) * (a - full).exp()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        full = _unreduce(ctx.result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        return _reduce_like(a_t * (ctx.primals[0] - full).exp(), ctx)


class Cumsum(Op):
    formula = "∂(cumsum a)ⱼ/∂aᵢ = 1 for j ≥ i"
    jvp_formula = "cumsum(ȧ)"

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

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.clone() if a_t.ndim == 0 else a_t.cumsum(ctx.axis)


# -- reductions with no derivative: tests and counts -------------------------------------
def all_or_any(a: Tensor, test: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """``a.all(dim)`` (``test`` is ``np.all``) or ``a.any(dim)`` (``np.any``): whether every
    (some) element is non-zero, over everything or along ``dim``. The result is bool, but
    uint8 for a uint8 tensor, as in PyTorch; it is never recorded."""
    from ..tensor import Tensor

    values = a._array
    axis = None if dim is None else normalize_dims(dim, values.ndim)
    if values.ndim == 0:  # dim 0 (or -1) of a number is the number itself
        axis = None
    # keepdim without dim keeps every dimension, at size 1: (2, 3) gives (1, 1)
    found = np.asarray(test(values, axis=axis, keepdims=keepdim))
    return Tensor(found.astype(np.uint8 if values.dtype == np.uint8 else np.bool_))


def histogram_edges(a: np.ndarray, bins: int, low: Any, high: Any, name: str) -> np.ndarray:
    """``bins + 1`` evenly spaced edges from ``low`` to ``high`` (the data's least and
    greatest when None; an empty tensor gives [0, 1], a single value v gives [v − ½, v + ½]
    in ``histogram``), as PyTorch places them."""
    if bins <= 0:
        raise RuntimeError(
            f"minigrad.histogram(): bins must be > 0, but got {bins} for dimension 0"
        )
    if low is None:
        low, high = (float(a.min()), float(a.max())) if a.size else (0.0, 1.0)
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(
                f"minigrad.{name}: dimension 0's range [{low:g}, {high:g}] is not finite"
            )
    elif low > high:
        raise RuntimeError(
            f"minigrad.histogramdd: min should not exceed max, but got min {low:g} max {high:g} "
            "for dimension 0"
        )
    if low == high:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, bins + 1, dtype=np.float64).astype(a.dtype)


def histogram(
    a: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None, density: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The counts (or summed ``weight``) of ``a``'s values in each bin and the bins' edges:
    ``bins`` equal bins over ``range`` (the data's, when None), or the edges given as a
    tensor. The last bin includes its right edge. ``density`` divides by the total and the
    bins' widths, so the histogram integrates to 1."""
    from ..tensor import Tensor

    values = a._array
    if values.dtype.kind != "f":
        raise NotImplementedError(
            f"\"histogramdd\" not implemented for '{dtypes.scalar_type_name(values.dtype)}'"
        )
    if isinstance(bins, Tensor):
        edges = bins._array.astype(values.dtype)
    else:
        low, high = (None, None) if range is None else range
        edges = histogram_edges(values, int(bins), low, high, "histogramdd")
    weights = None
    if weight is not None:
        if weight.shape != a.shape:
            raise RuntimeError(
                "minigrad.histogramdd: if weight tensor is provided it should have the same shape "
                "as the input tensor excluding its innermost dimension, but got input with "
                f"shape {[*a.shape, 1]} and weight with shape {list(weight.shape)}"
            )
        weights = weight._array.ravel()
    counts, _ = np.histogram(values.ravel(), edges, weights=weights)  # [a, b), last [a, b]
    if density:
        counts = counts / (counts.sum() * np.diff(edges))
    return counts.astype(values.dtype), edges


def histc(a: Tensor, bins: int, low: float, high: float) -> np.ndarray:
    """``histogram``'s counts alone, over [``low``, ``high``]: the data's range when the two
    are equal (both 0 by default), widened by 1 each way if the data are one value. Values
    outside the range are left out."""
    values = a._array
    if values.dtype.kind != "f":
        raise NotImplementedError(
            f"\"histogram_cpu\" not implemented for '{dtypes.scalar_type_name(values.dtype)}'"
        )
    if low > high:
        raise RuntimeError("minigrad.histc: max must be larger than min")
    if low == high and values.size:
        low, high = float(values.min()), float(values.max())
    if low == high:
        low, high = low - 1, high + 1
    edges = histogram_edges(values, int(bins), low, high, "histc")
    counts, _ = np.histogram(values.ravel(), edges)
    return counts.astype(values.dtype)
