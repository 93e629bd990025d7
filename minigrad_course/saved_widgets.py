"""Widget state a saved notebook keeps: what the docs build checks and the Jupyter server keeps.

A notebook shows a widget through an output that names a widget *model*; the model itself
(its state: a drawing's DOT text, a stepper's frames) is stored in the notebook's metadata.
A model missing there shows as "Error displaying widget: model not found" in JupyterLab and
as an empty box on a page.

Two uses:

* :func:`missing_widget_models` lists the models a notebook shows (and their parts) that its
  stored state lacks. The docs build (``docs/_ext/widget_state_check.py``) fails on any.
* :func:`keep_saved_widget_state` is a Jupyter server *pre-save hook*, set by
  ``scripts/jupyter_settings.py`` for ``make lab`` and the Binder image. JupyterLab saves
  widget state (its ``saveState`` setting, also set there), but only for widgets connected
  to the running kernel: a lesson opened with its stored drawings, and autosaved, would lose
  them all (ipywidgets issue 3888; the widget manager also marks such a notebook as changed
  as soon as it opens). Before each save the hook puts back, from the file being replaced,
  the state of every widget an output still shows that the new state lacks: a lesson
  opened, not run, and autosaved is written back byte for byte; a lesson run again keeps its
  new widgets, and any it did not re-run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
REFERENCE = "IPY_MODEL_"


def shown_models(notebook: dict) -> dict[str, int]:
    """The widget models the outputs of ``notebook`` (a notebook as JSON) show: model id ->
    number of the first cell (from 1) that shows it.

    >>> view = {"data": {WIDGET_VIEW: {"model_id": "abc"}}}
    >>> cells = [{"cell_type": "markdown"}, {"cell_type": "code", "outputs": [view]}]
    >>> shown_models({"cells": cells})
    {'abc': 2}
    """
    shown: dict[str, int] = {}
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view and "model_id" in view:
                shown.setdefault(view["model_id"], number)
    return shown


def stored_state(notebook: dict) -> dict[str, Any]:
    """The stored widget models of ``notebook``: model id -> the model's saved state."""
    widgets = notebook.get("metadata", {}).get("widgets") or {}
    return (widgets.get(WIDGET_STATE) or {}).get("state") or {}


def references(value: Any) -> Iterator[str]:
    """The model ids a widget's state refers to: ``"IPY_MODEL_<id>"`` strings, alone or in
    lists and dicts, as ipywidgets stores children, layouts and links.

    >>> list(references({"children": ["IPY_MODEL_a", "IPY_MODEL_b"], "layout": "IPY_MODEL_c"}))
    ['a', 'b', 'c']
    """
    if isinstance(value, str) and value.startswith(REFERENCE):
        yield value.removeprefix(REFERENCE)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from references(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from references(item)


def with_parts(model_id: str, state: dict[str, Any]) -> Iterator[str]:
    """``model_id`` and every model it refers to, directly or not, through ``state`` (a model
    missing from ``state`` is given, but not looked into)."""
    seen, waiting = {model_id}, [model_id]
    yield model_id
    while waiting:
        model = waiting.pop()
        for part in references(state.get(model, {}).get("state", {})):
            if part not in seen:
                seen.add(part)
                yield part
                if part in state:
                    waiting.append(part)


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
    state = stored_state(notebook)
    problems = []
    for shown, number in shown_models(notebook).items():
        for model in with_parts(shown, state):
            if model in state:
                continue
            if model == shown:
                problems.append(
                    f"cell {number} shows widget {shown}, which is not in the stored widget state"
                )
            else:
                problems.append(
                    f"cell {number} shows widget {shown}, whose part {model} is not in the "
                    "stored widget state"
                )
    return problems


def restore_from(notebook: dict, saved: dict) -> list[str]:
    """Copy into ``notebook`` the stored widget models of the notebook ``saved`` that
    ``notebook`` lacks, except those of widgets no output shows any more: a widget whose
    output was replaced (its cell ran again), its parts that no widget still shown uses, and
    the models that refer to nothing else (a link between two of those parts). Models
    ``notebook`` has are kept as they are. So a notebook saved with no live widget (opened,
    not run) gets its stored state back unchanged. Returns the ids copied.

    >>> view = {"data": {WIDGET_VIEW: {"model_id": "old"}}}
    >>> saved_state = {"old": {"state": {"layout": "IPY_MODEL_lay"}}, "lay": {"state": {}}}
    >>> saved = {"cells": [{"cell_type": "code", "outputs": [view]}],
    ...          "metadata": {"widgets": {WIDGET_STATE: {"state": saved_state,
    ...          "version_major": 2, "version_minor": 0}}}}
    >>> notebook = {"cells": [{"cell_type": "code", "outputs": [view]}], "metadata": {}}
    >>> sorted(restore_from(notebook, saved))
    ['lay', 'old']
    >>> missing_widget_models(notebook)
    []
    """
    state, old = stored_state(notebook), stored_state(saved)
    shown_now = shown_models(notebook)
    replaced = [model for model in shown_models(saved) if model not in shown_now]
    needed = {part for model in shown_now for part in with_parts(model, old)}
    dropped = {part for model in replaced for part in with_parts(model, old)} - needed
    # And what served only those: a link between two parts of a replaced widget, say.
    while True:
        serving = {
            model
            for model, saved_model in old.items()
            if model not in needed
            and model not in dropped
            and set(references(saved_model.get("state", {}))) <= dropped
            and any(True for _ in references(saved_model.get("state", {})))
        }
        if not serving:
            break
        dropped |= serving
    wanted = [model for model in old if model not in state and model not in dropped]
    if not wanted:
        return []
    metadata = notebook.setdefault("metadata", {})
    widgets = metadata.get("widgets") or {}
    stored = widgets.get(WIDGET_STATE) or {}
    saved_widgets = saved["metadata"]["widgets"][WIDGET_STATE]
    for version in ("version_major", "version_minor"):
        if version in saved_widgets:
            stored.setdefault(version, saved_widgets[version])
    stored["state"] = {**state, **{model: old[model] for model in wanted}}
    widgets[WIDGET_STATE] = stored
    metadata["widgets"] = widgets
    return wanted


def keep_saved_widget_state(model: dict, path: str, contents_manager: Any, **kwargs: Any) -> None:
    """A Jupyter server pre-save hook: before a notebook is saved, put back the stored state of
    the widgets it still shows that the front end did not save (see the module's docstring).

    Configured as ``ContentsManager.pre_save_hook =
    "minigrad_course.saved_widgets.keep_saved_widget_state"`` (``scripts/jupyter_settings.py``).
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    notebook = model["content"]
    if not missing_widget_models(notebook):
        return
    on_disk = Path(getattr(contents_manager, "root_dir", "")) / path.lstrip("/")
    try:
        saved = json.loads(on_disk.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # a new file, or not a notebook we can read: nothing to keep
    restored = restore_from(notebook, saved)
    if restored and getattr(contents_manager, "log", None) is not None:
        contents_manager.log.info(
            "kept the saved state of %d widget model(s) in %s", len(restored), path
        )
