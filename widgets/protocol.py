"""Drawing and stepping an engine of your own: what its nodes must offer the widgets.

``widgets.draw`` and ``widgets.BackwardStepper`` draw minigrad's graphs, and they draw the
graph of a small scalar engine written by a reader just as well, when its values follow
this protocol (the engine stays the reader's: the widgets compute no gradient, they show
the numbers the engine reports).

A value of the engine is a node of its graph. To be **drawn** it offers:

- ``next_functions``: one ``(input, 0)`` pair per input of the operation that made it
  (``None`` in place of an input that needs no gradient); empty for a leaf. This is the
  shape of PyTorch's ``grad_fn.next_functions``, and what ``minigrad.graph`` walks.
- ``name()``: what its box says, e.g. ``"mul"``. Leaves are named after the variables that
  hold them instead, as in minigrad's drawings.
- ``data`` and ``grad``: its value and its gradient (numbers; ``grad`` may be ``None``).
- optionally ``formula``, a line of text the stepper shows as the local derivative, as
  written (minigrad's own formulas are translated; an engine's own text never is).

To be **stepped**, ``output.backward()`` returns (or yields) its steps, in the order it ran
them: one ``(node, grad, grads_sent)`` triple per node of the graph, leaves included, where
``grad`` is the gradient that arrived at ``node`` and ``grads_sent`` holds what it sent to
each of its inputs, one per ``next_functions`` pair (empty for a leaf). The nodes must be
hashable (the default for a class that does not define ``__eq__``).

A toy engine with addition and multiplication, ready for both:

>>> class Value:
...     def __init__(self, data, inputs=(), op="", local_backward=None):
...         self.data, self.grad, self.op = data, 0.0, op
...         self.next_functions = tuple((value, 0) for value in inputs)
...         self.local_backward = local_backward or (lambda grad: ())
...
...     def name(self):
...         return self.op
...
...     def __add__(self, other):
...         return Value(self.data + other.data, (self, other), "add", lambda g: (g, g))
...
...     def __mul__(self, other):
...         a, b = self.data, other.data
...         return Value(a * b, (self, other), "mul", lambda g: (g * b, g * a))
...
...     def backward(self):
...         order = minigrad.graph.nodes([self])  # outputs first: any topological order
...         self.grad = 1.0
...         steps = []
...         for node in order:
...             grads_sent = node.local_backward(node.grad)
...             for (value, _), grad in zip(node.next_functions, grads_sent):
...                 value.grad += grad
...             steps.append((node, node.grad, grads_sent))
...         return steps
>>> import minigrad.graph
>>> import widgets
>>> x, w = Value(2.0), Value(3.0)
>>> y = x * w + x
>>> "mul" in widgets.draw(y).source
True
>>> stepper = widgets.BackwardStepper(y)  # calls y.backward() and keeps its steps
>>> x.grad, w.grad
(4.0, 2.0)
>>> stepper.run(); stepper.current.node is x, stepper.current.grad_in
(True, 4.0)
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import minigrad.graph
from minigrad import Tensor
from minigrad.engine import Step

from ._graph import CONSTANT, LEAF, OP, OUTPUT, Graph, GraphNode
from ._markup import one_line
from .i18n import N_, _

__all__ = ["is_node", "check_nodes", "caller_names", "build_graph", "record_steps"]

PROTOCOL = N_("see widgets.protocol (docs/protocol.md) for what a node of your own engine offers")


def _with_protocol(error: str) -> str:
    """``error``, then where to read what a node of one's own engine offers."""
    return _("{error}; {see_protocol}").format(error=error, see_protocol=_(PROTOCOL))


# id(value) -> (name, value), as widgets._graph.Names, for the values of one's own engine.
Names = dict[int, tuple[str, Any]]


def is_node(value: Any) -> bool:
    """Whether ``value`` looks like a node of one's own engine (not a minigrad Tensor).

    >>> import minigrad as mg
    >>> is_node(mg.tensor(1.0)), is_node(3.0)
    (False, False)
    """
    return not isinstance(value, Tensor) and hasattr(value, "next_functions")


def check_nodes(values: Sequence[Any], caller: str) -> None:
    """A clear error unless every value offers what a drawing needs (``name()``,
    ``next_functions``, ``data``, ``grad``), checked on the whole graph behind them."""
    for i, value in enumerate(values):
        if not is_node(value):
            raise TypeError(
                _with_protocol(
                    _(
                        "{caller} takes minigrad Tensors or the values of an engine of your own, "
                        "but argument {index} is {type}, which has no next_functions"
                    ).format(caller=caller, index=i, type=type(value).__name__)
                )
            )
    for node in minigrad.graph.nodes(values):  # its clear errors for a wrong next_functions
        kind = type(node).__name__
        for needed in ("name", "data", "grad"):
            if not hasattr(node, needed):
                raise TypeError(
                    _with_protocol(
                        _("a {kind} in this graph has no {needed!r}").format(
                            kind=kind, needed=needed
                        )
                    )
                )
        if not callable(node.name):
            raise TypeError(
                _with_protocol(
                    _("{kind}.name must be a method returning the op's name").format(kind=kind)
                )
            )


def caller_names(
    frame: types.FrameType | None, nodes: Iterable[Any], explicit: Mapping[str, Any]
) -> Names:
    """The variable name of each of ``nodes`` that has exactly one name in ``frame``;
    ``explicit`` (``{"w": w}``) wins. Names starting with ``_`` are skipped, as for tensors."""
    wanted = {id(node) for node in nodes}
    found: dict[int, list[tuple[str, Any]]] = {}
    if frame is not None:
        for name, value in {**frame.f_globals, **frame.f_locals}.items():
            if id(value) in wanted and not name.startswith("_"):
                found.setdefault(id(value), []).append((name, value))
    names = {key: pairs[0] for key, pairs in found.items() if len(pairs) == 1}
    for name, value in explicit.items():
        if not isinstance(name, str):
            raise TypeError(
                _("names must map a str to a value, but got the key {name!r}").format(name=name)
            )
        names[id(value)] = (one_line(name), value)
    return names


def build_graph(outputs: Sequence[Any], names: Names, max_nodes: int = 200) -> Graph:
    """The boxes and arrows for the graph of one's own engine behind ``outputs``.

    Drawn as minigrad's graphs are: an output box for each output, an ellipse for each
    operation, a leaf box for each value made by the user, arrows in the forward direction.
    The engine's values are its nodes, so there are no ``AccumulateGrad`` nodes: a leaf's
    box is its node. Ids follow ``minigrad.graph.nodes``' order (outputs first), the same on
    every run.
    """
    graph = Graph()
    output_ids = {id(output) for output in outputs}
    for i, output in enumerate(outputs):
        title = names[id(output)][0] if id(output) in names else _("output")
        graph.add_node(GraphNode(f"t{i}", OUTPUT, title, tensor=output))
    order = minigrad.graph.nodes(outputs)
    for node in order[:max_nodes]:
        box_id = f"n{len(graph.id_of)}"
        graph.id_of[node] = box_id
        name = names[id(node)][0] if id(node) in names else None
        if not node.next_functions:
            graph.add_node(GraphNode(box_id, LEAF, name or _("leaf"), node=node, tensor=node))
            continue
        # The engine's own words: text on one line, whatever it returns.
        box = graph.add_node(GraphNode(box_id, OP, one_line(str(node.name())), node=node))
        if id(node) in output_ids:  # the stepper's words name what it made; its value
            box.produced_name = name or _("output")  # is in the output's own box
        elif name is not None:
            box.produced, box.produced_name = node, name  # "makes a = 6."
    constants, cut = 0, []
    for node, head in list(graph.id_of.items()):
        for index, (child, _slot) in enumerate(node.next_functions):
            if child is None:
                graph.add_node(GraphNode(f"c{constants}", CONSTANT, _("constant")))
                graph.add_edge(f"c{constants}", head, index)
                constants += 1
            elif child in graph.id_of:
                graph.add_edge(graph.id_of[child], head, index)
            else:
                cut.append((head, index))
    for i, output in enumerate(outputs):
        if output in graph.id_of:
            graph.add_edge(graph.id_of[output], f"t{i}")
    graph.note_elided(len(order) - len(graph.id_of), cut, max_nodes)
    return graph


def record_steps(output: Any, graph: Graph) -> list[Step]:
    """Call ``output.backward()`` and turn the steps it reports into the stepper's records.

    Each ``(node, grad, grads_sent)`` becomes a ``minigrad.engine.Step``: ``grad_in`` is
    ``grad``, ``grads_out`` is ``grads_sent``, and ``contributions`` lists what earlier
    steps sent to the node (the seed, for the output). A leaf's step also carries the leaf
    and its ``grad`` before the pass and after its step. Nothing is computed: every number
    is one the engine reported.
    """
    grads_before = {node: node.grad for node in graph.id_of if not node.next_functions}
    reported = output.backward()
    if reported is None or isinstance(reported, (str, bytes)):
        raise TypeError(
            _with_protocol(
                _(
                    "{engine}.backward() returned {reported!r}: to be stepped it must return (or "
                    "yield) its steps, a (node, grad, grads_sent) triple for each node it ran"
                ).format(engine=type(output).__name__, reported=reported)
            )
        )
    steps: list[Step] = []
    ran: set[Any] = set()
    arrived: dict[Any, list[tuple[Any, Any]]] = {}  # node -> (sender, gradient) so far
    for index, record in enumerate(reported):
        node, grad, grads_sent = _unpack(record, index)
        engine = type(output).__name__
        if node not in graph.id_of:
            raise ValueError(
                _(
                    "step {index} of {engine}.backward() is about a node that is not in the "
                    "output's graph"
                ).format(index=index, engine=engine)
            )
        if node in ran:
            raise ValueError(
                _(
                    "step {index} of {engine}.backward() runs {node} a second time: a backward "
                    "pass runs each node once (does the topological order list it twice?)"
                ).format(index=index, engine=engine, node=_called(node, graph))
            )
        if len(grads_sent) != len(node.next_functions):
            raise ValueError(
                _(
                    "step {index} of {engine}.backward(): {node} has {inputs} inputs but sent "
                    "{sent} gradients; grads_sent needs one per next_functions pair"
                ).format(
                    index=index,
                    engine=engine,
                    node=_called(node, graph),
                    inputs=len(node.next_functions),
                    sent=len(grads_sent),
                )
            )
        contributions = arrived.pop(node, [])
        if index == 0:
            if node is not output:
                raise ValueError(
                    _(
                        "the first step of {engine}.backward() must be the output's own node, "
                        "not {node}: backward starts from the output (is the topological order "
                        "reversed?)"
                    ).format(engine=engine, node=_called(node, graph))
                )
            contributions.insert(0, (None, grad))
        step = Step(index, node, tuple(contributions), grad, tuple(grads_sent))
        if not node.next_functions:  # a leaf: its .grad before the pass, and as reported now
            step.leaf, step.grad_before, step.grad_after = node, grads_before[node], grad
        steps.append(step)
        ran.add(node)
        for (child, _slot), sent in zip(node.next_functions, grads_sent, strict=True):
            if child is not None and sent is not None:
                arrived.setdefault(child, []).append((node, sent))
    missed = [node for node in graph.id_of if node not in ran]
    if missed:
        raise ValueError(
            _(
                "{engine}.backward() reported no step for {node}: it must report one step for "
                "every node of the graph, leaves included"
            ).format(engine=type(output).__name__, node=_called(missed[0], graph))
        )
    return steps


def _unpack(record: Any, index: int) -> tuple[Any, Any, Sequence[Any]]:
    try:
        node, grad, grads_sent = record
        len(grads_sent)
    except (TypeError, ValueError):
        raise TypeError(
            _with_protocol(
                _(
                    "step {index} of backward() is {record!r}: each step must be a triple (node, "
                    "grad, grads_sent), grads_sent a tuple with one gradient per input"
                ).format(index=index, record=record)
            )
        ) from None
    return node, grad, grads_sent


def _called(node: Any, graph: Graph) -> str:
    """How an error names a node: its box's title."""
    box = graph.nodes[graph.id_of[node]]
    if box.kind == LEAF:
        return _("the leaf {leaf}").format(leaf=box.title)
    return _("the node {node!r}").format(node=box.title)
