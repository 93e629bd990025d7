"""What ``make lab`` does before JupyterLab starts, read from make's dry run.

* It trusts every lesson and every released exercise set (``jupyter trust``), on every run:
  JupyterLab shows a notebook's stored drawings and widgets only when it is trusted, and a
  re-executed lesson needs a new signature.
* It opens ``notebooks/README.md``, the course's landing page; bootstrap's JupyterLab
  settings show Markdown as its preview, where the links open the lessons.

``tests/browser/test_lessons_lab.py`` checks the same in a real browser.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


@pytest.fixture(scope="module")
def dry_run() -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # -n prints the recipes without running them; bootstrap's recipe is printed too.
    return subprocess.run(
        ["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def test_make_lab_trusts_every_lesson_and_released_set(dry_run):
    trust = [line for line in dry_run.splitlines() if "jupyter trust" in line]
    assert len(trust) == 1, dry_run
    trusted = {(ROOT / word).resolve() for word in shlex.split(trust[0]) if word.endswith(".ipynb")}
    lessons = set(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    released = set(NOTEBOOKS.glob("exercises/*/*.ipynb"))
    assert lessons and released
    assert trusted == {path.resolve() for path in lessons | released}


def test_make_lab_trusts_first_then_opens_the_readme(dry_run):
    after_trust = dry_run[dry_run.index("jupyter trust") :]
    assert "jupyter lab" in after_trust
    # The landing page is the first of the recipe's candidates that exists: the README.
    candidates = after_trust.split("for f in", 1)[1].split(";", 1)[0].split()
    existing = [name for name in candidates if (ROOT / name).exists()]
    assert existing[0] == "notebooks/README.md", candidates


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
    subprocess.run(["bash", "-c", f"set -euo pipefail\nVENV={venv}\n{step}"], check=True)
    merged = json.loads((settings / "overrides.json").read_text())
    assert merged["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert merged["@jupyterlab/docmanager-extension:plugin"] == {
        "autosave": False,
        "defaultViewers": {"markdown": "Markdown Preview"},
    }
    assert merged["@jupyterlab/apputils-extension:notification"]["checkForUpdates"] is False
