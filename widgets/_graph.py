"""The graph a drawing shows: which boxes, which arrows, what they say. No styling here.

``build_graph`` walks a backward graph from its outputs (with a loop and a queue, never
recursion: a chain of 100 000 ops is an ordinary graph) and returns a ``Graph`` whose node
ids follow the visit order, so the same graph always gets the same ids, on every run.

Arrows point the way the forward computation went (input → op → output), as in
``torchviz``; gradients travel against them during ``backward()``.

>>> import minigrad as mg
>>> x = mg.tensor(2.0, requires_grad=True)
>>> y = x * 3
>>> graph = build_graph([y], names={id(x): ("x", x), id(y): ("y", y)})
>>> for node in graph.nodes.values():
...     print(node.id, node.kind, node.title)
t0 output y
n0 op MulBackward0
c0 constant constant
n1 op AccumulateGrad
t1 leaf x
"""

from __future__ import annotations

import math
import numbers
import types
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import minigrad.graph
from minigrad import Tensor
from minigrad.function import AccumulateGrad, Node, short_name
from minigrad.printing import tensor_repr

from ._markup import one_line
from .i18n import _, ngettext

# What a box in the drawing stands for.
LEAF = "leaf"  # a tensor made by the user with requires_grad=True
CONSTANT = "constant"  # an input that needs no gradient
OP = "op"  # a grad_fn: the node that will compute an intermediate result's gradient
OUTPUT = "output"  # a tensor the drawing was asked for
DERIVATIVE = "derivative"  # a node created by backward(create_graph=True) (see build_graph)
GRAD_TENSOR = "grad"  # a leaf's .grad that has a graph of its own (create_graph=True)
ELIDED = "elided"  # the note standing for the nodes left out above max_nodes
MODULE = "module"  # a whole module of a model, drawn as one box (widgets.layers)


@dataclass
class GraphNode:
    """One box: a tensor, a graph node, a constant input, or the "elided" note."""

    id: str
    kind: str
    title: str  # first line of the label: a name, or the grad_fn's name
    node: Node | None = None
    tensor: Tensor | None = None
    produced: Tensor | None = None  # for an op node: the named tensor it made, if any
    produced_name: str | None = None
    freed: bool = False  # the node's saved tensors were freed by a backward pass
    derivative: bool = False  # created by a backward pass with create_graph=True
    note: str = ""


@dataclass
class GraphEdge:
    """One arrow ``tail → head`` (forward direction). For an arrow between two graph nodes,
    ``head`` is the node using ``tail``'s result as its input number ``input_index``."""

    id: str
    tail: str
    head: str
    input_index: int = 0


@dataclass
class Graph:
    nodes: dict[str, GraphNode] = field(default_factory=dict)
    edges: list[GraphEdge] = field(default_factory=list)
    id_of: dict[Node, str] = field(default_factory=dict)  # graph node -> its box id
    elided: int = 0  # graph nodes left out because of max_nodes

    def add_node(self, node: GraphNode) -> GraphNode:
        self.nodes[node.id] = node
        return node

    def add_edge(self, tail: str, head: str, input_index: int = 0) -> None:
        self.edges.append(GraphEdge(f"e{len(self.edges)}", tail, head, input_index))

    def note_elided(self, count: int, cut: list[tuple[str, int]], max_nodes: int) -> None:
        """Record that ``count`` graph nodes were left out, and when there are any, draw one
        note box standing for them, with the ``cut`` arrows (head box, input index) that led
        to them coming from it."""
        self.elided = count
        if not count:
            return
        note = self.add_node(GraphNode("elided", ELIDED, "…"))
        note.note = ngettext(
            "{count} more graph node not drawn (max_nodes={max_nodes})",
            "{count} more graph nodes not drawn (max_nodes={max_nodes})",
            count,
        ).format(count=count, max_nodes=max_nodes)
        for head, index in cut:
            self.add_edge(note.id, head, index)


# --------------------------------------------------------------------------- names
# id(tensor) -> (name, tensor). Keyed by id() because == on tensors is elementwise; the
# tensor is kept in the value, so the id stays valid while the mapping exists.
Names = dict[int, tuple[str, Tensor]]


def caller_names(frame: types.FrameType | None) -> Names:
    """The variable name of every Tensor in ``frame`` that has exactly one name.

    Locals hide globals of the same name. Names starting with ``_`` are skipped: IPython
    keeps every result in ``_``, ``_3``, ``__``, which would make every name ambiguous.
    """
    if frame is None:
        return {}
    visible: dict[str, object] = {**frame.f_globals, **frame.f_locals}
    found: dict[int, list[tuple[str, Tensor]]] = {}
    for name, value in visible.items():
        if isinstance(value, Tensor) and not name.startswith("_"):
            found.setdefault(id(value), []).append((name, value))
    return {key: pairs[0] for key, pairs in found.items() if len(pairs) == 1}


def model_names(model: Any) -> Names:
    """The parameters of ``model`` (a ``minigrad.nn.Module``) by their dotted names, as
    ``model.named_parameters()`` gives them: ``fc1.weight``, ``layers.0.bias``.

    >>> import minigrad as mg
    >>> net = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.Tanh(), mg.nn.Linear(3, 1))
    >>> [name for name, _ in model_names(net).values()]
    ['0.weight', '0.bias', '2.weight', '2.bias']
    """
    named_parameters = getattr(model, "named_parameters", None)
    if not callable(named_parameters):
        raise TypeError(
            _(
                "model must be a module with named_parameters() (a minigrad.nn.Module), got {type}"
            ).format(type=type(model).__name__)
        )
    found: Names = {}
    for name, parameter in named_parameters():
        if not isinstance(parameter, Tensor):
            raise TypeError(
                _("model.named_parameters() gave {type} for {name!r}, not a Tensor").format(
                    type=type(parameter).__name__, name=name
                )
            )
        found[id(parameter)] = (one_line(name), parameter)
    return found


def merge_names(inferred: Names, explicit: Mapping[str, Tensor] | None, model: Any = None) -> Names:
    """``explicit`` (``{"w": w}``) wins over the names of ``model``'s parameters (see
    ``model_names``), which win over names found in the caller's namespace. A name is text
    shown on one line (``widgets._markup.one_line``): ``"a\\nb"`` reads ``a\\nb``."""
    merged = dict(inferred)
    if model is not None:
        merged.update(model_names(model))
    for name, tensor in (explicit or {}).items():
        if not isinstance(name, str):
            raise TypeError(
                _("names must map a str to a Tensor, but got the key {name!r}").format(name=name)
            )
        if not isinstance(tensor, Tensor):
            raise TypeError(
                _("names must map a name to a Tensor, but names[{name!r}] is {type}").format(
                    name=name, type=type(tensor).__name__
                )
            )
        merged[id(tensor)] = (one_line(name), tensor)
    return merged


def name_of(names: Names, tensor: Tensor | None) -> str | None:
    if tensor is None or id(tensor) not in names:
        return None
    return names[id(tensor)][0]


# --------------------------------------------------------------------------- numbers
def _number(value: float | int | bool, is_float: bool) -> str:
    """A number as PyTorch would write it, to 4 significant digits: ``3.``, ``0.25``."""
    if not is_float:
        return str(value)
    if math.isfinite(value) and value == int(value) and abs(value) < 1e8:
        return f"{int(value)}."
    text = f"{value:.4g}"
    if text.lstrip("-").isdigit():  # 1.9999983 rounds to "2": show that it is not exactly 2
        text = f"{value:#.4g}"
    return text


def _array(value: Any) -> np.ndarray:
    """The numbers a tensor holds; or, for an engine of one's own (``widgets.protocol``), a
    node's ``data`` or a plain number (a gradient)."""
    if isinstance(value, Tensor):
        return value.detach().numpy()
    return np.asarray(_plain(value))


def _plain(value: Any) -> Any:
    return value if isinstance(value, (numbers.Number, np.ndarray)) else value.data


def short_value(tensor: Tensor, max_items: int = 6) -> str:
    """A one-line value for a box in a drawing: ``3.``, ``[1., 0.5]``, ``[2×3 values]``."""
    array = _array(tensor)
    is_float = array.dtype.kind == "f"
    if array.size == 1:
        return _number(array.item(), is_float)
    if array.size == 0:
        return "[]"
    if array.size > max_items or array.ndim > 2:
        return _("[{shape} values]").format(shape="×".join(str(n) for n in array.shape))
    if array.ndim == 1:
        return "[" + ", ".join(_number(v, is_float) for v in array.tolist()) + "]"
    rows = ("[" + ", ".join(_number(v, is_float) for v in row) + "]" for row in array.tolist())
    return "[" + ", ".join(rows) + "]"


def full_value(tensor: Tensor) -> str:
    """The value as ``print(tensor)`` shows it, without ``tensor(`` and ``)`` around it:
    the text a panel shows, so that it matches what a student sees in a cell (for an
    engine of one's own, the number as ``print`` shows it)."""
    if not isinstance(tensor, Tensor):
        return str(_plain(tensor))
    text = tensor_repr(tensor.detach().numpy())
    body = text[len("tensor(") : -1]
    lines = body.split("\n")
    return "\n".join([lines[0]] + [line[len("tensor(") :] for line in lines[1:]])


def values_of(graph: Graph) -> dict[str, Tensor]:
    """A copy of each tensor a box shows, by box id: what it holds now, to compare with
    what it holds after a backward pass (which may add into a ``.grad`` drawn as a box)."""
    return {
        box.id: box.tensor.detach().clone()
        for box in graph.nodes.values()
        if box.tensor is not None
    }


def same_values(a: Tensor, b: Tensor) -> bool:
    """Whether two tensors hold the same shape and values (NaNs equal)."""
    x, y = a.detach().numpy(), b.detach().numpy()
    return x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f"))


def shape_text(tensor: Tensor) -> str:
    shape = _array(tensor).shape
    return _("scalar") if not shape else _("shape {shape}").format(shape=shape)


# --------------------------------------------------------------------------- walking
def reachable(roots: Iterable[Node]) -> set[Node]:
    """Every graph node reachable from ``roots`` through ``next_functions``."""
    return set(minigrad.graph.nodes(roots))


def _leaves(nodes: Iterable[Node]) -> list[Tensor]:
    return [node.variable for node in nodes if isinstance(node, AccumulateGrad)]


def _is_in(tensor: Tensor, tensors: Iterable[Tensor]) -> bool:
    # `in` would compare with ==, which is elementwise for tensors: compare identities.
    return any(tensor is other for other in tensors)


def build_graph(
    outputs: Sequence[Tensor],
    names: Names | None = None,
    derivatives: Sequence[Tensor] = (),
    include_grad_graphs: bool = True,
    max_nodes: int = 200,
    originals: Sequence[Tensor] = (),
) -> Graph:
    """The boxes and arrows for ``outputs``.

    Derivative nodes (the graph that ``backward(create_graph=True)`` builds) are found by a
    rule that needs nothing from the engine: a node is a derivative node when it can be
    reached from a gradient tensor's ``grad_fn`` but not from the original outputs. The
    gradient tensors are: the ``.grad`` of every leaf in the drawing that has a ``grad_fn``
    (when ``include_grad_graphs``), an output that is such a ``.grad``, and the tensors
    passed as ``derivatives`` (e.g. the results of ``autograd.grad(..., create_graph=True)``).
    ``originals`` are forward results not drawn themselves (drawing ``x.grad`` alone, pass
    ``y``): nodes shared with their graphs are original ones. ``AccumulateGrad`` nodes belong
    to their leaf, made by the user, so they are never derivative nodes.
    """
    names = names or {}
    outputs = list(outputs)
    derivatives = list(derivatives)

    # Which outputs are themselves gradients (x.grad passed to draw): their graphs are
    # derivative graphs. Found by looking at the leaves every output's graph reaches.
    all_leaves = _leaves(reachable(t.grad_fn for t in outputs + derivatives))
    grads_of_leaves = [leaf.grad for leaf in all_leaves if leaf.grad is not None]
    gradient_outputs = [t for t in outputs if _is_in(t, grads_of_leaves) or _is_in(t, derivatives)]
    original_roots = [t.grad_fn for t in outputs if not _is_in(t, gradient_outputs)]
    original = reachable(original_roots + [t.grad_fn for t in originals])

    # The .grad tensors with a graph, found until no new leaf turns up (a derivative graph
    # can reach leaves the original graph did not).
    grad_tensors: list[tuple[Tensor, Tensor | None]] = []  # (x.grad, x)
    for tensor in derivatives:
        if not _is_in(tensor, outputs):
            grad_tensors.append((tensor, None))
    if include_grad_graphs:
        seen_leaves: list[Tensor] = []
        frontier = _leaves(original | reachable(t.grad_fn for t in gradient_outputs))
        while frontier:
            leaf = frontier.pop(0)
            if _is_in(leaf, seen_leaves):
                continue
            seen_leaves.append(leaf)
            grad = leaf.grad
            if grad is not None and grad.grad_fn is not None and not _is_in(grad, outputs):
                grad_tensors.append((grad, leaf))
                frontier.extend(_leaves(reachable([grad.grad_fn])))
    derivative_roots = [t.grad_fn for t in gradient_outputs] + [g.grad_fn for g, _ in grad_tensors]
    derivative_nodes = reachable(derivative_roots) - original

    graph = Graph()
    tensor_ids: dict[int, str] = {}  # id(tensor) -> box id, for tensors already drawn

    def tensor_box(tensor: Tensor, kind: str, title: str) -> str:
        if id(tensor) not in tensor_ids:
            box = graph.add_node(GraphNode(f"t{len(tensor_ids)}", kind, title, tensor=tensor))
            tensor_ids[id(tensor)] = box.id
        return tensor_ids[id(tensor)]

    # Output boxes first, then the graph behind them, breadth first: ids in visit order.
    queue: deque[Node] = deque()
    result_arrows: list[tuple[Node, str]] = []  # grad_fn -> the tensor box it made
    for tensor in outputs:
        name = name_of(names, tensor)
        if tensor.grad_fn is not None:
            if _is_in(tensor, gradient_outputs):
                kind, default = GRAD_TENSOR, _grad_title(tensor, all_leaves, names)
            else:
                kind, default = OUTPUT, _("output")
            result_arrows.append((tensor.grad_fn, tensor_box(tensor, kind, name or default)))
            queue.append(tensor.grad_fn)
        elif tensor.requires_grad:
            tensor_box(tensor, LEAF, name or _("leaf"))
        else:
            box_id = tensor_box(tensor, CONSTANT, name or _("tensor"))
            graph.nodes[box_id].note = _("requires_grad=False: no graph")
    for grad, leaf in grad_tensors:
        leaf_name = name_of(names, leaf)
        title = name_of(names, grad) or (f"{leaf_name}.grad" if leaf_name else _("gradient"))
        result_arrows.append((grad.grad_fn, tensor_box(grad, GRAD_TENSOR, title)))
        queue.append(grad.grad_fn)

    not_results = outputs + [grad for grad, _ in grad_tensors]
    produced_by = _named_results(names, original | derivative_nodes, not_results)
    input_arrows: list[tuple[Node, str, int]] = []  # (input node, box using it, position)
    visited: set[Node] = set(queue)
    constants = 0
    while queue and len(graph.id_of) < max_nodes:
        node = queue.popleft()
        box = graph.add_node(GraphNode(f"n{len(graph.id_of)}", OP, short_name(node), node=node))
        graph.id_of[node] = box.id
        box.freed = node.saved_tensors_freed()
        box.derivative = node in derivative_nodes and not isinstance(node, AccumulateGrad)
        box.produced = produced_by.get(node)
        box.produced_name = name_of(names, box.produced)
        if isinstance(node, AccumulateGrad):
            leaf = node.variable
            graph.add_edge(tensor_box(leaf, LEAF, name_of(names, leaf) or _("leaf")), box.id)
        for index, (child, _slot) in enumerate(node.next_functions):
            if child is None and index == 0 and is_copy(node):
                # The empty first slot of a copy node is "the tensor copied into", not an
                # input of the computation: a "constant" box there would mislead.
                continue
            if child is None:
                value = constant_input(node)
                name = name_of(names, value)
                title = _("{name} (constant)").format(name=name) if name else _("constant")
                constant = graph.add_node(GraphNode(f"c{constants}", CONSTANT, title, tensor=value))
                constants += 1
                graph.add_edge(constant.id, box.id, index)
                continue
            if child not in visited:
                visited.add(child)
                queue.append(child)
            input_arrows.append((child, box.id, index))

    # The arrows between graph nodes, now that every drawn node has its id.
    cut: list[tuple[str, int]] = []  # inputs of drawn boxes that were left out
    for child, head, index in input_arrows:
        if child in graph.id_of:
            graph.add_edge(graph.id_of[child], head, index)
        else:
            cut.append((head, index))
    for node, box_id in result_arrows:
        if node in graph.id_of:
            graph.add_edge(graph.id_of[node], box_id)

    graph.note_elided(
        len(reachable(original_roots + derivative_roots)) - len(graph.id_of), cut, max_nodes
    )
    return graph


def is_copy(node: Node) -> bool:
    """Whether ``node`` copies a gradient into a tensor (``x.copy_(y)``, or what ``x.grad``
    points to after ``backward(create_graph=True)``): its input 0 is the tensor copied into."""
    return short_name(node) == "CopyBackwards"


def constant_input(node: Node) -> Tensor | None:
    """The tensor behind ``node``'s one constant input (an input needing no gradient), when
    the node saved it for backward; else ``None``. Only read, never unpacked: this computes
    nothing and leaves the graph as it was (see ``Node.constant_inputs``).

    >>> import minigrad as mg
    >>> x = mg.tensor(2.0, requires_grad=True)
    >>> constant_input((x * 3).grad_fn)
    tensor(3)
    >>> constant_input((x + 3).grad_fn) is None  # an addition saves nothing
    True
    """
    slots = [i for i, (child, _) in enumerate(node.next_functions) if child is None]
    if len(slots) != 1:
        return None
    return node.constant_inputs().get(slots[0])


def _grad_title(grad: Tensor, leaves: Sequence[Tensor], names: Names) -> str:
    """``x.grad`` for the ``.grad`` of a leaf named ``x``."""
    for leaf in leaves:
        if leaf.grad is grad and name_of(names, leaf):
            return f"{name_of(names, leaf)}.grad"
    return "gradient"


def _named_results(names: Names, nodes: set[Node], outputs: Sequence[Tensor]) -> dict[Node, Tensor]:
    """For op nodes, the intermediate tensor they made when the caller gave it a name
    (``a = x * w``): the drawing then shows ``a`` and its value in the op's box."""
    found: dict[Node, list[Tensor]] = {}
    for _name, tensor in names.values():
        if tensor.grad_fn in nodes and not _is_in(tensor, outputs):
            found.setdefault(tensor.grad_fn, []).append(tensor)
    return {node: tensors[0] for node, tensors in found.items() if len(tensors) == 1}
