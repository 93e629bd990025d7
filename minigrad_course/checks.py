"""Checks for exercise notebooks graded with nbgrader: specific hints, never the answer.

A check is called in a locked *grade cell* under the student's answer. It prints one line
when the answer is right and raises ``AssertionError`` when it is not, with a message that
says what kind of mistake it is and never what the answer should be. Raising is what makes a
grade cell fail, in the student's own kernel, under ``nbgrader validate`` and under
``nbgrader autograde`` alike; nothing (no environment variable, no flag) switches it off.

Each check works in one of two modes:

* **visible** (``fingerprint=...``): the grade cell holds a *fingerprint* of the expected
  answer, a slow salted hash made by :func:`fingerprint` when the teacher writes the exercise.
  The check can tell a right answer from a wrong one without the answer appearing anywhere
  in what students receive. Typical wrong answers (``common_mistakes``) get their own hint.
* **hidden** (``expected=...``): in the ``### BEGIN HIDDEN TESTS`` block of the same cell,
  which ``nbgrader generate_assignment`` strips and ``nbgrader autograde`` puts back. It
  compares with the exact expected value. Hidden tests re-import this module first
  (``importlib.reload``), so a student who replaced or patched the checks in an answer cell
  gets no points for it.

>>> check_value("f'(3)", 25.0, fingerprint=fingerprint(25.0))
✔ f'(3): correct
>>> check_value("f'(3)", 27.0, fingerprint=fingerprint(25.0), hint="Differentiate every term.")
Traceback (most recent call last):
...
AssertionError: ✘ f'(3) = 27.0 is not right. Hint: Differentiate every term.
>>> check_value("f'(3)", None, fingerprint=fingerprint(25.0))
Traceback (most recent call last):
...
AssertionError: ✘ f'(3): not answered yet (replace the placeholder with your answer).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import numbers
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import minigrad as mg
from minigrad_course.i18n import _, ngettext

__all__ = [
    "fingerprint",
    "Fingerprint",
    "check_value",
    "check_equal",
    "check_grad",
    "check_grad_is_none",
    "check_function",
    "function_results",
    "compare_function_results",
    "check_raises",
    "check_gradcheck",
    "check_no_recursion",
]

CORRECT, WRONG = "✔", "✘"
DIGITS = 6  # significant digits that a numeric fingerprint keeps

# A typical wrong answer and its hint: ``(wrong_answer, "hint")``. The wrong answer is best
# given as a Fingerprint (a wrong value can give the right one away: its negation, its
# transpose, the other option of a yes/no question); a plain value or, for ``check_function``,
# a function giving the typical wrong results also works but is shown to students. For any
# check it may also be an exception class, matched when the student's code raised it.
Mistakes = Sequence[tuple[Any, str]]

_SALT = b"minigrad-course exercise fingerprint"
# Slow on purpose: guessing an answer by hashing candidates costs about 10 ms per guess.
_ROUNDS = 20_000


# --------------------------------------------------------------------------- verdicts
# Every sentence is one catalog entry with named placeholders (minigrad_course/i18n.py,
# docs/translating.md): the name, the student's value and the exercise's hint are filled in
# as they come, never translated.
def _correct(name: str) -> None:
    print(f"{CORRECT} " + _("{name}: correct").format(name=name))


def _fail(sentence: str, hint: str = "") -> None:
    """Raise the failure ``sentence`` (already in the student's language), with the hint."""
    __tracebackhide__ = True  # IPython then shows the student's cell and the message, not this file
    if hint:
        sentence = _("{sentence} Hint: {hint}").format(sentence=sentence, hint=hint)
    raise AssertionError(f"{WRONG} {sentence}")


# A problem that an exercise's own helper reports (``assert ok, "x.grad is None"``) is a
# sentence of the feedback: it gets the language's full stop unless it ends with one already.
_SENTENCE_ENDS = (".", "?", "!", "。", "？", "！")


def _problem_of(name: str, problem: AssertionError) -> str:
    if str(problem).rstrip().endswith(_SENTENCE_ENDS):
        return _("{name}: {problem}").format(name=name, problem=problem)
    return _("{name}: {problem}.").format(name=name, problem=problem)


def _unanswered(name: str) -> None:
    __tracebackhide__ = True
    sentence = _("{name}: not answered yet (replace the placeholder with your answer).")
    _fail(sentence.format(name=name))


def _still_raises(name: str) -> None:
    __tracebackhide__ = True
    sentence = _("{name}: not answered yet (the function still raises NotImplementedError).")
    _fail(sentence.format(name=name))


def _raised(name: str, error: BaseException, hint: str) -> None:
    __tracebackhide__ = True
    sentence = _("{name} raised {error_type}: {error}.")
    _fail(sentence.format(name=name, error_type=type(error).__name__, error=error), hint)


def _not_a_function(name: str, answer: Any, hint: str) -> None:
    __tracebackhide__ = True
    sentence = _("{name} should be a function, not {type}.")
    _fail(sentence.format(name=name, type=type(answer).__name__), hint)


def _at(name: str, point: Any) -> str:
    """The name of a function's result at one point: ``my_cos at 0.5``."""
    return _("{name} at {point}").format(name=name, point=repr(point))


def _one_mode(fingerprint: Any, expected: Any) -> None:
    if (fingerprint is None) == (expected is None):
        raise TypeError("give exactly one of fingerprint= (visible check) or expected= (hidden)")


@contextlib.contextmanager
def _student_code(name: str) -> Iterator[None]:
    """Run the student's code with its warnings and its writes to stderr caught.

    nbgrader fails a grade cell that writes anything to stderr, so a right answer that warns
    (or logs to stderr) would lose its points. Here they are caught and repeated on stdout,
    after the code ran, as a note the student still sees. An exception is not caught: a
    failure stays a failure, and a warning filter set to "error" still raises.
    """
    stderr = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(stderr):
        warnings.simplefilter("always")
        try:
            yield
        finally:
            notes = [f"{w.category.__name__}: {w.message}" for w in caught]
            notes += [line for line in stderr.getvalue().splitlines() if line.strip()]
            for note in dict.fromkeys(notes):  # each note once, in order
                print(note_line(name, repr(note)))


def note_line(name: str, note: str) -> str:
    """The line that repeats a warning or a write to stderr on stdout, as a note.

    >>> note_line("f", "'UserWarning: slow'")
    "note: f wrote 'UserWarning: slow' (a warning costs no marks)"
    """
    return _("note: {name} wrote {note} (a warning costs no marks)").format(name=name, note=note)


def is_note_line(line: str) -> bool:
    """Whether a printed line is a note: it begins as :func:`note_line`'s do in the language
    spoken now (with the words before the first placeholder).

    >>> is_note_line(note_line("f", "'x'")), is_note_line("✔ f: correct")
    (True, False)
    """
    opening = _("note: {name} wrote {note} (a warning costs no marks)").split("{", 1)[0]
    return line.startswith(opening.rstrip())


# --------------------------------------------------------------------------- fingerprints
def _digest(text: str) -> str:
    raw = hashlib.pbkdf2_hmac("sha256", text.encode(), _SALT, _ROUNDS)
    return raw.hex()[:12]


def _number_text(value: float, digits: int) -> str:
    if math.isnan(value):
        return "nan"
    if abs(value) < 1e-9:  # 1e-17 and -0.0 are zero for any answer here
        value = 0.0
    return f"{value:.{digits - 1}e}"


def _number_texts(value: float, digits: int) -> set[str]:
    """The texts of ``value`` and of its two neighbours a hundredth of a digit away: a value
    computed differently from the teacher's may sit just across a rounding boundary."""
    step = 10.0 ** (-digits - 1)
    return {_number_text(value * factor, digits) for factor in (1.0, 1.0 + step, 1.0 - step)}


def _as_array(value: Any) -> np.ndarray | None:
    """A numeric answer as a float64 array; None when it is not a number or array of them."""
    if isinstance(value, mg.Tensor) or (hasattr(value, "detach") and hasattr(value, "numpy")):
        value = value.detach().numpy()
    if value is None or isinstance(value, bool | str | bytes | dict | set | frozenset):
        return None
    try:
        if np.asarray(value).dtype.kind not in "iuf":  # bools, text, objects are not numbers
            return None
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):  # ragged nested lists
        return None
    return array


def _shape_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


def _canonical(value: Any) -> str:
    """Text that is equal for answers of equivalent types: a list and a tuple of the same
    items, a set and a frozenset, 3 and 3.0 (but not True and 1), a single-number tensor or
    array and its number."""
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):  # tensor(3.), array(3.)
        value = value.item()
    if value is None or isinstance(value, bool | np.bool_ | str):
        return repr(bool(value)) if isinstance(value, np.bool_) else repr(value)
    if isinstance(value, numbers.Real):  # int, float and numpy's scalars
        number = float(value)
        return repr(int(number)) if number.is_integer() else _number_text(number, DIGITS)
    if isinstance(value, list | tuple):
        return "(" + ",".join(_canonical(item) for item in value) + ")"
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(_canonical(item) for item in value)) + "}"
    if isinstance(value, dict):
        items = sorted(f"{_canonical(k)}:{_canonical(v)}" for k, v in value.items())
        return "dict{" + ",".join(items) + "}"
    return f"<{type(value).__name__}>"


def _canonical_forms(value: Any) -> set[str]:
    """The canonical texts an answer may match: a list of distinct items also counts as a set."""
    forms = {_canonical(value)}
    if isinstance(value, list | tuple):
        try:
            if len(set(value)) == len(value):
                forms.add(_canonical(set(value)))
        except TypeError:  # unhashable items
            pass
    return forms


def fingerprint(value: Any, *, digits: int = DIGITS, exact: bool | None = None) -> str:
    """The fingerprint of an expected answer, for the visible part of a grade cell.

    Numbers, lists of numbers, arrays and tensors give a numeric fingerprint (shape plus each
    entry to ``digits`` significant digits); strings, bools, sets, dicts, tuples of names give
    an exact one (``exact=True`` forces it). A teacher writes the exercise's answer, runs
    ``mc.fingerprint(answer)`` once and pastes the result into the check.

    >>> fingerprint(25.0) == fingerprint(25) != fingerprint([25.0])  # a list has a shape
    True
    >>> fingerprint({"x", "c"}) == fingerprint({"c", "x"})
    True
    """
    array = None if exact else _as_array(value)
    if array is None:
        return "eq:" + _digest(_canonical(value))
    flat = array.reshape(-1)
    entries = "-".join(_digest(f"{i}:{_number_text(v, digits)}") for i, v in enumerate(flat))
    return f"num{digits}:{_shape_text(array.shape)}:{entries}"


class Fingerprint(tuple):
    """A typical wrong answer given by its fingerprint: one for a value, one per point for a
    function (``check_function``).

    >>> Fingerprint(fingerprint(4.0), fingerprint(9.0))[1] == fingerprint(9.0)
    True
    """

    def __new__(cls, *fingerprints: str) -> Fingerprint:
        return super().__new__(cls, fingerprints)

    def __getnewargs__(self) -> tuple[str, ...]:
        """What pickle passes to ``__new__``: the fingerprints one by one, as they came (the
        key of isolated grading travels pickled)."""
        return tuple(self)


def _matches(answer: Any, fp: str) -> bool:
    """Whether an answer (value, list, array, tensor, set...) matches a fingerprint."""
    if fp.startswith("num"):
        array = _as_array(answer)
        return array is not None and _matches_number_fingerprint(array, fp)[0]
    return any("eq:" + _digest(form) == fp for form in _canonical_forms(answer))


def _matches_mistake(answer: Any, mistake: Any, tol: float) -> bool:
    if isinstance(mistake, Fingerprint):
        return len(mistake) == 1 and _matches(answer, mistake[0])
    if isinstance(mistake, type) or callable(mistake):
        return False
    wrong, got = _as_array(mistake), _as_array(answer)
    if wrong is not None and got is not None:
        return _close(got, wrong, tol)
    return _canonical(mistake) in _canonical_forms(answer)


def _matches_number_fingerprint(answer: np.ndarray, fp: str) -> tuple[bool, str]:
    """(whether ``answer`` matches, the expected shape text)."""
    kind, shape, entries = fp.split(":")
    digits = int(kind.removeprefix("num"))
    if _shape_text(answer.shape) != shape:
        return False, shape
    wanted = entries.split("-")
    for i, (value, digest) in enumerate(zip(answer.reshape(-1), wanted)):
        texts = _number_texts(float(value), digits)
        if not any(_digest(f"{i}:{text}") == digest for text in texts):
            return False, shape
    return True, shape


# --------------------------------------------------------------------------- numbers
def _close(answer: np.ndarray, expected: np.ndarray, tol: float) -> bool:
    return answer.shape == expected.shape and bool(
        np.allclose(answer, expected, rtol=tol, atol=tol, equal_nan=True)
    )


def _mistake_hint(answer: Any, mistakes: Mistakes, tol: float) -> str | None:
    for mistake, hint in mistakes:
        if _matches_mistake(answer, mistake, tol):
            return hint
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _numeric_verdict(
    name: str,
    answer: Any,
    fingerprint: str | None,
    expected: Any,
    *,
    tol: float,
    hint: str,
    mistakes: Mistakes,
) -> None:
    __tracebackhide__ = True
    got = _as_array(answer)
    if got is None:
        sentence = _(
            "{name} should be a number (or a list, array or tensor of numbers), not {type} {value}."
        )
        _fail(sentence.format(name=name, type=type(answer).__name__, value=_short(answer)), hint)
    if expected is not None:
        want = _as_array(expected)
        if want is None:
            raise TypeError(f"{name}: the expected value is not a number or an array")
        right, shape = _close(got, want, tol), _shape_text(want.shape)
    else:
        right, shape = _matches_number_fingerprint(got, fingerprint)
    if right:
        return _correct(name)
    specific = _mistake_hint(got, mistakes, tol)
    if _shape_text(got.shape) != shape:
        if shape == "":
            sentence = _("{name} has shape {shape}, but should be a single number.")
        else:
            sentence = _("{name} has shape {shape}, but should be shape {expected_shape}.")
        wanted = f"({shape.replace('x', ', ')})"
        _fail(
            sentence.format(name=name, shape=tuple(got.shape), expected_shape=wanted),
            specific or hint,
        )
    _wrong_value(name, _text(got), specific or hint)


def _wrong_value(name: str, value: str, hint: str) -> None:
    __tracebackhide__ = True
    _fail(_("{name} = {value} is not right.").format(name=name, value=value), hint)


def _text(array: np.ndarray) -> str:
    if array.ndim == 0:
        return repr(float(f"{float(array):.6g}"))
    return np.array2string(array, precision=6, separator=", ", suppress_small=True)


def check_value(
    name: str,
    answer: Any,
    *,
    fingerprint: str | None = None,
    expected: Any = None,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> None:
    """Check a number, a list of numbers, an array or a tensor.

    >>> check_value("x.grad", (2.0, 4.0), fingerprint=fingerprint([2.0, 4.0]))
    ✔ x.grad: correct
    >>> check_value("f'(3)", 27, fingerprint=fingerprint(25),
    ...             common_mistakes=[(27, "Differentiate -2x too.")])
    Traceback (most recent call last):
    ...
    AssertionError: ✘ f'(3) = 27.0 is not right. Hint: Differentiate -2x too.
    >>> check_value("x.grad", [[1, 2], [3]], expected=[1.0, 2.0, 3.0])
    Traceback (most recent call last):
    ...
    AssertionError: ✘ x.grad should be a number (or a list, array or tensor of numbers), \
not list [[1, 2], [3]].
    """
    __tracebackhide__ = True
    _one_mode(fingerprint, expected)
    if answer is None:
        _unanswered(name)
    _numeric_verdict(
        name, answer, fingerprint, expected, tol=tol, hint=hint, mistakes=common_mistakes
    )


def check_equal(
    name: str,
    answer: Any,
    *,
    fingerprint: str | None = None,
    expected: Any = None,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> None:
    """Check an answer that must be exactly right: a string, a bool, a count, a set, a dict...

    Equivalent types count: a list or tuple for a tuple, a list of distinct items for a set,
    3.0 for 3 (but ``True`` is not ``1``).

    >>> check_equal("leaves", ["x", "c"], fingerprint=fingerprint({"c", "x"}))
    ✔ leaves: correct
    >>> check_equal("z.grad_fn.name()", "MulBackward0", expected="SinBackward0",
    ...             hint="The last operation made z.")
    Traceback (most recent call last):
    ...
    AssertionError: ✘ z.grad_fn.name() = 'MulBackward0' is not right. Hint: The last operation \
made z.
    """
    __tracebackhide__ = True
    _one_mode(fingerprint, expected)
    if answer is None:
        _unanswered(name)
    if expected is not None:
        right = _canonical(expected) in _canonical_forms(answer)
    else:
        right = _matches(answer, fingerprint)
    if right:
        return _correct(name)
    specific = _mistake_hint(answer, common_mistakes, 0.0) or hint
    _wrong_value(name, _short(answer), specific)


# --------------------------------------------------------------------------- gradients
def _tensor_or_fail(name: str, tensor: Any, hint: str) -> None:
    __tracebackhide__ = True
    if tensor is None:
        _unanswered(name)
    if not isinstance(tensor, mg.Tensor):
        sentence = _("{name} should be a tensor, not {type}.")
        _fail(sentence.format(name=name, type=type(tensor).__name__), hint)


def check_grad(
    name: str,
    tensor: Any,
    *,
    fingerprint: str | None = None,
    expected: Any = None,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> None:
    """Check the ``.grad`` of ``tensor``: it must exist and hold the expected values.

    >>> w = mg.tensor([1.0, 2.0])  # forgot requires_grad=True
    >>> check_grad("w.grad", w, expected=[2.0, 4.0])
    Traceback (most recent call last):
    ...
    AssertionError: ✘ w.grad is None: it was never computed. Create the tensor with \
requires_grad=True, then call backward() on a result that depends on it.
    """
    __tracebackhide__ = True
    _one_mode(fingerprint, expected)
    _tensor_or_fail(name, tensor, hint)
    if tensor.grad is None:
        if not tensor.requires_grad:
            sentence = _(
                "{name} is None: it was never computed. Create the tensor with "
                "requires_grad=True, then call backward() on a result that depends on it."
            )
        else:
            sentence = _(
                "{name} is None: it was never computed: call backward() on a result that "
                "depends on the tensor."
            )
        _fail(sentence.format(name=name), hint)
    _numeric_verdict(
        name, tensor.grad, fingerprint, expected, tol=tol, hint=hint, mistakes=common_mistakes
    )


def check_grad_is_none(name: str, tensor: Any, *, hint: str = "") -> None:
    """Check that ``tensor.grad`` is None (never computed, or reset with ``.grad = None``).

    >>> w = mg.tensor(1.0, requires_grad=True)
    >>> (3 * w).backward()
    >>> check_grad_is_none("w.grad", w, hint="Reset it.")
    Traceback (most recent call last):
    ...
    AssertionError: ✘ w.grad should be None, not tensor(3.). Hint: Reset it.
    """
    __tracebackhide__ = True
    _tensor_or_fail(name, tensor, hint)
    if tensor.grad is not None:
        sentence = _("{name} should be None, not {value}.")
        _fail(sentence.format(name=name, value=repr(tensor.grad)), hint)
    _correct(name)


# --------------------------------------------------------------------------- functions
def _error_hint(error: BaseException, mistakes: Mistakes, hint: str) -> str:
    for mistake, specific in mistakes:
        if isinstance(mistake, type) and isinstance(error, mistake):
            return specific
    return hint


def _forbidding(
    use: Callable[[Callable[..., Any], Any], Any], forbidden: Sequence[Callable[..., Any]]
) -> Callable[[Callable[..., Any], Any], Any]:
    """``use`` that raises AssertionError when a forbidden function ran during it."""

    def watched(function: Callable[..., Any], point: Any) -> Any:
        watch = _CallWatch(forbidden)
        result = watch.run(lambda: use(function, point))
        if watch.used:
            message = _("it uses {functions}, which this exercise rules out")
            raise AssertionError(message.format(functions=", ".join(watch.used)))
        return result

    return watched


def _call_all(name, function, points, use, mistakes, hint) -> list[Any]:
    __tracebackhide__ = True
    results = []
    for point in points:
        try:
            with _student_code(_at(name, point)):
                results.append(use(function, point))
        except NotImplementedError:
            _still_raises(name)
        except AssertionError as problem:  # the `call` found something wrong with the result
            _fail(_problem_of(_at(name, point), problem), hint)
        except Exception as error:  # noqa: BLE001 - the student's error is the feedback
            _raised(_at(name, point), error, _error_hint(error, mistakes, hint))
    return results


def check_function(
    name: str,
    answer: Callable[..., Any] | None,
    *,
    points: Sequence[Any],
    fingerprints: Sequence[str] | None = None,
    expected: Sequence[Any] | None = None,
    call: Callable[[Callable[..., Any], Any], Any] | None = None,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
    forbidden: Sequence[Callable[..., Any]] = (),
) -> None:
    """Check a function the student wrote at several ``points``.

    ``call(answer, point)`` says how to use the answer at a point (default ``answer(point)``);
    it may raise ``AssertionError`` to report a wrong side effect. A common mistake here is a
    *function* giving the typical wrong results (or an exception class). ``forbidden`` lists
    ready-made functions that the exercise rules out: the answer fails if one of them runs
    while it is used, however it was reached.

    >>> import math
    >>> check_function("my_cos", math.sin, points=[0.0, 1.0], expected=[1.0, math.cos(1.0)])
    Traceback (most recent call last):
    ...
    AssertionError: ✘ my_cos at 0.0 = 0.0 is not right.
    """
    __tracebackhide__ = True
    _one_mode(fingerprints, expected)
    use = call if call is not None else (lambda function, point: function(point))
    results = function_results(name, answer, points, use, forbidden, common_mistakes, hint)
    compare_function_results(
        name,
        points,
        results,
        fingerprints=fingerprints,
        expected=expected,
        tol=tol,
        hint=hint,
        common_mistakes=common_mistakes,
        use=use,
    )


def function_results(
    name: str,
    answer: Callable[..., Any] | None,
    points: Sequence[Any],
    use: Callable[[Callable[..., Any], Any], Any],
    forbidden: Sequence[Callable[..., Any]] = (),
    common_mistakes: Mistakes = (),
    hint: str = "",
) -> list[np.ndarray]:
    """The first half of :func:`check_function`: the answer used at every point, each result
    as an array of numbers. It runs the student's code, so isolated grading runs it in the
    student's process and hands the arrays over as data.

    >>> function_results("double", lambda x: 2 * x, [1.0, 2.5], lambda f, p: f(p))
    [array(2.), array(5.)]
    """
    __tracebackhide__ = True
    if answer is None:
        _unanswered(name)
    if not callable(answer):
        _not_a_function(name, answer, hint)
    if forbidden:
        use = _forbidding(use, forbidden)
    results = _call_all(name, answer, points, use, common_mistakes, hint)
    arrays = []
    for point, got in zip(points, results):
        if got is None:
            sentence = _("{name} returned None: did you forget `return`?")
            _fail(sentence.format(name=_at(name, point)), hint)
        array = _as_array(got)
        if array is None:
            sentence = _("{name} should give numbers, not {type} {value}.")
            _fail(
                sentence.format(name=_at(name, point), type=type(got).__name__, value=_short(got)),
                hint,
            )
        arrays.append(array)
    return arrays


def compare_function_results(
    name: str,
    points: Sequence[Any],
    results: Sequence[np.ndarray],
    *,
    fingerprints: Sequence[str] | None = None,
    expected: Sequence[Any] | None = None,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
    use: Callable[[Callable[..., Any], Any], Any] | None = None,
) -> None:
    """The second half of :func:`check_function`: the results compared with the expected
    ones. It runs no student code (a typical mistake given as a function needs ``use``).

    >>> compare_function_results("double", [1.0], [np.array(3.0)], expected=[2.0])
    Traceback (most recent call last):
    ...
    AssertionError: ✘ double at 1.0 = 3.0 is not right.
    """
    __tracebackhide__ = True
    _one_mode(fingerprints, expected)
    if len(results) != len(points):
        sentence = _("{name} gave {results} results for {points} points.")
        _fail(sentence.format(name=name, results=len(results), points=len(points)), hint)
    wanted = expected if expected is not None else fingerprints
    wrong = []
    for point, array, want in zip(points, results, wanted):
        if expected is not None:
            want_array = _as_array(want)
            right = want_array is not None and _close(array, want_array, tol)
        else:
            right = _matches_number_fingerprint(array, want)[0]
        if not right:
            wrong.append((point, array))
    if not wrong:
        return _correct(name)
    specific = hint
    for mistake, mistake_hint in common_mistakes:
        if isinstance(mistake, Fingerprint):
            if len(mistake) == len(results) and all(map(_matches, results, mistake)):
                specific = mistake_hint
                break
            continue
        if isinstance(mistake, type) or not callable(mistake) or use is None:
            continue
        try:
            typical = [_as_array(use(mistake, point)) for point in points]
        except Exception:  # noqa: BLE001 - a mistake that cannot run matches nothing
            continue
        if all(t is not None and _close(r, t, tol) for r, t in zip(results, typical)):
            specific = mistake_hint
            break
    point, array = wrong[0]
    _wrong_value(_at(name, point), _text(array), specific)


def check_raises(
    name: str,
    action: Callable[[], Any] | None,
    exception: type[BaseException],
    *,
    match: str = "",
    hint: str = "",
) -> None:
    """Check that calling ``action()`` raises ``exception`` with ``match`` in its message.

    >>> check_raises("dividing by zero", lambda: 1 / 0, ZeroDivisionError)
    ✔ dividing by zero: correct
    """
    __tracebackhide__ = True
    if action is None:
        _unanswered(name)
    if not callable(action):
        _not_a_function(name, action, hint)
    try:
        with _student_code(name):
            action()
    except NotImplementedError:
        _still_raises(name)
    except exception as error:
        if match in str(error):
            return _correct(name)
        sentence = _("{name} raised {error_type}, with another message: {error}")
        _fail(sentence.format(name=name, error_type=type(error).__name__, error=error), hint)
    except Exception as error:  # noqa: BLE001 - the wrong error is the feedback
        _raised(name, error, hint)
    _fail(_("{name} raised nothing.").format(name=name), hint)


def check_gradcheck(name: str, answer: Any, inputs: Sequence[mg.Tensor], *, hint: str = "") -> None:
    """Check with ``gradcheck`` that ``answer``'s backward agrees with finite differences.

    ``answer`` is a function of tensors, or a ``mg.autograd.Function`` subclass (its ``apply``
    is used). The ``inputs`` should be float64 tensors with ``requires_grad=True``.

    >>> x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    >>> check_gradcheck("x.sin()", lambda t: t.sin(), [x])
    ✔ x.sin(): correct
    """
    __tracebackhide__ = True
    if answer is None:
        _unanswered(name)
    is_function_class = isinstance(answer, type) and issubclass(answer, mg.autograd.Function)
    func = answer.apply if is_function_class else answer
    if not callable(func):
        sentence = _("{name} should be a function or a Function class, not {value}.")
        _fail(sentence.format(name=name, value=_short(answer)), hint)
    try:
        with _student_code(name):
            passed = mg.autograd.gradcheck(func, list(inputs), raise_exception=False)
    except NotImplementedError:
        sentence = _("{name}: not answered yet (its code still raises NotImplementedError).")
        _fail(sentence.format(name=name))
    except Exception as error:  # noqa: BLE001 - the student's error is the feedback
        _raised(name, error, hint)
    if not passed:
        sentence = _("{name} fails gradcheck: its backward disagrees with finite differences.")
        _fail(sentence.format(name=name), hint)
    _correct(name)


class _CallWatch:
    """A profile hook that watches the Python calls made while it is on: how deep they go,
    and which of some ``forbidden`` functions ran (matched by their code object, so an
    alias, an import under another name or a call from a helper is seen too).

    >>> watch = _CallWatch(forbidden=[len])  # a builtin has no code object: ignored
    >>> watch.run(lambda: sum(range(3)))
    3
    >>> watch.deepest, watch.used
    (1, [])
    """

    def __init__(self, forbidden: Sequence[Callable[..., Any]] = ()) -> None:
        self.forbidden = {
            function.__code__: function.__qualname__
            for function in forbidden
            if hasattr(function, "__code__")
        }
        self.depth = self.deepest = 0
        self.used: list[str] = []

    def _count(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            self.depth += 1
            self.deepest = max(self.deepest, self.depth)
            name = self.forbidden.get(frame.f_code)
            if name is not None and name not in self.used:
                self.used.append(name)
        elif event == "return":
            self.depth -= 1

    def run(self, action: Callable[[], Any]) -> Any:
        """``action()`` under the watch; AssertionError if the action switched it off."""
        self.depth = self.deepest = 0
        previous = sys.getprofile()
        sys.setprofile(self._count)
        try:
            result = action()
            still_watching = sys.getprofile() == self._count
        finally:
            sys.setprofile(previous)
        if not still_watching:
            raise AssertionError(_("it switched off the profiler that watches its calls"))
        return result


def check_no_recursion(
    name: str,
    answer: Callable[..., Any] | None,
    *,
    make_input: Callable[[int], Any],
    sizes: tuple[int, int] = (10, 300),
    hint: str = "",
) -> None:
    """Check that ``answer`` does not call itself: how deep its calls go must not grow with
    the size of its input (``make_input(size)`` for the two ``sizes``).

    The depth of the call stack is measured while the answer runs, rather than reading its
    code for a self-call, so recursion through a renamed helper, a nested function or two
    functions calling each other is caught too; a loop with a list as a stack stays flat.

    >>> def count_down(n):
    ...     return 0 if n == 0 else count_down(n - 1)
    >>> check_no_recursion("count_down", count_down, make_input=lambda n: n)
    Traceback (most recent call last):
    ...
    AssertionError: ✘ count_down calls itself: its calls go 290 levels deeper for an input \
of size 300 than for size 10.
    >>> check_no_recursion("sum", lambda n: sum(range(n)), make_input=lambda n: n)
    ✔ sum: correct
    """
    __tracebackhide__ = True
    if answer is None:
        _unanswered(name)
    if not callable(answer):
        _not_a_function(name, answer, hint)
    small, large = sizes
    depths = []
    for size in sizes:
        try:
            with _student_code(name):
                watch = _CallWatch()
                argument = make_input(size)
                watch.run(lambda: answer(argument))  # noqa: B023 - run before the next size
                depths.append(watch.deepest)
        except NotImplementedError:
            _still_raises(name)
        except RecursionError:
            depths.append(sys.getrecursionlimit())
        except AssertionError as problem:
            _fail(_problem_of(name, problem), hint)
        except Exception as error:  # noqa: BLE001 - the student's error is the feedback
            _raised(name, error, hint)
    growth = depths[1] - depths[0]
    # A loop's depth does not depend on the size; recursion adds a level per item or more.
    if growth > (large - small) // 4:
        # TRANSLATORS: both English forms say "levels", as this message always has.
        sentence = ngettext(
            "{name} calls itself: its calls go {growth} levels deeper for an input of size "
            "{large} than for size {small}.",
            "{name} calls itself: its calls go {growth} levels deeper for an input of size "
            "{large} than for size {small}.",
            growth,
        )
        _fail(sentence.format(name=name, growth=growth, large=large, small=small), hint)
    _correct(name)
