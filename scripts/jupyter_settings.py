"""The course's Jupyter settings, written into an environment (a venv, or the Binder image).

``make lab`` (through ``scripts/bootstrap.sh``) and ``binder/postBuild`` both run this, so a
student gets the same JupyterLab and Notebook 7 on a laptop and on a JupyterHub::

    python scripts/jupyter_settings.py PREFIX      # PREFIX: the venv, or sys.prefix

It writes, merging into what the files already hold (a setting of the user's own stays):

``PREFIX/share/jupyter/lab/settings/overrides.json`` (JupyterLab and Notebook 7 read it)
    * ``saveState`` of the widget manager: saving a notebook saves its widgets' state too.
      Without it a lesson that ran and autosaved reopens with every drawing and stepper
      reading "Error displaying widget: model not found".
    * no news or update-check toast;
    * Markdown opens as its preview: the landing page ``notebooks/README.md`` is a page
      whose links open the lessons.

``PREFIX/etc/jupyter/jupyter_server_config.json``
    the server's pre-save hook that keeps the stored state of the widgets a notebook still
    shows (``minigrad_course/saved_widgets.py``): JupyterLab saves only the widgets connected
    to the running kernel, so with ``saveState`` alone a lesson opened and autosaved would
    lose its drawings, and opening it would change it.

``PREFIX/etc/jupyter/jupyter_server_config.json`` and ``jupyter_nbconvert_config.json``
    JupyterLab's "File > Save and Export Notebook As > HTML" (the server's nbconvert) and
    ``jupyter nbconvert --to html`` load require.js and the widget manager from a CDN; left
    alone, the widget manager's version is ``*``, whatever is newest on the day. Here they
    are pinned to the versions ``scripts/fetch_widget_js.sh`` fetches for offline pages, so an
    exported lesson renders the same tomorrow. (For a page that needs no network at all:
    ``make page``.)

``PREFIX/share/jupyter/labextensions/minigrad-widget-restore/``
    the course's JupyterLab extension (``widgets/labextension/``, built and committed by
    ``make labextension``): a stored drawing whose widget model went missing (the widget
    manager's restore race, ``scripts/widget_restore_race.py``) is made again from the
    notebook's saved widget state, and where that cannot work (no kernel) the output's stored
    picture shows with a note. Copied, so no Node.js is needed; replaced on every run, so it
    is always the checkout's.

Only the standard library: it runs before anything is installed in the environment.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FETCH_SCRIPT = ROOT / "scripts" / "fetch_widget_js.sh"
CDN = "https://cdn.jsdelivr.net/npm"
LABEXTENSION_SOURCE = ROOT / "widgets" / "labextension"
LABEXTENSION = "minigrad-widget-restore"

# The server keeps the stored state of the widgets a notebook still shows when the front end
# saves without it (see minigrad_course/saved_widgets.py): with saveState alone, a lesson
# opened and autosaved would lose its drawings.
SERVER_SETTINGS = {
    "ContentsManager": {"pre_save_hook": "minigrad_course.saved_widgets.keep_saved_widget_state"}
}

LAB_SETTINGS = {
    "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}},
}


def pinned_versions(script: str) -> dict[str, str]:
    """The exact versions ``fetch_widget_js.sh`` fetches, read from its text (one source).

    >>> pinned_versions("HTML_MANAGER_VERSION=1.0.15\\nREQUIREJS_VERSION=2.3.8\\n")
    {'html-manager': '1.0.15', 'requirejs': '2.3.8'}
    """
    found = {
        name: re.search(rf"^{variable}=([0-9][0-9.]*)$", script, re.M)
        for name, variable in [
            ("html-manager", "HTML_MANAGER_VERSION"),
            ("requirejs", "REQUIREJS_VERSION"),
        ]
    }
    missing = [name for name, match in found.items() if match is None]
    if missing:
        raise SystemExit(f"error: no version of {', '.join(missing)} in {FETCH_SCRIPT}")
    return {name: match.group(1) for name, match in found.items()}


def export_settings(versions: dict[str, str]) -> dict:
    """nbconvert's HTML export, pointed at pinned script versions on a CDN.

    >>> export_settings({"html-manager": "1.0.15", "requirejs": "2.3.8"})["HTMLExporter"][
    ...     "widget_renderer_url"
    ... ]
    'https://cdn.jsdelivr.net/npm/@jupyter-widgets/html-manager@1.0.15/dist/embed-amd.js'
    """
    manager = versions["html-manager"]
    renderer = f"{CDN}/@jupyter-widgets/html-manager@{manager}/dist/embed-amd.js"
    return {
        "HTMLExporter": {
            "require_js_url": f"{CDN}/requirejs@{versions['requirejs']}/require.js",
            "widget_renderer_url": renderer,
            "html_manager_semver_range": manager,
        }
    }


def merge_into(path: Path, ours: dict) -> None:
    """Write ``ours`` into the JSON object in ``path``, one level deep per section: a section
    ours does not name, and a key of a section ours does not set, stay as they were.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "settings.json"
    >>> _ = path.write_text('{"a": {"theme": "dark", "size": 1}, "b": {}}')
    >>> merge_into(path, {"a": {"size": 2}})
    >>> json.loads(path.read_text())
    {'a': {'theme': 'dark', 'size': 2}, 'b': {}}
    """
    try:
        current = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        current = {}
    if not isinstance(current, dict):
        current = {}
    for section, values in ours.items():
        before = current.get(section)
        current[section] = {**before, **values} if isinstance(before, dict) else values
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n")


def files_sha256(root: Path, paths: list[Path]) -> dict[str, str]:
    """The SHA-256 of each file, by its path relative to ``root`` (``/``-separated), sorted.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "a.js").write_text("x")
    >>> files_sha256(root, [root / "a.js"])["a.js"][:12]
    '2d711642b726'
    """
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(paths)
    }


def labextension_sources(source: Path) -> list[Path]:
    """What the extension is built from: its package.json, the lock file that pins
    @jupyterlab/builder, its JavaScript, and the table of its words (src/words.json, written
    from the widgets' catalogs)."""
    files = sorted((source / "src").glob("*.js")) + sorted((source / "src").glob("*.json"))
    return [source / "package.json", source / "package-lock.json", *files]


def labextension_record(source: Path, built: Path) -> str:
    """``build.json``: the SHA-256 of the extension's sources and of each file built from
    them, written by ``scripts/build_labextension.sh`` and checked by the tests."""
    record = {
        "sources": files_sha256(source, labextension_sources(source)),
        "built": files_sha256(built, [path for path in built.rglob("*") if path.is_file()]),
    }
    return json.dumps(record, indent=2) + "\n"


def install_labextension(prefix: Path) -> Path:
    """Copy the built extension into ``prefix``'s JupyterLab extensions, replacing any older
    copy (whose file names, hashes of the content, would otherwise pile up)."""
    target = prefix / "share" / "jupyter" / "labextensions" / LABEXTENSION
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.exists():
        shutil.rmtree(target)
    shutil.copytree(LABEXTENSION_SOURCE / LABEXTENSION, target)
    return target


def write_settings(prefix: Path) -> None:
    """Write the course's settings into the environment at ``prefix``, and install the
    course's JupyterLab extension there."""
    merge_into(prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json", LAB_SETTINGS)
    export = export_settings(pinned_versions(FETCH_SCRIPT.read_text()))
    etc = prefix / "etc" / "jupyter"
    merge_into(etc / "jupyter_server_config.json", {**SERVER_SETTINGS, **export})
    merge_into(etc / "jupyter_nbconvert_config.json", export)
    install_labextension(prefix)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(f"usage: {sys.argv[0]} PREFIX   (a venv, or the image's sys.prefix)")
    write_settings(Path(sys.argv[1]))
