"""What lets transforms nest: each transform call opens a *level*, gives the function it
transforms fresh tensors made at that level, and at the end decides which results keep
their history.

PyTorch's functorch wraps tensors once per level. minigrad keeps ordinary tensors and the
ordinary graph instead, built with ``create_graph=True`` so that an outer transform can
differentiate what an inner one returns:

- an input that already requires grad (a tensor of an outer level, or a user's leaf) is
  handed over as a clone of itself, so the result stays connected to it (a clone, not a
  view: its backward hands the gradient on untouched, so no node is added to what an
  enclosing transform returns);
- any other input becomes a fresh leaf that requires grad, remembered with its level.

A result keeps its history only if that history leads somewhere outside the transform
(a leaf of an outer level or one of the user's leaves), as PyTorch's results do; a
history that ends only at fresh leaves of this level or deeper ones is cut off.

>>> import minigrad as mg
>>> x = mg.tensor(3.0)
>>> with opened_level() as level:
...     (inside,) = track([x], level)
...     y = inside * inside
...     release(y, level) is y, release(y, level).grad_fn
(False, None)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..autograd import forward_ad
from ..graph import post_order
from ..tensor import Tensor

_open_levels = 0


@contextmanager
def opened_level() -> Iterator[int]:
    """A new level, one deeper than the transforms already running."""
    global _open_levels
    _open_levels += 1
    try:
        yield _open_levels
    finally:
        _open_levels -= 1


def tangent_of(tensor: Tensor) -> Tensor | None:
    """The forward-mode tangent ``tensor`` carries at the current dual level, if any."""
    return forward_ad.unpack_dual(tensor).tangent


def track(leaves: list[Any], level: int) -> list[Tensor]:
    """The tensors to hand to the function instead of ``leaves``, to differentiate with
    respect to. A tangent an input carries (under ``jvp``/``jacfwd``) is carried over."""
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")
    received = []
    for tensor in leaves:
        if tensor.requires_grad:
            received.append(tensor.clone())
            continue
        leaf = tensor.detach().requires_grad_()
        leaf._func_level = level  # type: ignore[attr-defined]
        tangent = tangent_of(tensor)
        if tangent is not None and tangent_of(leaf) is None:
            assert forward_ad is not None
            received.append(forward_ad.make_dual(leaf, tangent))
        else:
            received.append(leaf)
    return received


def _made_at_or_below(tensor: Tensor, level: int) -> bool:
    return getattr(tensor, "_func_level", 0) >= level


def reaches_outside(tensor: Tensor, level: int) -> bool:
    """Does ``tensor``'s history lead to a leaf that is not a fresh leaf of ``level`` or of
    a deeper (finished) level?"""
    if tensor.grad_fn is None:
        return tensor.requires_grad and not _made_at_or_below(tensor, level)
    order, _ = post_order([tensor.grad_fn])
    for node in order:
        variable = getattr(node, "variable", None)
        if variable is not None and not _made_at_or_below(variable, level):
            return True
    return False


def release(value: Any, level: int, *, primal: bool = False) -> Any:
    """``value`` as the caller of the transform at ``level`` receives it: detached unless its
    history leads outside the transform or it carries a tangent still in use (a ``primal``
    taken out of a dual tensor carries none)."""
    if not isinstance(value, Tensor) or not value.requires_grad:
        return value
    if (not primal and tangent_of(value) is not None) or reaches_outside(value, level):
        return value
    return value.detach()
