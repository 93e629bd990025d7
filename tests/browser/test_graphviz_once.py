"""Graphviz in the browser does its expensive work once: structural facts, not timings
(the timings are ``bench/browser_w5.py``'s).

A notebook of three drawings (two ``widgets.draw`` and a stepper), exported to HTML and
opened with no kernel and no ``dot``:

- Graphviz's WebAssembly is compiled and instantiated once for the page, not per drawing
  (counted by wrapping the browser's ``WebAssembly`` functions before the page loads);
- stepping never lays the graph out again (counted by wrapping the layout method of the
  page's one Graphviz instance), and the picture's marks after any sequence of steps are
  those of its position, as if it had been marked from scratch.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CELLS = [
    "import minigrad as mg\nimport widgets",
    "a = mg.tensor(2.0, requires_grad=True)\nb = (a * 3).exp()\nwidgets.draw(b)",
    "c = mg.tensor(0.5, requires_grad=True)\nd = (c.tanh() + c) * c\nwidgets.draw(d)",
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "w = mg.tensor(3.0, requires_grad=True)\n"
    "y = (x * w + x).tanh() * w\n"
    "widgets.BackwardStepper(y)",
]

# Before any script of the page runs: count every way to compile or instantiate WebAssembly.
COUNT_WEBASSEMBLY = """
window.__wasmCalls = [];
for (const name of ["compile", "compileStreaming", "instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
        window.__wasmCalls.push(name);
        return original.apply(this, args);
    };
}
const OriginalModule = WebAssembly.Module;
WebAssembly.Module = function (...args) {
    window.__wasmCalls.push("Module");
    return new OriginalModule(...args);
};
"""

# Wrap the layout of the page's Graphviz (every drawing calls Viz.render, through
# renderSVGElement and renderString): from now on, count the layouts.
COUNT_LAYOUTS = """
async () => {
    const engines = [...globalThis.__minigradGraphviz.values()];
    for (const loading of engines) {
        const viz = await loading;
        const render = viz.render;
        viz.render = function (...args) {
            window.__layouts += 1;
            return render.apply(this, args);
        };
    }
    window.__layouts = 0;
    return engines.length;
}
"""

# Every element of the stepper's picture with a step class: its step classes and its marks.
READ_MARKS = """
stepper => [...stepper.querySelectorAll('.minigrad-picture svg [class*="mg-"]')].map(e =>
    [...e.classList].filter(name => name.startsWith("mg-")))
"""
STEP_CLASS = re.compile(r"^(mg-[a-z-]+)-(\d+)$")
MARK = re.compile(r"^mg-[a-z-]+-(reached|now|past)$")


def marks_at(classes: list[str], position: int) -> set[str]:
    """The marks an element with ``classes`` has at ``position`` (what the front end's
    marking means, written out)."""
    marks = set()
    for name in classes:
        match = STEP_CLASS.match(name)
        if match:
            prefix, k = match[1], int(match[2])
            if k <= position:
                marks.add(f"{prefix}-reached")
            if k == position:
                marks.add(f"{prefix}-now")
            if k < position:
                marks.add(f"{prefix}-past")
    return marks


def test_three_drawings_share_one_graphviz_and_stepping_never_lays_out(page, tmp_path, export_html):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "three.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)

    page.add_init_script(COUNT_WEBASSEMBLY)
    page.goto(exported.as_uri())
    drawn = page.locator(".minigrad-graphviz[data-rendered] svg g.node")
    expect(page.locator(".minigrad-graphviz[data-rendered]")).to_have_count(3, timeout=60_000)
    assert drawn.count() > 0

    # One Graphviz for the three drawings: one instantiation, one load measured.
    calls = page.evaluate("window.__wasmCalls")
    assert calls.count("instantiate") + calls.count("instantiateStreaming") == 1, calls
    assert "Module" not in calls and "compile" not in calls, calls
    assert page.evaluate("performance.getEntriesByName('minigrad:graphviz-load').length") == 1
    assert page.evaluate(COUNT_LAYOUTS) == 1  # one engine in the page

    stepper = page.locator(".minigrad-stepper")
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    frame = page.locator(".minigrad-frame:visible")
    # The picture shown now, tagged: stepping must keep this very element.
    stepper.evaluate("s => { s.querySelector('.minigrad-picture svg').__tagged = true; }")
    handle.focus()
    handle.press("End")
    last = int(frame.get_attribute("data-position"))
    assert last >= 5, last

    # Forward, back, jumps: every position the slider can show, in a jumbled order.
    handle.press("Home")
    expect(frame).to_have_attribute("data-position", "0")
    moves = ["ArrowRight"] * 3 + ["ArrowLeft", "End", "ArrowLeft", "ArrowLeft", "Home"]
    moves += ["ArrowRight"] * last
    position = 0
    for key in moves:
        handle.press(key)
        position = {
            "ArrowRight": min(position + 1, last),
            "ArrowLeft": max(position - 1, 0),
            "Home": 0,
            "End": last,
        }[key]
        expect(frame).to_have_attribute("data-position", str(position))
        elements = stepper.evaluate(READ_MARKS)
        assert elements, "the picture has no step classes"
        for classes in elements:
            steps = [name for name in classes if not MARK.match(name)]
            shown = {name for name in classes if MARK.match(name)}
            assert shown == marks_at(steps, position), (position, classes)
    assert position == last

    # Not one layout while stepping, and the picture is the same one it was.
    assert page.evaluate("window.__layouts") == 0
    assert stepper.evaluate("s => s.querySelector('.minigrad-picture svg').__tagged === true")
    assert page.evaluate("performance.getEntriesByName('minigrad:layout').length") >= 3
