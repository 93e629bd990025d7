"""Indexing (``x[i]``, ``x[i] = v``) and joining (``cat``, ``stack``).

``index`` decides which nodes an index records, as PyTorch does: one view per item of a
basic index, then one ``IndexBackward0`` for the advanced part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..function import Context
from ..shapes import normalize_dims
from .base import Op, constant
from .views import Unsqueeze

if TYPE_CHECKING:
    from ..tensor import Tensor


class Index(Op):
    """``x[index]``: basic indexing (``x[0]``, ``x[:, 1:]``) is a view; advanced indexing
    (lists, tensors, masks) copies. The gradient goes back to the places that were read."""

    is_view = True  # basic indexing shares memory; Tensor._from_op checks that it does
    formula = "index: the gradient is scattered back to the indexed places"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, index: Any = None) -> np.ndarray:
        ctx.index, ctx.shape = index, a.shape
        ctx.node_name = _index_node_name(index)
        try:
            return a[index]
        except IndexError as error:
            raise IndexError(_index_message(error, a.shape)) from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return IndexPutAccumulate.apply(grad, shape=ctx.shape, index=ctx.index)


def index(a: Tensor, index: Any) -> Tensor:
    """``a[index]``, recorded as PyTorch records it: one view per item of a basic index
    (``m[0, 1:]`` is a SliceBackward0 after a SelectBackward0, ``None`` an unsqueeze, a full
    ``:`` inside a tuple nothing at all), then one IndexBackward0 for the advanced part
    (lists, tensors, masks), applied to that view."""
    index = normalize_index(index)
    if isinstance(index, slice):  # a lone slice is recorded even when it keeps everything
        return Index.apply(a, index=index)
    parts = index if isinstance(index, tuple) else (index,)
    if not all(_is_chainable(p) for p in parts):
        return Index.apply(a, index=index)
    specified = sum(
        (p.ndim if p.dtype == np.bool_ else 1) if isinstance(p, np.ndarray) else 1
        for p in parts
        if p is not None and p is not Ellipsis
    )
    if specified > a.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a.ndim}")
    # dim: where the next item applies in the result so far; source: the same place in `a`,
    # which error messages name.
    result, dim, source, advanced = a, 0, 0, []
    for part in parts:
        if part is Ellipsis:
            dim, source = dim + a.ndim - specified, source + a.ndim - specified
        elif part is None:
            result, dim = Unsqueeze.apply(result, dim=dim), dim + 1
        elif isinstance(part, np.ndarray):
            advanced.append((dim, part))
            covered = part.ndim if part.dtype == np.bool_ else 1
            dim, source = dim + covered, source + covered
        elif isinstance(part, slice):
            if not _slice_keeps_everything(part, result.shape[dim]):
                result = Index.apply(result, index=(slice(None),) * dim + (part,))
            dim, source = dim + 1, source + 1
        else:  # an integer selects, and its dimension disappears
            check_in_bounds(part, result.shape[dim], source)
            result, source = Index.apply(result, index=(slice(None),) * dim + (part,)), source + 1
    if advanced:
        positions: list[Any] = []
        for where, array in advanced:
            positions += [slice(None)] * (where - len(positions)) + [array]
        return Index.apply(result, index=tuple(positions))
    return Index.apply(a, index=Ellipsis) if result is a else result


def _slice_keeps_everything(part: slice, size: int) -> bool:
    """Whether PyTorch skips this slice inside a tuple (``x[:, 0:]``, ``x[..., 0:size]``).
    It decides on the start as written, not on what it selects: ``x[..., 1:]`` of an empty
    dimension still records a SliceBackward0."""
    if part.step not in (None, 1) or part.start not in (None, 0):
        return False
    if part.stop is None:
        return True
    return (part.stop + size if part.stop < 0 else part.stop) >= size


def _is_chainable(part: Any) -> bool:
    if isinstance(part, bool | np.bool_):
        return False  # x[True] adds a dimension; left to numpy in one step
    return (
        part is None or part is Ellipsis or isinstance(part, int | np.integer | slice | np.ndarray)
    )


def _index_node_name(index: Any) -> str:
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, np.ndarray | list) for p in parts):
        return "IndexBackward0"
    last = [p for p in parts if p is not None and p is not Ellipsis]
    return (
        "SelectBackward0"
        if last and isinstance(last[-1], int | np.integer)
        else ("SliceBackward0" if last else "AliasBackward0")
    )


def check_in_bounds(index: int, size: int, dim: int) -> None:
    """PyTorch's IndexError for an integer index outside a dimension of ``size``."""
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")


def _index_message(error: IndexError, shape: tuple[int, ...]) -> str:
    text = str(error)
    if "out of bounds" in text:
        # numpy: "index 5 is out of bounds for axis 0 with size 3"
        words = text.split()
        index, axis, size = words[1], words[8], words[-1]
        return f"index {index} is out of bounds for dimension {axis} with size {size}"
    if "too many indices" in text:
        return f"too many indices for tensor of dimension {len(shape)}"
    return text


class IndexPutAccumulate(Op):
    """The gradient of indexing: zeros of the input's shape, with the gradient added at the
    indexed places (added, not assigned, so an index read twice gets both gradients)."""

    name = "IndexPutBackward0"
    formula = "scatter: the gradient is read back at the indexed places"

    @staticmethod
    def forward(ctx: Context, grad: np.ndarray, shape: Any = (), index: Any = None):
        ctx.index = index
        result = np.zeros(shape, dtype=grad.dtype)
        np.add.at(result, index, grad)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return Index.apply(grad, index=ctx.index)


def normalize_index(index: Any) -> Any:
    """Tensors inside an index become numpy arrays; booleans stay masks."""
    from ..tensor import Tensor

    def one(part: Any) -> Any:
        if isinstance(part, Tensor):
            return part._array if part.ndim else part._array.item()
        if isinstance(part, list):
            return np.asarray([one(p) for p in part])
        return part

    return tuple(one(p) for p in index) if isinstance(index, tuple) else one(index)


class IndexPut(Op):
    """``x[index] = value``, as an op: the gradient of ``x`` is blocked at the overwritten
    places, and ``value`` receives the gradient read there."""

    formula = "x[i] = v: ∂/∂x = 0 at i, else 1;  ∂/∂v = the gradient at i"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: np.ndarray, index: Any = None):
        index = normalize_index(index)
        ctx.index, ctx.value_shape = index, value.shape
        result = a.copy()
        result[index] = value
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        kept = np.ones(grad.shape, dtype=bool)
        kept[ctx.index] = False
        return grad * constant(kept), Index.apply(grad, index=ctx.index)


class Cat(Op):
    formula = "cat: each input gets its slice of the gradient"
    options_as = {"dim": "axis"}

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        if not arrays:
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        (ctx.axis,) = normalize_dims(dim, arrays[0].ndim)
        first = arrays[0]
        for number, a in enumerate(arrays[1:], start=1):
            if a.ndim != first.ndim:
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {first.ndim} and {a.ndim}"
                )
            for d, (expected, got) in enumerate(zip(first.shape, a.shape)):
                if d != ctx.axis and expected != got:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {ctx.axis}. Expected "
                        f"size {expected} but got size {got} for tensor number {number} in the "
                        "list."
                    )
        ctx.sizes = [a.shape[ctx.axis] for a in arrays]
        return np.concatenate(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, ...]:
        grads, start = [], 0
        for size in ctx.sizes:
            index = (slice(None),) * ctx.axis + (slice(start, start + size),)
            grads.append(grad[index])
            start += size
        return tuple(grads)


class Stack(Op):
    formula = "stack: each input gets its slice of the gradient"
    options_as = {"dim": "axis"}

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        if not arrays:
            raise RuntimeError("stack expects a non-empty TensorList")
        if len({a.shape for a in arrays}) > 1:
            bad = next(i for i, a in enumerate(arrays) if a.shape != arrays[0].shape)
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                f"at entry 0 and {list(arrays[bad].shape)} at entry {bad}"
            )
        (ctx.axis,) = normalize_dims(dim, arrays[0].ndim + 1)
        ctx.count = len(arrays)
        return np.stack(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, ...]:
        return tuple(grad.select(ctx.axis, i) for i in range(ctx.count))
