"""The files repo2docker reads (binder/): a Binder link or a Zero to JupyterHub singleuser
image built from this repository installs the course, nbgrader included, and its lessons
open trusted, so their saved drawings show before they run.

repo2docker itself needs Docker, which this machine lacks: the files are checked, and
postBuild is run against a scratch prefix instead of an image's."""

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
from nbformat.sign import NotebookNotary
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"


def test_requirements_install_this_project_and_the_course_tools():
    lines = [
        line.strip()
        for line in (BINDER / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert "-e ." in lines  # this repository: minigrad and widgets
    names = {Requirement(line).name for line in lines if not line.startswith("-")}
    assert {"nbgrader", "jupyterlab", "notebook"} <= names
    # Nothing for Graphviz: the drawings run it in the browser.
    assert not (BINDER / "apt.txt").exists()


def test_runtime_is_a_python_the_project_supports():
    runtime = (BINDER / "runtime.txt").read_text().strip()
    version = tuple(int(v) for v in re.fullmatch(r"python-(\d+)\.(\d+)", runtime).groups())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    minimum = tuple(int(v) for v in project["requires-python"].removeprefix(">=").split("."))
    assert version >= minimum


def test_post_build_signs_the_lessons_where_the_server_looks(tmp_path):
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    # make lab's trust step: a notebook only while its content is what the course shipped
    # (tests/test_make_lab.py tests the step itself), never by name.
    script = post_build.read_text()
    assert "scripts/trusted_notebooks.py trust" in script and "jupyter trust" not in script
    env = {
        **os.environ,
        "NB_PYTHON_PREFIX": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "JUPYTER_DATA_DIR": str(tmp_path / "home-data"),  # never the developer's own
    }
    subprocess.run([str(post_build)], cwd=ROOT, env=env, check=True, capture_output=True)
    config = tmp_path / "etc/jupyter/jupyter_server_config.d/minigrad-signatures.json"
    db_file = str(tmp_path / "share/jupyter/nbsignatures.db")
    secret_file = str(tmp_path / "share/jupyter/notebook_secret")
    assert db_file in config.read_text() and secret_file in config.read_text()
    notary = NotebookNotary(db_file=db_file, secret_file=secret_file)
    course = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    course += sorted((ROOT / "notebooks" / "exercises").glob("*/*.ipynb"))
    assert len(course) >= 36  # eighteen lessons, eighteen exercise sets
    for notebook in course:
        assert notary.check_signature(nbformat.read(notebook, as_version=4)), notebook.name
    settings = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    viewers = settings["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers == {"markdown": "Markdown Preview"}  # the README opens as a page
