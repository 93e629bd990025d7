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
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "widgets" / "labextension"
NAME = "minigrad-widget-restore"
CYRILLIC = re.compile("[\u0400-\u04ff]")
HAN = re.compile("[\u4e00-\u9fff]")
LATIN = re.compile("[A-Za-z]")


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
    assert set(recorded["sources"]) >= {
        "package.json",
        "package-lock.json",
        "src/index.js",
        "src/words.json",
    }


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


def labextension_words():
    spec = importlib.util.spec_from_file_location(
        "labextension_words", ROOT / "scripts" / "labextension_words.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def marked_sentences() -> list[str]:
    """The English sentences index.js marks with N_('...') for the catalogs."""
    return re.findall(r"\bN_\('([^']+)'\)", (SOURCE / "src" / "index.js").read_text())


def test_the_words_table_is_what_the_catalogs_make():
    """src/words.json is written from the widgets' catalogs by `make labextension`: a
    translation changed in a widgets.po without a rebuild shows here (and the build record,
    above, then shows that the built extension is stale too)."""
    words = labextension_words()
    committed = (SOURCE / "src" / "words.json").read_text(encoding="utf-8")
    assert committed == words.table_text(words.words_table()), (
        "widgets/labextension/src/words.json is stale against widgets/locale: "
        "run `make labextension`"
    )
    assert "src/words.json" in json.loads((SOURCE / "build.json").read_text())["sources"]


def test_every_sentence_of_the_extension_comes_from_the_catalogs():
    table = json.loads((SOURCE / "src" / "words.json").read_text(encoding="utf-8"))
    marked = marked_sentences()
    assert len(marked) == 2, "the extension's two notes are no longer marked N_('...')"
    # Every sentence the extension shows is in the table, and nothing else is.
    assert sorted(table) == sorted(marked)
    for translations in table.values():
        assert CYRILLIC.search(translations["ru"]) and not LATIN.search(translations["ru"])
        assert HAN.search(translations["zh_CN"]) and not LATIN.search(translations["zh_CN"])
    # The words come from the table only: no sentence written into the JavaScript elsewhere.
    script = (SOURCE / "src" / "index.js").read_text()
    assert not CYRILLIC.search(script) and not HAN.search(script)
    assert "words.json" in (SOURCE / "src" / "words.js").read_text()


def test_a_changed_or_untranslated_catalog_entry_changes_the_table(tmp_path):
    """The check above can fail: a new translation in a copy of the catalogs makes another
    table, and an entry left untranslated stops the script rather than ship English."""
    words = labextension_words()
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "widgets" / "locale", locale)
    russian = locale / "ru" / "LC_MESSAGES" / "widgets.po"
    sentence = marked_sentences()[0]
    text = russian.read_text(encoding="utf-8")
    entry = f'msgid "{sentence}"\nmsgstr "'
    assert entry in text
    russian.write_text(text.replace(entry, entry + "ИСПРАВЛЕНО "), encoding="utf-8")
    changed = words.words_table(locale)
    assert changed[sentence]["ru"].startswith("ИСПРАВЛЕНО ")
    assert changed != words.words_table()

    start = text.index(entry) + len(entry)
    untranslated = text[:start] + text[text.index('"\n', start) :]
    russian.write_text(untranslated, encoding="utf-8")
    with pytest.raises(SystemExit, match="not translated in ru"):
        words.words_table(locale)


def test_the_note_goes_into_the_page_as_text():
    script = (SOURCE / "src" / "index.js").read_text()
    for markup_sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
        assert markup_sink not in script, markup_sink
    assert "note.node.textContent = translate(" in script


@pytest.mark.parametrize(
    ("lab_language", "expected"),
    [("en", "en"), ("ru-RU", "ru"), ("ru_RU", "ru"), ("zh-CN", "zh_CN"), ("zh-TW", "en")],
)
def test_the_note_speaks_jupyterlabs_language(lab_language, expected, tmp_path):
    """The extension speaks JupyterLab's interface language (ITranslator.languageCode), as
    it did before its words moved into the catalogs: words.js, run by Node with its table."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is needed to run words.js")
    table_text = (SOURCE / "src" / "words.json").read_text(encoding="utf-8")
    # Node needs an import attribute for JSON that the lab's webpack does not: inline it.
    module = (SOURCE / "src" / "words.js").read_text(encoding="utf-8")
    module = module.replace("import WORDS from './words.json';", f"const WORDS = {table_text};")
    (tmp_path / "words.mjs").write_text(module, encoding="utf-8")
    sentence = marked_sentences()[0]
    script = (
        "import { translate } from './words.mjs';\n"
        f"console.log(translate({json.dumps(sentence)}, {json.dumps(lab_language)}));\n"
    )
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    shown = subprocess.run(
        [node, "run.mjs"], capture_output=True, text=True, cwd=tmp_path, check=True
    ).stdout.strip()
    assert shown == json.loads(table_text)[sentence].get(expected, sentence)
    assert (shown == sentence) == (expected == "en")


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
