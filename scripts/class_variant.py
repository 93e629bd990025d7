"""A class's own exercise sets: numbers drawn from a secret seed, the key computed here.

    .venv/bin/python scripts/class_variant.py            (or `make class-variant`)
    .venv/bin/python scripts/class_variant.py --lang ru  (or `make class-variant CLASS_LANG=ru`)

reads the class's secret (the environment variable ``MINIGRAD_CLASS_SECRET``, else the file
``teacher/class_secret``, which git ignores and which this command creates, with a fresh
random secret, when it does not exist yet) and writes a course folder for that class,
``teacher/class/`` (``--out DIR`` for another place): ``source/<set>/<set>.ipynb`` for every
set and an ``nbgrader_config.py``, so that nbgrader run from that folder releases and grades
the class's sets (docs/teachers.md, "Class variants"). With ``--lang ru`` (or ``zh_CN``) the
class is taught in that language, in ``teacher/ru/class/``: the same numbers, points and key
as the English class of the same secret, its statements translated by the language's
catalogs and then given the class's numbers (:func:`translated_variant`).

What may change lives beside each set, in ``teacher/variants/<set>.py``: ``NUMBERS`` (per
exercise, each number as the statement, the solution and the typical wrong answers write
it, with the values a class may get instead), ``POINTS`` (per ``check_function`` check,
how to draw the points where the student's function is evaluated), ``WORDS`` (per
exercise whose answer is a name or a choice, fragments of its code and the other code a class
may get instead: :func:`substitute_words`), and for the numbers that a statement's prose
writes as whole numbers and a solution works by hand ($f'(3)$, ``1.0 * 2 * 6.0``),
``WORKED`` (each such number by name: the template's value and the values a class may get)
and ``phrases(**worked)`` (per exercise, each phrase the template writes, in its statement,
a check's name or hint, the solution or a typical wrong answer, with the class's numbers
written in: :func:`replace_phrases`). A set without such a file is copied as it is. For a
set with one, this command

1. draws the class's numbers and points (the same secret always gives the same ones);
2. writes them into the statement (its code blocks, and its prose's decimal numbers), the
   given and solution cells (``ONLY_IN``: some of them), the checks' names that are formulas
   (``f'(1.5)``), the checks' ``points=`` (or the variable of the cell that holds them) and
   the typical wrong answers (``tests/course/wrong*``); the phrases in all of these, and in
   the checks' hints;
3. runs the reference solution and every typical wrong answer on them, here, and writes the
   results into the checks: the hidden tests' ``expected=`` values, the visible checks'
   fingerprints, and the fingerprints of the common mistakes, each found from the wrong
   answer whose hint it carries (or from the right answer of another check that it names);
4. draws again when the solution fails on the new numbers, when two of a check's
   fingerprints coincide (a mistake would pass for the answer), when a value of the key
   is written in a file of this repository (cos(1), say), where a search would find it, or
   when a hidden test's value would be the repository's own (a + 1 + 2b is 8 for a = 2,
   b = 2.5 as for a = 1, b = 3): then the public key would score.

The template of a set is the teacher's version in ``teacher/source``, with its numbers as
defaults: with no variant drawn, steps 2 and 3 give back its own fingerprints and expected
values (``tests/course/test_variants.py`` checks it), which the repository's CI grades.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import functools
import hashlib
import importlib.util
import io
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import numpy as np

from minigrad_course import checks
from minigrad_course.answer_data import from_data
from minigrad_course.grading_process import measure
from minigrad_course.hidden_tests import (
    MEASURED_IN_THE_STUDENT_PROCESS,
    STUDENT_ARGUMENTS,
    hidden_tests_of,
    split_hidden_tests,
    visible_part_of,
)

ROOT = Path(__file__).resolve().parent.parent
TEACHER = ROOT / "teacher"
SOURCES = TEACHER / "source"
DECLARATIONS = TEACHER / "variants"
WRONG_ANSWERS = ROOT / "tests" / "course" / "wrong_answers.py"
SECRET_FILE = TEACHER / "class_secret"
SECRET_VARIABLE = "MINIGRAD_CLASS_SECRET"
CLASS_FOLDER = TEACHER / "class"
ATTEMPTS = 200  # draws tried before giving up on a set
HIDDEN_MARKER = "### BEGIN HIDDEN TESTS"

# Appended to the teacher's nbgrader configuration in a class's course folder: the class's
# release goes into that folder, never over the public one in notebooks/exercises/.
CLASS_CONFIG = """
# A class variant (scripts/class_variant.py): this folder is the course directory, and the
# class's release stays in it, never over the public notebooks/exercises/.
c.CourseDirectory.release_directory = "release"
"""


class VariantError(Exception):
    """A set's template and its declaration of what varies do not fit together."""


# --------------------------------------------------------------------------- the secret
def class_secret(secret_file: Path = SECRET_FILE) -> str:
    """The class's secret: ``$MINIGRAD_CLASS_SECRET``, else the text of the file, made
    with a fresh random secret when the file does not exist."""
    from_environment = os.environ.get(SECRET_VARIABLE, "").strip()
    if from_environment:
        return from_environment
    if not secret_file.exists():
        secret_file.parent.mkdir(parents=True, exist_ok=True)
        secret_file.write_text(secrets.token_hex(16) + "\n")
        secret_file.chmod(0o600)
        print(f"class_variant: made a new secret in {secret_file}: keep it, share it with no one")
    secret = secret_file.read_text().strip()
    if not secret:
        raise VariantError(f"{secret_file} is empty")
    return secret


def draws(secret: str, name: str) -> Callable[[int], random.Random]:
    """The random numbers of one set for draw number ``attempt``: they depend on the secret
    and the set's name only, so a class's sets come out the same on every run."""

    def generator(attempt: int) -> random.Random:
        digest = hashlib.sha256(f"{secret}\0{name}\0{attempt}".encode()).digest()
        return random.Random(int.from_bytes(digest, "big"))

    return generator


# --------------------------------------------------------------------------- declarations
@dataclass
class Declaration:
    """What may change in one set: ``numbers[exercise][default text] = [other values]``,
    ``points[check name] = draw(rng) -> points`` and ``only_in[exercise] = [cell ids]``, the
    code cells where an exercise's numbers change when not all of them (a solution whose
    one-hot weights are written 1.0, as a point of the given cell is); ``worked[name] =
    (the template's value, [other values])`` and ``phrases(**worked) -> {exercise: {phrase:
    text}}`` for the numbers that prose writes as whole numbers and solutions work by hand
    (:func:`replace_phrases`)."""

    numbers: dict[str, dict[str, list]] = field(default_factory=dict)
    points: dict[str, Callable[[random.Random], list]] = field(default_factory=dict)
    only_in: dict[str, list[str]] = field(default_factory=dict)
    # words[exercise] = groups of alternatives {template's fragment: class's}: see WORDS.
    words: dict[str, list[list[dict[str, str]]]] = field(default_factory=dict)
    worked: dict[str, tuple[Any, list]] = field(default_factory=dict)
    phrases: Callable[..., dict[str, dict[str, str]]] | None = None

    def changes(self, exercise: str, grade_id: str) -> bool:
        """Whether the numbers of ``exercise`` change in its code cell ``grade_id``."""
        cells = self.only_in.get(exercise)
        return cells is None or grade_id in cells


def declaration(name: str, folder: Path = DECLARATIONS) -> Declaration | None:
    """The declaration ``teacher/variants/<set>.py`` of a set, or None (the set never varies)."""
    path = folder / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"variants_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Declaration(
        getattr(module, "NUMBERS", {}),
        getattr(module, "POINTS", {}),
        getattr(module, "ONLY_IN", {}),
        getattr(module, "WORDS", {}),
        getattr(module, "WORKED", {}),
        getattr(module, "phrases", None),
    )


def wrong_answers() -> dict[str, dict[str, list[tuple[str, str]]]]:
    """``WRONG`` of tests/course/wrong_answers.py: the typical wrong answers of every set."""
    spec = importlib.util.spec_from_file_location("class_variant_wrong_answers", WRONG_ANSWERS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.WRONG


def meta(cell: Any) -> dict:
    return cell.metadata.get("nbgrader", {})


def exercise_of(grade_id: str) -> str:
    """``ex3_answer`` and ``ex3_check`` belong to exercise ``ex3``."""
    return grade_id.split("_", 1)[0]


# --------------------------------------------------------------------------- substitution
WORD = re.compile(r"[^\W\d_]{2,}")  # a word of prose, in any script


def number_text(value: Any) -> str:
    """A drawn number as Python and a student write it: ``2.5``, ``3``."""
    return repr(value) if isinstance(value, float) else str(value)


def substitute_numbers(code: str, numbers: dict[str, str], *, in_code: bool = True) -> str:
    """``code`` with every number token written as a key of ``numbers`` replaced by its
    value (``2.0`` is replaced, the ``2`` of ``2 * x`` is not), and so is a decimal number
    in a string without words: a check's name that is a formula (``"f'(1.5)"``). A string
    with words (a hint, which translators translate as it is) stays as it is. With
    ``in_code=False``, only such strings change (a grade cell's, whose numbers are the key's).

    >>> substitute_numbers("x = 2 * 2.0 + 3.0  # 2.0", {"2.0": "1.5", "3.0": "4.0"})
    'x = 2 * 1.5 + 4.0  # 2.0'
    >>> substitute_numbers('check("f(2.0)", hint="take x = 2.0")', {"2.0": "1.5"})
    'check("f(1.5)", hint="take x = 2.0")'
    """
    lines = code.splitlines(keepends=True)
    edits = []
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    for token in tokens:
        if token.type == tokenize.NUMBER and token.string in numbers and in_code:
            edits.append((token.start, token.end, numbers[token.string]))
        elif token.type == tokenize.STRING and not WORD.search(token.string[1:]):
            changed = substitute_in_prose(token.string, numbers)
            if changed != token.string and token.start[0] == token.end[0]:
                edits.append((token.start, token.end, changed))
    for (row, start), (_, end), text in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + text + line[end:]
    return "".join(lines)


def substitute_in_prose(text: str, numbers: dict[str, str], decimal_comma: bool = False) -> str:
    """``text`` (Markdown outside code blocks) with every decimal number written as a key of
    ``numbers`` replaced by its value, as one number (the ``2.0`` of ``2.05`` stays). A
    whole number (``3``) stays: in prose it is as often an exercise's or a section's number.
    With ``decimal_comma`` (Russian), ``2,0`` and a formula's ``2{,}0`` are that number too,
    and get their comma back.

    >>> substitute_in_prose("At $x = 1.5$, not 11.5 (exercise 1).", {"1.5": "2.25", "1": "4"})
    'At $x = 2.25$, not 11.5 (exercise 1).'
    >>> substitute_in_prose("в точке 1,5 и `1.5`, $f(1{,}5)$", {"1.5": "0.7"}, decimal_comma=True)
    'в точке 0,7 и `0.7`, $f(0{,}7)$'
    """
    decimals = {key: value for key, value in numbers.items() if re.fullmatch(r"\d+\.\d+", key)}
    if not decimals:
        return text
    separators = r"(?:[.,]|\{,\})" if decimal_comma else r"\."
    written = "|".join(
        re.escape(whole) + separators + re.escape(fraction)
        for whole, fraction in (key.split(".") for key in sorted(decimals, key=len, reverse=True))
    )

    def replaced(match: re.Match) -> str:
        found = match.group(0)
        value = decimals[found.replace("{,}", ".").replace(",", ".")]
        for comma in ("{,}", ","):  # in a formula, or in prose
            if comma in found:
                return value.replace(".", comma)
        return value

    return re.sub(rf"(?<![\d.,])(?:{written})(?![\d]|[.,]\d)", replaced, text)


def substitute_in_markdown(
    markdown: str, numbers: dict[str, str], decimal_comma: bool = False
) -> str:
    """A Markdown cell with ``substitute_numbers`` applied inside its fenced code blocks and
    ``substitute_in_prose`` outside them. A translated statement gets the same numbers as
    the English one (``decimal_comma`` for the languages that write one in prose): it is
    translated first, from the template's English, and then given the class's numbers.

    >>> substitute_in_markdown("Take x = 2.0:\\n```python\\nx = 2.0\\n```", {"2.0": "1.5"})
    'Take x = 1.5:\\n```python\\nx = 1.5\\n```'
    """
    parts = markdown.split("```")
    for i in range(len(parts)):
        if i % 2:  # the odd parts are inside a fence
            language, _, body = parts[i].partition("\n")
            parts[i] = language + "\n" + substitute_numbers(body, numbers)
        else:
            parts[i] = substitute_in_prose(parts[i], numbers, decimal_comma)
    return "```".join(parts)


# ------------------------------------------------------------ phrases of worked numbers
# A phrase is bounded where it begins or ends with a letter or digit: "x = 3" is not the
# start of "x = 3.5", "12" not the end of "112" (ASCII only: a Chinese character beside a
# number is no part of it).
_BEFORE = r"(?<![A-Za-z0-9_.])"
_AFTER = r"(?![A-Za-z0-9_]|\.\d)"


def replace_phrases(text: str, phrases: dict[str, str]) -> str:
    """``text`` with each phrase (a key of ``phrases``) replaced by its text, in one pass, the
    longest phrase first where two begin at one place. This is how the numbers that a
    statement writes as whole numbers ($f'(3)$, $x = 3$) and that solutions work by hand
    (``1.0 * 2 * 6.0``) change: the declaration says, per exercise, each phrase the template
    writes and how the class's numbers write it.

    >>> class_numbers = {"f'(3)": "f'(4)", "x = 3": "x = 4", "12": "20"}
    >>> replace_phrases("f'(3) at x = 3, not x = 3.5; 12 of 112", class_numbers)
    "f'(4) at x = 4, not x = 3.5; 20 of 112"
    """
    if not phrases:
        return text
    return re.sub(_phrase_pattern(phrases), lambda match: phrases[match.group(0)], text)


def _phrase_pattern(phrases: dict[str, str]) -> str:
    def pattern(phrase: str) -> str:
        before = _BEFORE if phrase[0].isalnum() else ""
        after = _AFTER if phrase[-1].isalnum() else ""
        return before + re.escape(phrase) + after

    longest_first = sorted(phrases, key=len, reverse=True)
    return "|".join(pattern(phrase) for phrase in longest_first)


def _phrases_in(text: str, phrases: dict[str, str]) -> int:
    """How many phrases ``text`` writes, counted as :func:`replace_phrases` replaces them."""
    return len(re.findall(_phrase_pattern(phrases), text)) if phrases else 0


def _phrases_in_strings(code: str, phrases: dict[str, str]) -> str:
    """A grade cell with the phrases replaced in its strings only (a check's name, a hint):
    its numbers are the key's, which the command computes.

    >>> _phrases_in_strings('check("f(3)", d, expected=3.0, hint="at x = 3")', {"f(3)": "f(4)",
    ...     "3.0": "4.0", "x = 3": "x = 4"})
    'check("f(4)", d, expected=3.0, hint="at x = 4")'
    """
    lines = code.splitlines(keepends=True)
    edits = []
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.STRING and token.start[0] == token.end[0]:
            changed = replace_phrases(token.string, phrases)
            if changed != token.string:
                edits.append((token.start, token.end, changed))
    for (row, start), (_, end), text in reversed(edits):
        lines[row - 1] = lines[row - 1][:start] + text + lines[row - 1][end:]
    return "".join(lines)


@functools.cache
def _translated_exercises(name: str) -> dict[str, str]:
    """The text of each exercise of a set in its translations (teacher/<lang>/source)."""
    text: dict[str, str] = {}
    for path in sorted(TEACHER.glob(f"*/source/{name}/{name}.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell, exercise in zip(nb.cells, exercise_per_cell(nb)):
            text[exercise] = text.get(exercise, "") + "\n" + cell.source
    return text


def _draw_worked(rng: random.Random, found: Declaration) -> dict[str, dict[str, str]]:
    """The class's worked numbers (never the template's own) written into the declaration's
    phrases: ``{exercise: {phrase: the class's text}}``; empty for a set without them."""
    if not found.worked or found.phrases is None:
        return {}
    drawn = {
        name: rng.choice([value for value in values if value != default])
        for name, (default, values) in found.worked.items()
    }
    return found.phrases(**drawn)


def _check_phrases(
    name: str, template: Any, phrases: dict[str, dict[str, str]], wrong: dict
) -> None:
    """Every declared phrase is written in its exercise (a statement, a cell, a wrong
    answer), in English or in a translation (Russian writes 6·vⱼ − 2 with a minus sign): a
    phrase that is not would leave the template's number where it stood."""
    text = dict(_translated_exercises(name))
    for cell, exercise in zip(template.cells, exercise_per_cell(template)):
        text[exercise] = text.get(exercise, "") + "\n" + cell.source
    for answer, mistakes in wrong.items():
        for code, _ in mistakes:
            text[exercise_of(answer)] = text.get(exercise_of(answer), "") + "\n" + code
    for exercise, table in phrases.items():
        for phrase in table:
            if replace_phrases(text.get(exercise, ""), {phrase: "\0"}) == text.get(exercise):
                raise VariantError(f"{exercise}: the phrase {phrase!r} is not in the template")


class SourceEdits:
    """Replacements of spans of a cell's source, given as the AST's (line, byte column)."""

    def __init__(self, source: str) -> None:
        self.lines = source.encode().splitlines(keepends=True)
        self.edits: list[tuple[int, int, str]] = []

    def _offset(self, line: int, column: int) -> int:
        return sum(len(text) for text in self.lines[: line - 1]) + column

    def replace(self, node: ast.AST, text: str) -> None:
        start = self._offset(node.lineno, node.col_offset)
        end = self._offset(node.end_lineno, node.end_col_offset)
        self.edits.append((start, end, text))

    def result(self) -> str:
        data = b"".join(self.lines)
        for start, end, text in sorted(self.edits, reverse=True):
            data = data[:start] + text.encode() + data[end:]
        return data.decode()


@dataclass
class CheckCall:
    """One ``check_...(...)`` statement of a grade cell, visible or hidden."""

    kind: str
    name: str
    call: ast.Call
    hidden: bool

    def keyword(self, argument: str) -> ast.expr | None:
        for keyword in self.call.keywords:
            if keyword.arg == argument:
                return keyword.value
        return None


def check_calls(source: str) -> list[CheckCall]:
    """The check calls of a grade cell in order, visible ones first (as the split numbers
    them in :mod:`minigrad_course.hidden_tests`)."""
    tree = ast.parse(source)
    marker_line = next(
        (i + 1 for i, line in enumerate(source.splitlines()) if HIDDEN_MARKER in line),
        len(source.splitlines()) + 1,
    )
    calls = []
    for statement in tree.body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            continue
        function = statement.value.func
        if isinstance(function, ast.Attribute) and function.attr in STUDENT_ARGUMENTS:
            name = ast.literal_eval(statement.value.args[0])
            hidden = statement.lineno > marker_line
            calls.append(CheckCall(function.attr, name, statement.value, hidden))
    return calls


# --------------------------------------------------------------------------- running
class Recorder:
    """Stands for ``_grading`` on the answer side of the hidden tests: keeps each check's
    answer as plain values (None when the check could not measure one)."""

    def __init__(self) -> None:
        self.values: dict[int, Any] = {}
        self.kinds: dict[int, str] = {}

    def record(self, grade_id: str, index: int, kind: str, name: str, **arguments: Any) -> None:
        data = measure(kind, name, arguments)
        self.kinds[index] = kind
        if kind in ("check_value", "check_equal"):
            self.values[index] = from_data(data["answer"]) if "answer" in data else None
        elif kind in ("check_grad", "check_grad_is_none"):
            grad = data.get("grad")
            self.values[index] = None if grad is None else from_data(grad)
        elif kind == "check_function" and "results" in data:
            self.values[index] = [from_data(result) for result in data["results"]]
        else:
            self.values[index] = None


def run(nb: Any, answers: dict[str, str] | None = None) -> dict[str, Recorder]:
    """Run a set's code cells here, each answer cell replaced by ``answers[grade_id]`` when
    given, and every grade cell's checks as the answer side of isolated grading measures
    them: ``{grade cell: its recorder}``. A cell that fails leaves its names unset
    and its checks unanswered, as in a kernel."""
    answers = answers or {}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    measured: dict[str, Recorder] = {}
    printed = io.StringIO()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        grade_id = meta(cell).get("grade_id", "")
        if meta(cell).get("grade"):
            hidden = hidden_tests_of(cell.source) or ""
            code, _, _ = split_hidden_tests(hidden, grade_id, visible_part_of(cell.source))
            recorder = Recorder()
            namespace["_grading"] = recorder
            measured[grade_id] = recorder
        else:
            code = answers.get(grade_id, cell.source)
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            try:
                exec(compile(code, f"<{grade_id or 'cell'}>", "exec"), namespace)
            except Exception:  # noqa: BLE001, S110 - a wrong answer may fail; its checks say so
                pass
    return measured


def fingerprints_of(kind: str, value: Any) -> list[str] | None:
    """The fingerprint(s) of a check's answer: one per point for ``check_function``."""
    if value is None:
        return None
    if kind == "check_function":
        return [checks.fingerprint(result) for result in value]
    return [checks.fingerprint(value)]


def as_literal(value: Any) -> str:
    """An expected value written as the hidden tests write it."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list):
        return "[" + ", ".join(as_literal(item) for item in value) + "]"
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


# --------------------------------------------------------------------------- public values
NUMBER = re.compile(r"\d+\.\d+(?:e-?\d+)?")
LONG = 8  # significant digits from which a number is as good as a name for its question


def long_numbers(text: str) -> set[str]:
    """The numbers with ``LONG`` or more significant digits written in ``text``, unsigned and
    rounded to twelve (so that two writings of one value, which differ in the last digit of
    their repr, are one).

    >>> sorted(long_numbers("expected=[0.5403023058681398, -2.5, 1.25]"))
    ['5.40302305868e-01']
    """
    return {
        f"{float(n):.11e}"
        for n in NUMBER.findall(text)
        if len(n.split("e")[0].replace(".", "").lstrip("0")) >= LONG
    }


@functools.cache
def public_numbers() -> frozenset[str]:
    """The long numbers of every file this repository tracks (every file, outside a git
    checkout): a class's key must hold none of them, or a search of the repository for a
    value the class's hidden tests compare with, cos(1) at a point 1.0, say, would find it."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False
    ).stdout.decode()
    names = [ROOT / name for name in filter(None, listed.split("\0"))]
    if not names:
        names = [path for path in ROOT.rglob("*") if path.is_file()]
    found: set[str] = set()
    for path in names:
        with contextlib.suppress(OSError):
            found |= long_numbers(path.read_bytes().decode(errors="replace"))
    return frozenset(found)


# --------------------------------------------------------------------------- words
# A fragment is replaced where it stands as whole tokens: not inside a longer name or number
# ("sin" is not replaced in "sinh" nor "x + 1" in "x + 1.5").
_TOKEN_BEFORE = r"(?<![A-Za-z0-9_])(?<!\d\.)"
_TOKEN_AFTER = r"(?![A-Za-z0-9_]|\.\d)"


def substitute_words(text: str, table: dict[str, str]) -> str:
    """``text`` with every fragment of ``table`` that stands as whole tokens replaced by its
    value, all in one pass (so that ``{"A": "B", "B": "A"}`` swaps two names). Code is code
    in every language: the same fragments are found in a translated statement or hint.

    >>> substitute_words("z = (x * y).sin()  # sinh(x), not sin", {"sin": "cos"})
    'z = (x * y).cos()  # sinh(x), not cos'
    >>> substitute_words('# Script A ... {"A": 1, "B": 2}, В B', {"A": "B", "B": "A"})
    '# Script B ... {"B": 1, "A": 2}, В A'
    """
    if not table:
        return text
    fragments = "|".join(re.escape(fragment) for fragment in sorted(table, key=len, reverse=True))
    pattern = re.compile(f"{_TOKEN_BEFORE}(?:{fragments}){_TOKEN_AFTER}")
    return pattern.sub(lambda match: table[match.group(0)], text)


def draw_words(rng: random.Random, found: Declaration) -> dict[str, dict[str, str]]:
    """One alternative of each group of ``WORDS``, per exercise, as one table; drawn again
    while it would give the class the template's own code (every group drew ``{}``)."""
    words = {}
    for exercise, groups in found.words.items():
        if not any(any(alternative) for group in groups for alternative in group):
            raise VariantError(f"{exercise}: WORDS has only the template's own words")
        chosen: dict[str, str] = {}
        while not chosen:
            for group in groups:
                chosen.update(rng.choice(group))
        words[exercise] = chosen
    return words


def with_words(template: Any, words: dict[str, dict[str, str]]) -> Any:
    """The template with each exercise's drawn words in all its cells: statement, given and
    solution cells, and the checks' names and hints (whose expected values and fingerprints
    are then computed again)."""
    nb = copy.deepcopy(template)
    for cell, exercise in zip(nb.cells, exercise_per_cell(nb)):
        if words.get(exercise):
            cell.source = substitute_words(cell.source, words[exercise])
    return nb


def wrong_with_words(
    wrong: dict[str, list[tuple[str, str]]], words: dict[str, dict[str, str]]
) -> dict[str, list[tuple[str, str]]]:
    """The typical wrong answers written with the class's words, and their hints' pieces."""
    return {
        answer: [
            (substitute_words(code, table), substitute_words(piece, table))
            for code, piece in mistakes
        ]
        for answer, mistakes in wrong.items()
        for table in [words.get(exercise_of(answer), {})]
    }


def catalog_with_words(catalog: Any, words: dict[str, dict[str, str]]) -> Any:
    """A language's catalog that also translates the English a class's words give (a hint
    naming ``cos()`` where the template's names ``exp()``): each finished entry with an
    exercise's words in both its English and its translation, beside the entry itself."""
    worded = copy.deepcopy(catalog)
    for table in words.values():
        for message in catalog:
            if not isinstance(message.id, str) or not message.id or not message.string:
                continue
            english = substitute_words(message.id, table)
            if english != message.id and english not in worded and "fuzzy" not in message.flags:
                worded.add(english, substitute_words(message.string, table))
    return worded


# --------------------------------------------------------------------------- one variant
@dataclass
class Variant:
    """One set for one class: its teacher's notebook, its wrong answers, what was drawn."""

    name: str
    nb: Any
    wrong: dict[str, list[tuple[str, str]]]
    numbers: dict[str, dict[str, str]]
    points: dict[str, tuple[list, list]]  # per check: shown, and of other hidden tests
    expected: dict[tuple[str, int, str], str]  # (grade cell, check, its name): the value
    words: dict[str, dict[str, str]] = field(default_factory=dict)  # per exercise: drawn words
    phrases: dict[str, dict[str, str]] = field(default_factory=dict)  # of worked numbers


def _draw(
    rng: random.Random, found: Declaration
) -> tuple[dict[str, dict[str, str]], dict[str, tuple[list, list]]]:
    numbers = {}
    for exercise, table in found.numbers.items():
        chosen: dict[str, str] = {}
        for default, values in table.items():
            free = [v for v in values if number_text(v) not in chosen.values()]
            free = [v for v in free if number_text(v) != default]
            chosen[default] = number_text(rng.choice(free))
        numbers[exercise] = chosen
    # Two draws per check: the points the visible check shows, and those of a hidden test
    # that checks other points than the visible one (set 18's).
    points = {check: (draw(rng), draw(rng)) for check, draw in found.points.items()}
    return numbers, points


def _varied_exercises(nb: Any, found: Declaration) -> set[str]:
    """The exercises of ``nb`` that a class may get other numbers, points or code for."""
    exercises = set(found.numbers) | set(found.words)
    if found.worked and found.phrases is not None:  # the phrases of the template's numbers
        exercises |= set(
            found.phrases(**{name: value for name, (value, _) in found.worked.items()})
        )
    for cell in nb.cells:
        if meta(cell).get("grade"):
            names = {call.name for call in check_calls(cell.source)}
            if names & set(found.points):
                exercises.add(exercise_of(meta(cell)["grade_id"]))
    return exercises


def exercise_per_cell(nb: Any) -> list[str]:
    """The exercise each cell belongs to: a cell without a grade id (a statement, a given
    cell) belongs to the exercise of the next cell that has one."""
    exercises, waiting = [], 0
    for cell in nb.cells:
        exercises.append("")
        grade_id = meta(cell).get("grade_id", "")
        if grade_id.startswith("ex"):
            for i in range(waiting, len(exercises)):
                exercises[i] = exercise_of(grade_id)
            waiting = len(exercises)
    return exercises


def _with_numbers_and_points(
    template: Any,
    numbers: dict,
    points: dict,
    found: Declaration | None = None,
    phrases: dict | None = None,
) -> Any:
    """The template with the drawn numbers in each exercise's statement code blocks, given
    and solution cells, and the drawn points in its checks (``points[name] = (shown,
    hidden)``: a hidden test at the visible check's points gets the shown ones, one at
    points of its own the hidden ones); outputs cleared."""
    nb = copy.deepcopy(template)
    shown_in_template = {
        call.name: literal_or_code(node)
        for cell in nb.cells
        if meta(cell).get("grade")
        for call, node in zip(*_calls_and_points(cell.source))
        if not call.hidden and node is not None
    }
    for name, (shown, _) in points.items():
        if shown == shown_in_template.get(name):  # a class never gets the public points
            raise VariantError(f"{name}: the template's own points")
    for cell, exercise in zip(nb.cells, exercise_per_cell(nb)):
        table = numbers.get(exercise)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if phrases and exercise in phrases:  # statements, given and solution cells
            if meta(cell).get("grade"):  # only the strings: a check's name, its hints
                cell.source = _phrases_in_strings(cell.source, phrases[exercise])
            else:
                cell.source = replace_phrases(cell.source, phrases[exercise])
        if table and cell.cell_type == "markdown":
            cell.source = substitute_in_markdown(cell.source, table)
        elif table and cell.cell_type == "code" and not meta(cell).get("grade"):
            if found is None or found.changes(exercise, meta(cell).get("grade_id", "")):
                cell.source = substitute_numbers(cell.source, table)
        elif table and cell.cell_type == "code":  # a grade cell: its checks' names
            cell.source = substitute_numbers(cell.source, table, in_code=False)
        if meta(cell).get("grade") and points:
            edits, edited = SourceEdits(cell.source), set()
            for call, node in zip(*_calls_and_points(cell.source)):
                # Points given by name in a hidden test are extra ones of the template's
                # (set 16 checks more points whose values minigrad computes as it grades).
                if call.name in points and node is not None and is_literal(node):
                    shown, hidden = points[call.name]
                    same = ast.literal_eval(node) == shown_in_template.get(call.name)
                    if (node.lineno, node.col_offset) not in edited:  # a shared variable
                        edits.replace(node, as_literal(shown if same else hidden))
                        edited.add((node.lineno, node.col_offset))
            cell.source = edits.result()
    return nb


def _calls_and_points(source: str) -> tuple[list[CheckCall], list[ast.expr | None]]:
    """A grade cell's check calls and each one's ``points=``. A name that the cell assigns a
    literal stands for it (set 11's ``leaky_points``, which two checks share) in a visible
    check, and in a hidden test whose points are the visible check's; not in a hidden test
    with extra points of its own (set 16's ``_points``, whose values minigrad computes as
    it grades)."""
    calls = check_calls(source)
    assigned = {
        statement.targets[0].id: statement.value
        for statement in ast.parse(source).body
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and is_literal(statement.value)
    }
    visible: dict[str, Any] = {}
    nodes: list[ast.expr | None] = []
    for call in calls:
        node = call.keyword("points")
        if isinstance(node, ast.Name) and node.id in assigned:
            value = assigned[node.id]
            if not call.hidden or ast.literal_eval(value) == visible.get(call.name):
                node = value
        if not call.hidden and node is not None and is_literal(node):
            visible[call.name] = ast.literal_eval(node)
        nodes.append(node)
    return calls, nodes


def formatted(code: str) -> str:
    """A rewritten cell laid out as the templates are (by ruff, when it is installed, as it
    is with the developer's tools); as it is otherwise, which runs the same."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        return code
    done = subprocess.run(
        [ruff, "format", "--stdin-filename", "cell.py", "-"],
        input=code,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return done.stdout.rstrip("\n") if done.returncode == 0 else code


def is_literal(node: ast.expr) -> bool:
    """Whether a node is written as a literal (``[1.0, 2.0]``), not computed (``_points``)."""
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


def literal_or_code(node: ast.expr) -> Any:
    """A node's value when it is a literal, else its code (a hint kept in a variable, say)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)


def _mistake_nodes(call: CheckCall) -> list[tuple[ast.Call, str]]:
    """The ``mc.Fingerprint(...)`` common mistakes of a visible check, with their hints."""
    node = call.keyword("common_mistakes")
    found = []
    for item in getattr(node, "elts", []):
        if not (isinstance(item, ast.Tuple) and len(item.elts) == 2):
            continue
        mistake, hint = item.elts
        if (
            isinstance(mistake, ast.Call)
            and isinstance(mistake.func, ast.Attribute)
            and mistake.func.attr == "Fingerprint"
        ):
            found.append((mistake, literal_or_code(hint)))
    return found


def _fingerprint_text(kind: str, fingerprints: list[str]) -> str:
    if kind == "check_function":
        return "[" + ", ".join(f'"{f}"' for f in fingerprints) + "]"
    return f'"{fingerprints[0]}"'


def build_variant(
    name: str,
    template: Any,
    wrong: dict[str, list[tuple[str, str]]],
    found: Declaration,
    numbers: dict[str, dict[str, str]],
    points: dict[str, tuple[list, list]],
    template_runs: dict | None = None,
    words: dict[str, dict[str, str]] | None = None,
    phrases: dict[str, dict[str, str]] | None = None,
) -> Variant:
    """The set with the given numbers and points (none: the template's own), its key
    computed by running the solution and the wrong answers. Raises VariantError when the
    template's fingerprints cannot be traced to a source, or when, for these numbers, the
    solution fails or two fingerprints of one check coincide. ``template_runs`` keeps the
    template's runs from one draw to the next; ``words`` are the exercises' drawn words."""
    words = words or {}
    phrases = phrases or {}
    varied = _varied_exercises(template, found) | set(phrases)
    if phrases:
        _check_phrases(name, template, phrases, wrong)
    nb = _with_numbers_and_points(with_words(template, words), numbers, points, found, phrases)
    wrong_here = {
        answer: [
            (
                replace_phrases(
                    substitute_numbers(code, numbers.get(exercise_of(answer), {})),
                    phrases.get(exercise_of(answer), {}),
                ),
                hint,
            )
            if found.changes(exercise_of(answer), answer)
            else (code, hint)
            for code, hint in mistakes
        ]
        for answer, mistakes in wrong_with_words(wrong, words).items()
    }
    # The template's runs: "solution", and (answer cell, which) for each wrong answer.
    template_runs = {} if template_runs is None else template_runs
    if "solution" not in template_runs:
        template_runs["solution"] = run(template)
    default_run = template_runs["solution"]
    solution_run = run(nb)
    drawn = bool(numbers or points or phrases)
    if drawn:  # before the wrong answers run: the cheapest reason to draw again
        values = " ".join(
            as_literal(value)
            for grade_id, recorder in solution_run.items()
            if exercise_of(grade_id) in varied
            for value in recorder.values.values()
        )
        shown = long_numbers(values) & public_numbers()
        if shown:
            raise VariantError(f"{name}: the key would hold {sorted(shown)[0]}, a public value")
    variant_runs: dict[tuple[str, int], dict] = {}

    def wrong_run(answer: str, which: int, in_variant: bool) -> dict:
        """The measured answers with one wrong answer, in the template or the variant."""
        runs = variant_runs if in_variant else template_runs
        if (answer, which) not in runs:
            notebook, answers = (nb, wrong_here) if in_variant else (template, wrong)
            runs[answer, which] = run(notebook, {answer: answers[answer][which][0]})
        return runs[answer, which]

    expected: dict[tuple[str, int, str], str] = {}
    for cell in nb.cells:
        grade_id = meta(cell).get("grade_id", "")
        if not meta(cell).get("grade") or exercise_of(grade_id) not in varied:
            continue
        calls, points_nodes = _calls_and_points(cell.source)
        hints_by_name = _strings_assigned(cell.source)
        answer_cell = exercise_of(grade_id) + "_answer"
        edits = SourceEdits(cell.source)
        for index, call in enumerate(calls):
            if call.kind in MEASURED_IN_THE_STUDENT_PROCESS:  # gradcheck: no value, no key
                continue
            value = run_value(solution_run, grade_id, index)
            if value is None and call.kind != "check_grad_is_none":
                raise VariantError(f"{name} {grade_id}: the solution gives no {call.name}")
            if call.hidden:
                node = call.keyword("expected")
                # Values a hidden test computes at points it computes are left to it.
                if node is not None and is_literal(points_nodes[index] or ast.Constant(0)):
                    if drawn and _same_number(value, _literal_value(node)):
                        # The repository's answer would score here: a copied key, marks.
                        raise VariantError(f"{name} {grade_id}: {call.name} is the public value")
                    edits.replace(node, as_literal(value))
                    expected[grade_id, index, call.name] = as_literal(value)
                continue
            mine = fingerprints_of(call.kind, value)
            if mine is None:  # check_grad_is_none: nothing to fingerprint
                continue
            node = call.keyword("fingerprints" if call.kind == "check_function" else "fingerprint")
            if node is not None:
                edits.replace(node, _fingerprint_text(call.kind, mine))
            seen = {tuple(mine)}
            for mistake, hint in _mistake_nodes(call):
                hint = hints_by_name.get(hint, hint)  # a hint kept in a variable of the cell
                literal = [literal_or_code(arg) for arg in mistake.args]
                source = _mistake_source(
                    f"{name} {grade_id} {call.name}",
                    (grade_id, index, call.kind),
                    literal,
                    hint,
                    wrong_here.get(answer_cell, []),
                    functools.partial(wrong_run, answer_cell),
                    default_run,
                    solution_run,
                )
                if tuple(source) in seen:
                    raise VariantError(f"{name} {grade_id} {call.name}: two fingerprints coincide")
                seen.add(tuple(source))
                arguments = ", ".join(f'"{f}"' for f in source)
                edits.replace(mistake, f"{ast.unparse(mistake.func)}({arguments})")
        cell.source = formatted(edits.result())
    return Variant(name, nb, wrong_here, numbers, points, expected, words, phrases)


def _strings_assigned(source: str) -> dict[str, str]:
    """The strings a grade cell keeps in variables (``not_one = "..."``), by name: a hint
    that several common mistakes share."""
    found = {}
    for statement in ast.parse(source).body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            found[statement.targets[0].id] = statement.value.value
    return found


def _literal_value(node: ast.AST) -> Any:
    """What an ``expected=`` literal of the template stands for (``0.5 / 3.0`` too); None for
    anything else."""
    try:
        return eval(compile(ast.Expression(node), "<key>", "eval"), {"__builtins__": {}})  # noqa: S307
    except Exception:  # noqa: BLE001 - a name or a call: not a number written in the key
        return None


def _same_number(value: Any, public: Any) -> bool:
    """Whether ``value`` is the number (or array of numbers) ``public`` within the checks'
    tolerance; choices and words (``True``, ``"MulBackward0"``) are never numbers here."""
    if public is None or isinstance(public, bool | str) or isinstance(value, bool | str):
        return False
    try:
        mine, theirs = np.asarray(value, float), np.asarray(public, float)
    except (TypeError, ValueError):
        return False
    return mine.shape == theirs.shape and bool(np.allclose(mine, theirs, rtol=1e-6, atol=0))


def _mistake_source(
    where: str,
    check: tuple[str, int, str],
    literal: list[str],
    hint: str,
    recorded: list[tuple[str, str]],
    wrong_run: Callable[[int, bool], dict],
    default_run: dict,
    solution_run: dict,
) -> list[str]:
    """The fingerprints a common mistake gets in the variant: from the recorded wrong answer
    whose hint it carries, else from the right answer of another check (``That is ∂z/∂y``)
    that had the same fingerprint in the template."""
    grade_id, index, kind = check
    # Two mistakes may share a hint (set 03's "along two paths"): the wrong answer that
    # stands for one gives its fingerprint in the template.
    mismatch = None
    for which, (_, piece) in enumerate(recorded):
        if piece not in hint:
            continue
        default = run_value(wrong_run(which, False), grade_id, index)
        forms = [fingerprints_of(kind, form) for form in answer_forms(kind, default)]
        if literal not in forms:
            mismatch = (
                f"{where}: the wrong answer with hint {piece!r} gives {forms[0]} in the "
                f"template, which has {literal}"
            )
            continue
        found = run_value(wrong_run(which, True), grade_id, index)
        found_forms = answer_forms(kind, found)
        if found is None or len(found_forms) != len(forms):
            raise VariantError(f"{where}: the wrong answer {piece!r} gives nothing like it")
        return fingerprints_of(kind, found_forms[forms.index(literal)])
    if mismatch:
        raise VariantError(mismatch)
    for other_cell, recorder in default_run.items():
        for other_index, value in recorder.values.items():
            same_kind = recorder.kinds[other_index] == kind
            if same_kind and fingerprints_of(kind, value) == literal:
                return fingerprints_of(kind, run_value(solution_run, other_cell, other_index))
    raise VariantError(
        f"{where}: no wrong answer in tests/course/wrong* has a hint found in the mistake "
        f"{hint!r}: record one, so that its fingerprint can be computed"
    )


def answer_forms(kind: str, value: Any) -> list[Any]:
    """A measured answer and the equivalent one its check also accepts, whose fingerprint a
    common mistake may be written with: a list of distinct items is a set to ``check_equal``.

    >>> answer_forms("check_equal", ["x", "c"])
    [['x', 'c'], {'c', 'x'}]
    """
    forms = [value]
    if kind == "check_equal" and isinstance(value, list | tuple):
        with contextlib.suppress(TypeError):  # unhashable items: no set
            if len(set(value)) == len(value):
                forms.append(set(value))
    return forms


def run_value(measured: dict[str, Recorder], grade_id: str, index: int) -> Any:
    """The answer a run measured for one check (None: no answer)."""
    recorder = measured.get(grade_id)
    return None if recorder is None else recorder.values.get(index)


def make_variant(name: str, secret: str | None, *, template: Any = None) -> Variant:
    """Set ``name`` for the class of ``secret`` (None: the template's own numbers)."""
    template = template if template is not None else read_source(name)
    wrong = wrong_answers().get(name, {})
    found = declaration(name)
    if found is None:
        nb = copy.deepcopy(template)
        return Variant(name, nb, wrong, {}, {}, {})
    if secret is None:
        return build_variant(name, template, wrong, found, {}, {})
    generator = draws(secret, name)
    # The words come from a draw of their own: a set's numbers do not change with them.
    word_generator = draws(secret, f"{name}\0words")
    problems, template_runs = [], {}
    for attempt in range(ATTEMPTS):
        rng = generator(attempt)
        numbers, points = _draw(rng, found)
        phrases = _draw_worked(rng, found)
        words = draw_words(word_generator(attempt), found)
        try:
            return build_variant(
                name, template, wrong, found, numbers, points, template_runs, words, phrases
            )
        except VariantError as problem:
            problems.append(str(problem))
    raise VariantError(f"{name}: no usable draw in {ATTEMPTS} attempts: {problems[-1]}")


def read_source(name: str) -> Any:
    return nbformat.read(SOURCES / name / f"{name}.ipynb", as_version=4)


def varying_sets() -> list[str]:
    """The sets that have a declaration of what varies."""
    return sorted(path.stem for path in DECLARATIONS.glob("[0-9][0-9]_*.py"))


# --------------------------------------------------------------------------- languages
DECIMAL_COMMA = {"ru"}  # languages whose prose writes 2,5 for 2.5


@functools.cache
def translation_tool() -> Any:
    """scripts/translate_exercises.py, which builds a translated set from the English one
    and the language's catalog."""
    spec = importlib.util.spec_from_file_location(
        "translate_exercises", Path(__file__).resolve().parent / "translate_exercises.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return sys.modules[spec.name]


def translated_variant(variant: Variant, lang: str) -> Any:
    """The class's set in ``lang``: the same numbers, points and key as the English one.

    Its code cells are the class's English ones translated (comments and check strings, which
    hold no drawn number); its statements are the template's translated by the catalog, then
    given the class's numbers as the English statements are (a translation's entries are
    the template's English, so a statement is translated before its numbers change).
    """
    tool = translation_tool()
    catalog_file = tool.catalog_path(lang, variant.name)
    if not catalog_file.exists():
        raise VariantError(f"{variant.name} has no catalog in {lang}: {catalog_file}")
    catalog = tool.lessons.read_catalog(catalog_file)
    worded = catalog_with_words(catalog, variant.words)  # the class's hints are in it too
    statements = tool.built_source(variant.name, lang, catalog)
    nb = tool.built_source(variant.name, lang, _with_phrases(worded, variant), english=variant.nb)
    exercises = exercise_per_cell(nb)
    for cell, statement, exercise in zip(nb.cells, statements.cells, exercises):
        if cell.cell_type == "markdown":
            numbers = variant.numbers.get(exercise, {})
            source = substitute_words(statement.source, variant.words.get(exercise, {}))
            text = replace_phrases(source, variant.phrases.get(exercise, {}))
            cell.source = substitute_in_markdown(text, numbers, lang in DECIMAL_COMMA)
    return nb


def _with_phrases(catalog: Any, variant: Variant) -> Any:
    """The language's catalog, with each entry that writes a worked number of the class's
    (a hint's "x = 3", a comment's "arriving 12") also under its English in the class's
    numbers, translated with them: the class's hints and comments are then translated as
    the template's are. An entry whose translation does not write as many phrases as its
    English is left as it is (the class then sees that string in English)."""
    phrases: dict[str, str] = {}
    for table in variant.phrases.values():
        phrases.update(table)
    if not phrases:
        return catalog
    catalog = copy.deepcopy(catalog)
    for message in list(catalog):
        if not (message.id and message.string) or "fuzzy" in message.flags:
            continue
        english = replace_phrases(message.id, phrases)
        if english == message.id:
            continue
        if _phrases_in(message.string, phrases) == _phrases_in(message.id, phrases):
            catalog.add(english, replace_phrases(message.string, phrases), context=message.context)
    return catalog


def class_folder(lang: str | None) -> Path:
    """Where a class's course folder goes: ``teacher/class``, ``teacher/<lang>/class`` for a
    class taught in another language (beside that language's course, ``teacher/<lang>``)."""
    return CLASS_FOLDER if lang is None else TEACHER / lang / "class"


def write_class(
    out: Path, secret: str, sets: list[str] | None = None, lang: str | None = None
) -> list[Variant]:
    """Write the course folder of a class: ``out/source/<set>/<set>.ipynb`` for each set
    (all of them by default) and ``out/nbgrader_config.py``; in ``lang`` when given (the
    same numbers and key as the class's English sets)."""
    names = sets or sorted(p.name for p in SOURCES.iterdir() if p.is_dir())
    variants = []
    for name in names:
        variant = make_variant(name, secret)
        folder = out / "source" / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        nb = variant.nb if lang is None else translated_variant(variant, lang)
        nbformat.write(nb, folder / f"{name}.ipynb")
        variants.append(variant)
    config = (TEACHER / "nbgrader_config.py").read_text() + CLASS_CONFIG
    if lang is not None:  # the course id of the language's course (teacher/<lang>)
        config += f'c.CourseDirectory.course_id = "minigrad-{lang}"\n'
    (out / "nbgrader_config.py").write_text(config)
    return variants


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, help="the class's course folder (teacher/class, teacher/LANG/class)"
    )
    parser.add_argument("--lang", help="a class taught in this language: ru, zh_CN")
    parser.add_argument("--secret-file", type=Path, default=SECRET_FILE)
    parser.add_argument("sets", nargs="*", help="only these sets (default: all)")
    arguments = parser.parse_args(argv)
    if arguments.lang is not None and not (TEACHER / arguments.lang / "source").is_dir():
        parser.error(f"no course in {arguments.lang}: teacher/{arguments.lang}/source is missing")
    out = arguments.out or class_folder(arguments.lang)
    secret = class_secret(arguments.secret_file)
    variants = write_class(out, secret, arguments.sets or None, arguments.lang)
    changed = [v.name for v in variants if v.numbers or v.points or v.words or v.phrases]
    print(f"class_variant: wrote {len(variants)} sets into {out}/source")
    print(f"  with this class's own numbers: {', '.join(changed) or 'none'}")
    print(f"  next: cd {out} && nbgrader generate_assignment '*' --force")


if __name__ == "__main__":
    sys.exit(main())
