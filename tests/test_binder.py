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
    # This repository (minigrad, widgets, minigrad_course), not editable: an editable install
    # points into the repository's folder, which a Zero to JupyterHub home volume hides.
    assert "." in lines and not any(line.startswith("-e") for line in lines)
    names = {Requirement(line).name for line in lines if line != "." and not line.startswith("-")}
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
    db_file = str(tmp_path / "share/jupyter/nbsignatures.db")
    secret_file = str(tmp_path / "share/jupyter/notebook_secret")
    # Where the server reads it: a server started on this prefix's config finds the notary.
    server_config = server_config_of(tmp_path)
    assert server_config["NotebookNotary"] == {"db_file": db_file, "secret_file": secret_file}
    notary = NotebookNotary(db_file=db_file, secret_file=secret_file)
    course = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    course += sorted((ROOT / "notebooks" / "exercises").glob("*/*.ipynb"))
    assert len(course) >= 36  # eighteen lessons, eighteen exercise sets
    for notebook in course:
        assert notary.check_signature(nbformat.read(notebook, as_version=4)), notebook.name
    settings = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text())
    viewers = settings["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers == {"markdown": "Markdown Preview"}  # the README opens as a page
    # A lesson that ran and was saved keeps its widgets' state: its drawings come back.
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": True}
    # A student's JupyterLab: no Create Assignment, no Formgrader (front end or server).
    page_config = json.loads((tmp_path / "etc/jupyter/labconfig/page_config.json").read_text())
    disabled = {name for name, off in page_config["disabledExtensions"].items() if off}
    assert disabled == {"@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:formgrader"}
    extensions = server_config["ServerApp"]["jpserver_extensions"]
    assert extensions["nbgrader.server_extensions.formgrader"] is False
    # JupyterLab's own "Export as HTML" loads pinned script versions, not html-manager@*.
    exporter = server_config["HTMLExporter"]
    assert "@jupyter-widgets/html-manager@1." in exporter["widget_renderer_url"]
    assert "*" not in exporter["widget_renderer_url"] + exporter["require_js_url"]


def server_config_of(prefix: Path) -> dict:
    """The configuration a Jupyter server reads from ``prefix``'s etc/jupyter alone (not the
    developer's own): loaded by jupyter_server itself, in a subprocess."""
    code = (
        "import json; from jupyter_server.serverapp import ServerApp\n"
        "app = ServerApp(); app.load_config_file()\n"
        "print(json.dumps({k: dict(v) for k, v in app.config.items()}))"
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter"),
        "JUPYTER_CONFIG_DIR": str(prefix / "no-user-config"),
        "JUPYTER_PREFER_ENV_PATH": "0",
    }
    shown = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(shown.stdout)
