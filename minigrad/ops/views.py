"""Shape changes that return views of their input's memory, as in PyTorch: reshape,
transpose, permute, squeeze, unsqueeze, expand. Each derivative undoes its shape change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..function import Context
from ..shapes import normalize_dims
from .base import Op

if TYPE_CHECKING:
    from ..tensor import Tensor


class View(Op):
    is_view = True
    formula = "reshape: the gradient is reshaped back"

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


class ReshapeAlias(View):
    """``reshape`` of a tensor that is not contiguous (a transpose) but can still be viewed
    in the new shape: PyTorch records this view under its own name."""

    name = "ReshapeAliasBackward0"


class UnsafeView(View):
    """The second half of ``reshape`` where no view can do: PyTorch copies the tensor
    (CloneBackward0), then views the copy, which nothing else can see (so: not a view)."""

    is_view = False
    name = "UnsafeViewBackward0"


class Transpose(Op):
    is_view = True
    formula = "transpose: the gradient is transposed back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim0: int = 0, dim1: int = 1) -> np.ndarray:
        ctx.dims = normalize_dims((dim0, dim1), a.ndim) if a.ndim else (0, 0)
        return np.swapaxes(a, *ctx.dims) if a.ndim else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.transpose(*ctx.dims)


class TransposeMatrix(Op):
    """``x.t()``: a matrix transposed (a vector or a number as it is). ``x.T`` and ``x.mT``
    record a ``PermuteBackward0`` and a ``TransposeBackward0`` instead, as in PyTorch."""

    name = "TBackward0"
    is_view = True
    formula = "transpose: the gradient is transposed back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return a.T

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.t()


class Permute(Op):
    is_view = True
    formula = "permute: the gradient is permuted back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        if len(dims) != a.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                f"the length of the desired ordering of dimensions i.e. input.dim() = {a.ndim} "
                f"is not equal to len(dims) = {len(dims)}"
            )
        ctx.dims = normalize_dims(tuple(dims), a.ndim)
        return np.transpose(a, ctx.dims)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.permute(*np.argsort(ctx.dims).tolist())


class Unsqueeze(Op):
    is_view = True
    formula = "unsqueeze: the gradient is squeezed back"
    options_as = {"dim": "dim"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = 0) -> np.ndarray:
        (ctx.dim,) = normalize_dims(dim, a.ndim + 1)  # the new dim may come after the last
        return np.expand_dims(a, ctx.dim)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.squeeze(ctx.dim)


class Squeeze(Op):
    is_view = True
    formula = "squeeze: the gradient is reshaped back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        ctx.shape = a.shape
        if dim is None:
            return np.squeeze(a)
        ctx.node_name = "SqueezeBackward1"
        dims = tuple(d for d in normalize_dims(dim, a.ndim) if a.ndim and a.shape[d] == 1)
        return np.squeeze(a, axis=dims) if dims else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.reshape(ctx.shape)


class SqueezeInPlace(Squeeze):
    """The squeeze that ends ``vector @ matrix``: PyTorch squeezes its temporary product in
    place (``squeeze_``), a node named SqueezeBackward4."""

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        result = Squeeze.forward(ctx, a, dim=dim)
        ctx.node_name = "SqueezeBackward4"
        return result


class Expand(Op):
    is_view = True
    formula = "expand: the gradient is summed over the copies"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        shape = tuple(
            a.shape[i - (len(shape) - a.ndim)] if s == -1 else s for i, s in enumerate(shape)
        )
        ctx.shape = a.shape
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
        return grad.sum_to_size(ctx.shape)
