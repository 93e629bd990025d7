"""The JupyterLite site (`make lite`, scripts/build_lite.sh) builds, offline of any CDN, with
the lessons, this project's wheel and the pure-Python wheels it needs.

The build installs JupyterLite's tools into build/lite-venv (once) and downloads wheels
from PyPI. The site is built, not run: its Python kernel (Pyodide) and numpy are fetched from
Pyodide's CDN when the page starts, which this test cannot reach (docs/jupyterlite.md)."""

import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def site(lite_site) -> Path:
    """The site, built once per session (tests/conftest.py)."""
    return lite_site


def test_site_has_the_lessons_and_the_wheels(site):
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert lessons and all((site / "files" / name).is_file() for name in lessons)
    index = json.loads((site / "pypi" / "all.json").read_text())
    assert {"minigrad-classroom", "graphviz", "ipywidgets", "anywidget"} <= set(index)
    (wheel,) = (site / "pypi").glob("minigrad_classroom-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # Both packages, and the Graphviz the drawings run in the browser.
    assert "minigrad/__init__.py" in names and "widgets/__init__.py" in names
    assert {"widgets/static/viz.js.gz", "widgets/static/graphviz_view.js"} <= set(names)
    # Only pure-Python wheels: Pyodide cannot install compiled ones from here.
    assert all(w.name.endswith("-none-any.whl") for w in (site / "pypi").glob("*.whl"))


def test_site_has_the_widget_front_ends_and_nothing_of_ours(site):
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    extensions = {e["name"] for e in config["federated_extensions"]}
    assert {"@jupyter-widgets/jupyterlab-manager", "anywidget"} <= extensions
    assert "@jupyterlite/pyodide-kernel-extension" in extensions
    assert not any("minigrad" in name for name in extensions)
