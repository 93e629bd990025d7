"""A large graph in the browser: drawn within the notebook's width, then zoomed and panned.

A 2 000-node chain (1 000 multiplications), drawn with ``widgets.draw`` (cut to its first
200 nodes and a note), in the nbconvert HTML export of an executed notebook, opened with no
kernel and no ``dot``: Graphviz in the browser lays it out. At a lesson's text size it is
thousands of pixels wide, so it is shown whole, shrunk to the width, with zoom buttons.
"""

from __future__ import annotations

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CHAIN = (
    "import minigrad as mg\n"
    "import widgets\n"
    "x = mg.tensor(1.0, requires_grad=True)\n"
    "y = x\n"
    "for _ in range(1000):\n"
    "    y = y * 1.001\n"
    "widgets.draw(y)"
)

READ_VIEW = """
view => {
    const svg = view.querySelector('svg');
    const window_ = view.querySelector('.minigrad-zoom-window');
    return {
        room: view.clientWidth,
        drawnWidth: svg.getBoundingClientRect().width,
        windowWidth: window_.getBoundingClientRect().width,
        scale: Number(view.dataset.scale),
        left: window_.scrollLeft,
        top: window_.scrollTop,
        room_to_pan: [window_.scrollWidth - window_.clientWidth,
                      window_.scrollHeight - window_.clientHeight],
    };
}
"""


def test_a_2000_node_chain_draws_within_the_width_and_zooms_in(
    page, tmp_path, export_html, artifacts
):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(CHAIN)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "chain.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)
    page.set_viewport_size({"width": 1000, "height": 1200})
    page.goto(exported.as_uri())
    view = page.locator(".minigrad-graphviz[data-rendered]")
    expect(view).to_have_count(1, timeout=60_000)
    expect(view).to_have_attribute("data-zoomable", "true")

    # The whole picture is in view: within the notebook's width, shrunk far below 7/8.
    fitted = view.evaluate(READ_VIEW)
    assert fitted["drawnWidth"] <= fitted["room"] + 1, fitted
    assert fitted["windowWidth"] <= fitted["room"] + 1, fitted
    assert fitted["scale"] < 0.875, fitted
    zoom_out = view.locator("button.minigrad-zoom-out")
    expect(zoom_out).to_be_disabled()  # fitted is as small as it gets
    page.screenshot(path=artifacts / "large-graph-fitted.png")

    # Zoom in: the picture grows (wider than its window, which stays in the width).
    view.locator("button.minigrad-zoom-in").click()
    view.locator("button.minigrad-zoom-in").click()
    zoomed = view.evaluate(READ_VIEW)
    # Each click zooms by 1.25 (data-scale is rounded to 3 places: compare drawn widths).
    assert zoomed["drawnWidth"] == pytest.approx(fitted["drawnWidth"] * 1.25**2, rel=1e-3)
    assert zoomed["scale"] > fitted["scale"], zoomed
    assert zoomed["windowWidth"] <= zoomed["room"] + 1, zoomed
    expect(zoom_out).to_be_enabled()

    # "100%" shows the text at its natural size; dragging the picture moves it.
    view.locator("button.minigrad-zoom-actual").click()
    window_ = view.locator(".minigrad-zoom-window")
    box = window_.bounding_box()
    before = view.evaluate(READ_VIEW)
    assert before["scale"] == 1.0
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 40, box["y"] + box["height"] / 2 - 40, steps=5)
    page.mouse.up()
    after = view.evaluate(READ_VIEW)
    # Dragged 40 pixels left and up: the picture moves with the pointer, in each direction
    # in which it is larger than its window (it is, at least in one, at its natural size).
    assert max(before["room_to_pan"]) > 40, before
    for axis, offset in enumerate(("left", "top")):
        if before["room_to_pan"][axis] > 40 + before[offset]:
            assert after[offset] == pytest.approx(before[offset] + 40, abs=2), (before, after)
    page.screenshot(path=artifacts / "large-graph-zoomed.png")

    # "fit" brings the whole picture back.
    view.locator("button.minigrad-zoom-fit").click()
    back = view.evaluate(READ_VIEW)
    assert back["drawnWidth"] == pytest.approx(fitted["drawnWidth"], rel=1e-3), back


def test_the_zoom_bar_speaks_the_widgets_language(page, tmp_path, export_html):
    """The words around a picture come from Python in the language the drawing was made in
    (the view's ``words``), one drawing in Russian and one in Chinese on the same page."""
    import widgets
    from widgets._view_words import view_words

    languages = ["ru", "zh_CN"]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            CHAIN.replace("widgets.draw", f"widgets.set_language({language!r})\nwidgets.draw")
        )
        for language in languages
    ]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "chains.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)
    page.set_viewport_size({"width": 1000, "height": 1200})
    page.goto(exported.as_uri())
    views = page.locator(".minigrad-graphviz[data-rendered]")
    expect(views).to_have_count(len(languages), timeout=60_000)
    try:
        for i, language in enumerate(languages):
            widgets.set_language(language)
            words = view_words()
            bar = views.nth(i).locator(".minigrad-zoom-bar")
            expect(bar.locator("button.minigrad-zoom-in")).to_have_attribute(
                "title", words["zoom_in"]
            )
            expect(bar.locator("button.minigrad-zoom-fit")).to_have_text(words["fit"])
            expect(bar).to_contain_text(words["hint"])
            assert words["hint"] != "A large graph: zoom in, then drag the picture to move around."
    finally:
        widgets.set_language(None)
