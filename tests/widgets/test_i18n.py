"""The widgets' words come from gettext catalogs (issue 22): English, Russian, Chinese.

- the template ``widgets/locale/widgets.pot`` holds exactly what ``pybabel extract`` finds
  in ``widgets/`` today, and each language's catalog translates every entry, none fuzzy;
- a translation keeps its English entry's placeholders and HTML tags, no more, no fewer;
- a stepper, the accumulation widget, the second-derivative widget and the forward stepper
  speak the language chosen, while what PyTorch prints (values, ``grad_fn`` names) stays
  byte for byte; a hostile tensor name is still escaped in every language;
- the language is chosen by ``set_language``, then the notebook's metadata, then the
  locale, then English; an unknown language is a ``ValueError``.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from babel.messages import pofile
from babel.messages.frontend import CommandLineInterface

import minigrad as mg
import widgets
from minigrad.function import short_name
from minigrad_course import language_choice
from widgets import i18n
from widgets._browser import STATIC
from widgets._graph import full_value
from widgets._markup import escape, wide_characters
from widgets._view_words import view_words
from widgets.draw import FONT_POINTS

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "widgets" / "locale"
TRANSLATED = ("ru", "zh_CN")
CYRILLIC = re.compile("[\u0400-\u04ff]")
HAN = re.compile("[\u4e00-\u9fff]")
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")


pytestmark = pytest.mark.usefixtures("no_language_chosen")  # tests/widgets/conftest.py


def read_catalog(path: Path, locale: str | None = None):
    with open(path, "rb") as file:
        return pofile.read_po(file, locale=locale)


def messages(catalog) -> dict:
    """Each entry by (context, English singular)."""
    return {
        (message.context or "", message.id if isinstance(message.id, str) else message.id[0]): (
            message
        )
        for message in catalog
        if message.id
    }


# --------------------------------------------------------------------------- the catalogs
def test_the_template_is_what_pybabel_extracts_today(tmp_path, monkeypatch):
    extracted = tmp_path / "widgets.pot"
    monkeypatch.chdir(ROOT)
    # What `make catalogs` runs, into a temporary file.
    arguments = ["-F", "babel.cfg", "-k", "N_", "-k", "plot_gettext", "-c", "TRANSLATORS:"]
    arguments += ["--add-location=file", "--sort-by-file", "-o", str(extracted), "."]
    CommandLineInterface().run(["pybabel", "-q", "extract", *arguments])
    fresh = messages(read_catalog(extracted))
    stored = messages(read_catalog(LOCALE / "widgets.pot"))
    assert fresh, "pybabel found no message: is babel.cfg still mapping widgets/?"
    assert sorted(fresh) == sorted(stored), "run `make catalogs`"
    for key, message in fresh.items():
        assert stored[key].id == message.id  # the plural too
        assert stored[key].auto_comments == message.auto_comments


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    template = messages(read_catalog(LOCALE / "widgets.pot"))
    catalog = read_catalog(LOCALE / language / "LC_MESSAGES" / "widgets.po", language)
    translated = messages(catalog)
    assert sorted(translated) == sorted(template), "run `make catalogs`, then translate"
    for key, message in translated.items():
        assert not message.fuzzy, f"fuzzy in {language}: {key[1]!r}"
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = catalog.num_plurals if message.pluralizable else 1
        assert len(forms) == expected and all(forms), f"untranslated in {language}: {key[1]!r}"


def placeholders(text: str) -> list[str]:
    """``{name}``, ``{x0:g}``: each field with its format, sorted (order is the language's)."""
    fields = [
        f"{name}:{spec}!{conversion}"
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]
    return sorted(fields)


def tags(text: str) -> list[str]:
    """The HTML tags of ``text``, opening and closing, with their attributes, sorted."""
    return sorted(match.group(0) for match in TAG.finditer(text))


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders_and_the_tags(language):
    catalog = read_catalog(LOCALE / language / "LC_MESSAGES" / "widgets.po", language)
    checked = 0
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            # Every form carries the placeholders of the English plural (which, for a count,
            # are those of the singular too).
            assert placeholders(form) == placeholders(english[-1]), (language, message.id, form)
            assert tags(form) == tags(english[-1]), (language, message.id, form)
            checked += 1
    assert checked > 100


def test_the_placeholder_check_sees_a_missing_field_and_a_tag():
    assert placeholders("{a} and {b:g}") != placeholders("{a}")
    assert tags("<b>x</b>") != tags("x")
    assert tags('<b style="color: red">x</b>') != tags("<b>x</b>")


def test_fuzzy_entries_are_not_used(tmp_path, monkeypatch):
    """A fuzzy entry (a changed English sentence, not yet checked) shows the English."""
    catalog_dir = tmp_path / "ru" / "LC_MESSAGES"
    catalog_dir.mkdir(parents=True)
    source = (LOCALE / "ru" / "LC_MESSAGES" / "widgets.po").read_text(encoding="utf-8")
    marked = source.replace('msgid "one step forward"', '#, fuzzy\nmsgid "one step forward"')
    (catalog_dir / "widgets.po").write_text(marked, encoding="utf-8")
    # The catalogs are read once per folder: a folder of its own is read afresh.
    monkeypatch.setattr(i18n, "_LOCALE_DIR", tmp_path)
    widgets.set_language("ru")
    assert i18n._("one step forward") == "one step forward"
    assert i18n._("one step back") == "на шаг назад"


def test_russian_plural_forms():
    widgets.set_language("ru")
    singular = "{count} more graph node not drawn (max_nodes={max_nodes})"
    plural = "{count} more graph nodes not drawn (max_nodes={max_nodes})"
    words = [i18n.ngettext(singular, plural, n).split()[2] for n in (1, 3, 5, 21)]
    assert words == ["узел", "узла", "узлов", "узел"]


# --------------------------------------------------------------------------- the widgets
def stepper_in(language: str | None):
    widgets.set_language(language)
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor([1.0, -2.0], requires_grad=True)
    a = x * w
    y = (a + a).sum()
    return widgets.BackwardStepper(y, names={"x": x, "w": w, "a": a, "y": y})


@pytest.mark.parametrize(("language", "script"), [("ru", CYRILLIC), ("zh_CN", HAN)])
def test_a_stepper_speaks_the_language_chosen(language, script):
    english = stepper_in("en")
    translated = stepper_in(language)
    assert not any(CYRILLIC.search(f) or HAN.search(f) for f in english.frames)
    assert english.num_steps == translated.num_steps
    for position, (before, after) in enumerate(zip(english.frames, translated.frames)):
        assert before != after
        assert script.search(after), (language, position)
    # The note, the buttons, the slider and the words for viewers without widgets too.
    assert script.search(translated._note.value)
    assert all(script.search(label) for _, label, _ in translated._buttons.buttons)
    assert script.search(translated._slider.description)
    # A translated label takes the room it needs (ipywidgets would cut it at 80px).
    assert translated._play.style.description_width == "initial"
    assert english._play.style.description_width == ""
    assert script.search(translated._fallback[0])
    assert script.search(translated.dot)  # "value", "leaf" in the boxes


@pytest.mark.parametrize("language", TRANSLATED)
def test_values_and_node_names_stay_as_printed(language):
    english = stepper_in("en")
    translated = stepper_in(language)
    for position, step in enumerate(translated.steps, 1):
        frame = translated.frames[position]
        # PyTorch's name of the node, and each gradient as print shows it.
        assert short_name(step.node) in frame
        assert escape(full_value(step.grad_in)) in frame
        assert short_name(english.steps[position - 1].node) == short_name(step.node)
    # The numbers on the arrows and in the boxes are the same texts.
    numbers = re.compile(r"-?\[?[0-9][0-9., \-]*\]?")
    english_texts = json.dumps(english.text_copies, ensure_ascii=False)
    translated_texts = json.dumps(translated.text_copies, ensure_ascii=False)
    assert sorted(numbers.findall(english_texts)) == sorted(numbers.findall(translated_texts))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_hostile_name_is_escaped_in_every_language(language):
    hostile = '<img src=x onerror="alert(1)">'
    widgets.set_language(language)
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x
    stepper = widgets.BackwardStepper(y, names={hostile: x, "y": y})
    shown = "".join(stepper.frames) + stepper._note.value
    assert "<img" not in shown
    assert escape(hostile) in shown


@pytest.mark.parametrize(("language", "script"), [("ru", CYRILLIC), ("zh_CN", HAN)])
def test_the_other_widgets_speak_it_too(language, script):
    widgets.set_language(language)
    x = mg.tensor(2.0, requires_grad=True)
    demo = widgets.GradAccumulation(lambda x: x * x, [x], names=["x"])
    demo.backward()
    demo.backward()  # fails: the graph was freed; torch's message stays English
    assert script.search(demo.message_html())
    assert "Trying to backward through the graph a second time" in demo.message_html()
    assert script.search(demo.table_html())
    assert all(script.search(label) for _, label, _ in demo._buttons.buttons[-1:])
    assert script.search(demo._buttons.kernel_note)
    second = widgets.SecondDerivative(lambda x: x**3, 2.0)
    assert script.search(second.children[0].value)
    assert "<code>(dy,) = autograd.grad(y, x, create_graph=True)</code>" in second.children[0].value
    forward = widgets.ForwardStepper(
        lambda t: t * t, mg.tensor(1.5, requires_grad=True), mg.tensor(1.0)
    )
    assert all(script.search(frame) for frame in forward.frames)
    assert "MulBackward0" in forward.frames[1]
    # The drawing's front-end words, ready for GraphvizView to send to the page.
    words = view_words()
    assert all(script.search(text) for key, text in words.items() if key != "error")
    assert "{error}" in words["error"]


def test_english_is_the_default_and_unchanged():
    """English needs no catalog: every message is its own translation."""
    stepper = stepper_in(None)
    assert i18n.language() == "en"
    assert (
        "<b>Before the backward pass</b> of <code>y</code>: 5 steps, starting from"
        in (stepper.frames[0])
    )
    assert stepper._buttons.buttons[2] == ["step", "step ▶", "one step forward"]


# --------------------------------------------------------------------------- the choice
def notebook(path: Path, language: str | None) -> Path:
    metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)"}}
    if language is not None:
        metadata["minigrad"] = {"language": language}
    content = {"cells": [], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def test_set_language_wins_over_the_notebook_and_the_locale(tmp_path, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook(tmp_path / "n.ipynb", "zh_CN")))
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    widgets.set_language("en")
    assert widgets.language() == "en"


def test_the_notebooks_metadata_wins_over_the_locale(tmp_path, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook(tmp_path / "n.ipynb", "zh_CN")))
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert widgets.language() == "zh_CN"


def test_a_notebook_path_relative_to_the_servers_root(tmp_path, monkeypatch):
    """Started without the notebook's name, the server passes its path from its root; the
    kernel runs in the notebook's folder."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    notebook(folder / "03.ipynb", "ru")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("JPY_SESSION_NAME", "lessons/03.ipynb")
    assert widgets.language() == "ru"


def test_the_notebook_is_read_again_when_saved(tmp_path, monkeypatch):
    path = notebook(tmp_path / "n.ipynb", "ru")
    monkeypatch.setenv("JPY_SESSION_NAME", str(path))
    assert widgets.language() == "ru"
    notebook(path, "zh_CN")
    assert widgets.language() == "ru"  # within a second: not read again
    monkeypatch.setattr(language_choice, "_RECHECK_SECONDS", 0.0)
    later = time.time() + 5
    os.utime(path, (later, later))
    assert widgets.language() == "zh_CN"


@pytest.mark.parametrize("language", [None, "fr", 3])
def test_a_notebook_without_a_known_language_leaves_it_to_the_locale(
    tmp_path, monkeypatch, language
):
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook(tmp_path / "n.ipynb", language)))
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert widgets.language() == "zh_CN"


def test_a_missing_or_broken_notebook_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "gone.ipynb"))
    assert widgets.language() == "en"
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("JPY_SESSION_NAME", str(broken))
    assert widgets.language() == "en"


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LC_MESSAGES": "zh_Hans"}, "zh_CN"),
        ({"LC_ALL": "zh"}, "zh_CN"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),  # traditional Chinese: not this catalog
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "de:ru", "LANG": "en_US.UTF-8"}, "ru"),  # the first it speaks
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "zh_CN.UTF-8"}, "ru"),  # LC_ALL before LANG
        ({"LANGUAGE": "zh_CN", "LC_ALL": "ru_RU.UTF-8"}, "zh_CN"),
        ({}, "en"),
    ],
)
def test_the_locale_decides_when_nothing_else_does(monkeypatch, variables, expected):
    for variable, value in variables.items():
        monkeypatch.setenv(variable, value)
    assert widgets.language() == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [("ru", "ru"), ("ru_RU", "ru"), ("zh", "zh_CN"), ("zh-Hans", "zh_CN"), ("EN", "en")],
)
def test_set_language_understands_usual_spellings(code, expected):
    widgets.set_language(code)
    assert widgets.language() == expected


@pytest.mark.parametrize("code", ["fr", "zh_TW", "", "russian", 7])
def test_an_unknown_language_is_a_value_error_naming_the_known_ones(code):
    with pytest.raises(ValueError, match=r"'en', 'ru' and 'zh_CN', not "):
        widgets.set_language(code)
    assert widgets.language() == "en"  # nothing changed


def test_the_wheel_ships_the_catalogs():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["widgets"]
    shipped = {path for pattern in patterns for path in (ROOT / "widgets").glob(pattern)}
    assert LOCALE / "widgets.pot" in shipped
    for language in TRANSLATED:
        assert LOCALE / language / "LC_MESSAGES" / "widgets.po" in shipped
    assert "babel" in " ".join(config["project"]["dependencies"]).lower()


@pytest.mark.parametrize(("language", "script"), [("ru", CYRILLIC), ("zh_CN", HAN)])
def test_a_students_mistake_is_explained_in_the_language(language, script):
    widgets.set_language(language)
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with pytest.raises(ValueError) as shape_error:
        widgets.BackwardStepper(y, yours={"x": mg.tensor([1.0, 2.0, 3.0])})
    assert script.search(str(shape_error.value))
    assert "(3,)" in str(shape_error.value) and "(2,)" in str(shape_error.value)
    with pytest.raises(ValueError) as name_error:
        widgets.BackwardStepper(y, yours={"<h>": x})
    assert script.search(str(name_error.value)) and "'<h>'" in str(name_error.value)
    assert x.grad is None  # checked before any gradient moved


def test_a_kernel_jupyter_starts_for_a_notebook_finds_its_metadata(tmp_path):
    """The real thing: a Jupyter server starts a kernel for a notebook (as JupyterLab does,
    with the notebook's path and name), and the widgets in that kernel read the language
    from that notebook's metadata."""
    pytest.importorskip("jupyter_server")
    jupyter_client = pytest.importorskip("jupyter_client")
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    notebook(lessons / "03.ipynb", "zh_CN")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token, runtime = secrets.token_hex(8), tmp_path / "runtime"
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "JUPYTER_RUNTIME_DIR": str(runtime)}
    environment["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")
    environment["LANG"] = "ru_RU.UTF-8"  # the notebook's metadata must win over the locale
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root"]
        + [
            f"--port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={tmp_path}",
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its kernels stop with it
    )
    api = f"http://127.0.0.1:{port}/api"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{api}/status?token={token}", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        session = {"path": "lessons/03.ipynb", "name": "03.ipynb", "type": "notebook"}
        session["kernel"] = {"name": "python3"}
        request = urllib.request.Request(
            f"{api}/sessions?token={token}",
            data=json.dumps(session).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            kernel_id = json.load(answer)["kernel"]["id"]
        client = jupyter_client.BlockingKernelClient(
            connection_file=str(runtime / f"kernel-{kernel_id}.json")
        )
        client.load_connection_file()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            code = "import os, widgets; print(os.environ['JPY_SESSION_NAME'], widgets.language())"
            printed: list[dict] = []
            reply = client.execute_interactive(code, timeout=60, output_hook=printed.append)
        finally:
            client.stop_channels()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert reply["content"]["status"] == "ok"
    text = "".join(m["content"]["text"] for m in printed if m["msg_type"] == "stream")
    assert text.split() == [str(lessons / "03.ipynb"), "zh_CN"]


def test_chinese_labels_fit_their_boxes_in_the_browsers_graphviz(tmp_path):
    """Graphviz in the browser (the shipped viz.js, here in Node.js) sizes each box by its
    own estimate of the text's width; a Chinese character is drawn a full em wide."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: no way to run the browser's Graphviz here")
    (tmp_path / "viz.mjs").write_bytes(gzip.decompress((STATIC / "viz.js.gz").read_bytes()))
    (tmp_path / "boxes.mjs").write_text(
        'import * as Viz from "./viz.mjs";\n'
        'import { readFileSync } from "node:fs";\n'
        "const viz = await Viz.instance();\n"
        'const dot = readFileSync(process.argv[2], "utf8");\n'
        'const graph = JSON.parse(viz.renderString(dot, { format: "json" }));\n'
        'const boxes = graph.objects.filter((o) => o.shape === "box");\n'
        "console.log(JSON.stringify(boxes.map((o) => [o.label, Number(o.width)])));\n",
        encoding="utf-8",
    )
    widgets.set_language("zh_CN")
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x
    y.backward()
    (tmp_path / "graph.dot").write_text(widgets.draw(y).source, encoding="utf-8")
    done = subprocess.run(
        [node, str(tmp_path / "boxes.mjs"), str(tmp_path / "graph.dot")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    boxes = json.loads(done.stdout)
    assert len(boxes) == 2 and all(HAN.search(label) for label, _ in boxes)
    for label, inches in boxes:
        # What the page draws: a Chinese character 1 em wide, any other at most 0.6 em;
        # and the box's margin on either side (draw.py: margin="0.1,0.07", in inches).
        needed = 2 * 0.1 * 72 + max(
            FONT_POINTS * (wide_characters(line) + 0.6 * (len(line) - wide_characters(line)))
            for line in (line.strip() for line in label.split("\\n"))
        )
        assert inches * 72 >= needed, (label, inches * 72, needed)
