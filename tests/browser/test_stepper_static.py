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
