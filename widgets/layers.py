"""``draw_layers``: a model's graph with each layer drawn as one box, one level at a time.

The graph of a training step has a box for every op and every parameter: a 2-16-16-1 MLP's
loss already has some thirty. Drawn by layers, it has one box per module of the model (its
name from ``named_modules``, ``fc1 (Linear)``), with the arrows between them; ``depth=2``
opens each of those one level further, and so on, as model-drawing tools do. In the
browser a click on a module's box opens it one level, with no kernel, into a frame titled
with its name; a click on that frame closes it again (Tab, then Enter or Space, do both
from the keyboard). The drawing carries every box and the modules each belongs to
(``openable``), and the page puts the picture together again and lays it out with the
Graphviz it already has (an exported page and the docs site open boxes too, and a kernel
round trip would redo the model's forward pass).

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

import graphviz

from minigrad import Tensor
from minigrad.function import Node
from minigrad.graph import nodes as graph_nodes

from ._graph import LEAF, MODULE, Graph, GraphNode, build_graph, caller_names, merge_names
from ._markup import box_line, dot_label, one_line
from .draw import FONT_POINTS, Drawing, add_boxes, describe, label_lines, new_digraph
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
    at any depth; in the browser, a click on a box with children opens it one level, and a
    click on the frame round an open module closes it (Enter or Space do the same). A box
    says the module's name and type and its parameters' shapes; the
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
    full = build_graph([output], found, include_grad_graphs=False, max_nodes=max_nodes)
    graph = collapse(full, model, made_by, depth)
    drawing = new_digraph(rankdir)
    labels = {box.id: label_lines(box, show_values, False) for box in graph.nodes.values()}
    add_boxes(drawing, graph, labels)
    drawing.description = describe(graph, labels)
    drawing.layers = openable(full, model, made_by, depth, rankdir, show_values)
    drawing.titles.update(drawing.layers.pop("titles"))
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


def module_ids(model: Any) -> dict[str, str]:
    """Each module's box id, by its name in ``named_modules`` (``m3``: the third), the same
    at every depth, so that the browser can open the box it was given."""
    return {name: f"m{i}" for i, (name, _) in enumerate(model.named_modules()) if name}


def module_box(box_id: str, name: str, module: Any) -> GraphNode:
    """The box standing for ``module``: its name and type, and its parameters' shapes."""
    box = GraphNode(box_id, MODULE, f"{name} ({type(module).__name__})")
    shapes = [f"{p_name} {tuple(p.shape)}" for p_name, p in module.named_parameters()]
    box.note = ", ".join(shapes) if shapes else _("no parameters")
    return box


def members(graph: Graph, name: str, module: Any, made_by: dict[Any, Any]) -> set[str]:
    """The boxes of ``graph`` that module ``name`` stands for: the graph nodes its calls
    made and its parameters' boxes."""
    nodes: set[Node] = made_by.get(name, set())
    found = {graph.id_of[node] for node in nodes if node in graph.id_of}
    parameters = list(module.parameters())
    return found | {
        box.id
        for box in graph.nodes.values()
        if box.kind == LEAF and any(box.tensor is p for p in parameters)
    }


def collapse(graph: Graph, model: Any, made_by: dict[Any, Any], depth: int) -> Graph:
    """``graph`` with the boxes of each chosen module (its graph nodes, its parameters'
    boxes) replaced by one box; arrows between the boxes kept once each. A tensor the
    module reads that is not one of its parameters (the model's input, a target) keeps its
    own box, an arrow into the module's."""
    box_of: dict[str, str] = {}  # old box id -> the module box standing for it
    modules: dict[str, GraphNode] = {}
    ids = module_ids(model)
    for name, module in chosen_modules(model, depth):
        inside = members(graph, name, module, made_by)
        inside -= set(box_of)  # a node two modules reach (a shared parameter): the first
        if not inside:
            continue
        box = module_box(ids[name], name, module)
        modules[box.id] = box
        box_of.update(dict.fromkeys(inside, box.id))
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


def openable(
    full: Graph, model: Any, made_by: dict[Any, Any], depth: int, rankdir: str, show_values: bool
) -> dict[str, Any]:
    """What the browser needs to open a module's box one level with a click, no kernel:
    the drawing's DOT is rebuilt there (``static/graphviz_view.js``, ``layersDot``) from

    - ``units``: each box of the full graph with the modules it belongs to, outermost
      first (``[["n3", ["m1", "m2"]], ...]``); it is drawn as the first of them not open,
      or as itself when all are open;
    - ``boxes``: each unit's and module's DOT statement, made here (so escaped here);
    - ``edges``: the full graph's arrows, unit to unit, drawn once between two boxes;
    - ``header``, ``edge``: the DOT around them and every arrow's attributes;
    - ``open``: the modules open at ``depth``; ``openable``: the modules with children;
    - ``frames``: for each module with children, the frame drawn around its boxes while it
      is open (a Graphviz cluster: its ``graph [...]`` statement, made here, so escaped
      here) and its name, for the frame's tooltip; a click on an open module's frame
      closes it again;
    - ``titles``: the tooltips of boxes whose lines were cut (``Drawing.titles``).
    """
    ids = module_ids(model)
    chains: dict[str, list[str]] = {unit: [] for unit in full.nodes}
    name_of: dict[str, str] = {}
    everything = Graph()
    for unit in full.nodes.values():
        everything.add_node(unit)
    for name, module in model.named_modules():  # a module before its children
        if not name:
            continue
        box_id = ids[name]
        for unit in sorted(members(full, name, module, made_by)):
            chain = chains[unit]
            # Only a path of modules, each inside the one before (a shared parameter is in
            # its first module's path).
            if not chain or name.startswith(name_of[chain[-1]] + "."):
                chain.append(box_id)
                if box_id not in everything.nodes:
                    everything.add_node(module_box(box_id, name, module))
        name_of[box_id] = name
    drawing = new_digraph(rankdir)
    labels = {box.id: label_lines(box, show_values, False) for box in everything.nodes.values()}
    add_boxes(drawing, everything, labels)
    statements = {statement.split("[", 1)[0].strip(): statement for statement in drawing.body}
    boxes = {box_id: statements[box_id] for box_id in everything.nodes}  # not node [...]
    modules = dict(model.named_modules())
    drawn = {box_id for chain in chains.values() for box_id in chain}
    openable_ids = sorted(
        box_id for box_id in drawn if any(True for _ in modules[name_of[box_id]].children())
    )
    return {
        "header": new_digraph(rankdir).source.rstrip().removesuffix("}"),
        "boxes": boxes,
        "units": [[unit, chain] for unit, chain in chains.items()],
        "edges": [[edge.tail, edge.head] for edge in full.edges],
        "edge": 'color="#444444"',
        "open": sorted(
            ids[name]
            for name in (name_of[box_id] for box_id in drawn)
            if name.count(".") + 1 < depth and any(True for _ in modules[name].children())
        ),
        "openable": openable_ids,
        "frames": {
            box_id: open_module_frame(box_id, name_of[box_id], modules[name_of[box_id]])
            for box_id in openable_ids
        },
        "titles": drawing.titles,
    }


def open_module_frame(box_id: str, name: str, module: Any) -> dict[str, str]:
    """The frame around an open module's boxes: a Graphviz cluster's ``graph [...]``
    statement (``attributes``; its SVG group's id is ``mg-frame-<box id>``) and the
    module's name and type (``title``), as its box says them.

    >>> from minigrad import nn
    >>> frame = open_module_frame("m1", "encoder", nn.Sequential(nn.Tanh()))
    >>> frame["title"], 'id="mg-frame-m1"' in frame["attributes"]
    ('encoder (Sequential)', True)
    """
    title = one_line(f"{name} ({type(module).__name__})")
    cluster = graphviz.Digraph(name=f"cluster_{box_id}")
    cluster.attr(
        "graph",
        label=dot_label([box_line(title)]),
        id=f"mg-frame-{box_id}",
        labeljust="l",
        style="rounded,filled",
        fillcolor="#F5F9FC",  # a paler tint of the module boxes' blue
        color="#5B9BC8",
        penwidth="1.5",
        fontname="Helvetica",
        fontsize=str(FONT_POINTS),
        fontcolor="#333333",
    )
    return {"attributes": cluster.body[0], "title": title}
