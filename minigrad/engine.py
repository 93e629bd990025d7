"""The backward engine: one implementation, run a node at a time.

``BackwardPass`` walks the graph from the outputs to the leaves in an order where every
node runs only after all gradients bound for it have arrived (the newest node first among
those that are ready, as in PyTorch). Iterating over it yields one ``Step`` per node: what
arrived, what was sent on, and for a leaf its ``.grad`` before and after. ``backward()`` and
``autograd.grad()`` simply run a pass to its end; the widgets keep every step to show it.

>>> import minigrad as mg
>>> x = mg.tensor(2.0, requires_grad=True)
>>> y = x * x + 1
>>> for step in mg.engine.BackwardPass([y]):
...     print(step.index, step.node.name(), step.grad_in, step.grads_out)
0 AddBackward0 tensor(1.) (tensor(1.), None)
1 MulBackward0 tensor(1.) (tensor(2.), tensor(2.))
2 minigrad::autograd::AccumulateGrad tensor(4.) ()
>>> x.grad
tensor(4.)
"""

from __future__ import annotations

import heapq
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

# (ndarray by its own name, tested on every op: see minigrad/function.py)
from numpy import ndarray

from . import function, profiling, tangents
from .alike import summed_to
from .function import AccumulateGrad, Edge, Node, accumulate_into
from .grad_mode import _set_enabled, is_grad_enabled
from .graph import edge_counts, post_order
from .shapes import can_sum_to
from .tensor import Tensor, as_tensor_like


# Not frozen, though a step is a record to read, never to change: a frozen dataclass sets
# each field through object.__setattr__, which costs more than the step itself on a scalar.
@dataclass(slots=True)
class Step:
    """What one node did during a backward pass.

    - ``node``: the ``grad_fn`` (or ``AccumulateGrad``) that ran.
    - ``contributions``: the gradients that arrived, each with the node that sent it (``None``
      for the seed given to ``backward``). A tensor used twice receives two, which add up.
    - ``grad_in``: their sum, after any hooks: the gradient of the output with respect to the
      tensor this node produced (a tuple, one per output, for a Function with several).
    - ``grads_out``: what the node sent to each of its ``next_functions`` (``None`` where no
      gradient is needed).
    - ``leaf``, ``grad_before``, ``grad_after``: for ``AccumulateGrad``, the leaf and its
      ``.grad`` before and after this step (copies when the pass was made with
      ``snapshot=True``, else ``grad_after`` is the live ``.grad``).
    - ``released``: whether this step freed the node's saved tensors (no ``retain_graph``).
    """

    index: int
    node: Node
    contributions: tuple[tuple[Node | None, Tensor], ...]
    grad_in: Tensor
    grads_out: tuple[Tensor | None, ...]
    leaf: Tensor | None = None
    grad_before: Tensor | None = None
    grad_after: Tensor | None = None
    released: bool = False


@dataclass(frozen=True, slots=True)
class ForwardStep:
    """What one op did in a forward-mode pass: a record that
    ``minigrad.autograd.forward_ad.record_steps()`` keeps for each op that computed a
    tangent (minigrad's own: the forward stepper draws them).

    - ``index``: 0, 1, 2, ... in the order the ops ran.
    - ``name``: the node name the op records for backward (``MulBackward0``), even when no
      backward graph was recorded.
    - ``formula``: the op's forward derivative, as the ops index gives it (``ȧ·b + a·ḃ``).
    - ``inputs``: the op's input tensors, detached from any graph; ``input_tangents``: the
      tangent of each (``None`` for an input without one).
    - ``output``: the result, detached; ``output_tangent``: its tangent.
    - ``node``: the result's ``grad_fn`` when a backward graph was recorded, else ``None``.

    A user's ``autograd.Function`` is a step too (its ``formula`` is its ``jvp_formula``
    if it sets one), one per output that gets a tangent.

    >>> import minigrad as mg
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level(), fwAD.record_steps() as steps:
    ...     y = fwAD.make_dual(mg.tensor(0.0), mg.tensor(2.0)).exp()
    >>> steps[0].name, steps[0].input_tangents, steps[0].output_tangent, steps[0].node
    ('ExpBackward0', (tensor(2.),), tensor(2.), None)
    """

    index: int
    name: str
    formula: str
    inputs: tuple[Tensor, ...]
    input_tangents: tuple[Tensor | None, ...]
    output: Tensor
    output_tangent: Tensor | None
    node: Node | None


EVALUATE = "autograd::engine::evaluate_function: "  # a profiled step's name


class BackwardPass:
    """One backward pass from ``outputs``, ready to be run a step at a time.

    Everything that can be wrong is checked here, before any gradient moves, so a failed
    call leaves every ``.grad`` as it was. ``inputs`` switches to ``autograd.grad``'s mode:
    the gradients reaching those tensors are collected in ``captured`` and no ``.grad`` is
    touched; with ``accumulate_into_inputs`` too (``backward(inputs=...)``), they are added
    into those tensors' ``.grad`` and no other's.
    """

    def __init__(
        self,
        outputs: Sequence[Tensor],
        grad_outputs: Sequence[Any] | None = None,
        *,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Sequence[Tensor] | None = None,
        allow_unused: bool = False,
        snapshot: bool = False,
        accumulate_into_inputs: bool = False,
    ) -> None:
        self.create_graph = bool(create_graph)
        self.retain_graph = self.create_graph if retain_graph is None else bool(retain_graph)
        self.snapshot = snapshot
        grad_outputs = [None] * len(outputs) if grad_outputs is None else list(grad_outputs)
        # PyTorch's message; PyTorch drops extra gradients unsaid, minigrad refuses them too
        # (docs/pytorch.md).
        if len(grad_outputs) != len(outputs):
            raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
        # Each output's edge and the gradient it starts from (a loop: a comprehension is a
        # function call of its own).
        self.roots: list[tuple[Edge, Any]] = []
        self.root_nodes: list[Node] = []
        for i, (output, grad) in enumerate(zip(outputs, grad_outputs, strict=True)):
            edge = _root_edge(i, output)
            self.roots.append((edge, _seed_gradient(i, output, grad)))
            self.root_nodes.append(edge[0])
        self.inputs = inputs
        # backward(inputs=...): add into those tensors' .grad instead of returning them.
        self.accumulate_into_inputs = accumulate_into_inputs
        self.allow_unused = allow_unused or accumulate_into_inputs
        self.targets: dict[tuple[Node, int], int] = {} if inputs is None else _targets(inputs)
        self.captured: list[Tensor | None] = [None] * (0 if inputs is None else len(inputs))
        self.needed: Set[Node]
        running: Iterable[Node]
        if inputs is None:  # every node reached runs: the walk's counts list them
            self.dependencies = running = edge_counts(self.root_nodes)
            self.needed, self.not_run = self.dependencies.keys(), set()
        else:  # which nodes lead to the inputs: children are looked at before parents
            order, self.dependencies = post_order(self.root_nodes)
            targets = {node for node, _ in self.targets}
            self.needed, self.not_run = _plan_for_inputs(order, targets)
            running = [n for n in reversed(order) if n in self.needed and n not in self.not_run]
        # The nodes that will run and saved something: checked now, freed once they ran.
        self.holding_saved: set[Node] = set()
        for node in running:  # outputs first, roughly the order nodes will run in
            if node._saved != ():  # (one that saved nothing has nothing to check)
                node.check_saved_tensors()
                self.holding_saved.add(node)
        # Leaves whose one incoming gradient nobody else holds: see run().
        self._owned: set[Node] = set()
        self.on_arrays = False  # whether the gradients are numpy arrays: see _steps()

    def __iter__(self) -> Iterator[Step]:
        """The steps one at a time. Each node runs in the pass's grad mode (recording only
        with ``create_graph``); between steps the caller's mode is back in force."""
        steps = self._steps(watched=True)
        while True:
            caller_mode = is_grad_enabled()
            _set_enabled(self.create_graph)
            try:
                step = next(steps, None)
            finally:
                _set_enabled(caller_mode)
            if step is None:
                return
            yield step

    def run(self) -> list[Tensor | None] | None:
        """Run the whole pass; return the captured gradients in ``autograd.grad`` mode.

        Nobody sees the steps here: no ``Step`` record is made, a leaf's first gradient may
        become its ``.grad`` without a copy when no one else holds it, and the pass's grad
        mode is set once.
        """
        # (as `with set_grad_enabled(...)`, without making its object for every pass)
        caller_mode = is_grad_enabled()
        _set_enabled(self.create_graph)
        try:
            for _ in self._steps(watched=False):
                pass  # unwatched, the loop yields nothing: one turn runs the whole pass
        finally:
            _set_enabled(caller_mode)
        return self.captured if self.inputs is not None else None

    def _steps(self, watched: bool) -> Iterator[Step]:
        """The ready-queue loop: run the newest node whose gradients have all arrived.

        ``watched``: someone reads the steps (iterating over the pass), so each node's
        ``Step`` is made and yielded, and no leaf adopts a gradient (a step shows it).

        The gradients are Tensors when someone can see them: the derivative's graph is
        recorded (``create_graph``), the steps are read, a profiler times the ops of each
        derivative, or a forward-mode dual level is open (tangents live on Tensors).
        Otherwise they are plain numpy arrays, and each derivative rule
        runs on arrays (``minigrad.alike``): nobody differentiates them again, and a
        Tensor for every intermediate gradient costs more than the arithmetic. A hook, a
        captured gradient and a leaf's ``.grad`` still get Tensors."""
        self.on_arrays = not (
            watched or self.create_graph or profiling.active or tangents.open_levels
        )
        # What reached each node: (sender, gradient, which output of the node it is for).
        arrivals: dict[Node, list[tuple[Any, ...]]] = {}
        # Ready nodes, in the order PyTorch's engine runs them: leaves first, then the
        # others; the newest (highest sequence number) first in each. Two heaps of
        # (-sequence_nr, node): sequence numbers are unique, so no tie is ever broken.
        leaves_ready: list[tuple[int, AccumulateGrad]] = []
        ready: list[tuple[int, Node]] = []
        heappush, heappop = heapq.heappush, heapq.heappop
        dependencies, needed, holding_saved = self.dependencies, self.needed, self.holding_saved
        not_run = self.not_run
        # Without inputs= every node reached runs: no need to ask `needed` or `not_run`.
        every_node_runs = self.inputs is None

        def make_ready(node: Node) -> None:
            if isinstance(node, AccumulateGrad):
                heappush(leaves_ready, (-node.sequence_nr, node))
            else:
                heappush(ready, (-node.sequence_nr, node))

        for (node, output_nr), seed in self.roots:
            if seed.__class__ is ndarray:  # the ones of a scalar's backward()
                grad = seed if self.on_arrays else Tensor(seed)
            else:
                grad = seed._array if self.on_arrays else seed
            arrivals.setdefault(node, []).append((None, grad, output_nr))
        # Each root once (it may be given twice), unless it waits for another root's gradient.
        for node in dict.fromkeys(self.root_nodes):
            if dependencies[node] == 0:
                make_ready(node)
        kind = ndarray if self.on_arrays else Tensor  # what the pass's gradients are
        on_arrays = self.on_arrays
        index = 0
        while leaves_ready or ready:
            # Which heap a node comes from says whether it is a leaf's (no isinstance call).
            if leaves_ready:
                node, is_leaf = heappop(leaves_ready)[1], True
            else:
                node, is_leaf = heappop(ready)[1], False
            contributions = arrivals.pop(node, None)
            if contributions is None:  # nothing but "no gradient" arrived: pass that on
                for child, _ in node.next_functions:
                    if child is not None and child in needed:
                        dependencies[child] -= 1
                        if dependencies[child] == 0:
                            make_ready(child)
                continue
            # Timed as PyTorch's profiler shows a step: running the node and sending on.
            event = profiling.open_range(f"{EVALUATE}{node.name()}") if profiling.active else None
            try:
                # What the node received: the sum of what arrived, after any hooks.
                single = node.num_outputs == 1
                if single:
                    grad = contributions[0][1]
                    if len(contributions) > 1:
                        for _, more, _ in contributions[1:]:
                            grad = grad + more
                        if on_arrays and grad.__class__ is not ndarray:
                            grad = np.asarray(grad)  # numpy sums 0-d arrays into scalars
                    grads: list[Any] = [grad]
                else:  # a user's Function with several outputs: one sum per output
                    grads = _sum_per_output(node, contributions, on_arrays)
                if function.hooks_registered:  # until a hook is registered, no node has one
                    grads = self._pre_hooks(node, grads)
                if self.targets:
                    for output_nr, grad in enumerate(grads):
                        self._capture(node, output_nr, grad)
                grad_in = grads[0] if single else tuple(grads)
                # Then a leaf's .grad is added to, or the node's backward says what to send
                # to each of its next_functions. (Written here rather than in a method: a
                # call per node cost about 1 % of W1 and W2.)
                if is_leaf:
                    grads_out = ()
                    if profiling.active:
                        args = (index, node, contributions, grad_in, watched)
                        step = profiling.timed(node.name(), self._accumulate, *args)
                    else:
                        step = self._accumulate(index, node, contributions, grad_in, watched)
                elif not every_node_runs and node in not_run:  # it only receives its gradient
                    grads_out = (None,) * len(node.next_functions)
                    step = None
                    if watched:
                        step = Step(index, node, _frozen(contributions), grad_in, grads_out)
                else:
                    if profiling.active:
                        arguments = [grad_in] if single else grads
                        grads_out = profiling.timed(node.name(), node, *arguments)
                    elif on_arrays and not node.takes_arrays:  # a rule for Tensors only (a user's)
                        grads_out = node(*_tensors(grads))
                    else:
                        # node.__call__(...) is node(...): called by name, CPython calls the
                        # method directly instead of looking __call__ up through the type.
                        grads_out = node.__call__(grad_in) if single else node(*grads)
                    if function.hooks_registered and node.post_hooks:
                        grads_out = _post_hooks(node, grads_out, grads)
                    # Its grads_out and released are filled in once the gradients are sent.
                    step = None
                    if watched:
                        step = Step(index, node, _frozen(contributions), grad_in, ())
                # Read once: where every node class passes, an attribute read is not cached.
                edges = node.next_functions
                edge_count = len(edges)
                if len(grads_out) != edge_count:  # checked once: the loop below indexes both
                    raise RuntimeError(
                        f"function {node.name()} returned an incorrect number of gradients "
                        f"(expected {edge_count}, got {len(grads_out)})"
                    )
                # Each gradient is fitted to its input and delivered in one turn over the
                # edges; `sent` keeps what was sent, for the step and for adoption below.
                sent: list[Any] = []
                fits = node.input_metadata
                # Not in a watched pass: a step shows each leaf's gradient.
                may_adopt, no_adoption = False, watched
                # By position, not a zip: a zip of three makes four objects, which cost more
                # than the indexing for the one or two edges of most nodes.
                for position in range(edge_count):
                    child, output_nr = edges[position]
                    if child is None:  # an input that needs no gradient is sent None
                        sent.append(None)
                        continue
                    grad = grads_out[position]
                    if grad is not None:
                        if grad.__class__ is not kind:
                            grad = _of_kind(node, position, grad, on_arrays)
                        fit = fits[position] if fits is not None else None
                        if fit is not None:
                            shape, dtype = fit
                            array = grad if on_arrays else grad._array
                            # `is not` first: numpy has one dtype object per built-in type,
                            # and `!=` between two costs as much as a small multiplication.
                            if array.shape != shape or (
                                array.dtype is not dtype and array.dtype != dtype
                            ):
                                grad = _fitted(node, position, grad, array, shape, dtype)
                    sent.append(grad)
                    if not every_node_runs and child not in needed:
                        continue
                    # the gradient arrives, and the child runs once all of its own have
                    if grad is not None:
                        waiting = arrivals.get(child)
                        if waiting is None:
                            arrivals[child] = [(node, grad, output_nr)]
                        else:
                            waiting.append((node, grad, output_nr))
                    left = dependencies[child] = dependencies[child] - 1
                    if left == 0:  # make_ready(child), written out: it runs for every edge
                        if isinstance(child, AccumulateGrad):
                            # A leaf given one gradient only may adopt it (see run()).
                            if not no_adoption and grad is not None and len(arrivals[child]) == 1:
                                may_adopt = True
                            heappush(leaves_ready, (-child.sequence_nr, child))
                        else:
                            heappush(ready, (-child.sequence_nr, child))
                if may_adopt:
                    self._owned.update(_leaves_given_new_gradients(node, grad_in, sent, needed))
                # Freed once what it sent is checked, as PyTorch does.
                released = (
                    not self.retain_graph and node in holding_saved and node.release_saved_tensors()
                )
                if step is not None:
                    step.grads_out, step.released = tuple(sent), released
            finally:
                if event is not None:
                    profiling.close_range(event)
            index += 1
            if step is not None:
                yield step
        if self.inputs is not None:
            self._check_unused()

    def _pre_hooks(self, node: Node, grads: list[Any]) -> list[Any]:
        """The gradients ``node`` received, once the hooks of the tensor it made (of its
        first output, if several) and the node's own pre-hooks have run."""
        # A leaf's hooks are those of the tensor itself.
        is_leaf = isinstance(node, AccumulateGrad)
        hooks = node.variable._hooks if is_leaf else node.tensor_pre_hooks
        if grads[0] is not None and (hooks or node.retained_tensor is not None):
            grads[0] = self._tensor_hooks(node, hooks, grads[0])
        for hook in node.pre_hooks:
            replaced = hook(_tensors(grads))
            if replaced is not None:
                grads = _same_kind(replaced, self.on_arrays)
        return grads

    def _tensor_hooks(self, node: Node, hooks: Sequence[Any], grad: Tensor) -> Tensor:
        """``hooks``, those of the tensor ``node`` made (``register_hook``), then
        ``retain_grad``."""
        # A hook may ask which pass it runs in (register_multi_grad_hook does).
        outer, _hooks_running.backward_pass = current_pass(), self
        on_arrays = self.on_arrays
        if on_arrays:  # a hook is given a Tensor, whatever the pass runs on
            grad = Tensor(grad)
        try:
            for hook in hooks:
                replaced = hook(grad)
                if replaced is not None:
                    grad = replaced
        finally:
            _hooks_running.backward_pass = outer
        if node.retained_tensor is not None:
            retained = node.retained_tensor()
            if retained is not None:  # `is not None`: a tensor's truth value is its value
                accumulate_into(retained, grad, self.create_graph)
        return grad._array if on_arrays else grad

    def _accumulate(
        self,
        index: int,
        node: AccumulateGrad,
        contributions: list[tuple[Any, ...]],
        grad: Tensor,
        watched: bool,
    ) -> Step | None:
        """A leaf's step: its ``.grad`` += ``grad`` (not in ``autograd.grad``'s mode); its
        ``Step`` when ``watched``."""
        if self.inputs is not None and not self.accumulate_into_inputs:
            return Step(index, node, _frozen(contributions), grad, ()) if watched else None
        leaf = node.variable
        before = _freeze(leaf._grad) if self.snapshot else None
        # A sum of several contributions is a new tensor too; a hook may have kept one.
        summed = len(contributions) > 1
        hooked = function.hooks_registered  # until a hook is registered, none has one
        owned = (summed or node in self._owned) and not (hooked and (leaf._hooks or node.pre_hooks))
        accumulate_into(leaf, grad, self.create_graph, owned)
        # ._grad, not the .grad property: a leaf's reads the same, without the property's checks
        after = _freeze(leaf._grad) if self.snapshot else leaf._grad
        if hooked:
            for hook in leaf._post_accumulate_grad_hooks:
                _check_returns_none(hook(leaf))
            for hook in node.post_hooks:
                hook((), _tensors((grad,)))
        if not watched:
            return None
        return Step(index, node, _frozen(contributions), grad, (), leaf, before, after)

    def will_run(self, tensor: Tensor) -> bool:
        """Whether this pass computes the gradient of ``tensor`` (its hooks then run)."""
        node = tensor.grad_fn
        if node is None:  # a leaf: its AccumulateGrad node, if a graph holds one
            node = tensor._accumulator() if tensor._accumulator is not None else None
            if node in self.needed and self.inputs is not None and not self.accumulate_into_inputs:
                raise RuntimeError(
                    "A leaf node was passed to _will_engine_execute_node but we are currently "
                    "running autograd.grad(). This is currently not supported."
                )
        return node is not None and node in self.needed

    def _capture(self, node: Node, output_nr: int, grad: Tensor | None) -> None:
        """With ``inputs``, keep the gradient that reached an input asked for: returned by
        ``autograd.grad``, or for ``backward(inputs=...)`` added into a non-leaf's
        ``.grad`` (a leaf's is added by its AccumulateGrad node, a retained tensor's by
        ``retain_grad``)."""
        position = self.targets.get((node, output_nr))
        if position is None or grad is None:
            return
        if not self.accumulate_into_inputs:
            if self.create_graph:
                self.captured[position] = grad
            else:
                self.captured[position] = Tensor(grad) if self.on_arrays else grad.detach()
        elif not isinstance(node, AccumulateGrad) and not self.inputs[position].retains_grad:
            accumulate_into(self.inputs[position], grad, self.create_graph)

    def _check_unused(self) -> None:
        for i, grad in enumerate(self.captured):
            if grad is None and not self.allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )


# The pass whose tensor hooks are running in this thread, if any.
_hooks_running = threading.local()


def current_pass() -> BackwardPass | None:
    """The backward pass whose tensor hooks are running now (None outside of them)."""
    return getattr(_hooks_running, "backward_pass", None)


def _sum_per_output(
    node: Node, contributions: list[tuple[Node | None, Tensor, int]], on_arrays: bool
) -> list[Tensor | None]:
    """The gradient for each output of a node with several: the sum of what arrived for it
    (None for an output nothing reached); a 0-d array, not a numpy scalar, ``on_arrays``."""
    grads: list[Tensor | None] = [None] * node.num_outputs
    for _, grad, output_nr in contributions:
        previous = grads[output_nr]
        grads[output_nr] = grad if previous is None else previous + grad
    if on_arrays:
        grads = [None if g is None else np.asarray(g) for g in grads]
    return grads


def _targets(inputs: Sequence[Tensor]) -> dict[tuple[Node, int], int]:
    """For ``autograd.grad``: where each input's gradient arrives (a node and which of its
    outputs the input is), with the input's position."""
    targets: dict[tuple[Node, int], int] = {}
    for i, tensor in enumerate(inputs):
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, output_nr = tensor._edge()
        assert node is not None
        targets.setdefault((node, output_nr), i)
    return targets


def _plan_for_inputs(order: list[Node], targets: set[Node]) -> tuple[set[Node], set[Node]]:
    """``autograd.grad``'s plan: the nodes on a path to one of the inputs (``order`` lists
    children before parents), and those of them that only receive their gradient, because
    none of their own inputs leads to an input asked for: they do not run their backward."""
    needed: set[Node] = set()
    for node in order:
        if node in targets or any(child in needed for child, _ in node.next_functions):
            needed.add(node)
    not_run = {
        node for node in needed if not any(child in needed for child, _ in node.next_functions)
    }
    return needed, not_run


def _leaves_given_new_gradients(
    node: Node, grad_in: Any, grads_out: tuple[Tensor | None, ...], needed: Iterable[Node]
) -> list[Node]:
    """The leaves (AccumulateGrad nodes) to which ``node``, given ``grad_in``, sent a
    gradient that nobody else holds: a new array (not the incoming gradient passed on, not
    a view of another array), made by a node that keeps no reference to it, and sent to
    that one input only. Not when the node has post hooks: they see (and may keep, or
    replace) what it sent."""
    if not node.returns_new_gradients or node.post_hooks:
        return []
    given = []
    for (child, _), grad in zip(node.next_functions, grads_out):
        if (
            child.__class__ is AccumulateGrad
            and grad is not None
            and grad is not grad_in
            and (grad if grad.__class__ is ndarray else grad._array).base is None
            and child in needed
        ):
            given.append((child, grad))
    if not given:
        return []
    # Counted (in one pass: stack/cat may have 10^5 inputs) only when some gradient went to
    # several inputs; usually each went to one.
    sent = [id(grad) for grad in grads_out if grad is not None]
    times_sent = Counter(sent) if len(set(sent)) < len(sent) else None
    return [child for child, grad in given if times_sent is None or times_sent[id(grad)] == 1]


def _root_edge(index: int, output: Tensor) -> Edge:
    edge = output._edge()
    if edge[0] is None:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    return edge


def _seed_gradient(index: int, output: Tensor, grad: Any) -> Tensor | np.ndarray:
    """The gradient a pass starts from: ones for a scalar (an array, made a Tensor only for
    a pass on Tensors), else the caller's ``gradient``."""
    if grad is None:
        if output.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if profiling.active:  # PyTorch's profiler shows the seed being made
            return profiling.timed("aten::ones_like", _ones_like, output)
        return _ones_like(output)
    grad = as_tensor_like(grad, output)
    if grad.shape != output.shape:
        raise RuntimeError(
            f"Mismatch in shape: grad_output[{index}] has a shape of {grad.shape!r} and "
            f"output[{index}] has a shape of {output.shape!r}."
        )
    if grad.dtype != output.dtype:
        # PyTorch casts a seed to the output's dtype: y.backward(tensor([1, 2])) is allowed.
        grad = grad.to(output.dtype)
    return grad


def _ones_like(output: Tensor) -> np.ndarray:
    ones = np.empty(output._array.shape, output._array.dtype)
    ones.fill(1)  # what np.ones_like does, without its Python wrapper (a third of the cost)
    return ones


def _of_kind(node: Node, i: int, grad: Any, on_arrays: bool) -> Any:
    """A gradient that ``node`` returned as the pass carries them: a Tensor's array in a pass
    on arrays (from a rule for Tensors only, or a hook), a numpy scalar as a 0-d array
    (numpy's result on 0-d arrays); PyTorch's error for anything but a Tensor."""
    if isinstance(grad, Tensor):
        return grad._array if on_arrays else grad
    if on_arrays and isinstance(grad, ndarray | np.generic):
        return np.asarray(grad)
    raise TypeError(
        f"function {node.name()} returned a gradient that is not a Tensor "
        f"at index {i}: {type(grad).__name__}"
    )


def _fitted(
    node: Node, i: int, grad: Any, array: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> Any:
    """A gradient fitted to its input: summed back to ``shape`` if that was broadcast, and
    cast to ``dtype`` (``array`` is the gradient's array, the gradient itself on arrays)."""
    if array.shape != shape:  # only a broadcast gradient needs summing
        if not can_sum_to(array.shape, shape):
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - "
                f"got {list(array.shape)} but expected shape compatible with {list(shape)}"
            )
        grad = summed_to(grad, shape)
        array = grad if grad.__class__ is ndarray else grad._array
    if array.dtype != dtype:
        grad = grad.astype(dtype) if grad.__class__ is ndarray else grad.to(dtype)
    return grad


def _tensors(grads: Sequence[Any]) -> tuple[Tensor | None, ...]:
    """Gradients as a hook or a rule for Tensors sees them: arrays wrapped as Tensors."""
    arrays = ndarray | np.generic
    return tuple(Tensor(np.asarray(g)) if isinstance(g, arrays) else g for g in grads)


def _same_kind(grads: Sequence[Any], on_arrays: bool) -> list[Any]:
    """What a node's pre-hook returned, as the pass carries gradients (arrays or Tensors)."""
    if not on_arrays:
        return list(grads)
    return [g._array if isinstance(g, Tensor) else g for g in grads]


def _check_returns_none(returned: Any) -> None:
    """A post-accumulate-grad hook changes ``.grad`` itself; it returns nothing."""
    if isinstance(returned, Tensor):
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")
    if returned is not None:
        raise TypeError(f"expected Variable, but hook returned '{type(returned).__name__}'")


def _frozen(contributions: list[tuple[Any, ...]]) -> tuple[tuple[Node | None, Tensor], ...]:
    """A step's ``contributions``: (sender, gradient) pairs, without the output number that
    a node with several outputs is told."""
    return tuple((sender, grad) for sender, grad, _ in contributions)


def _freeze(grad: Tensor | None) -> Tensor | None:
    return None if grad is None else Tensor(grad._array.copy())


def _post_hooks(node: Node, grads_out: Sequence[Any], grads: Sequence[Any]) -> Sequence[Any]:
    """What ``node`` sends on, once its post-hooks have seen it with ``grads``, what it
    received (a tuple a hook returns replaces it)."""
    for hook in node.post_hooks:
        replaced = hook(_tensors(grads_out), _tensors(grads))
        if replaced is not None:
            grads_out = tuple(replaced)
    return grads_out
