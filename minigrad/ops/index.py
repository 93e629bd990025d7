"""Indexing (``x[i]``, ``x[i] = v``) and joining (``cat``, ``stack``).

``index`` decides which nodes an index records, as PyTorch does: one view per item of a
basic index, then one ``IndexBackward0`` for the advanced part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..alike import kept_where
from ..copy_slices import MADE_BY_MULTI_OUTPUT
from ..function import Context
from ..grad_mode import is_grad_enabled
from ..shapes import normalize_dims
from .base import Op, constant
from .views import Unsqueeze

if TYPE_CHECKING:
    from ..tensor import Tensor


class Index(Op):
    """``x[index]``: basic indexing (``x[0]``, ``x[:, 1:]``) is a view; advanced indexing
    (lists, tensors, masks) copies. The gradient goes back to the places that were read."""

    is_view = True  # basic indexing shares memory; Tensor._share_memory_with checks that it does
    formula = "index: the gradient is scattered back to the indexed places"
    jvp_formula = "ȧ[i]"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, index: Any = None) -> np.ndarray:
        ctx.index, ctx.shape = index, a.shape
        ctx.node_name = _index_node_name(index)
        ctx.save_for_backward(*index_arrays(index))  # as PyTorch saves its index tensors
        try:
            picked = a[index]
            if type(picked) is not np.ndarray and is_basic_index(index):
                # numpy gives a copied number for x[1] of a vector; x[1, ...] is the 0-d
                # view that PyTorch's select returns.
                picked = a[(*index, Ellipsis) if isinstance(index, tuple) else (index, Ellipsis)]
            return picked
        except IndexError as error:
            raise IndexError(_index_message(error, a.shape)) from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        index = with_saved_arrays(ctx.index, ctx.saved_tensors)
        return IndexPutAccumulate.apply(grad, shape=ctx.shape, index=index)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return Index.apply(a_t, index=ctx.index)


def index_arrays(index: Any) -> list[np.ndarray]:
    """The arrays (integer positions, masks) in an index: what it saves for backward."""
    parts = index if isinstance(index, tuple) else (index,)
    return [part for part in parts if isinstance(part, np.ndarray)]


def with_saved_arrays(index: Any, saved: tuple[Tensor, ...]) -> Any:
    """``index`` with its arrays read back from the tensors it saved."""
    if not saved:
        return index
    arrays = iter(tensor._array for tensor in saved)
    if not isinstance(index, tuple):
        return next(arrays)
    return tuple(next(arrays) if isinstance(part, np.ndarray) else part for part in index)


def index(a: Tensor, index: Any) -> Tensor:
    """``a[index]``, recorded as PyTorch records it: one view per item of a basic index
    (``m[0, 1:]`` is a SliceBackward0 after a SelectBackward0, ``None`` an unsqueeze, a full
    ``:`` inside a tuple nothing at all), then one IndexBackward0 for the advanced part
    (lists, tensors, masks), applied to that view."""
    index = normalize_index(index)
    if isinstance(index, slice):  # a lone slice is recorded even when it keeps everything
        return Index.apply(a, index=index)
    steps = basic_then_advanced(a, index)
    if steps is None:
        return Index.apply(a, index=index)
    result, advanced = steps
    if advanced is not None:
        return Index.apply(result, index=advanced)
    return Index.apply(a, index=Ellipsis) if result is a else result


def basic_then_advanced(a: Tensor, index: Any) -> tuple[Tensor, tuple[Any, ...] | None] | None:
    """``a[index]`` (an index made by ``normalize_index``) in PyTorch's two steps: the view
    that its basic items make (``a`` itself when none of them changes anything), and the
    advanced part (lists, tensors, masks) to apply to that view, or None if there is none.
    None altogether for an index numpy must take in one step (``x[True]``)."""
    parts = index if isinstance(index, tuple) else (index,)
    if not all(_is_chainable(p) for p in parts):
        return None
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
    if not advanced:
        return result, None
    positions: list[Any] = []
    for where, array in advanced:
        positions += [slice(None)] * (where - len(positions)) + [array]
    return result, tuple(positions)


def _slice_keeps_everything(part: slice, size: int) -> bool:
    """Whether PyTorch skips this slice inside a tuple (``x[:, 0:]``, ``x[..., 0:size]``).
    It decides on the start as written, not on what it selects: ``x[..., 1:]`` of an empty
    dimension still records a SliceBackward0."""
    if part.step not in (None, 1) or part.start not in (None, 0):
        return False
    if part.stop is None:
        return True
    return (part.stop + size if part.stop < 0 else part.stop) >= size


def is_basic_index(index: Any) -> bool:
    """Whether ``x[index]`` is a view: numbers, slices, ``None`` and ``...`` only (a 0-d
    integer tensor counts as its number), no lists, tensors or masks.

    >>> is_basic_index((0, slice(1, None))), is_basic_index([0, 2])
    (True, False)
    """
    index = normalize_index(index)
    parts = index if isinstance(index, tuple) else (index,)
    return all(
        part is None
        or part is Ellipsis
        or isinstance(part, slice)
        or (isinstance(part, int | np.integer) and not isinstance(part, bool | np.bool_))
        for part in parts
    )


def keeps_everything(index: Any, shape: tuple[int, ...]) -> bool:
    """Whether a basic index selects the whole tensor as it is (``...``, ``:``,
    ``[:, 0:]``): then PyTorch's ``x[index] = v`` writes into ``x`` itself, not a view."""
    parts = index if isinstance(index, tuple) else (index,)
    dim = 0
    for part in parts:
        if part is Ellipsis:
            dim += len(shape) - sum(p is not None and p is not Ellipsis for p in parts)
        elif not isinstance(part, slice) or dim >= len(shape):
            return False
        elif not _slice_keeps_everything(part, shape[dim]):
            return False
        else:
            dim += 1
    return True


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
    jvp_formula = "ȧ added at i into zeros"

    @staticmethod
    def forward(ctx: Context, grad: np.ndarray, shape: Any = (), index: Any = None):
        ctx.index = index
        result = np.zeros(shape, dtype=grad.dtype)
        np.add.at(result, index, grad)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return Index.apply(grad, index=ctx.index)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return IndexPutAccumulate.apply(a_t, shape=ctx.result.shape, index=ctx.index)


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
    jvp_formula = "ȧ, with v̇ written at i"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: np.ndarray, index: Any = None):
        index = normalize_index(index)
        ctx.index, ctx.value_shape = index, value.shape
        ctx.save_for_backward(*index_arrays(index))
        result = a.copy()
        result[index] = value
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        index = with_saved_arrays(ctx.index, ctx.saved_tensors)
        kept = np.ones(grad.shape, dtype=bool)
        kept[index] = False
        return kept_where(kept, grad), Index.apply(grad, index=index)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, value_t: Tensor | None) -> Tensor:
        a, value = ctx.primals
        a_t = a_t if a_t is not None else _zeros_like(ctx.result)
        value_t = value_t if value_t is not None else _zeros_like(value, ctx.result)
        return IndexPut.apply(a_t, value_t, index=ctx.index)


class Cat(Op):
    formula = "cat: each input gets its slice of the gradient"
    jvp_formula = "cat(ȧ, ḃ, …)"
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

    @staticmethod
    def jvp(ctx: Context, *tangents: Tensor | None) -> Tensor:
        filled = [
            _zeros_like(p, ctx.result) if t is None else t for t, p in zip(tangents, ctx.primals)
        ]
        return Cat.apply(*filled, dim=ctx.axis)


class Stack(Op):
    formula = "stack: each input gets its slice of the gradient"
    jvp_formula = "stack(ȧ, ḃ, …)"
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

    @staticmethod
    def jvp(ctx: Context, *tangents: Tensor | None) -> Tensor:
        filled = [
            _zeros_like(p, ctx.result) if t is None else t for t, p in zip(tangents, ctx.primals)
        ]
        return Stack.apply(*filled, dim=ctx.axis)


def _zeros_like(tensor: Tensor, result: Tensor | None = None) -> Tensor:
    """Zeros in the place of a missing tangent, in the result's dtype."""
    dtype = (result if result is not None else tensor)._array.dtype
    return constant(np.zeros(tensor._array.shape, dtype=dtype))


def _filled(tangents: tuple[Tensor | None, ...], ctx: Context) -> list[Tensor]:
    """One tangent per input, zeros where an input has none."""
    return [
        _zeros_like(primal, ctx.result) if tangent is None else tangent
        for tangent, primal in zip(tangents, ctx.primals)
    ]


def _at_least_1d(array: np.ndarray) -> np.ndarray:
    """PyTorch's gather and scatter take a 0-d tensor (input or index) as one of shape [1]."""
    return array.reshape(1) if array.ndim == 0 else array


def _check_gather_index(a: np.ndarray, index: np.ndarray, axis: int) -> None:
    """PyTorch's checks, on ``a`` and ``index`` made at least 1-d."""
    if index.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if index.ndim != a.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(index.ndim):
        if d != axis and index.shape[d] > a.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to "
                f"be no larger than self {list(a.shape)} apart from dimension {axis}"
            )
    size = a.shape[axis]
    bad = index[(index < 0) | (index >= size)]
    if bad.size:
        raise RuntimeError(
            f"index {bad.flat[0]} is out of bounds for dimension {axis} with size {size}"
        )


class Gather(Op):
    """``a.gather(dim, index)``: along ``dim``, the element each index names
    (``out[i][j] = a[i][index[i][j]]`` for dim 1). Its derivative adds the gradient back
    at those places (an index named twice gets both)."""

    formula = "∂out/∂a: the gradient is added back at the gathered places"
    jvp_formula = "ȧ gathered"
    saved_as = ("index", "self")
    options_as = {"dim": "axis", "sparse_grad": lambda node: False}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = 0, index: Any = None) -> np.ndarray:
        (axis,) = normalize_dims(dim, a.ndim)
        values, places = _at_least_1d(a), _at_least_1d(index)
        _check_gather_index(values, places, axis)
        ctx.axis, ctx.shape, ctx.index = axis, a.shape, index
        # PyTorch keeps its input too, though the derivative needs only its shape.
        ctx.save_for_backward(index, a)
        # The index may be smaller than a in the other dims: take a's corner of its size.
        corner = tuple(
            slice(0, n) if d != axis else slice(None) for d, n in enumerate(places.shape)
        )
        gathered = np.take_along_axis(values[corner], places.astype(np.int64), axis=axis)
        return gathered.reshape(index.shape)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        index, _ = ctx.saved_tensors
        return ScatterAdd.apply(grad, shape=ctx.shape, dim=ctx.axis, index=index._array)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return Gather.apply(a_t, dim=ctx.axis, index=ctx.index)


class ScatterAdd(Op):
    """Zeros of ``shape`` with ``grad`` added at the places ``index`` names along ``dim``:
    gather's derivative, whose own derivative gathers again."""

    formula = "scatter_add: the gradient is gathered back"
    jvp_formula = "ȧ added at the index into zeros"

    @staticmethod
    def forward(
        ctx: Context,
        grad: np.ndarray,
        shape: tuple[int, ...] = (),
        dim: int = 0,
        index: Any = None,
    ) -> np.ndarray:
        ctx.axis, ctx.index = dim, index
        result = np.zeros(shape, dtype=grad.dtype)
        total, places = _at_least_1d(result), _at_least_1d(index)  # total is result's view
        positions = list(np.indices(places.shape, sparse=True))
        positions[dim] = places.astype(np.int64)
        np.add.at(total, tuple(positions), grad.reshape(places.shape))
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        from ..tensor import Tensor

        return grad.gather(ctx.axis, Tensor(ctx.index))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        shape = ctx.result.shape
        return ScatterAdd.apply(a_t, shape=shape, dim=ctx.axis, index=ctx.index)


class Repeat(Op):
    """``a.repeat(2, 1)``: copies of ``a`` side by side along each dim (new leading dims
    when there are more repeats than dims). The gradient sums the copies."""

    formula = "∂repeat/∂a: the gradient of the copies, summed"
    jvp_formula = "ȧ repeated"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, repeats: tuple[int, ...] = ()) -> np.ndarray:
        if len(repeats) < a.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor"
            )
        shape = (1,) * (len(repeats) - a.ndim) + a.shape
        target = [n * r for n, r in zip(shape, repeats, strict=True)]
        if any(n < 0 for n in target):
            negative = next(n for n in target if n < 0)
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {negative}: {target}"
            )
        ctx.shape, ctx.repeats, ctx.padded = a.shape, repeats, shape
        return np.tile(a.reshape(shape), repeats)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        # Split every dim n·r into (r, n), then sum the r copies away.
        split: list[int] = []
        for n, r in zip(ctx.padded, ctx.repeats, strict=True):
            split += [r, n]
        summed = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return summed.reshape(ctx.shape)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return Repeat.apply(a_t, repeats=ctx.repeats)


class SplitPiece(Op):
    """One piece of ``a.split(size, dim)`` or ``a.chunk(n, dim)``: a view of the slice
    ``start:stop`` along ``dim``. PyTorch records one node for all the pieces; minigrad one
    per piece, with the same name and the same gradients."""

    name = "SplitBackward0"
    is_view = True
    formula = "split: the gradient goes back to the piece's slice, 0 elsewhere"
    jvp_formula = "ȧ's slice"

    @staticmethod
    def forward(
        ctx: Context,
        a: np.ndarray,
        dim: int = 0,
        start: int = 0,
        stop: int = 0,
        node_name: str = "SplitBackward0",
    ) -> np.ndarray:
        ctx.node_name = node_name
        ctx.axis, ctx.start, ctx.stop, ctx.shape = dim, start, stop, a.shape
        return a[(slice(None),) * dim + (slice(start, stop),)]

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        def zeros(begin: int, end: int) -> list[Tensor]:
            if end <= begin:
                return []
            shape = list(ctx.shape)
            shape[ctx.axis] = end - begin
            return [constant(np.zeros(shape, dtype=grad._array.dtype))]

        before, after = zeros(0, ctx.start), zeros(ctx.stop, ctx.shape[ctx.axis])
        return Cat.apply(*before, grad, *after, dim=ctx.axis)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return SplitPiece.apply(a_t, dim=ctx.axis, start=ctx.start, stop=ctx.stop)


def split(a: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """``a.split(2)``: pieces of 2 along ``dim`` (the last may be smaller);
    ``a.split([1, 2])``: pieces of those sizes."""
    if a.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    (axis,) = normalize_dims(dim, a.ndim)
    size = a.shape[axis]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step == 0 and size != 0:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
            )
        if step < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={step}"
            )
        bounds = [(i, min(i + step, size)) for i in range(0, size, step)] or [(0, 0)]
        name = "SplitBackward0"
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != size or any(n < 0 for n in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input "
                f"tensor's size at dimension {axis}), but got split_sizes={sizes}"
            )
        starts = np.cumsum([0, *sizes]).tolist()
        bounds = list(zip(starts[:-1], starts[1:], strict=True))
        name = "SplitWithSizesBackward0"
    pieces = tuple(
        SplitPiece.apply(a, dim=axis, start=start, stop=stop, node_name=name)
        for start, stop in bounds
    )
    if is_grad_enabled():  # PyTorch forbids writing into the pieces (under no_grad, too)
        for number, piece in enumerate(pieces):
            if piece._base is not None:
                piece._creation_meta, piece._piece_number = MADE_BY_MULTI_OUTPUT, number
    return pieces


def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``a.chunk(3)``: ``chunks`` pieces of equal size along ``dim`` (the last smaller),
    fewer when the dim is too short, as ``split(ceil(n / chunks))`` gives them."""
    if a.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    (axis,) = normalize_dims(dim, a.ndim)
    size = a.shape[axis]
    if size == 0:  # as many empty pieces as asked for, as PyTorch gives
        return split(a, [0] * chunks, axis)
    return split(a, -(-size // chunks) if size else 0, axis)


class Sort(Op):
    """``a.sort(dim)``'s values: ``a``'s elements in the order ``indices`` gives along
    ``dim`` (``sort`` finds them). Each value's gradient goes back to the place it came from."""

    formula = "∂sorted/∂a: each gradient back to the place its value came from"
    jvp_formula = "ȧ in the sorted order"
    saved_as = ("indices",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = -1, indices: Any = None) -> np.ndarray:
        ctx.axis, ctx.shape, ctx.indices = dim, a.shape, indices
        ctx.save_for_backward(indices)  # as PyTorch, which packs only the indices
        if a.ndim == 0:
            return a.copy()
        return np.take_along_axis(a, indices, axis=dim)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        if not ctx.shape:
            return grad
        (indices,) = ctx.saved_tensors
        return ScatterAdd.apply(grad, shape=ctx.shape, dim=ctx.axis, index=indices._array)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return Sort.apply(a_t, dim=ctx.axis, indices=ctx.indices)


def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: Any = None):
    """The values of ``a`` sorted along ``dim`` and, for each, the index it came from.
    Equal values keep their order (minigrad's sort is always stable); nan sorts as the
    largest, as in PyTorch. With ``stable`` given, PyTorch records ``SortBackward1``."""
    from ..tensor import Tensor

    (axis,) = normalize_dims(dim, a.ndim)
    values = a._array
    if values.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
    elif descending:  # sorted backwards from the end, so that equal values keep their order
        backwards = np.flip(np.argsort(np.flip(values, axis), axis=axis, kind="stable"), axis)
        indices = values.shape[axis] - 1 - backwards
    else:
        indices = np.argsort(values, axis=axis, kind="stable")
    indices = np.array(indices, dtype=np.int64)  # its own contiguous memory, 0-d kept
    kind = SortStable if stable is not None else Sort
    return kind.apply(a, dim=axis, indices=indices), Tensor(indices)


class SortStable(Sort):
    name = "SortBackward1"
    jvp_formula = "ȧ in the sorted order"


class IndexAdd(Op):
    """``a.index_add(dim, index, source, alpha=1)``: ``a`` with ``alpha × source[i]`` added
    at ``index[i]`` along ``dim`` (an index named twice gets both). ``a``'s gradient passes
    through; ``source``'s is the gradient read back at the index, times ``alpha``."""

    formula = "∂/∂a = 1,  ∂/∂source = α · grad[index]"
    jvp_formula = "ȧ + α·ṡ added at the index"
    saved_as = ("index", "source")
    options_as = {"dim": "axis", "alpha": "alpha", "source_dim": "source_dim"}

    @staticmethod
    def forward(
        ctx: Context,
        a: np.ndarray,
        source: np.ndarray,
        dim: int = 0,
        index: Any = None,
        alpha: Any = 1,
    ) -> np.ndarray:
        ctx.axis, ctx.index, ctx.alpha, ctx.source_dim = dim, index, alpha, source.ndim
        if ctx.needs_input_grad and ctx.needs_input_grad[1]:
            # PyTorch saves these only for source's gradient (source for its shape alone).
            ctx.save_for_backward(index, source)
        result = a.copy()
        added = source if alpha == 1 else source * alpha
        target, places = _at_least_1d(result), _at_least_1d(index)
        position = (slice(None),) * dim + (places,)
        np.add.at(
            target, position, np.asarray(added, dtype=a.dtype).reshape(target[position].shape)
        )
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        from ..tensor import Tensor

        if not ctx.needs_input_grad[1]:
            return grad, None
        index, _ = ctx.saved_tensors  # source was saved for its shape, as PyTorch does
        if ctx.source_dim == 0:  # both are numbers (0-d): the one gradient is source's too
            read = grad
        else:
            read = grad[(slice(None),) * ctx.axis + (Tensor(index._array.reshape(-1)),)]
        return grad, read if ctx.alpha == 1 else read * ctx.alpha

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, source_t: Tensor | None) -> Tensor:
        a, source = ctx.primals
        a_t = a_t if a_t is not None else _zeros_like(ctx.result)
        source_t = source_t if source_t is not None else _zeros_like(source, ctx.result)
        return IndexAdd.apply(a_t, source_t, dim=ctx.axis, index=ctx.index, alpha=ctx.alpha)


def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    """Check ``index_add``'s arguments in PyTorch's order, with its messages, then add."""
    from .. import dtypes

    (axis,) = normalize_dims(dim, a.ndim)
    places = index._array
    if places.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "index_add_(): Expected dtype int32/int64 for index but got: "
            f"{dtypes.from_numpy_dtype(places.dtype).scalar_type}"
        )
    if places.ndim > 1:
        raise IndexError(
            f"index_add_(): Index is supposed to be a vector, but got dim: {places.ndim} with "
            f"type: {dtypes.from_numpy_dtype(places.dtype).scalar_type} and size: "
            f"{list(places.shape)}"
        )
    if a._array.dtype != source._array.dtype:
        raise RuntimeError(
            f"index_add_(): self ({a.dtype.scalar_type}) and source "
            f"({source.dtype.scalar_type}) must have the same scalar type"
        )
    expected = source.shape[axis] if source.ndim else 1
    if places.size != expected:
        raise RuntimeError(
            f"index_add_(): Number of indices ({places.size}) should be equal to "
            f"source.size(dim): ({expected}), for dim: {axis}"
        )
    rest_of_self = [n for d, n in enumerate(a.shape) if d != axis]
    rest_of_source = [n for d, n in enumerate(source.shape) if d != axis]
    if a.ndim != source.ndim or rest_of_self != rest_of_source:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(a.shape)} source.shape = {list(source.shape)}"
        )
    size = a.shape[axis] if a.ndim else 1
    for place in places.reshape(-1):
        if not 0 <= place < size:
            if a.ndim <= 1:  # PyTorch adds into a vector as it selects from one: its words
                raise IndexError("index out of range in self")
            raise RuntimeError(
                f"index {place} is out of bounds for dimension {axis} with size {size}"
            )
    if a._array.dtype.kind in "biu":  # PyTorch truncates alpha for integer tensors
        alpha = int(alpha)
    return IndexAdd.apply(a, source, dim=axis, index=places.astype(np.int64), alpha=alpha)
