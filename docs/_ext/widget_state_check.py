"""Sphinx extension: fail the docs build on a notebook whose widgets would show blank.

A notebook page renders its widgets from the widget state stored in the notebook's metadata.
A notebook that ran in JupyterLab without ``saveState`` and was saved (or whose state was
stripped) still holds its widget *views* in the outputs, but not the *models* they show: the
page then publishes an empty box where the stepper was, and nothing else complains. Before
Sphinx reads a notebook, this extension checks that every widget an output shows, and every
widget that one refers to (a stepper's slider, its frames), is in the stored state; each one
missing is a warning, which ``make docs`` (``-W``) turns into a failed build.

The check itself is :func:`minigrad_course.saved_widgets.missing_widget_models`. The fix is
to re-execute the notebook with its widget state stored
(``scripts/execute_notebooks.py``), or to save it from a JupyterLab that saves widget state
(``make lab`` sets it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.util import logging

from minigrad_course.saved_widgets import missing_widget_models

FIX = "re-execute it with its widget state stored (scripts/execute_notebooks.py)"

logger = logging.getLogger(__name__)


def check_notebooks(app, env, docnames: list[str]) -> None:
    """``env-before-read-docs``: check each notebook about to be read."""
    for docname in docnames:
        path = Path(env.doc2path(docname))
        if path.suffix != ".ipynb":
            continue
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for problem in missing_widget_models(notebook):
            logger.warning("its widgets would show blank: %s; %s", problem, FIX, location=docname)


def setup(app) -> dict[str, Any]:
    app.connect("env-before-read-docs", check_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
