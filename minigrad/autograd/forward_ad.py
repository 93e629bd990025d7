"""Forward-mode automatic differentiation, as ``torch.autograd.forward_ad``.

Inside a ``dual_level``, ``make_dual(x, v)`` gives a *dual tensor*: the values of ``x``
carrying a tangent ``v``, the direction in which they move. Every op on a dual tensor
computes the tangent of its result too (its ``jvp``, written beside its ``backward``), so
after one pass ``unpack_dual(out).tangent`` is ``J v``, the Jacobian of the whole function
times ``v``, with no backward pass. The tangents are deleted when the level is left.

>>> import minigrad as mg
>>> import minigrad.autograd.forward_ad as fwAD
>>> x = mg.tensor([0.0, 1.0, 2.0])
>>> with fwAD.dual_level():
...     dual = fwAD.make_dual(x, mg.tensor([1.0, 1.0, 1.0]))
...     out = dual * dual + dual.sin()
...     print(out)
...     primal, tangent = fwAD.unpack_dual(out)
tensor([0.0000, 1.8415, 4.9093], tangent=tensor([1.0000, 2.5403, 3.5839]))
>>> tangent
tensor([1.0000, 2.5403, 3.5839])

``record_steps()`` is minigrad's own addition: it keeps one ``ForwardStep`` per op that
computed a tangent, for the forward stepper to show.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .. import tangents as _state
from ..engine import ForwardStep
from ..ops import FwPrimal, View
from ..tensor import Tensor

__all__ = [
    "UnpackedDualTensor",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
    "dual_level",
    "record_steps",
    "ForwardStep",
]


def enter_dual_level() -> int:
    """Enter a new forward grad level and return its number (0: one level at a time, as in
    PyTorch). The functions below use it unless given another ``level``.

    >>> import minigrad.autograd.forward_ad as fwAD
    >>> level = fwAD.enter_dual_level()
    >>> level
    0
    >>> fwAD.exit_dual_level()
    """
    return _state.enter_level()


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the last level entered, deleting every tangent made at it."""
    _state.exit_level(_state.current_level() if level is None else level)


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` that carries ``tangent`` (kept as it is) at ``level``: what
    forward mode differentiates. Both must be floating point and of the same shape.

    >>> import minigrad as mg
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     print(fwAD.make_dual(mg.tensor(2.0), mg.tensor(1.0)))
    tensor(2., tangent=1.0)
    """
    if level is None:
        level = _state.current_level()
    if level < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first."
        )
    for what, value in (("primal", tensor), ("tangent", tangent)):
        if not value.dtype.is_floating_point:
            raise ValueError(
                f"Expected {what} to be floating point or complex, but got: {value.dtype}"
            )
    if level not in _state.open_levels:
        raise RuntimeError("Invalid level given to _make_dual")
    if _state.tangent_of(tensor, level) is not None:
        raise RuntimeError(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the "
            f"same level {level} is not supported."
        )
    if _state.tangent_of(tangent, level) is not None:
        raise RuntimeError(
            "Setting a forward grad that itself has a forward gradient at the same "
            f"level{level} is not supported."
        )
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}."
        )
    dual = View.apply(tensor, shape=tuple(tensor.shape))
    _state.set_tangent(dual, level, tangent)
    return dual


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the ``primal`` and the ``tangent`` (None if none)."""

    primal: Tensor
    tangent: Tensor | None


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of ``tensor`` without its tangent at ``level``, and
    that tangent as it is (None if it has none). Outside any level: ``(tensor, None)``.

    >>> import minigrad as mg
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     dual = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.tensor([0.5, 0.5]))
    ...     fwAD.unpack_dual(dual.exp())
    UnpackedDualTensor(primal=tensor([2.7183, 7.3891]), tangent=tensor([1.3591, 3.6945]))
    """
    if level is None:
        level = _state.current_level()
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if level not in _state.open_levels and tensor._tangents:  # PyTorch checks it only then
        raise RuntimeError("Invalid level given to _fw_primal")
    # None where the level is out of sight (in a Function's forward, as in PyTorch)
    hidden = level in _state.hidden_levels
    tangent = None if hidden else _state.tangent_of(tensor, level)
    _state.hidden_levels.append(level)  # the primal is the view without this tangent
    try:
        primal = FwPrimal.apply(tensor)
    finally:
        _state.hidden_levels.pop()
    return UnpackedDualTensor(primal, tangent)


class dual_level:  # noqa: N801 - PyTorch's name
    """The context in which forward mode computes: entered, it opens a level (whose number
    ``as`` receives); left, it deletes every tangent made in it. One level at a time, as
    in PyTorch (``torch.func.jvp`` is PyTorch's way to nest).

    >>> import minigrad as mg
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     dual = fwAD.make_dual(mg.tensor(3.0), mg.tensor(1.0))
    ...     squared = dual**2
    >>> fwAD.unpack_dual(squared).tangent is None  # gone with the level
    True
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc_info: Any) -> None:
        exit_dual_level()

    def __call__(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Used as a decorator: the function runs inside a level of its own."""

        @functools.wraps(function)
        def inside_a_level(*args: Any, **kwargs: Any) -> Any:
            with type(self)():
                return function(*args, **kwargs)

        return inside_a_level


@contextlib.contextmanager
def record_steps() -> Iterator[list[ForwardStep]]:
    """Keep a ``ForwardStep`` for every op that computes a tangent inside the block, in the
    order they run, in the list this yields (minigrad's own addition, for the forward
    stepper: PyTorch has no such record). Nothing is recorded, or paid, outside it.

    >>> import minigrad as mg
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level(), fwAD.record_steps() as steps:
    ...     x = fwAD.make_dual(mg.tensor(2.0), mg.tensor(1.0))
    ...     y = x * x + 1
    >>> [(step.index, step.name, step.output_tangent) for step in steps]
    [(0, 'MulBackward0', tensor(4.)), (1, 'AddBackward0', tensor(4.))]
    >>> steps[0].formula
    'ȧ·b + a·ḃ'
    """
    steps: list[ForwardStep] = []
    _state.step_recorders.append(steps)
    try:
        yield steps
    finally:
        _state.step_recorders.remove(steps)
