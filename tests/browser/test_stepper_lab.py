"""JupyterLab in headless Chromium: run a notebook with a stepper and click "step ▶".

The step button is a Python callback, so this exercises the whole loop: the browser sends
the click to the kernel, the stepper moves its slider and Stack, and the browser shows the
next frame. Every assertion reads the page, never the Python object.
"""

from __future__ import annotations

import os
import re

import nbformat
import pytest
from nbclient import NotebookClient
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def open_and_run_all(page, base_url: str, token: str, notebook: str) -> None:
    page.goto(f"{base_url}/lab/tree/{notebook}?reset&token={token}")
    # The execution indicator says idle before the kernel is connected; the status bar's
    # "<kernel name> | Idle" appears only once it is (else Run All asks for a kernel).
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )
    page.locator(".lm-MenuBar-item", has_text="Run").click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()


def visible_frame(page):
    return page.locator(".minigrad-frame:visible")


def test_step_button_walks_through_backward_in_jupyterlab(
    page, lab_server, stepper_notebook, artifacts, read_stepper
):
    base_url, token = lab_server
    open_and_run_all(page, base_url, token, stepper_notebook.name)

    expect(visible_frame(page)).to_have_attribute("data-position", "0", timeout=60_000)
    before = read_stepper(page)
    assert before["lit"] == [] and before["done"] == []
    assert before["text"].strip().startswith("Before the backward pass")
    # y = x*w + x: four steps (AddBackward0, MulBackward0 and one AccumulateGrad per leaf).
    assert "4 steps" in before["text"]
    assert before["leaves"] == {"x (leaf)": "grad None", "w (leaf)": "grad None"}

    step_button = page.locator("button.minigrad-step-button")
    states = [before]
    for position in range(1, 5):
        step_button.click()
        expect(visible_frame(page)).to_have_attribute("data-position", str(position))
        state = read_stepper(page)
        previous = states[-1]

        assert state["panelPosition"] == state["position"] == previous["position"] + 1
        assert state["text"] != previous["text"]
        assert state["text"].strip().startswith(f"Step {position} of 4")
        assert "arriving" in state["text"] or "gradients arrive" in state["text"]
        # The node the panel is about is drawn as the current one (red, thick), and so is
        # the leaf its step updates, if any; the nodes of the earlier steps as done (green).
        node = f"mg-{state['panelNode']}"
        accumulated = re.search(r"AccumulateGrad for the leaf (\w+)", state["text"])
        first_lines = {box["lines"][0]: i for i, box in state["boxes"].items()}
        updated = [first_lines[f"{accumulated[1]} (leaf)"]] if accumulated else []
        assert sorted(state["lit"]) == sorted([node, *updated])
        assert set(state["done"]) == {f"mg-{s['panelNode']}" for s in states[1:]}

        # A leaf's .grad text changes exactly at the step of its AccumulateGrad.
        for leaf, grad_text in state["leaves"].items():
            changed = grad_text != previous["leaves"][leaf]
            assert changed == (accumulated is not None and leaf == f"{accumulated[1]} (leaf)")
        states.append(state)

    # Worked by hand: dy/dx = w + 1 = 4 (two paths, 3 + 1), dy/dw = x = 2.
    assert states[-1]["leaves"] == {"x (leaf)": "grad 4.", "w (leaf)": "grad 2."}
    x_step = next(s for s in states if "AccumulateGrad for the leaf x" in s["text"])
    assert "2 gradients arrive" in x_step["text"]
    assert "They add up: 4." in x_step["text"]
    expect(step_button).to_be_disabled()

    page.locator(".minigrad-stepper").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "stepper-jupyterlab.png")


# A notebook of a drawing, a stepper and the accumulation widget of lesson 4.
WIDGET_CELLS = [
    "import minigrad as mg\nimport widgets",
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "w = mg.tensor(3.0, requires_grad=True)\n"
    "y = x * w + x\n"
    "widgets.draw(y)",
    "widgets.BackwardStepper(y)",
    'widgets.GradAccumulation(lambda w: w**2, [w], names=["w"])',
]

# A stand-in for Graphviz's dot (the browser tests hide the real one): prints a PNG.
STAND_IN_DOT = """#!{python}
import io, sys
from PIL import Image
sys.stdin.buffer.read()
out = io.BytesIO()
Image.new("RGB", (240, 80), (230, 159, 0)).save(out, format="png")
sys.stdout.buffer.write(out.getvalue())
"""


@pytest.fixture
def dot_on_path(tmp_path, without_dot, monkeypatch):
    """A stand-in ``dot`` on PATH, for the servers and kernels started after it."""
    import sys

    folder = tmp_path / "stand-in-bin"
    folder.mkdir()
    dot = folder / "dot"
    dot.write_text(STAND_IN_DOT.format(python=sys.executable))
    dot.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    return dot


def output_of(page, cell: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(cell).locator(".jp-OutputArea-output")


def test_lab_shows_live_widgets_over_their_png_and_controls_follow_the_frame(
    page, dot_on_path, lab_server, tmp_path, artifacts, panel_font_sizes
):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in WIDGET_CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    nbformat.write(notebook, tmp_path / "widgets.ipynb")
    # Stored: beside each widget view, a PNG (from "dot") and a text for other viewers.
    drawing_output = notebook.cells[1].outputs[0]["data"]
    assert {"image/png", "text/plain", WIDGET_VIEW} <= set(drawing_output)

    base_url, token = lab_server
    # Untrusted (never run here): JupyterLab shows the PNG, not the widget.
    page.goto(f"{base_url}/lab/tree/widgets.ipynb?reset&token={token}")
    expect(output_of(page, 1).locator("img")).to_be_visible(timeout=60_000)
    expect(output_of(page, 1).locator(".minigrad-graphviz")).to_have_count(0)

    open_and_run_all(page, base_url, token, "widgets.ipynb")
    # Run, with widgets: the live picture, and no PNG beside it.
    expect(output_of(page, 1).locator(".minigrad-graphviz svg g.node").first).to_be_visible(
        timeout=60_000
    )
    expect(output_of(page, 1).locator("img")).to_have_count(0)

    # The stepper: buttons enabled as the frame shown allows, however it was reached.
    stepper = page.locator(".minigrad-stepper")
    frame = stepper.locator(".minigrad-frame:visible")
    button = {n: stepper.locator(f"button.minigrad-{n}-button") for n in ("back", "step", "run")}
    expect(frame).to_have_attribute("data-position", "0", timeout=60_000)
    expect(button["back"]).to_be_disabled()
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    handle.focus()
    handle.press("End")
    expect(frame).to_have_attribute("data-position", "4")
    expect(button["step"]).to_be_disabled()
    expect(button["run"]).to_be_disabled()
    expect(button["back"]).to_be_enabled()
    button["back"].click()
    expect(frame).to_have_attribute("data-position", "3")
    expect(button["step"]).to_be_enabled()

    # JupyterLab's theme makes code 13px: the panel's code stays at 14px, as its prose.
    sizes = panel_font_sizes(stepper)
    assert sizes and min(sizes) >= 14, sizes

    # The accumulation widget: a kernel is there, so its buttons work and no note shows.
    demo = page.locator(".minigrad-grad-accumulation")
    expect(demo.locator(".minigrad-buttons")).to_have_attribute("data-kernel", "live")
    expect(demo.locator(".minigrad-kernel-note")).to_be_hidden()
    retain = demo.locator("button", has_text="backward(retain_graph=True)")
    expect(retain).to_be_enabled()
    plot = demo.locator(".widget-image")
    expect(plot).to_be_visible()

    def aspect() -> float:
        box = plot.bounding_box()
        return box["width"] / box["height"]

    first = aspect()
    for rows in range(2, 12):
        retain.click()
        expect(demo.locator("table.minigrad-accumulation-history tr")).to_have_count(rows + 1)
    # Ten more rows of history beside it: the plot keeps its shape (the PNG is 420x260).
    assert abs(aspect() - first) < 0.01 and abs(first - 420 / 260) < 0.02
    demo.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "widgets-jupyterlab.png")
