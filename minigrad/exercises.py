"""Checks for the exercise notebooks: immediate, specific feedback instead of an assertion trace.

Every ``check_*`` function compares a student's answer with the expected one, prints one line,
and returns ``True`` when the answer is right:

* ``✔ dy/dx at x = 2: correct``
* ``✘ dy/dx at x = 2 is 5.0 but should be 4.0 (off by 1.0). Hint: ...``
* ``… dy/dx at x = 2: not yet solved (replace None with your answer)``, when the answer is
  still the ``None`` placeholder of the student version.

The hint is the most specific one available: when the answer equals one of the
``common_mistakes`` (a typical wrong answer, given with its own hint), that hint is printed,
otherwise the general ``hint``.

Autograding. With the environment variable ``MINIGRAD_AUTOGRADE=1`` (for example
``MINIGRAD_AUTOGRADE=1 nbgrader autograde ps1``) a check that is not passed raises
``AssertionError`` with the same message after printing it, so the grader scores that test cell
as failed. Without it nothing is raised: an unfinished notebook runs to the end.

>>> check_value("dy/dx at x = 2", 4.0, expected=4.0)
✔ dy/dx at x = 2: correct
True
>>> check_value("dy/dx at x = 2", 5.0, expected=4.0, hint="d(x²)/dx = 2x.")
✘ dy/dx at x = 2 is 5.0 but should be 4.0 (off by 1.0). Hint: d(x²)/dx = 2x.
False
>>> check_value("dy/dx at x = 2", None, expected=4.0)
… dy/dx at x = 2: not yet solved (replace None with your answer)
False
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .autograd import Function, GradcheckError, gradcheck
from .tensor import Tensor

__all__ = [
    "check_value",
    "check_equal",
    "check_shape",
    "check_grad",
    "check_grad_is_none",
    "check_function",
    "check_raises",
    "check_gradcheck",
    "graph_nodes",
    "raises",
]

AUTOGRADE_VARIABLE = "MINIGRAD_AUTOGRADE"
CORRECT, WRONG, UNSOLVED = "✔", "✘", "…"

# A typical wrong answer and the hint it deserves: ``(wrong_value, "hint")``. For
# ``check_function`` the wrong answer is a function; for any check it may also be an exception
# class, matched when the student's code raised that exception.
Mistakes = Sequence[tuple[Any, str]]


# --------------------------------------------------------------------------- reporting
def _autograding() -> bool:
    return os.environ.get(AUTOGRADE_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def _report(symbol: str, message: str, hint: str = "") -> bool:
    """Print one feedback line; in autograde mode a failure also raises ``AssertionError``."""
    line = f"{symbol} {message}"
    if hint and symbol == WRONG:
        line += f" Hint: {hint}"
    print(line)
    if symbol != CORRECT and _autograding():
        raise AssertionError(line)
    return symbol == CORRECT


def _correct(name: str) -> bool:
    return _report(CORRECT, f"{name}: correct")


def _unsolved(name: str, what: str = "replace None with your answer") -> bool:
    return _report(UNSOLVED, f"{name}: not yet solved ({what})")


def _wrong(name: str, message: str, hint: str) -> bool:
    return _report(WRONG, f"{name} {message}", hint)


def _error_hint(error: BaseException, mistakes: Mistakes, hint: str) -> str:
    for mistake, specific in mistakes:
        if isinstance(mistake, type) and isinstance(error, mistake):
            return specific
    return hint


def _raised(name: str, error: BaseException, mistakes: Mistakes, hint: str) -> bool:
    if isinstance(error, NotImplementedError):
        return _unsolved(name, "your code raises NotImplementedError")
    message = f"raised {type(error).__name__}: {error}."
    return _wrong(name, message, _error_hint(error, mistakes, hint))


# --------------------------------------------------------------------------- numbers
def _as_array(value: Any) -> np.ndarray | None:
    """A numeric answer as a float64 array, or None when it is not a number or array of them."""
    if isinstance(value, Tensor):
        value = value.detach().numpy()
    elif hasattr(value, "detach") and hasattr(value, "numpy"):  # e.g. a torch tensor
        value = value.detach().numpy()
    if isinstance(value, bool | str | bytes) or value is None:
        return None
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return array


def _text(array: np.ndarray) -> str:
    """Short, stable text for a number or an array: 6 significant digits."""
    if array.ndim == 0:
        return repr(float(f"{float(array):.6g}"))
    return np.array2string(array, precision=6, separator=", ", suppress_small=True)


def _close(answer: np.ndarray, expected: np.ndarray, tol: float) -> bool:
    return answer.shape == expected.shape and bool(
        np.allclose(answer, expected, rtol=tol, atol=tol, equal_nan=True)
    )


def _shape_text(shape: tuple[int, ...]) -> str:
    return "()" if shape == () else str(tuple(shape))


def _mistake_hint(answer: np.ndarray, mistakes: Mistakes, hint: str, tol: float) -> str:
    for mistake, specific in mistakes:
        if isinstance(mistake, type):
            continue
        wrong = _as_array(mistake)
        if wrong is not None and _close(answer, wrong, tol):
            return specific
    return hint


def _compare_numbers(
    name: str, answer: Any, expected: Any, tol: float, hint: str, mistakes: Mistakes
) -> bool:
    got = _as_array(answer)
    want = _as_array(expected)
    if want is None:
        raise TypeError(f"{name}: the expected value {expected!r} is not a number or an array")
    if got is None:
        kind = "a number" if want.ndim == 0 else f"an array of shape {_shape_text(want.shape)}"
        return _wrong(name, f"should be {kind}, not {type(answer).__name__} {answer!r}.", hint)
    if got.shape != want.shape:
        return _wrong(
            name,
            f"has shape {_shape_text(got.shape)} but should have shape {_shape_text(want.shape)}.",
            _mistake_hint(got, mistakes, hint, tol),
        )
    if _close(got, want, tol):
        return _correct(name)
    specific = _mistake_hint(got, mistakes, hint, tol)
    if want.ndim == 0:
        off = _text(np.abs(got - want))
        return _wrong(
            name, f"is {_text(got)} but should be {_text(want)} (off by {off}).", specific
        )
    errors = np.abs(got - want)
    worst = np.unravel_index(np.nanargmax(np.nan_to_num(errors, nan=np.inf)), errors.shape)
    where = list(int(i) for i in worst)
    return _wrong(
        name,
        f"is {_text(got)} but should be {_text(want)} "
        f"(largest difference {_text(errors[worst])} at index {where}).",
        specific,
    )


def check_value(
    name: str,
    answer: Any,
    expected: Any,
    *,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> bool:
    """Check a number, a list of numbers, an array or a tensor, up to ``tol``.

    The shapes must agree; the values must agree within ``tol`` (relative and absolute).

    >>> check_value("x.grad", [2.0, 4.0], expected=[2.0, 2.0])
    ✘ x.grad is [2., 4.] but should be [2., 2.] (largest difference 2.0 at index [1]).
    False
    >>> check_value("f'(3)", 27, expected=25, common_mistakes=[(27, "Differentiate -2x too.")])
    ✘ f'(3) is 27.0 but should be 25.0 (off by 2.0). Hint: Differentiate -2x too.
    False
    """
    if answer is None:
        return _unsolved(name)
    return _compare_numbers(name, answer, expected, tol, hint, common_mistakes)


def check_equal(
    name: str, answer: Any, expected: Any, *, hint: str = "", common_mistakes: Mistakes = ()
) -> bool:
    """Check an answer that must be exactly ``expected``: a string, a bool, an int, a set...

    >>> check_equal("z.grad_fn.name()", "MulBackward0", expected="SinBackward0")
    ✘ z.grad_fn.name() is 'MulBackward0' but should be 'SinBackward0'.
    False
    """
    if answer is None:
        return _unsolved(name)
    if type(answer) is type(expected) and answer == expected:
        return _correct(name)
    if isinstance(answer, int | float) and isinstance(expected, int | float):
        same_kind = not isinstance(answer, bool) and not isinstance(expected, bool)
        if same_kind and answer == expected:
            return _correct(name)
    specific = hint
    for mistake, mistake_hint in common_mistakes:
        if type(mistake) is type(answer) and mistake == answer:
            specific = mistake_hint
            break
    return _wrong(name, f"is {answer!r} but should be {expected!r}.", specific)


def check_shape(name: str, answer: Any, expected_shape: Iterable[int], *, hint: str = "") -> bool:
    """Check the shape of a tensor or array (or a shape given directly as a tuple or ``Size``).

    >>> import minigrad as mg
    >>> check_shape("the gradient", mg.zeros(2, 3), expected_shape=(2, 3))
    ✔ the gradient: correct
    True
    """
    if answer is None:
        return _unsolved(name)
    want = tuple(int(n) for n in expected_shape)
    if isinstance(answer, tuple | list):  # a shape written out, or a torch-style Size
        got = tuple(answer)
    elif hasattr(answer, "shape"):
        got = tuple(answer.shape)
    else:
        return _wrong(name, f"should be a tensor or a shape, not {type(answer).__name__}.", hint)
    if got == want:
        return _correct(name)
    message = f"has shape {_shape_text(got)} but should have shape {_shape_text(want)}."
    return _wrong(name, message, hint)


# --------------------------------------------------------------------------- gradients
def _not_a_tensor(name: str, answer: Any, hint: str) -> bool:
    return _wrong(name, f"should be a tensor, not {type(answer).__name__}.", hint)


def check_grad(
    name: str,
    tensor: Any,
    expected: Any,
    *,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> bool:
    """Check the ``.grad`` of ``tensor``: it must exist, have the right shape and values.

    >>> import minigrad as mg
    >>> w = mg.tensor([1.0, 2.0])  # forgot requires_grad=True
    >>> check_grad("w.grad", w, expected=[2.0, 4.0])
    ✘ w.grad is None: w.grad was never computed. Create the tensor with requires_grad=True, \
then call backward() on a result that depends on it.
    False
    """
    if tensor is None:
        return _unsolved(name)
    if not isinstance(tensor, Tensor):
        return _not_a_tensor(name, tensor, hint)
    if tensor.grad is None:
        why = (
            "was never computed. Create the tensor with requires_grad=True, then call "
            "backward() on a result that depends on it."
            if not tensor.requires_grad
            else "was never computed: call backward() on a result that depends on the tensor."
        )
        return _wrong(name, f"is None: {name} {why}", hint)
    return _compare_numbers(name, tensor.grad, expected, tol, hint, common_mistakes)


def check_grad_is_none(name: str, tensor: Any, *, hint: str = "") -> bool:
    """Check that ``tensor.grad`` is None (no gradient stored, or reset with ``.grad = None``).

    >>> import minigrad as mg
    >>> w = mg.tensor(1.0, requires_grad=True)
    >>> (3 * w).backward()
    >>> check_grad_is_none("w.grad", w, hint="Set it to None.")
    ✘ w.grad is tensor(3.) but should be None. Hint: Set it to None.
    False
    """
    if tensor is None:
        return _unsolved(name)
    if not isinstance(tensor, Tensor):
        return _not_a_tensor(name, tensor, hint)
    if tensor.grad is None:
        return _correct(name)
    return _wrong(name, f"is {tensor.grad!r} but should be None.", hint)


def check_function(
    name: str,
    answer: Callable[..., Any] | None,
    expected: Callable[[Any], Any],
    points: Sequence[Any],
    *,
    call: Callable[[Callable[..., Any], Any], Any] | None = None,
    tol: float = 1e-6,
    hint: str = "",
    common_mistakes: Mistakes = (),
) -> bool:
    """Check a function written by the student at several points against ``expected(point)``.

    ``call(answer, point)`` says how to use the answer at a point; by default ``answer(point)``.
    A common mistake here is a *function* giving the typical wrong result (or an exception
    class); its hint is printed when the answer agrees with it at every point.

    >>> import math
    >>> check_function("my_cos", math.sin, expected=math.cos, points=[0.0, 1.0])
    ✘ my_cos at 0.0 is 0.0 but should be 1.0 (off by 1.0).
    False
    """
    if answer is None:
        return _unsolved(name)
    if not callable(answer):
        return _wrong(name, f"should be a function, not {type(answer).__name__}.", hint)
    use = call if call is not None else (lambda function, point: function(point))
    results = []
    for point in points:
        try:
            results.append(use(answer, point))
        except Exception as error:  # noqa: BLE001 - the student's error is the feedback
            return _raised(f"{name} at {point!r}", error, common_mistakes, hint)
    wanted = [expected(point) for point in points]
    for point, got in zip(points, results):
        if got is None:
            return _wrong(f"{name} at {point!r}", "returned None: did you forget `return`?", hint)
    wrong_points = [
        (point, got, want)
        for point, got, want in zip(points, results, wanted)
        if _as_array(got) is None or not _close(_as_array(got), _as_array(want), tol)
    ]
    if not wrong_points:
        return _correct(name)
    specific = hint
    for mistake, mistake_hint in common_mistakes:
        if isinstance(mistake, type) or not callable(mistake):
            continue
        try:
            typical = [use(mistake, point) for point in points]
        except Exception:  # noqa: BLE001 - a mistake that raises here is not this answer
            continue
        if all(
            _as_array(got) is not None and _close(_as_array(got), _as_array(bad), tol)
            for got, bad in zip(results, typical)
        ):
            specific = mistake_hint
            break
    point, got, want = wrong_points[0]
    return _compare_numbers(f"{name} at {point!r}", got, want, tol, specific, ())


def check_raises(
    name: str,
    action: Callable[[], Any] | None,
    exception: type[BaseException],
    *,
    match: str = "",
    hint: str = "",
) -> bool:
    """Check that calling ``action()`` raises ``exception`` (with ``match`` in its message).

    >>> check_raises("dividing by zero", lambda: 1 / 0, ZeroDivisionError)
    ✔ dividing by zero: correct
    True
    >>> check_raises("dividing by zero", lambda: 1 / 2, ZeroDivisionError)
    ✘ dividing by zero raised nothing, but should raise ZeroDivisionError.
    False
    """
    if action is None:
        return _unsolved(name)
    if not callable(action):
        return _wrong(name, f"should be a function, not {type(action).__name__}.", hint)
    try:
        action()
    except exception as error:
        if match in str(error):
            return _correct(name)
        message = (
            f"raised {type(error).__name__}: {error}, but the message should contain {match!r}."
        )
        return _wrong(name, message, hint)
    except Exception as error:  # noqa: BLE001 - the wrong error is the feedback
        message = f"raised {type(error).__name__}: {error}, but should raise {exception.__name__}."
        return _wrong(name, message, hint)
    return _wrong(name, f"raised nothing, but should raise {exception.__name__}.", hint)


def check_gradcheck(name: str, answer: Any, inputs: Sequence[Tensor], *, hint: str = "") -> bool:
    """Check with ``gradcheck`` that ``answer``'s backward agrees with finite differences.

    ``answer`` is a function of tensors, or a ``Function`` subclass (its ``apply`` is used).
    The ``inputs`` should be float64 tensors with ``requires_grad=True``.

    >>> import minigrad as mg
    >>> x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    >>> check_gradcheck("x.sin()", lambda t: t.sin(), [x])
    ✔ x.sin(): correct
    True
    """
    if answer is None:
        return _unsolved(name)
    func = answer.apply if isinstance(answer, type) and issubclass(answer, Function) else answer
    if not callable(func):
        return _wrong(name, f"should be a function or a Function class, not {answer!r}.", hint)
    try:
        gradcheck(func, list(inputs))
    except GradcheckError as error:
        details = " ".join(str(error).split())
        return _wrong(name, f"fails gradcheck: {details}.", hint)
    except Exception as error:  # noqa: BLE001 - the student's error is the feedback
        return _raised(name, error, (), hint)
    return _correct(name)


# ----------------------------------------------------------------- helpers for check cells
def graph_nodes(tensor: Tensor) -> list[Any]:
    """The distinct nodes of the graph that produced ``tensor``, output first (depth first).

    A node reached along two paths (a leaf used twice) is listed once.

    >>> import minigrad as mg
    >>> a = mg.tensor(1.0, requires_grad=True)
    >>> [node.name() for node in graph_nodes(a * a + 1)]
    ['AddBackward0', 'MulBackward0', 'AccumulateGrad']
    """
    seen: list[Any] = []
    stack = [tensor.grad_fn] if tensor.grad_fn is not None else []
    while stack:
        node = stack.pop()
        if any(node is other for other in seen):
            continue
        seen.append(node)
        children = [child for child, _ in node.next_functions if child is not None]
        stack.extend(reversed(children))
    return seen


def raises(action: Callable[[], Any], exception: type[BaseException] = Exception) -> bool:
    """Whether calling ``action()`` raises ``exception``: for computing expected answers.

    >>> raises(lambda: 1 / 0, ZeroDivisionError), raises(lambda: 1 / 2, ZeroDivisionError)
    (True, False)
    """
    try:
        action()
    except exception:
        return True
    return False
