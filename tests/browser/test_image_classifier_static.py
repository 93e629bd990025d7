"""A small image classifier's training step (``tests/image_classifier.py``) in an exported
page, with no kernel and no ``dot``: drawn in full, by layers and one level open, each fits
a notebook's width with its text at a lesson's size (the full graph laid out top to bottom);
in a narrow window the full graph, too wide to read there, is shown whole with zoom and
pan."""

from __future__ import annotations

import runpy
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SOURCE = runpy.run_path(str(Path(__file__).parents[1] / "image_classifier.py"))["SOURCE"]
CELLS = [
    SOURCE + "\nimport widgets",
    "widgets.draw(loss, model=net)",
    "widgets.draw_layers(net, training_loss)",
    "widgets.draw_layers(net, training_loss, depth=2)",
]

READ_VIEW = """
view => {
    const svg = view.querySelector('svg');
    const window_ = view.querySelector('.minigrad-zoom-window');
    return {
        room: view.clientWidth,
        drawnWidth: svg.getBoundingClientRect().width,
        scale: Number(view.dataset.scale),
        zoomable: view.dataset.zoomable === 'true',
        boxes: svg.querySelectorAll('g.node').length,
        left: window_ ? window_.scrollLeft : null,
        top: window_ ? window_.scrollTop : null,
        roomToPan: window_ ? [window_.scrollWidth - window_.clientWidth,
                              window_.scrollHeight - window_.clientHeight] : null,
    };
}
"""


def test_the_training_step_draws_in_the_width_in_full_and_by_layers(
    page, tmp_path, export_html, artifacts
):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    path = tmp_path / "classifier.ipynb"
    nbformat.write(notebook, path)
    exported = export_html(path)
    page.set_viewport_size({"width": 1000, "height": 1400})
    page.goto(exported.as_uri())
    views = page.locator(".minigrad-graphviz[data-rendered]")
    expect(views).to_have_count(3, timeout=60_000)
    full, layers, opened = (views.nth(i).evaluate(READ_VIEW) for i in range(3))

    # Every picture is within the notebook's width, its text at a lesson's size (no zoom).
    for drawn in (full, layers, opened):
        assert drawn["drawnWidth"] <= drawn["room"] + 1, drawn
        assert not drawn["zoomable"] and drawn["scale"] >= 0.875, drawn
    assert layers["boxes"] < opened["boxes"] < full["boxes"]
    page.screenshot(path=artifacts / "image-classifier-fitted.png")

    # A narrow window (a side-by-side layout): the full graph no longer fits at that size,
    # so it is shown whole, shrunk into the width, and zoomable; zoom in, then drag.
    page.set_viewport_size({"width": 560, "height": 1400})
    view = views.nth(0)
    expect(view).to_have_attribute("data-zoomable", "true")
    full = view.evaluate(READ_VIEW)
    assert full["drawnWidth"] <= full["room"] + 1 and full["scale"] < 0.875, full
    view.locator("button.minigrad-zoom-in").click()
    zoomed = view.evaluate(READ_VIEW)
    assert zoomed["drawnWidth"] == pytest.approx(full["drawnWidth"] * 1.25, rel=1e-3), zoomed
    view.locator("button.minigrad-zoom-actual").click()
    before = view.evaluate(READ_VIEW)
    assert before["scale"] == 1.0 and before["roomToPan"][0] > 40, before
    box = view.locator(".minigrad-zoom-window").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] - 40, middle[1], steps=5)
    page.mouse.up()
    after = view.evaluate(READ_VIEW)
    assert after["left"] == pytest.approx(before["left"] + 40, abs=2), (before, after)
    view.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "image-classifier-zoomed.png")
