"""JupyterLab in headless Chromium: run a notebook with a stepper and click "step ▶".

The step button is a Python callback, so this exercises the whole loop: the browser sends
the click to the kernel, the stepper moves its slider and Stack, and the browser shows the
next frame. Every assertion reads the page, never the Python object.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


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
