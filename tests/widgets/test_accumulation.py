"""widgets.GradAccumulation and widgets.SecondDerivative: the numbers a lesson relies on."""

import pytest

import minigrad as mg
from minigrad.function import FREED_GRAPH_MESSAGE
from widgets import GradAccumulation, SecondDerivative

pytestmark = [
    pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True"),
]


def grads(widget, name):
    return [None if g is None else float(g.item()) for g in (e.grads[name] for e in widget.history)]


def make():
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(-1.0, requires_grad=True)
    return GradAccumulation(lambda x, w: x * w * x, [x, w], names=["x", "w"]), x, w


def test_two_backward_calls_accumulate():
    widget, x, w = make()
    widget.backward(retain_graph=True)
    widget.backward()
    assert grads(widget, "x") == [None, -4.0, -8.0]
    assert grads(widget, "w") == [None, 4.0, 8.0]
    assert float(x.grad.item()) == -8.0
    assert [e.action for e in widget.history] == [
        "start",
        "backward(retain_graph=True)",
        "backward()",
    ]


def test_zero_and_none():
    widget, x, _ = make()
    widget.backward()
    grad_object = x.grad
    widget.zero_grad()
    assert grads(widget, "x")[-1] == 0.0 and x.grad is grad_object  # zeroed in place
    widget.set_none()
    assert grads(widget, "x")[-1] is None and x.grad is None
    widget.zero_grad()
    assert "is None" in widget.history[-1].note
    widget.rebuild()
    widget.backward()
    assert grads(widget, "x")[-1] == -4.0  # a fresh copy after None


def test_freed_graph_error_is_explained():
    widget, x, _ = make()
    widget.backward()
    widget.backward()
    last = widget.history[-1]
    assert last.error == FREED_GRAPH_MESSAGE
    assert grads(widget, "x")[-2:] == [-4.0, -4.0]  # the failed call changed nothing
    message = widget.message_html()
    assert "retain_graph=True" in message and "new graph" in message
    assert "Trying to backward through the graph a second time" in message
    assert "✗ error" in widget.table_html()
    assert bytes(widget._plot.value).startswith(b"\x89PNG")


def test_bad_arguments():
    x = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(TypeError):
        GradAccumulation(lambda x: x, [])
    with pytest.raises(ValueError):
        GradAccumulation(lambda x: x * 2, [x], names=["a", "b"])
    with pytest.raises(TypeError):
        GradAccumulation(lambda x: 3.0, [x])


def test_second_derivative_of_cube_at_two():
    demo = SecondDerivative(lambda x: x**3, 2.0, label="x**3")
    assert float(demo.first.item()) == 12.0 and demo.first.grad_fn is not None
    assert float(demo.second.item()) == 12.0
    assert float(demo.grad_after_backward.item()) == 12.0
    assert float(demo.grad_after_second_backward.item()) == 24.0
    assert float(demo.x.grad.item()) == 24.0
    demo.stepper.run()
    assert float(demo.stepper.current.grad_after.item()) == 24.0
    assert "(from create_graph)" in demo.drawing.source
    text = demo.children[0].value
    assert "<code>12.</code> + <code>12.</code> = <code>24.</code>" in text


def test_second_derivative_curves():
    demo = SecondDerivative(lambda x: x**3, 1.0)
    import numpy as np

    xs = np.array([-1.0, 0.5, 2.0], dtype=np.float32)
    f, d1, d2 = demo.derivatives(xs)
    np.testing.assert_allclose(f, xs**3, rtol=1e-6)
    np.testing.assert_allclose(d1, 3 * xs**2, rtol=1e-6)
    np.testing.assert_allclose(d2, 6 * xs, rtol=1e-6)
    # A function that is not elementwise is evaluated point by point.
    f2, d1b, d2b = SecondDerivative(lambda x: (x * x).sum(), 1.0).derivatives(xs)
    np.testing.assert_allclose(d1b, 2 * xs, rtol=1e-6)
    np.testing.assert_allclose(d2b, [2.0, 2.0, 2.0], rtol=1e-6)


def test_short_reprs():
    widget, _, _ = make()
    assert repr(widget) == "GradAccumulation(x, w: 1 row, last start)"
    widget.backward()
    widget.backward()
    assert repr(widget) == "GradAccumulation(x, w: 3 rows, last backward(), which failed)"
    # What a notebook saves as the text output: the short repr and the history, not the
    # widget tree.
    assert widget._repr_mimebundle_()["text/plain"].splitlines()[0] == repr(widget)
    demo = SecondDerivative(lambda x: x**3, 2.0, label="x**3")
    assert repr(demo) == "SecondDerivative(x**3 at x = 2: f' = 12., f'' = 12.)"


def test_buttons_run_their_action_in_python_and_are_drawn_by_the_browser():
    w = mg.tensor(2.0, requires_grad=True)
    demo = GradAccumulation(lambda w: w**2, [w], names=["w"])
    # The browser draws the buttons and sends each click to the kernel (tests/browser
    # checks that a page with no kernel disables them and says why).
    names = [name for name, _, _ in demo._buttons.buttons]
    assert names == [
        "backward()",
        "backward(retain_graph=True)",
        ".grad.zero_()",
        ".grad = None",
        "new graph",
    ]
    assert demo._buttons.self_id == demo._buttons.model_id
    demo._buttons._handle(demo._buttons, {"click": "backward(retain_graph=True)"}, [])
    demo._buttons._handle(demo._buttons, {"click": "backward()"}, [])
    assert [row.action for row in demo.history[1:]] == ["backward(retain_graph=True)", "backward()"]
    assert w.grad.item() == 8.0
    with pytest.raises(ValueError, match="no button named"):
        demo._buttons.click("step")


def test_the_plot_keeps_its_size_and_aspect_beside_a_growing_table():
    w = mg.tensor(2.0, requires_grad=True)
    demo = GradAccumulation(lambda w: w**2, [w], names=["w"])
    layout = demo._plot.layout
    # A flex item in a row is stretched to the row's height unless it sits at the start,
    # keeps its own size and fits its picture: then 30 rows of table leave the plot as is.
    assert (layout.align_self, layout.flex, layout.height, layout.object_fit) == (
        "flex-start",
        "0 0 auto",
        "auto",
        "contain",
    )
    assert layout.width == "420px"  # the PNG's own width: drawn at its natural size
