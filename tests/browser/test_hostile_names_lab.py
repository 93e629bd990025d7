"""Hostile names in a live JupyterLab (issue 21): script, event handlers, links, unbalanced
markup, Graphviz record syntax, newlines, backslashes and a very long name, typed as tensor
names, an output's name, the op names of an engine of one's own (lesson 16) and a model's
module names, shown by every widget a student uses.

A notebook is written, opened in JupyterLab (Graphviz's ``dot`` hidden: the browser lays
every picture out) and run with Run All; a stepper is stepped, every box and arrow of every
picture is hovered and clicked. Then it is saved (the file must hold the state of every
widget it shows), the page reloaded and the notebook reopened: the same checks on the saved
widget state, with nothing run. Should the widget manager lose its restore race on
reopening (``scripts/widget_restore_race.py``), the course's JupyterLab extension
(``widgets/labextension/``, installed by make lab's settings) brings the widgets back.
Throughout, no dialog may open (an ``alert`` from any name), no element may come from a
name, every picture draws all its boxes, and every name shows as typed, as text.

The names are ``tests/hostile_names.py``'s, shared with the exported page's test
(``test_hostile_names_static.py``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import runpy
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

import widgets
from minigrad_course.saved_widgets import missing_widget_models
from widgets._browser import GraphvizView
from widgets._markup import LONGEST_BOX_LINE, one_line

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NAMES = runpy.run_path(str(ROOT / "tests" / "hostile_names.py"))["NAMES"]
TOY_ENGINE = (ROOT / "tests" / "widgets" / "toy_engine.py").read_text()
NOTEBOOK = "hostile.ipynb"

# The notebook. Its first cell defines, beside the toy engine, one function per widget that
# takes a name and puts it everywhere that widget shows a name.
SETUP = f"""from collections import OrderedDict

import minigrad as mg
import widgets
from minigrad import nn

{TOY_ENGINE}

NAMES = {NAMES!r}


def stepper(name):
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    a = x * w
    y = (a + x).tanh()
    return widgets.BackwardStepper(y, names={{name: x, "w": w, name + "2": a, name + "3": y}})
"""

# Cells showing a picture or widget with every name at once: a drawing whose leaves and
# output are named; an engine of one's own whose ops are named, drawn and stepped; a forward
# stepper whose inputs and output are named; the accumulation demo whose leaves are named; a
# second derivative labelled with all of them; a model whose modules are named, in layers.
TOGETHER = {
    "draw": "leaves = [mg.tensor(float(i), requires_grad=True) for i in range(len(NAMES))]\n"
    "total = sum(leaves[1:], leaves[0])\n"
    'widgets.draw(total, names={**dict(zip(NAMES, leaves)), NAMES[0] + "=": total})',
    "own draw": "value = Value(1.0)\n"
    "for name in NAMES:\n"
    "    value = Value(value.data, (value,), name, lambda g: (g,))\n"
    "widgets.draw(value)",
    "own stepper": "starts = [Value(float(i)) for i in range(len(NAMES))]\n"
    "ops = [Value(v.data, (v,), name, lambda g: (g,)) for v, name in zip(starts, NAMES)]\n"
    'out = Value(sum(op.data for op in ops), ops, "add", lambda g: (g,) * len(ops))\n'
    'widgets.BackwardStepper(out, names={**dict(zip(NAMES, starts)), NAMES[0] + "!": out})',
    "forward stepper": "xs = [mg.tensor(float(i), requires_grad=True) for i in range(len(NAMES))]\n"
    "def squares(*xs):\n"
    "    return sum(x * x for x in xs)\n"
    "widgets.ForwardStepper(squares, xs, [mg.ones(())] * len(xs), names=dict(zip(NAMES, xs)), "
    'output_name=NAMES[0] + "3")',
    "accumulation": "ts = [mg.tensor(float(i), requires_grad=True) for i in range(len(NAMES))]\n"
    "widgets.GradAccumulation(lambda *ts: sum(t * t for t in ts), ts, names=NAMES)",
    "second derivative": 'widgets.SecondDerivative(lambda x: x**3, 2.0, label=" ".join(NAMES))',
    "layers": "model = nn.Sequential(OrderedDict((name, nn.Linear(2, 2)) for name in NAMES))\n"
    "widgets.draw_layers(model, lambda: model(mg.ones(1, 2)).sum())",
}
# And a backward stepper per name, the output named after it: the output's name goes into its
# first panel (where issue 21 found it unescaped).
CELLS = [SETUP, *TOGETHER.values(), *(f"stepper({name!r})" for name in NAMES)]
# What each cell after the first is, and the names it must show as typed.
KINDS = [*TOGETHER, *(["stepper"] * len(NAMES))]
SHOWS = [NAMES] * len(TOGETHER) + [[name] for name in NAMES]
# The output's name in a backward stepper's first panel: ∂out/∂out.
OUTPUT_SUFFIX = {"stepper": "3", "own stepper": "!"}


def descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def expected_boxes() -> list[list[int]]:
    """For each cell after the first, the number of boxes of each of its pictures, sorted,
    from the same cells run here: each picture is a GraphvizView, whose DOT has a statement
    per box (``\\tt0 [label=...``)."""
    namespace: dict = {}
    exec(CELLS[0], namespace)
    counts = []
    for cell in CELLS[1:]:
        *lines, last = cell.split("\n")
        exec("\n".join(lines), namespace)
        shown = eval(last, namespace)
        if isinstance(shown, widgets.Drawing):
            shown = shown.widget()
        views = [w for w in descendants(shown) if isinstance(w, GraphvizView)]
        counts.append(sorted(len(re.findall(r"^\t\w+ \[label=", v.dot, re.M)) for v in views))
    return counts


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# What the page holds that no widget of this package makes, and a name would: images that
# load "x", scripts, links to javascript:, links in a picture, event-handler attributes.
LIVE_ELEMENTS = """() => ({
    images: document.querySelectorAll('img[src="x"], img[src$="/x"]').length,
    scripts: [...document.querySelectorAll('script')]
        .filter(s => s.textContent.includes('alert(1)')).length,
    notebookScripts: document.querySelectorAll('.jp-Notebook script').length,
    javascriptLinks: document.querySelectorAll('[href^="javascript:"]').length,
    pictureLinks: document.querySelectorAll('.jp-Notebook svg a').length,
    handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes]
        .some(a => a.name.startsWith('on') && a.value.includes('alert'))).length,
})"""
NONE_LIVE = dict.fromkeys(
    ["images", "scripts", "notebookScripts", "javascriptLinks", "pictureLinks", "handlers"], 0
)

# What each output cell shows, as the browser holds it: the boxes each picture drew, every
# text of its pictures (the hidden copies of a stepper's frames too), all its text.
READ_OUTPUTS = """cells => cells.map(cell => ({
    boxes: [...cell.querySelectorAll('.minigrad-graphviz')]
        .map(view => view.querySelectorAll('svg g.node').length).sort((a, b) => a - b),
    rendered: cell.querySelectorAll('.minigrad-graphviz[data-rendered]').length,
    errors: cell.querySelectorAll('.minigrad-graphviz-error').length,
    pictureTexts: [...cell.querySelectorAll('.minigrad-graphviz svg text')]
        .map(t => t.textContent),
    pictureTitles: [...cell.querySelectorAll('.minigrad-graphviz svg g.node > title')]
        .map(t => t.textContent),
    panels: [...cell.querySelectorAll('.minigrad-step-panel')].map(p => p.textContent),
    text: cell.textContent,
}))"""

# A mouse over, into and out of every box and arrow of every picture, and a click on each:
# an inline handler (onmouseover, onclick) would run, a link would be followed.
TOUCH_EVERYTHING = """() => {
    const targets = document.querySelectorAll(
        '.jp-Notebook .minigrad-graphviz svg g.node, .jp-Notebook .minigrad-graphviz svg g.edge,'
        + ' .jp-Notebook .minigrad-graphviz svg text');
    for (const target of targets) {
        for (const kind of ['mouseover', 'mouseenter', 'mousemove', 'mouseout', 'click']) {
            target.dispatchEvent(new MouseEvent(kind, {bubbles: true, cancelable: true}));
        }
    }
    return targets.length;
}"""


@pytest.fixture
def lab(tmp_path, lab_tools):
    """A JupyterLab on ``tmp_path`` with make lab's settings (widget state saved with the
    notebook, the course's JupyterLab extension), a private trust database, and every cell
    rendered (no windowing: the checks read every output at once): ``(base_url, token)``."""
    settings_script = load_script("jupyter_settings")
    prefix = tmp_path / "prefix"
    settings_script.write_settings(prefix)
    settings = prefix / "share" / "jupyter" / "lab" / "settings"
    settings_script.merge_into(
        settings / "overrides.json",
        {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}},
    )
    env = {
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_PATH": str(prefix / "share" / "jupyter"),  # the course's lab extension
        "JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    args = (f"--LabApp.app_settings_dir={settings}",)
    with lab_tools.jupyter_server("lab", tmp_path, args, env) as server:
        yield server


def open_notebook(page, base_url: str, token: str) -> None:
    page.goto(f"{base_url}/lab/tree/{NOTEBOOK}?reset&token={token}")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )


def output_cells(page):
    """The output areas of the cells after the first."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").locator(
        ".jp-OutputArea"
    )


def check_every_widget_shows(page, when: str) -> None:
    """Every cell's widget shown, once JupyterLab's widget manager has settled."""
    outputs = page.locator(".jp-Notebook .jp-OutputArea-output")
    expect(outputs).to_have_count(len(CELLS) - 1, timeout=60_000)
    expect(outputs.filter(has_text="Loading widget...")).to_have_count(0, timeout=60_000)
    # A widget the manager gave up on says so for a moment, until the course's extension
    # has made its model from the saved state and shown it again.
    missing = outputs.filter(has_text="Error displaying widget")
    try:
        expect(missing).to_have_count(0, timeout=30_000)
    except AssertionError:
        pytest.fail(
            f"{when}: {missing.count()} of {len(CELLS) - 1} widget outputs say 'Error "
            "displaying widget: model not found', though the saved file holds every model"
        )


def check_what_shows(page, expected: list[list[int]], dialogs: list[str], when: str) -> None:
    """Every picture drawn with all its boxes, every name as typed, nothing live."""
    check_every_widget_shows(page, when)
    pictures = page.locator(".jp-Notebook .minigrad-graphviz[data-rendered]")
    expect(pictures).to_have_count(sum(map(len, expected)), timeout=60_000)
    # Each stepper at its first frame (the slider is linked to the frames in the browser):
    # only the frame shown need be on the page, and the first names the output twice.
    for stepper in page.locator(".jp-Notebook .minigrad-stepper").all():
        handle = stepper.locator(":scope > .widget-slider .noUi-handle")
        handle.focus()
        handle.press("Home")
        expect(stepper.locator(".minigrad-frame:visible")).to_have_attribute("data-position", "0")
    areas = output_cells(page)
    expect(areas).to_have_count(len(CELLS))
    shown = areas.evaluate_all(READ_OUTPUTS)[1:]
    for kind, names, wanted, seen in zip(KINDS, SHOWS, expected, shown):
        where = (when, kind, names[0][:30])
        assert seen["errors"] == 0 and seen["rendered"] == len(wanted), where
        assert seen["boxes"] == wanted, where
        assert "Error displaying widget" not in seen["text"], where
        for name in names:
            typed = one_line(name)
            # As text: a name read as markup would not be in the text the page holds. A name
            # too long for a box shows its two ends there, and in full in the box's tooltip.
            titles = seen["pictureTitles"]
            assert typed in seen["text"] or any(typed in t for t in titles), (*where, typed)
            if kind not in ("accumulation", "second derivative"):  # names in HTML only
                texts = seen["pictureTexts"] + titles
                assert any(typed in text for text in texts), (*where, typed)
                if len(typed) <= LONGEST_BOX_LINE:
                    assert any(typed in t for t in seen["pictureTexts"]), (*where, typed)
        if kind in OUTPUT_SUFFIX:
            output = one_line(names[0]) + OUTPUT_SUFFIX[kind]
            assert any(f"∂{output}/∂{output}" in panel for panel in seen["panels"]), where
    touched = page.evaluate(TOUCH_EVERYTHING)
    assert touched > sum(map(sum, expected))
    page.wait_for_timeout(500)  # an image's onerror fires once its load has failed
    assert page.evaluate(LIVE_ELEMENTS) == NONE_LIVE, when
    assert dialogs == [], (when, dialogs)


def test_hostile_names_in_jupyterlab_run_no_script_and_draw_as_typed(
    page, lab, tmp_path, lab_tools, artifacts
):
    base_url, token = lab
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.cells[0].metadata["jupyter"] = {"source_hidden": True}  # the pictures in view
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    path = tmp_path / NOTEBOOK
    nbformat.write(notebook, path)
    expected = expected_boxes()

    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_notebook(page, base_url, token)
    lab_tools.run_all(page)
    check_what_shows(page, expected, dialogs, "run")

    # A stepper steps (through the kernel), and the mouse goes over the first picture's
    # boxes as a student's would.
    stepper = page.locator(".jp-Notebook .minigrad-stepper").first
    frame = stepper.locator(".minigrad-frame:visible")
    expect(frame).to_have_attribute("data-position", "0")
    step = stepper.locator("button.minigrad-step-button")
    for position in range(1, 4):
        step.click()
        expect(frame).to_have_attribute("data-position", str(position))
    for box in page.locator(".jp-Notebook .minigrad-graphviz svg g.node").all()[:40]:
        box.hover()
        box.click()
    lab_tools.wait_until_idle(page, base_url, token)
    page.wait_for_timeout(500)
    assert dialogs == []
    page.screenshot(path=artifacts / "hostile-names-jupyterlab.png")

    # Saved, the page reloaded with no kernel, the notebook reopened: the saved widgets.
    before = path.stat().st_mtime_ns
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").click()
    page.keyboard.press("Control+s")
    for _ in range(100):
        if path.stat().st_mtime_ns != before:
            break
        page.wait_for_timeout(100)
    expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)
    # The file holds the state of every widget it shows (what the reopened page needs).
    saved = json.loads(path.read_text())
    assert saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert missing_widget_models(saved) == []
    lab_tools.shut_down_kernels(page, base_url, token)
    page.reload()
    open_notebook(page, base_url, token)
    check_every_widget_shows(page, "reopened")
    expect(frame).to_have_attribute("data-position", "3")  # the stepper as it was saved
    check_what_shows(page, expected, dialogs, "reopened")
    page.locator(".jp-Notebook .minigrad-stepper").nth(2).scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "hostile-names-jupyterlab-reopened.png")
    lab_tools.shut_down_kernels(page, base_url, token)
