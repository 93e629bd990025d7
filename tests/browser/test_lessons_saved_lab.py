"""Saved lessons in JupyterLab as ``make lab`` serves them: drawings that come back, and
files that opening does not change.

Each test has its own server on its own copy of ``notebooks/``, set up as ``make lab`` sets
it up: the course's notebooks trusted by ``scripts/trusted_notebooks.py trust``, the Jupyter
settings ``scripts/jupyter_settings.py`` writes into the venv (read here from a scratch
prefix through ``--LabApp.app_settings_dir``, the course's JupyterLab extension through
``JUPYTER_PATH``), and the landing page as the default URL.

* A lesson with a drawing and a stepper, run (Run All), saved, the page reloaded and the
  lesson reopened: every drawing and stepper shows (not "Error displaying widget: model not
  found"), and the saved file holds the state of every widget it shows.
* Every lesson and exercise set, opened (several tabs at a time), its kernel started and idle,
  then closed: every file is byte-identical afterwards. Autosave runs every second here, so
  whatever JupyterLab would write is written: a lesson with stored widgets is marked changed
  as it opens (the widget manager does that when it saves widget state, ipywidgets issue
  3888) and autosaved with an empty widget state, which the server's pre-save hook
  (``minigrad_course/saved_widgets.py``) fills back from the file it replaces.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from minigrad_course.saved_widgets import missing_widget_models

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MISSING_MODEL = re.compile(r"Error displaying widget|model not found", re.I)


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def course(tmp_path, lab_tools) -> Iterator[tuple[str, str, Path]]:
    """A JupyterLab on a trusted copy of the course with make lab's settings:
    ``(base_url, token, folder)``."""
    folder, env = lab_tools.trusted_course_copy(tmp_path)
    # make lab's settings (bootstrap runs this script on the venv), in a scratch prefix.
    settings_script = load_script("jupyter_settings")
    prefix = tmp_path / "prefix"
    settings_script.write_settings(prefix)
    settings = prefix / "share" / "jupyter" / "lab" / "settings"
    # The test's own: autosave every second, so that a notebook JupyterLab changed on opening
    # is written to disk while the test watches (the default is every two minutes).
    settings_script.merge_into(
        settings / "overrides.json",
        {"@jupyterlab/docmanager-extension:plugin": {"autosaveInterval": 1}},
    )
    # The server reads the prefix's configuration as it reads the venv's (the pre-save hook
    # that keeps stored widget state), and imports this checkout's minigrad_course.
    env["JUPYTER_CONFIG_PATH"] = str(prefix / "etc" / "jupyter")
    # The course's JupyterLab extension, which write_settings installs into the prefix.
    env["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    args = (f"--LabApp.app_settings_dir={settings}", "--LabApp.default_url=/lab/tree/README.md")
    with lab_tools.jupyter_server("lab", folder, args, env) as (base_url, token):
        yield base_url, token, folder


def widget_views(path: Path) -> dict[int, str]:
    """The cells of a notebook that show a widget: index -> the model id shown."""
    notebook = json.loads(path.read_text())
    return {
        index: output["data"][WIDGET_VIEW]["model_id"]
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
        if WIDGET_VIEW in output.get("data", {})
    }


def open_notebook(page, base_url: str, token: str, name: str) -> None:
    page.goto(f"{base_url}/lab/tree/{name}?reset&token={token}")
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3 \(ipykernel\)\s*\|\s*Idle"), timeout=60_000
    )


def check_every_widget_shows(page, lab_tools, views: dict[int, str]) -> None:
    for index in views:
        cell = lab_tools.show_cell(page, index)
        output = cell.locator(".jp-OutputArea-output").first
        expect(output).to_be_visible()
        expect(output.locator("svg g.node").first).to_be_visible(timeout=60_000)
        assert output.locator("svg g.node").count() >= 3, index
        text = cell.locator(".jp-OutputArea").inner_text()
        assert not MISSING_MODEL.search(text), (index, text[:300])


LESSON = "12_retain_grad_and_hooks.ipynb"  # a drawing and a stepper


def test_a_lesson_run_saved_and_reopened_shows_every_drawing_and_stepper(
    page, course, lab_tools, artifacts
):
    base_url, token, folder = course
    path = folder / LESSON
    shipped = widget_views(path)
    assert len(shipped) >= 2
    open_notebook(page, base_url, token, LESSON)
    lab_tools.run_all(page)
    page.wait_for_timeout(1000)
    lab_tools.wait_until_idle(page, base_url, token)
    before = path.stat().st_mtime_ns
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").click()
    page.keyboard.press("Control+s")
    for _ in range(100):
        if path.stat().st_mtime_ns != before:
            break
        page.wait_for_timeout(100)
    expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)

    # On disk: the new run's widgets (new model ids), each with its state saved.
    saved = widget_views(path)
    assert len(saved) == len(shipped) and not set(saved.values()) & set(shipped.values())
    state = json.loads(path.read_text())["metadata"]["widgets"][
        "application/vnd.jupyter.widget-state+json"
    ]["state"]
    assert set(saved.values()) <= set(state), "a widget shown is missing from the saved state"

    # A new browser session: reload, every kernel gone, reopen the lesson.
    lab_tools.shut_down_kernels(page, base_url, token)
    page.reload()
    open_notebook(page, base_url, token, LESSON)
    check_every_widget_shows(page, lab_tools, saved)
    stepper = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .minigrad-stepper").first
    frame = stepper.locator(".minigrad-frame:visible")
    expect(frame).to_have_attribute("data-position", "0")
    stepper.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=artifacts / "lesson12-saved-reopened.png")
    # The saved stepper still steps (its frames are in the saved state; the new kernel has
    # never seen it, so this is the browser's doing alone).
    stepper.locator("button.minigrad-step-button").click()
    expect(frame).to_have_attribute("data-position", "1")
    # Reopened, the lesson is autosaved again (the widget manager marks it changed): what it
    # shows is still stored, for the next time it opens.
    expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0, timeout=15_000)
    assert missing_widget_models(json.loads(path.read_text())) == []
    assert set(widget_views(path).values()) == set(saved.values())
    lab_tools.shut_down_kernels(page, base_url, token)


def course_notebooks(folder: Path) -> list[str]:
    names = sorted(path.name for path in folder.glob("[0-9][0-9]_*.ipynb"))
    # The lessons in other languages (notebooks/ru/, notebooks/zh_CN/).
    names += sorted(
        path.relative_to(folder).as_posix() for path in folder.glob("*/[0-9][0-9]_*.ipynb")
    )
    names += sorted(
        path.relative_to(folder).as_posix() for path in folder.glob("exercises/*/*.ipynb")
    )
    return names


def open_from_path(page, name: str) -> None:
    """File > Open from Path..., as a student would, without reloading the page."""
    page.locator(".lm-MenuBar-item", has_text="File").click()
    page.locator('.lm-Menu-item[data-command="filebrowser:open-path"]').click()
    field = page.locator(".jp-Dialog input")
    field.fill(name)
    field.press("Enter")
    expect(page.locator(".jp-Dialog")).to_have_count(0)


def wait_until_no_tab_changed(page, quiet_ms: int, timeout_ms: int) -> None:
    """Return once no tab has shown JupyterLab's changed mark for ``quiet_ms`` in a row."""
    dirty = page.locator(".lm-TabBar-tab.jp-mod-dirty")
    quiet = waited = 0
    while quiet < quiet_ms:
        if waited > timeout_ms:
            pytest.fail(
                f"tabs still marked changed after {timeout_ms} ms: {dirty.all_inner_texts()}"
            )
        quiet = 0 if dirty.count() else quiet + 250
        page.wait_for_timeout(250)
        waited += 250


# The widget views of the open notebooks, as JupyterLab renders them: the widget manager's
# renderer, the one output that is a Lumino panel (with no data-mime-type, unlike the others).
# Each says "Loading widget..." until the manager has restored its notebook's stored widgets
# (it renders a view only then), and then holds the widget; the course's extension shows a
# stored picture beside a view that waited too long, but the view itself still waits.
READ_WIDGET_VIEWS = """
() => [...document.querySelectorAll('.jp-NotebookPanel .jp-OutputArea-output.lm-Panel')]
    .map(view => view.children.length > 0 ? 'shown' : view.textContent.trim())
"""


def wait_until_every_widget_shows(page, expected: int, timeout_ms: int = 180_000) -> None:
    """Return once the open notebooks show ``expected`` widget views, each with its widget."""
    waited, views = 0, []
    while waited <= timeout_ms:
        views = page.evaluate(READ_WIDGET_VIEWS)
        if len(views) == expected and all(view == "shown" for view in views):
            return
        page.wait_for_timeout(250)
        waited += 250
    pytest.fail(f"{expected} stored widgets expected to show, after {timeout_ms} ms: {views}")


def test_opening_every_lesson_and_exercise_set_changes_no_file(page, course, lab_tools):
    base_url, token, folder = course
    names = course_notebooks(folder)
    assert len(names) >= 34  # seventeen lessons, seventeen exercise sets
    shipped = {name: (folder / name).read_bytes() for name in names}
    widget_count = {name: len(widget_views(folder / name)) for name in names}
    page.goto(f"{base_url}/lab?reset&token={token}")
    expect(page.locator(".lm-MenuBar-item", has_text="File")).to_be_visible(timeout=60_000)
    batch = 6  # tabs, and kernels, at a time
    for start in range(0, len(names), batch):
        opened = names[start : start + batch]
        for name in opened:
            open_from_path(page, name)
        tabs = page.locator('.lm-DockPanel .lm-TabBar-tab[data-type="document-title"]')
        expect(tabs).to_have_count(len(opened), timeout=30_000)
        for _ in range(240):
            sessions = page.request.get(f"{base_url}/api/sessions?token={token}").json()
            if len(sessions) == len(opened) and lab_tools.kernel_idle(base_url, token):
                break
            page.wait_for_timeout(500)
        else:
            pytest.fail(f"the kernels of {opened} did not all start and become idle")
        # The widget manager marks a notebook with stored widgets as changed on opening
        # (ipywidgets issue 3888): autosave, every second here, then writes it, through the
        # server's hook that keeps the stored widget state. It marks it once for each model
        # it makes from the stored state, and on a loaded machine it makes them many seconds
        # after the kernel is idle (the restore waits for the kernel's answer, then for the
        # widgets' code): a wait for a quiet spell alone could end before that, and closing
        # then asked to save. So first wait until every stored widget of the open notebooks
        # shows, which the manager lets happen only once it has made them all, and then
        # until no tab has been marked for a while.
        wait_until_every_widget_shows(page, sum(widget_count[name] for name in opened))
        wait_until_no_tab_changed(page, quiet_ms=4000, timeout_ms=90_000)
        page.locator(".lm-MenuBar-item", has_text="File").click()
        page.locator('.lm-Menu-item[data-command="application:close-all"]').click()
        dialog = page.locator(".jp-Dialog")
        for _ in range(120):  # six notebooks close one by one
            if tabs.count() == 0 or dialog.count() > 0:
                break
            page.wait_for_timeout(500)
        # No "Save your work?" question: nothing was left unsaved.
        assert dialog.count() == 0, f"closing {opened} asked: {dialog.first.inner_text()}"
        expect(tabs).to_have_count(0)
        lab_tools.shut_down_kernels(page, base_url, token)
    changed = [name for name in names if (folder / name).read_bytes() != shipped[name]]
    assert not changed, f"opening changed {changed}"
