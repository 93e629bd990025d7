"""The course's JupyterLab extension (``widgets/labextension/``) as it ships: the committed
build is the one its sources make, every word has its three languages, and the course's
Jupyter settings install it where ``jupyter labextension list`` finds it enabled.

(What it does in a browser: ``tests/browser/test_saved_drawings_lab.py``.)
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "widgets" / "labextension"
NAME = "minigrad-widget-restore"


def jupyter_settings():
    spec = importlib.util.spec_from_file_location(
        "jupyter_settings", ROOT / "scripts" / "jupyter_settings.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_build_is_the_one_its_sources_make():
    """build.json is written by scripts/build_labextension.sh from the sources it built and
    the files it made: a source changed without `make labextension`, or a built file edited by
    hand, shows here."""
    settings = jupyter_settings()
    recorded = json.loads((SOURCE / "build.json").read_text())
    assert recorded == json.loads(settings.labextension_record(SOURCE, SOURCE / NAME)), (
        "widgets/labextension/ changed since it was built: run `make labextension`"
    )
    assert set(recorded["sources"]) >= {"package.json", "package-lock.json", "src/index.js"}


def test_the_build_loads_what_it_names():
    built = json.loads((SOURCE / NAME / "package.json").read_text())
    assert built["name"] == NAME
    entry = SOURCE / NAME / built["jupyterlab"]["_build"]["load"]
    assert entry.is_file() and entry.name.startswith("remoteEntry.")
    # The lab's own packages are shared, never bundled, and any JupyterLab 4 will do.
    text = entry.read_text()
    for package in ("@jupyterlab/notebook", "@jupyterlab/translation", "@lumino/widgets"):
        assert f'"{package}",!1,[1,' in text, package
    assert "[1,4,0,0]" in text
    # Small: some kilobytes of JavaScript.
    assert sum(path.stat().st_size for path in (SOURCE / NAME).rglob("*")) < 64_000


def test_every_word_has_its_three_languages():
    words = (SOURCE / "src" / "words.js").read_text()
    table = words[words.index("export const WORDS") : words.index("};")]
    english = re.findall(r"^  '([^']+)': \{$", table, re.M)
    assert english, "no sentence found in the table"
    for sentence in english:
        block = table[table.index(f"'{sentence}'") :].split("}", 1)[0]
        for language in ("ru", "zh_CN"):
            translated = re.search(rf"^\s+{language}: '([^']+)'", block, re.M)
            assert translated and translated.group(1) != sentence, (sentence, language)
    # And the extension uses the sentences the table has.
    used = re.findall(
        r"'([a-z][^']*; run the cell to [^']*)'", (SOURCE / "src" / "index.js").read_text()
    )
    assert used and set(used) <= set(english)


def test_the_course_settings_install_it_and_jupyter_lists_it_enabled(tmp_path):
    settings = jupyter_settings()
    prefix = tmp_path / "prefix"
    settings.write_settings(prefix)
    installed = prefix / "share" / "jupyter" / "labextensions" / NAME
    assert (installed / "package.json").read_bytes() == (
        SOURCE / NAME / "package.json"
    ).read_bytes()
    # A second run replaces the copy (an older build's files do not pile up).
    (installed / "static" / "remoteEntry.old.js").write_text("")
    settings.write_settings(prefix)
    assert not (installed / "static" / "remoteEntry.old.js").exists()

    env = {
        **os.environ,
        "JUPYTER_PATH": str(prefix / "share" / "jupyter"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
    }
    listed = subprocess.run(
        [str(Path(sys.executable).parent / "jupyter"), "labextension", "list"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    plain = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)
    assert re.search(rf"{NAME} v0\.1\.0 enabled\s+OK", plain), plain


@pytest.mark.parametrize("where", ["scripts/bootstrap.sh", "binder/postBuild", "Makefile"])
def test_make_lab_binder_and_make_test_run_the_settings_that_install_it(where):
    # make lab and make test run bootstrap.sh; the Binder image runs postBuild; both run
    # scripts/jupyter_settings.py, which installs the extension (above). Makefile rebuilds it.
    text = (ROOT / where).read_text()
    needed = "build_labextension.sh" if where == "Makefile" else "scripts/jupyter_settings.py"
    assert needed in text, where
