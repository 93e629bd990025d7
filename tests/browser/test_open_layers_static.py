"""Click-to-open layer boxes in an exported page, with no kernel: a click on a module's box
of a ``draw_layers`` drawing opens it one level, in the browser (the page puts the new DOT
together from what Python sent, ``layersDot`` in ``widgets/static/graphviz_view.js``, and
Graphviz in WebAssembly lays it out again)."""

from __future__ import annotations

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CELLS = [
    "import minigrad as mg\n"
    "import minigrad.nn as nn\n"
    "import widgets\n"
    "mg.manual_seed(0)\n"
    "net = nn.Sequential(\n"
    "    nn.Sequential(nn.Sequential(nn.Linear(2, 3), nn.Tanh()), nn.Linear(3, 3)),\n"
    "    nn.Linear(3, 1),\n"
    ")\n"
    "inputs = mg.randn(4, 2)\n"
    "widgets.draw_layers(net, lambda: net(inputs).sum())",
]

# Each box's first line, and whether it opens on a click.
READ_BOXES = """
view => Object.fromEntries([...view.querySelectorAll('svg g.node')].map(group => [
    group.querySelector('text').textContent.trim(), group.dataset.openable === 'true']))
"""


def test_a_click_opens_a_module_box_one_level(page, tmp_path, export_html, artifacts):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "layers.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)
    page.goto(exported.as_uri())
    view = page.locator(".minigrad-graphviz[data-rendered]")
    expect(view).to_have_count(1, timeout=60_000)

    boxes = view.evaluate(READ_BOXES)
    assert boxes["0 (Sequential)"] is True  # it has children: it opens
    assert boxes["1 (Linear)"] is False  # a layer with no children stays one box
    assert not any(title.startswith("0.") for title in boxes), boxes
    title = view.locator("g.node[data-openable] > title").first.text_content()
    assert title.endswith("Click to open this module one level."), title
    page.screenshot(path=artifacts / "open-layers-closed.png")

    # One click: "0" opens into its two children, and no further.
    view.locator("g.node[data-openable]", has_text="0 (Sequential)").click()
    expect(view.locator("g.node", has_text="0.0 (Sequential)")).to_have_count(1)
    boxes = view.evaluate(READ_BOXES)
    assert "0 (Sequential)" not in boxes, boxes
    assert boxes["0.0 (Sequential)"] is True and boxes["0.1 (Linear)"] is False, boxes
    assert boxes["1 (Linear)"] is False
    assert not any(title.startswith("0.0.") for title in boxes), boxes

    # A second click opens "0.0" in turn: its Linear and Tanh, each a box.
    view.locator("g.node[data-openable]", has_text="0.0 (Sequential)").click()
    expect(view.locator("g.node", has_text="0.0.0 (Linear)")).to_have_count(1)
    boxes = view.evaluate(READ_BOXES)
    assert boxes["0.0.1 (Tanh)"] is False and "0.0 (Sequential)" not in boxes, boxes
    assert not any(boxes.values()), boxes  # nothing left to open
    # The arrows still join the boxes: each module's box is reached from the input's side.
    arrows = view.locator("svg g.edge").count()
    assert arrows >= len(boxes) - 1, (arrows, boxes)
    view.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "open-layers-opened.png")


# Each open module's frame (a Graphviz cluster around its boxes): its title, and whether it
# closes on a click.
READ_FRAMES = """
view => Object.fromEntries([...view.querySelectorAll('svg g.cluster')].map(group => [
    group.querySelector('text').textContent.trim(), group.dataset.closable === 'true']))
"""


def test_an_opened_module_closes_again_by_mouse_and_keyboard(
    page, tmp_path, export_html, artifacts
):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "layers.ipynb"
    nbformat.write(notebook, path)
    page.goto(export_html(path).as_uri())
    view = page.locator(".minigrad-graphviz[data-rendered]")
    expect(view).to_have_count(1, timeout=60_000)

    def opener(name: str):
        return view.get_by_role(
            "button", name=f"{name}: Click to open this module one level.", exact=True
        )

    def closer(name: str):
        return view.get_by_role("button", name=f"{name}: Click to close this module.", exact=True)

    def drawn() -> tuple[dict, dict]:
        return view.evaluate(READ_BOXES), view.evaluate(READ_FRAMES)

    closed = drawn()
    assert closed[1] == {}, closed  # nothing open: no frame

    # Open "0", then "0.0" inside it: a frame for each, nested, with the boxes inside.
    opener("0 (Sequential)").click()
    expect(closer("0 (Sequential)")).to_have_count(1)
    opener("0.0 (Sequential)").click()
    expect(closer("0.0 (Sequential)")).to_have_count(1)
    boxes, frames = drawn()
    assert frames == {"0 (Sequential)": True, "0.0 (Sequential)": True}, frames
    assert {"0.0.0 (Linear)", "0.0.1 (Tanh)", "0.1 (Linear)", "1 (Linear)"} <= set(boxes)
    # The frame says what it does where the mouse rests on it, as an opener does.
    title = view.locator("g.cluster[data-closable] > title").first.text_content()
    assert title.endswith("Click to close this module."), title
    view.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "open-layers-framed.png")

    # A click on the inner frame's title closes "0.0" alone, one level.
    closer("0.0 (Sequential)").locator("text").click()
    expect(closer("0.0 (Sequential)")).to_have_count(0)
    boxes, frames = drawn()
    assert frames == {"0 (Sequential)": True}, frames
    assert boxes["0.0 (Sequential)"] is True and "0.0.0 (Linear)" not in boxes, boxes

    # The keyboard: from the outer frame, Tab reaches the box inside it; Enter opens it
    # again, and the focus follows to its frame, where Space closes it.
    closer("0 (Sequential)").focus()
    page.keyboard.press("Tab")
    expect(opener("0.0 (Sequential)")).to_be_focused()
    page.keyboard.press("Enter")
    expect(closer("0.0 (Sequential)")).to_be_focused()
    assert "0.0.1 (Tanh)" in drawn()[0]
    page.keyboard.press(" ")
    expect(opener("0.0 (Sequential)")).to_be_focused()
    assert drawn()[1] == {"0 (Sequential)": True}
    # Shift+Tab goes back to the outer frame, and Enter closes it.
    page.keyboard.press("Shift+Tab")
    expect(closer("0 (Sequential)")).to_be_focused()
    page.keyboard.press("Enter")
    expect(opener("0 (Sequential)")).to_be_focused()
    assert drawn() == closed

    # Closing an outer module closes what was open inside it: opened again, it shows one
    # level.
    opener("0 (Sequential)").click()
    opener("0.0 (Sequential)").click()
    expect(closer("0.0 (Sequential)")).to_have_count(1)
    closer("0 (Sequential)").locator("text").click()
    expect(closer("0 (Sequential)")).to_have_count(0)
    assert drawn() == closed
    opener("0 (Sequential)").click()
    expect(closer("0 (Sequential)")).to_have_count(1)
    boxes, frames = drawn()
    assert frames == {"0 (Sequential)": True} and boxes["0.0 (Sequential)"] is True, drawn()
    page.screenshot(path=artifacts / "open-layers-reopened.png")
