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
from .device import to_device
from .random import Generator, numbers_of
from .tensor import Tensor, _shape_argument

_SCALARS = (bool, int, float, np.bool_, np.integer, np.floating)


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists or an array).

    >>> import minigrad as mg
    >>> mg.tensor(2.0, requires_grad=True)
    tensor(2., requires_grad=True)
    >>> mg.tensor(3)
    tensor(3)
    """
    to_device(device)
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
        array = _array_of(checked, inferred)
    if dtype is not None:
        array = array.astype(dtypes.to_dtype(dtype).numpy)
    return _leaf(array, requires_grad)


def _array_of(checked: Any, dtype: np.dtype) -> np.ndarray:
    """The numbers of ``checked`` (numbers and nested lists) in ``dtype``, as PyTorch
    converts them: an integer dtype refuses a value it cannot hold (a float out of range,
    nan, inf), where numpy would wrap or truncate it, but takes a negative Python int into
    an unsigned dtype modulo its range (``-1`` is 255 in uint8), where numpy refuses; a
    float dtype takes an overflow as inf without numpy's warning."""
    try:
        if dtype.kind not in "iu":
            with np.errstate(over="ignore"):
                return np.array(checked, dtype=dtype)
        _check_fits(checked, dtype)
        if dtype.kind == "u":  # through int64, which wraps a negative int as PyTorch does
            return np.array(checked, dtype=np.int64).astype(dtype)
        return np.array(checked, dtype=dtype)
    except OverflowError:  # a Python int beyond 64 bits, in words of PyTorch's C++ unpacking
        raise ValueError("Overflow when unpacking long long") from None


def _check_fits(checked: Any, dtype: np.dtype) -> None:
    """PyTorch's overflow check for numbers going into the integer ``dtype``: an integer
    fits when it is in range (for an unsigned dtype, when its magnitude is), a float when it
    is finite and within the range (compared as doubles, as PyTorch compares them).

    >>> _check_fits([255, -255, 0.0], np.dtype(np.uint8))
    >>> _check_fits([[1], [255.5]], np.dtype(np.uint8))
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type uint8 without overflow
    """
    limits = np.iinfo(dtype)
    stack = [checked]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if isinstance(item, np.ndarray | bool | np.bool_):  # an array keeps numpy's cast
            continue
        if isinstance(item, int | np.integer):
            value = int(item)
            if not -(2**63) <= value < 2**63:
                raise OverflowError
            fits = (
                abs(value) <= limits.max if limits.min == 0 else limits.min <= value <= limits.max
            )
        else:
            value = float(item)
            fits = float(limits.min) <= value <= float(limits.max)  # (False for nan)
        if not fits:
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


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
    """PyTorch's dtype for ``data``: a Python float gives the default float type, an int
    int64, a bool bool; a numpy scalar, array or a Tensor its own dtype; a sequence the
    promotion of its elements' (``[1, 2.5]`` is float32, ``[np.float64(1.5)]`` float64)."""
    found: list[np.dtype] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, np.generic | np.ndarray):  # first: np.float64 is a float too
            found.append(item.dtype)
        elif isinstance(item, bool):
            found.append(dtypes.bool_.numpy)
        elif isinstance(item, int):
            found.append(dtypes.int64.numpy)
        elif isinstance(item, float):
            found.append(dtypes.get_default_dtype().numpy)
        elif isinstance(item, Tensor):
            found.append(item._array.dtype)
        elif isinstance(item, Sequence):
            stack.extend(item)
    found = [d for d in found if d.kind in "buif"]  # others get from_numpy_dtype's error
    if not found:  # tensor([]) is of the default float type
        return dtypes.get_default_dtype().numpy
    return dtypes.promote(found)


def _dtype_or(dtype: Any, default: dtypes.dtype) -> np.dtype:
    return (default if dtype is None else dtypes.to_dtype(dtype)).numpy


def _float_dtype(dtype: Any) -> np.dtype:
    """``dtype``, or the default float type (float32 unless ``set_default_dtype`` said)."""
    return _dtype_or(dtype, dtypes.get_default_dtype())


def _size(name: str, size_args: tuple[Any, ...], size: Any) -> tuple[int, ...]:
    """The shape of ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``, with
    PyTorch's messages for a shape given twice, a float in it, or a negative size."""
    if size is not None:
        if size_args:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        size_args = (size,)
    one_sequence = len(size_args) == 1 and isinstance(size_args[0], tuple | list)
    if any(isinstance(n, float) for n in (size_args[0] if one_sequence else size_args)):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not float")
    shape = _shape_argument(size_args)
    negative = [n for n in shape if n < 0]
    if negative and name == "zeros":  # zeros checks its sizes itself, in its own words
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    if negative:
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {negative[0]}: {list(shape)}"
        )
    return shape


def zeros(
    *size_args: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``."""
    to_device(device)
    array = np.zeros(_size("zeros", size_args, size), dtype=_float_dtype(dtype))
    return _leaf(array, requires_grad)


def ones(
    *size_args: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of ones: ``ones(2, 3)``, ``ones((2, 3))`` or ``ones(size=(2, 3))``."""
    to_device(device)
    array = np.ones(_size("ones", size_args, size), dtype=_float_dtype(dtype))
    return _leaf(array, requires_grad)


def empty(
    *size_args: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor whose values are not set. PyTorch leaves whatever was in memory there;
    minigrad gives zeros, so a lesson that prints one prints the same thing every run."""
    to_device(device)
    array = np.zeros(_size("empty", size_args, size), dtype=_float_dtype(dtype))
    return _leaf(array, requires_grad)


def _fill_dtype(fill_value: Any) -> dtypes.dtype:
    """The dtype of ``full(size, fill_value)``: the value's own kind, as in PyTorch."""
    if isinstance(fill_value, bool | np.bool_):
        return dtypes.bool_
    if isinstance(fill_value, int | np.integer):
        return dtypes.int64
    return dtypes.get_default_dtype()


def full(
    size: Sequence[int],
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value``: ``full((2, 3), 7.0)``."""
    to_device(device)
    if not isinstance(size, tuple | list):
        raise TypeError(
            f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}"
        )
    shape = _size("full", (tuple(size),), None)
    array = np.full(shape, fill_value, dtype=_dtype_or(dtype, _fill_dtype(fill_value)))
    return _leaf(array, requires_grad)


def _like(other: Tensor, dtype: Any, device: Any, make: Any, requires_grad: bool = False) -> Tensor:
    to_device(device)
    array = make(other._array.shape, _dtype_or(dtype, other.dtype))
    return _leaf(array, requires_grad)


def zeros_like(
    input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """Zeros of ``input``'s shape and (unless ``dtype`` says) dtype."""
    return _like(input, dtype, device, np.zeros, requires_grad)


def ones_like(
    input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """Ones of ``input``'s shape and (unless ``dtype`` says) dtype."""
    return _like(input, dtype, device, np.ones, requires_grad)


def empty_like(
    input: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """``empty`` of ``input``'s shape and dtype (zeros in minigrad, as for ``empty``)."""
    return _like(input, dtype, device, np.zeros, requires_grad)


def full_like(
    input: Tensor,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``fill_value`` in ``input``'s shape and dtype: ``full_like(int_tensor, 2.7)`` is 2s."""

    def make(shape: tuple[int, ...], np_dtype: np.dtype) -> np.ndarray:
        return np.full(shape, fill_value).astype(np_dtype)

    return _like(input, dtype, device, make, requires_grad)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``arange(5)`` is ``tensor([0, 1, 2, 3, 4])``; floats in the arguments give the
    default float type."""
    to_device(device)
    if end is None:
        start, end = 0, start
    any_float = any(isinstance(v, float) for v in (start, end, step))
    default = dtypes.get_default_dtype() if any_float else dtypes.int64
    array = np.arange(start, end, step, dtype=np.float64 if any_float else np.int64)
    return _leaf(array.astype(_dtype_or(dtype, default)), requires_grad)


def linspace(
    start: float,
    end: float,
    steps: int,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, both included."""
    to_device(device)
    array = np.linspace(start, end, steps, dtype=np.float64)
    return _leaf(array.astype(_float_dtype(dtype)), requires_grad)


def eye(
    n: int,
    m: int | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The ``n × m`` identity matrix (``m`` defaults to ``n``)."""
    to_device(device)
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    return _leaf(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad)


# -- random numbers ----------------------------------------------------------------------
# Drawn from a Generator (minigrad/random.py): the one given as generator=, else the default
# one, which manual_seed seeds. Reproducible, but not the numbers torch.manual_seed gives.


def randn(
    *size_args: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Samples of the standard normal distribution, from ``generator`` if given.

    >>> import minigrad as mg
    >>> mg.randn(2, 3, generator=mg.Generator().manual_seed(1)).shape
    minigrad.Size([2, 3])
    """
    to_device(device)
    numbers = numbers_of(generator, "randn", *size_args)
    array = numbers.standard_normal(_size("randn", size_args, size))
    return _leaf(array.astype(_float_dtype(dtype)), requires_grad)


def rand(
    *size_args: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Samples of the uniform distribution on [0, 1), from ``generator`` if given."""
    to_device(device)
    numbers = numbers_of(generator, "rand", *size_args)
    array = numbers.random(_size("rand", size_args, size))
    return _leaf(array.astype(_float_dtype(dtype)), requires_grad)


def _float_like(input: Tensor, dtype: Any, kernel: str) -> np.dtype:
    np_dtype = _dtype_or(dtype, input.dtype)
    if np_dtype.kind != "f":
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtypes.scalar_type_name(np_dtype)}'"
        )
    return np_dtype


def rand_like(
    input: Tensor,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Uniform samples on [0, 1) in ``input``'s shape and (float) dtype."""
    to_device(device)
    numbers = numbers_of(generator, "rand_like", input)
    np_dtype = _float_like(input, dtype, "check_uniform_bounds")
    return _leaf(numbers.random(input._array.shape).astype(np_dtype), requires_grad)


def randn_like(
    input: Tensor,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Standard normal samples in ``input``'s shape and (float) dtype."""
    to_device(device)
    numbers = numbers_of(generator, "randn_like", input)
    np_dtype = _float_like(input, dtype, "normal_kernel_cpu")
    return _leaf(numbers.standard_normal(input._array.shape).astype(np_dtype), requires_grad)


def _integers(
    numbers: np.random.Generator, low: int, high: int, shape: tuple[int, ...]
) -> np.ndarray:
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    return numbers.integers(low, high, size=shape)


def randint(
    low: int,
    high: Any = None,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``: ``randint(10, (2, 3))`` or
    ``randint(3, 10, (2,))``, int64 unless ``dtype`` says; from ``generator`` if given."""
    to_device(device)
    given = (low, high, size) if size is not None else (low, high)
    numbers = numbers_of(generator, "randint", *given)
    if size is None and isinstance(high, tuple | list):
        if not isinstance(low, int | np.integer):
            raise TypeError(
                f"randint(): argument 'high' (position 1) must be int, not {type(low).__name__}"
            )
        low, high, size = 0, low, high
    if (
        size is None
        or high is None
        or not all(isinstance(n, int | np.integer) for n in (low, high))
    ):
        kinds = ", ".join(type(value).__name__ for value in given)
        raise TypeError(
            f"randint() received an invalid combination of arguments - got ({kinds}), but "
            "expected (int high, tuple of ints size) or (int low, int high, tuple of ints size)"
        )
    array = _integers(numbers, low, high, _size("randint", (tuple(size),), None))
    return _leaf(array.astype(_dtype_or(dtype, dtypes.int64)), requires_grad)


def randint_like(
    input: Tensor,
    low: int,
    high: int | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """``randint`` in ``input``'s shape and dtype: ``randint_like(x, 10)``."""
    to_device(device)
    numbers = numbers_of(generator, "randint_like", input, low)
    if high is None:
        low, high = 0, low
    array = _integers(numbers, low, high, input._array.shape)
    return _leaf(array.astype(_dtype_or(dtype, input.dtype)), requires_grad)


def randperm(
    n: int,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """The integers ``0 … n−1`` in a random order."""
    to_device(device)
    numbers = numbers_of(generator, "randperm", n)
    array = numbers.permutation(n).astype(_dtype_or(dtype, dtypes.int64))
    return _leaf(array, requires_grad)


def normal(
    mean: Any = 0.0,
    std: Any = 1.0,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
) -> Tensor:
    """Samples of normal distributions: ``normal(0.0, 1.0, (2, 3))`` with numbers and a
    size, or ``normal(means, stds)`` with tensors (of broadcastable shapes), one sample per
    element. The samples are constants: no gradient flows back to ``mean`` or ``std``."""
    to_device(device)
    given = (mean, std) if size is None else (mean, std, size)
    numbers = numbers_of(generator, "normal", *given)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError(
                "normal() received an invalid combination of arguments: with a float mean "
                "and a float std, give a size"
            )
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        samples = numbers.normal(mean, std, _size("normal", (tuple(size),), None))
        return _leaf(samples.astype(_float_dtype(dtype)), requires_grad)
    # The samples take the dtype of mean when it is a tensor, else of std, as in PyTorch.
    np_dtype = (mean if isinstance(mean, Tensor) else std)._array.dtype
    if np_dtype.kind != "f":
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{dtypes.scalar_type_name(np_dtype)}'"
        )
    mean_values = mean._array if isinstance(mean, Tensor) else mean
    std_values = std._array if isinstance(std, Tensor) else std
    if isinstance(std, Tensor):
        if np.any(std_values < 0):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    shape = np.broadcast_shapes(np.shape(mean_values), np.shape(std_values))
    samples = numbers.normal(mean_values, std_values, shape)
    return _leaf(np.asarray(samples).astype(np_dtype), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``: changing one changes the other.

    >>> import numpy as np, minigrad as mg
    >>> a = np.array([1.0, 2.0])
    >>> t = mg.from_numpy(a)
    >>> t[0] = 5.0
    >>> a
    array([5., 2.])
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy_dtype(array.dtype)
    return Tensor(array)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """``data`` as a tensor, sharing memory where it can, as in PyTorch: a tensor of the
    right dtype is returned as it is, a numpy array of the right dtype is shared; anything
    else (lists, another dtype) is copied."""
    to_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray):
        dtypes.from_numpy_dtype(data.dtype)
        if dtype is None or dtypes.to_dtype(dtype).numpy == data.dtype:
            return Tensor(data)
    return tensor(data, dtype=dtype)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension."""
    return ops.Cat.apply(*tensors, dim=dim)


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along a new dimension."""
    return ops.Stack.apply(*tensors, dim=dim)
