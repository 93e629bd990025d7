"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``arange``, ``randn`` and friends.

Defaults follow PyTorch: Python floats give ``float32``, Python ints ``int64``, and a numpy
array keeps its dtype.

>>> import minigrad as mg
>>> mg.tensor([[1, 2], [3, 4]])
tensor([[1, 2],
        [3, 4]])
>>> mg.zeros(2, dtype=mg.float64)
tensor([0., 0.], dtype=minigrad.float64)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import dtypes, ops
from .tensor import Tensor, _shape_argument

_SCALARS = (bool, int, float, np.bool_, np.integer, np.floating)


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists or an array).

    >>> import minigrad as mg
    >>> mg.tensor(2.0, requires_grad=True)
    tensor(2., requires_grad=True)
    >>> mg.tensor(3)
    tensor(3)
    """
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
            "requires_grad_(True), rather than minigrad.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        array = data._array.copy()
    elif isinstance(data, np.ndarray):
        dtypes.from_numpy_dtype(data.dtype)  # refuses unsupported dtypes with a clear message
        array = data.copy()
    else:
        # Straight into the requested dtype: building float32 first and casting would round
        # tensor([0.1], dtype=float64) to 0.10000000149 and turn 1e308 into inf.
        checked = _check_nested(data)  # first: it refuses strings, which are sequences too
        inferred = _inferred_dtype(data) if dtype is None else dtypes.to_dtype(dtype).numpy
        array = np.array(checked, dtype=inferred)
    if dtype is not None:
        array = array.astype(dtypes.to_dtype(dtype).numpy)
    return _leaf(array, requires_grad)


def _leaf(array: np.ndarray, requires_grad: bool) -> Tensor:
    """A new leaf; refuses ``requires_grad`` on integers with the message PyTorch's
    factories give (``x.requires_grad_()`` words it slightly differently, as PyTorch does)."""
    if requires_grad and array.dtype.kind != "f":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return Tensor(array, requires_grad=requires_grad)


def _check_nested(data: Any, dim: int = 0) -> Any:
    """Refuse ragged lists and non-numbers with PyTorch's messages before numpy sees them."""
    if isinstance(data, _SCALARS):
        return data
    if isinstance(data, Tensor):
        if data.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data.item()
    if isinstance(data, np.ndarray):
        return data
    if isinstance(data, str | bytes):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if not isinstance(data, Sequence):  # None, a dict, any other object: PyTorch's wording
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    items = [_check_nested(item, dim + 1) for item in data]
    lengths = {_length(item) for item in items}
    if len(lengths) > 1:
        first = _length(items[0])
        bad = next(_length(i) for i in items if _length(i) != first)
        raise ValueError(f"expected sequence of length {first} at dim {dim + 1} (got {bad})")
    return items


def _length(item: Any) -> int | None:
    return len(item) if isinstance(item, list | np.ndarray) else None


def _inferred_dtype(data: Any) -> np.dtype:
    """float32 if any element is a float, else int64 if any is an int, else bool."""
    kinds = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, bool | np.bool_):
            kinds.add("b")
        elif isinstance(item, int | np.integer):
            kinds.add("i")
        elif isinstance(item, float | np.floating):
            kinds.add("f")
        elif isinstance(item, Tensor):
            kinds.add(item._array.dtype.kind)
        elif isinstance(item, np.ndarray):
            kinds.add(item.dtype.kind)
        elif isinstance(item, Sequence):
            stack.extend(item)
    if "f" in kinds or not kinds:
        return dtypes.float32.numpy
    if kinds & {"i", "u"}:
        return dtypes.int64.numpy
    return dtypes.bool_.numpy


def _dtype_or(dtype: Any, default: dtypes.dtype) -> np.dtype:
    return (default if dtype is None else dtypes.to_dtype(dtype)).numpy


def zeros(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    array = np.zeros(_shape_argument(size), dtype=_dtype_or(dtype, dtypes.float32))
    return _leaf(array, requires_grad)


def ones(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones: ``ones(2, 3)`` or ``ones((2, 3))``."""
    array = np.ones(_shape_argument(size), dtype=_dtype_or(dtype, dtypes.float32))
    return _leaf(array, requires_grad)


def full(
    size: Sequence[int], fill_value: Any, dtype: Any = None, requires_grad: bool = False
) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value``."""
    default = (
        dtypes.float32
        if isinstance(fill_value, float)
        else (dtypes.bool_ if isinstance(fill_value, bool) else dtypes.int64)
    )
    array = np.full(tuple(size), fill_value, dtype=_dtype_or(dtype, default))
    return _leaf(array, requires_grad)


def zeros_like(other: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _leaf(np.zeros_like(other._array, dtype=_dtype_or(dtype, other.dtype)), requires_grad)


def ones_like(other: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _leaf(np.ones_like(other._array, dtype=_dtype_or(dtype, other.dtype)), requires_grad)


def full_like(other: Tensor, fill_value: Any, dtype: Any = None) -> Tensor:
    return Tensor(np.full_like(other._array, fill_value, dtype=_dtype_or(dtype, other.dtype)))


def arange(
    start: Any, end: Any = None, step: Any = 1, dtype: Any = None, requires_grad: bool = False
) -> Tensor:
    """``arange(5)`` is ``tensor([0, 1, 2, 3, 4])``; floats in the arguments give float32."""
    if end is None:
        start, end = 0, start
    any_float = any(isinstance(v, float) for v in (start, end, step))
    default = dtypes.float32 if any_float else dtypes.int64
    array = np.arange(start, end, step, dtype=np.float64 if any_float else np.int64)
    return _leaf(array.astype(_dtype_or(dtype, default)), requires_grad)


def linspace(
    start: float, end: float, steps: int, dtype: Any = None, requires_grad: bool = False
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, both included."""
    array = np.linspace(start, end, steps, dtype=np.float64)
    return _leaf(array.astype(_dtype_or(dtype, dtypes.float32)), requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _leaf(np.eye(n, m, dtype=_dtype_or(dtype, dtypes.float32)), requires_grad)


# -- random numbers ----------------------------------------------------------------------
# One generator for the library, seeded by manual_seed: reproducible runs of a lesson, but
# not the same numbers as torch.manual_seed gives (PyTorch's generator is its own).
_generator = np.random.default_rng(0)


def manual_seed(seed: int) -> np.random.Generator:
    """Seed minigrad's random numbers so that a notebook gives the same numbers every run."""
    global _generator
    _generator = np.random.default_rng(seed)
    return _generator


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Samples of the standard normal distribution."""
    array = _generator.standard_normal(_shape_argument(size))
    return _leaf(array.astype(_dtype_or(dtype, dtypes.float32)), requires_grad)


def rand(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Samples of the uniform distribution on [0, 1)."""
    array = _generator.random(_shape_argument(size))
    return _leaf(array.astype(_dtype_or(dtype, dtypes.float32)), requires_grad)


def randint(
    low: int, high: int | None = None, size: Sequence[int] = (), dtype: Any = None
) -> Tensor:
    if high is None:
        low, high = 0, low
    array = _generator.integers(low, high, size=tuple(size))
    return Tensor(array.astype(_dtype_or(dtype, dtypes.int64)))


def randperm(n: int) -> Tensor:
    return Tensor(_generator.permutation(n).astype(np.int64))


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``."""
    dtypes.from_numpy_dtype(array.dtype)
    return Tensor(array)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension."""
    return ops.Cat.apply(*tensors, dim=dim)


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along a new dimension."""
    return ops.Stack.apply(*tensors, dim=dim)
