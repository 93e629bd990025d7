"""Hostile names in a real browser: an exported page of steppers and drawings whose tensor
names and op names are script, event handlers, links, unbalanced markup, Graphviz record
syntax, newlines and backslashes (issue 21).

The notebook is executed with its widget state stored and exported with nbconvert for
offline use (as ``test_stepper_static.py`` does), then opened over file:// in Chromium with
Graphviz's ``dot`` absent: every picture is drawn by Graphviz in the browser. No dialog may
open (``alert`` from any of the names), and every picture draws, with as many boxes as the
graph has and the name as typed.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

import widgets
from widgets._markup import LONGEST_BOX_LINE

pytestmark = pytest.mark.browser

# The table of names, shared with the JupyterLab test (test_hostile_names_lab.py).
NAMES = runpy.run_path(str(Path(__file__).parents[1] / "hostile_names.py"))["NAMES"]

# The engine of one's own is the widgets test's (tests/widgets/toy_engine.py), run in the notebook.
TOY_ENGINE = (Path(__file__).parents[1] / "widgets" / "toy_engine.py").read_text()
SETUP = (
    """import minigrad as mg
import widgets

"""
    + TOY_ENGINE
    + """

def own_engine(name):
    x, w = Value(2.0), Value(3.0)
    out = Value(6.0, (x, w), name, lambda g: (g * 3.0, g * 2.0))
    return widgets.BackwardStepper(out, names={name: x, "w": w, name + "!": out})"""
)


def minigrad_stepper(name: str) -> str:
    return (
        "x = mg.tensor(2.0, requires_grad=True)\n"
        "w = mg.tensor(3.0, requires_grad=True)\n"
        "a = x * w\n"
        "y = (a + x).tanh()\n"
        f"name = {name!r}\n"
        'widgets.BackwardStepper(y, names={name: x, "w": w, name + "2": a, name + "3": y})'
    )


CELLS = [
    SETUP,
    *(minigrad_stepper(name) for name in NAMES),
    *(f"own_engine({name!r})" for name in NAMES),
    f"widgets.draw(y, names={{{NAMES[0]!r}: y, {NAMES[3]!r}: x}})",
]


def expected_boxes() -> list[int]:
    """How many boxes each picture has, from the same cells run here."""
    namespace: dict = {}
    exec(CELLS[0], namespace)
    counts = []
    for cell in CELLS[1:]:
        *lines, last = cell.split("\n")
        exec("\n".join(lines), namespace)
        shown = eval(last, namespace)
        if isinstance(shown, widgets.BackwardStepper):
            counts.append(len(shown.graph.nodes))
        else:  # the drawing: a statement per box, "\tt0 [label=..."
            counts.append(len(re.findall(r"^\t\w+ \[label=", shown.source, re.MULTILINE)))
    return counts


def test_hostile_names_run_no_script_and_every_picture_draws(page, tmp_path, export_html):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    path = tmp_path / "hostile.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)

    check_hostile_page(page, exported.as_uri())


def check_hostile_page(page, url: str) -> None:
    """Open ``url``, a page of ``CELLS``' outputs (an exported notebook, a docs page), and
    check that no script runs and every picture draws with its boxes and names (also run
    by ``test_hostile_names_docs.py``, on the docs site)."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    pictures = page.locator(".minigrad-graphviz")
    expected = expected_boxes()
    expect(pictures).to_have_count(len(expected), timeout=60_000)
    expect(page.locator(".minigrad-frame").first).to_be_visible()
    page.wait_for_timeout(500)  # an image's onerror fires once its load has failed
    assert dialogs == []
    expect(page.locator(".minigrad-graphviz[data-rendered]")).to_have_count(
        len(expected), timeout=60_000
    )
    expect(page.locator(".minigrad-graphviz-error")).to_have_count(0)
    drawn = pictures.evaluate_all("views => views.map(v => v.querySelectorAll('g.node').length)")
    assert drawn == expected

    # Every stepper steps to its end (each frame shows its copies of the texts), the page's
    # mouse passes over every box and panel (an onmouseover would fire), and no element
    # came from a name.
    steppers = page.locator(".minigrad-stepper")
    expect(steppers).to_have_count(2 * len(NAMES))
    for i in range(2 * len(NAMES)):
        stepper = steppers.nth(i)
        handle = stepper.locator(":scope > .widget-slider .noUi-handle")
        handle.focus()
        handle.press("End")
        expect(stepper.locator(".minigrad-frame:visible .minigrad-step-panel")).to_contain_text(
            "Done"
        )
        for box in stepper.locator("svg g.node").all():
            box.hover()
        stepper.locator(".minigrad-frame:visible").hover()
        handle.press("Home")
        name = NAMES[i % len(NAMES)]
        shown = name.replace("\n", "\\n")
        panel = stepper.locator(".minigrad-frame:visible .minigrad-step-panel")
        suffix = "3" if i < len(NAMES) else "!"
        assert f"∂{shown}{suffix}/∂{shown}{suffix}" in panel.text_content()
        # In a box as typed; a name too long for a box in full in the box's tooltip.
        texts = stepper.locator("svg text").all_text_contents()
        titles = stepper.locator("svg g.node > title").all_text_contents()
        assert any(shown in text for text in texts + titles), texts
        if len(shown) <= LONGEST_BOX_LINE:
            assert any(shown in text for text in texts), texts
    # The widget state holds the names as JSON text in a <script> of a data type (nbconvert
    # writes "</" as "<\/" there): only scripts the browser runs count.
    counts = page.evaluate(
        """() => ({
            img: document.querySelectorAll('img:not([src^="data:"])').length,
            script: [...document.querySelectorAll('script')]
                .filter(s => !s.type || /javascript|module/.test(s.type))
                .filter(s => s.textContent.includes('alert(1)')).length,
            links: document.querySelectorAll('a[href^="javascript:"], svg a').length,
            handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes]
                .some(a => a.name.startsWith('on') && a.value.includes('alert'))).length,
        })"""
    )
    assert counts == {"img": 0, "script": 0, "links": 0, "handlers": 0}
    page.wait_for_timeout(500)  # an image's onerror fires after its load fails
    assert dialogs == []
