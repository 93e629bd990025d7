"""``make page``: lesson 3 as a web page, opened from disk with the network blocked, draws
and steps with no kernel, and its formulas are typeset (MathJax 3 shipped beside the page).

The page is written by ``scripts/export_page.py`` (what ``make page`` runs) from the lesson
as stored in the repository: nothing is executed. The browser may load ``file://`` URLs only;
every other request is aborted and recorded.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "03_backward_step_by_step.ipynb"


def test_the_page_of_lesson_3_draws_and_steps_offline(page, tmp_path, artifacts):
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "export_page.py"),
            str(LESSON),
            "--out",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
    )
    exported = tmp_path / "03_backward_step_by_step.html"
    blocked: list[str] = []

    def only_files(route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    page.goto(exported.as_uri())

    stepper = page.locator(".minigrad-stepper").first
    expect(stepper.locator(".minigrad-picture svg g.node").first).to_be_visible(timeout=60_000)
    assert stepper.locator(".minigrad-picture svg g.node").count() >= 3
    frame = stepper.locator(".minigrad-frame:visible")
    panel = frame.locator(".minigrad-step-panel")
    expect(frame).to_have_attribute("data-position", "0")

    # The stepper's own button, then its slider: each moves to another stored frame.
    stepper.locator("button.minigrad-step-button").click()
    expect(frame).to_have_attribute("data-position", "1")
    expect(panel).to_have_attribute("data-position", "1")
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    expect(frame).to_have_attribute("data-position", "2")
    expect(panel).to_contain_text("Step 2")
    handle.press("Home")
    expect(frame).to_have_attribute("data-position", "0")
    handle.press("ArrowRight")
    expect(frame).to_have_attribute("data-position", "1")

    stepper.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "page-export-lesson3-offline.png")

    # The formulas: every $...$ of the lesson's text typeset by MathJax (its CHTML output
    # elements), none an error, none left as TeX source.
    formulas = page.locator("mjx-container")
    expect(formulas.first).to_be_attached(timeout=30_000)
    page.wait_for_function("() => window.MathJax && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    typeset = page.evaluate(
        """() => ({
            formulas: document.querySelectorAll('mjx-container mjx-math').length,
            errors: document.querySelectorAll('mjx-merror').length,
            texLeft: [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')]
                .filter(cell => /\\frac|\\partial/.test(cell.innerText)).length,
        })"""
    )
    # Each $...$ in the lesson's Markdown is one formula (counted in the notebook itself).
    assert typeset["formulas"] >= markdown_formulas(LESSON) > 0, typeset
    assert typeset["errors"] == 0 and typeset["texLeft"] == 0, typeset
    page.locator("mjx-container").first.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "page-export-lesson3-formulas.png")
    # Nothing was asked of the network: the widgets' JavaScript, MathJax and its fonts are
    # all in the page's folder.
    assert blocked == []


def markdown_formulas(notebook: Path) -> int:
    """How many formulas (``$...$``, ``$$...$$``) the notebook's Markdown cells hold."""
    cells = nbformat.read(notebook, as_version=4).cells
    text = "\n".join(cell.source for cell in cells if cell.cell_type == "markdown")
    return len(re.findall(r"\$\$.+?\$\$|\$[^$]+\$", text, re.DOTALL))


def test_a_formula_on_the_page_cannot_make_a_script_link(page, tmp_path):
    """MathJax runs with its Safe extension (as nbconvert's MathJax 2 URL asks, ",Safe"):
    a ``javascript:`` link written in TeX is typeset without its link."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            r"A formula $x^2$ and a link $\href{javascript:alert(1)}{click}$ in TeX."
        )
    ]
    path = tmp_path / "formula.ipynb"
    nbformat.write(notebook, path)
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "export_page.py"),
            str(path),
            "--out",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
    )
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto((tmp_path / "formula.html").as_uri())
    expect(page.locator("mjx-container")).to_have_count(2, timeout=30_000)
    page.evaluate("() => MathJax.startup.promise")
    assert page.locator("mjx-container", has_text="click").count() == 1
    links = page.evaluate(
        """() => [...document.querySelectorAll('a[href], [data-mjx-href]')]
            .map(a => a.getAttribute('href') || a.dataset.mjxHref)
            .filter(href => /javascript/i.test(href))"""
    )
    assert links == []
    page.locator("mjx-container", has_text="click").click()
    page.wait_for_timeout(300)
    assert dialogs == []
