"""The ops' formulas in the student's language (issue 22): minigrad keeps its English
formulas, the widgets' catalogs translate those with words, and the step panels show them.

- every formula of minigrad's with an English word is an entry of the widgets' catalogs,
  translated in Russian and Chinese with its symbols kept, so that a new op's formula in
  words cannot be forgotten; a formula in symbols only is no entry;
- the backward and forward steppers show the translation in a Russian lesson, escaped;
- a formula the student wrote (an engine of their own, their own ``Function``) is shown as
  written.
"""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import pytest
from babel.messages import pofile

import minigrad as mg
import widgets
from widgets import _formulas
from widgets._formulas import (
    class_formulas,
    extract_op_formulas,
    has_english_words,
    minigrads_formulas,
    op_formula,
)
from widgets._markup import escape

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "widgets" / "locale"
TRANSLATED = ("ru", "zh_CN")


pytestmark = pytest.mark.usefixtures("no_language_chosen")  # tests/widgets/conftest.py


def catalog(language: str | None):
    """The template (``None``) or a language's catalog, each entry by its English."""
    if language is None:
        path = LOCALE / "widgets.pot"
    else:
        path = LOCALE / language / "LC_MESSAGES" / "widgets.po"
    with open(path, "rb") as file:
        return {message.id: message for message in pofile.read_po(file) if message.id}


def formulas_in_sources() -> dict[str, list[str]]:
    """Each formula written in minigrad's sources, with the files that write it."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "minigrad").rglob("*.py")):
        for _, formula in class_formulas(path.read_text(encoding="utf-8")):
            found.setdefault(formula, []).append(path.relative_to(ROOT).as_posix())
    return found


# --------------------------------------------------------------------------- the catalogs
def test_the_sources_and_the_loaded_classes_give_the_same_formulas():
    """What the extractor reads (the sources) is what the panels look up (the classes)."""
    assert set(formulas_in_sources()) - {""} == minigrads_formulas()


def test_every_formula_in_words_is_an_entry_with_a_note_for_translators():
    template = catalog(None)
    in_words = [formula for formula in minigrads_formulas() if has_english_words(formula)]
    assert len(in_words) > 60
    for formula in in_words:
        assert formula in template, f"run `make catalogs`: {formula!r} is not in widgets.pot"
        assert any("derivative formula" in note for note in template[formula].auto_comments)


def test_formulas_in_symbols_only_are_no_entries():
    template = catalog(None)
    symbols_only = [formula for formula in minigrads_formulas() if not has_english_words(formula)]
    assert "∂(a·b)/∂a = b,  ∂(a·b)/∂b = a" in symbols_only
    assert "∂(aᵇ)/∂a = b·aᵇ⁻¹,  ∂(aᵇ)/∂b = aᵇ·ln a" in symbols_only
    assert "ḃias + Ṁ₁@M₂ + M₁@Ṁ₂" in symbols_only
    assert not [formula for formula in symbols_only if formula in template]


def test_the_extractor_takes_class_formulas_in_words_only():
    source = "\n".join(
        [
            "class Mul:",
            '    formula = "∂(a·b)/∂a = b"',  # symbols only
            '    jvp_formula = "ȧ·b + a·ḃ"',
            "class Cast:",
            '    name = "the gradient is cast back"',  # not a formula
            '    formula = "cast: the gradient is cast back"',
            '    jvp_formula: str = "ȧ cast"',
            "    def backward(self):",
            '        formula = "a local variable, in words"',  # not the class's
            "",
        ]
    )
    found = list(extract_op_formulas(io.BytesIO(source.encode()), [], ["TRANSLATORS:"], {}))
    assert [(line, text) for line, _, text, _ in found] == [
        (6, "cast: the gradient is cast back"),
        (7, "ȧ cast"),
    ]
    assert all(notes == [_formulas.TRANSLATORS_NOTE] for *_, notes in found)


def test_the_word_rule_sets_names_and_dotted_letters_aside():
    assert not has_english_words("∂tanh a/∂a = 1 − tanh²a")
    assert not has_english_words("∂/∂a = 1,  ∂/∂source = α · grad[index]")
    assert not has_english_words("ȧ·cos a")
    assert has_english_words("ȧ inside, ṁin below, ṁax above")
    assert has_english_words("mean of ȧ")
    assert has_english_words("∂relu(a)/∂a = 1 if a > 0 else 0")


def kept(formula: str) -> list[str]:
    """What a translation must keep of ``formula``: its symbols and operators, its one-letter
    variables (not the s of "the piece's"), code names (``scatter_add``, ``x[i]``) and what a ∂
    differentiates."""
    formula = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", formula)  # "in-place" is words
    symbols = [
        char
        for char in formula
        if not (char.isascii() and (char.isalpha() or char in " ,;:.'()"))
        and unicodedata.category(char) != "Zs"
    ]
    names = re.findall(r"(?<![A-Za-z'])[A-Za-z](?![A-Za-z])|\w*_\w*|(?<=∂)[A-Za-z_]+", formula)
    return sorted(symbols + names)


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_every_symbol(language):
    translated = catalog(language)
    checked = 0
    for formula in minigrads_formulas():
        if not has_english_words(formula):
            continue
        message = translated[formula]
        assert message.string and not message.fuzzy, (language, formula)
        missing = list(kept(formula))
        for piece in kept(message.string):
            if piece in missing:
                missing.remove(piece)
        assert not missing, (language, formula, message.string, missing)
        checked += 1
    assert checked > 60


def test_the_symbol_check_sees_a_lost_symbol():
    assert kept("ȧ at the k maxima / k") == sorted(["ȧ", "/", "k", "k"])
    assert "Σ" in kept("∂/∂value = Σ over the mask")
    assert "max" in kept("∂max/∂aᵢ = 1")


# --------------------------------------------------------------------------- the panels
def test_a_russian_backward_panel_shows_the_russian_formula_of_max_and_of_a_cast():
    widgets.set_language("ru")
    x = mg.tensor([1.0, 3.0, 2.0], requires_grad=True)
    y = x.max()
    z = x.to(mg.float64).sum()
    panels = "".join(widgets.BackwardStepper(y).frames + widgets.BackwardStepper(z).frames)
    assert escape("∂max/∂aᵢ = 1/k в k максимумах, иначе 0") in panels
    assert escape("приведение типа: градиент приводится обратно к типу входа") in panels
    assert "maxima" not in panels and "cast back" not in panels
    widgets.set_language("en")
    english = "".join(widgets.BackwardStepper(x.max()).frames)
    assert escape("∂max/∂aᵢ = 1/k at the k maxima, else 0") in english


def test_a_chinese_forward_panel_shows_the_chinese_formula():
    widgets.set_language("zh_CN")
    forward = widgets.ForwardStepper(
        lambda t: t.max(dim=0).values,
        mg.tensor([1.0, 3.0], requires_grad=True),
        mg.tensor([1.0, 0.0]),
    )
    panels = "".join(forward.frames)
    assert "前向模式导数：<code>选中索引处的 ȧ</code>" in panels
    assert "chosen index" not in panels


def test_a_formula_that_needs_escaping_is_escaped_after_translation():
    widgets.set_language("ru")
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    panels = "".join(widgets.BackwardStepper(x.relu().sum()).frames)
    # ">" of "a > 0", in the op's formula and in the worked-out one, arrives as text.
    assert escape("∂relu(a)/∂a = 1, если a > 0, иначе 0") in panels
    assert escape("1, если a > 0, иначе 0") in panels
    assert "a > 0" not in panels


def test_an_engine_of_ones_own_keeps_its_formulas_as_written(toy_value):
    widgets.set_language("ru")
    # Even words that are one of minigrad's formulas: this engine's own text.
    a, b = toy_value(2.0), toy_value(3.0)
    y = toy_value(6.0, (a, b), "mul", lambda g: (g * 3.0, g * 2.0), formula="ȧ at the chosen index")
    stepper = widgets.BackwardStepper(y)
    assert "<code>ȧ at the chosen index</code>" in "".join(stepper.frames)
    assert "выбранном" not in "".join(stepper.frames)


def test_a_students_own_function_keeps_its_formula():
    class Cube(mg.autograd.Function):
        formula = "three times the square"

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x**2

    assert "three times the square" not in minigrads_formulas()
    assert op_formula("three times the square") == "three times the square"
    widgets.set_language("ru")
    x = mg.tensor(2.0, requires_grad=True)
    panels = "".join(widgets.BackwardStepper(Cube.apply(x)).frames)
    assert "<code>three times the square</code>" in panels
