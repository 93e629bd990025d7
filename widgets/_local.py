"""Local derivatives in numbers: the stepper's "2·a = 2·2 = 4".

Each op's ``formula`` (``minigrad/ops``) gives its local derivative in symbols. A student
learns more from seeing it evaluated: the values the op saved for ``backward`` substituted
into the formula, then the gradient that arrived times that number, equal to what the node
sent. The substitution is done here; what was *sent* is never computed here: it is the
engine's record (``Step.grads_out``), shown beside the product it should equal.

The saved values are read with PyTorch's educational attributes (``grad_fn._saved_self``,
``_saved_other``, ``_saved_result``, ``_saved_exponent``, ...) before the pass frees them.

>>> import minigrad as mg
>>> a = mg.tensor(2.0, requires_grad=True)
>>> y = a**2
>>> local = local_derivatives(y.grad_fn, read_saved(y.grad_fn))
>>> local[0].text()
'2·a = 2·2 = 4'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from minigrad import Tensor
from minigrad.function import Node

from .i18n import N_, _

# The names an op's node saves, by node name (see each op's ``saved_as`` and ``options_as``).
SAVED_NAMES = {
    "AddBackward0": ("alpha",),
    "SubBackward0": ("alpha",),
    "MulBackward0": ("self", "other"),
    "DivBackward0": ("self", "other"),
    "PowBackward0": ("self", "exponent"),
    "PowBackward1": ("self", "exponent", "result"),
    "PowBackward2": ("self", "result"),
    "ExpBackward0": ("result",),
    "LogBackward0": ("self",),
    "TanhBackward0": ("result",),
    "SigmoidBackward0": ("result",),
    "ReluBackward0": ("result",),
    "MeanBackward0": ("self_sym_numel",),
    "MeanBackward1": ("self_sym_numel",),
    "MmBackward0": ("self", "mat2"),
}


def read_saved(node: Node) -> dict[str, Any]:
    """What ``node`` saved for backward, as values that stay as they are now (copies of
    tensors): read it before the backward pass frees it. Unknown ops give ``{}``."""
    saved: dict[str, Any] = {}
    for key in SAVED_NAMES.get(_name(node), ()):
        try:
            value = getattr(node, f"_saved_{key}")
        except (AttributeError, RuntimeError):  # not saved, or already freed
            continue
        if isinstance(value, Tensor):
            value = value.detach().numpy().copy()
        saved[key] = value
    return saved


def _name(node: Any) -> str:
    """PyTorch's name of a node (``PowBackward0``); empty for a node without ``name()``
    (then only its formula and the engine's records are shown)."""
    name = getattr(node, "name", None)
    return name() if callable(name) else ""


# --------------------------------------------------------------------------- numbers
def number(value: Any) -> str:
    """A value as a student writes it: ``4``, ``0.5``, ``0.07065``, ``[2, 4, 6]``; a big
    tensor as its shape (``[2×3 values]``)."""
    array = np.asarray(value)
    if array.size == 1:
        v = array.item()
        if isinstance(v, bool):
            return str(int(v))
        if math.isfinite(v) and v == int(v) and abs(v) < 1e8:
            return str(int(v))
        return f"{v:.4g}"
    if array.size > 6 or array.ndim > 2:
        return _("[{shape} values]").format(shape="×".join(str(n) for n in array.shape))
    if array.ndim == 1:
        return "[" + ", ".join(number(v) for v in array) + "]"
    return "[" + ", ".join(number(row) for row in array) + "]"


def _wrapped(value: Any) -> str:
    """A number inside a formula: negative numbers in brackets (``2·(−1)``)."""
    text = number(value).replace("-", "−")
    return f"({text})" if text.startswith("−") else text


_SUPERSCRIPT = str.maketrans("0123456789-.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻·")


def _power(base: str, exponent: Any) -> str:
    """``a²``, ``a³``; ``a^(0.5)`` when the exponent is not a small whole number."""
    e = float(exponent)
    if e == 1:
        return base
    if e == int(e) and abs(e) < 100:
        return base + str(int(e)).translate(_SUPERSCRIPT)
    return f"{base}^({number(e)})"


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Local:
    """The local derivative of an op's result with respect to one input.

    ``formula`` in symbols (``2·a``), ``substituted`` with the saved values in (``2·2``;
    empty when the formula is already a number), ``value`` what that comes to (``None``
    when it is a matrix product, not a number to multiply by: then ``how`` says how the
    gradient is combined, e.g. ``G@Bᵀ``)."""

    formula: str
    substituted: str = ""
    value: Any = None
    how: str = ""

    def text(self) -> str:
        # A formula in words is marked with N_ where the table is made: translated here.
        parts = [_(self.formula) if self.formula else ""]
        if self.substituted and self.substituted != self.formula:
            parts.append(self.substituted)
        value = None if self.value is None else number(self.value).replace("-", "−")
        if value is not None and value != parts[-1] and not parts[-1].startswith(value + " "):
            parts.append(value)
        return " = ".join(parts)


def _constant(value: Any) -> Local:
    return Local(number(value).replace("-", "−"), value=np.asarray(value))


def _add(saved: dict, sign: int) -> list[Local]:
    alpha = saved.get("alpha", 1)
    second = _constant(sign * alpha) if alpha != 1 else _constant(sign)
    return [_constant(1), second]


def _mul(saved: dict) -> list[Local | None]:
    a, b = saved.get("self"), saved.get("other")
    return [
        None if b is None else Local("b", number(b), b),
        None if a is None else Local("a", number(a), a),
    ]


def _div(saved: dict) -> list[Local | None]:
    a, b = saved.get("self"), saved.get("other")
    first = None if b is None else Local("1/b", f"1/{_wrapped(b)}", 1 / b)
    second = None
    if a is not None and b is not None:
        second = Local("−a/b²", f"−{_wrapped(a)}/{_wrapped(b)}²", -a / b**2)
    return [first, second]


def _pow_scalar(saved: dict) -> list[Local | None]:
    a, n = saved.get("self"), saved.get("exponent")
    if a is None or n is None:
        return [None]
    symbols = f"{number(n)}·{_power('a', n - 1)}" if n - 1 != 0 else number(n)
    if n - 1 == 1:
        values = f"{number(n)}·{_wrapped(a)}"
    else:
        values = f"{number(n)}·{_wrapped(a)}^{_wrapped(n - 1)}" if n - 1 != 0 else ""
    return [Local(symbols, values, n * a ** (n - 1))]


def _pow_tensor(saved: dict) -> list[Local | None]:
    a, b, result = saved.get("self"), saved.get("exponent"), saved.get("result")
    first = second = None
    if a is not None and b is not None:
        first = Local("b·aᵇ⁻¹", f"{_wrapped(b)}·{_wrapped(a)}^{_wrapped(b - 1)}", b * a ** (b - 1))
    if a is not None and result is not None:
        second = Local("aᵇ·ln a", f"{_wrapped(result)}·ln {_wrapped(a)}", result * np.log(a))
    return [first, second]


def _pow_scalar_base(saved: dict) -> list[Local | None]:
    c, result = saved.get("self"), saved.get("result")
    if c is None or result is None:
        return [None]
    return [Local("cᵃ·ln c", f"{_wrapped(result)}·ln {_wrapped(c)}", result * np.log(c))]


def _unary(formula: str, substitute: Callable[[Any], tuple[str, Any]], key: str):
    def local(saved: dict) -> list[Local | None]:
        if key not in saved:
            return [None]
        text, value = substitute(saved[key])
        return [Local(formula, text, value)]

    return local


def _relu(r: Any) -> tuple[str, Any]:
    positive = np.asarray(r) > 0
    if positive.size == 1:
        here = _("1 (here a > 0)") if positive.item() else _("0 (here a ≤ 0)")
        return here, positive.astype(float)
    return number(positive.astype(float)), positive.astype(float)


def _mean(saved: dict) -> list[Local | None]:
    n = saved.get("self_sym_numel")
    if n is None:
        return [None]
    return [Local(N_("1/n for every element"), f"1/{n}", np.asarray(1 / n))]


def _mm(saved: dict) -> list[Local | None]:
    a, b = saved.get("self"), saved.get("mat2")
    first = second = None
    if b is not None:
        how = _("the gradient G @ Bᵀ, Bᵀ of shape {shape}").format(shape=b.T.shape)
        first = Local("G@Bᵀ", how=how)
    if a is not None:
        how = _("Aᵀ @ the gradient G, Aᵀ of shape {shape}").format(shape=a.T.shape)
        second = Local("Aᵀ@G", how=how)
    return [first, second]


def _copy_slices(saved: dict) -> list[Local | None]:
    """A base written into through a view: no single number multiplies the gradient, so
    each input says where its part of the gradient comes from."""
    base = Local(
        N_("1 outside the view; inside it, the in-place op's derivative"),
        how=_(
            "the gradient is kept where the view did not reach; where it did, it is "
            "replaced by what the in-place op sends back to the view's old values"
        ),
    )
    written = Local(
        N_("the in-place op's derivative, inside the view"),
        how=_("the gradient inside the view, sent through the in-place op to this input"),
    )
    return [base, written, written, written]  # the in-place op has at most three inputs


TABLE: dict[str, Callable[[dict], list[Local | None]]] = {
    "minigrad::autograd::CopySlices": _copy_slices,
    "AddBackward0": lambda saved: _add(saved, 1),
    "SubBackward0": lambda saved: _add(saved, -1),
    "RsubBackward1": lambda saved: [_constant(-1)],
    "NegBackward0": lambda saved: [_constant(-1)],
    "MulBackward0": _mul,
    "DivBackward0": _div,
    "PowBackward0": _pow_scalar,
    "PowBackward1": _pow_tensor,
    "PowBackward2": _pow_scalar_base,
    "ExpBackward0": _unary("eᵃ", lambda r: ("", r), "result"),
    "LogBackward0": _unary("1/a", lambda a: (f"1/{_wrapped(a)}", 1 / a), "self"),
    "TanhBackward0": _unary(
        "1 − tanh²a", lambda t: (f"1 − {_wrapped(t)}²", 1 - np.asarray(t) ** 2), "result"
    ),
    "SigmoidBackward0": _unary(
        "σ(a)·(1 − σ(a))",
        lambda s: (f"{_wrapped(s)}·(1 − {_wrapped(s)})", s * (1 - np.asarray(s))),
        "result",
    ),
    "ReluBackward0": _unary(N_("1 if a > 0 else 0"), _relu, "result"),
    "SumBackward0": lambda saved: [Local(N_("1 for every element"), value=np.asarray(1.0))],
    "SumBackward1": lambda saved: [Local(N_("1 for every element"), value=np.asarray(1.0))],
    "MeanBackward0": _mean,
    "MeanBackward1": _mean,
    "MmBackward0": _mm,
}


def local_derivatives(node: Node, saved: dict[str, Any]) -> list[Local | None]:
    """One ``Local`` (or ``None``: unknown here) per input of ``node``, from the values it
    ``saved`` (``read_saved``). An op not in the table gives ``[]``: the panel then shows
    its formula alone.

    >>> import minigrad as mg
    >>> a = mg.tensor(2.0, requires_grad=True)
    >>> b = mg.tensor(3.0, requires_grad=True)
    >>> [local.text() for local in local_derivatives((a / b).grad_fn, read_saved((a / b).grad_fn))]
    ['1/b = 1/3 = 0.3333', '−a/b² = −2/3² = −0.2222']
    """
    rule = TABLE.get(_name(node))
    if rule is None:
        return []
    with np.errstate(all="ignore"):
        return rule(saved)
