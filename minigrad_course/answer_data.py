"""Answers as plain data: how a student's answers leave the process that ran their code.

Isolated grading (:mod:`minigrad_course.isolated_grading`) runs a submission's cells in a
process of its own and judges the answers somewhere else. What crosses between the two is
JSON made by :func:`to_data`, never a pickled object: reading JSON runs no code, so the
worst a tampered student process can send is a wrong answer. :func:`from_data` turns it
back into ordinary Python and numpy values and refuses anything malformed with
``ValueError``.

>>> from_data(to_data({"x", "c"})) == {"x", "c"}
True
>>> from_data(to_data((1, 2.5, None)))
(1, 2.5, None)
>>> from_data(to_data(mg.tensor([1.0, 2.0])))
array([1., 2.])
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

import minigrad as mg

__all__ = ["to_data", "from_data", "Opaque", "dumps", "loads"]

MAX_DEPTH = 20  # nesting deeper than any answer of the course
MAX_ITEMS = 1_000_000  # numbers in one array


class Opaque:
    """Stands for an answer that is not plain data (a function, a model...): it keeps the
    type's name and a short repr, which is all a check's message says about it.

    >>> Opaque("Linear", "Linear(in_features=2)")
    Linear(in_features=2)
    """

    def __init__(self, type_name: str, text: str) -> None:
        self.type_name, self.text = type_name, text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails is still an answer of some type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def to_data(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-ready data, each kind tagged so that it comes back as it was.

    >>> to_data(3)
    {'int': 3}
    >>> to_data([True, "a"])
    {'list': [{'bool': True}, {'str': 'a'}]}
    """
    if depth > MAX_DEPTH:
        return {"opaque": ["nested", "a value nested too deep"]}
    if value is None:
        return None
    if isinstance(value, bool | np.bool_):
        return {"bool": bool(value)}
    if isinstance(value, int | np.integer):
        return {"int": int(value)}
    if isinstance(value, float | np.floating):
        return {"float": float(value)}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, mg.Tensor):
        value = value.detach().numpy()
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        array = np.asarray(value, dtype=np.float64 if value.dtype.kind == "f" else value.dtype)
        return {"array": [value.dtype.kind, list(array.shape), array.reshape(-1).tolist()]}
    for kind, types in (("list", list), ("tuple", tuple), ("set", set | frozenset)):
        if isinstance(value, types):
            return {kind: [to_data(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[to_data(k, depth + 1), to_data(v, depth + 1)] for k, v in value.items()]}
    return {"opaque": [type(value).__name__, _short_repr(value)]}


def _number(value: Any, kind: type) -> Any:
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError("a number that is not one")


def from_data(data: Any, depth: int = 0) -> Any:
    """The value that :func:`to_data` described; ``ValueError`` for anything else."""
    if depth > MAX_DEPTH + 1:
        raise ValueError("answers nested too deep")
    if data is None:
        return None
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError("an answer that is not tagged data")
    ((kind, body),) = data.items()
    if kind == "bool" and isinstance(body, bool):
        return body
    if kind == "int":
        return _number(body, int)
    if kind == "float":
        return _number(body, float)
    if kind == "str" and isinstance(body, str):
        return body
    if kind == "array":
        return _array(body)
    if kind in ("list", "tuple", "set") and isinstance(body, list):
        items = [from_data(item, depth + 1) for item in body]
        return {"list": list, "tuple": tuple, "set": _set}[kind](items)
    if kind == "dict" and isinstance(body, list):
        pairs = [_pair(item, depth) for item in body]
        return dict(pairs)
    if kind == "opaque" and isinstance(body, list) and len(body) == 2:
        if all(isinstance(text, str) for text in body):
            return Opaque(body[0][:100], body[1][:100])
    raise ValueError(f"malformed answer data ({kind})")


def _set(items: list) -> set:
    try:
        return set(items)
    except TypeError as error:
        raise ValueError("a set of unhashable items") from error


def _pair(item: Any, depth: int) -> tuple[Any, Any]:
    if not isinstance(item, list) or len(item) != 2:
        raise ValueError("a dict entry that is not a pair")
    key = from_data(item[0], depth + 1)
    try:
        hash(key)
    except TypeError as error:
        raise ValueError("an unhashable dict key") from error
    return key, from_data(item[1], depth + 1)


def _array(body: Any) -> np.ndarray:
    if not (isinstance(body, list) and len(body) == 3):
        raise ValueError("malformed array data")
    kind, shape, flat = body
    dtypes = {"b": np.bool_, "i": np.int64, "u": np.uint64, "f": np.float64}
    if kind not in dtypes or not isinstance(shape, list) or not isinstance(flat, list):
        raise ValueError("malformed array data")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise ValueError("malformed array shape")
    if math.prod(shape) != len(flat) or len(flat) > MAX_ITEMS:
        raise ValueError("an array whose size does not match its shape")
    if not all(isinstance(v, int | float) for v in flat):
        raise ValueError("an array of things that are not numbers")
    return np.array(flat, dtype=dtypes[kind]).reshape(shape)


def dumps(data: Any) -> str:
    """JSON text for data made by :func:`to_data` (NaN and infinities included)."""
    return json.dumps(data, allow_nan=True)


def loads(text: str) -> Any:
    """Data from JSON text; ``ValueError`` when it is not JSON (or nests too deep)."""
    try:
        return json.loads(text)
    except (RecursionError, json.JSONDecodeError) as error:
        raise ValueError(f"unreadable answers: {type(error).__name__}") from error
