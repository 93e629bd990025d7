"""``draw``: a picture of a backward graph, as Graphviz draws it.

>>> import minigrad as mg
>>> import widgets
>>> x = mg.tensor(2.0, requires_grad=True)
>>> w = mg.tensor(3.0, requires_grad=True)
>>> y = x * w
>>> drawing = widgets.draw(y)          # in a notebook, Graphviz draws it in the browser
>>> "MulBackward0" in drawing.source and 'label="x' in drawing.source
True

Colours come from the Okabe–Ito palette, which stays distinguishable with every common
kind of colour blindness; shapes and words say the same thing as the colours, so no legend
is needed: tensors are rounded boxes, graph nodes are ellipses, and every box says what it
is ("leaf", "output", "constant", "saved tensors freed", "x.grad").

Text is 12-point: at the drawing's natural size 16px, and the browser shrinks a wide
drawing to the page's width no further than 14px text (a lesson's), laying it out top to
bottom instead when that fits better (``static/graphviz_view.js``). A graph too large for
that (or taller than a few screens) is shown whole, shrunk to the width, with zoom buttons
(+, −, fit, 100%), ctrl + wheel and drag-to-pan. Viewers without
widgets get a PNG (when ``dot`` is on PATH) and the drawing in words (``widgets._fallback``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import graphviz

from minigrad import Tensor
from minigrad.graph import nodes as graph_nodes

from . import protocol
from ._browser import GraphvizView
from ._fallback import fallback_picture, with_fallback
from ._graph import (
    CONSTANT,
    DERIVATIVE,
    ELIDED,
    GRAD_TENSOR,
    LEAF,
    MODULE,
    OP,
    OUTPUT,
    Graph,
    GraphNode,
    build_graph,
    caller_names,
    merge_names,
    shape_text,
    short_value,
)
from ._markup import box_line, dot_label, one_line
from .i18n import N_, _

# The Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008).
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
GREY = "#999999"
BLACK = "#000000"

FONT_POINTS = 12  # every text in a drawing
STRAIGHT_ABOVE = 100  # boxes; a larger graph keeps its graph nodes in line (see add_boxes)

INSTALL_GRAPHVIZ = N_(
    "Graphviz's `dot` program is not installed (or not on PATH). Jupyter does not need it: "
    "a drawing shown in a notebook is laid out by Graphviz in the browser. Saving a drawing "
    "to a file (render, pipe) does; install it with one of:\n"
    "    sudo apt-get install graphviz        (Debian, Ubuntu)\n"
    "    brew install graphviz                (macOS)\n"
    "    conda install -c conda-forge graphviz\n"
    "The DOT source is available as `drawing.source`."
)


class GraphvizMissingError(graphviz.ExecutableNotFound):
    """Raised instead of graphviz's own error, with the commands that install Graphviz."""

    def __init__(self, args: Any = None) -> None:
        RuntimeError.__init__(self, _(INSTALL_GRAPHVIZ))


class Drawing(graphviz.Digraph):
    """A ``graphviz.Digraph`` that Jupyter shows by laying it out in the browser.

    In a notebook the drawing is a ``GraphvizView`` widget: Graphviz compiled to
    WebAssembly draws it on the page, so the ``dot`` program is not needed. ``render`` and
    ``pipe`` (an SVG or PNG file made in Python) still run ``dot``, and explain how to
    install it when it is missing.
    """

    description = ""  # the picture in words, for viewers without widgets (see describe)

    # For draw_layers: what the browser needs to open a module's box (widgets.layers.openable).
    layers: dict[str, Any] | None = None

    @property
    def titles(self) -> dict[str, str]:
        """The full text of each box whose lines were cut (``add_boxes`` fills it): the
        tooltip the browser shows over the box."""
        if "_titles" not in self.__dict__:
            self._titles: dict[str, str] = {}
        return self._titles

    def __repr__(self) -> str:
        # The default repr shows a memory address, which differs on every run of a lesson.
        return "<widgets.Drawing: shown as a picture in Jupyter; .source has the DOT text>"

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None, **_: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        data, metadata = self.widget()._repr_mimebundle_()
        # A viewer without widgets (GitHub, nbviewer, an untrusted notebook) shows these.
        text = f"{self!r}\n{self.description}" if self.description else repr(self)
        png, note = fallback_picture(self.source)  # made once, however often it is shown
        return with_fallback(data, text, png, note), metadata

    def widget(self) -> GraphvizView:
        """The widget that shows this drawing in the browser (a new one on each call), to
        place inside other widgets.

        >>> drawing = Drawing()
        >>> drawing.node("a")
        >>> drawing.widget().dot == drawing.source
        True
        """
        return GraphvizView(dot=self.source, titles=self.titles, layers=self.layers or {})

    def pipe(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().pipe(*args, **kwargs)
        except graphviz.ExecutableNotFound as error:
            raise GraphvizMissingError() from error

    def render(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().render(*args, **kwargs)
        except graphviz.ExecutableNotFound as error:
            raise GraphvizMissingError() from error


@dataclass(frozen=True)
class Look:
    """How one kind of box is painted."""

    shape: str
    fill: str
    border: str = BLACK
    font: str = BLACK
    style: str = "filled"
    penwidth: float = 1.0


LOOKS = {
    LEAF: Look("box", SKY_BLUE, BLUE, style="rounded,filled"),
    CONSTANT: Look("box", "#EEEEEE", GREY, "#555555", "rounded,filled,dashed"),
    OP: Look("ellipse", "#FFFFFF"),
    OUTPUT: Look("box", ORANGE, VERMILLION, style="rounded,filled", penwidth=2.0),
    DERIVATIVE: Look("ellipse", REDDISH_PURPLE),
    GRAD_TENSOR: Look("box", REDDISH_PURPLE, BLACK, style="rounded,filled", penwidth=2.0),
    ELIDED: Look("note", YELLOW),
    MODULE: Look("box3d", "#D6ECF8", BLUE),  # a light tint of the leaves' sky blue
    "freed": Look("ellipse", "#FFFFFF", GREY, "#777777", "filled,dashed"),
}


def look_of(box: GraphNode) -> Look:
    """The look of a box: derivative before freed before the kind of node."""
    if box.kind == OP and box.derivative:
        return LOOKS[DERIVATIVE]
    if box.kind == OP and box.freed:
        return LOOKS["freed"]
    return LOOKS[box.kind]


def value_line(value: str) -> str:
    """A box's line for its value (``value 3.``), in the widgets' language."""
    return _("value {value}").format(value=value)


def makes_line(box: GraphNode, show_values: bool = True) -> str:
    """An op box's line naming the tensor it made (``makes a = 6.``)."""
    if show_values and box.produced is not None:
        return _("makes {name} = {value}").format(
            name=box.produced_name, value=short_value(box.produced)
        )
    return _("makes {name}").format(name=box.produced_name)


def saved_tensors_freed() -> str:
    """The line of a node whose saved tensors a backward pass freed."""
    return _("saved tensors freed")


def label_lines(box: GraphNode, show_values: bool = True, show_grads: bool = True) -> list[str]:
    """The lines of text in a box (the static drawing's; the stepper adds its own)."""
    lines = [box.title]
    tensor = box.tensor
    if box.kind in (LEAF, OUTPUT, GRAD_TENSOR, CONSTANT) and tensor is not None:
        if box.kind == LEAF:
            lines[0] = _("{name} (leaf)").format(name=lines[0])
        elif box.kind == OUTPUT:
            lines[0] = _("{name} (output)").format(name=lines[0])
        lines.append(shape_text(tensor))
        if show_values:
            lines.append(value_line(short_value(tensor)))
        if show_grads and box.kind == LEAF:
            lines.append("grad " + ("None" if tensor.grad is None else short_value(tensor.grad)))
    elif box.kind == OP:
        if box.produced is not None and box.node is not None:
            # The caller named the tensor this node made: say so, with its value.
            lines.append(makes_line(box, show_values))
        if box.derivative:
            lines.append(_("(from create_graph)"))
        elif box.freed:
            lines.append(saved_tensors_freed())
    if box.note:
        lines.append(box.note)
    return lines


def new_digraph(rankdir: str) -> Drawing:
    if rankdir not in ("LR", "RL", "TB", "BT"):
        raise ValueError(f"rankdir must be one of 'LR', 'RL', 'TB', 'BT', got {rankdir!r}")
    drawing = Drawing(graph_attr={"rankdir": rankdir, "nodesep": "0.25", "ranksep": "0.35"})
    # 12 points is 16px at the natural size: the browser may shrink a wide picture to 7/8
    # and keep its text as large as a lesson's (14px; see static/graphviz_view.js).
    drawing.attr("node", fontname="Helvetica", fontsize=str(FONT_POINTS), margin="0.1,0.07")
    drawing.attr("edge", fontname="Helvetica", fontsize=str(FONT_POINTS), arrowsize="0.7")
    return drawing


def add_boxes(
    drawing: Drawing,
    graph: Graph,
    labels: Mapping[str, Sequence[str]],
    edge_labels: Mapping[str, str] | None = None,
    edge_color: str = "#444444",
    classes: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Every box and arrow of ``graph`` into ``drawing``, with the static looks.

    ``classes`` maps an element id (``mg-n3``) to classes for its SVG group: DOT's ``class``
    attribute, which Graphviz copies into the SVG (the stepper's frames style them).

    A graph of more than ``STRAIGHT_ABOVE`` boxes has its graph nodes in one Graphviz
    ``group``, which keeps the arrows between them straight: a long chain is then one line
    (else Graphviz draws it as a staircase, thousands of pixels high as well as wide)."""
    edge_labels = edge_labels or {}
    classes = classes or {}
    straight = {"group": "ops"} if len(graph.nodes) > STRAIGHT_ABOVE else {}

    def class_of(element_id: str) -> dict[str, str]:
        return {"class": " ".join(classes[element_id])} if classes.get(element_id) else {}

    for box in graph.nodes.values():
        look = look_of(box)
        lines = [one_line(line) for line in labels[box.id]]
        if any(box_line(line) != line for line in lines):
            drawing.titles[f"mg-{box.id}"] = "\n".join(lines)
        drawing.node(
            box.id,
            dot_label(labels[box.id]),
            id=f"mg-{box.id}",
            shape=look.shape,
            style=look.style,
            fillcolor=look.fill,
            color=look.border,
            fontcolor=look.font,
            penwidth=str(look.penwidth),
            **class_of(f"mg-{box.id}"),
            **(straight if box.kind == OP else {}),
        )
    for edge in graph.edges:
        label = {"label": dot_label([edge_labels[edge.id]])} if edge.id in edge_labels else {}
        drawing.edge(
            edge.tail,
            edge.head,
            id=f"mg-{edge.id}",
            color=edge_color,
            **label,
            **class_of(f"mg-{edge.id}"),
        )


def draw(
    *outputs: Tensor,
    names: Mapping[str, Tensor] | None = None,
    show_values: bool = True,
    show_grads: bool = True,
    rankdir: str = "LR",
    max_nodes: int = 200,
    derivatives: Sequence[Tensor] = (),
    model: Any = None,
) -> graphviz.Digraph:
    """Draw the backward graph behind ``outputs``.

    - Tensors are rounded boxes: the outputs (orange), the leaves (sky blue) with their
      value and ``.grad``, a tensor that does not require grad (grey, "constant").
    - Graph nodes are ellipses named like ``grad_fn`` (``MulBackward0``); ``AccumulateGrad``
      connects to its leaf. A grey dashed ellipse has had its saved tensors freed by a
      backward pass; a reddish-purple one was created by ``backward(create_graph=True)``
      (the graph that computes ``x.grad``, drawn beside the original when ``show_grads``).
      ``derivatives`` names more tensors to treat that way (see ``build_graph``).
    - Boxes are named after the caller's variables when each tensor has exactly one name;
      ``names={"w": w}`` overrides. ``model=net`` names the parameters of a
      ``minigrad.nn.Module`` as ``net.named_parameters()`` does (``fc1.weight``), instead of
      "leaf"; ``names`` still wins. Arrows follow the forward computation.
    - Above ``max_nodes`` graph nodes, the rest is replaced by a note saying how many.
    - ``outputs`` may also be values of an engine of your own, drawn the same way (see
      ``widgets.protocol``).

    >>> import minigrad as mg
    >>> x = mg.tensor(2.0, requires_grad=True)
    >>> y = x**2
    >>> print(draw(y).source.count("->"))  # x → AccumulateGrad → PowBackward0 → y
    3
    """
    if not outputs:
        raise TypeError(_("draw() needs at least one tensor to draw"))
    own_engine = not isinstance(outputs[0], Tensor)  # the values of an engine of one's own
    for i, tensor in enumerate(outputs):
        if not isinstance(tensor, Tensor) and not own_engine:
            raise TypeError(
                _("draw() takes Tensors, but argument {index} is {type}").format(
                    index=i, type=type(tensor).__name__
                )
            )
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    if own_engine:  # see widgets.protocol
        protocol.check_nodes(outputs, "draw()")
        if derivatives or model is not None:
            raise ValueError(
                _("derivatives= and model= are for minigrad tensors, not an engine of your own")
            )
        found = protocol.caller_names(sys._getframe(1), graph_nodes(outputs), names or {})
        graph = protocol.build_graph(outputs, found, max_nodes)
    else:
        found = merge_names(caller_names(sys._getframe(1)), names, model)
        graph = build_graph(outputs, found, derivatives, show_grads, max_nodes)
    drawing = new_digraph(rankdir)
    labels = {box.id: label_lines(box, show_values, show_grads) for box in graph.nodes.values()}
    add_boxes(drawing, graph, labels)
    drawing.description = describe(graph, labels)
    return drawing


def describe(graph: Graph, labels: Mapping[str, Sequence[str]]) -> str:
    """The picture in words: each box with what it says, then each arrow.

    >>> import minigrad as mg
    >>> x = mg.tensor(2.0, requires_grad=True)
    >>> y = x * 3
    >>> print(draw(y).description)
    Boxes:
      y (output): scalar, value 6.
      MulBackward0
      constant: scalar, value 3
      AccumulateGrad
      x (leaf): scalar, value 2., grad None
    Arrows (forward: from an input to what uses it; gradients flow against them):
      constant → MulBackward0
      x (leaf) → AccumulateGrad
      AccumulateGrad → MulBackward0
      MulBackward0 → y (output)
    """
    seen: dict[str, int] = {}
    names = {}
    for box in graph.nodes.values():
        title = one_line(labels[box.id][0])
        seen[title] = seen.get(title, 0) + 1
        names[box.id] = title if seen[title] == 1 else f"{title} #{seen[title]}"
    boxes = [
        f"  {names[box_id]}"
        + (": " + ", ".join(map(one_line, lines[1:])) if len(lines) > 1 else "")
        for box_id, lines in labels.items()
    ]
    arrows = [f"  {names[edge.tail]} → {names[edge.head]}" for edge in graph.edges]
    return "\n".join(
        [
            _("Boxes:"),
            *boxes,
            _("Arrows (forward: from an input to what uses it; gradients flow against them):"),
            *arrows,
        ]
    )
