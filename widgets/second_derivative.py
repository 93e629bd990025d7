"""``SecondDerivative``: differentiate twice, both ways PyTorch offers.

>>> from widgets import SecondDerivative
>>> demo = SecondDerivative(lambda x: x**3, 2.0, label="x**3")
>>> demo.first, demo.second           # autograd.grad(..., create_graph=True), then again
(tensor(12., grad_fn=<MulBackward0>), tensor(12.))
>>> demo.grad_after_backward, demo.grad_after_second_backward   # y.backward(...), x.grad.backward()
(tensor(12.), tensor(24.))
>>> demo
SecondDerivative(x**3 at x = 2: f' = 12., f'' = 12.)

Way 1: ``(dy,) = autograd.grad(y, x, create_graph=True)`` returns f'(x) as a tensor with a
graph of its own; ``autograd.grad(dy, x)`` differentiates that graph: f''(x).

Way 2: ``y.backward(create_graph=True)`` leaves f'(x) in ``x.grad``, with a graph. Then
``x.grad.backward()`` differentiates it, and, as every backward does, *adds* the result
into ``x.grad``: x.grad becomes f'(x) + f''(x) (12 + 12 = 24 for x³ at 2), not f''(x).

Each way starts from its own fresh leaf, so they cannot disturb each other.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import ipywidgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import minigrad as mg
from minigrad import Tensor

from ._fallback import small_png, with_fallback
from ._graph import full_value
from ._markup import Markup, html, one_line, plot_text
from ._plot_fonts import plot_fonts
from .draw import BLUE, REDDISH_PURPLE, VERMILLION, draw
from .i18n import _, plot_gettext
from .stepper import BackwardStepper


class SecondDerivative(ipywidgets.VBox):
    """f'(x0) and f''(x0) by both routes, the graph of the derivative, a stepper through
    ``x.grad.backward()``, and a plot of f, f', f'' around ``x0`` with the tangent line.

    ``f`` takes and returns a Tensor; for the plot it is called on a whole ``linspace``
    (elementwise functions) or, if that fails, on one point at a time.
    """

    def __init__(
        self,
        f: Callable[[Tensor], Tensor],
        x0: float,
        label: str = "f(x)",
        width: float = 2.0,
        points: int = 81,
    ) -> None:
        # The label is text on one line, wherever it is shown (widgets._markup).
        self.f, self.x0, self.label = f, float(x0), one_line(str(label))

        # Way 1: autograd.grad twice. No .grad is touched.
        x = mg.tensor(self.x0, requires_grad=True)
        y = f(x)
        (self.first,) = mg.autograd.grad(y, x, create_graph=True)
        (self.second,) = mg.autograd.grad(self.first, x)

        # Way 2: backward with create_graph, then backward through x.grad.
        self.x = mg.tensor(self.x0, requires_grad=True)
        self.y = f(self.x)
        # What self.y.backward(create_graph=True) runs, without its reference-cycle warning:
        # PyTorch gives that once per process, and it belongs to the student's own call.
        mg.engine.BackwardPass([self.y], create_graph=True).run()
        assert self.x.grad is not None
        self.grad_after_backward = self.x.grad.detach().clone()
        # The original graph with the graph of x.grad beside it, before x.grad.backward().
        names = {"x": self.x, "y": self.y, "x.grad": self.x.grad}
        self.drawing = draw(self.y, names=names)
        # The stepper runs x.grad.backward() and shows it step by step.
        self.stepper = BackwardStepper(self.x.grad, names=names, originals=[self.y])
        self.grad_after_second_backward = self.x.grad.detach().clone()

        self._build(width, points)

    def __repr__(self) -> str:
        # Short and the same on every run: a notebook saves it as the cell's text output.
        return (
            f"SecondDerivative({self.label} at x = {self.x0:g}: "
            f"f' = {full_value(self.first)}, f'' = {full_value(self.second)})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        # For viewers without widgets: the plot, and the numbers in words.
        data = super()._repr_mimebundle_(**kwargs)
        text = f"{self!r}\n" + _(
            "x.grad after y.backward(create_graph=True): {before}; after x.grad.backward(): "
            "{after} (f' + f'')"
        ).format(
            before=full_value(self.grad_after_backward),
            after=full_value(self.grad_after_second_backward),
        )
        return with_fallback(data, text, small_png(self._plot.value, 64))

    def _build(self, width: float, points: int) -> None:
        values = dict(
            name=self.label,
            x0=self.x0,
            f1=full_value(self.first),
            f2=full_value(self.second),
            before=full_value(self.grad_after_backward),
            after=full_value(self.grad_after_second_backward),
        )
        # One catalog entry per part: the heading, then each way as an item of the list.
        heading_of_ways = html(_("<b>y = {name} at x = {x0:g}</b>"), **values)
        way_1 = html(
            _(
                "<li><code>(dy,) = autograd.grad(y, x, create_graph=True)</code> gives\n"
                "f'(x) = <code>{f1}</code>, a tensor with its own graph; then\n"
                "<code>autograd.grad(dy, x)</code> gives f''(x) = <code>{f2}</code></li>"
            ),
            **values,
        )
        way_2 = html(
            _(
                "<li><code>y.backward(create_graph=True)</code> leaves f'(x) = "
                "<code>{before}</code> in\n"
                "<code>x.grad</code>, with a graph (the reddish-purple nodes below). Then\n"
                "<code>x.grad.backward()</code> sends f''(x) = <code>{f2}</code> to x and, like "
                "every backward,\n"
                "<i>adds</i> it into <code>x.grad</code>, which already holds f'(x):\n"
                "x.grad becomes <code>{before}</code> + <code>{f2}</code> = <code>{after}</code>\n"
                "(f' + f'', not f''). To get f'' alone this way, keep <code>g = x.grad</code>,\n"
                "set <code>x.grad = None</code>, then call <code>g.backward()</code>.</li>"
            ),
            **values,
        )
        text = html(
            """
<div class="minigrad-second-derivative" style="font-family: sans-serif; font-size: 14px;
line-height: 1.4">
{}
<ol>
{}
{}
</ol></div>""",
            heading_of_ways,
            way_1,
            way_2,
        )
        heading = ipywidgets.HTML(
            html(
                '<div style="font-family: sans-serif; font-size: 14px"><b>{}</b></div>',
                Markup(
                    _(
                        "The graph of y, and beside it (reddish purple) the graph that "
                        "computes x.grad:"
                    )
                ),
            )
        )
        graph = ipywidgets.VBox([heading, self.drawing.widget()])  # drawn in the browser
        title = ipywidgets.HTML(
            html(
                '<b style="font-family: sans-serif; font-size: 14px">{}</b>',
                html(_("Stepping through {code}:"), code=Markup("<code>x.grad.backward()</code>")),
            )
        )
        self._plot = ipywidgets.Image(value=self.plot_png(width, points), format="png")
        super().__init__([ipywidgets.HTML(text), graph, title, self.stepper, self._plot])
        self.add_class("minigrad-second-derivative")

    # -- the plot ----------------------------------------------------------------------------
    def derivatives(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """f, f' and f'' at ``xs``, by minigrad's autograd.grad (vectorised when ``f`` is
        elementwise, else one point at a time)."""
        try:
            return _derivatives(self.f, mg.tensor(xs))
        except (RuntimeError, ValueError, TypeError):
            columns = [_derivatives(self.f, mg.tensor(float(v))) for v in xs]
            return tuple(np.array([c[i] for c in columns]).ravel() for i in range(3))

    @plot_fonts()  # Noto Sans SC after matplotlib's fonts, for Chinese words
    def plot_png(self, width: float = 2.0, points: int = 81) -> bytes:
        xs = np.linspace(self.x0 - width, self.x0 + width, points, dtype=np.float32)
        fs, d1, d2 = self.derivatives(xs)
        y0 = self.y.item()
        slope = self.grad_after_backward.item()
        figure = Figure(figsize=(8.4, 3.0), dpi=100)
        FigureCanvasAgg(figure)
        left, right = figure.subplots(1, 2)
        left.plot(xs, fs, color=BLUE, label=plot_text(self.label))
        left.plot(
            xs, y0 + slope * (xs - self.x0), "--", color=VERMILLION, label=plot_gettext("tangent")
        )
        left.plot([self.x0], [y0], "o", color=VERMILLION)
        left.set_title(
            plot_gettext("f and its tangent at x = {x0:g} (slope {slope:g})").format(
                x0=self.x0, slope=slope
            ),
            fontsize=10,
        )
        right.plot(xs, d1, color=VERMILLION, label="f'")
        right.plot(xs, d2, color=REDDISH_PURPLE, label="f''")
        right.plot([self.x0] * 2, [slope, self.second.item()], "o", color="#000000")
        right.set_title(plot_gettext("f' and f'' (by autograd.grad)"), fontsize=10)
        for axes in (left, right):
            axes.axvline(self.x0, color="#999999", linewidth=0.8)
            axes.set_xlabel("x")
            axes.legend(fontsize=8)
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()


def _derivatives(f: Callable[[Tensor], Tensor], xs: Tensor) -> tuple[np.ndarray, ...]:
    xs.requires_grad_(True)
    ys = f(xs)
    if ys.shape != xs.shape:
        raise ValueError("f is not elementwise")
    # Summing first: for an elementwise f, d(sum f)/dx_i = f'(x_i).
    (d1,) = mg.autograd.grad(ys.sum(), xs, create_graph=True)
    (d2,) = mg.autograd.grad(d1.sum(), xs, allow_unused=True, materialize_grads=True)
    return tuple(t.detach().numpy().astype(float) for t in (ys, d1, d2))
