"""A small image classifier's training step drawn in full and by layers (issue 21): its
parameters named from the model, a few boxes by layers, and the PNG for viewers without
widgets bounded in pixels and time with ``dot``, and a plain note without it."""

from __future__ import annotations

import base64
import io
import re
import runpy
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

import widgets
from widgets._fallback import (
    DOT_TIMEOUT_SECONDS,
    PNG_DPI,
    PNG_MAX_INCHES,
    _fallback_picture,
    box_count,
)

SOURCE = runpy.run_path(str(Path(__file__).parents[1] / "image_classifier.py"))["SOURCE"]


@pytest.fixture
def step() -> dict:
    """The training step's namespace: ``net``, ``images``, ``loss``, ``training_loss``..."""
    namespace: dict = {}
    exec(SOURCE, namespace)
    return namespace


def drawings(step: dict) -> dict:
    net, training_loss = step["net"], step["training_loss"]
    return {
        "in full": widgets.draw(step["loss"], model=net),
        "by layers": widgets.draw_layers(net, training_loss),
        "one level open": widgets.draw_layers(net, training_loss, depth=2),
    }


def titles(source: str) -> list[str]:
    return re.findall(r'label="([^"\\]*)', source)


def test_the_training_step_draws_in_full_and_by_layers(step):
    drawn = drawings(step)
    full, layers, opened = (drawn[kind].source for kind in drawn)
    # Every parameter by its name in the model, with its gradient after backward().
    parameters = [f"{name} (leaf)" for name, _ in step["net"].named_parameters()]
    assert len(parameters) == 6
    assert sorted(t for t in titles(full) if t.endswith("(leaf)")) == sorted(parameters)
    assert box_count(full) > 20
    # By layers: a box per child that computed something, each named from named_modules.
    assert {"features (Sequential)", "classifier (Linear)"} <= set(titles(layers))
    assert box_count(layers) < 8
    assert "features.0 (Linear)" in titles(opened) and "features.3 (ReLU)" in titles(opened)
    assert "features (Sequential)" not in titles(opened)


def test_with_dot_the_pictures_for_viewers_without_widgets_are_bounded(step, real_dot):
    largest = PNG_MAX_INCHES * PNG_DPI
    for kind, drawing in drawings(step).items():
        _fallback_picture.cache_clear()  # made afresh, to time it
        started = time.perf_counter()
        bundle = drawing._repr_mimebundle_()[0]
        took = time.perf_counter() - started
        assert "image/png" in bundle, kind
        png = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
        assert max(png.size) <= largest, (kind, png.size)
        assert took < DOT_TIMEOUT_SECONDS, (kind, took)
        assert bundle["text/plain"].startswith("<widgets.Drawing"), kind


def test_without_dot_there_is_no_png_and_no_error(step, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no dot
    assert shutil.which("dot") is None
    for kind, drawing in drawings(step).items():
        bundle = drawing._repr_mimebundle_()[0]
        assert "image/png" not in bundle, kind
        assert "application/vnd.jupyter.widget-view+json" in bundle, kind
        # What a viewer without widgets reads: the boxes in words.
        assert "classifier" in bundle["text/plain"], kind
