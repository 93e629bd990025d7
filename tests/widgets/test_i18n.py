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

import json
import os
import re
import string
import time
from pathlib import Path

import pytest
from babel.messages import pofile
from babel.messages.frontend import CommandLineInterface

import minigrad as mg
import widgets
from minigrad.function import short_name
from widgets import i18n
from widgets._graph import full_value
from widgets._markup import escape

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "widgets" / "locale"
TRANSLATED = ("ru", "zh_CN")
CYRILLIC = re.compile("[\u0400-\u04ff]")
HAN = re.compile("[\u4e00-\u9fff]")
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch):
    """Each test starts with no language chosen, no notebook and no locale: English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(variable, raising=False)
    widgets.set_language(None)
    yield
    widgets.set_language(None)


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
    monkeypatch.setattr(i18n, "_LOCALE_DIR", tmp_path)
    i18n._translations.cache_clear()
    try:
        widgets.set_language("ru")
        assert i18n._("one step forward") == "one step forward"
        assert i18n._("one step back") == "на шаг назад"
    finally:
        i18n._translations.cache_clear()


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
    assert "MulBackward0" in forward.frames[1] or "Mul" in forward.frames[1]


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
