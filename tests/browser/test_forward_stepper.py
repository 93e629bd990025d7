"""ForwardStepper in a real browser: JupyterLab, and an exported page with no kernel.

y = x·w + x at x = 2, w = 3 with the tangents (1, 0), worked by hand: step 1 (MulBackward0)
makes 6 + 3ε (1·3 + 2·0 = 3), step 2 (AddBackward0) makes 8 + 4ε (3 + 1 = 4), so the
output's tangent is ∂y/∂x = w + 1 = 4. Every assertion reads the page, never the Python
object: the frame shown, its panel, and each box's and arrow's texts and colours as the
browser computed them.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CELLS = [
    "import minigrad as mg\nimport widgets",
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "w = mg.tensor(3.0, requires_grad=True)\n"
    "widgets.ForwardStepper(\n"
    "    lambda x, w: x * w + x, (x, w), (mg.tensor(1.0), mg.tensor(0.0)), output_name='y'\n"
    ")",
]
NUM_STEPS = 2
RED, GREEN, BLUE, GREY = (
    "rgb(213, 94, 0)",
    "rgb(0, 158, 115)",
    "rgb(0, 114, 178)",
    "rgb(153, 153, 153)",
)
# What each box's dual-number line reads after each step, by its first line.
DUAL_LINES = {1: {"MulBackward0": "6. + 3.·ε"}, 2: {"AddBackward0": "8. + 4.·ε"}}


def write_notebook(path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nbformat.write(notebook, path)
    return path


def read(page, lab_tools) -> dict:
    """The stepper as the browser shows it, with the boxes drawn as the current step's
    (red, 4 px) and as done (green, 2.5 px), and each box's lines by its first line."""
    expect(page.locator(".minigrad-frame:visible")).to_have_count(1)
    picture = page.locator(".minigrad-stepper .minigrad-picture svg g.node").first
    expect(picture).to_be_visible(timeout=60_000)
    state = page.locator(".minigrad-stepper").evaluate(lab_tools.READ_STEPPER)
    boxes = state["boxes"]
    state["lit"] = [i for i, b in boxes.items() if (b["stroke"], b["width"]) == (RED, "4px")]
    state["done"] = [i for i, b in boxes.items() if (b["stroke"], b["width"]) == (GREEN, "2.5px")]
    state["lines"] = {b["lines"][0]: b["lines"] for b in boxes.values()}
    for name, group in {**boxes, **state["arrows"]}.items():
        assert not group["overlapping"], name  # one text per line, never two at once
    for name, arrow in state["arrows"].items():
        # An arrow carries a tangent (a label) exactly when it is coloured: blue, or red
        # for the current step.
        labelled = any(arrow["lines"])
        assert (arrow["stroke"] != GREY) == labelled, (name, arrow)
        assert arrow["stroke"] in (GREY, BLUE, RED), (name, arrow)
    return state


def check_frame(state: dict, position: int, earlier: list[dict]) -> None:
    """What frame ``position`` must show, given the states before it."""
    assert state["position"] == state["panelPosition"] == position
    if position == 0:
        assert state["text"].strip().startswith("Before the forward pass of y: 2 steps")
        assert "x = 2. + 1.·ε" in state["text"] and "w = 3. + 0.·ε" in state["text"]
        assert state["lit"] == [] and state["done"] == []
        assert state["lines"]["y (output)"][-1] == "tangent —"
        # The tangents enter at make_dual: their arrows carry them from the start, in blue.
        blue = [a for a in state["arrows"].values() if a["stroke"] == BLUE]
        assert sorted(a["lines"][0] for a in blue) == ["0.·ε", "1.·ε", "1.·ε"]
        return
    assert state["text"].strip().startswith(f"Step {position} of {NUM_STEPS}")
    assert state["lit"] == [f"mg-{state['panelNode']}"]
    assert set(state["done"]) == {f"mg-{s['panelNode']}" for s in earlier[1:]}
    for title, line in DUAL_LINES[position].items():
        assert state["lines"][title][-1] == line
    # The arrows the step reads and the one its tangent leaves along are red.
    red = [a["lines"][0] for a in state["arrows"].values() if a["stroke"] == RED]
    if position == 1:
        assert "3 × 1 + 2 × 0 = 3" in state["text"]  # w·ẋ + x·ẇ
        assert sorted(red) == ["0.·ε", "1.·ε", "3.·ε"]
        assert state["lines"]["AddBackward0"][-1] == "—"
    else:
        assert "1 × 3 + 1 × 1 = 4" in state["text"]
        assert sorted(red) == ["1.·ε", "3.·ε", "4.·ε"]
        assert state["lines"]["y (output)"][-1] == "tangent 4."
        assert "Done" in state["text"]


def test_step_button_walks_the_forward_pass_in_jupyterlab(
    page, lab_server, tmp_path, artifacts, lab_tools
):
    write_notebook(tmp_path / "forward.ipynb")
    base_url, token = lab_server
    page.goto(f"{base_url}/lab/tree/forward.ipynb?reset&token={token}")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )
    lab_tools.run_all(page)
    frame = page.locator(".minigrad-frame:visible")
    expect(frame).to_have_attribute("data-position", "0", timeout=60_000)
    states = [read(page, lab_tools)]
    check_frame(states[0], 0, [])
    step = page.locator("button.minigrad-step-button")
    for position in range(1, NUM_STEPS + 1):
        step.click()
        expect(frame).to_have_attribute("data-position", str(position))
        states.append(read(page, lab_tools))
        check_frame(states[-1], position, states[:-1])
    expect(step).to_be_disabled()
    page.locator("button.minigrad-back-button").click()
    expect(frame).to_have_attribute("data-position", str(NUM_STEPS - 1))
    check_frame(read(page, lab_tools), NUM_STEPS - 1, states[: NUM_STEPS - 1])
    page.locator(".minigrad-stepper").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "forward-stepper-jupyterlab.png")


def test_exported_page_steps_the_forward_pass_with_no_kernel(
    page, tmp_path, export_html, artifacts, lab_tools
):
    exported = export_html(write_notebook(tmp_path / "forward.ipynb"))
    page.goto(exported.as_uri())
    frame = page.locator(".minigrad-frame:visible")
    expect(frame).to_have_attribute("data-position", "0", timeout=60_000)
    states = [read(page, lab_tools)]
    check_frame(states[0], 0, [])
    handle = page.locator(".minigrad-stepper > .widget-slider .noUi-handle")
    handle.focus()
    for position in range(1, NUM_STEPS + 1):
        handle.press("ArrowRight")
        expect(frame).to_have_attribute("data-position", str(position))
        states.append(read(page, lab_tools))
        check_frame(states[-1], position, states[:-1])
    handle.press("Home")
    expect(frame).to_have_attribute("data-position", "0")
    check_frame(read(page, lab_tools), 0, [])
    # The buttons move the slider in the page too.
    page.locator("button.minigrad-run-button").click()
    expect(frame).to_have_attribute("data-position", str(NUM_STEPS))
    page.locator(".minigrad-stepper").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "forward-stepper-static-html.png")
