"""The ops' formulas in the student's language: "1 at the chosen index, else 0" in Russian.

Each op of minigrad declares its local derivative in one line, ``formula``, and its forward
derivative, ``jvp_formula`` (``minigrad/ops``, ``minigrad/function.py``,
``minigrad/copy_slices.py``). Most are symbols only (``∂(a·b)/∂a = b``), which every
language reads alike; some have English words (``ȧ where not mask, else 0``). The core
speaks no language of its own (it imports neither gettext nor the widgets), so it keeps
its English lines, and the widgets translate them where they show them.

**Into the catalogs.** ``extract_op_formulas`` is a Babel extractor, named in ``babel.cfg``:
``make catalogs`` runs it over ``minigrad/**.py``, and every class-level ``formula = "..."``
or ``jvp_formula = "..."`` with an English word becomes an entry of ``widgets.pot``.

>>> import io
>>> source = 'class Max:\\n    formula = "1 at the chosen index, else 0"\\n    jvp_formula = "0"\\n'
>>> found = extract_op_formulas(io.BytesIO(source.encode()), [], [], {})
>>> [(line, text) for line, _, text, _ in found]
[(2, '1 at the chosen index, else 0')]

**Out of them.** ``op_formula`` gives a formula minigrad wrote in the widgets' language; any
other text (an engine of the student's own, a ``Function`` the student wrote) comes back as
it is, and so does a formula with no entry.

>>> from widgets import set_language
>>> set_language("ru")
>>> op_formula("ȧ at the chosen index")
'ȧ в выбранном индексе'
>>> op_formula("ȧ·b + a·ḃ"), op_formula("my own words")
('ȧ·b + a·ḃ', 'my own words')
>>> set_language(None)
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from minigrad.function import Function, Node

from .i18n import _

# The class attributes that hold an op's formulas.
FORMULA_ATTRIBUTES = ("formula", "jvp_formula")

# The lessons' rule for an English word (scripts/translate_notebooks.py: two Latin letters or
# more), applied to what is left of a formula once its names are set aside.
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")

# A name as code writes it: letters, digits and underscores, maybe dotted (``leaf.grad``).
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# Names that formulas use as symbols, read the same in every language: functions as a
# textbook writes them (``ln a``, ``tanh²a``, ``∂max/∂aᵢ``), and the torch functions and
# arguments a formula names (``∂/∂source = α · grad[index]``, ``fill: ∂/∂a = 0``).
SYMBOLS = frozenset(
    {
        *("ln", "log", "exp", "sin", "cos", "tanh", "sign", "relu", "softmax", "softplus"),
        *("logsumexp", "cumsum", "mean", "var", "std", "max", "min", "amax", "amin"),
        *("cat", "stack", "fill", "zero", "copy", "source", "bias", "correction", "index"),
        "grad",
    }
)

TRANSLATORS_NOTE = (
    "TRANSLATORS: an op's derivative formula, shown in the step panel. Translate only "
    "the words: every symbol, index, operator and name (max, log, mask, ...) stays as written."
)


def has_english_words(formula: str) -> bool:
    """Whether ``formula`` has an English word, outside its symbols and code names.

    Dots above letters (``ȧ``, ``ḃias``) are the tangent's mark, not part of a word.

    >>> has_english_words("∂max/∂aᵢ = 1 at the chosen index, else 0")
    True
    >>> has_english_words("∂(aᵇ)/∂b = aᵇ·ln a"), has_english_words("ḃias + Ṁ₁@M₂")
    (False, False)
    >>> has_english_words("leaf.grad += grad"), has_english_words("∂log_softmax/∂a: g − softmax")
    (False, False)
    """
    undotted = "".join(
        char for char in unicodedata.normalize("NFD", formula) if unicodedata.category(char) != "Mn"
    )
    return any(
        ENGLISH_WORD.fullmatch(name) and name not in SYMBOLS for name in NAME.findall(undotted)
    )


def class_formulas(source: str) -> Iterator[tuple[int, str]]:
    """Each formula a class of ``source`` declares, ``formula = "..."`` or
    ``jvp_formula = "..."`` in its body, with its line number.

    >>> list(class_formulas('class Neg:\\n    formula = "∂(−a)/∂a = −1"\\n'))
    [(2, '∂(−a)/∂a = −1')]
    """
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef):
            continue
        for statement in cls.body:
            if isinstance(statement, ast.Assign):
                targets, value = statement.targets, statement.value
            elif isinstance(statement, ast.AnnAssign):
                targets, value = [statement.target], statement.value
            else:
                continue
            declares = any(
                isinstance(target, ast.Name) and target.id in FORMULA_ATTRIBUTES
                for target in targets
            )
            if declares and isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield statement.lineno, value.value


def extract_op_formulas(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for the ops' formulas with English words (``babel.cfg``): one
    ``(line, None, formula, [translators' note])`` for each. ``keywords`` and
    ``comment_tags`` are Babel's, unused: the formulas are found by where they stand."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, formula in class_formulas(source):
        if has_english_words(formula):
            yield line, None, formula, [TRANSLATORS_NOTE]


def _subclasses(cls: type) -> Iterator[type]:
    for subclass in cls.__subclasses__():
        yield subclass
        yield from _subclasses(subclass)


def minigrads_formulas() -> set[str]:
    """Every formula minigrad's own classes declare: the ops', ``AccumulateGrad``'s,
    ``CopySlices``'s (not those of a ``Function`` a student writes in a notebook).

    >>> "ȧ reshaped" in minigrads_formulas()
    True
    """
    formulas = set()
    for cls in (*_subclasses(Node), *_subclasses(Function)):
        if cls.__module__.partition(".")[0] != "minigrad":
            continue
        for attribute in FORMULA_ATTRIBUTES:
            text = vars(cls).get(attribute)
            if isinstance(text, str) and text:  # Op's empty default is no formula
                formulas.add(text)
    return formulas


def op_formula(formula: str) -> str:
    """``formula`` in the widgets' language when minigrad wrote it, else as it is; plain
    text, for ``widgets._markup.html`` to escape."""
    if formula in minigrads_formulas():
        return _(formula)
    return formula
