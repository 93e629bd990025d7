"""Data types with PyTorch's names and PyTorch's promotion rules.

A ``dtype`` wraps a numpy dtype and prints as ``minigrad.float32``. PyTorch's defaults
differ from numpy's, and students meet them early: a Python float makes ``float32``, a
Python int makes ``int64``, and ``int_tensor * 2.5`` is ``float32``, not numpy's ``float64``.

>>> import minigrad as mg
>>> mg.tensor([1, 2]).dtype, mg.tensor([1.0]).dtype
(minigrad.int64, minigrad.float32)
>>> (mg.tensor([1, 2]) * 2.5).dtype
minigrad.float32
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class dtype:  # noqa: N801 - PyTorch's spelling, as in ``torch.dtype``
    """A data type: its PyTorch name, its numpy dtype, and the two other names PyTorch's
    messages use for it (``scalar_type``: "Float" in "Got: Float"; ``c_type``: "float" in
    "double != float")."""

    name: str
    numpy: np.dtype
    scalar_type: str
    c_type: str

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    @property
    def is_floating_point(self) -> bool:
        return self.numpy.kind == "f"

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize


# Every name of every dtype, in one table: PyTorch's, numpy's, ScalarType's, C++'s.
float16 = dtype("float16", np.dtype(np.float16), "Half", "c10::Half")
float32 = dtype("float32", np.dtype(np.float32), "Float", "float")
float64 = dtype("float64", np.dtype(np.float64), "Double", "double")
uint8 = dtype("uint8", np.dtype(np.uint8), "Byte", "unsigned char")
int8 = dtype("int8", np.dtype(np.int8), "Char", "signed char")
int16 = dtype("int16", np.dtype(np.int16), "Short", "short int")
int32 = dtype("int32", np.dtype(np.int32), "Int", "int")
int64 = dtype("int64", np.dtype(np.int64), "Long", "long int")
bool_ = dtype("bool", np.dtype(np.bool_), "Bool", "bool")

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_)
BY_NUMPY = {d.numpy: d for d in ALL}

# PyTorch's aliases: torch.float is float32, torch.double float64, torch.long int64 ...
ALIASES = {
    "float": float32,
    "double": float64,
    "half": float16,
    "long": int64,
    "int": int32,
    "short": int16,
    "bool": bool_,
}


_default = float32  # the one piece of state here: changed by set_default_dtype only


def get_default_dtype() -> dtype:
    """The floating point type that Python floats become: ``float32`` unless changed.

    >>> get_default_dtype()
    minigrad.float32
    """
    return _default


def set_default_dtype(d: dtype) -> None:
    """Make ``d`` (a floating point dtype) the type of Python floats, of ``tensor([1.0])``
    and of the float creation functions, as ``torch.set_default_dtype`` does.

    >>> set_default_dtype(int64)
    Traceback (most recent call last):
    TypeError: only floating-point types are supported as the default type
    """
    global _default
    if not isinstance(d, dtype):
        raise TypeError(
            "invalid dtype object: only floating-point types are supported as the default type"
        )
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default = d


def from_numpy_dtype(np_dtype: Any) -> dtype:
    """The minigrad dtype for a numpy dtype, or a ``TypeError`` naming the unsupported one."""
    try:
        return BY_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        # numpy.object_, numpy.complex128: the type's name, as PyTorch prints it.
        kind = np.dtype(np_dtype).type.__name__
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{kind}. The only supported "
            "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        ) from None


def scalar_type_name(value: Any) -> str:
    """PyTorch's name of a dtype in error messages: ``scalar_type_name(np.int64)`` is "Long".

    >>> scalar_type_name(float64)
    'Double'
    """
    return to_dtype(value).scalar_type


def c_type_name(value: Any) -> str:
    """The C++ type name PyTorch prints in some messages: "double" for float64."""
    return to_dtype(value).c_type


def to_dtype(value: Any) -> dtype:
    """Accept a minigrad dtype, a numpy dtype or a numpy type name: ``"float64"``."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, str) and value in ALIASES:
        return ALIASES[value]
    try:
        return from_numpy_dtype(np.dtype(value))
    except TypeError:
        raise TypeError(f"dtype must be a minigrad dtype, not {value!r}") from None


# Promotion: categories order bool < integer < floating. Within a category numpy's
# promotion (e.g. float32 with float64 is float64) agrees with PyTorch's.
def _category(d: np.dtype) -> int:
    return {"b": 0, "u": 1, "i": 1, "f": 2}[d.kind]


def _promote(dtypes: list[np.dtype]) -> np.dtype:
    """Promotion within one group of operands: a float beats any integer (float32 with int64
    is float32 in PyTorch, where numpy says float64)."""
    top = max(_category(d) for d in dtypes)
    return np.result_type(*(d for d in dtypes if _category(d) == top))


def result_type(operands: Sequence[Any]) -> np.dtype:
    """The numpy dtype of an elementwise result, by PyTorch's rules.

    Tensors with dimensions decide, unless a zero-dimensional tensor or a Python number is of
    a higher category (bool < int < float): then the zero-dim tensor's dtype, or for a number
    the default dtype of its category, wins. ``operands`` holds Tensors and Python numbers.

    >>> import minigrad as mg
    >>> result_type([mg.tensor([1, 2]), 2.5])
    dtype('float32')
    >>> result_type([mg.tensor([1.0]), mg.tensor(2.0, dtype=mg.float64)])
    dtype('float32')
    """
    Tensor = _tensor.Tensor
    if _keeps_the_first_float_type(operands, Tensor):  # the common case, decided at once
        return operands[0]._array.dtype
    dimensioned, zero_dim, number_category = [], [], -1
    for operand in operands:
        if isinstance(operand, Tensor) and not operand._is_wrapped_number:
            (dimensioned if operand.ndim else zero_dim).append(operand._array.dtype)
        else:
            number = operand._array.item() if isinstance(operand, Tensor) else operand
            number_category = max(number_category, _python_number_category(number))
    result: np.dtype | None = None
    for group in (dimensioned, zero_dim):
        if group:
            promoted = _promote(group)
            if result is None or _category(promoted) > _category(result):
                result = promoted
    if number_category > (-1 if result is None else _category(result)):
        result = [np.dtype(np.bool_), np.dtype(np.int64), _default.numpy][number_category]
    assert result is not None
    return result


def _keeps_the_first_float_type(operands: Sequence[Any], Tensor: type) -> bool:
    """Whether the rules above give the first operand's dtype without the full walk: it is a
    float tensor and every other operand has its dtype, is a bool tensor (a mask) or is a
    number (neither a bool nor a Python number raises a float tensor's dtype)."""
    first = operands[0]
    if not isinstance(first, Tensor) or first._is_wrapped_number:
        return False
    dtype = first._array.dtype
    if dtype.kind != "f":
        return False
    for operand in operands:
        if not isinstance(operand, Tensor):
            if isinstance(operand, bool | int | float):
                continue
            return False
        kind = operand._array.dtype
        if kind != dtype and kind.kind != "b" and not operand._is_wrapped_number:
            return False
    return True


def _python_number_category(number: Any) -> int:
    if isinstance(number, bool | np.bool_):
        return 0
    if isinstance(number, int | np.integer):
        return 1
    if isinstance(number, float | np.floating):
        return 2
    raise TypeError(f"unsupported operand type: {type(number).__name__}")


# tensor.py imports this module, so the Tensor class is reached through its module,
# imported last: this works whichever of the two modules is imported first.
from . import tensor as _tensor  # noqa: E402
