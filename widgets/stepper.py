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
steps they take part in, and each line of text holds every text it will show. Frame ``k``
(0 = before any step) is then a short stylesheet that colours the classes of steps 1 to
``k`` and shows their texts, plus a panel of text, prepared in Python. The frames sit in a
``Stack``, which shows (and so applies) only the selected one; its ``selected_index`` is
jslinked to the position slider, itself jslinked to a ``Play``. So the slider and Play
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
"""

from __future__ import annotations

import html
import itertools
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import ipywidgets
import numpy as np

from minigrad import Tensor
from minigrad.engine import BackwardPass, Step
from minigrad.function import AccumulateGrad, Node, short_name
from minigrad.graph import nodes as graph_nodes

from . import _graph, _local, protocol
from ._browser import GraphvizView
from ._controls import SliderButtons
from ._fallback import dot_png, with_fallback
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
from ._svg import SHOWN_FROM, SHOWN_UNTIL, Timeline, text_copies
from .draw import (
    BLUISH_GREEN,
    GREY,
    VERMILLION,
    Drawing,
    add_boxes,
    label_lines,
    new_digraph,
)

# Classes on the picture and the frames, for stylesheets and browser tests.
PICTURE_CLASS = "minigrad-picture"
FRAME_CLASS = "minigrad-frame"
PANEL_CLASS = "minigrad-step-panel"
NOTE_CLASS = "minigrad-stepper-help"
LEGEND_CLASS = "minigrad-legend"
PLAY_CLASS = "minigrad-play"

_NO_GRAD_YET = "grad —"

# Classes on the boxes and arrows of the picture, k being a step (1 = the first):
RAN = "mg-ran-{}"  # the node step k runs: the current node in frame k, done after
LEAF_UPDATED = "mg-leaf-{}"  # the leaf whose .grad step k changes
CARRIES = "mg-carries-{}"  # an arrow with a gradient on it from step k on
SENT = "mg-sent-{}"  # an arrow step k sends a gradient along
ARRIVES = "mg-arrives-{}"  # an arrow a gradient arriving at step k came by
SHAPES = ":is(ellipse, polygon, path, polyline)"  # what a box is drawn with

# Each stepper's stylesheets name its own picture's class, so that several steppers on one
# page (each at its own step) do not restyle each other.
_scopes = itertools.count(1)

# Play draws its buttons with Font Awesome icons, which an exported page may lack (they show
# as blank buttons). These rules draw them with ordinary characters instead, in every view.
_PLAY_GLYPHS = "".join(
    f".{PLAY_CLASS} i.fa-{icon}::before {{ content: '{glyph}'; "
    "font-family: 'DejaVu Sans', 'Segoe UI Symbol', sans-serif !important; "
    "font-style: normal; font-weight: normal; }"
    for icon, glyph in (("play", "▶"), ("pause", "❚❚"), ("stop", "■"))
)

# How to step, and which way the arrows point (the picture's legend).
KERNEL_NOTE = (
    # Code in the panel as large as its prose: a theme's code font is often 13px or less.
    f"<style>{_PLAY_GLYPHS} .{PANEL_CLASS} :is(code, pre) {{ font-size: 14px; }}</style>"
    f'<div class="{NOTE_CLASS}" style="font-family: sans-serif; font-size: 14px; '
    'line-height: 1.4; color: #333333">Step with the buttons, the slider (arrow keys, Home, '
    "End) or ▶ play (■ goes back to the start).<br>"
    f'<span class="{LEGEND_CLASS}"><b>→</b> forward: how the values were computed; '
    f'<b style="color: {VERMILLION}">⇠</b> backward: where the gradients flow (dashed, '
    "arrowhead at the input: red for this step, green for earlier ones)</span></div>"
)


class BackwardStepper(ipywidgets.VBox):
    """Step through ``output.backward(gradient, retain_graph, create_graph)``.

    ``retain_graph=None`` means "as ``backward`` decides": keep the graph only when
    ``create_graph`` is set. ``names`` overrides the names taken from the caller's
    variables, as in ``widgets.draw``. Stepping through ``x.grad.backward()``, pass the
    forward result as ``originals=[y]`` so that only the nodes ``create_graph`` made are
    coloured as derivative nodes.

    ``output`` may also be a value of an engine of your own (``widgets.protocol``): the
    stepper then calls its ``backward()`` and shows the steps that returns.
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
    ) -> None:
        if not isinstance(output, Tensor):
            if not protocol.is_node(output):
                raise TypeError(
                    f"BackwardStepper needs a Tensor, got {type(output).__name__} (or a value "
                    "of an engine of your own: see widgets.protocol)"
                )
            # An engine of one's own: its graph, and the steps its backward() reports.
            if gradient is not None or retain_graph or create_graph or originals:
                raise ValueError(
                    "gradient, retain_graph, create_graph and originals are for minigrad "
                    "tensors: an engine of your own runs its backward() as it is written"
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
        self.names = _graph.merge_names(_graph.caller_names(sys._getframe(1)), names)
        # The picture is taken before the pass: which nodes there are does not change.
        self.graph = _graph.build_graph(
            [output],
            self.names,
            include_grad_graphs=False,
            max_nodes=max_nodes,
            originals=originals,
        )
        self._refuse_large_graph(max_nodes)
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
                f"BackwardStepper steps through nodes with one output; {several[0]} has "
                "several (a Function returning a tuple): draw it with widgets.draw(...)"
            )
        # What each node saved and each box's value, read before the pass frees or changes
        # them: the panel substitutes the saved values into the local derivatives.
        self.saved = {node: _local.read_saved(node) for node in self.graph.id_of}
        self.values_before = _graph.values_of(self.graph)
        self.steps: list[Step] = list(backward_pass)
        self._freed_at_end = {step.node for step in self.steps if step.released}
        self._draw(rankdir)

    def _refuse_large_graph(self, max_nodes: int) -> None:
        if self.graph.elided:
            raise ValueError(
                f"this graph has {len(self.graph.id_of) + self.graph.elided} nodes, too many "
                f"to step through one by one (max_nodes={max_nodes}); draw it with "
                "widgets.draw(...) instead, or raise max_nodes"
            )

    def _draw(self, rankdir: str) -> None:
        """The picture, its frames and the controls, from ``self.graph`` and ``self.steps``."""
        self.scope = f"minigrad-stepper-{next(_scopes)}"
        frames = _Frames(self)
        # The picture: the DOT text, with the classes the frames style and the texts they
        # show, which Graphviz lays out once, in the browser.
        self.dot = frames.drawing(rankdir).source
        self.text_copies = text_copies(frames.texts)
        self.frames = frames.frames()
        # For viewers without widgets: the graph after the pass, and the pass in words.
        self._fallback = (frames.summary(), frames.end_drawing(rankdir).source)
        self._build_controls()

    # -- the state, for scripts and tests ---------------------------------------------------
    @property
    def num_steps(self) -> int:
        return len(self.steps)

    @property
    def position(self) -> int:
        """How many steps have been shown: 0 before the first, ``num_steps`` at the end."""
        return self._slider.value

    @position.setter
    def position(self, value: int) -> None:
        if not 0 <= value <= self.num_steps:
            raise ValueError(f"position must be between 0 and {self.num_steps}, got {value}")
        # The browser links these three; from Python each is set, so that the widget
        # state saved in a notebook is consistent too.
        self._slider.value = value
        self._stack.selected_index = value
        self._play.value = value

    @property
    def current(self) -> Step | None:
        """The engine's record of the step shown last, ``None`` before the first step."""
        return self.steps[self.position - 1] if self.position else None

    @property
    def html(self) -> str:
        """The HTML of the frame shown now, under the picture: its stylesheet and its
        panel."""
        return self.frames[self.position]

    def step(self) -> None:
        """Show one more step (nothing happens at the end)."""
        self.position = min(self.position + 1, self.num_steps)

    def back(self) -> None:
        """Go back one step (nothing happens before the first)."""
        self.position = max(self.position - 1, 0)

    def reset(self) -> None:
        self.position = 0

    def run(self) -> None:
        """Jump to the end: every ``.grad`` as ``backward()`` left it."""
        self.position = self.num_steps

    def __repr__(self) -> str:
        return (
            f"BackwardStepper({self.graph.nodes['t0'].title}: {self.num_steps} steps, "
            f"position {self.position})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs)
        summary, end_dot = self._fallback
        return with_fallback(data, f"{self!r}\n{summary}", dot_png(end_dot))

    # -- the widgets ------------------------------------------------------------------------
    def _build_controls(self) -> None:
        last = self.num_steps
        # The pages share one layout and one style: each page would otherwise make two
        # more widgets of its own, which cost more than the page's frame to prepare.
        first = ipywidgets.HTML(self.frames[0])
        pages = [first] + [
            ipywidgets.HTML(frame, layout=first.layout, style=first.style)
            for frame in self.frames[1:]
        ]
        self._stack = ipywidgets.Stack(pages, selected_index=0)
        # The picture, drawn by Graphviz in the browser; the frames' stylesheets name its
        # scope class.
        self._picture = GraphvizView(self.dot, self.text_copies)
        self._picture.add_class(PICTURE_CLASS)
        self._picture.add_class(self.scope)
        self._slider = ipywidgets.IntSlider(
            value=0,
            min=0,
            max=last,
            description="step",
            continuous_update=True,
            layout=ipywidgets.Layout(width="min(100%, 520px)"),
        )
        self._play = ipywidgets.Play(
            value=0, min=0, max=last, step=1, interval=900, description="play", show_repeat=False
        )
        self._play.add_class(PLAY_CLASS)
        self._speed = ipywidgets.IntSlider(
            value=900,
            min=100,
            max=2000,
            step=100,
            description="ms/step",
            readout=True,
            layout=ipywidgets.Layout(width="260px"),
        )
        # Browser-side links: these keep working in an HTML export with no kernel.
        self._links = [
            ipywidgets.jslink((self._play, "value"), (self._slider, "value")),
            ipywidgets.jslink((self._slider, "value"), (self._stack, "selected_index")),
            ipywidgets.jslink((self._speed, "value"), (self._play, "interval")),
        ]
        # Reset, back, step and run move the slider in the browser: no kernel needed, and
        # each is enabled exactly when it would move the slider, however it was moved last.
        self._buttons = SliderButtons(self._slider)
        controls = ipywidgets.HBox([self._buttons, self._play, self._speed])
        self._note = ipywidgets.HTML(KERNEL_NOTE)
        super().__init__([controls, self._note, self._slider, self._picture, self._stack])
        self.add_class("minigrad-stepper")


class _Frames:
    """The picture and frames of one stepper: what every box and arrow shows after ``k``
    steps.

    The picture is drawn once. Each box and arrow carries a class for each step it takes
    part in (its node runs, its leaf is updated, a gradient travels along it); frame ``k``
    is a stylesheet that colours the classes of steps 1 to ``k``, and a panel of text. Each
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
            for i, ((child, _), grad) in enumerate(
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
        for edge, (when, _) in self.edge_grad.items():
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
            for sender, _ in step.contributions:
                target = self.output_box.id if sender is None else graph.id_of[sender]
                for edge in self.arrows_between.get((head, target), []):
                    self.classes[f"mg-{edge}"].append(ARRIVES.format(position))
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
        self._short_texts: dict[int, tuple[Tensor, str]] = {}
        self._code_texts: dict[int, tuple[Tensor, str]] = {}
        self._label_lines = {box.id: label_lines(box) for box in graph.nodes.values()}

    # -- texts ---------------------------------------------------------------------------
    def short(self, tensor: Tensor | None) -> str:
        """``short_value``, written once per tensor (the tensor is kept, so is its id)."""
        if tensor is None:
            return "None"
        if id(tensor) not in self._short_texts:
            self._short_texts[id(tensor)] = (tensor, short_value(tensor))
        return self._short_texts[id(tensor)][1]

    def code(self, tensor: Tensor | None) -> str:
        """The panel's HTML for a value, as ``print`` shows it; written once per tensor."""
        if tensor is None:
            return "<code>None</code>"
        if id(tensor) not in self._code_texts:
            text = full_value(tensor)
            if "\n" in text:
                html_text = f'<pre style="margin:2px 0">{_e(text)}</pre>'
            else:
                html_text = f"<code>{_e(text)}</code>"
            self._code_texts[id(tensor)] = (tensor, html_text)
        return self._code_texts[id(tensor)][1]

    def box_lines(self, box: GraphNode, position: int) -> list[str]:
        lines = list(self._label_lines[box.id])
        if box.id in self.value_changes:
            now = [tensor for k, tensor in self.value_changes[box.id] if k <= position][-1]
            lines = [
                "value " + self.short(now) if line.startswith("value ") else line for line in lines
            ]
        if box.kind == LEAF and box.tensor is not None:
            lines[-1] = "grad " + self.short(self.leaf_grad(box, position))
        elif box.kind == OP and box.node is not None and not isinstance(box.node, AccumulateGrad):
            lines = [line for line in lines if line != "saved tensors freed"]
            done = self.position_of.get(box.node, self.stepper.num_steps + 1) <= position
            step = self.step_of.get(box.node)
            lines.append("grad " + self.short(step.grad_in) if done and step else _NO_GRAD_YET)
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
    def styles(self) -> list[str]:
        """Each frame's stylesheet for the picture: the steps before it are done (green),
        its own step is lit up (red), and the texts written so far are shown. Frame 0 has
        none: the picture shows the state before the first step."""
        scope = f".{self.stepper.scope}"
        green, red = BLUISH_GREEN, VERMILLION
        freed = {self.graph.id_of[node] for node in self.stepper._freed_at_end}
        # The classes of the steps so far, each list one longer in each frame.
        carrying: list[str] = []  # arrows with a gradient on them
        done: list[str] = []  # nodes that have run, before this step
        done_freed: list[str] = []  # those of them whose saved tensors are freed
        written: list[str] = []  # texts written so far
        replaced: list[str] = []  # texts replaced by a later one
        styles = [""]
        for step in self.steps:
            k = step.index + 1
            carrying.append(f".{CARRIES.format(k)}")
            written.append(f".{SHOWN_FROM.format(k)}")
            replaced.append(f".{SHOWN_UNTIL.format(k)}")
            now = f":is(.{RAN.format(k)}, .{LEAF_UPDATED.format(k)})"
            sent, arrives = f".{SENT.format(k)}", f".{ARRIVES.format(k)}"
            # An arrow with a gradient on it is drawn as the gradient goes: dashed, with its
            # arrowhead at the input end (the forward one hidden).
            on = f":is({', '.join(carrying)})"
            rules = [
                (f"{on} > path", f"stroke: {green}; stroke-width: 1.6px; stroke-dasharray: 6,3"),
                (f"{on} > polygon:not(.mg-back-head)", "display: none"),
                (
                    f"{on} > polygon.mg-back-head",
                    f"display: inline; fill: {green}; stroke: {green}",
                ),
            ]
            if done:
                rules.append(
                    (f":is({', '.join(done)}) > {SHAPES}", f"stroke: {green}; stroke-width: 2.5px")
                )
            if done_freed:
                rules.append((f":is({', '.join(done_freed)}) > {SHAPES}", "stroke-dasharray: 5,2"))
            # This step's node and the leaf it updates; then the arrows it sends gradients
            # along, and those its gradients came by. The selectors weigh the same as the
            # green ones, so these, written later, win.
            this_step = f":is({sent}, {arrives})"
            rules += [
                (f"{now} > {SHAPES}", f"stroke: {red}; stroke-width: 4px"),
                (f"{this_step} > path", f"stroke: {red}; stroke-width: 3px"),
                (f"{this_step} > polygon.mg-back-head", f"fill: {red}; stroke: {red}"),
                (f"{this_step} > text", f"fill: {red}"),
                (f"text:is({', '.join(written)})", "display: inline"),
                (f"text:is({', '.join(replaced)})", "display: none"),
            ]
            styles.append("\n".join(f"{scope} {selector} {{ {what} }}" for selector, what in rules))
            head = self.graph.id_of[step.node]
            done.append(f".{RAN.format(k)}")
            if head in freed:
                done_freed.append(f".{RAN.format(k)}")
        return styles

    # -- the panel -------------------------------------------------------------------------
    def panel(self, position: int) -> str:
        stepper = self.stepper
        out = self.output_box.title
        total = stepper.num_steps
        if position == 0:
            seed = self.steps[0].contributions[0][1] if self.steps else None
            start = (
                # the seed's value ends in a full stop (1.): keep it away from the sentence's
                f"starting from {self.code(seed)}, which is ∂{out}/∂{out}"
                if seed is not None
                else "with nothing to do"
            )
            lines = [
                f"<b>Before the backward pass</b> of <code>{_e(out)}</code>: "
                f"{total} step{'s' if total != 1 else ''}, {start}.",
                "Each step takes one node, adds up the gradients that arrived at it, and "
                "sends gradient × local derivative on to each of its inputs.",
            ]
            return _panel(lines, position)
        step = self.steps[position - 1]
        node = step.node
        lines = [f"<b>Step {position} of {total}: {_e(self.describe(node))}</b>"]
        lines.append(self.arrivals(step, out))
        if isinstance(node, AccumulateGrad):
            lines.extend(self.accumulation(step))
        elif step.leaf is not None:  # a leaf of an engine of one's own (widgets.protocol)
            lines.append(f"A leaf: its grad is now {self.code(step.grad_in)}, nothing to send on.")
        else:
            formula = getattr(node, "formula", None)  # an engine of one's own may have none
            if formula is not None:
                lines.append(f"Local derivative: <code>{_e(formula or '(not given)')}</code>")
            lines.append(self.sends(step))
            if node in stepper._freed_at_end:
                lines.append(
                    f"{_e(short_name(node))} no longer needs its saved tensors: they are freed now "
                    "(pass retain_graph=True to keep them for a second backward)."
                )
        if position == total:
            lines.append("<b>Done</b>: every <code>.grad</code> is now as backward() leaves it.")
        return _panel(lines, position, self.graph.id_of[node])

    def describe(self, node: Node) -> str:
        if isinstance(node, AccumulateGrad):
            return f"AccumulateGrad for the leaf {self.leaf_name(node)}"
        box = self.graph.nodes[self.graph.id_of[node]]
        if box.kind == LEAF:  # an engine of one's own: a leaf is its own node
            return f"the leaf {box.title}"
        if box.produced_name:
            return f"{short_name(node)}, which made {box.produced_name}"
        if self.output_box.kind in (OUTPUT, GRAD_TENSOR) and self.output_box.tensor is not None:
            if getattr(self.output_box.tensor, "grad_fn", None) is node:
                return f"{short_name(node)}, which made {self.output_box.title}"
        return short_name(node)

    def leaf_name(self, node: AccumulateGrad) -> str:
        return self.graph.nodes[self.leaf_box[node]].title

    def sender_name(self, sender: Node | None) -> str:
        if sender is None:
            return "backward()'s starting gradient"
        return self.describe(sender)

    def arrivals(self, step: Step, out: str) -> str:
        contributions = step.contributions
        if len(contributions) == 1:
            sender, grad = contributions[0]
            return f"Gradient arriving from {_e(self.sender_name(sender))}: {self.code(grad)}"
        items = "".join(
            f"<li>from {_e(self.sender_name(sender))}: {self.code(grad)}</li>"
            for sender, grad in contributions
        )
        return (
            f"{len(contributions)} gradients arrive, one along each path from "
            f"<code>{_e(out)}</code>:<ul>{items}</ul>They add up: {self.code(step.grad_in)}"
        )

    def sends(self, step: Step) -> str:
        items = []
        head = self.graph.id_of[step.node]
        locals_ = _local.local_derivatives(step.node, self.stepper.saved.get(step.node, {}))
        for i, ((child, _), grad) in enumerate(zip(step.node.next_functions, step.grads_out)):
            if child is None and (head, i) in self.constant:
                value = self.constant[(head, i)].tensor
                assert value is not None
                items.append(
                    f"<li>input {i}: the constant {self.code(value)}, no gradient needed</li>"
                )
            elif child is None and i == 0 and _graph.is_copy(step.node):
                # copy_(destination, source): the destination's old values are overwritten.
                items.append(f"<li>input {i}: the tensor copied into, no gradient needed</li>")
            elif child is None and i == 0 and short_name(step.node) == "CopySlices":
                items.append(
                    f"<li>input {i}: the base as it was before the write, a constant, no "
                    "gradient needed</li>"
                )
            elif child is None:
                items.append(f"<li>input {i}: a constant, no gradient needed</li>")
            elif grad is None:
                items.append(f"<li>input {i} → {_e(self.sender_name(child))}: nothing</li>")
            else:
                local = locals_[i] if i < len(locals_) else None
                worked = self.worked_out(step.grad_in, local, grad)
                items.append(f"<li>input {i} → {_e(self.target(child))}: {worked}</li>")
        return (
            "Sent to each input (gradient arriving × local derivative):<ul>"
            + "".join(items)
            + "</ul>"
        )

    def worked_out(self, grad_in: Tensor, local: _local.Local | None, sent: Tensor) -> str:
        """The local derivative in numbers, then gradient × local = sent. The number after
        the last ``=`` is the engine's record of what was sent, never a product made here."""
        if local is None:
            return self.code(sent)
        derivative = f"local derivative <code>{_e(local.text())}</code>"
        if local.value is None:  # a matrix product: no single number to multiply by
            return f"{derivative}: {_e(local.how)} = {self.code(sent)}"
        incoming = _local.number(grad_in.detach().numpy())
        factor = _local.number(local.value)
        product = f"{incoming} × {factor} = {_local.number(sent.detach().numpy())}"
        shapes = np.broadcast_shapes(tuple(grad_in.shape), np.shape(local.value))
        note = ""
        if shapes != tuple(sent.shape):
            spread = math.prod(tuple(sent.shape)) > math.prod(shapes)
            how = "copied to every element of" if spread else "summed back to"
            note = f" ({how} the input's shape {tuple(sent.shape)})"
        return f"{derivative}; sends <code>{_e(product.replace('-', '−'))}</code>{note}"

    def target(self, child: Node) -> str:
        if isinstance(child, AccumulateGrad):
            return f"AccumulateGrad ({self.leaf_name(child)})"
        return self.describe(child)

    def accumulation(self, step: Step) -> list[str]:
        name = self.leaf_name(step.node)  # type: ignore[arg-type]
        before, after = step.grad_before, step.grad_after
        if before is None:
            how = f"{_e(name)}.grad was None, so it becomes a copy of the gradient"
        else:
            how = (
                f"{_e(name)}.grad already held {self.code(before)}; the new gradient is added: "
                f"{self.code(before)} + {self.code(step.grad_in)}"
            )
        return [
            f"<code>{_e(name)}.grad += gradient</code>: {how}",
            f"{_e(name)}.grad before: {self.code(before)} → after: {self.code(after)}",
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
        return drawing

    def summary(self) -> str:
        """The pass in words, a line per step."""
        lines = []
        for step in self.steps:
            head = f"step {step.index + 1}: {self.describe(step.node)}"
            if isinstance(step.node, AccumulateGrad):
                name = self.leaf_name(step.node)
                before, after = self.short(step.grad_before), self.short(step.grad_after)
                lines.append(f"{head}: {name}.grad {before} → {after}")
            else:
                sent = ", ".join(self.short(g) for g in step.grads_out if g is not None)
                lines.append(f"{head}: gets {self.short(step.grad_in)}, sends {sent or 'nothing'}")
        return "\n".join(lines)

    def frames(self) -> list[str]:
        """Each frame: its stylesheet for the picture, and its panel."""
        return [
            f'<div class="{FRAME_CLASS}" data-position="{k}"><style>{style}</style>'
            f"{self.panel(k)}</div>"
            for k, style in enumerate(self.styles())
        ]


def _timeline(texts: Iterable[tuple[int, str]]) -> Timeline:
    """(position, text) pairs in order, keeping only those where the text changes."""
    timeline: list[tuple[int, str]] = []
    for position, text in texts:
        if not timeline or timeline[-1][1] != text:
            timeline.append((position, text))
    return timeline


def _width(text: str) -> float:
    """A rough width, enough to pick the widest of a box's texts: digits are narrow."""
    return sum(0.55 if ch.isdigit() or ch in ".,-" else 1.0 for ch in text)


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _panel(lines: Sequence[str], position: int, node_id: str = "") -> str:
    body = "".join(f'<div style="margin:3px 0">{line}</div>' for line in lines)
    return (
        f'<div class="{PANEL_CLASS}" data-position="{position}" data-node="{node_id}" '
        'style="font-family: sans-serif; font-size: 14px; line-height: 1.35; max-width: 760px; '
        'border-left: 4px solid #D55E00; padding: 4px 10px; margin-top: 6px;">'
        f"{body}</div>"
    )
