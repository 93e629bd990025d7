"""What every stepper shares: one picture, a frame per position, and controls with no kernel.

``BackwardStepper`` walks a backward pass, ``ForwardStepper`` a forward-mode pass; both are
a ``SteppedPicture``. Graphviz lays the picture out once, in the browser (``GraphvizView``);
its ``position`` follows the slider (the front end then marks the classes of the steps
reached, which the stepper's one stylesheet styles), and frame ``k`` is a panel of text
prepared in Python. The frames sit in a ``Stack`` whose ``selected_index`` is jslinked to
the position slider, itself jslinked to a ``Play``: the slider, Play and the
reset/back/step/run buttons (``widgets._controls.SliderButtons``) step in the browser, with
no kernel.

A subclass sets ``self.steps`` (what ``num_steps`` counts), ``self.dot``, ``self.titles``
(``Drawing.titles``), ``self.text_copies`` (``widgets._svg.text_copies``) and
``self.frames`` (one ``Markup`` per position, 0 to ``num_steps``), then calls
``_build_controls(note)``.

>>> from ._markup import Markup
>>> panel(["one line", Markup("<b>two</b>")], 3, "n1").count('<div style="margin:3px 0">')
2
>>> timeline([(0, "a"), (1, "a"), (2, "b")])
[(0, 'a'), (2, 'b')]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets

from ._browser import GraphvizView
from ._controls import SliderButtons
from ._fallback import fallback_picture, with_fallback
from ._markup import Markup, html, join, stylesheet, wide_characters
from ._svg import Timeline
from .i18n import _, language

# Classes on the picture and the frames, for stylesheets and browser tests.
PICTURE_CLASS = "minigrad-picture"
FRAME_CLASS = "minigrad-frame"
PANEL_CLASS = "minigrad-step-panel"
NOTE_CLASS = "minigrad-stepper-help"
LEGEND_CLASS = "minigrad-legend"
PLAY_CLASS = "minigrad-play"

# Each stepper's stylesheets name its own picture's class, so that several steppers on one
# page (each at its own step) do not restyle each other.
_scopes = itertools.count(1)

# Play draws its buttons with Font Awesome icons, which an exported page may lack (they show
# as blank buttons). These rules draw them with ordinary characters instead, in every view.
PLAY_GLYPHS = "".join(
    f".{PLAY_CLASS} i.fa-{icon}::before {{ content: '{glyph}'; "
    "font-family: 'DejaVu Sans', 'Segoe UI Symbol', sans-serif !important; "
    "font-style: normal; font-weight: normal; }"
    for icon, glyph in (("play", "▶"), ("pause", "❚❚"), ("stop", "■"))
)


def how_to_step() -> str:
    """How to step (the first line of every stepper's note), in the widgets' language."""
    return _(
        "Step with the buttons, the slider (arrow keys, Home, End) or ▶ play (■ goes back to "
        "the start)."
    )


def stepper_note(legend: Markup) -> Markup:
    """Every stepper's note above its picture: how to step, then ``legend`` (what its arrows
    and boxes show), with the stylesheet its panels and play button share."""
    return join(
        [
            # Code in the panel as large as its prose: a theme's code font is often 13px or less.
            stylesheet(f"{PLAY_GLYPHS} .{PANEL_CLASS} :is(code, pre) {{ font-size: 14px; }}"),
            html(
                '<div class="{}" style="font-family: sans-serif; font-size: 14px; '
                'line-height: 1.4; color: #333333">{}<br><span class="{}">{}</span></div>',
                NOTE_CLASS,
                how_to_step(),
                LEGEND_CLASS,
                legend,
            ),
        ]
    )


def too_many_nodes(count: int, max_nodes: int) -> str:
    """Why a graph of ``count`` nodes is not stepped through."""
    return _(
        "this graph has {count} nodes, too many to step through one by one "
        "(max_nodes={max_nodes}); draw it with widgets.draw(...) instead, or raise max_nodes"
    ).format(count=count, max_nodes=max_nodes)


def new_scope() -> str:
    """A class naming one stepper's picture, unique in the page."""
    return f"minigrad-stepper-{next(_scopes)}"


class SteppedPicture(ipywidgets.VBox):
    """Navigation and controls over ``self.frames`` (see the module's docstring)."""

    steps: Sequence[Any]
    frames: list[Markup]
    dot: str
    text_copies: dict
    titles: dict[str, str]  # the full text of each box whose lines were cut
    scope: str
    graph: Any  # the drawing's graph (widgets._graph), its output box first ("t0")
    _fallback: tuple[str, str]  # for viewers without widgets: the steps in words, the end's DOT

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
            raise ValueError(
                _("position must be between 0 and {last}, got {value}").format(
                    last=self.num_steps, value=value
                )
            )
        # The browser links these three; from Python each is set, so that the widget
        # state saved in a notebook is consistent too.
        self._slider.value = value
        self._stack.selected_index = value
        self._play.value = value
        self._picture.position = value

    @property
    def html(self) -> str:
        """The HTML of the frame shown now, under the picture: its panel."""
        return self.frames[self.position]

    @property
    def current(self) -> Any:
        """The record of the step shown last, ``None`` before the first step."""
        return self.steps[self.position - 1] if self.position else None

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.graph.nodes['t0'].title}: {self.num_steps} steps, "
            f"position {self.position})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs)
        summary, end_dot = self._fallback
        png, note = fallback_picture(end_dot)  # made once, however often it is shown
        return with_fallback(data, f"{self!r}\n{summary}", png, note)

    def step(self) -> None:
        """Show one more step (nothing happens at the end)."""
        self.position = min(self.position + 1, self.num_steps)

    def back(self) -> None:
        """Go back one step (nothing happens before the first)."""
        self.position = max(self.position - 1, 0)

    def reset(self) -> None:
        self.position = 0

    def run(self) -> None:
        """Jump to the end."""
        self.position = self.num_steps

    # -- the widgets ------------------------------------------------------------------------
    def _build_controls(self, note: Markup) -> None:
        last = self.num_steps
        # The pages share one layout and one style: each page would otherwise make two
        # more widgets of its own, which cost more than the page's frame to prepare.
        first = ipywidgets.HTML(self.frames[0])
        pages = [first] + [
            ipywidgets.HTML(frame, layout=first.layout, style=first.style)
            for frame in self.frames[1:]
        ]
        self._stack = ipywidgets.Stack(pages, selected_index=0)
        # A label wider than ipywidgets' fixed 80px (Russian "воспроизвести") would be cut
        # short: a translated label takes the width it needs. English keeps the fixed width.
        labels_fit: dict[str, Any] = {}
        if language() != "en":
            labels_fit["style"] = {"description_width": "initial"}
        # The picture, drawn by Graphviz in the browser; the frames' stylesheets name its
        # scope class.
        self._picture = GraphvizView(self.dot, self.text_copies, self.titles)
        self._picture.add_class(PICTURE_CLASS)
        self._picture.add_class(self.scope)
        self._slider = ipywidgets.IntSlider(
            value=0,
            min=0,
            max=last,
            description=_("step"),
            **labels_fit,
            continuous_update=True,
            layout=ipywidgets.Layout(width="min(100%, 520px)"),
        )
        self._play = ipywidgets.Play(
            value=0,
            min=0,
            max=last,
            step=1,
            interval=900,
            description=_("play"),
            show_repeat=False,
            **labels_fit,
        )
        self._play.add_class(PLAY_CLASS)
        self._speed = ipywidgets.IntSlider(
            value=900,
            min=100,
            max=2000,
            step=100,
            description=_("ms/step"),
            **labels_fit,
            readout=True,
            layout=ipywidgets.Layout(width="260px"),
        )
        # Browser-side links: these keep working in an HTML export with no kernel.
        self._links = [
            ipywidgets.jslink((self._play, "value"), (self._slider, "value")),
            ipywidgets.jslink((self._slider, "value"), (self._stack, "selected_index")),
            ipywidgets.jslink((self._slider, "value"), (self._picture, "position")),
            ipywidgets.jslink((self._speed, "value"), (self._play, "interval")),
        ]
        # Reset, back, step and run move the slider in the browser: no kernel needed, and
        # each is enabled exactly when it would move the slider, however it was moved last.
        self._buttons = SliderButtons(self._slider)
        controls = ipywidgets.HBox([self._buttons, self._play, self._speed])
        self._note = ipywidgets.HTML(note)
        super().__init__([controls, self._note, self._slider, self._picture, self._stack])
        self.add_class("minigrad-stepper")


def timeline(texts: Iterable[tuple[int, str]]) -> Timeline:
    """(position, text) pairs in order, keeping only those where the text changes."""
    kept: list[tuple[int, str]] = []
    for position, text in texts:
        if not kept or kept[-1][1] != text:
            kept.append((position, text))
    return kept


def width(text: str) -> float:
    """A rough width, enough to pick the widest of a box's texts: digits are narrow, Chinese
    characters (``wide_characters``) twice as wide as a letter.

    >>> width("10"), width("ab"), width("梯度")
    (1.1, 2.0, 4.0)
    """
    return sum(
        0.55 if ch.isdigit() or ch in ".,-" else 2.0 if wide_characters(ch) else 1.0 for ch in text
    )


def panel(
    lines: Sequence[str], position: int, node_id: str = "", colour: str = "#D55E00"
) -> Markup:
    """A frame's panel: each line (text, or ``Markup``) in a block of its own, with a bar
    of ``colour`` on its left."""
    body = join(html('<div style="margin:3px 0">{}</div>', line) for line in lines)
    return html(
        '<div class="{}" data-position="{}" data-node="{}" style="font-family: sans-serif; '
        "font-size: 14px; line-height: 1.35; max-width: 760px; border-left: 4px solid {}; "
        # A name of hundreds of characters with no space wraps inside the panel.
        "overflow-wrap: anywhere; "
        'padding: 4px 10px; margin-top: 6px;">{}</div>',
        PANEL_CLASS,
        position,
        node_id,
        colour,
        body,
    )
