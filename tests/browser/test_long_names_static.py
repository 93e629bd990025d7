"""A very long name (500 characters, with spaces and without) in an exported page: the
stepper's panel wraps it inside the panel, and a picture's box shows its two ends around an
ellipsis, with the full name as the box's tooltip (issue 21).

The notebook is executed with its widget state stored and exported for offline use (as
``test_hostile_names_static.py`` does), then opened over file:// in Chromium, with no ``dot``.
"""

from __future__ import annotations

import nbformat
import pytest
from playwright.sync_api import expect

from widgets._markup import LONGEST_BOX_LINE

pytestmark = pytest.mark.browser

NAMES = {
    "no spaces": "q" * 240 + "<b>&amp;" + "z" * 252,
    "spaces": " ".join(["word"] * 100) + "!",
}

SETUP = """import minigrad as mg
import widgets

def shown(name):
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    y = (x * w + x).tanh()
    names = {name: x, "w": w, name + "!": y}
    return widgets.BackwardStepper(y, names=names), widgets.draw(y, names=names)"""

# For the visible frame's panel: each text node's rightmost edge, and the panel's inner right
# edge (its content box); for the picture: each box's outline and the texts it shows, in the
# picture's own coordinates, and the box's tooltip.
READ = """
stepper => {
    const visible = [...stepper.querySelectorAll('.minigrad-frame')]
        .find(f => f.getClientRects().length > 0).querySelector('.minigrad-step-panel');
    const style = getComputedStyle(visible);
    const inner = visible.getBoundingClientRect().right - parseFloat(style.paddingRight)
        - parseFloat(style.borderRightWidth);
    const walker = document.createTreeWalker(visible, NodeFilter.SHOW_TEXT);
    const rights = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) rights.push(rect.right);
    }
    return {panelRight: inner, textRight: Math.max(...rights), panelText: visible.textContent};
}
"""
READ_BOXES = """
view => [...view.querySelectorAll('svg g.node')].map(group => {
    const outline = group.querySelector(':scope > polygon, :scope > ellipse, :scope > path');
    const box = outline.getBBox();
    const texts = [...group.querySelectorAll(':scope > text')]
        .filter(t => getComputedStyle(t).display !== 'none');
    return {
        box: [box.x, box.x + box.width],
        texts: texts.map(t => { const b = t.getBBox(); return [b.x, b.x + b.width]; }),
        words: texts.map(t => t.textContent),
        title: group.querySelector(':scope > title').textContent,
    };
})
"""


@pytest.mark.parametrize("kind", NAMES)
def test_a_500_character_name_stays_inside_the_panel_and_the_box(
    kind, page, tmp_path, export_html, artifacts
):
    name = NAMES[kind]
    assert len(name) == 500
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(SETUP),
        nbformat.v4.new_code_cell(f"stepper, drawing = shown({name!r})\nstepper"),
        nbformat.v4.new_code_cell("drawing"),
    ]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "long.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)
    page.set_viewport_size({"width": 1000, "height": 1400})
    page.goto(exported.as_uri())
    views = page.locator(".minigrad-graphviz[data-rendered]")
    expect(views).to_have_count(2, timeout=60_000)
    stepper = page.locator(".minigrad-stepper")

    # The panel names the output in full, as typed, and every line of it ends inside the panel.
    for position in ("Home", "End"):
        handle = stepper.locator(":scope > .widget-slider .noUi-handle")
        handle.focus()
        handle.press(position)
        panel = stepper.evaluate(READ)
        assert panel["textRight"] <= panel["panelRight"] + 0.5, panel
    handle.press("Home")
    assert f"∂{name}!/∂{name}!" in stepper.evaluate(READ)["panelText"]

    # Each box holds its texts, none longer than a box line; a box whose name was cut has the
    # full name as its tooltip; and the pictures are a few hundred pixels wide, not thousands.
    for view in (views.nth(0), views.nth(1)):
        boxes = view.evaluate(READ_BOXES)
        for box in boxes:
            left, right = box["box"]
            for (start, end), words in zip(box["texts"], box["words"]):
                assert left <= start and end <= right, box
                assert len(words.strip()) <= LONGEST_BOX_LINE, box
        named = [box for box in boxes if name in box["title"]]
        assert len(named) == 2, [box["title"] for box in boxes]  # x's box and the output's
        assert all(any("…" in words for words in box["words"]) for box in named), named
        natural = view.evaluate("v => v.querySelector('svg').viewBox.baseVal.width")
        assert natural < 1000, natural
    stepper.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"long-name-{kind.replace(' ', '-')}.png")
