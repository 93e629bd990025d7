"""The Jupyter server's pre-save hook keeps a lesson's stored drawings (saved_widgets.py).

JupyterLab with ``saveState`` saves only the widgets connected to the running kernel: a lesson
opened with its stored drawings and autosaved would lose them all. These tests save through a
real ``FileContentsManager`` configured as ``scripts/jupyter_settings.py`` configures the
server, with the content JupyterLab sends in each case.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import nbformat
import pytest
from traitlets.config import Config

from minigrad_course.saved_widgets import (
    WIDGET_STATE,
    WIDGET_VIEW,
    missing_widget_models,
    references,
    shown_models,
)

jupyter_server = pytest.importorskip("jupyter_server")
from jupyter_server.services.contents.filemanager import FileContentsManager  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "12_retain_grad_and_hooks.ipynb"  # a drawing and a stepper
HOOK = "minigrad_course.saved_widgets.keep_saved_widget_state"


def load_settings():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "jupyter_settings", ROOT / "scripts" / "jupyter_settings.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def contents(tmp_path) -> FileContentsManager:
    """A contents manager on a copy of the lesson, with the hook as make lab configures it."""
    shutil.copy(LESSON, tmp_path / LESSON.name)
    config = Config(load_settings().SERVER_SETTINGS)
    return FileContentsManager(root_dir=str(tmp_path), config=config)


def save(contents: FileContentsManager, notebook: dict) -> dict:
    contents.save({"type": "notebook", "format": "json", "content": notebook}, LESSON.name)
    return json.loads((Path(contents.root_dir) / LESSON.name).read_text())


def as_sent_by_jupyterlab(notebook: dict, live: dict) -> dict:
    """The notebook as JupyterLab saves it: the widget state replaced by the live models'."""
    sent = copy.deepcopy(notebook)
    sent["metadata"]["widgets"] = {
        WIDGET_STATE: {"state": live, "version_major": 2, "version_minor": 0}
    }
    return sent


def test_the_server_is_configured_with_the_hook(contents):
    assert contents.pre_save_hook.__name__ == "keep_saved_widget_state"


def test_a_lesson_opened_and_autosaved_is_written_back_byte_for_byte(contents):
    shipped = LESSON.read_bytes()
    lesson = json.loads(shipped)
    assert len(shown_models(lesson)) >= 2
    # Opened, not run: no widget is live, JupyterLab sends an empty widget state.
    save(contents, as_sent_by_jupyterlab(lesson, live={}))
    assert (Path(contents.root_dir) / LESSON.name).read_bytes() == shipped


def test_a_rerun_cell_keeps_its_new_widget_and_the_others_stay(contents):
    lesson = json.loads(LESSON.read_text())
    shown = shown_models(lesson)
    first, second = sorted(shown, key=shown.get)[:2]
    # The first widget's cell runs again: a new live model (and its parts) replaces it.
    old_state = lesson["metadata"]["widgets"][WIDGET_STATE]["state"]
    rerun = copy.deepcopy(lesson)
    cell = rerun["cells"][shown[first] - 1]
    for output in cell["outputs"]:
        if WIDGET_VIEW in output.get("data", {}):
            output["data"][WIDGET_VIEW]["model_id"] = "new-model"
    # Live: the new model and its parts (a layout, the Graphviz engine), as the kernel has them.
    live = {"new-model": copy.deepcopy(old_state[first])}
    for part in references(old_state[first]["state"]):
        live[part] = copy.deepcopy(old_state[part])
    saved = save(contents, as_sent_by_jupyterlab(rerun, live))
    state = saved["metadata"]["widgets"][WIDGET_STATE]["state"]
    assert missing_widget_models(saved) == []
    assert "new-model" in state and second in state
    assert first not in state  # no output shows it any more: not kept


def test_a_widget_the_saved_file_never_had_stays_missing(contents):
    """The hook puts back what was saved; it invents nothing."""
    lesson = json.loads(LESSON.read_text())
    lesson["cells"][0] = nbformat.v4.new_code_cell("w")
    lesson["cells"][0]["outputs"] = [
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "nowhere"}})
    ]
    saved = save(contents, as_sent_by_jupyterlab(lesson, live={}))
    assert missing_widget_models(saved) == [
        "cell 1 shows widget nowhere, which is not in the stored widget state"
    ]


def test_every_lesson_opened_and_autosaved_is_written_back_byte_for_byte(tmp_path):
    config = Config(load_settings().SERVER_SETTINGS)
    contents = FileContentsManager(root_dir=str(tmp_path), config=config)
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(lessons) >= 17
    for lesson in lessons:
        shutil.copy(lesson, tmp_path / lesson.name)
        sent = as_sent_by_jupyterlab(json.loads(lesson.read_text()), live={})
        contents.save({"type": "notebook", "format": "json", "content": sent}, lesson.name)
        assert (tmp_path / lesson.name).read_bytes() == lesson.read_bytes(), lesson.name


def test_the_modules_examples_hold():
    """The suite's --doctest-modules covers minigrad and widgets, not minigrad_course."""
    import doctest

    from minigrad_course import saved_widgets

    result = doctest.testmod(saved_widgets)
    assert result.attempted >= 8 and result.failed == 0
