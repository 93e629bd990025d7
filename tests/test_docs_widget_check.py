"""``make docs`` fails on a lesson whose widgets would show blank: a notebook whose outputs
show widget models that its saved widget state lacks (what JupyterLab saves when it does
not save widget state). The check is the Sphinx extension ``docs/_ext/widget_state_check.py``,
calling ``minigrad_course.saved_widgets.missing_widget_models``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS = ROOT / "docs" / "_ext"
LESSON = ROOT / "notebooks" / "03_backward_step_by_step.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def load_check():
    from minigrad_course import saved_widgets

    return saved_widgets


def lesson_without_state() -> nbformat.NotebookNode:
    """Lesson 3 as JupyterLab saves it without saveState: views kept, models gone."""
    notebook = nbformat.read(LESSON, as_version=4)
    del notebook.metadata["widgets"]
    return notebook


def lesson_missing_a_part() -> tuple[nbformat.NotebookNode, str]:
    """Lesson 3 with one model that a shown stepper refers to (not the one shown) removed."""
    notebook = nbformat.read(LESSON, as_version=4)
    state = notebook.metadata["widgets"][WIDGET_STATE]["state"]
    shown = {
        output["data"][WIDGET_VIEW]["model_id"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if WIDGET_VIEW in output.get("data", {})
    }
    part = next(model for model in state if model not in shown)
    del state[part]
    return notebook, part


def test_the_lessons_as_shipped_pass():
    check = load_check()
    assert check.missing_widget_models(nbformat.read(LESSON, as_version=4)) == []


def test_a_lesson_saved_without_widget_state_is_reported_for_every_widget():
    check = load_check()
    notebook = lesson_without_state()
    views = sum(
        WIDGET_VIEW in output.get("data", {})
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    problems = check.missing_widget_models(notebook)
    assert views >= 1 and len(problems) == views, problems


def test_a_missing_part_of_a_shown_widget_is_reported():
    check = load_check()
    notebook, part = lesson_missing_a_part()
    problems = check.missing_widget_models(notebook)
    assert problems and all(part in problem for problem in problems), problems


def test_the_docs_build_loads_the_check():
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text())
    extensions = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "extensions"
    )
    assert "widget_state_check" in ast.literal_eval(extensions)


def sphinx_build(source: Path, notebook: nbformat.NotebookNode) -> subprocess.CompletedProcess:
    """A one-page site made of ``notebook``, built as make docs builds (-W)."""
    source.mkdir()
    (source / "conf.py").write_text(
        "import sys\n"
        f"sys.path[:0] = [{str(EXTENSIONS)!r}, {str(ROOT)!r}]\n"
        "extensions = ['myst_nb', 'widget_state_check']\n"
        "nb_execution_mode = 'off'\n"
        "root_doc = 'lesson'\n"
    )
    nbformat.write(notebook, source / "lesson.ipynb")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(source), str(source / "_b")],
        capture_output=True,
        text=True,
    )


def test_the_docs_build_fails_on_a_lesson_whose_widgets_would_show_blank(tmp_path):
    pytest.importorskip("myst_nb")
    built = sphinx_build(tmp_path / "site", lesson_without_state())
    assert built.returncode != 0
    assert "its widgets would show blank" in built.stderr, built.stderr[-2000:]
    assert "lesson.ipynb" in built.stderr
