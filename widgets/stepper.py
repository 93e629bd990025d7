"""``BackwardStepper``: watch a backward pass one node at a time.

>>> import minigrad as mg
>>> from widgets import BackwardStepper
>>> x = mg.tensor(2.0, requires_grad=True)
>>> y = x * x
>>> stepper = BackwardStepper(y)  # runs y.backward() now and keeps every step
>>> x.grad                        # exactly as after y.backward()
tensor(4.)
>>> stepper.num_steps, stepper.position, stepper.current
(2, 0, None)
>>> stepper.step(); stepper.current.node.name()
'MulBackward0'
>>> stepper.run(); stepper.current.grad_after
tensor(4.)

How it works. At construction the stepper runs ONE ``minigrad.engine.BackwardPass`` to its
end with ``snapshot=True``, keeping every ``Step`` the engine reports. So the tensors are
then exactly as after ``output.backward(gradient, retain_graph, create_graph)``: the same
``.grad`` values, the same freed (or retained) graph. No gradient is computed here: every
number shown comes from the engine's step records.

Graphviz lays the graph out once, in the browser, into one picture for the whole pass
(``widgets._svg``, ``widgets._browser``): its boxes and arrows carry classes naming the
steps they take part in, and each line of text holds every text it will show. The
picture's ``position`` is jslinked to the position slider: the front end marks the classes
of the steps reached (``mg-ran-3`` gets ``mg-ran-past`` once step 3 is done), and one
stylesheet, the same for every position, colours the marked classes and shows their texts;
so what a notebook stores grows linearly with the graph. Frame ``k`` (0 = before any step)
is a panel of text, prepared in Python. The frames sit in a ``Stack``, which shows only
the selected one; its ``selected_index`` is jslinked to the same slider, itself jslinked
to a ``Play``. So the slider and Play
step through the pass in the browser with no kernel, e.g. in an HTML export of the
notebook. Play's ■ button is a kernel-free reset, and the slider takes the arrow keys,
Home and End. The reset, back, step and run buttons are drawn by the browser too
(``widgets._controls.SliderButtons``): they move the same slider, so no control of the
stepper needs a kernel, and each is enabled exactly when it would move it.

The panel works each local derivative out in numbers (``widgets._local``): the values the
node saved, read before the pass frees them, put into its formula; then the gradient that
arrived × that number = what was sent, the last number being the engine's record. A box
whose tensor the pass changes in place (``x.grad`` drawn as a box while ``x`` accumulates
into it) reads its value as of each frame. Arrows with a gradient on them are drawn dashed
with their arrowhead at the input end: gradients flow against the forward arrows.

Your own gradients beside the engine's (``yours=``, ``widgets._yours``): a backward pass
written by hand gives a gradient for each named tensor, ``yours={"h": dh, "W1": dW1}``. At
the step that receives a tensor's gradient, the panel shows yours beside the engine's record
of it and says whether they are the same exactly, within rounding (``rtol``, ``atol``, as
``torch.allclose``), or differ, and where by the most; from that step on, the tensor's box is
filled green (✔ same, ≈ close) or vermillion (✘ differs), with the symbol written in it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from minigrad import Tensor
from minigrad.engine import BackwardPass, Step
from minigrad.function import AccumulateGrad, Node, short_name
from minigrad.graph import nodes as graph_nodes

from . import _graph, _local, _yours, protocol
from ._formulas import op_formula
from ._graph import (
    CONSTANT,
    GRAD_TENSOR,
    LEAF,
    OP,
    OUTPUT,
    Graph,
    GraphNode,
    full_value,
    short_value,
)
from ._markup import Markup, html, join, stylesheet
from ._stepping import (
    FRAME_CLASS,
    LEGEND_CLASS,
    NOTE_CLASS,
    PANEL_CLASS,
    PICTURE_CLASS,
    PLAY_CLASS,
    SteppedPicture,
    new_scope,
    stepper_note,
    too_many_nodes,
)
from ._stepping import panel as _panel
from ._stepping import timeline as _timeline
from ._stepping import width as _width
from ._svg import SHOWN_FROM, SHOWN_UNTIL, Timeline, text_copies
from ._yours import CLOSE, DIFFERS, EXACT, SYMBOL, GradientCheck, difference_text
from .draw import (
    BLUISH_GREEN,
    GREY,
    VERMILLION,
    Drawing,
    add_boxes,
    label_lines,
    new_digraph,
    saved_tensors_freed,
    value_line,
)
from .i18n import N_, _, ngettext

# Re-exported: the classes browser tests and stylesheets look for.
__all__ = [
    "FRAME_CLASS",
    "PANEL_CLASS",
    "PICTURE_CLASS",
    "PLAY_CLASS",
    "NOTE_CLASS",
    "LEGEND_CLASS",
    "BackwardStepper",
]
YOURS_LEGEND_CLASS = "minigrad-yours-legend"

_NO_GRAD_YET = "grad —"
_NOT_COMPARED_YET = N_("yours —")

# Light tints of the palette's green and vermillion: a box whose gradient you wrote by hand,
# once the pass has reached it. Its text says the same with a symbol (see _yours.SYMBOL).
AGREE_FILL = "#C4E8DC"
DIFFER_FILL = "#F6CDB3"

# Classes on the boxes and arrows of the picture, k being a step (1 = the first):
RAN = "mg-ran-{}"  # the node step k runs: the current node in frame k, done after
LEAF_UPDATED = "mg-leaf-{}"  # the leaf whose .grad step k changes
CARRIES = "mg-carries-{}"  # an arrow with a gradient on it from step k on
SENT = "mg-sent-{}"  # an arrow step k sends a gradient along
ARRIVES = "mg-arrives-{}"  # an arrow a gradient arriving at step k came by
AGREES = "mg-agrees-{}"  # a box whose gradient you wrote, found to agree at step k
DIFFERS_AT = "mg-differs-{}"  # a box whose gradient you wrote, found to differ at step k
FREED_AT_END = "mg-freed"  # a node whose saved tensors the pass frees (once it has run)
SHAPES = ":is(ellipse, polygon, path, polyline)"  # what a box is drawn with


def kernel_note() -> Markup:
    """How to step, and which way the arrows point (the picture's legend)."""
    legend = html(
        _(
            "<b>→</b> forward: how the values were computed; {backward_arrow} backward: where "
            "the gradients flow (dashed, arrowhead at the input: red for this step, green for "
            "earlier ones)"
        ),
        backward_arrow=html('<b style="color: {}">⇠</b>', VERMILLION),
    )
    return stepper_note(legend)


class BackwardStepper(SteppedPicture):
    """Step through ``output.backward(gradient, retain_graph, create_graph)``.

    ``retain_graph=None`` means "as ``backward`` decides": keep the graph only when
    ``create_graph`` is set. ``names`` overrides the names taken from the caller's
    variables, as in ``widgets.draw``; ``model=net`` names the parameters of a
    ``minigrad.nn.Module`` as ``net.named_parameters()`` does (``fc1.weight``). Stepping
    through ``x.grad.backward()``, pass the forward result as ``originals=[y]`` so that only
    the nodes ``create_graph`` made are coloured as derivative nodes.

    ``output`` may also be a value of an engine of your own (``widgets.protocol``): the
    stepper then calls its ``backward()`` and shows the steps that returns.

    ``yours`` holds gradients you worked out by hand, by the name of their tensor (a name
    from your variables or from ``names``): ``yours={"h": dh, "W1": dW1}``, each a Tensor or
    numpy array of the tensor's shape. At the step that receives a tensor's gradient, the
    panel shows yours beside the engine's and whether they are the same exactly, close
    (every element within ``atol + rtol × |engine's|``, as ``torch.allclose`` decides) or
    different, with the largest difference; the tensor's box says it too (✔ same, ≈ close,
    ✘ differs) and is filled green or vermillion. ``stepper.checks`` holds each comparison
    (``widgets._yours.GradientCheck``) by name, in step order. The engine's side is its step
    record; the stepper computes no gradient of its own.

    >>> import minigrad as mg
    >>> x = mg.tensor([1.0, -2.0], requires_grad=True)
    >>> h = x * 3
    >>> y = (h**2).sum()
    >>> dh = 2 * h.detach()
    >>> dx = dh  # forgot the local derivative 3 of h = x * 3
    >>> stepper = BackwardStepper(y, yours={"h": dh, "x": dx})
    >>> [(name, check.verdict) for name, check in stepper.checks.items()]
    [('h', 'exact'), ('x', 'differs')]
    """

    def __init__(
        self,
        output: Tensor,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        names: Mapping[str, Tensor] | None = None,
        rankdir: str = "LR",
        max_nodes: int = 60,
        originals: Sequence[Tensor] = (),
        yours: Mapping[str, Any] | None = None,
        rtol: float = 1e-05,
        atol: float = 1e-08,
        model: Any = None,
    ) -> None:
        self.checks: dict[str, GradientCheck] = {}
        if not isinstance(output, Tensor):
            if not protocol.is_node(output):
                raise TypeError(
                    _(
                        "BackwardStepper needs a Tensor, got {type} (or a value of an engine of "
                        "your own: see widgets.protocol)"
                    ).format(type=type(output).__name__)
                )
            # An engine of one's own: its graph, and the steps its backward() reports.
            if (
                gradient is not None
                or retain_graph
                or create_graph
                or originals
                or yours
                or model is not None
            ):
                raise ValueError(
                    _(
                        "gradient, retain_graph, create_graph, originals, yours and model are "
                        "for minigrad tensors: an engine of your own runs its backward() as it "
                        "is written"
                    )
                )
            protocol.check_nodes([output], "BackwardStepper")
            self.output, self.retain_graph, self.create_graph = output, False, False
            frame, nodes = sys._getframe(1), graph_nodes([output])
            self.names = protocol.caller_names(frame, nodes, names or {})
            self.graph = protocol.build_graph([output], self.names, max_nodes)
            self._refuse_large_graph(max_nodes)
            # Nothing saved to substitute into formulas, and no box whose value the pass
            # changes: the student's values hold numbers, and their grads show in the steps.
            self.saved, self.values_before = {}, {}
            self.steps = protocol.record_steps(output, self.graph)
            self._freed_at_end = set()
            self._draw(rankdir)
            return
        self.output = output
        self.names = _graph.merge_names(_graph.caller_names(sys._getframe(1)), names, model)
        # The picture is taken before the pass: which nodes there are does not change.
        self.graph = _graph.build_graph(
            [output],
            self.names,
            include_grad_graphs=False,
            max_nodes=max_nodes,
            originals=originals,
        )
        self._refuse_large_graph(max_nodes)
        # Your gradients are matched to the graph before the pass, so that a wrong name or
        # shape stops here and leaves every .grad as it was.
        wanted = [] if yours is None else _yours.match(yours, self.names, set(self.graph.id_of))
        grad_outputs = None if gradient is None else [gradient]
        backward_pass = BackwardPass(
            [output],
            grad_outputs,
            retain_graph=retain_graph,
            create_graph=create_graph,
            snapshot=True,
        )
        self.retain_graph = backward_pass.retain_graph
        self.create_graph = backward_pass.create_graph
        several = [short_name(n) for n in self.graph.id_of if getattr(n, "num_outputs", 1) > 1]
        if several:
            raise NotImplementedError(
                _(
                    "BackwardStepper steps through nodes with one output; {node} has several (a "
                    "Function returning a tuple): draw it with widgets.draw(...)"
                ).format(node=several[0])
            )
        # What each node saved and each box's value, read before the pass frees or changes
        # them: the panel substitutes the saved values into the local derivatives.
        self.saved = {node: _local.read_saved(node) for node in self.graph.id_of}
        self.values_before = _graph.values_of(self.graph)
        self.steps: list[Step] = list(backward_pass)
        self._freed_at_end = {step.node for step in self.steps if step.released}
        if yours is not None:
            self.checks = _yours.compare(wanted, self.steps, rtol, atol)
        self._draw(rankdir)

    def _refuse_large_graph(self, max_nodes: int) -> None:
        if self.graph.elided:
            raise ValueError(too_many_nodes(len(self.graph.id_of) + self.graph.elided, max_nodes))

    def _draw(self, rankdir: str) -> None:
        """The picture, its frames and the controls, from ``self.graph`` and ``self.steps``."""
        self.scope = new_scope()
        frames = _Frames(self)
        # The picture: the DOT text, with the classes the frames style and the texts they
        # show, which Graphviz lays out once, in the browser.
        drawing = frames.drawing(rankdir)
        self.dot = drawing.source
        self.titles = drawing.titles
        self.text_copies = text_copies(frames.texts)
        self.frames = frames.frames()
        self.picture_style = frames.style()
        # For viewers without widgets: the graph after the pass, and the pass in words.
        self._fallback = (frames.summary(), frames.end_drawing(rankdir).source)
        self._build_controls()

    # -- the state, for scripts and tests ---------------------------------------------------
    @property
    def current(self) -> Step | None:
        """The engine's record of the step shown last, ``None`` before the first step."""
        return super().current

    def run(self) -> None:
        """Jump to the end: every ``.grad`` as ``backward()`` left it."""
        self.position = self.num_steps

    # -- the widgets ------------------------------------------------------------------------
    def _build_controls(self) -> None:  # type: ignore[override]
        picture_style = stylesheet(self.picture_style)
        super()._build_controls(join([picture_style, kernel_note(), _yours_legend(self.checks)]))


class _Frames:
    """The picture and frames of one stepper: what every box and arrow shows after ``k``
    steps.

    The picture is drawn once. Each box and arrow carries a class for each step it takes
    part in (its node runs, its leaf is updated, a gradient travels along it); one
    stylesheet (``style``) colours those of the steps reached, as the front end marks them
    for the position shown; frame ``k`` is a panel of text. Each
    number is written as text once, however many frames show it.
    """

    def __init__(self, stepper: BackwardStepper) -> None:
        self.stepper = stepper
        self.graph: Graph = stepper.graph
        self.steps = stepper.steps
        graph = self.graph
        self.step_of: dict[Node, Step] = {step.node: step for step in self.steps}
        self.position_of: dict[Node, int] = {step.node: step.index + 1 for step in self.steps}
        self.output_box = graph.nodes["t0"]
        tail_into = {edge.head: edge.tail for edge in reversed(graph.edges)}  # the first one
        self.leaf_box = {
            box.node: tail_into[box.id]
            for box in graph.nodes.values()
            if isinstance(box.node, AccumulateGrad)
        }
        # Which arrow each gradient travels along. Arrows point forward (input -> user),
        # so the gradient a node sends to its input i goes back along (input -> node, i).
        self.arrow = {(e.tail, e.head, e.input_index): e.id for e in graph.edges}
        self.arrow_head = {e.id: e.head for e in graph.edges}
        self.arrows_between: dict[tuple[str, str], list[str]] = {}
        for e in graph.edges:
            self.arrows_between.setdefault((e.tail, e.head), []).append(e.id)
        # The constant input i of a box, when the drawing knows its value: (box id, i) -> box.
        self.constant = {
            (e.head, e.input_index): graph.nodes[e.tail]
            for e in graph.edges
            if graph.nodes[e.tail].kind == CONSTANT and graph.nodes[e.tail].tensor is not None
        }
        self.edge_grad: dict[str, tuple[int, Tensor]] = {}  # arrow -> (position, gradient)
        for step in self.steps:
            head = graph.id_of[step.node]
            for i, ((child, _slot), grad) in enumerate(
                zip(step.node.next_functions, step.grads_out, strict=False)
            ):
                if child is not None and grad is not None and child in graph.id_of:
                    self.edge_grad[self.arrow[(graph.id_of[child], head, i)]] = (
                        step.index + 1,
                        grad,
                    )
            if isinstance(step.node, AccumulateGrad):
                leaf_arrow = self.arrow[(self.leaf_box[step.node], head, 0)]
                self.edge_grad[leaf_arrow] = (step.index + 1, step.grad_in)
            for sender, grad in step.contributions:
                if sender is None:  # the seed: it enters from the output box
                    self.edge_grad[self.arrow[(head, self.output_box.id, 0)]] = (1, grad)
        # The steps each box and arrow takes part in, as the picture's classes (see RAN and
        # the others above), the positions at which the text of a box may change, and what
        # each leaf's .grad holds along the pass: (position, .grad after that step).
        boxes_of = {id(box.tensor): box for box in graph.nodes.values() if box.tensor is not None}
        self.accumulations: dict[str, list[tuple[int, Step]]] = {}
        written_at: dict[int, list[str]] = {}
        for edge, (when, _grad) in self.edge_grad.items():
            written_at.setdefault(when, []).append(edge)
        self.classes: dict[str, list[str]] = {
            f"mg-{element}": [] for element in [*graph.nodes, *(e.id for e in graph.edges)]
        }
        self.text_changes: dict[str, list[int]] = {box_id: [0] for box_id in graph.nodes}
        for step in self.steps:
            position, head = step.index + 1, graph.id_of[step.node]
            self.classes[f"mg-{head}"].append(RAN.format(position))
            self.text_changes[head].append(position)
            if step.leaf is not None and id(step.leaf) in boxes_of:
                leaf = boxes_of[id(step.leaf)].id
                self.classes[f"mg-{leaf}"].append(LEAF_UPDATED.format(position))
                self.text_changes[leaf].append(position)
                self.accumulations.setdefault(leaf, []).append((position, step))
            for edge in written_at.get(position, []):
                self.classes[f"mg-{edge}"].append(CARRIES.format(position))
                if self.arrow_head[edge] == head:
                    self.classes[f"mg-{edge}"].append(SENT.format(position))
            for sender, _grad in step.contributions:
                target = self.output_box.id if sender is None else graph.id_of[sender]
                for edge in self.arrows_between.get((head, target), []):
                    self.classes[f"mg-{edge}"].append(ARRIVES.format(position))
        for node in stepper._freed_at_end:
            if node in graph.id_of:
                self.classes[f"mg-{graph.id_of[node]}"].append(FREED_AT_END)
        # Boxes showing a tensor the pass changes in place (x.grad, when it is drawn as a box
        # and x's AccumulateGrad adds into it): their value as of each step, from the
        # engine's records, else every frame would show the value after the pass.
        self.value_changes: dict[str, list[tuple[int, Tensor]]] = {}
        for box_id, before in stepper.values_before.items():
            tensor = graph.nodes[box_id].tensor
            if tensor is None or _graph.same_values(before, tensor):
                continue
            changes = [
                (step.index + 1, step.grad_after)
                for step in self.steps
                if step.leaf is not None
                and step.leaf.grad is tensor
                and step.grad_after is not None
            ]
            if changes:
                self.value_changes[box_id] = [(0, before), *changes]
                self.text_changes[box_id] = sorted(
                    {*self.text_changes[box_id], *(k for k, _ in changes)}
                )
        # Your gradients (yours=): each marks the box of its tensor from the step that
        # receives the tensor's gradient on (a leaf's own box, else the node that made it).
        self.check_at: dict[Node, GradientCheck] = {}
        self.check_box: dict[str, GradientCheck] = {}
        for check in stepper.checks.values():
            if isinstance(check.node, AccumulateGrad):
                box_id = self.leaf_box[check.node]
            else:
                box_id = graph.id_of[check.node]
            self.check_at[check.node] = check
            self.check_box[box_id] = check
            mark = AGREES if check.agrees else DIFFERS_AT
            self.classes[f"mg-{box_id}"].append(mark.format(check.position))
            self.text_changes[box_id] = sorted({*self.text_changes[box_id], check.position})
        self._short_texts: dict[int, tuple[Tensor, str]] = {}
        self._code_texts: dict[int, tuple[Tensor, Markup]] = {}
        self._label_lines = {box.id: label_lines(box) for box in graph.nodes.values()}

    # -- texts ---------------------------------------------------------------------------
    def short(self, tensor: Tensor | None) -> str:
        """``short_value``, written once per tensor (the tensor is kept, so is its id)."""
        if tensor is None:
            return "None"
        if id(tensor) not in self._short_texts:
            self._short_texts[id(tensor)] = (tensor, short_value(tensor))
        return self._short_texts[id(tensor)][1]

    def code(self, tensor: Tensor | None) -> Markup:
        """The panel's HTML for a value, as ``print`` shows it; written once per tensor."""
        if tensor is None:
            return html("<code>None</code>")
        if id(tensor) not in self._code_texts:
            text = full_value(tensor)
            if "\n" in text:
                html_text = html('<pre style="margin:2px 0">{}</pre>', text)
            else:
                html_text = html("<code>{}</code>", text)
            self._code_texts[id(tensor)] = (tensor, html_text)
        return self._code_texts[id(tensor)][1]

    def box_lines(self, box: GraphNode, position: int) -> list[str]:
        lines = list(self._label_lines[box.id])
        if box.id in self.value_changes and box.tensor is not None:
            now = [tensor for k, tensor in self.value_changes[box.id] if k <= position][-1]
            after_the_pass = value_line(short_value(box.tensor))
            lines = [
                value_line(self.short(now)) if line == after_the_pass else line for line in lines
            ]
        if box.kind == LEAF and box.tensor is not None:
            lines[-1] = "grad " + self.short(self.leaf_grad(box, position))
        elif box.kind == OP and box.node is not None and not isinstance(box.node, AccumulateGrad):
            lines = [line for line in lines if line != saved_tensors_freed()]
            done = self.position_of.get(box.node, self.stepper.num_steps + 1) <= position
            step = self.step_of.get(box.node)
            lines.append("grad " + self.short(step.grad_in) if done and step else _NO_GRAD_YET)
        check = self.check_box.get(box.id)
        if check is not None:
            lines.append(check.mark() if check.position <= position else _(_NOT_COMPARED_YET))
        return lines

    def leaf_grad(self, box: GraphNode, position: int) -> Tensor | None:
        """The leaf's ``.grad`` after ``position`` steps, from the engine's step records."""
        recorded = self.accumulations.get(box.id)
        if not recorded:  # no gradient reached it: its .grad is as it was before the pass
            return box.tensor.grad if box.tensor is not None else None
        grad = recorded[0][1].grad_before
        for when, step in recorded:
            if when > position:
                break
            grad = step.grad_after
        return grad

    # -- the looks -----------------------------------------------------------------------
    def style(self) -> str:
        """The picture's one stylesheet, for every frame. The front end marks the picture's
        step classes for the position shown (``static/graphviz_view.js``, ``showPosition``):
        ``mg-ran-3`` gets ``mg-ran-reached`` once 3 steps are shown, ``mg-ran-now`` at step 3
        and ``mg-ran-past`` after it. So the steps before the one shown are done (green), its
        own step is lit up (red), and the texts written so far are shown; before the first
        step no class is marked and the picture shows the state before the pass. The size
        of this does not grow with the graph (each frame restyling every earlier step's
        classes would make the frames grow with the square of the graph's size)."""
        scope = f".{self.stepper.scope}"
        green, red = BLUISH_GREEN, VERMILLION

        def reached(pattern: str, when: str = "reached") -> str:
            return "." + pattern.format(when)

        # An arrow with a gradient on it is drawn as the gradient goes: dashed, with its
        # arrowhead at the input end (the forward one hidden).
        on = reached(CARRIES)
        done = reached(RAN, "past")
        rules = [
            (f"{on} > path", f"stroke: {green}; stroke-width: 1.6px; stroke-dasharray: 6,3"),
            (f"{on} > polygon:not(.mg-back-head)", "display: none"),
            (f"{on} > polygon.mg-back-head", f"display: inline; fill: {green}; stroke: {green}"),
            (f"{done} > {SHAPES}", f"stroke: {green}; stroke-width: 2.5px"),
            (f".{FREED_AT_END}{done} > {SHAPES}", "stroke-dasharray: 5,2"),
            (f"{reached(AGREES)} > {SHAPES}", f"fill: {AGREE_FILL}"),
            (f"{reached(DIFFERS_AT)} > {SHAPES}", f"fill: {DIFFER_FILL}"),
        ]
        # This step's node and the leaf it updates; then the arrows it sends gradients
        # along, and those its gradients came by. The selectors weigh the same as the
        # green ones, so these, written later, win.
        now = f":is({reached(RAN, 'now')}, {reached(LEAF_UPDATED, 'now')})"
        this_step = f":is({reached(SENT, 'now')}, {reached(ARRIVES, 'now')})"
        rules += [
            (f"{now} > {SHAPES}", f"stroke: {red}; stroke-width: 4px"),
            (f"{this_step} > path", f"stroke: {red}; stroke-width: 3px"),
            (f"{this_step} > polygon.mg-back-head", f"fill: {red}; stroke: {red}"),
            (f"{this_step} > text", f"fill: {red}"),
            (f"text{reached(SHOWN_FROM)}", "display: inline"),
            (f"text{reached(SHOWN_UNTIL)}", "display: none"),
        ]
        return "\n".join(f"{scope} {selector} {{ {what} }}" for selector, what in rules)

    # -- the panel -------------------------------------------------------------------------
    def panel(self, position: int) -> Markup:
        stepper = self.stepper
        out = self.output_box.title
        total = stepper.num_steps
        if position == 0:
            seed = self.steps[0].contributions[0][1] if self.steps else None
            start = (
                # the seed's value ends in a full stop (1.): keep it away from the sentence's
                html(
                    _("starting from {seed}, which is ∂{out}/∂{out}"), seed=self.code(seed), out=out
                )
                if seed is not None
                else _("with nothing to do")
            )
            lines = [
                html(
                    ngettext(
                        "<b>Before the backward pass</b> of <code>{out}</code>: {count} step, "
                        "{start}.",
                        "<b>Before the backward pass</b> of <code>{out}</code>: {count} steps, "
                        "{start}.",
                        total,
                    ),
                    out=out,
                    count=total,
                    start=start,
                ),
                _(
                    "Each step takes one node, adds up the gradients that arrived at it, and "
                    "sends gradient × local derivative on to each of its inputs."
                ),
            ]
            if stepper.checks:
                named = join((html("<code>{}</code>", name) for name in stepper.checks), ", ")
                lines.append(
                    html(
                        _(
                            "Your own gradients, for {names}: each is compared with the "
                            "engine's at the step that receives it."
                        ),
                        names=named,
                    )
                )
            return _panel(lines, position)
        step = self.steps[position - 1]
        node = step.node
        lines = [
            html(
                _("<b>Step {position} of {total}: {node}</b>"),
                position=position,
                total=total,
                node=self.describe(node),
            )
        ]
        lines.append(self.arrivals(step, out))
        if node in self.check_at:
            lines.extend(self.your_gradient(self.check_at[node]))
        if isinstance(node, AccumulateGrad):
            lines.extend(self.accumulation(step))
        elif step.leaf is not None:  # a leaf of an engine of one's own (widgets.protocol)
            lines.append(
                html(
                    _("A leaf: its grad is now {grad}, nothing to send on."),
                    grad=self.code(step.grad_in),
                )
            )
        else:
            formula = getattr(node, "formula", None)  # an engine of one's own may have none
            if formula is not None:
                if isinstance(node, Node):  # minigrad's formula in the student's language;
                    formula = op_formula(formula)  # an engine of one's own keeps its words
                lines.append(
                    html(
                        _("Local derivative: <code>{formula}</code>"),
                        formula=formula or _("(not given)"),
                    )
                )
            lines.append(self.sends(step))
            if node in stepper._freed_at_end:
                lines.append(
                    _(
                        "{node} no longer needs its saved tensors: they are freed now (pass "
                        "retain_graph=True to keep them for a second backward)."
                    ).format(node=self.title(node))
                )
        if position == total:
            lines.append(
                html(_("<b>Done</b>: every <code>.grad</code> is now as backward() leaves it."))
            )
            if stepper.checks:
                lines.append(self.your_verdicts())
        return _panel(lines, position, self.graph.id_of[node])

    def title(self, node: Node) -> str:
        """What ``node``'s box is called: its name (``MulBackward0``, or the op name an engine
        of one's own gave it)."""
        return self.graph.nodes[self.graph.id_of[node]].title

    def your_gradient(self, check: GradientCheck) -> list[Markup]:
        """Your gradient beside the engine's, and whether they agree."""
        name = check.name
        cell = Markup('style="text-align: left; vertical-align: top; padding: 2px 14px 2px 0"')
        table = html(
            '<table style="border-collapse: collapse; margin: 2px 0">'
            "<tr><th {cell}>yours[{key}]</th><th {cell}>{engines}</th></tr>"
            "<tr><td {cell}>{yours}</td><td {cell}>{engine}</td></tr></table>",
            cell=cell,
            key=repr(name),
            engines=Markup(_("the engine's")),
            yours=self.code(check.yours),
            engine=self.code(check.engine),
        )
        tolerance = f"rtol={check.rtol:g}, atol={check.atol:g}"
        largest = difference_text(check.largest_difference)
        if check.verdict == EXACT:
            verdict = _("{symbol} the same, exactly").format(symbol=SYMBOL[EXACT])
            hint = ""
        elif check.verdict == CLOSE:
            verdict = _("{symbol} the same within rounding").format(symbol=SYMBOL[CLOSE])
            hint = _(": the largest difference, {largest}, is within {tolerance}").format(
                largest=largest, tolerance=tolerance
            )
        else:
            verdict = _("{symbol} different").format(symbol=SYMBOL[DIFFERS])
            if check.where:
                hint = _(
                    ": they differ by up to {largest} at index {index}, more than {tolerance} "
                    "allow. "
                ).format(largest=largest, index=check.where, tolerance=tolerance)
            else:
                hint = _(": they differ by up to {largest}, more than {tolerance} allow. ").format(
                    largest=largest, tolerance=tolerance
                )
            earlier = [c.name for c in self.stepper.checks.values() if c.position < check.position]
            wrong_before = [
                c.name
                for c in self.stepper.checks.values()
                if c.position < check.position and not c.agrees
            ]
            if wrong_before:
                hint += _(
                    "Your gradient for {name}, compared earlier, differs too: fix that one "
                    "first, as this one may follow from it."
                ).format(name=wrong_before[0])
            elif earlier:
                hint += _(
                    "Every gradient of yours compared before this one agrees, so the mistake "
                    "is in how you got the gradient of {name} from them."
                ).format(name=name)
            else:
                hint += _("The mistake is in how you got the gradient of {name}.").format(name=name)
        colour = VERMILLION if check.verdict == DIFFERS else BLUISH_GREEN
        return [
            html(
                _(
                    "Your gradient for <code>{name}</code> beside the engine's (the gradient "
                    "that arrived):{table}"
                ),
                name=name,
                table=table,
            ),
            html('<b style="color: {}">{}</b>{}', colour, verdict, hint),
        ]

    def your_verdicts(self) -> str:
        """How many of your gradients agree, and which differ, at the end of the pass."""
        checks = list(self.stepper.checks.values())
        exact = sum(c.verdict == EXACT for c in checks)
        close = sum(c.verdict == CLOSE for c in checks)
        differing = [c for c in checks if c.verdict == DIFFERS]
        agree = dict(agree=exact + close, total=len(checks), exact=exact, close=close)
        if not differing:
            return _(
                "Your gradients: {agree} of {total} agree with the engine's ({exact} exactly, "
                "{close} within rounding)."
            ).format(**agree)
        which = ", ".join(
            _("{name} (step {position})").format(name=c.name, position=c.position)
            for c in differing
        )
        return ngettext(
            "Your gradients: {agree} of {total} agree with the engine's ({exact} exactly, "
            "{close} within rounding); {count} differs: {which}.",
            "Your gradients: {agree} of {total} agree with the engine's ({exact} exactly, "
            "{close} within rounding); {count} differ: {which}.",
            len(differing),
        ).format(**agree, count=len(differing), which=which)

    def describe(self, node: Node) -> str:
        if isinstance(node, AccumulateGrad):
            return _("AccumulateGrad for the leaf {leaf}").format(leaf=self.leaf_name(node))
        box = self.graph.nodes[self.graph.id_of[node]]
        if box.kind == LEAF:  # an engine of one's own: a leaf is its own node
            return _("the leaf {leaf}").format(leaf=box.title)
        if box.produced_name:
            return _("{node}, which made {tensor}").format(node=box.title, tensor=box.produced_name)
        if self.output_box.kind in (OUTPUT, GRAD_TENSOR) and self.output_box.tensor is not None:
            if getattr(self.output_box.tensor, "grad_fn", None) is node:
                return _("{node}, which made {tensor}").format(
                    node=box.title, tensor=self.output_box.title
                )
        return box.title

    def leaf_name(self, node: AccumulateGrad) -> str:
        return self.graph.nodes[self.leaf_box[node]].title

    def sender_name(self, sender: Node | None) -> str:
        if sender is None:
            return _("backward()'s starting gradient")
        return self.describe(sender)

    def arrivals(self, step: Step, out: str) -> Markup:
        contributions = step.contributions
        if len(contributions) == 1:
            sender, grad = contributions[0]
            return html(
                _("Gradient arriving from {sender}: {grad}"),
                sender=self.sender_name(sender),
                grad=self.code(grad),
            )
        items = join(
            html(
                _("<li>from {sender}: {grad}</li>"),
                sender=self.sender_name(sender),
                grad=self.code(grad),
            )
            for sender, grad in contributions
        )
        return html(
            ngettext(
                "{count} gradient arrives, one along each path from <code>{out}</code>:"
                "<ul>{items}</ul>They add up: {total}",
                "{count} gradients arrive, one along each path from <code>{out}</code>:"
                "<ul>{items}</ul>They add up: {total}",
                len(contributions),
            ),
            count=len(contributions),
            out=out,
            items=items,
            total=self.code(step.grad_in),
        )

    def sends(self, step: Step) -> Markup:
        items = []
        head = self.graph.id_of[step.node]
        locals_ = _local.local_derivatives(step.node, self.stepper.saved.get(step.node, {}))
        for i, ((child, _slot), grad) in enumerate(zip(step.node.next_functions, step.grads_out)):
            if child is None and (head, i) in self.constant:
                value = self.constant[(head, i)].tensor
                assert value is not None
                items.append(
                    html(
                        _("<li>input {index}: the constant {value}, no gradient needed</li>"),
                        index=i,
                        value=self.code(value),
                    )
                )
            elif child is None and i == 0 and _graph.is_copy(step.node):
                # copy_(destination, source): the destination's old values are overwritten.
                items.append(
                    html(
                        _("<li>input {index}: the tensor copied into, no gradient needed</li>"),
                        index=i,
                    )
                )
            elif child is None and i == 0 and short_name(step.node) == "CopySlices":
                items.append(
                    html(
                        _(
                            "<li>input {index}: the base as it was before the write, a "
                            "constant, no gradient needed</li>"
                        ),
                        index=i,
                    )
                )
            elif child is None:
                items.append(
                    html(_("<li>input {index}: a constant, no gradient needed</li>"), index=i)
                )
            elif grad is None:
                items.append(
                    html(
                        _("<li>input {index} → {target}: nothing</li>"),
                        index=i,
                        target=self.sender_name(child),
                    )
                )
            else:
                local = locals_[i] if i < len(locals_) else None
                worked = self.worked_out(step.grad_in, local, grad)
                items.append(
                    html(
                        _("<li>input {index} → {target}: {worked}</li>"),
                        index=i,
                        target=self.target(child),
                        worked=worked,
                    )
                )
        return html(
            _("Sent to each input (gradient arriving × local derivative):<ul>{items}</ul>"),
            items=join(items),
        )

    def worked_out(self, grad_in: Tensor, local: _local.Local | None, sent: Tensor) -> Markup:
        """The local derivative in numbers, then gradient × local = sent. The number after
        the last ``=`` is the engine's record of what was sent, never a product made here."""
        if local is None:
            return self.code(sent)
        derivative = html(_("local derivative <code>{formula}</code>"), formula=local.text())
        if local.value is None:  # a matrix product: no single number to multiply by
            return html("{}: {} = {}", derivative, local.how, self.code(sent))
        incoming = _local.number(grad_in.detach().numpy())
        factor = _local.number(local.value)
        product = f"{incoming} × {factor} = {_local.number(sent.detach().numpy())}"
        shapes = np.broadcast_shapes(tuple(grad_in.shape), np.shape(local.value))
        note = ""
        if shapes != tuple(sent.shape):
            if math.prod(tuple(sent.shape)) > math.prod(shapes):
                note = _(" (copied to every element of the input's shape {shape})")
            else:
                note = _(" (summed back to the input's shape {shape})")
            note = note.format(shape=tuple(sent.shape))
        return html(
            _("{derivative}; sends <code>{product}</code>{note}"),
            derivative=derivative,
            product=product.replace("-", "−"),
            note=note,
        )

    def target(self, child: Node) -> str:
        if isinstance(child, AccumulateGrad):
            return f"AccumulateGrad ({self.leaf_name(child)})"
        return self.describe(child)

    def accumulation(self, step: Step) -> list[Markup]:
        name = self.leaf_name(step.node)  # type: ignore[arg-type]
        before, after = step.grad_before, step.grad_after
        if before is None:
            how = html(_("{leaf}.grad was None, so it becomes a copy of the gradient"), leaf=name)
        else:
            how = html(
                _(
                    "{leaf}.grad already held {before}; the new gradient is added: "
                    "{before} + {grad}"
                ),
                leaf=name,
                before=self.code(before),
                grad=self.code(step.grad_in),
            )
        return [
            html(_("<code>{leaf}.grad += gradient</code>: {how}"), leaf=name, how=how),
            html(
                _("{leaf}.grad before: {before} → after: {after}"),
                leaf=name,
                before=self.code(before),
                after=self.code(after),
            ),
        ]

    # -- everything --------------------------------------------------------------------------
    def drawing(self, rankdir: str) -> Drawing:
        """The graph to lay out, each box as wide as the widest text it will show, and
        each arrow with room for the number that will travel along it."""
        # What each line of each box reads over the pass. It changes only at the steps
        # that change the box, so those are the positions to look at.
        self.texts: dict[str, list[Timeline]] = {}
        widest = {}
        for box in self.graph.nodes.values():
            positions = self.text_changes[box.id]
            per_frame = [self.box_lines(box, k) for k in positions]
            columns = list(zip(*per_frame))
            self.texts[f"mg-{box.id}"] = [_timeline(zip(positions, c)) for c in columns]
            widest[box.id] = [max(column, key=_width) + " " for column in columns]
        for edge, (when, grad) in self.edge_grad.items():
            self.texts[f"mg-{edge}"] = [[(0, ""), (when, self.short(grad))]]
        edge_labels = {edge: f" {self.short(grad)} " for edge, (_, grad) in self.edge_grad.items()}
        drawing = new_digraph(rankdir)
        add_boxes(drawing, self.graph, widest, edge_labels, edge_color=GREY, classes=self.classes)
        return drawing

    def end_drawing(self, rankdir: str) -> Drawing:
        """The graph as the pass leaves it: every gradient on its arrow, every ``.grad``
        filled in (the picture for viewers without widgets)."""
        last = self.stepper.num_steps
        labels = {box.id: self.box_lines(box, last) for box in self.graph.nodes.values()}
        edge_labels = {edge: f" {self.short(grad)} " for edge, (_, grad) in self.edge_grad.items()}
        drawing = new_digraph(rankdir)
        add_boxes(drawing, self.graph, labels, edge_labels, edge_color=BLUISH_GREEN)
        for box_id, check in self.check_box.items():
            # A second statement for the box: DOT adds its attributes to the first one's.
            drawing.node(box_id, fillcolor=AGREE_FILL if check.agrees else DIFFER_FILL)
        return drawing

    def summary(self) -> str:
        """The pass in words, a line per step."""
        lines = []
        for step in self.steps:
            number, node = step.index + 1, self.describe(step.node)
            if isinstance(step.node, AccumulateGrad):
                lines.append(
                    _("step {number}: {node}: {leaf}.grad {before} → {after}").format(
                        number=number,
                        node=node,
                        leaf=self.leaf_name(step.node),
                        before=self.short(step.grad_before),
                        after=self.short(step.grad_after),
                    )
                )
            else:
                sent = ", ".join(self.short(g) for g in step.grads_out if g is not None)
                lines.append(
                    _("step {number}: {node}: gets {grad}, sends {sent}").format(
                        number=number,
                        node=node,
                        grad=self.short(step.grad_in),
                        sent=sent or _("nothing"),
                    )
                )
            check = self.check_at.get(step.node)
            if check is not None:
                if check.verdict == EXACT:
                    compared = _("; {mark} for {name}")
                else:
                    compared = _("; {mark} for {name} (largest difference {largest})")
                lines[-1] += compared.format(
                    mark=check.mark(),
                    name=check.name,
                    largest=difference_text(check.largest_difference),
                )
        return "\n".join(lines)

    def frames(self) -> list[Markup]:
        """Each frame: its panel (the picture's one stylesheet is ``style``)."""
        return [
            html('<div class="{}" data-position="{}">{}</div>', FRAME_CLASS, k, self.panel(k))
            for k in range(self.stepper.num_steps + 1)
        ]


def _yours_legend(checks: Mapping[str, GradientCheck]) -> Markup:
    """What the marks of your gradients mean (nothing when none were given)."""
    if not checks:
        return Markup("")
    first = next(iter(checks.values()))

    def swatch(fill: str, words: str) -> Markup:
        return html('<span style="background: {}; padding: 0 4px">{}</span>', fill, words)

    legend = html(
        _(
            "Your gradients, compared when the pass reaches them: {exact} exactly, {close} "
            "within rounding (rtol={rtol:g}, atol={atol:g}, as torch.allclose), {differs}; "
            "<b>{not_yet}</b>: not reached yet"
        ),
        exact=swatch(AGREE_FILL, _("{symbol} same").format(symbol=SYMBOL[EXACT])),
        close=swatch(AGREE_FILL, _("{symbol} close").format(symbol=SYMBOL[CLOSE])),
        rtol=first.rtol,
        atol=first.atol,
        differs=swatch(DIFFER_FILL, _("{symbol} differs").format(symbol=SYMBOL[DIFFERS])),
        not_yet=_(_NOT_COMPARED_YET),
    )
    return html(
        '<div class="{}" style="font-family: sans-serif; font-size: 14px; line-height: 1.4; '
        'color: #333333">{}</div>',
        YOURS_LEGEND_CLASS,
        legend,
    )
