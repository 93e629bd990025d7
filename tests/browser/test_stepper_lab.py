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

# What the visible frame shows: its position, the highlighted node(s), the panel's text and
# the last line ("grad ...") of each leaf's box, keyed by the box's first line ("x (leaf)").
READ_FRAME = """
frame => {
    const panel = frame.querySelector('.minigrad-step-panel');
    const leaves = {};
    for (const box of frame.querySelectorAll('svg g.node')) {
        const lines = [...box.querySelectorAll('text')].map(t => t.textContent.trim());
        if (lines.length && lines[0].endsWith('(leaf)')) leaves[lines[0]] = lines.at(-1);
    }
    return {
        position: Number(frame.dataset.position),
        panelPosition: Number(panel.dataset.position),
        panelNode: panel.dataset.node,
        current: [...frame.querySelectorAll('.minigrad-current-node')].map(g => g.id),
        text: panel.innerText,
        leaves: leaves,
    };
}
"""


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


def read_visible_frame(page) -> dict:
    frame = visible_frame(page)
    expect(frame).to_have_count(1)
    return frame.evaluate(READ_FRAME)


def test_step_button_walks_through_backward_in_jupyterlab(
    page, lab_server, stepper_notebook, artifacts
):
    base_url, token = lab_server
    open_and_run_all(page, base_url, token, stepper_notebook.name)

    expect(visible_frame(page)).to_have_attribute("data-position", "0", timeout=60_000)
    before = read_visible_frame(page)
    assert before["current"] == []
    assert before["text"].strip().startswith("Before the backward pass")
    # y = x*w + x: four steps (AddBackward0, MulBackward0 and one AccumulateGrad per leaf).
    assert "4 steps" in before["text"]
    assert before["leaves"] == {"x (leaf)": "grad None", "w (leaf)": "grad None"}

    step_button = page.locator("button.minigrad-step-button")
    states = [before]
    for position in range(1, 5):
        step_button.click()
        expect(visible_frame(page)).to_have_attribute("data-position", str(position))
        state = read_visible_frame(page)
        previous = states[-1]

        assert state["panelPosition"] == state["position"] == previous["position"] + 1
        # Exactly one node is highlighted, a different one each step, and the panel is
        # about that node.
        assert len(state["current"]) == 1
        assert state["current"] != previous["current"]
        assert state["current"] == [f"mg-{state['panelNode']}"]
        assert state["text"] != previous["text"]
        assert state["text"].strip().startswith(f"Step {position} of 4")
        assert "arriving" in state["text"] or "gradients arrive" in state["text"]

        # A leaf's .grad text changes exactly at the step of its AccumulateGrad.
        accumulated = re.search(r"AccumulateGrad for the leaf (\w+)", state["text"])
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
