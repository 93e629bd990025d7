"""Sphinx extension: fail the docs build on a notebook whose widgets would show blank.

A notebook page renders its widgets from the widget state stored in the notebook's metadata.
A notebook that ran in JupyterLab without ``saveState`` and was saved (or whose state was
stripped) still holds its widget *views* in the outputs, but not the *models* they show: the
page then publishes an empty box where the stepper was, and nothing else complains. Before
Sphinx reads a notebook, this extension checks that every widget an output shows, and every
widget that one refers to (a stepper's slider, its frames), is in the stored state; each one
missing is a warning, which ``make docs`` (``-W``) turns into a failed build.

The fix is to re-execute the notebook with its widget state stored
(``scripts/execute_notebooks.py``), or to save it from a JupyterLab that saves widget state
(``make lab`` sets it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.util import logging

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
REFERENCE = "IPY_MODEL_"
FIX = "re-execute it with its widget state stored (scripts/execute_notebooks.py)"

logger = logging.getLogger(__name__)


def _references(value: Any) -> Iterator[str]:
    """The model ids a widget's state refers to (``"IPY_MODEL_<id>"``, alone or in lists and
    dicts, as ipywidgets serializes children and links)."""
    if isinstance(value, str) and value.startswith(REFERENCE):
        yield value.removeprefix(REFERENCE)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _references(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _references(item)


def missing_widget_models(notebook: dict) -> list[str]:
    """Why the widgets of ``notebook`` (a notebook as JSON) would show blank: one line per
    model that an output shows, or that a shown model refers to, and the stored widget state
    lacks. Empty when every widget can render.

    >>> view = {"output_type": "display_data", "metadata": {},
    ...         "data": {WIDGET_VIEW: {"model_id": "abc", "version_major": 2}}}
    >>> notebook = {"cells": [{"cell_type": "code", "outputs": [view]}], "metadata": {}}
    >>> missing_widget_models(notebook)
    ['cell 1 shows widget abc, which is not in the stored widget state']
    >>> notebook["metadata"]["widgets"] = {WIDGET_STATE: {"state": {"abc": {"state": {}}}}}
    >>> missing_widget_models(notebook)
    []
    """
    stored = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {})
    state = stored.get("state", {})
    problems: list[str] = []
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if not view:
                continue
            shown = view.get("model_id", "")
            if shown not in state:
                problems.append(
                    f"cell {number} shows widget {shown}, which is not in the stored widget state"
                )
                continue
            # The widget shown draws its parts: each part's model must be stored too.
            seen, waiting = {shown}, [shown]
            while waiting:
                model = waiting.pop()
                for part in _references(state[model].get("state", {})):
                    if part in seen:
                        continue
                    seen.add(part)
                    if part in state:
                        waiting.append(part)
                    else:
                        problems.append(
                            f"cell {number} shows widget {shown}, whose part {part} is not "
                            "in the stored widget state"
                        )
    return problems


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
