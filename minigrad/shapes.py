"""Shapes: broadcasting, dimension arguments, and whether memory can be viewed in a shape.

Every op that takes a ``dim`` normalises it here, so the error for a dim out of range is
written once, in PyTorch's words.

>>> broadcast_shape((3, 1), (4,))
(3, 4)
>>> normalize_dims(-1, 2)
(1,)
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "broadcast_error",
    "broadcast_shape",
    "can_sum_to",
    "can_view",
    "distinct_dims",
    "normalize_dims",
    "reduced_dims",
]


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape operands broadcast to, or PyTorch's error naming the dimension that clashes."""
    result: list[int] = []
    for shape in shapes:
        shape = tuple(shape)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for i in range(1, len(shape) + 1):
            a, b = result[-i], shape[-i]
            if a != b and a != 1 and b != 1:
                raise RuntimeError(
                    f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                    f"non-singleton dimension {len(result) - i}"
                )
            result[-i] = b if a == 1 else a  # not max(): a size 0 broadcasts with 1 to 0
    return tuple(result)


def broadcast_error(*shapes: tuple[int, ...]) -> RuntimeError | None:
    """PyTorch's error for shapes that do not broadcast together (None if they do): what an
    op raises in place of numpy's own ValueError, once numpy refused its operands.

    >>> print(broadcast_error((2, 3), (4,)))
    The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1
    >>> print(broadcast_error((2, 3), (3,)))
    None
    """
    try:
        broadcast_shape(*shapes)
    except RuntimeError as error:
        return error
    return None


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` (one dim, a tuple or list of them, or None for all) as a tuple of
    non-negative dims of a tensor with ``ndim`` dimensions, with PyTorch's IndexError for
    one out of range. A 0-d tensor accepts dim 0 and -1, as in PyTorch.

    >>> normalize_dims((0, -1), 3)
    (0, 2)
    >>> normalize_dims(2, 2)
    Traceback (most recent call last):
    IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)
    """
    if dim is None:  # every dim: nothing to check (x.sum(), and every mean of a loss)
        return tuple(range(ndim))
    dims = dim if isinstance(dim, tuple | list) else (dim,)
    size = max(ndim, 1)
    normalized = []
    for d in dims:
        if not -size <= d < size:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], "
                f"but got {d})"
            )
        normalized.append(d % size)
    return tuple(normalized)


def reduced_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """The dims a reduction (``sum``, ``mean``, ``std``, ``var``, ``norm``, ``amax``, ...)
    reduces: every dim for None and, as PyTorch reads it, for an empty tuple or list
    (``x.sum(dim=())`` is the sum of everything, not ``x``); PyTorch's error for a dim named
    twice, which numpy would give in its own words.

    >>> reduced_dims((), 2), reduced_dims((1, 0), 2)
    ((0, 1), (1, 0))
    >>> reduced_dims((1, -1), 2)
    Traceback (most recent call last):
    RuntimeError: dim 1 appears multiple times in the list of dims
    """
    if dim is None or (not dim and isinstance(dim, tuple | list)):
        return tuple(range(ndim))
    return distinct_dims(dim, ndim)


def distinct_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``normalize_dims``, refusing a dim named twice with PyTorch's error (``squeeze``
    and the reductions; ``transpose(0, 0)`` names one dim twice, and may).

    >>> distinct_dims((0, -2), 2)
    Traceback (most recent call last):
    RuntimeError: dim 0 appears multiple times in the list of dims
    """
    dims = normalize_dims(dim, ndim)
    for place, d in enumerate(dims):
        if d in dims[:place]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def can_sum_to(grad_shape: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``grad_shape``, so that summing can undo it.

    >>> can_sum_to((4, 3), (3,)), can_sum_to((4, 3), (4,))
    (True, False)
    """
    if len(shape) > len(grad_shape):
        return False
    trailing = grad_shape[len(grad_shape) - len(shape) :]
    if trailing == shape:  # only leading dims were added: the usual broadcast
        return True
    return all(s == g or s == 1 for s, g in zip(shape, trailing, strict=True))


def can_view(array: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether ``array``'s memory can be read in ``shape`` without copying: numpy's rule,
    which is PyTorch's (a transposed matrix cannot be flattened in place)."""
    viewed = array.view()
    try:
        viewed.shape = shape  # numpy refuses, rather than copies, when strides cannot do it
    except AttributeError:
        return False
    return True
