"""The course checks speak the student's language (issue 22): English, Russian, Chinese.

- the template ``minigrad_course/locale/minigrad_course.pot`` holds exactly what
  ``pybabel extract`` finds in ``minigrad_course/`` today, and each language's catalog
  translates every entry, none fuzzy, keeping every placeholder;
- a check run in Russian or Chinese says its sentence in that language, while the name, the
  student's value, the exercise's hint and Python's own error message stay as they came;
- English is word for word what it was;
- the language is chosen by ``set_language`` (one setting with the widgets), then the
  notebook's metadata, then the locale, then English; autograding uses the graded
  notebook's metadata.
"""

from __future__ import annotations

import json
import re
import string
import sys
import threading
import warnings
from pathlib import Path

import nbformat
import pytest
from babel.messages import pofile
from babel.messages.frontend import CommandLineInterface

import minigrad as mg
import minigrad_course
from minigrad_course import checks, i18n
from minigrad_course.checks import fingerprint
from minigrad_course.grading_process import measure
from minigrad_course.isolated_grading import _sandbox_environment, judge, notebook_language

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "minigrad_course" / "locale"
TRANSLATED = ("ru", "zh_CN")
CYRILLIC = re.compile("[\u0400-\u04ff]")
HAN = re.compile("[\u4e00-\u9fff]")
SCRIPT = {"ru": CYRILLIC, "zh_CN": HAN}
# Translations written as notation rather than words: "my_cos at 0.5" is my_cos(0.5) in the
# Chinese messages ("my_cos(0.5) = 0.0 不正确。"), which reads better there than 在 0.5 处.
NOTATION = {("zh_CN", "{name} at {point}")}


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch):
    """Each test starts with no language chosen, no notebook and no locale: English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(variable, raising=False)
    minigrad_course.set_language(None)
    yield
    minigrad_course.set_language(None)


def read_catalog(path: Path, locale: str | None = None):
    with open(path, "rb") as file:
        return pofile.read_po(file, locale=locale)


def entries(catalog) -> dict:
    return {
        message.id if isinstance(message.id, str) else message.id[0]: message
        for message in catalog
        if message.id
    }


def fails(check, *args, **kwargs) -> str:
    with pytest.raises(AssertionError) as caught:
        check(*args, **kwargs)
    return str(caught.value)


# --------------------------------------------------------------------------- the catalogs
def test_the_template_is_what_pybabel_extracts_today(tmp_path, monkeypatch):
    extracted = tmp_path / "minigrad_course.pot"
    monkeypatch.chdir(ROOT)
    # What `make catalogs` runs for the course, into a temporary file.
    arguments = ["-F", "babel_course.cfg", "-c", "TRANSLATORS:", "--add-location=file"]
    arguments += ["--sort-by-file", "-o", str(extracted), "."]
    CommandLineInterface().run(["pybabel", "-q", "extract", *arguments])
    fresh = entries(read_catalog(extracted))
    stored = entries(read_catalog(LOCALE / "minigrad_course.pot"))
    assert len(fresh) > 25, "pybabel found too few messages: is babel_course.cfg mapping them?"
    assert sorted(fresh) == sorted(stored), "run `make catalogs`"
    for key, message in fresh.items():
        assert stored[key].id == message.id  # the plural too
        assert stored[key].auto_comments == message.auto_comments


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_none_is_fuzzy_and_placeholders_stay(language):
    template = entries(read_catalog(LOCALE / "minigrad_course.pot"))
    path = LOCALE / language / "LC_MESSAGES" / "minigrad_course.po"
    catalog = read_catalog(path, language)
    translated = entries(catalog)
    assert sorted(translated) == sorted(template), "run `make catalogs`, then translate"
    for key, message in translated.items():
        assert not message.fuzzy, f"fuzzy in {language}: {key!r}"
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = catalog.num_plurals if message.pluralizable else 1
        assert len(forms) == expected and all(forms), f"untranslated in {language}: {key!r}"
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        for form in forms:
            assert placeholders(form) == placeholders(english[-1]), (language, key, form)
            # Words of the language, unless the sentence has none ("{name}: {problem}")
            # or the translation writes it in notation.
            words = re.sub(r"\{\w+\}", "", english[-1]).strip(":. ")
            if words and (language, key) not in NOTATION:
                assert SCRIPT[language].search(form), (language, key, form)


def placeholders(text: str) -> list[str]:
    """``{name}``, ``{x:g}``: each field with its format, sorted (order is the language's)."""
    fields = [
        f"{name}:{spec}!{conversion}"
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]
    return sorted(fields)


def test_the_placeholder_check_sees_a_missing_or_renamed_field():
    assert placeholders("{name} = {value}") != placeholders("{name} = {valeur}")
    assert placeholders("{name} = {value}") != placeholders("{name}")


def test_a_fuzzy_entry_shows_the_english(tmp_path, monkeypatch):
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source = (LOCALE / "ru" / "LC_MESSAGES" / "minigrad_course.po").read_text(encoding="utf-8")
    marked = source.replace('msgid "{name}: correct"', '#, fuzzy\nmsgid "{name}: correct"')
    assert marked != source
    (folder / "minigrad_course.po").write_text(marked, encoding="utf-8")
    # The catalogs are read once per folder: a folder of its own is read afresh.
    monkeypatch.setattr(i18n, "_LOCALE_DIR", tmp_path)
    with i18n.speaking("ru"):
        assert i18n._("{name}: correct") == "{name}: correct"
        assert i18n._("{name} raised nothing.") != "{name} raised nothing."


# --------------------------------------------------------------------------- the checks
def wrong_answers() -> dict[str, str]:
    """Each kind of failure, with a value, a hint or an error message to keep as it is."""

    def count_down(n):
        return 0 if n == 0 else count_down(n - 1)

    w = mg.tensor(1.0, requires_grad=True)
    (3 * w).backward()
    return {
        "wrong value": fails(
            checks.check_value, "f'(3)", 27.5, fingerprint=fingerprint(25.0), hint="Look again."
        ),
        "unanswered": fails(checks.check_value, "f'(3)", None, fingerprint=fingerprint(25.0)),
        "shape": fails(checks.check_value, "x.grad", [1.0, 2.0], expected=[[1.0, 2.0]]),
        "not numbers": fails(checks.check_value, "x.grad", "two", expected=2.0),
        "no grad": fails(checks.check_grad, "w.grad", mg.tensor([1.0]), expected=[2.0]),
        "grad not none": fails(checks.check_grad_is_none, "w.grad", w),
        "raised": fails(
            checks.check_function, "my_cos", lambda x: 1 / 0, points=[0.5], expected=[1.0]
        ),
        "recursion": fails(checks.check_no_recursion, "count_down", count_down, make_input=int),
    }


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_check_speaks_the_language_and_leaves_the_students_value_as_it_is(language, capsys):
    english = wrong_answers()
    minigrad_course.set_language(language)
    translated = wrong_answers()
    checks.check_value("x.grad", (2.0, 4.0), fingerprint=fingerprint([2.0, 4.0]))
    right = capsys.readouterr().out
    assert right.startswith("✔ x.grad") and SCRIPT[language].search(right)
    for kind, message in translated.items():
        assert message != english[kind], kind
        assert message.startswith("✘ ") and SCRIPT[language].search(message), kind
    # What came from elsewhere is shown byte for byte: the value, the hint, torch-like reprs,
    # Python's error message, the names.
    assert "27.5" in translated["wrong value"] and "Look again." in translated["wrong value"]
    assert "f'(3)" in translated["unanswered"]
    assert "(2,)" in translated["shape"] and "(1, 2)" in translated["shape"]
    assert "str 'two'" in translated["not numbers"]
    assert "requires_grad=True" in translated["no grad"] and "backward()" in translated["no grad"]
    assert "tensor(3.)" in translated["grad not none"]
    assert "ZeroDivisionError" in translated["raised"]
    assert "division by zero" in translated["raised"] and "0.5" in translated["raised"]
    assert all(n in translated["recursion"] for n in ("count_down", "290", "300", "10"))


def test_english_is_word_for_word_what_it_was(capsys):
    assert wrong_answers() == {
        "wrong value": "✘ f'(3) = 27.5 is not right. Hint: Look again.",
        "unanswered": "✘ f'(3): not answered yet (replace the placeholder with your answer).",
        "shape": "✘ x.grad has shape (2,), but should be shape (1, 2).",
        "not numbers": "✘ x.grad should be a number (or a list, array or tensor of numbers), "
        "not str 'two'.",
        "no grad": "✘ w.grad is None: it was never computed. Create the tensor with "
        "requires_grad=True, then call backward() on a result that depends on it.",
        "grad not none": "✘ w.grad should be None, not tensor(3.).",
        "raised": "✘ my_cos at 0.5 raised ZeroDivisionError: division by zero.",
        "recursion": "✘ count_down calls itself: its calls go 290 levels deeper for an input "
        "of size 300 than for size 10.",
    }
    with warnings.catch_warnings():
        checks.check_raises(
            "warns", lambda: warnings.warn("slow", stacklevel=2) or 1 / 0, ZeroDivisionError
        )
    assert capsys.readouterr().out == (
        "note: warns wrote 'UserWarning: slow' (a warning costs no marks)\n✔ warns: correct\n"
    )


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_a_note_is_told_from_other_output_in_every_language(language):
    """The grader's student process passes notes on and drops the rest of what a check
    printed: it must recognise a translated note."""
    with i18n.speaking(language):
        assert checks.is_note_line(checks.note_line("f", "'UserWarning: slow'"))
        assert not checks.is_note_line("✔ f: correct")
        found = measure(
            "check_raises",
            "warns",
            {
                "action": lambda: warnings.warn("slow", stacklevel=2) or 1 / 0,
                "exception": ZeroDivisionError,
            },
        )
    assert found == {"passed": True}


def test_measure_keeps_a_translated_note(capsys):
    with i18n.speaking("zh_CN"):
        measure(
            "check_raises",
            "w",
            {
                "action": lambda: warnings.warn("slow", stacklevel=2) or 1 / 0,
                "exception": ZeroDivisionError,
            },
        )
    printed = capsys.readouterr().out
    assert "'UserWarning: slow'" in printed and HAN.search(printed)


# --------------------------------------------------------------------------- the choice
def test_set_language_is_one_setting_with_the_widgets():
    widgets_i18n = pytest.importorskip("widgets.i18n")
    minigrad_course.set_language("ru")
    assert minigrad_course.language() == "ru" and widgets_i18n.language() == "ru"
    widgets_i18n.set_language("zh")  # the widgets' own call: the checks follow it too
    assert minigrad_course.language() == "zh_CN"
    minigrad_course.set_language(None)
    assert minigrad_course.language() == "en" and widgets_i18n.language() == "en"


def test_without_the_widgets_the_checks_keep_their_own_choice(monkeypatch):
    monkeypatch.setitem(sys.modules, "widgets.i18n", None)  # `import widgets.i18n` fails
    minigrad_course.set_language("zh-Hans")
    assert minigrad_course.language() == "zh_CN"
    minigrad_course.set_language(None)
    assert minigrad_course.language() == "en"


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="not 'fr'"):
        minigrad_course.set_language("fr")


def test_then_the_notebooks_metadata_then_the_locale(tmp_path, monkeypatch):
    notebook = tmp_path / "ex.ipynb"
    notebook.write_text(json.dumps({"metadata": {"minigrad": {"language": "ru"}}, "cells": []}))
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    assert minigrad_course.language() == "zh_CN"
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))
    assert minigrad_course.language() == "ru"
    minigrad_course.set_language("en")
    assert minigrad_course.language() == "en"
    minigrad_course.set_language(None)
    monkeypatch.delenv("JPY_SESSION_NAME")
    monkeypatch.setenv("LANGUAGE", "de:ru")
    assert minigrad_course.language() == "ru"


def test_graders_in_threads_side_by_side_each_speak_their_own_and_leave_nothing_behind():
    """nbgrader may grade several notebooks in threads: one grader's language must neither
    reach another nor stay behind when both are done (entered and left crosswise here)."""
    entered, leave_first = threading.Barrier(2), threading.Event()
    heard = {}

    def grade(code: str, first: bool) -> None:
        with i18n.speaking(code):
            entered.wait()
            if first:
                heard[code] = i18n.language()
                leave_first.set()
            else:
                leave_first.wait()
                heard[code] = i18n.language()

    threads = [
        threading.Thread(target=grade, args=("ru", True)),
        threading.Thread(target=grade, args=("zh_CN", False)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert heard == {"ru": "ru", "zh_CN": "zh_CN"}
    assert i18n.language() == "en"
    minigrad_course.set_language("ru")
    assert i18n.language() == "ru"


# --------------------------------------------------------------------------- grading
def test_autograding_speaks_the_graded_notebooks_language(capsys):
    russian = nbformat.v4.new_notebook(metadata={"minigrad": {"language": "ru"}})
    assert notebook_language(russian) == "ru"
    assert notebook_language(nbformat.v4.new_notebook()) == "en"
    assert _sandbox_environment("/h", "/s", "ru")["LANGUAGE"] == "ru"
    with i18n.speaking(notebook_language(russian)):
        judge("check_value", "f'(3)", {"expected": 25.0}, {"answer": {"float": 25.0}})
        with pytest.raises(AssertionError) as caught:
            judge("check_value", "f'(3)", {"expected": 25.0}, {"answer": {"float": 27.0}})
    assert capsys.readouterr().out == "✔ f'(3): верно\n"
    assert str(caught.value) == "✘ f'(3) = 27.0 — неверно."
