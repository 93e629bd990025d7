"""Shape changes that return views of their input's memory, as in PyTorch: reshape,
transpose, permute, squeeze, unsqueeze, expand. Each derivative undoes its shape change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..alike import expanded_view, summed_to, transposed
from ..function import Context
from ..shapes import distinct_dims, normalize_dims
from .base import Op

if TYPE_CHECKING:
    from ..tensor import Tensor


class View(Op):
    is_view = True
    formula = "reshape: the gradient is reshaped back"
    jvp_formula = "ȧ reshaped"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx.shape = a.shape
        try:
            return a.reshape(shape)
        except ValueError:
            shown = list(shape)
            raise RuntimeError(f"shape '{shown}' is invalid for input of size {a.size}") from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.reshape(ctx.shape)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.reshape(ctx.result.shape)


class FwPrimal(Op):
    """``unpack_dual``'s primal: a view of a dual tensor without its tangent. PyTorch's
    node for it is ``torch::autograd::Identity``; the gradient passes through."""

    name = "minigrad::autograd::Identity"
    is_view = True
    formula = "identity: the gradient passes through"
    jvp_formula = "ȧ (the tangent at other levels)"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        return a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad

    @staticmethod
    def jvp(ctx: Context, tangent: Tensor) -> Tensor:
        return FwPrimal.apply(tangent)


class ReshapeAlias(View):
    """``reshape`` of a tensor that is not contiguous (a transpose) but can still be viewed
    in the new shape: PyTorch records this view under its own name."""

    name = "ReshapeAliasBackward0"
    jvp_formula = "ȧ reshaped"


class UnsafeView(View):
    """The second half of ``reshape`` where no view can do: PyTorch copies the tensor
    (CloneBackward0), then views the copy, which nothing else can see (so: not a view)."""

    is_view = False
    jvp_formula = "ȧ reshaped"
    name = "UnsafeViewBackward0"


class Transpose(Op):
    is_view = True
    formula = "transpose: the gradient is transposed back"
    jvp_formula = "ȧ transposed"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim0: int = 0, dim1: int = 1) -> np.ndarray:
        ctx.dims = normalize_dims((dim0, dim1), a.ndim) if a.ndim else (0, 0)
        return np.swapaxes(a, *ctx.dims) if a.ndim else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.transpose(*ctx.dims)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.transpose(*ctx.dims) if a_t.ndim else a_t.view(())


class TransposeMatrix(Op):
    """``x.t()``: a matrix transposed (a vector or a number as it is). ``x.T`` and ``x.mT``
    record a ``PermuteBackward0`` and a ``TransposeBackward0`` instead, as in PyTorch."""

    name = "TBackward0"
    is_view = True
    formula = "transpose: the gradient is transposed back"
    jvp_formula = "ȧ transposed"
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return a.T

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return transposed(grad)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.t()


class Permute(Op):
    is_view = True
    formula = "permute: the gradient is permuted back"
    jvp_formula = "ȧ permuted"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        if len(dims) != a.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                f"the length of the desired ordering of dimensions i.e. input.dim() = {a.ndim} "
                f"is not equal to len(dims) = {len(dims)}"
            )
        ctx.dims = normalize_dims(tuple(dims), a.ndim)
        if len(set(ctx.dims)) != len(ctx.dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return np.transpose(a, ctx.dims)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.permute(tuple(np.argsort(ctx.dims).tolist()))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.permute(tuple(ctx.dims))


class Unsqueeze(Op):
    is_view = True
    formula = "unsqueeze: the gradient is squeezed back"
    jvp_formula = "ȧ unsqueezed"
    options_as = {"dim": "dim"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = 0) -> np.ndarray:
        (ctx.dim,) = normalize_dims(dim, a.ndim + 1)  # the new dim may come after the last
        return np.expand_dims(a, ctx.dim)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.squeeze(ctx.dim)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.unsqueeze(ctx.dim)


class Squeeze(Op):
    is_view = True
    formula = "squeeze: the gradient is reshaped back"
    jvp_formula = "ȧ squeezed"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        ctx.shape = a.shape
        if dim is None:
            return np.squeeze(a)
        # PyTorch's overloads: squeeze(dim) is SqueezeBackward1, squeeze(dims) ...2
        ctx.node_name = "SqueezeBackward2" if isinstance(dim, tuple | list) else "SqueezeBackward1"
        dims = tuple(d for d in distinct_dims(dim, a.ndim) if a.ndim and a.shape[d] == 1)
        return np.squeeze(a, axis=dims) if dims else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.reshape(ctx.shape)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.reshape(ctx.result.shape)


class SqueezeInPlace(Squeeze):
    """The squeeze that ends ``vector @ matrix``: PyTorch squeezes its temporary product in
    place (``squeeze_``), a node named SqueezeBackward4."""

    jvp_formula = "ȧ squeezed"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        result = Squeeze.forward(ctx, a, dim=dim)
        ctx.node_name = "SqueezeBackward4"
        return result


def _expand_error(a: np.ndarray, shape: tuple[int, ...]) -> RuntimeError:
    """PyTorch's refusal of fewer sizes than dims, or of -1 ("as it is") for a new dim."""
    added = len(shape) - a.ndim
    if added >= 0:
        at = shape.index(-1)
        return RuntimeError(
            f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
            f"dimension {at}"
        )
    kind = dtypes.from_numpy_dtype(a.dtype).scalar_type
    name = "CPUBoolType" if kind == "Bool" else f"minigrad.{kind}Tensor"  # PyTorch's names
    return RuntimeError(
        f"expand({name}{{{list(a.shape)}}}, size={list(shape)}): the number of sizes provided "
        f"({len(shape)}) must be greater or equal to the number of dimensions in the tensor "
        f"({a.ndim})"
    )


class Expand(Op):
    is_view = True
    formula = "expand: the gradient is summed over the copies"
    jvp_formula = "ȧ expanded"
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        added = len(shape) - a.ndim  # the new leading dims
        if added < 0 or -1 in shape[:added]:
            raise _expand_error(a, shape)
        shape = tuple(a.shape[i - added] if s == -1 else s for i, s in enumerate(shape))
        ctx.shape = a.shape
        view = expanded_view(a, shape)
        if view is not None:
            return view
        try:
            return np.broadcast_to(a, shape)
        except ValueError:
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[-1]}) must match the existing size "
                f"({a.shape[-1] if a.ndim else 1}) at non-singleton dimension "
                f"{len(shape) - 1}.  Target sizes: {list(shape)}.  Tensor sizes: {list(a.shape)}"
            ) from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return summed_to(grad, ctx.shape)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t.expand(ctx.result.shape)


def positions_in_base(view: np.ndarray, base: np.ndarray) -> np.ndarray:
    """For each element of ``view``, the place (a flat, row-major index) of the element of
    ``base`` whose memory it shares: the geometry PyTorch keeps as sizes, strides and an
    offset, as a table that indexing can use directly.

    >>> base = np.zeros((3, 2))
    >>> positions_in_base(base[1:, 1], base)
    array([3, 5])
    """
    itemsize = base.itemsize
    low, high = np.lib.array_utils.byte_bounds(base)
    view_low, view_high = np.lib.array_utils.byte_bounds(view)
    if view.size and not low <= view_low <= view_high <= high:
        raise RuntimeError("a view must lie in its base's memory")  # never read beyond it
    # One number per element of the memory the base spans, the base's own place in it
    # written at each of its elements; the view then reads those numbers through its own
    # strides from its own start.
    numbering = np.full((high - low) // itemsize, -1, dtype=np.int64)

    def seen_through(array: np.ndarray) -> np.ndarray:
        start = (array.__array_interface__["data"][0] - low) // itemsize
        strides = tuple(s // itemsize * numbering.itemsize for s in array.strides)
        return np.lib.stride_tricks.as_strided(numbering[start:], array.shape, strides)

    seen_through(base)[...] = np.arange(base.size).reshape(base.shape)
    return seen_through(view).copy()


class AsStrided(Op):
    """The history a view is given again once its memory was changed in place, by itself,
    by its base or by another view of it (PyTorch regenerates it the same way): the view is
    read off its base at ``positions``, so its gradient goes back to those places of the
    base, and the base's gradient from there follows the base's new history."""

    name = "AsStridedBackward0"
    is_view = True
    formula = "as_strided: the gradient goes back to the view's places in its base, 0 elsewhere"
    jvp_formula = "ȧ read at the view's places"
    options_as = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}

    @staticmethod
    def forward(ctx: Context, base: np.ndarray, view: Any = None) -> np.ndarray:
        """``view`` is a numpy view of ``base``'s memory; it is returned as it is."""
        ctx.positions, ctx.base_shape = positions_in_base(view, base), base.shape
        ctx.size = tuple(view.shape)
        ctx.stride = tuple(s // view.itemsize for s in view.strides)
        low = np.lib.array_utils.byte_bounds(base)[0]
        ctx.storage_offset = (view.__array_interface__["data"][0] - low) // view.itemsize
        return view

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        from .index import IndexPutAccumulate

        flat = IndexPutAccumulate.apply(
            grad, shape=(int(np.prod(ctx.base_shape)),), index=ctx.positions
        )
        return flat.reshape(ctx.base_shape)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        from .index import Index

        return Index.apply(a_t.reshape(-1), index=ctx.positions)
