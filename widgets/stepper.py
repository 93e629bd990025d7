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

Graphviz lays the graph out once. Frame ``k`` (0 = before any step) is a repainted copy of
that SVG plus a panel of text, prepared in Python; the frames sit in a ``Stack`` whose
``selected_index`` is jslinked to the position slider, itself jslinked to a ``Play``. So
the slider and Play step through the pass in the browser with no kernel, e.g. in an HTML
export of the notebook. Play's ■ button is a kernel-free reset, and the slider takes the
arrow keys, Home and End. The reset, back, step and run buttons are Python callbacks that
move the same slider: they need a running kernel, and a note under them says so (a page
cannot tell whether a kernel is behind it, so the note is always shown).
"""

from __future__ import annotations

import html
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets

from minigrad import Tensor
from minigrad.engine import BackwardPass, Step
from minigrad.function import AccumulateGrad, Node

from . import _graph
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
from ._svg import Paint, SvgTemplate
from .draw import BLUISH_GREEN, GREY, VERMILLION, add_boxes, label_lines, new_digraph

# Classes on the frames, for stylesheets and browser tests.
FRAME_CLASS = "minigrad-frame"
PANEL_CLASS = "minigrad-step-panel"
CURRENT_CLASS = "minigrad-current-node"
DONE_CLASS = "minigrad-done-node"
UPDATED_LEAF_CLASS = "minigrad-updated-leaf"
SENT_CLASS = "minigrad-sent-edge"
ARRIVING_CLASS = "minigrad-arriving-edge"
NOTE_CLASS = "minigrad-kernel-note"
PLAY_CLASS = "minigrad-play"

_NO_GRAD_YET = "grad —"

# Play draws its buttons with Font Awesome icons, which an exported page may lack (they show
# as blank buttons). These rules draw them with ordinary characters instead, in every view.
_PLAY_GLYPHS = "".join(
    f".{PLAY_CLASS} i.fa-{icon}::before {{ content: '{glyph}'; "
    "font-family: 'DejaVu Sans', 'Segoe UI Symbol', sans-serif !important; "
    "font-style: normal; font-weight: normal; }"
    for icon, glyph in (("play", "▶"), ("pause", "❚❚"), ("stop", "■"))
)

KERNEL_NOTE = (
    f"<style>{_PLAY_GLYPHS}</style>"
    f'<div class="{NOTE_CLASS}" style="font-family: sans-serif; font-size: 12px; '
    'color: #555555">Step with the slider (arrow keys, Home, End) or ▶ play (■ goes back to '
    "the start); the reset, back, step and run buttons need a running kernel.</div>"
)


class BackwardStepper(ipywidgets.VBox):
    """Step through ``output.backward(gradient, retain_graph, create_graph)``.

    ``retain_graph=None`` means "as ``backward`` decides": keep the graph only when
    ``create_graph`` is set. ``names`` overrides the names taken from the caller's
    variables, as in ``widgets.draw``. Stepping through ``x.grad.backward()``, pass the
    forward result as ``originals=[y]`` so that only the nodes ``create_graph`` made are
    coloured as derivative nodes.
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
            raise TypeError(f"BackwardStepper needs a Tensor, got {type(output).__name__}")
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
        if self.graph.elided:
            raise ValueError(
                f"this graph has {len(self.graph.id_of) + self.graph.elided} nodes, too many "
                f"to step through one by one (max_nodes={max_nodes}); draw it with "
                "widgets.draw(...) instead, or raise max_nodes"
            )
        self._grads_at_start = {
            box.id: _copy(box.tensor.grad)
            for box in self.graph.nodes.values()
            if box.kind == LEAF and box.tensor is not None
        }
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
        self.steps: list[Step] = list(backward_pass)
        self._freed_at_end = {node for node in self.graph.id_of if node.saved_tensors_freed()}

        self.frames = _Frames(self).render(rankdir)
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
        """The HTML of the frame shown now (SVG and panel)."""
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

    # -- the widgets ------------------------------------------------------------------------
    def _build_controls(self) -> None:
        last = self.num_steps
        pages = [ipywidgets.HTML(frame) for frame in self.frames]
        self._stack = ipywidgets.Stack(pages, selected_index=0)
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
        self._slider.observe(lambda _change: self._update_buttons(), names="value")

        # Only glyphs that common fonts have: ⏮ and ⏭ show as empty boxes on many systems.
        labels = {
            "reset": ("◀◀ reset", "back to the start"),
            "back": ("◀ back", "one step back"),
            "step": ("step ▶", "one step forward"),
            "run": ("run ▶▶", "to the end of backward()"),
        }
        self._buttons = {
            name: ipywidgets.Button(description=text, tooltip=f"{tip} (needs a running kernel)")
            for name, (text, tip) in labels.items()
        }
        moves = {"reset": self.reset, "back": self.back, "step": self.step, "run": self.run}
        for name, button in self._buttons.items():
            button.layout = ipywidgets.Layout(width="auto")
            button.add_class(f"minigrad-{name}-button")
            button.on_click(lambda _button, move=moves[name]: move())
        self._update_buttons()
        controls = ipywidgets.HBox([*self._buttons.values(), self._play, self._speed])
        # In an HTML export the buttons are dead and keep the enabled/disabled look they had
        # when the notebook was saved; the note tells the reader what works everywhere.
        self._note = ipywidgets.HTML(KERNEL_NOTE)
        super().__init__([controls, self._note, self._slider, self._stack])
        self.add_class("minigrad-stepper")

    def _update_buttons(self) -> None:
        at_start, at_end = self.position == 0, self.position == self.num_steps
        self._buttons["reset"].disabled = self._buttons["back"].disabled = at_start
        self._buttons["step"].disabled = self._buttons["run"].disabled = at_end


def _copy(tensor: Tensor | None) -> Tensor | None:
    return None if tensor is None else tensor.detach().clone()


class _Frames:
    """The frames of one stepper: what every box and arrow shows after ``k`` steps."""

    def __init__(self, stepper: BackwardStepper) -> None:
        self.stepper = stepper
        self.graph: Graph = stepper.graph
        self.steps = stepper.steps
        graph = self.graph
        self.step_of: dict[Node, Step] = {step.node: step for step in self.steps}
        self.position_of: dict[Node, int] = {step.node: step.index + 1 for step in self.steps}
        self.output_box = graph.nodes["t0"]
        self.leaf_box = {
            box.node: next(e.tail for e in graph.edges if e.head == box.id)
            for box in graph.nodes.values()
            if isinstance(box.node, AccumulateGrad)
        }
        # Which arrow each gradient travels along. Arrows point forward (input -> user),
        # so the gradient a node sends to its input i goes back along (input -> node, i).
        self.arrow = {(e.tail, e.head, e.input_index): e.id for e in graph.edges}
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

    # -- texts ---------------------------------------------------------------------------
    def box_lines(self, box: GraphNode, position: int) -> list[str]:
        lines = label_lines(box)
        if box.kind == LEAF and box.tensor is not None:
            lines[-1] = "grad " + _short(self.leaf_grad(box, position))
        elif box.kind == OP and box.node is not None and not isinstance(box.node, AccumulateGrad):
            lines = [line for line in lines if line != "saved tensors freed"]
            done = self.position_of.get(box.node, self.stepper.num_steps + 1) <= position
            step = self.step_of.get(box.node)
            lines.append("grad " + _short(step.grad_in) if done and step else _NO_GRAD_YET)
        return lines

    def leaf_grad(self, box: GraphNode, position: int) -> Tensor | None:
        """The leaf's ``.grad`` after ``position`` steps, from the engine's snapshots."""
        grad = self.stepper._grads_at_start[box.id]
        for step in self.steps[:position]:
            if step.leaf is box.tensor:
                grad = step.grad_after
        return grad

    def edge_text(self, edge_id: str, position: int) -> str:
        when, grad = self.edge_grad[edge_id]
        return short_value(grad) if when <= position else ""

    # -- paint ---------------------------------------------------------------------------
    def paints(self, position: int) -> dict[str, Paint]:
        graph = self.graph
        current = self.steps[position - 1] if position else None
        paints: dict[str, Paint] = {}
        for box in graph.nodes.values():
            lines = tuple(self.box_lines(box, position))
            paints[f"mg-{box.id}"] = self.box_paint(box, position, current, lines)
        sent, arriving = self.current_arrows(current)
        for edge in graph.edges:
            texts = (self.edge_text(edge.id, position),) if edge.id in self.edge_grad else None
            if edge.id in sent:
                paint = Paint(VERMILLION, 3.0, font=VERMILLION, css_class=SENT_CLASS, texts=texts)
            elif edge.id in arriving:
                paint = Paint(VERMILLION, 2.0, True, css_class=ARRIVING_CLASS, texts=texts)
            elif edge.id in self.edge_grad and self.edge_grad[edge.id][0] <= position:
                paint = Paint(BLUISH_GREEN, 1.6, font="#000000", texts=texts)
            else:
                paint = Paint(GREY, 1.0, texts=texts)
            paints[f"mg-{edge.id}"] = paint
        return paints

    def box_paint(
        self, box: GraphNode, position: int, current: Step | None, lines: tuple[str, ...]
    ) -> Paint:
        node = box.node
        if current is not None and node is current.node:
            return Paint(VERMILLION, 4.0, css_class=CURRENT_CLASS, texts=lines)
        if current is not None and box.tensor is not None and box.tensor is current.leaf:
            return Paint(VERMILLION, 4.0, css_class=UPDATED_LEAF_CLASS, texts=lines)
        if node is not None and self.position_of.get(node, 10**9) <= position:
            freed = node in self.stepper._freed_at_end
            return Paint(BLUISH_GREEN, 2.5, freed, css_class=DONE_CLASS, texts=lines)
        return Paint(texts=lines)

    def current_arrows(self, current: Step | None) -> tuple[set[str], set[str]]:
        """The arrows the current step sends gradients along, and those they came by."""
        if current is None:
            return set(), set()
        graph = self.graph
        head = graph.id_of[current.node]
        sent = {
            edge
            for edge, (when, _) in self.edge_grad.items()
            if when == current.index + 1 and self.arrow_head(edge) == head
        }
        arriving = set()
        for sender, _ in current.contributions:
            target = self.output_box.id if sender is None else graph.id_of[sender]
            arriving |= {e.id for e in graph.edges if e.tail == head and e.head == target}
        return sent, arriving

    def arrow_head(self, edge_id: str) -> str:
        return next(e.head for e in self.graph.edges if e.id == edge_id)

    # -- the panel -------------------------------------------------------------------------
    def panel(self, position: int) -> str:
        stepper = self.stepper
        out = self.output_box.title
        total = stepper.num_steps
        if position == 0:
            seed = self.steps[0].contributions[0][1] if self.steps else None
            start = (
                f"starting from ∂{out}/∂{out} = {_code(seed)}"
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
        else:
            lines.append(f"Local derivative: <code>{_e(node.formula or '(not given)')}</code>")
            lines.append(self.sends(step))
            if node in stepper._freed_at_end:
                lines.append(
                    f"{_e(node.name())} no longer needs its saved tensors: they are freed now "
                    "(pass retain_graph=True to keep them for a second backward)."
                )
        if position == total:
            lines.append("<b>Done</b>: every <code>.grad</code> is now as backward() leaves it.")
        return _panel(lines, position, self.graph.id_of[node])

    def describe(self, node: Node) -> str:
        if isinstance(node, AccumulateGrad):
            return f"AccumulateGrad for the leaf {self.leaf_name(node)}"
        box = self.graph.nodes[self.graph.id_of[node]]
        if box.produced_name:
            return f"{node.name()}, which made {box.produced_name}"
        if self.output_box.kind in (OUTPUT, GRAD_TENSOR) and self.output_box.tensor is not None:
            if self.output_box.tensor.grad_fn is node:
                return f"{node.name()}, which made {self.output_box.title}"
        return node.name()

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
            return f"Gradient arriving from {_e(self.sender_name(sender))}: {_code(grad)}"
        items = "".join(
            f"<li>from {_e(self.sender_name(sender))}: {_code(grad)}</li>"
            for sender, grad in contributions
        )
        return (
            f"{len(contributions)} gradients arrive, one along each path from "
            f"<code>{_e(out)}</code>:<ul>{items}</ul>They add up: {_code(step.grad_in)}"
        )

    def sends(self, step: Step) -> str:
        items = []
        head = self.graph.id_of[step.node]
        for i, ((child, _), grad) in enumerate(zip(step.node.next_functions, step.grads_out)):
            if child is None and (head, i) in self.constant:
                value = self.constant[(head, i)].tensor
                assert value is not None
                items.append(f"<li>input {i}: the constant {_code(value)}, no gradient needed</li>")
            elif child is None and i == 0 and step.node.name() == "CopyBackwards":
                # copy_(destination, source): the destination's old values are overwritten.
                items.append(f"<li>input {i}: the tensor copied into, no gradient needed</li>")
            elif child is None:
                items.append(f"<li>input {i}: a constant, no gradient needed</li>")
            elif grad is None:
                items.append(f"<li>input {i} → {_e(self.sender_name(child))}: nothing</li>")
            else:
                items.append(f"<li>input {i} → {_e(self.target(child))}: {_code(grad)}</li>")
        return (
            "Sent to each input (gradient arriving × local derivative):<ul>"
            + "".join(items)
            + "</ul>"
        )

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
                f"{_e(name)}.grad already held {_code(before)}; the new gradient is added: "
                f"{_code(before)} + {_code(step.grad_in)}"
            )
        return [
            f"<code>{_e(name)}.grad += gradient</code>: {how}",
            f"{_e(name)}.grad before: {_code(before)} → after: {_code(after)}",
        ]

    # -- everything --------------------------------------------------------------------------
    def render(self, rankdir: str) -> list[str]:
        """Lay the graph out once, then paint one frame per position."""
        positions = range(self.stepper.num_steps + 1)
        widest = {}
        for box in self.graph.nodes.values():
            per_frame = [self.box_lines(box, k) for k in positions]
            widest[box.id] = [max(column, key=_width) + " " for column in zip(*per_frame)]
        # Room for the number that will travel along each arrow, blank until it does.
        edge_labels = {edge: f" {short_value(grad)} " for edge, (_, grad) in self.edge_grad.items()}
        drawing = new_digraph(rankdir)
        add_boxes(drawing, self.graph, widest, edge_labels)
        template = SvgTemplate(drawing.pipe(format="svg", encoding="utf-8"))
        return [
            f'<div class="{FRAME_CLASS}" data-position="{k}">'
            f"{template.paint(self.paints(k))}{self.panel(k)}</div>"
            for k in positions
        ]


def _width(text: str) -> float:
    """A rough width, enough to pick the widest of a box's texts: digits are narrow."""
    return sum(0.55 if ch.isdigit() or ch in ".,-" else 1.0 for ch in text)


def _short(grad: Tensor | None) -> str:
    return "None" if grad is None else short_value(grad)


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _code(tensor: Tensor | None) -> str:
    if tensor is None:
        return "<code>None</code>"
    text = full_value(tensor)
    if "\n" in text:
        return f'<pre style="margin:2px 0">{_e(text)}</pre>'
    return f"<code>{_e(text)}</code>"


def _panel(lines: Sequence[str], position: int, node_id: str = "") -> str:
    body = "".join(f'<div style="margin:3px 0">{line}</div>' for line in lines)
    return (
        f'<div class="{PANEL_CLASS}" data-position="{position}" data-node="{node_id}" '
        'style="font-family: sans-serif; font-size: 14px; line-height: 1.35; max-width: 760px; '
        'border-left: 4px solid #D55E00; padding: 4px 10px; margin-top: 6px;">'
        f"{body}</div>"
    )
