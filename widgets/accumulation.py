"""``GradAccumulation``: what ``backward()`` does to ``.grad`` when it is called again.

>>> import minigrad as mg
>>> from widgets import GradAccumulation
>>> x = mg.tensor(2.0, requires_grad=True)
>>> demo = GradAccumulation(lambda x: x * x, [x], names=["x"])
>>> demo.backward(retain_graph=True); demo.backward()
>>> [row.grads["x"] for row in demo.history]
[None, tensor(4.), tensor(8.)]
>>> demo.backward()  # the graph was freed by the last call: the error is explained
>>> demo.history[-1].error.startswith("Trying to backward through the graph a second time")
True
>>> demo.zero_grad(); demo.history[-1].grads["x"]
tensor(0.)
>>> demo
GradAccumulation(x: 5 rows, last .grad.zero_())

The expression is built once, by calling ``build(*leaves)``; ``.rebuild()`` (the
"new graph" button) runs it again, which is what a training loop does every iteration.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from minigrad import Tensor
from minigrad.function import FREED_GRAPH_MESSAGE

from ._controls import KernelButtons
from ._fallback import small_png, with_fallback
from ._graph import full_value
from ._markup import Markup, html, join, one_line, plot_text
from ._plot_fonts import plot_fonts
from .draw import BLUE, ORANGE, REDDISH_PURPLE, SKY_BLUE, VERMILLION
from .i18n import N_, _, plot_gettext

FRIENDLY_FREED = N_(
    "The first backward() freed the values this graph had saved for its derivatives "
    "(that saves memory: most programs backpropagate through a graph once). To run "
    "backward() through it again, either build the expression again (press “new graph”, as "
    "a training loop does every iteration), or call the earlier backward with "
    "retain_graph=True."
)
PLOT_SIZE, PLOT_DPI = (4.2, 2.6), 100  # inches, and pixels per inch
_LINE_COLOURS = [BLUE, VERMILLION, REDDISH_PURPLE, ORANGE, SKY_BLUE, "#009E73"]


@dataclass
class HistoryEntry:
    """One row of the history: the action and every leaf's ``.grad`` after it (a copy)."""

    action: str
    grads: dict[str, Tensor | None] = field(default_factory=dict)
    error: str | None = None
    note: str = ""


class GradAccumulation(ipywidgets.VBox):
    """Buttons for ``backward()``, ``backward(retain_graph=True)``, ``.grad.zero_()`` and
    ``.grad = None`` on ``build(*leaves)``, with a table and a plot of every leaf's ``.grad``
    after each action. The methods do the same as the buttons, for scripts and tests; they
    never raise for the errors a student is meant to see: those go into the history."""

    def __init__(
        self,
        build: Callable[..., Tensor],
        leaves: Sequence[Tensor],
        names: Sequence[str] | None = None,
        description: str = "",
    ) -> None:
        self.build = build
        self.leaves = list(leaves)
        if not self.leaves or not all(isinstance(t, Tensor) for t in self.leaves):
            raise TypeError(_("leaves must be a non-empty sequence of Tensors"))
        if names is not None and not all(isinstance(name, str) for name in names):
            raise TypeError(_("names must be a sequence of str, one per leaf"))
        # Each name is text on one line, wherever it is shown (widgets._markup).
        self.names = (
            [one_line(name) for name in names]
            if names is not None
            else [f"x{i}" for i in range(len(leaves))]
        )
        if len(self.names) != len(self.leaves):
            raise ValueError(
                _("got {names} names for {leaves} leaves").format(
                    names=len(self.names), leaves=len(self.leaves)
                )
            )
        self.description = description
        self.output = self._build()
        self.history: list[HistoryEntry] = []
        self._record(N_("start"))
        self._controls()

    # -- actions ---------------------------------------------------------------------------
    def backward(self, retain_graph: bool = False) -> None:
        action = "backward(retain_graph=True)" if retain_graph else "backward()"
        try:
            self.output.backward(retain_graph=retain_graph)
        except RuntimeError as error:
            self._record(action, error=str(error))
        else:
            self._record(action)

    def zero_grad(self) -> None:
        """``leaf.grad.zero_()`` for every leaf whose ``.grad`` is not None."""
        skipped = []
        for name, leaf in zip(self.names, self.leaves):
            if leaf.grad is None:
                skipped.append(name)
            else:
                leaf.grad.zero_()
        note = ""
        if skipped:
            note = _(
                "{leaves}.grad is None: there is nothing to zero (None.zero_() would raise "
                "AttributeError)."
            ).format(leaves=", ".join(skipped))
        self._record(".grad.zero_()", note=note)

    def set_none(self) -> None:
        for leaf in self.leaves:
            leaf.grad = None
        self._record(".grad = None")

    def rebuild(self) -> None:
        """Build the expression again: a new graph, with nothing freed."""
        self.output = self._build()
        self._record(N_("new graph"))

    def _build(self) -> Tensor:
        output = self.build(*self.leaves)
        if not isinstance(output, Tensor):
            raise TypeError(
                _("build(...) must return a Tensor, got {type}").format(type=type(output).__name__)
            )
        return output

    def _record(self, action: str, error: str | None = None, note: str = "") -> None:
        grads = {
            name: None if leaf.grad is None else leaf.grad.detach().clone()
            for name, leaf in zip(self.names, self.leaves)
        }
        self.history.append(HistoryEntry(action, grads, error, note))
        if hasattr(self, "_table"):
            self._refresh()

    def __repr__(self) -> str:
        # ipywidgets' default lists every child widget: long, and it is what a notebook
        # saves as the cell's text output.
        rows = len(self.history)
        last = self.history[-1]
        failed = ", which failed" if last.error else ""
        return (
            f"GradAccumulation({', '.join(self.names)}: {rows} row{'s' if rows != 1 else ''}, "
            f"last {last.action}{failed})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        # For viewers without widgets: the plot, and the history in words.
        data = super()._repr_mimebundle_(**kwargs)
        rows = [
            f"{i}. {_(entry.action)}: "
            + ", ".join(
                f"{name}.grad = {'None' if g is None else full_value(g)}"
                for name, g in entry.grads.items()
            )
            + (_(" (failed)") if entry.error else "")
            for i, entry in enumerate(self.history)
        ]
        return with_fallback(data, "\n".join([repr(self), *rows]), small_png(self._plot.value, 64))

    # -- the widgets -----------------------------------------------------------------------
    def _controls(self) -> None:
        actions = {
            "backward()": lambda: self.backward(),
            "backward(retain_graph=True)": lambda: self.backward(retain_graph=True),
            ".grad.zero_()": self.zero_grad,
            ".grad = None": self.set_none,
            "new graph": self.rebuild,
        }
        # Drawn by the browser, which disables them and says why when no kernel is behind the
        # page (an exported lesson, the docs site): each click runs Python.
        self._buttons = KernelButtons(
            {name: _(name) for name in actions}, lambda name: actions[name]()
        )
        self._message = ipywidgets.HTML()
        self._table = ipywidgets.HTML()
        # The plot keeps its own size and aspect however tall the table beside it grows (in
        # a row, a flex item is otherwise stretched to the row's height).
        self._plot = ipywidgets.Image(
            format="png",
            layout=ipywidgets.Layout(
                width=f"{round(PLOT_SIZE[0] * PLOT_DPI)}px",
                height="auto",
                flex="0 0 auto",
                align_self="flex-start",
                object_fit="contain",
            ),
        )
        header = ipywidgets.HTML(html("<b>{}</b>", self.description) if self.description else "")
        body = ipywidgets.HBox(
            [self._table, self._plot],
            layout=ipywidgets.Layout(align_items="flex-start", flex_flow="row wrap"),
        )
        super().__init__([header, self._buttons, self._message, body])
        self.add_class("minigrad-grad-accumulation")
        self._refresh()

    def _refresh(self) -> None:
        self._message.value = self.message_html()
        self._table.value = self.table_html()
        self._plot.value = self.plot_png()

    def message_html(self) -> Markup:
        last = self.history[-1]
        if last.error is None:
            text = last.note or html(_("Done: <code>{action}</code>."), action=_(last.action))
            return html(
                '<div class="minigrad-accumulation-message" '
                'style="font-family: sans-serif; font-size: 14px">{}</div>',
                text,
            )
        friendly = _(
            FRIENDLY_FREED if last.error == FREED_GRAPH_MESSAGE else N_("backward() failed.")
        )
        # The error itself is PyTorch's message, never translated.
        error = html(_("The error: <code>{error}</code>"), error=f"RuntimeError: {last.error}")
        return html(
            '<div class="minigrad-accumulation-error" style="border-left: 4px solid #D55E00; '
            'padding: 2px 8px; font-family: sans-serif; font-size: 14px; max-width: 760px">'
            "<b>{}</b><br>{}</div>",
            friendly,
            error,
        )

    def table_html(self) -> Markup:
        cell = 'style="padding: 2px 10px; border-bottom: 1px solid #dddddd; text-align: left"'
        head = join(html("<th {}>{}.grad</th>", Markup(cell), name) for name in self.names)
        rows = []
        for i, entry in enumerate(self.history):
            values = ("None" if g is None else full_value(g) for g in entry.grads.values())
            cells = join(html("<td {}><code>{}</code></td>", Markup(cell), v) for v in values)
            action = html("<code>{}</code>", _(entry.action))
            if entry.error:
                action = html(
                    '{} <span style="color: #D55E00">{}</span>', action, Markup(_("✗ error"))
                )
            rows.append(
                html("<tr><td {c}>{}</td><td {c}>{}</td>{}</tr>", i, action, cells, c=Markup(cell))
            )
        return html(
            '<table class="minigrad-accumulation-history" style="border-collapse: collapse; '
            'font-family: sans-serif; font-size: 14px">'
            "<tr><th {c}>#</th><th {c}>{}</th>{}</tr>{}</table>",
            Markup(_("action")),
            head,
            join(rows),
            c=Markup(cell),
        )

    @plot_fonts()  # Noto Sans SC after matplotlib's fonts, for Chinese words
    def plot_png(self) -> bytes:
        """Each leaf's ``.grad`` after every action (elementwise for small tensors); a
        ``None`` is a gap in the line, marked with an open circle on the axis."""
        figure = Figure(figsize=PLOT_SIZE, dpi=PLOT_DPI)
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        steps = np.arange(len(self.history))
        colour = 0
        for name in self.names:
            series = _series(name, [entry.grads[name] for entry in self.history])
            for label, values in series.items():
                line_colour = _LINE_COLOURS[colour % len(_LINE_COLOURS)]
                colour += 1
                axes.plot(steps, values, marker="o", color=line_colour, label=plot_text(label))
                missing = np.isnan(values)
                axes.plot(
                    steps[missing], np.zeros(missing.sum()), "o", mfc="none", color=line_colour
                )
        axes.set_xticks(steps)
        axes.set_xlabel(plot_gettext("action #  (open circle: .grad is None)"))
        axes.set_ylabel(".grad")
        axes.axhline(0, color="#999999", linewidth=0.8)
        axes.legend(loc="upper left", fontsize=8)
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()


def _series(name: str, grads: list[Tensor | None]) -> dict[str, np.ndarray]:
    """The lines to plot for one leaf: its value if it is a number, each element of a small
    tensor, or the sum of a big one. ``None`` becomes NaN: a gap."""
    sizes = {g.numel() for g in grads if g is not None}
    size = sizes.pop() if sizes else 1

    def values(g: Tensor | None) -> np.ndarray:
        return np.full(size, np.nan) if g is None else g.detach().numpy().astype(float).ravel()

    table = np.array([values(g) for g in grads])
    if size == 1:
        return {f"{name}.grad": table[:, 0]}
    if size <= 4:
        return {f"{name}.grad[{i}]": table[:, i] for i in range(size)}
    return {plot_gettext("sum of {name}.grad").format(name=name): table.sum(axis=1)}
