"""The nbconvert HTML export of a stepper notebook, stepped through with no kernel.

The notebook is executed with its widget state stored, exported with
``jupyter nbconvert --to html`` against local copies of require.js, the widget renderer
and anywidget's front end (no CDN: the test runs offline), and opened over file://, with
Graphviz's ``dot`` absent from PATH: the picture is drawn by Graphviz in the browser. Only
the browser-side links work there (position slider -> Stack of frames), which is exactly
what is tested.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NUM_STEPS = 4  # y = x*w + x: AddBackward0, MulBackward0, one AccumulateGrad per leaf


def test_exported_page_steps_with_the_slider_and_no_kernel(
    page, stepper_notebook, export_html, artifacts, read_stepper
):
    exported = export_html(stepper_notebook)
    page.goto(exported.as_uri())

    frame = page.locator(".minigrad-frame:visible")
    panel = frame.locator(".minigrad-step-panel")
    expect(frame).to_have_attribute("data-position", "0")
    expect(panel).to_contain_text("Before the backward pass")
    state = read_stepper(page)
    assert state["lit"] == [] and state["done"] == []
    # The Stack puts only the selected frame, so only its stylesheet, in the page.
    expect(page.locator(".minigrad-frame")).to_have_count(1)

    # The position slider is the stepper's own child; the speed slider sits in the
    # controls row.
    handle = page.locator(".minigrad-stepper > .widget-slider .noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    expect(frame).to_have_attribute("data-position", "1")
    expect(panel).to_have_attribute("data-position", "1")
    expect(panel).to_contain_text(f"Step 1 of {NUM_STEPS}")
    first = read_stepper(page)
    assert first["lit"] == [f"mg-{first['panelNode']}"]

    handle.press("End")
    expect(frame).to_have_attribute("data-position", str(NUM_STEPS))
    expect(panel).to_contain_text(f"Step {NUM_STEPS} of {NUM_STEPS}")
    expect(panel).to_contain_text("Done")
    last = read_stepper(page)
    assert last["panelNode"] != first["panelNode"]
    assert f"mg-{last['panelNode']}" in last["lit"]
    # Every other node has run: drawn as done.
    others = {i for i in last["boxes"] if i.startswith("mg-n")} - {f"mg-{last['panelNode']}"}
    assert set(last["done"]) == others
    # Worked by hand: dy/dx = w + 1 = 4, dy/dw = x = 2.
    assert last["leaves"] == {"x (leaf)": "grad 4.", "w (leaf)": "grad 2."}

    handle.press("Home")
    expect(frame).to_have_attribute("data-position", "0")
    assert read_stepper(page)["leaves"] == {"x (leaf)": "grad None", "w (leaf)": "grad None"}

    handle.press("End")
    page.locator(".minigrad-stepper").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "stepper-static-html.png")


# A page of every widget a lesson shows, exported with no kernel: lesson 7's wide drawing
# (f(x) = x³ with the graph of f' beside it), a stepper through a 13-node graph, the
# accumulation widget of lesson 4 and the second-derivative widget of lesson 7.
WIDGET_CELLS = [
    "import minigrad as mg\nimport widgets",
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "y = x**3\n"
    "(first,) = mg.autograd.grad(y, x, create_graph=True)\n"
    'widgets.draw(y, derivatives=[first], names={"x": x, "y": y, "first": first})',
    "a = mg.tensor(0.5, requires_grad=True)\n"
    "b = mg.tensor(-1.0, requires_grad=True)\n"
    "h = ((a * b + a).tanh() * 2 - b).exp() / (a + 3)\n"
    'widgets.BackwardStepper(h, names={"a": a, "b": b, "h": h})',
    "w = mg.tensor(2.0, requires_grad=True)\n"
    'widgets.GradAccumulation(lambda w: w**2, [w], names=["w"])',
    'widgets.SecondDerivative(lambda x: x**3, 2.0, label="x**3")',
]

# The size in CSS pixels of every text shown in the pictures inside ``root``, as drawn (its
# font size times the scale the picture is drawn at), and how wide each picture is drawn
# beside the room it has.
READ_PICTURES = """
root => [...root.querySelectorAll('.minigrad-graphviz')].map(view => {
    const svg = view.querySelector('svg');
    const texts = [...svg.querySelectorAll('text')]
        .filter(t => getComputedStyle(t).display !== 'none' && t.textContent.trim());
    return {
        layout: view.dataset.layout,
        drawnWidth: svg.getBoundingClientRect().width,
        room: view.clientWidth,
        textPx: texts.map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a),
    };
})
"""


def write_notebook(path, cells):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, path)
    return path


def test_an_exported_page_is_readable_and_says_which_controls_need_a_kernel(
    page, tmp_path, export_html, artifacts, panel_font_sizes
):
    exported = export_html(write_notebook(tmp_path / "widgets.ipynb", WIDGET_CELLS))
    page.set_viewport_size({"width": 1000, "height": 1700})
    page.goto(exported.as_uri())
    expect(page.locator(".minigrad-graphviz svg g.node").first).to_be_visible(timeout=60_000)
    expect(page.locator(".minigrad-graphviz[data-rendered]")).to_have_count(
        4
    )  # 1 + 3 steppers' pictures

    # Items 3 and 5 of issue 15: every picture fits the column or is laid out top to bottom,
    # and no text in any is smaller than a lesson's 14px.
    # Each picture is fitted again when its room changes (a ResizeObserver): wait until each
    # was fitted to the room it has now.
    page.wait_for_function(
        "[...document.querySelectorAll('.minigrad-graphviz')]"
        ".every(v => v.dataset.room === String(Math.round(v.clientWidth)))"
    )
    pictures = page.locator("body").evaluate(READ_PICTURES)
    assert len(pictures) == 4
    for picture in pictures:
        assert picture["textPx"] and min(picture["textPx"]) >= 13.9, picture
        assert picture["drawnWidth"] <= picture["room"] + 1, picture
    # The 13-node stepper's graph, laid out left to right, would need its text shrunk below
    # 14px to fit: it is laid out top to bottom instead.
    assert pictures[1]["layout"] == "top-to-bottom"

    # The panel and the help, code included, are no smaller than a lesson's text either.
    sizes = panel_font_sizes(page.locator(".minigrad-stepper").first)
    assert sizes and min(sizes) >= 14, sizes

    # The accumulation widget's buttons run Python: disabled here, with a note saying why.
    accumulation = page.locator(".minigrad-grad-accumulation")
    buttons = accumulation.locator(".minigrad-buttons button")
    expect(buttons).to_have_count(5)
    for i in range(5):
        expect(buttons.nth(i)).to_be_disabled()
    expect(accumulation.locator(".minigrad-kernel-note")).to_be_visible()
    expect(accumulation.locator(".minigrad-kernel-note")).to_contain_text("need a running kernel")

    # The steppers' buttons need no kernel: they step here, and are enabled as the frame
    # shown allows, whether it was reached with them or with the slider.
    stepper = page.locator(".minigrad-stepper").first
    frame = stepper.locator(".minigrad-frame:visible")
    button = {name: stepper.locator(f"button.minigrad-{name}-button") for name in MOVES}
    expect(frame).to_have_attribute("data-position", "0")
    expect(button["back"]).to_be_disabled()
    expect(button["reset"]).to_be_disabled()
    expect(button["step"]).to_be_enabled()
    button["step"].click()
    expect(frame).to_have_attribute("data-position", "1")
    expect(button["back"]).to_be_enabled()
    # The first step's arrows show the gradient's arrowhead at the input end, in red.
    heads = stepper.locator("g.edge > polygon.mg-back-head")
    shown = heads.evaluate_all(
        "hs => hs.filter(h => getComputedStyle(h).display !== 'none')"
        ".map(h => getComputedStyle(h).fill)"
    )
    assert shown and set(shown) == {"rgb(213, 94, 0)"}
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    handle.focus()
    handle.press("End")
    last = frame.get_attribute("data-position")
    assert int(last) > 5
    expect(button["step"]).to_be_disabled()
    expect(button["run"]).to_be_disabled()
    expect(button["back"]).to_be_enabled()
    button["reset"].click()
    expect(frame).to_have_attribute("data-position", "0")
    expect(button["back"]).to_be_disabled()

    page.locator(".minigrad-stepper").first.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "widgets-static-html.png", full_page=True)


MOVES = ("reset", "back", "step", "run")
