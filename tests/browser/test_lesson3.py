"""Lesson 3 as a student meets it, with Graphviz's ``dot`` absent from PATH (see the
``without_dot`` fixture): in JupyterLab, in Notebook 7 and as a static HTML export, its
drawing is laid out by Graphviz in the browser and its stepper steps.

The stepper is moved with the keyboard on its position slider, which works the same with
and without a kernel; the frames shown are read from the page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
LESSON = ROOT / "notebooks" / "03_backward_step_by_step.ipynb"


@pytest.fixture
def lesson(tmp_path: Path) -> Path:
    copy = tmp_path / LESSON.name
    shutil.copy(LESSON, copy)
    return copy


def check_lesson_steps(page, with_kernel: bool, screenshot: Path | None = None) -> None:
    """The lesson's drawing is drawn (boxes with their words) and its stepper steps: with
    the step button (a Python callback) when a kernel runs, else with the slider's keys."""
    stepper = page.locator(".minigrad-stepper").first
    expect(stepper.locator(".minigrad-picture svg g.node").first).to_be_visible(timeout=60_000)
    names = stepper.locator(".minigrad-picture svg g.node title").all_text_contents()
    assert len(names) >= 6, names  # z, x, y, their nodes: more than a few boxes
    words = stepper.locator(".minigrad-picture svg").text_content()
    assert "MulBackward0" in words and "PowBackward0" in words and "AddBackward0" in words

    frame = stepper.locator(".minigrad-frame:visible")
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    if with_kernel:
        # After Run All the lesson's stepper is where a student starts: step 0, so there
        # is nothing to reset.
        expect(stepper.locator("button.minigrad-reset-button")).to_be_disabled()
    else:
        handle.focus()
        handle.press("Home")
    expect(frame).to_have_attribute("data-position", "0")
    expect(frame).to_contain_text("Before the backward pass")
    if with_kernel:
        stepper.locator("button.minigrad-step-button").click()
    else:
        handle.press("ArrowRight")
    expect(frame).to_have_attribute("data-position", "1")
    expect(frame).to_contain_text("Step 1 of")
    # The node of step 1 is drawn as the current one: a thick red outline, set by CSS.
    node = frame.locator(".minigrad-step-panel").get_attribute("data-node")
    outline = stepper.locator(f'.minigrad-picture svg g[id="mg-{node}"] ellipse')
    expect(outline).to_have_css("stroke", "rgb(213, 94, 0)")
    if with_kernel:
        stepper.locator("button.minigrad-run-button").click()
    else:
        handle.press("End")
    expect(frame).to_contain_text("Done")
    if screenshot is not None:
        stepper.scroll_into_view_if_needed()
        page.screenshot(path=screenshot)


def test_lesson3_in_jupyterlab(page, lab_server, lesson, artifacts, lab_tools):
    base_url, token = lab_server
    page.goto(f"{base_url}/lab/tree/{lesson.name}?reset&token={token}")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )
    lab_tools.run_all(page)
    page.wait_for_timeout(1000)
    lab_tools.wait_until_idle(page, base_url, token)
    check_lesson_steps(page, True, artifacts / "lesson3-jupyterlab.png")


def test_lesson3_in_notebook7(page, notebook7_server, lesson, artifacts, lab_tools):
    base_url, token = notebook7_server
    page.goto(f"{base_url}/notebooks/{lesson.name}?token={token}")
    expect(page.locator(".jp-Notebook")).to_be_visible(timeout=60_000)
    lab_tools.wait_until_idle(page, base_url, token)
    page.wait_for_timeout(1000)  # the page connects to the kernel after the server does
    lab_tools.run_all(page)
    page.wait_for_timeout(1000)
    lab_tools.wait_until_idle(page, base_url, token)
    check_lesson_steps(page, True, artifacts / "lesson3-notebook7.png")


def test_lesson3_static_export_steps_with_no_kernel(page, lesson, export_html, artifacts):
    exported = export_html(lesson)
    page.goto(exported.as_uri())
    check_lesson_steps(page, False, artifacts / "lesson3-static-html.png")


def test_the_drawings_need_no_jupyterlab_extension_of_this_project():
    """The drawings' front end is anywidget's own extension (a static page draws them with
    no JupyterLab at all); the project's one extension, ``minigrad-widget-restore``, only
    repairs a widget restore that the widget manager lost (tests/widgets/test_labextension.py)."""
    listing = subprocess.run(
        [str(VENV_BIN / "jupyter"), "labextension", "list"],
        capture_output=True,
        text=True,
        check=True,
    )
    extensions = listing.stdout + listing.stderr
    assert "anywidget" in extensions
    ours = set(re.findall(r"\b(minigrad[\w-]*)", extensions.lower()))
    assert ours == {"minigrad-widget-restore"}, ours
