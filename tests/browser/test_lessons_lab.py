"""The lessons as ``make lab`` serves them, in JupyterLab in headless Chromium.

One server for the module, on a copy of ``notebooks/`` (a Run All must not write into the
repository), started the way the Makefile's ``lab`` target starts it: the course's notebooks
trusted first by ``scripts/trusted_notebooks.py trust`` (those whose content is in the
manifest of what the course shipped), then ``jupyter lab`` with the landing page
``README.md`` as its default URL. Instead of a real browser window, the server "opens" a
command that records the address it was asked to open, and Chromium goes there.

* The landing page is the README rendered as a page (Markdown preview, from bootstrap's
  settings), and a click on a lesson's link opens the lesson.
* Lessons 3, 4 and 7, opened before running anything, show their drawings and widgets
  rendered (boxes laid out by Graphviz in the browser), not the text a viewer without
  widgets shows (``BackwardStepper(...)``, ``<widgets.Drawing ...>``).
* After Run All, the steppers the student uses are at step 0, and each box shows its value
  as of that step.

Screenshots of the lessons before running go to ``test-artifacts/`` (copied to
``docs/images/lesson*_opened.png`` by hand after looking at them).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# What a notebook shows for a widget when it cannot render it (an untrusted notebook).
WIDGET_TEXTS = re.compile(
    r"BackwardStepper\(|<widgets\.Drawing|GradAccumulation\(|SecondDerivative\("
)


@pytest.fixture(scope="module")
def course(tmp_path_factory, lab_tools) -> Iterator[tuple[str, str, Path, Path]]:
    """A JupyterLab on a trusted copy of the course: ``(base_url, token, folder, opened)``,
    where ``opened`` is the file holding the address the server opened on start."""
    root = tmp_path_factory.mktemp("course")
    folder, env = lab_tools.trusted_course_copy(root)  # make lab's trust step, on a copy
    opened = root / "opened.txt"
    record = root / "record-address"
    record.write_text(f'#!/bin/sh\necho "$1" > "{opened}"\n')
    record.chmod(record.stat().st_mode | stat.S_IXUSR)
    args = (
        "--ServerApp.open_browser=True",
        f"--ServerApp.browser={record} %s",
        # make lab: jupyter lab --notebook-dir=notebooks --LabApp.default_url=/lab/tree/README.md
        "--LabApp.default_url=/lab/tree/README.md",
    )
    before = os.environ.get("PATH", "")
    # Graphviz's dot hidden from the server and its kernels, as in every browser test.
    os.environ["PATH"] = lab_tools.path_without_graphviz(root / "no-dot")
    try:
        with lab_tools.jupyter_server("lab", folder, args, env) as (base_url, token):
            yield base_url, token, folder, opened
    finally:
        os.environ["PATH"] = before


def widget_cells(folder: Path, name: str) -> dict[int, str]:
    """The code cells of a lesson that show a widget: index -> the widget's source line."""
    nb = nbformat.read(folder / name, as_version=4)
    return {
        i: cell.source.splitlines()[-1]
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and any(
            "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in cell.outputs
        )
    }


def expect_kernel_idle(page) -> None:
    """The open notebook's kernel has started and is idle, as its status bar says."""
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )


def open_lesson(page, base_url: str, token: str, name: str) -> None:
    page.goto(f"{base_url}/lab/tree/{name}?reset&token={token}")
    expect_kernel_idle(page)


def server_log_on_kernels(folder: Path) -> str:
    """The server's log lines about kernels and their websockets (starts, connections,
    reconnections, nudges, restarts): whether the page's kernel connection was lost."""
    log = folder / "jupyter-lab.log"
    if not log.exists():
        return "(no log)"
    words = ("ernel", "ebsocket", "Nudge", "stale", "estart")
    lines = [
        line
        for line in log.read_text(errors="replace").splitlines()
        if any(w in line for w in words)
    ]
    return "\n".join(lines[-40:])


def check_rendered(
    page, lab_tools, folder: Path, name: str, traffic: object = ""
) -> dict[int, object]:
    """Every widget cell of the lesson shows its widget, with no text stand-in. On failure,
    ``traffic`` (a ``KernelTraffic``) says what the widget manager and the kernel did."""
    cells = widget_cells(folder, name)
    assert cells, f"{name} shows no widget"
    shown = {}
    for index, line in cells.items():
        cell = lab_tools.show_cell(page, index)
        output = cell.locator(".jp-OutputArea-output").first
        expect(output).to_be_visible()
        if "GradAccumulation" in line:
            widget = output.locator(".minigrad-grad-accumulation")
            expect(widget.locator("table.minigrad-accumulation-history")).to_be_visible()
            expect(widget.locator("img").first).to_be_visible()
        else:
            # Drawings, steppers and SecondDerivative: boxes laid out by Graphviz (wasm).
            try:
                expect(output.locator("svg g.node").first).to_be_visible(timeout=60_000)
            except AssertionError:
                # What the cell shows instead says why (seen once on a loaded machine).
                shown = cell.locator(".jp-OutputArea").inner_text()[:500]
                pytest.fail(
                    f"{name} cell {index} ({line}) drew no boxes in 60 s; it shows: {shown!r}"
                    f"\nkernel traffic and console:\n{traffic}"
                    f"\nthe server's log on kernels:\n{server_log_on_kernels(folder)}"
                )
            assert output.locator("svg g.node").count() >= 3, (name, line)
        text = cell.locator(".jp-OutputArea").inner_text()
        assert not WIDGET_TEXTS.search(text), (name, index, text[:200])
        shown[index] = cell
    return shown


def box_lines(cell, read_stepper_js: str) -> tuple[dict[str, list[str]], dict]:
    """Each box of the (first) stepper in ``cell``, by its first line: the lines shown."""
    state = cell.locator(".minigrad-stepper").first.evaluate(read_stepper_js)
    return {box["lines"][0]: box["lines"] for box in state["boxes"].values() if box["lines"]}, state


def screenshot_at_first_widget(page, lab_tools, folder: Path, name: str, path: Path) -> None:
    lab_tools.show_cell(page, min(widget_cells(folder, name)))
    page.wait_for_timeout(500)
    page.screenshot(path=path)


def test_landing_page_is_the_readme_as_a_page_and_a_link_opens_a_lesson(page, course, lab_tools):
    base_url, token, folder, opened = course
    for _ in range(100):  # the server opens its "browser" once it is up
        if opened.exists() and opened.read_text().strip():
            break
        page.wait_for_timeout(100)
    address = opened.read_text().strip()
    # The server opens a local file that forwards to the address with the token.
    page.goto(address if "://" in address else Path(address).as_uri())
    preview = page.locator(".jp-RenderedMarkdown").filter(has_text="Lessons")
    expect(preview.first).to_be_visible(timeout=60_000)
    expect(page.locator(".jp-FileEditor")).to_have_count(0)  # not the Markdown source
    link = preview.first.get_by_role("link", name="03 · Backward one node at a time")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")).to_be_visible(timeout=30_000)
    current = page.locator('.lm-TabBar-tab.jp-mod-current[data-type="document-title"]')
    expect(current).to_contain_text("03_backward_step_by_step.ipynb")
    lesson = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown").first
    expect(lesson).to_contain_text("Lesson 3 · Backward, one node at a time")
    # Shut its kernel down only once it has started: a kernel deleted while it starts left
    # the server answering every later GET /api/kernels with an error (seen in CI).
    expect_kernel_idle(page)
    lab_tools.shut_down_kernels(page, base_url, token)


@pytest.mark.parametrize(
    "name",
    [
        "03_backward_step_by_step.ipynb",
        "04_accumulation_and_zeroing.ipynb",
        "07_differentiating_twice.ipynb",
    ],
)
def test_lesson_opens_rendered_and_runs_to_steppers_at_step_0(
    page, course, artifacts, lab_tools, name
):
    base_url, token, folder, _ = course
    traffic = lab_tools.KernelTraffic().attach(page)
    try:
        open_lesson(page, base_url, token, name)
        check_rendered(page, lab_tools, folder, name, traffic)
        number = name[:2].lstrip("0")
        picture = artifacts / f"lesson{number}_opened.png"
        screenshot_at_first_widget(page, lab_tools, folder, name, picture)

        lab_tools.run_all(page)
        page.wait_for_timeout(1000)
        lab_tools.wait_until_idle(page, base_url, token)
        cells = check_rendered(page, lab_tools, folder, name, traffic)
        steppers = [cell for cell in cells.values() if cell.locator(".minigrad-stepper").count()]
        if name.startswith("04"):
            assert not steppers  # lesson 4's widget is the accumulation table
        for cell in steppers:
            expect(cell.locator(".minigrad-frame:visible")).to_have_attribute("data-position", "0")
            boxes, state = box_lines(cell, lab_tools.READ_STEPPER)
            assert state["position"] == 0
            for first, lines in boxes.items():
                if first.endswith("(leaf)") and name.startswith("03"):
                    assert lines[-1] == "grad None", lines  # before the pass: nothing yet
                if "Backward" in first and "(from create_graph)" not in lines:
                    assert lines[-1] == "grad —", lines  # no gradient has arrived yet
            if name.startswith("07"):
                # x.grad.backward() adds into x.grad, which holds f'(2) = 12 before the pass
                # (24 only after it): at step 0 its box shows the value before the pass.
                value = boxes["x.grad"][-1]
                assert re.fullmatch(r"value 12\.?0*", value), boxes["x.grad"]
                assert re.fullmatch(r"grad 12\.?0*", boxes["x (leaf)"][-1]), boxes["x (leaf)"]
    finally:
        lab_tools.shut_down_kernels(page, base_url, token)  # the next lesson starts alone
