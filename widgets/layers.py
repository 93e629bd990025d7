"""``draw_layers``: a model's graph with each layer drawn as one box, one level at a time.

The graph of a training step has a box for every op and every parameter: a 2-16-16-1 MLP's
loss already has some thirty. Drawn by layers, it has one box per module of the model (its
name from ``named_modules``, ``fc1 (Linear)``), with the arrows between them; ``depth=2``
opens each of those one level further, and so on, as model-drawing tools do.

Which graph nodes a layer made is recorded while the model runs: ``draw_layers`` calls
``run`` with each module's ``forward`` wrapped, and a call's nodes are those its outputs
reach that its inputs do not (the ops it ran, and its parameters' ``AccumulateGrad``).

>>> import minigrad as mg
>>> from minigrad import nn
>>> net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
>>> x = mg.ones(4, 2)
>>> drawing = draw_layers(net, lambda: net(x).sum())
>>> [line.split(":")[0].strip() for line in drawing.description.splitlines()[1:5]]
['output (output)', 'SumBackward0', '2 (Linear)', '1 (Tanh)']
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from minigrad import Tensor
from minigrad.function import Node
from minigrad.graph import nodes as graph_nodes

from ._graph import LEAF, MODULE, Graph, GraphNode, build_graph, caller_names, merge_names
from .draw import Drawing, add_boxes, describe, label_lines, new_digraph
from .i18n import _


def draw_layers(
    model: Any,
    run: Callable[[], Tensor],
    depth: int = 1,
    names: Mapping[str, Tensor] | None = None,
    show_values: bool = True,
    rankdir: str = "LR",
    max_nodes: int = 400,
) -> Drawing:
    """Run ``run()`` (which calls ``model`` and returns the tensor to draw, a loss for
    instance) and draw its graph with each module of ``model`` at ``depth`` as one box.

    ``depth=1`` gives a box per child of the model (``named_children``); ``depth=2`` opens
    each child into its own children, and so on; a module with no children stays one box
    at any depth. A box says the module's name and type and its parameters' shapes; the
    model's inputs and the other tensors it reads stay boxes of their own. Parameters left
    outside every box are named as ``named_parameters`` names them; other tensors by the
    caller's variables, or ``names``, as in ``widgets.draw``.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> net = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
    >>> drawing = draw_layers(net, lambda: net(mg.ones(1, 2)).sum())
    >>> "0 (Linear)" in drawing.source and "weight (3, 2), bias (3,)" in drawing.source
    True
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    # model's parameter names (this checks it has named_parameters()), the caller's, yours
    found = merge_names(caller_names(sys._getframe(1)), names, model)
    made_by = _record_calls(model, run)
    output = made_by.pop(None)
    if not isinstance(output, Tensor):
        raise TypeError(
            _("run() must return a Tensor, got {type}").format(type=type(output).__name__)
        )
    graph = build_graph([output], found, include_grad_graphs=False, max_nodes=max_nodes)
    graph = collapse(graph, model, made_by, depth)
    drawing = new_digraph(rankdir)
    labels = {box.id: label_lines(box, show_values, False) for box in graph.nodes.values()}
    add_boxes(drawing, graph, labels)
    drawing.description = describe(graph, labels)
    return drawing


def _record_calls(model: Any, run: Callable[[], Tensor]) -> dict[Any, Any]:
    """``run()``, with each module's calls recorded: module name -> the graph nodes its
    calls made; under the key ``None``, what ``run`` returned."""
    made: dict[Any, Any] = {}
    wrapped = []

    def wrap(name: str, module: Any) -> None:
        forward = module.forward

        def recording_forward(*args: Any, **kwargs: Any) -> Any:
            result = forward(*args, **kwargs)
            inputs = [a.grad_fn for a in _tensors([*args, *kwargs.values()])]
            outputs = [t.grad_fn for t in _tensors([result])]
            before = set(graph_nodes([n for n in inputs if n is not None]))
            after = set(graph_nodes([n for n in outputs if n is not None]))
            made.setdefault(name, set()).update(after - before)
            return result

        vars(module)["forward"] = recording_forward  # shadows the class's forward
        wrapped.append(module)

    try:
        for name, module in model.named_modules():
            if name and "forward" not in vars(module):
                wrap(name, module)
        made[None] = run()
    finally:
        for module in wrapped:
            vars(module).pop("forward", None)
    return made


def _tensors(values: Iterable[Any]) -> list[Tensor]:
    found = []
    for value in values:
        if isinstance(value, Tensor):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found += _tensors(value)
    return found


def chosen_modules(model: Any, depth: int) -> list[tuple[str, Any]]:
    """The modules drawn as boxes at ``depth``: those ``depth`` levels down, and those less
    deep that have no children."""
    chosen = []
    for name, module in model.named_modules():
        if not name:
            continue
        level = name.count(".") + 1
        if level == depth or (level < depth and not any(True for _ in module.children())):
            chosen.append((name, module))
    return chosen


def collapse(graph: Graph, model: Any, made_by: dict[Any, Any], depth: int) -> Graph:
    """``graph`` with the boxes of each chosen module (its graph nodes, its parameters'
    boxes) replaced by one box; arrows between the boxes kept once each. A tensor the
    module reads that is not one of its parameters (the model's input, a target) keeps its
    own box, an arrow into the module's."""
    box_of: dict[str, str] = {}  # old box id -> the module box standing for it
    modules: dict[str, GraphNode] = {}
    for name, module in chosen_modules(model, depth):
        nodes: set[Node] = made_by.get(name, set())
        members = {graph.id_of[node] for node in nodes if node in graph.id_of}
        parameters = [p for p in module.parameters()]
        members |= {
            box.id
            for box in graph.nodes.values()
            if box.kind == LEAF and any(box.tensor is p for p in parameters)
        }
        members -= set(box_of)  # a node two modules reach (a shared parameter): the first
        if not members:
            continue
        box = GraphNode(f"m{len(modules)}", MODULE, f"{name} ({type(module).__name__})")
        shapes = [f"{p_name} {tuple(p.shape)}" for p_name, p in module.named_parameters()]
        box.note = ", ".join(shapes) if shapes else _("no parameters")
        modules[box.id] = box
        box_of.update(dict.fromkeys(members, box.id))
    collapsed = Graph(elided=graph.elided)
    for box in graph.nodes.values():
        if box.id not in box_of:
            collapsed.add_node(box)
            if box.node is not None:
                collapsed.id_of[box.node] = box.id
        elif box_of[box.id] not in collapsed.nodes:
            collapsed.add_node(modules[box_of[box.id]])  # where its first member was
    seen: set[tuple[str, str]] = set()
    for edge in graph.edges:
        tail, head = box_of.get(edge.tail, edge.tail), box_of.get(edge.head, edge.head)
        if tail == head or (tail, head) in seen:
            continue
        seen.add((tail, head))
        collapsed.add_edge(tail, head, edge.input_index)
    return collapsed
