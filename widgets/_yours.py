"""Your own gradients beside the engine's: what ``BackwardStepper(..., yours=...)`` compares.

A student who writes a backward pass by hand (the chain rule, one tensor at a time) hands
the stepper their gradients by name: ``yours={"h": dh, "W1": dW1}``. Each name is matched to
a tensor of the graph, and each tensor to the node whose step receives its gradient: the
node that made it (``h.grad_fn``), or a leaf's ``AccumulateGrad``. The engine's side of the
comparison is that step's record, ``step.grad_in``; nothing here computes a gradient, it
only compares two sets of numbers.

Two gradients agree **exactly** when every element is equal, and **closely** when every
element is within ``atol + rtol × |engine's|`` of the engine's, as ``torch.allclose`` decides
(a hand-written pass that adds or multiplies in another order than the engine is often
off by rounding in the last digits); otherwise they **differ**.

>>> import minigrad as mg
>>> from minigrad.engine import BackwardPass
>>> x = mg.tensor([1.0, 2.0], requires_grad=True)
>>> y = (x * x).sum()
>>> steps = list(BackwardPass([y], snapshot=True))  # what BackwardStepper(y) keeps
>>> names = {id(x): ("x", x), id(y): ("y", y)}
>>> wrong = mg.tensor([2.0, 5.0])  # 2x is [2., 4.]
>>> wanted = match({"x": wrong}, names, {step.node for step in steps})
>>> check = compare(wanted, steps)["x"]
>>> check.verdict, check.largest_difference, check.where
('differs', 1.0, (1,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import minigrad
from minigrad import Tensor
from minigrad.engine import Step
from minigrad.function import AccumulateGrad, Node

from .i18n import N_, _

EXACT = "exact"
CLOSE = "close"
DIFFERS = "differs"

# What a box and the fallback text say about each verdict: a symbol and a word, so that the
# colour is never the only sign.
SYMBOL = {EXACT: "✔", CLOSE: "≈", DIFFERS: "✘"}
# What a box says once the pass has compared the gradient (translated where it is shown).
MARK = {EXACT: N_("yours ✔ same"), CLOSE: N_("yours ≈ close"), DIFFERS: N_("yours ✘ differs")}


@dataclass(frozen=True)
class GradientCheck:
    """Your gradient for one named tensor beside the engine's record of it.

    - ``name``: the key in ``yours``; ``tensor``: the tensor it names.
    - ``node``: the node whose step receives the tensor's gradient (its ``grad_fn``, or
      ``AccumulateGrad`` for a leaf); ``position``: that step's number (1 = the first).
    - ``yours``: your gradient; ``engine``: the step's ``grad_in``, the engine's record.
    - ``verdict``: ``"exact"``, ``"close"`` (within ``rtol`` and ``atol``) or ``"differs"``;
      ``largest_difference``: the largest ``|yours − engine's|``, at the index ``where``.
    """

    name: str
    tensor: Tensor
    node: Node
    position: int
    yours: Tensor
    engine: Tensor
    verdict: str
    largest_difference: float
    where: tuple[int, ...]
    rtol: float
    atol: float

    @property
    def agrees(self) -> bool:
        return self.verdict != DIFFERS

    def mark(self) -> str:
        """The words a box shows once the step is reached: ``yours ✔ same``."""
        return _(MARK[self.verdict])


@dataclass(frozen=True)
class Wanted:
    """One of ``yours``, matched to its tensor and to the node that receives its gradient."""

    name: str
    tensor: Tensor
    node: Node
    yours: Tensor


def match(
    yours: Mapping[str, Any], names: Mapping[int, tuple[str, Tensor]], graph_nodes: set[Node]
) -> list[Wanted]:
    """Each of ``yours`` matched to its tensor, checked before any gradient moves.

    ``names`` is the stepper's ``id(tensor) -> (name, tensor)``; ``graph_nodes`` the nodes of
    the graph drawn. Raises ``ValueError`` for a name no tensor of the graph goes by, a
    tensor that needs no gradient, or a gradient of the wrong shape; ``TypeError`` for a
    gradient that is not a tensor or an array of numbers.
    """
    if not isinstance(yours, Mapping):
        raise TypeError(
            _(
                "yours must map a tensor's name to your gradient for it, e.g. "
                'yours={{"h": dh}}; got {type}'
            ).format(type=type(yours).__name__)
        )
    by_name = {name: tensor for name, tensor in names.values()}
    leaf_node = {
        id(node.variable): node for node in graph_nodes if isinstance(node, AccumulateGrad)
    }

    def node_of(tensor: Tensor) -> Node | None:
        if tensor.grad_fn is not None:
            return tensor.grad_fn if tensor.grad_fn in graph_nodes else None
        return leaf_node.get(id(tensor))

    known = sorted(name for name, tensor in by_name.items() if node_of(tensor) is not None)
    wanted = []
    for name, value in yours.items():
        if not isinstance(name, str):
            raise TypeError(
                _("yours must be keyed by the tensors' names, got the key {name!r}").format(
                    name=name
                )
            )
        if name not in by_name:
            raise ValueError(
                _(
                    "yours has a gradient for {name!r}, but no tensor of this graph goes by that "
                    "name. The names the stepper knows: {known}. (A tensor with two variable "
                    "names goes by neither: pass names={{{name!r}: tensor}}.)"
                ).format(name=name, known=", ".join(known) or _("none"))
            )
        tensor = by_name[name]
        if not tensor.requires_grad:
            raise ValueError(
                _(
                    "yours has a gradient for {name!r}, but {name} does not require grad: the "
                    "backward pass computes no gradient for it"
                ).format(name=name)
            )
        node = node_of(tensor)
        if node is None:
            raise ValueError(
                _(
                    "yours has a gradient for {name!r}, but {name} is not in the graph this "
                    "stepper steps through"
                ).format(name=name)
            )
        mine = _as_tensor(name, value)
        if tuple(mine.shape) != tuple(tensor.shape):
            raise ValueError(
                _(
                    "yours[{name!r}] has shape {yours}, but {name} has shape {shape}: a "
                    "gradient has the shape of its tensor"
                ).format(name=name, yours=tuple(mine.shape), shape=tuple(tensor.shape))
            )
        wanted.append(Wanted(name, tensor, node, mine))
    return wanted


def compare(
    wanted: Sequence[Wanted], steps: Sequence[Step], rtol: float = 1e-05, atol: float = 1e-08
) -> dict[str, GradientCheck]:
    """Each matched gradient beside the engine's record of it (``grad_in`` of the step that
    received it), by name, in step order."""
    step_of = {step.node: step for step in steps}
    checks = []
    for one in wanted:
        if one.node not in step_of:
            raise ValueError(
                _(
                    "yours has a gradient for {name!r}, but the backward pass sent no gradient "
                    "to {name}: there is nothing to compare yours with"
                ).format(name=one.name)
            )
        checks.append(_compare(one, step_of[one.node], rtol, atol))
    checks.sort(key=lambda check: check.position)
    return {check.name: check for check in checks}


def _as_tensor(name: str, value: Any) -> Tensor:
    """Your gradient as a tensor (for the panel to print as ``print`` would), detached."""
    if isinstance(value, Tensor):
        return value.detach()
    array = np.asarray(value) if isinstance(value, (np.ndarray, int, float)) else None
    if array is None or array.dtype.kind not in "iuf":
        raise TypeError(
            _("yours[{name!r}] must be a Tensor (or a numpy array of numbers), got {type}").format(
                name=name, type=type(value).__name__
            )
        )
    return minigrad.tensor(array)


def _compare(one: Wanted, step: Step, rtol: float, atol: float) -> GradientCheck:
    engine = step.grad_in
    yours_array = one.yours.numpy().astype(np.float64)
    engine_array = engine.detach().numpy().astype(np.float64)
    if np.array_equal(yours_array, engine_array):
        verdict = EXACT
    elif np.allclose(yours_array, engine_array, rtol=rtol, atol=atol):
        verdict = CLOSE
    else:
        verdict = DIFFERS
    difference = np.abs(yours_array - engine_array)
    if difference.size == 0:
        largest, where = 0.0, ()
    else:
        # A NaN on either side is the largest difference there is: point at it.
        flat = int(np.argmax(np.where(np.isnan(difference), np.inf, difference)))
        where = tuple(int(i) for i in np.unravel_index(flat, difference.shape))
        largest = float(difference[where])
    return GradientCheck(
        name=one.name,
        tensor=one.tensor,
        node=step.node,
        position=step.index + 1,
        yours=one.yours,
        engine=engine,
        verdict=verdict,
        largest_difference=largest,
        where=where,
        rtol=rtol,
        atol=atol,
    )


def difference_text(value: float) -> str:
    """A difference to two significant digits: ``0.75``, ``2.8e-17``, ``0``.

    >>> difference_text(0.75), difference_text(2.775557561562891e-17), difference_text(0.0)
    ('0.75', '2.8e-17', '0')
    """
    return f"{value:.2g}"
