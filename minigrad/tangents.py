"""Forward mode's bookkeeping: the dual levels now open, the tangent each tensor carries at
each of them, and how an op passes tangents on.

A *dual tensor* is a tensor with a tangent: a direction in which its value moves. Every op
that sees a tangent on one of its inputs computes the tangent of its result with its
``jvp(ctx, *tangents)``, the forward derivative written beside its ``backward``; so one
pass forward gives ``J v`` for the whole function. The user's API is
``minigrad.autograd.forward_ad``; this module is what the ops and the Tensor consult.

Nothing here costs anything while no level is open: ``Op.apply`` checks ``open_levels``
once, and a tensor with no tangent keeps the class default ``_tangents = None``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .alike import kept_where

if TYPE_CHECKING:
    from .tensor import Tensor

# The levels now open, innermost last (PyTorch's public API allows one at a time).
open_levels: list[int] = []
# Levels whose tangents are out of sight: while an op computes its tangent at level L, its
# inputs are plain values at L (a tangent of a tangent at the same level means nothing).
hidden_levels: list[int] = []
# The record_steps lists now open: each gets a ForwardStep per op that made a tangent.
step_recorders: list[list[Any]] = []
# For each open level, the tensors that carry a tangent at it (weakly): exiting the level
# takes those tangents away, as PyTorch deletes them.
_carriers: dict[int, dict[int, weakref.ref]] = {}


def enter_level(nested_ok: bool = False) -> int:
    """Open a new level and return its number."""
    if open_levels and not nested_ok:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    level = len(open_levels)
    open_levels.append(level)
    _carriers[level] = {}
    return level


def exit_level(level: int) -> None:
    """Close ``level``, the last one opened, and delete every tangent made at it."""
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if not open_levels or level != open_levels[-1]:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    open_levels.pop()
    for ref in list(_carriers.pop(level).values()):  # (a callback may remove one)
        tensor = ref()
        if tensor is not None and tensor._tangents:
            tensor._tangents.pop(level, None)


def current_level() -> int:
    return open_levels[-1] if open_levels else -1


def tangent_of(tensor: Tensor, level: int) -> Tensor | None:
    """``tensor``'s tangent at ``level``, or None. A view with none of its own whose base
    has one sees its part of the base's tangent (as after ``base.copy_(dual)``)."""
    own = tensor._tangents
    if own:
        found = own.get(level)
        if found is not None:
            return found
    base = tensor._base
    if base is not None and base._tangents and level in base._tangents:
        viewed = _view_of_base_tangent(tensor, base._tangents[level])
        if viewed is not None:
            set_tangent(tensor, level, viewed)
        return viewed
    return None


def set_tangent(tensor: Tensor, level: int, tangent: Tensor | None) -> None:
    """Give ``tensor`` this tangent at ``level`` (None takes it away)."""
    if tangent is None:
        if tensor._tangents:
            tensor._tangents.pop(level, None)
        return
    if tensor._tangents is None:
        tensor._tangents = {}
    tensor._tangents[level] = tangent
    carriers = _carriers.get(level)
    if carriers is not None:
        key = id(tensor)
        carriers[key] = weakref.ref(tensor, lambda _, key=key: carriers.pop(key, None))


def has_tangent(values: Any) -> bool:
    """Whether one of ``values`` carries a tangent at a level in sight."""
    Tensor = _tensor.Tensor
    for value in values:
        if isinstance(value, Tensor) and visible_tangents(value):
            return True
    return False


def visible_tangents(tensor: Tensor) -> list[int]:
    return [
        level
        for level in open_levels
        if level not in hidden_levels and tangent_of(tensor, level) is not None
    ]


def propagate(op: Any, ctx: Any, args: tuple[Any, ...], result: Tensor) -> None:
    """After ``op`` made ``result`` from ``args``: at each open level where an input has a
    tangent, compute the result's with ``op.jvp(ctx, *tangents)``. While it runs, ``ctx``
    holds ``primals`` (the inputs) and ``result``, and this level's tangents are hidden."""
    Tensor = _tensor.Tensor
    for level in open_levels:
        if level in hidden_levels:
            continue
        tangents = [tangent_of(a, level) if isinstance(a, Tensor) else None for a in args]
        if all(t is None for t in tangents):
            continue
        hidden_levels.append(level)
        ctx.primals, ctx.result = args, result
        try:
            tangent = op.jvp(ctx, *tangents)
        finally:
            hidden_levels.pop()
            del ctx.primals, ctx.result
        if tangent is None:
            continue
        tangent = fit_to(tangent, result)
        set_tangent(result, level, tangent)
        _saved_result_keeps(ctx, result)
        if step_recorders:
            record(op, ctx, args, tangents, result, tangent)


def fit_to(tangent: Tensor, result: Tensor) -> Tensor:
    """A tangent has its primal's shape: one computed from a broadcast input is expanded
    (as a real array of its own, so that an in-place change can write into it)."""
    if tangent._array.shape != result._array.shape:
        tangent = tangent.expand(result.shape).clone()
    return tangent


def _saved_result_keeps(ctx: Any, result: Tensor) -> None:
    """A node that saved its result saved the value without the tensor; it keeps the
    tangents too, so that a backward run inside the level (forward-over-reverse) sees them."""
    for saved in getattr(ctx, "_saved", None) or ():
        if getattr(saved, "is_result", False):
            saved.tangents = result._tangents


def _view_of_base_tangent(view: Tensor, base_tangent: Tensor) -> Tensor | None:
    """The part of ``base_tangent`` where ``view`` lies in its base, sharing its memory:
    read through the view's own strides, from the same offset, in a tangent laid out as
    the base is (None when it is laid out otherwise)."""
    base_array, tangent_array = view._base._array, base_tangent._array
    if (
        tangent_array.dtype != base_array.dtype
        or tangent_array.strides != base_array.strides
        or any(stride < 0 for stride in base_array.strides)
        or not np.shares_memory(view._array, base_array)
    ):
        return None
    itemsize = tangent_array.itemsize
    offset = view._array.__array_interface__["data"][0] - base_array.__array_interface__["data"][0]
    # Every element of the tangent's memory in a row, from its first element on.
    span = (np.array(tangent_array.shape) - 1) @ np.array(tangent_array.strides) // itemsize + 1
    memory = np.lib.stride_tricks.as_strided(tangent_array, (int(span),), (itemsize,))
    viewed = np.lib.stride_tricks.as_strided(
        memory[offset // itemsize :], view._array.shape, view._array.strides
    )
    shared = _tensor.Tensor(viewed)
    shared._version_counter = base_tangent._version_counter
    return shared


def write_in_place(target: Tensor, result: Tensor) -> None:
    """``target`` was overwritten in place by ``result``'s values: its tangent is now
    ``result``'s, written into the tangent it has (which views of it share), or, for a view
    of a base without one, into zeros given to the base, as in PyTorch."""
    for level in open_levels:
        if level in hidden_levels:
            continue
        new = tangent_of(result, level)
        own = tangent_of(target, level)
        if new is None:
            if own is not None:
                own._array[...] = 0
            continue
        if own is None and target._base is not None:
            base = target._base
            base_tangent = _tensor.Tensor(np.zeros_like(base._array))
            set_tangent(base, level, base_tangent)
            own = tangent_of(target, level)
        if own is not None and own._array.flags.writeable and own.shape == new.shape:
            np.copyto(own._array, new._array, casting="unsafe")
            own._version_counter.bump()
        else:
            set_tangent(target, level, new)


def record(
    op: Any, ctx: Any, args: tuple[Any, ...], tangents: list[Any], result: Tensor, tangent: Tensor
) -> None:
    """A ``ForwardStep`` for every ``record_steps`` list now open: ``op`` made ``result``
    (with ``tangent``) from ``args``, whose tangents were ``tangents``."""
    from .engine import ForwardStep

    Tensor = _tensor.Tensor
    tensor_places = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    node = result._grad_fn if result._grad_fn is ctx else None
    name = ctx.name() if node is not None else _name_of(op, ctx)
    for steps in step_recorders:
        steps.append(
            ForwardStep(
                index=len(steps),
                name=name,
                formula=getattr(op, "jvp_formula", ""),
                inputs=tuple(args[i].detach() for i in tensor_places),
                input_tangents=tuple(
                    None if tangents[i] is None else tangents[i].detach() for i in tensor_places
                ),
                output=result.detach(),
                output_tangent=tangent.detach(),
                node=node,
            )
        )


def _name_of(op: Any, ctx: Any) -> str:
    chosen = getattr(ctx, "node_name", None)
    return chosen or op.node_name()


def combine(*terms: Tensor | None) -> Tensor | None:
    """The sum of the terms that are there: a jvp adds one term per input with a tangent."""
    total = None
    for term in terms:
        if term is not None:
            total = term if total is None else total + term
    return total


def scaled(tangent: Tensor | None, factor: Callable[[Tensor], Tensor]) -> Tensor | None:
    """``factor(tangent)``, or None for an input without a tangent."""
    return None if tangent is None else factor(tangent)


def selected(condition: Any, chosen: Tensor | None, otherwise: Tensor | None) -> Tensor | None:
    """``chosen`` where ``condition`` (a bool array) holds, else ``otherwise``: the tangent
    of an op that picks its value from one input or another (``where``, ``clamp`` with
    tensor bounds, ``masked_fill`` with a tensor value). A missing tangent counts as 0.

    Picked, as PyTorch's forward derivatives pick with ``where``: the sum of two masked
    products would make a tangent that was not chosen, inf or nan, a nan in the result,
    a negative one times 0 a -0., and a chosen -0. plus 0 a 0.
    """
    if chosen is None and otherwise is None:
        return None
    if otherwise is None:
        return kept_where(condition, chosen)
    if chosen is None:
        return kept_where(~np.asarray(condition), otherwise)
    return chosen.where(condition, otherwise)


# tensor.py imports the ops, which import this module: the Tensor class is reached
# through its module, imported last.
from . import tensor as _tensor  # noqa: E402
