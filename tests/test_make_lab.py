"""What ``make lab`` does before JupyterLab starts, read from make's dry run, and the trust
step it runs.

* It trusts the course's notebooks on every run, but only those whose content is what the
  course shipped: ``scripts/trusted_notebooks.py trust`` signs a notebook only while its
  SHA-256 is the one in ``notebooks/trusted.sha256``, never because of its name. JupyterLab
  shows a notebook's stored drawings and widgets only when it is trusted.
* The manifest is up to date with every notebook the project ships: a lesson re-executed
  without refreshing it fails here, with the command that refreshes it.
* It opens ``notebooks/README.md``, the course's landing page; bootstrap's JupyterLab
  settings show Markdown as its preview, where the links open the lessons.

``tests/browser/test_lessons_lab.py`` checks the same in a real browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCRIPT = ROOT / "scripts" / "trusted_notebooks.py"
MANIFEST = NOTEBOOKS / "trusted.sha256"
REFRESH = ".venv/bin/python scripts/trusted_notebooks.py refresh"


@pytest.fixture(scope="module")
def dry_run() -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # -n prints the recipes without running them; bootstrap's recipe is printed too.
    return subprocess.run(
        ["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def test_make_lab_trusts_through_the_manifest_never_by_name(dry_run):
    trust = [line for line in dry_run.splitlines() if "trust" in line]
    assert len(trust) == 1, dry_run
    assert trust[0].split()[1:] == ["scripts/trusted_notebooks.py", "trust"], trust
    assert "jupyter trust" not in dry_run and ".ipynb" not in dry_run.replace("index.ipynb", "")


def test_make_lab_trusts_first_then_opens_the_readme(dry_run):
    after_trust = dry_run[dry_run.index("trusted_notebooks.py trust") :]
    assert "jupyter lab" in after_trust
    # The landing page is the first of the recipe's candidates that exists: the README.
    candidates = after_trust.split("for f in", 1)[1].split(";", 1)[0].split()
    existing = [name for name in candidates if (ROOT / name).exists()]
    assert existing[0] == "notebooks/README.md", candidates


def test_the_link_make_lab_prints_opens_the_landing_page(dry_run, tmp_path):
    """The server's default URL is the landing page, so the address it prints (and the
    browser it opens) shows the README, not the Launcher."""
    recipe = dry_run[dry_run.index("landing=") :]
    # Run the recipe up to the server itself, with `jupyter` replaced by a stand-in that
    # prints its arguments.
    stand_in = tmp_path / "bin" / "jupyter"
    stand_in.parent.mkdir()
    stand_in.write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
    stand_in.chmod(0o755)
    recipe = recipe.replace(".venv/bin/jupyter", str(stand_in))
    shown = subprocess.run(
        ["sh", "-c", recipe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert "--notebook-dir=notebooks" in shown
    assert "--LabApp.default_url=/lab/tree/README.md" in shown


def test_make_lab_installs_the_students_set_and_make_test_adds_the_tools():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")

    def bootstrap_line(target: str) -> list[str]:
        recipe = subprocess.run(
            ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        return [line.split() for line in recipe.splitlines() if "scripts/bootstrap.sh" in line][0]

    assert bootstrap_line("lab")[-2:] == ["scripts/bootstrap.sh", "lab"]
    assert bootstrap_line("test")[-1] == "scripts/bootstrap.sh"


def run_script(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_the_manifest_is_up_to_date_with_every_shipped_notebook():
    result = run_script("check")
    assert result.returncode == 0, (
        f"{result.stderr}\nAfter changing, re-executing or adding a notebook under notebooks/, "
        f"refresh the manifest and commit it: {REFRESH}"
    )
    listed = {line.split("  ", 1)[1] for line in MANIFEST.read_text().splitlines()}
    # Everything make lab trusted by name before is in it: the lessons and released sets.
    lessons = set(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) | set(NOTEBOOKS.glob("exercises/*/*.ipynb"))
    assert len(lessons) >= 32  # sixteen lessons, sixteen exercise sets
    assert {path.relative_to(ROOT).as_posix() for path in lessons} <= listed


@pytest.fixture
def course_copy(tmp_path) -> Path:
    """A copy of the repository's notebooks (manifest included), outside any git checkout."""
    root = tmp_path / "repository"
    shutil.copytree(NOTEBOOKS, root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_*"))
    return root


def test_check_names_the_refresh_command_and_refresh_brings_the_manifest_up_to_date(
    course_copy,
):
    lesson = course_copy / "notebooks" / "01_gradients.ipynb"
    notebook = nbformat.read(lesson, as_version=4)
    notebook.cells[0].source += "\n\nAn edit, as if the lesson had been re-executed."
    nbformat.write(notebook, lesson)
    stale = run_script("check", "--root", str(course_copy))
    assert stale.returncode == 1
    assert "changed since the manifest was written: notebooks/01_gradients.ipynb" in stale.stderr
    assert REFRESH in stale.stderr
    assert run_script("refresh", "--root", str(course_copy)).returncode == 0
    assert run_script("check", "--root", str(course_copy)).returncode == 0


def evil_notebook() -> nbformat.NotebookNode:
    """A notebook with script in its output: trusted, JupyterLab would run it on open."""
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("1")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"text/html": "<script>alert('trusted by name')</script>"}
        )
    ]
    notebook.cells = [cell]
    return notebook


def test_the_trust_step_signs_only_what_the_course_shipped(course_copy, tmp_path):
    notebooks = course_copy / "notebooks"
    # A downloaded notebook named like a lesson: make lab's old glob trusted it.
    evil = notebooks / "99_evil.ipynb"
    nbformat.write(evil_notebook(), evil)
    assert evil in notebooks.glob("[0-9][0-9]_*.ipynb")
    # A course notebook whose content changed: its name is in the manifest, its hash is not.
    edited = notebooks / "03_backward_step_by_step.ipynb"
    changed = nbformat.read(edited, as_version=4)
    changed.cells.append(evil_notebook().cells[0])
    nbformat.write(changed, edited)

    # A private Jupyter: the signature database goes into a temporary data dir, and no
    # configuration of the developer's own is read.
    data_dir = tmp_path / "jupyter-data"
    env = {"JUPYTER_DATA_DIR": str(data_dir), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    result = run_script("trust", "--root", str(course_copy), env=env)
    assert result.returncode == 0, result.stderr
    assert "not trusted: notebooks/03_backward_step_by_step.ipynb" in result.stdout

    notary = NotebookNotary(data_dir=str(data_dir))
    assert Path(notary.db_file).parent == data_dir

    def trusted(path: Path) -> bool:
        return notary.check_signature(nbformat.read(path, as_version=4))

    assert not trusted(evil)
    assert not trusted(edited)
    shipped = [course_copy / line.split("  ", 1)[1] for line in MANIFEST.read_text().splitlines()]
    assert len(shipped) >= 32
    for path in shipped:
        assert trusted(path) == (path != edited), path.name
    # Run again (every make lab does): nothing changes, the evil notebook stays untrusted.
    assert run_script("trust", "--root", str(course_copy), env=env).returncode == 0
    assert not trusted(evil) and not trusted(edited)


def test_bootstrap_keeps_other_settings_and_adds_the_markdown_preview(tmp_path):
    """bootstrap merges its JupyterLab settings into an existing overrides.json."""
    venv = tmp_path / "venv"
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "python").symlink_to(shutil.which("python3") or "/usr/bin/python3")
    mine = {
        "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
        "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    }
    (settings / "overrides.json").write_text(json.dumps(mine))
    script = (ROOT / "scripts" / "bootstrap.sh").read_text()
    # Only step 5, the settings: the rest would create a venv and install packages.
    step = script[script.index("# --- 5.") : script.index("# --- 6.")]
    subprocess.run(["bash", "-c", f"set -euo pipefail\nVENV={venv}\n{step}"], cwd=ROOT, check=True)
    merged = json.loads((settings / "overrides.json").read_text())
    assert merged["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert merged["@jupyterlab/docmanager-extension:plugin"] == {
        "autosave": False,
        "defaultViewers": {"markdown": "Markdown Preview"},
    }
    assert merged["@jupyterlab/apputils-extension:notification"]["checkForUpdates"] is False
    # Saving a notebook saves its widgets' state: a lesson reopened shows its drawings
    # (tests/browser/test_lessons_saved_lab.py checks it in JupyterLab).
    assert merged["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": True}
    # The server keeps stored widget state on save; HTML exports load pinned script versions.
    etc = venv / "etc" / "jupyter"
    server = json.loads((etc / "jupyter_server_config.json").read_text())
    assert server["ContentsManager"]["pre_save_hook"].endswith("keep_saved_widget_state")
    for config in (server, json.loads((etc / "jupyter_nbconvert_config.json").read_text())):
        renderer = config["HTMLExporter"]["widget_renderer_url"]
        pinned = r"/@jupyter-widgets/html-manager@\d+\.\d+\.\d+/dist/embed-amd\.js$"
        assert re.search(pinned, renderer), renderer
        assert re.search(r"/requirejs@\d+\.\d+\.\d+/", config["HTMLExporter"]["require_js_url"])


def test_notebook_7_reads_the_settings_jupyterlab_reads():
    """bootstrap writes one overrides.json (saved widget state, ...): Notebook 7 reads the
    same file as JupyterLab, so a lesson saved there keeps its widgets too."""
    pytest.importorskip("notebook")
    from jupyterlab.labapp import LabApp
    from notebook.app import JupyterNotebookApp

    expected = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings"
    assert Path(JupyterNotebookApp().app_settings_dir) == expected
    assert Path(LabApp().app_settings_dir) == expected
