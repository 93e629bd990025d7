"""Print numpy arrays exactly the way PyTorch 2.13 prints tensors.

This follows the rules in ``torch/_tensor_str.py``, rewritten for numpy. The one intended
difference is that dtypes read ``minigrad.float64`` where torch writes ``torch.float64``.

    >>> import numpy as np
    >>> tensor_repr(np.array([2.0, 2.0, 1.5], dtype=np.float32))
    'tensor([2.0000, 2.0000, 1.5000])'
    >>> tensor_repr(np.array(5.0, dtype=np.float32), grad_fn_name="AddBackward0")
    'tensor(5., grad_fn=<AddBackward0>)'
    >>> print(tensor_repr(np.arange(6).reshape(2, 3)))
    tensor([[0, 1, 2],
            [3, 4, 5]])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import dtypes

__all__ = ["set_printoptions", "tensor_repr"]


@dataclass
class _PrintOptions:
    precision: int = 4  # digits after the decimal point
    threshold: float = 1000  # summarize ("...") tensors with more elements than this
    edgeitems: int = 3  # items kept at each end of a summarized dimension
    linewidth: int = 80  # characters per line before a row wraps
    sci_mode: bool | None = None  # None: let _Formatter decide


# The only module-level state: the options shared by every call to tensor_repr.
_OPTIONS = _PrintOptions()

# The default dtype (float32), int64 and bool go unnamed: the printed values ("1.", "1",
# "True") already show them. An empty tensor shows no values, so there only the default
# dtype goes unnamed.
_IMPLIED_DTYPES = {"int64", "bool"}  # and the default dtype (float32 unless changed)


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change the options used by `tensor_repr`, like ``torch.set_printoptions``.

    Arguments left as None keep their value, except ``sci_mode``: torch always assigns it,
    so any call without ``sci_mode`` returns it to automatic.
    """
    if precision is not None:
        _OPTIONS.precision = precision
    if threshold is not None:
        _OPTIONS.threshold = threshold
    if edgeitems is not None:
        _OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTIONS.linewidth = linewidth
    _OPTIONS.sci_mode = sci_mode


class _Formatter:
    """Choose one style and width for all printed elements, so that columns line up."""

    def __init__(self, values: np.ndarray) -> None:
        self.is_float = values.dtype.kind == "f"
        self.int_mode = True  # floats that are all whole numbers print as "3."
        self.sci_mode = False
        self.width = 1
        precision = _OPTIONS.precision

        if not self.is_float:
            self.width = max([self.width] + [len(str(v)) for v in values.ravel().tolist()])
            return

        # Zeros, nan and inf carry no information about magnitude, so only the other values
        # decide the style. (They are also left out of the width: "nan" may overhang.)
        finite = values[np.isfinite(values) & (values != 0)]
        if finite.size == 0:
            return
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        magnitudes = np.abs(finite.astype(np.float64))
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())  # inf, no warning
        if _OPTIONS.sci_mode is None:
            self.sci_mode = bool(largest / smallest > 1000 or largest > 1e8 or smallest < 1e-4)
        else:
            self.sci_mode = _OPTIONS.sci_mode

        if self.sci_mode:
            texts = [f"{v:.{precision}e}" for v in finite.tolist()]
        elif self.int_mode:
            texts = [f"{v:.0f}." for v in finite.tolist()]  # the "." marks a float
        else:
            texts = [f"{v:.{precision}f}" for v in finite.tolist()]
        self.width = max(len(text) for text in texts)

    def format(self, value: float) -> str:
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:.{_OPTIONS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{_OPTIONS.precision}f}"
        return text.rjust(self.width)


def _summarized(array: np.ndarray) -> np.ndarray:
    """Keep only the elements a summarized print shows: `edgeitems` from each end of each axis."""
    edge = _OPTIONS.edgeitems
    for axis, size in enumerate(array.shape):
        if size > 2 * edge:
            kept = np.r_[0:edge, size - edge : size]
            array = np.take(array, kept, axis=axis)
    return array


def _vector_str(vector: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    edge = _OPTIONS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(vector) > 2 * edge:
        head, tail = vector[:edge].tolist(), vector[-edge:].tolist()
        items = [fmt.format(v) for v in head] + [" ..."] + [fmt.format(v) for v in tail]
    else:
        items = [fmt.format(v) for v in vector.tolist()]

    # Every element costs its width plus ", "; wrapped lines start one past the "[".
    per_line = max(1, (_OPTIONS.linewidth - indent) // (fmt.width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _array_str(array: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """Nested brackets for `array`, whose first "[" sits in column `indent`."""
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, fmt)

    edge = _OPTIONS.edgeitems
    if summarize and len(array) > 2 * edge:
        rows = list(range(edge)) + [None] + list(range(len(array) - edge, len(array)))
    else:
        rows = list(range(len(array)))
    parts = ["..." if i is None else _array_str(array[i], indent + 1, summarize, fmt) for i in rows]
    # A 3-d tensor separates its matrices by one blank line, a 4-d one by two, and so on.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ", suffix" pieces, moving one to its own line if it would pass `linewidth`."""
    # torch's measure of the last line, off by two from its true length; kept for parity.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        # Measure as torch would spell it ("torch." is 3 characters shorter than "minigrad."),
        # so that lines break exactly where PyTorch's do.
        length = len(suffix.replace("dtype=minigrad.", "dtype=torch."))
        if last_line_len + length + 2 > _OPTIONS.linewidth:
            text += ",\n" + " " * indent + suffix
            last_line_len = indent + length
        else:
            text += ", " + suffix
            last_line_len += length + 2
    return text + ")"


def tensor_repr(
    array: np.ndarray,
    *,
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
    tangent: str | None = None,
) -> str:
    """`tensor(...)` text exactly as PyTorch prints it, with ``minigrad.`` dtype names.

    >>> tensor_repr(np.array([1e-5, 1.0], dtype=np.float32), requires_grad=True)
    'tensor([1.0000e-05, 1.0000e+00], requires_grad=True)'
    """
    array = np.asarray(array)
    if array.dtype not in dtypes.BY_NUMPY:
        raise TypeError(f"tensor_repr: unsupported dtype {array.dtype}")
    dtype_name = dtypes.BY_NUMPY[array.dtype].name
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []

    if array.size == 0:
        # As in numpy, a bare "[]" means shape (0,); any other shape is spelled out.
        if array.ndim != 1:
            suffixes.append(f"size={array.shape}")
        if dtype_name != dtypes.get_default_dtype().name:
            suffixes.append(f"dtype=minigrad.{dtype_name}")
        body = "[]"
    else:
        if not _OPTIONS.edgeitems:  # every dimension collapses to "...", so show the shape
            suffixes.append(f"size={array.shape}")
        if dtype_name not in _IMPLIED_DTYPES and dtype_name != dtypes.get_default_dtype().name:
            suffixes.append(f"dtype=minigrad.{dtype_name}")
        summarize = array.size > _OPTIONS.threshold
        fmt = _Formatter(_summarized(array) if summarize else array)
        body = _array_str(array, indent, summarize, fmt)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor's tangent, as f"{tangent}" prints it
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)
