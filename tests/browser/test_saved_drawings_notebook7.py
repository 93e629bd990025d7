"""Saved lessons in Notebook 7 (the ``notebook`` package, ``jupyter notebook``), served as
``make lab`` sets Jupyter up: a lesson run, saved, the page reloaded and the lesson reopened
shows every drawing and stepper, with a live kernel and with none (issue 21).

Notebook 7 is made of JupyterLab's components and loads the same prebuilt extensions, so
the settings ``scripts/jupyter_settings.py`` writes (the widget manager's ``saveState``, in
the ``overrides.json`` Notebook 7 reads as JupyterLab does; the server's pre-save hook) and
the course's extension ``minigrad-widget-restore`` (found through ``JUPYTER_PATH``) work
there unchanged; these tests are the proof.

Each lesson (lesson 3, a stepper; lesson 1, a plain drawing) is run in the browser with
Graphviz's ``dot`` on the kernel's PATH (``real_dot``: a student who installed Graphviz, so
each widget's output also stores its picture for viewers without widgets; the browser still
lays the drawings out by itself), saved with Ctrl+S, then:

* the page reloaded with every kernel gone, and the lesson reopened: a new kernel starts,
  every drawing and stepper shows from the saved widget state, none reads "Error displaying
  widget: model not found", and the stepper steps;
* the server restarted with no kernel it may start, and the lesson reopened: every widget
  output shows its stored picture with the extension's note, none "Loading widget..." for
  ever, none blank.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MISSING_MODEL = re.compile(r"Error displaying widget|model not found", re.I)
STORED_NOTE = "stored picture; run the cell to step it"
LESSONS = {
    "03_backward_step_by_step.ipynb": "a stepper",
    "01_gradients.ipynb": "a plain drawing",
}


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Course:
    """A trusted copy of ``notebooks/`` with make lab's Jupyter settings in a scratch prefix,
    served by Notebook 7 as often as a test asks (``serve``)."""

    def __init__(self, root: Path, lab_tools) -> None:
        self.lab_tools = lab_tools
        self.folder, self.env = lab_tools.trusted_course_copy(root)
        prefix = root / "prefix"
        load_script("jupyter_settings").write_settings(prefix)
        extension = prefix / "share/jupyter/labextensions/minigrad-widget-restore/package.json"
        assert extension.exists()
        self.settings = prefix / "share" / "jupyter" / "lab" / "settings"
        self.env["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
        self.env["JUPYTER_CONFIG_PATH"] = str(prefix / "etc" / "jupyter")
        self.env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
        )

    def serve(self, kernels: bool = True):
        """A Notebook 7 server on the copy: ``(base_url, token)`` (a context manager);
        ``kernels=False`` allows no kernel spec, so no kernel can start."""
        args = [f"--JupyterNotebookApp.app_settings_dir={self.settings}"]
        if not kernels:
            args.append("--KernelSpecManager.allowed_kernelspecs=no-such-kernel")
        return self.lab_tools.jupyter_server("notebook", self.folder, tuple(args), self.env)


def widget_views(path: Path) -> dict[int, str]:
    """The cells of a stored notebook that show a widget: index -> the model id shown."""
    notebook = json.loads(path.read_text())
    return {
        index: output["data"][WIDGET_VIEW]["model_id"]
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
        if WIDGET_VIEW in output.get("data", {})
    }


def saved_widget_state(path: Path) -> dict:
    metadata = json.loads(path.read_text())["metadata"]
    return metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]


def open_lesson(page, base_url: str, token: str, name: str) -> None:
    page.goto(f"{base_url}/notebooks/{name}?token={token}")
    expect(page.locator(".jp-Notebook")).to_be_visible(timeout=60_000)


def save(page, path: Path) -> None:
    """Ctrl+S, and wait until the file on disk is new."""
    before = path.stat().st_mtime_ns
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Control+s")
    for _ in range(150):
        if path.stat().st_mtime_ns != before:
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail(f"{path.name} was not saved")
    page.wait_for_timeout(500)  # the write is one call, but let it finish


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_run_saved_and_reopened_in_notebook7_shows_every_drawing(
    page, tmp_path, lab_tools, artifacts, real_dot, lesson
):
    course = Course(tmp_path, lab_tools)
    path = course.folder / lesson
    shipped = widget_views(path)
    assert shipped, f"{lesson} shows no widget"
    stem = lesson.split("_")[0]

    with course.serve() as (base_url, token):
        open_lesson(page, base_url, token, lesson)
        lab_tools.wait_until_idle(page, base_url, token)
        page.wait_for_timeout(1000)  # the page connects to the kernel after the server does
        lab_tools.run_all(page)
        page.wait_for_timeout(1000)
        lab_tools.wait_until_idle(page, base_url, token)
        save(page, path)
        # On disk: this run's widgets (new model ids), each with its state and a picture
        # for viewers without widgets.
        saved = widget_views(path)
        assert len(saved) == len(shipped)
        assert not set(saved.values()) & set(shipped.values()), "the run's outputs were not saved"
        assert set(saved.values()) <= set(saved_widget_state(path)), "a widget's state is missing"
        cells = json.loads(path.read_text())["cells"]
        for index in saved:
            bundle = next(o["data"] for o in cells[index]["outputs"] if WIDGET_VIEW in o["data"])
            assert "image/png" in bundle, index

        # A new browser session: every kernel gone, the page reloaded, the lesson reopened.
        lab_tools.shut_down_kernels(page, base_url, token)
        page.reload()
        open_lesson(page, base_url, token, lesson)
        lab_tools.wait_until_idle(page, base_url, token)
        for index in saved:
            area = lab_tools.show_cell(page, index).locator(".jp-OutputArea")
            expect(area.locator("svg g.node").first).to_be_visible(timeout=60_000)
            assert area.locator("svg g.node").count() >= 3, index
            expect(area.locator(".minigrad-stored-picture")).to_have_count(0)
            text = area.inner_text()
            assert not MISSING_MODEL.search(text), (index, text[:300])
        steppers = page.locator(".minigrad-stepper")
        if LESSONS[lesson] == "a stepper":
            stepper = steppers.first
            frame = stepper.locator(".minigrad-frame:visible")
            expect(frame).to_have_attribute("data-position", "0")
            stepper.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=artifacts / f"notebook7-{stem}-saved-reopened.png")
            # It steps: a kernel runs, and the saved frames are stepped in the browser.
            stepper.locator("button.minigrad-step-button").click()
            expect(frame).to_have_attribute("data-position", "1")
            expect(frame).to_contain_text("Step 1 of")
        else:
            expect(steppers).to_have_count(0)
            page.screenshot(path=artifacts / f"notebook7-{stem}-saved-reopened.png")
        lab_tools.shut_down_kernels(page, base_url, token)

    # The saved lesson reopened where no kernel can start: its stored pictures.
    with course.serve(kernels=False) as (base_url, token):
        open_lesson(page, base_url, token, lesson)
        # Notebook 7 asks which kernel to use instead of the missing one: "No Kernel".
        dialog = page.locator(".jp-Dialog")
        expect(dialog).to_contain_text(lesson, timeout=60_000)
        dialog.locator("button.jp-mod-reject").click()
        expect(dialog).to_have_count(0)
        for index in saved:
            cell = lab_tools.show_cell(page, index)
            picture = cell.locator(".minigrad-stored-picture")
            expect(picture).to_be_visible(timeout=40_000)
            image = picture.locator("img")
            expect(image).to_have_count(1)
            assert image.evaluate("img => img.naturalWidth") > 50, index
            assert image.get_attribute("src").startswith("data:image/png;base64,")
            expect(picture.locator(".minigrad-stored-picture-note")).to_have_text(STORED_NOTE)
            text = cell.locator(".jp-OutputArea").inner_text()
            assert "Loading widget" not in text and not MISSING_MODEL.search(text), index
        page.screenshot(path=artifacts / f"notebook7-{stem}-saved-no-kernel.png")
        assert page.request.get(f"{base_url}/api/kernels?token={token}").json() == []
