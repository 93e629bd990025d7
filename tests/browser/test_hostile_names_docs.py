"""Hostile names on the docs site (issue 21): a one-page site built by Sphinx with the docs'
own configuration (``-c docs``: myst-nb, the theme, the widget JavaScript and MathJax served
from ``_static``) from a notebook whose steppers and drawings show the hostile names table
(the cells of ``test_hostile_names_static.py``), opened over file:// in Chromium with the
network blocked: no script runs and every picture draws, checked as on the exported page.

Building with the docs' configuration also refreshes ``docs/lessons/`` (gitignored), as
every ``make docs`` does.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
STATIC_TEST = runpy.run_path(str(Path(__file__).parent / "test_hostile_names_static.py"))
SHARE = Path(sys.prefix) / "share"

INDEX = """# Hostile names

```{toctree}
lessons/99_hostile_names
```
"""


def hostile_notebook(folder: Path) -> Path:
    """The hostile cells, run with their widget state stored, as a lesson is stored."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Names a student might type")]
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in STATIC_TEST["CELLS"]]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    NotebookClient(
        notebook,
        timeout=180,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(folder)}},
    ).execute()
    path = folder / "99_hostile_names.ipynb"
    nbformat.write(notebook, path)
    return path


def test_the_docs_site_runs_no_script_from_a_name_and_draws_every_picture(
    page, tmp_path, widget_js, artifacts
):
    subprocess.run(
        [str(ROOT / "scripts" / "fetch_mathjax.sh"), str(SHARE / "minigrad-mathjax")],
        check=True,
        env={**os.environ, "VENV": sys.prefix},
    )
    source = tmp_path / "site"
    (source / "lessons").mkdir(parents=True)
    (source / "index.md").write_text(INDEX)
    hostile_notebook(source / "lessons")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-c",
            str(ROOT / "docs"),
            str(source),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "MINIGRAD_WIDGET_JS": str(SHARE / "minigrad-js"),
            "MINIGRAD_MATHJAX": str(SHARE / "minigrad-mathjax"),
        },
    )
    assert built.returncode == 0, built.stderr[-3000:]
    html = tmp_path / "html" / "lessons" / "99_hostile_names.html"
    assert html.is_file()

    blocked: list[str] = []

    def only_files(route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    STATIC_TEST["check_hostile_page"](page, html.as_uri())
    page.screenshot(path=artifacts / "hostile-names-docs.png")
    assert blocked == []
