"""``ForwardStepper``: watch a forward-mode pass one node at a time, the tangent beside each
value.

>>> import minigrad as mg
>>> from widgets import ForwardStepper
>>> x = mg.tensor(2.0, requires_grad=True)
>>> stepper = ForwardStepper(lambda x: x * x, x, mg.tensor(1.0))
>>> stepper.num_steps, stepper.position
(1, 0)
>>> stepper.step(); stepper.current.name, stepper.current.output_tangent
('MulBackward0', tensor(4.))
>>> stepper.tangent  # the directional derivative: d(x·x)/dx · 1 at x = 2
tensor(4.)

How it works. Forward mode carries, beside each value ``a``, a tangent ``ȧ``: how fast ``a``
moves when the inputs move along the given tangents. Together they make a dual number
``a + ȧ·ε`` (with ``ε² = 0``), and each op computes its result's tangent from its inputs'
tangents as it computes its value (``minigrad.autograd.forward_ad``).

At construction the stepper calls ``func`` once on dual numbers made from the inputs and
tangents (``make_dual``), inside one dual level, and keeps every record the pass makes
(``forward_ad.record_steps``, one ``minigrad.engine.ForwardStep`` per op). The inputs require
grad, so the pass records its backward graph too: the picture is the one
``BackwardStepper`` draws for the same function (``widgets._graph``), with one more box per
input, the ``make_dual`` that makes it a dual number. Each record names its node
(``record.node``), which is how a step finds its box.

Frame ``k`` restyles that one picture (``widgets._stepping``): the node of record ``k`` lit
up, its value and tangent written in its box as ``value + tangent·ε``, the arrows it read
its inputs' tangents from and those its own tangent leaves along drawn in the forward
direction with the tangent written on them. The panel works the tangent out in numbers:
each input's local derivative (``widgets._local``) times that input's tangent, summed, equal
to the record's output tangent. No tangent is computed here: the numbers after each ``=``
are the records'.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from minigrad import Tensor
from minigrad.autograd import forward_ad
from minigrad.engine import ForwardStep
from minigrad.function import AccumulateGrad

from . import _graph, _local
from ._formulas import op_formula
from ._graph import CONSTANT, LEAF, OP, OUTPUT, Graph, GraphNode, full_value, short_value
from ._markup import Markup, html, join, one_line, stylesheet
from ._stepping import (
    FRAME_CLASS,
    SteppedPicture,
    new_scope,
    panel,
    stepper_note,
    timeline,
    too_many_nodes,
    width,
)
from ._svg import SHOWN_FROM, SHOWN_UNTIL, Timeline, text_copies
from .draw import (
    BLUE,
    BLUISH_GREEN,
    GREY,
    Drawing,
    add_boxes,
    label_lines,
    makes_line,
    new_digraph,
)
from .i18n import N_, _, ngettext

# Classes on the boxes and arrows of the picture, k being a step (1 = the first):
RAN = "mg-fwd-ran-{}"  # the node step k runs: the current node in frame k, done after
CARRIES = "mg-fwd-carries-{}"  # an arrow with a tangent written on it from step k on
READS = "mg-fwd-reads-{}"  # an arrow whose tangent step k reads (an input's)
SENDS = "mg-fwd-sends-{}"  # an arrow step k's tangent leaves along
SHAPES = ":is(ellipse, polygon, path, polyline)"  # what a box is drawn with

# Tangents travel forward, as the values do: drawn in blue, the current step's in vermillion.
TANGENT_COLOUR = BLUE
NOW_COLOUR = "#D55E00"

_NOT_YET = "—"
_INPUT = N_("input")  # an input without a name


def note() -> Markup:
    """How to step, and what the arrows and boxes show (the picture's legend)."""
    legend = html(
        _(
            "<b>→</b> forward: how the values were computed, and the tangents with them "
            "({tangent_arrow} on an arrow: the tangent it carries; red for this step). A box "
            "reads <b>value + tangent·ε</b>, a dual number (ε² = 0)."
        ),
        tangent_arrow=html('<b style="color: {}">→ ṫ·ε</b>', TANGENT_COLOUR),
    )
    return stepper_note(legend)


def _as_tuple(value: Tensor | Sequence[Tensor], what: str) -> tuple[Tensor, ...]:
    items = (value,) if isinstance(value, (Tensor, int, float)) else tuple(value)
    for item in items:
        if not isinstance(item, Tensor):
            raise TypeError(
                _(
                    "ForwardStepper: {what} must be a Tensor or a tuple of Tensors, got {type}"
                ).format(what=what, type=type(item).__name__)
            )
    return items


class ForwardStepper(SteppedPicture):
    """Step through the forward-mode pass of ``func(*inputs)`` along ``tangents``.

    ``inputs`` is a Tensor or a tuple of Tensors, each with ``requires_grad=True`` (the
    pass records its backward graph, which the stepper draws); ``tangents`` holds one
    tangent per input, of its shape: the direction the inputs move in. ``func`` returns one
    Tensor. The result's tangent is the Jacobian-vector product ``J·v``, the directional
    derivative of ``func`` along the tangents: one forward pass per direction.

    ``names`` names tensors for the picture (``{"x": x}``); the inputs' names are found in
    the caller's variables, as ``widgets.draw`` does; ``output_name`` names the result.
    ``stepper.steps`` holds the records (``minigrad.engine.ForwardStep``),
    ``stepper.value`` and ``stepper.tangent`` the result's value and tangent.

    >>> import minigrad as mg
    >>> x = mg.tensor(2.0, requires_grad=True)
    >>> w = mg.tensor(3.0, requires_grad=True)
    >>> stepper = ForwardStepper(lambda x, w: x * w + x, (x, w), (mg.tensor(1.0), mg.tensor(0.0)))
    >>> [record.name for record in stepper.steps]
    ['MulBackward0', 'AddBackward0']
    >>> stepper.tangent  # ∂(x·w + x)/∂x = w + 1
    tensor(4.)
    """

    def __init__(
        self,
        func: Callable[..., Tensor],
        inputs: Tensor | Sequence[Tensor],
        tangents: Tensor | Sequence[Tensor],
        names: Mapping[str, Tensor] | None = None,
        output_name: str = "output",
        rankdir: str = "LR",
        max_nodes: int = 60,
    ) -> None:
        if not callable(func):
            raise TypeError(
                _("ForwardStepper needs a function, got {type}").format(type=type(func).__name__)
            )
        self.inputs = _as_tuple(inputs, "inputs")
        self.tangents = _as_tuple(tangents, "tangents")
        if len(self.inputs) != len(self.tangents):
            raise ValueError(
                _(
                    "ForwardStepper needs one tangent per input: {inputs} inputs, {tangents} "
                    "tangents"
                ).format(inputs=len(self.inputs), tangents=len(self.tangents))
            )
        for i, (primal, tangent) in enumerate(zip(self.inputs, self.tangents)):
            if not primal.requires_grad:
                raise ValueError(
                    _(
                        "ForwardStepper: input {index} needs requires_grad=True, so that the "
                        "pass records the graph the stepper draws"
                    ).format(index=i)
                )
            if tuple(tangent.shape) != tuple(primal.shape):
                raise ValueError(
                    _(
                        "ForwardStepper: tangent {index} has shape {tangent}, but its input has "
                        "shape {shape}"
                    ).format(index=i, tangent=tuple(tangent.shape), shape=tuple(primal.shape))
                )
        self.names = _graph.merge_names(_graph.caller_names(sys._getframe(1)), names)

        # The pass: dual numbers in, the function once, every record kept.
        with forward_ad.dual_level():
            self.duals = tuple(
                forward_ad.make_dual(primal, tangent)
                for primal, tangent in zip(self.inputs, self.tangents)
            )
            with forward_ad.record_steps() as records:
                result = func(*self.duals)
            if not isinstance(result, Tensor):
                raise TypeError(
                    _("ForwardStepper: func must return one Tensor, got {type}").format(
                        type=type(result).__name__
                    )
                )
            value, tangent = forward_ad.unpack_dual(result)
        self.output = result
        self.value = value.detach()
        # Detached, as the records are: the numbers, without the graph behind them.
        self.tangent: Tensor | None = None if tangent is None else tangent.detach()

        self.names[id(result)] = (one_line(output_name), result)
        # A dual input is named as its input is.
        for primal, dual in zip(self.inputs, self.duals):
            name = _graph.name_of(self.names, primal)
            if name is not None and dual is not primal:
                self.names.setdefault(id(dual), (name, dual))
        self.graph = _graph.build_graph(
            [result], self.names, include_grad_graphs=False, max_nodes=max_nodes
        )
        if self.graph.elided:
            raise ValueError(too_many_nodes(len(self.graph.id_of) + self.graph.elided, max_nodes))
        # The records of ops on the way to the result, in the order they ran. (An op whose
        # result the function did not use is not in the picture.)
        self.steps: list[ForwardStep] = [
            record for record in records if record.node in self.graph.id_of
        ]
        # What each node saved, for the local derivatives in numbers.
        self.saved = {node: _local.read_saved(node) for node in self.graph.id_of}

        self.scope = new_scope()
        frames = _ForwardFrames(self)
        drawing = frames.drawing(rankdir)
        self.dot = drawing.source
        self.titles = drawing.titles
        self.text_copies = text_copies(frames.texts)
        self.frames = frames.frames()
        self.picture_style = frames.style()
        self._fallback = (frames.summary(), frames.end_drawing(rankdir).source)
        self._build_controls(join([stylesheet(self.picture_style), note()]))

    @property
    def current(self) -> ForwardStep | None:
        """The record of the step shown last, ``None`` before the first step."""
        return super().current


def tangent_line(value: str) -> str:
    """A box's line for its tangent (``tangent 1.``), in the widgets' language."""
    return _("tangent {value}").format(value=value)


def dual_text(value: str, tangent: str) -> str:
    """A dual number as the picture writes it.

    >>> dual_text("2.", "1.")
    '2. + 1.·ε'
    >>> dual_text("[1., 2.]", "[0., -1.]")
    '[1., 2.] + [0., -1.]·ε'
    """
    return f"{value} + {tangent}·ε"


class _ForwardFrames:
    """The picture and frames of one ``ForwardStepper``: what every box and arrow shows
    after ``k`` steps, as classes on one picture and one stylesheet over them."""

    def __init__(self, stepper: ForwardStepper) -> None:
        self.stepper = stepper
        self.graph: Graph = stepper.graph
        self.steps = stepper.steps
        graph = self.graph
        self.output_box = graph.nodes["t0"]
        self.position_of = {step.node: k for k, step in enumerate(self.steps, 1)}
        self.step_of = {step.node: step for step in self.steps}
        # The make_dual boxes: a dual input's node, and the tangent given for it.
        self.dual_tangent: dict[str, Tensor] = {}
        self.dual_input: dict[str, Tensor] = {}
        for primal, dual, tangent in zip(stepper.inputs, stepper.duals, stepper.tangents):
            if dual.grad_fn is not None and dual.grad_fn in graph.id_of:
                box_id = graph.id_of[dual.grad_fn]
                self.dual_tangent[box_id] = tangent
                self.dual_input[box_id] = primal
        self.leaf_tangent: dict[str, Tensor] = {}
        for box in graph.nodes.values():
            if box.kind == LEAF and box.tensor is not None:
                for primal, tangent in zip(stepper.inputs, stepper.tangents):
                    if primal is box.tensor:
                        self.leaf_tangent[box.id] = tangent
        # What each arrow carries, and from which step: (position, tangent). An arrow out
        # of a node that runs carries that node's output tangent from its step; an arrow out
        # of a make_dual box carries the given tangent from the start; an arrow out of a
        # box that does not run (an AccumulateGrad) carries what the step reading it read.
        self.edge_tangent: dict[str, tuple[int, Tensor]] = {}
        self.classes: dict[str, list[str]] = {
            f"mg-{element}": [] for element in [*graph.nodes, *(e.id for e in graph.edges)]
        }
        box_of_node = {box_id: node for node, box_id in graph.id_of.items()}
        for edge in graph.edges:
            tail_node = box_of_node.get(edge.tail)
            if edge.tail in self.dual_tangent:
                self.edge_tangent[edge.id] = (0, self.dual_tangent[edge.tail])
            elif tail_node is not None and tail_node in self.step_of:
                step = self.step_of[tail_node]
                if step.output_tangent is not None:
                    position = self.position_of[tail_node]
                    self.edge_tangent[edge.id] = (position, step.output_tangent)
                    self.classes[f"mg-{edge.id}"].append(SENDS.format(position))
        for k, step in enumerate(self.steps, 1):
            head = graph.id_of[step.node]
            self.classes[f"mg-{head}"].append(RAN.format(k))
            for edge in graph.edges:
                if edge.head != head or edge.input_index >= len(step.input_tangents):
                    continue
                self.classes[f"mg-{edge.id}"].append(READS.format(k))
                tangent = step.input_tangents[edge.input_index]
                if edge.id not in self.edge_tangent and tangent is not None:
                    self.edge_tangent[edge.id] = (k, tangent)
        for edge_id, (k, _tangent) in self.edge_tangent.items():
            self.classes[f"mg-{edge_id}"].append(CARRIES.format(k))
        self.constant = {
            (e.head, e.input_index): graph.nodes[e.tail]
            for e in graph.edges
            if graph.nodes[e.tail].kind == CONSTANT and graph.nodes[e.tail].tensor is not None
        }
        self.input_box = {(e.head, e.input_index): e.tail for e in graph.edges}
        self._label_lines = {
            box.id: label_lines(box, show_grads=False) for box in graph.nodes.values()
        }

    # -- texts ---------------------------------------------------------------------------
    def short(self, tensor: Tensor | None) -> str:
        return "None" if tensor is None else short_value(tensor)

    def code(self, tensor: Tensor | None) -> Markup:
        """The panel's HTML for a value, as ``print`` shows it."""
        if tensor is None:
            return html("<code>None</code>")
        text = full_value(tensor)
        if "\n" in text:
            return html('<pre style="margin:2px 0">{}</pre>', text)
        return html("<code>{}</code>", text)

    def name(self, box_id: str) -> str:
        """What a box is called in the panel: its tensor's name, or its node's."""
        box = self.graph.nodes[box_id]
        if box_id in self.dual_input:
            primal = self.dual_input[box_id]
            return f"make_dual({_graph.name_of(self.stepper.names, primal) or _(_INPUT)}, …)"
        if box.produced_name:
            return _("{node} (makes {tensor})").format(node=box.title, tensor=box.produced_name)
        return box.title

    def box_lines(self, box: GraphNode, position: int) -> list[str]:
        """What ``box`` reads after ``position`` steps."""
        lines = list(self._label_lines[box.id])
        if box.id in self.dual_input:
            primal, tangent = self.dual_input[box.id], self.dual_tangent[box.id]
            name = _graph.name_of(self.stepper.names, primal) or _(_INPUT)
            return ["make_dual", f"{name} = " + dual_text(self.short(primal), self.short(tangent))]
        if box.id in self.leaf_tangent:
            return [*lines, tangent_line(self.short(self.leaf_tangent[box.id]))]
        if box.kind == OUTPUT:
            step = self.step_of.get(box.tensor.grad_fn) if box.tensor is not None else None
            done = step is not None and self.position_of[step.node] <= position
            return [*lines, tangent_line(self.short(step.output_tangent) if done else _NOT_YET)]
        if box.kind == OP and box.node is not None and not isinstance(box.node, AccumulateGrad):
            step = self.step_of.get(box.node)
            if step is None:
                return lines
            if box.produced is not None:  # the static drawing's line, with its value
                lines = [line for line in lines if line != makes_line(box)]
            if box.produced_name:
                lines.append(makes_line(box, show_values=False))
            if self.position_of[box.node] <= position:
                lines.append(dual_text(self.short(step.output), self.short(step.output_tangent)))
            else:
                lines.append(_NOT_YET)
        return lines

    def text_positions(self, box: GraphNode) -> list[int]:
        positions = [0]
        if box.node is not None and box.node in self.position_of:
            positions.append(self.position_of[box.node])
        if box.kind == OUTPUT and box.tensor is not None and box.tensor.grad_fn in self.position_of:
            positions.append(self.position_of[box.tensor.grad_fn])
        return positions

    # -- the picture ---------------------------------------------------------------------
    def drawing(self, rankdir: str) -> Drawing:
        """The graph to lay out, each box as wide as the widest text it will show."""
        self.texts: dict[str, list[Timeline]] = {}
        widest = {}
        for box in self.graph.nodes.values():
            positions = self.text_positions(box)
            columns = list(zip(*(self.box_lines(box, k) for k in positions)))
            self.texts[f"mg-{box.id}"] = [timeline(zip(positions, c)) for c in columns]
            widest[box.id] = [max(column, key=width) + " " for column in columns]
        for edge, (when, tangent) in self.edge_tangent.items():
            words = f"{self.short(tangent)}·ε"
            # An arrow out of a make_dual box carries its tangent from the start (when = 0).
            self.texts[f"mg-{edge}"] = [timeline([(0, "")] * (when > 0) + [(when, words)])]
        edge_labels = {e: f" {self.short(t)}·ε " for e, (_, t) in self.edge_tangent.items()}
        drawing = new_digraph(rankdir)
        add_boxes(drawing, self.graph, widest, edge_labels, edge_color=GREY, classes=self.classes)
        return drawing

    def end_drawing(self, rankdir: str) -> Drawing:
        """The graph as the pass leaves it, every tangent written (for viewers without
        widgets)."""
        last = len(self.steps)
        labels = {box.id: self.box_lines(box, last) for box in self.graph.nodes.values()}
        edge_labels = {e: f" {self.short(t)}·ε " for e, (_, t) in self.edge_tangent.items()}
        drawing = new_digraph(rankdir)
        add_boxes(drawing, self.graph, labels, edge_labels, edge_color=TANGENT_COLOUR)
        return drawing

    def style(self) -> str:
        """The picture's one stylesheet, for every frame: nodes run so far green, this
        step's red; arrows with a tangent on them blue, this step's red; the texts written
        so far shown. It styles the classes the front end marks for the position shown
        (``mg-fwd-ran-past`` for every ``mg-fwd-ran-k`` before it, ``-now`` for its own,
        ``-reached`` for both; see ``widgets.stepper``), so its size does not grow with the
        graph. The inputs' tangents are there from the start (``mg-fwd-carries-0``)."""
        scope = f".{self.stepper.scope}"
        green, red, blue = BLUISH_GREEN, NOW_COLOUR, TANGENT_COLOUR
        on = "." + CARRIES.format("reached")
        now = f":is(.{READS.format('now')}, .{SENDS.format('now')})"
        rules = [
            (f"{on} > path", f"stroke: {blue}; stroke-width: 1.6px"),
            (f"{on} > polygon", f"fill: {blue}; stroke: {blue}"),
            (f"{on} > text", f"fill: {blue}"),
            (f".{RAN.format('past')} > {SHAPES}", f"stroke: {green}; stroke-width: 2.5px"),
            (f".{RAN.format('now')} > {SHAPES}", f"stroke: {red}; stroke-width: 4px"),
            (f"{now} > path", f"stroke: {red}; stroke-width: 3px"),
            (f"{now} > polygon", f"fill: {red}; stroke: {red}"),
            (f"{now} > text", f"fill: {red}"),
            (f"text.{SHOWN_FROM.format('reached')}", "display: inline"),
            (f"text.{SHOWN_UNTIL.format('reached')}", "display: none"),
        ]
        return "\n".join(f"{scope} {selector} {{ {what} }}" for selector, what in rules)

    # -- the panel -----------------------------------------------------------------------
    def panel(self, position: int) -> Markup:
        total = len(self.steps)
        out = self.output_box.title
        if position == 0:
            duals = join(
                (
                    html(
                        "<code>{}</code>",
                        f"{self.input_name(box_id)} = "
                        + dual_text(
                            self.short(self.dual_input[box_id]),
                            self.short(self.dual_tangent[box_id]),
                        ),
                    )
                    for box_id in self.dual_input
                ),
                ", ",
            )
            lines = [
                html(
                    ngettext(
                        "<b>Before the forward pass</b> of <code>{out}</code>: {count} step. "
                        "Each input is a dual number, value + tangent·ε: {duals}.",
                        "<b>Before the forward pass</b> of <code>{out}</code>: {count} steps. "
                        "Each input is a dual number, value + tangent·ε: {duals}.",
                        total,
                    ),
                    out=out,
                    count=total,
                    duals=duals,
                ),
                _(
                    "Each step runs one op on the values and carries the tangents through it: "
                    "the tangent of its result is the sum, over its inputs, of local derivative "
                    "× that input's tangent."
                ),
            ]
            return panel(lines, position, colour=TANGENT_COLOUR)
        step = self.steps[position - 1]
        head = self.graph.id_of[step.node]
        lines = [
            html(
                _("<b>Step {position} of {total}: {node}</b>"),
                position=position,
                total=total,
                node=self.name(head),
            )
        ]
        lines.append(
            html(
                _("Forward derivative: <code>{formula}</code>"),
                formula=op_formula(step.formula) or _("(not given)"),
            )
        )
        lines.append(self.reads(step, head))
        lines.append(self.worked_out(step))
        lines.append(
            html(
                _("Its result: {value}, tangent {tangent}; the dual number <code>{dual}</code>."),
                value=self.code(step.output),
                tangent=self.code(step.output_tangent),
                dual=dual_text(self.short(step.output), self.short(step.output_tangent)),
            )
        )
        if position == total:
            lines.append(
                html(
                    _(
                        "<b>Done</b>: the tangent of <code>{out}</code>, {tangent}, is the "
                        "derivative of the function along the input tangents (a Jacobian-vector "
                        "product J·v), found in the same single pass as the value."
                    ),
                    out=out,
                    tangent=self.code(self.stepper.tangent),
                )
            )
        return panel(lines, position, head, colour=TANGENT_COLOUR)

    def input_name(self, box_id: str) -> str:
        return _graph.name_of(self.stepper.names, self.dual_input[box_id]) or _(_INPUT)

    def reads(self, step: ForwardStep, head: str) -> Markup:
        """Each input's value and tangent, as the record has them."""
        items = []
        for i, (value, tangent) in enumerate(zip(step.inputs, step.input_tangents)):
            source = self.input_box.get((head, i))
            whence = "" if source is None else _(" (from {node})").format(node=self.name(source))
            if tangent is None:
                items.append(
                    html(
                        _(
                            "<li>input {index}{whence}: {value}, no tangent: a constant, its "
                            "tangent is 0</li>"
                        ),
                        index=i,
                        whence=whence,
                        value=self.code(value),
                    )
                )
            else:
                items.append(
                    html(
                        _("<li>input {index}{whence}: {value} with tangent {tangent}</li>"),
                        index=i,
                        whence=whence,
                        value=self.code(value),
                        tangent=self.code(tangent),
                    )
                )
        return html(
            _("Its inputs, value and tangent (dual numbers in):<ul>{items}</ul>"),
            items=join(items),
        )

    def worked_out(self, step: ForwardStep) -> Markup:
        """Σ local derivative × input tangent, in numbers, = the record's output tangent.
        The number after ``=`` is the record's, never a sum made here."""
        result = (
            _local.number(step.output_tangent.detach().numpy())
            if step.output_tangent is not None
            else "None"
        )
        locals_ = _local.local_derivatives(step.node, self.stepper.saved.get(step.node, {}))
        terms = []
        for i, tangent in enumerate(step.input_tangents):
            if tangent is None:
                continue
            local = locals_[i] if i < len(locals_) else None
            if local is None or local.value is None:
                return html(
                    _("Tangent out: <code>{tangent}</code>"), tangent=result.replace("-", "−")
                )
            factor = _local.number(local.value)
            terms.append(f"{factor} × {_local.number(tangent.detach().numpy())}")
        if not terms:
            return html(_("Tangent out: <code>{tangent}</code>"), tangent=result.replace("-", "−"))
        sum_text = " + ".join(terms) + f" = {result}"
        derivatives = join(
            (html("<code>{}</code>", local.text()) for local in locals_ if local is not None),
            ", ",
        )
        return html(
            _(
                "Local derivatives {derivatives}; tangent out = Σ local derivative × tangent in: "
                "<code>{sum}</code>"
            ),
            derivatives=derivatives,
            sum=sum_text.replace("-", "−"),
        )

    # -- everything ----------------------------------------------------------------------
    def summary(self) -> str:
        """The pass in words, a line per step."""
        lines = []
        for k, step in enumerate(self.steps, 1):
            head = self.graph.id_of[step.node]
            dual = dual_text(self.short(step.output), self.short(step.output_tangent))
            lines.append(
                _("step {number}: {node}: {dual}").format(number=k, node=self.name(head), dual=dual)
            )
        return "\n".join(lines)

    def frames(self) -> list[Markup]:
        """Each frame: its panel (the picture's one stylesheet is ``style``)."""
        return [
            html('<div class="{}" data-position="{}">{}</div>', FRAME_CLASS, k, self.panel(k))
            for k in range(len(self.steps) + 1)
        ]
