"""minigrad_course.checks: a wrong answer always raises, with a hint and never the answer.

Fast, in-process tests of the helpers that the grade cells call; test_round_trip.py runs them
under nbgrader itself.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad_course import checks as mc
from minigrad_course.checks import Fingerprint, fingerprint


def fails(check, *args, **kwargs) -> str:
    with pytest.raises(AssertionError) as caught:
        check(*args, **kwargs)
    return str(caught.value)


# --------------------------------------------------------------------------- verdicts
def test_a_right_answer_prints_one_line_and_raises_nothing(capsys):
    assert mc.check_value("f'(3)", 25.0, fingerprint=fingerprint(25.0)) is None
    assert capsys.readouterr().out == "✔ f'(3): correct\n"


@pytest.mark.parametrize("setting", ["0", "1", "false", ""])
def test_no_environment_variable_switches_a_check_off(monkeypatch, setting):
    for variable in ("MINIGRAD_AUTOGRADE", "NBGRADER_EXECUTION"):
        monkeypatch.setenv(variable, setting)
    message = fails(mc.check_value, "f'(3)", 27.0, fingerprint=fingerprint(25.0), hint="Look.")
    assert message == "✘ f'(3) = 27.0 is not right. Hint: Look."


@pytest.mark.parametrize(
    "expected",
    [
        25.0,
        7.25,
        -0.00123456,
        123456.789,
        math.pi,
        [2.125, 4.375, 6.5],
        [[3.25, 2.625], [1.75, 4.125]],
    ],
)
def test_a_wrong_answer_never_shows_the_expected_value(expected):
    wrong = np.asarray(expected) * 1.37 + 0.11
    for mode in ({"fingerprint": fingerprint(expected)}, {"expected": expected}):
        message = fails(mc.check_value, "the answer", wrong, **mode)
        for value in np.ravel(expected):
            for text in {repr(float(value)), f"{value:.6g}", f"{value:.4g}"}:
                assert text not in message, (text, message)
    # nor does the fingerprint itself (hexadecimal digests after the shape)
    assert re.fullmatch(r"num6:[0-9x]*:[0-9a-f]{12}(-[0-9a-f]{12})*", fingerprint(expected))


def test_the_common_mistake_gets_its_own_hint_the_rest_the_general_one():
    mistakes = [(Fingerprint(fingerprint(27.0)), "Differentiate -2x too.")]
    kwargs = {"fingerprint": fingerprint(25.0), "hint": "General.", "common_mistakes": mistakes}
    assert fails(mc.check_value, "f'(3)", 27, **kwargs).endswith("Hint: Differentiate -2x too.")
    assert fails(mc.check_value, "f'(3)", 26, **kwargs).endswith("Hint: General.")


def test_an_unanswered_exercise_says_so():
    assert "not answered yet" in fails(mc.check_value, "x", None, fingerprint=fingerprint(1.0))
    assert "not answered yet" in fails(mc.check_equal, "x", None, fingerprint=fingerprint("a"))

    def stub(x):
        raise NotImplementedError()

    message = fails(mc.check_function, "f", stub, points=[1.0], fingerprints=[fingerprint(1.0)])
    assert "not answered yet" in message


def test_exactly_one_mode_is_given():
    with pytest.raises(TypeError, match="exactly one"):
        mc.check_value("x", 1.0)
    with pytest.raises(TypeError, match="exactly one"):
        mc.check_value("x", 1.0, fingerprint=fingerprint(1.0), expected=1.0)


# --------------------------------------------------------------------------- fingerprints
def test_a_value_computed_another_way_matches_the_fingerprint():
    mc.check_value("sum", 0.1 + 0.2, fingerprint=fingerprint(0.3))
    mc.check_value("log", 2**3 * math.log(2), fingerprint=fingerprint(5.545177444479562))
    mc.check_value("zero", 1e-17, fingerprint=fingerprint(0.0))
    mc.check_value("negative zero", -0.0, fingerprint=fingerprint(0.0))
    # A value just across a rounding boundary of the sixth digit still matches.
    mc.check_value("boundary", 1.2345649999999, fingerprint=fingerprint(1.234565000000001))


def test_a_value_off_in_the_fifth_digit_does_not_match():
    fails(mc.check_value, "x", 1.00002, fingerprint=fingerprint(1.0))
    fails(mc.check_value, "x", 25.001, fingerprint=fingerprint(25.0))


def test_fingerprints_are_stable_and_keep_shapes_apart():
    assert fingerprint(25.0) == fingerprint(25) == fingerprint(np.float64(25.0))
    assert fingerprint([1.0, 2.0]) == fingerprint(mg.tensor([1.0, 2.0]))
    assert fingerprint([1.0, 2.0]) != fingerprint([[1.0, 2.0]])
    assert fingerprint({"x", "c"}) == fingerprint({"c", "x"}) != fingerprint({"x"})
    assert fingerprint(True) != fingerprint(1)
    message = fails(mc.check_value, "J", [[1.0, 2.0]], fingerprint=fingerprint([[1.0], [2.0]]))
    assert "has shape (1, 2), but should be shape (2, 1)" in message


# --------------------------------------------------------------------------- equivalent types
@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (["MulBackward0", None], ("MulBackward0", None)),  # a list where a tuple was asked
        (("x", "c", "d"), {"x", "c", "d"}),  # names in a tuple where a set was asked
        (["x", "c", "d"], frozenset({"x", "c", "d"})),
        (3.0, 3),
        (np.int64(3), 3),
        ([False, True], (False, True)),
    ],
)
def test_answers_of_an_equivalent_type_are_accepted(answer, expected):
    mc.check_equal("answer", answer, fingerprint=fingerprint(expected))
    mc.check_equal("answer", answer, expected=expected)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [(1, True), (True, 1), (["x", "x", "c"], {"x", "c"}), ("x", {"x"}), ([1, 2], (2, 1))],
)
def test_answers_of_another_meaning_are_not(answer, expected):
    fails(mc.check_equal, "answer", answer, fingerprint=fingerprint(expected))
    fails(mc.check_equal, "answer", answer, expected=expected)


@pytest.mark.parametrize(
    "answer", [(3.0, 0.0, 6.0), np.array([3.0, 0.0, 6.0]), mg.tensor([3.0, 0.0, 6.0]), [3, 0, 6]]
)
def test_numbers_in_any_container_are_accepted(answer):
    mc.check_value("x.grad", answer, fingerprint=fingerprint([3.0, 0.0, 6.0]))


@pytest.mark.parametrize(
    "answer", ["25", "abc", [[1.0, 2.0], [3.0]], {"a": 1}, {1.0}, [1.0, "2"], True, object()]
)
def test_a_non_numeric_answer_fails_cleanly(answer):
    """No TypeError or ValueError from numpy: the grade cell fails with the usual message."""
    message = fails(mc.check_value, "the answer", answer, fingerprint=fingerprint([1.0, 2.0]))
    assert message.startswith("✘ the answer should be a number")


# --------------------------------------------------------------------------- gradients
def test_check_grad_explains_a_missing_gradient():
    w = mg.tensor([1.0, 2.0])
    assert "requires_grad=True" in fails(mc.check_grad, "w.grad", w, expected=[2.0, 4.0])
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    assert "call backward()" in fails(mc.check_grad, "w.grad", w, expected=[2.0, 4.0])
    (w * w).sum().backward()
    mc.check_grad("w.grad", w, fingerprint=fingerprint([2.0, 4.0]))
    assert "should be a tensor" in fails(mc.check_grad, "w.grad", [2.0, 4.0], expected=[2, 4])


def test_check_grad_is_none():
    w = mg.tensor(1.0, requires_grad=True)
    mc.check_grad_is_none("w.grad", w)
    (3 * w).backward()
    assert "should be None" in fails(mc.check_grad_is_none, "w.grad", w)


# --------------------------------------------------------------------------- functions
def square_fingerprints(points):
    return [fingerprint(p * p) for p in points]


def test_check_function_accepts_a_right_function_and_names_the_failing_point():
    points = [1.0, 2.0, 3.0]
    mc.check_function(
        "sq", lambda x: x * x, points=points, fingerprints=square_fingerprints(points)
    )
    message = fails(
        mc.check_function,
        "sq",
        lambda x: x * x if x < 3 else 0.0,
        points=points,
        fingerprints=square_fingerprints(points),
    )
    assert message.startswith("✘ sq at 3.0 = 0.0 is not right")


def test_check_function_spots_a_missing_return_and_typical_mistakes():
    points = [1.0, 2.0]
    fps = square_fingerprints(points)

    def no_return(x):
        x * x

    assert "forget `return`" in fails(
        mc.check_function, "sq", no_return, points=points, fingerprints=fps
    )
    doubled = Fingerprint(*(fingerprint(2 * p) for p in points))
    message = fails(
        mc.check_function,
        "sq",
        lambda x: 2 * x,
        points=points,
        fingerprints=fps,
        common_mistakes=[(doubled, "That is 2x.")],
    )
    assert message.endswith("Hint: That is 2x.")

    def crashes(x):
        raise RuntimeError("graph freed")

    message = fails(
        mc.check_function,
        "sq",
        crashes,
        points=points,
        fingerprints=fps,
        common_mistakes=[(RuntimeError, "Keep the graph.")],
    )
    assert "raised RuntimeError: graph freed" in message and message.endswith("Keep the graph.")
    message = fails(mc.check_function, "sq", lambda x: "one", points=points, fingerprints=fps)
    assert "should give numbers" in message
    assert "should be a function" in fails(
        mc.check_function, "sq", 4.0, points=points, fingerprints=fps
    )


def test_check_function_reports_what_its_call_found_wrong():
    def call(function, point):
        raise AssertionError("w is no longer a leaf")

    message = fails(
        mc.check_function, "f", abs, points=[1.0], fingerprints=[fingerprint(1.0)], call=call
    )
    assert "w is no longer a leaf" in message


@pytest.mark.parametrize(
    ("problem", "sentence"),
    [
        ("w is no longer a leaf", "w is no longer a leaf. Hint:"),
        ("forgot `return`?", "`return`? Hint:"),
    ],
)
def test_what_a_call_found_wrong_ends_as_a_sentence_before_the_hint(problem, sentence):
    def call(function, point):
        raise AssertionError(problem)

    message = fails(
        mc.check_function,
        "f",
        abs,
        points=[1.0],
        fingerprints=[fingerprint(1.0)],
        call=call,
        hint="Look again.",
    )
    assert message.endswith(f"{sentence} Look again.")


def test_check_raises():
    mc.check_raises("1 / 0", lambda: 1 / 0, ZeroDivisionError)
    assert "raised nothing" in fails(mc.check_raises, "1 / 2", lambda: 1 / 2, ZeroDivisionError)
    message = fails(mc.check_raises, "int('a')", lambda: int("a"), ZeroDivisionError)
    assert "raised ValueError" in message
    message = fails(mc.check_raises, "x", lambda: 1 / 0, ZeroDivisionError, match="no such text")
    assert "another message" in message


class GoodSquare(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x


class BadSquare(GoodSquare):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x


def test_check_gradcheck():
    x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    mc.check_gradcheck("GoodSquare", GoodSquare, [x])
    assert "fails gradcheck" in fails(mc.check_gradcheck, "BadSquare", BadSquare, [x])
    assert "not answered yet" in fails(mc.check_gradcheck, "Op", None, [x])


@pytest.mark.parametrize("module", ["minigrad_course.checks", "minigrad_course.feedback"])
def test_the_examples_in_the_docstrings_hold(module):
    """`make test` runs --doctest-modules over minigrad and widgets only; this covers the
    course tooling."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


# --------------------------------------------------------------------------- warnings
def warns_then_squares(x):
    import warnings

    warnings.warn("this answer warns, and is right all the same", stacklevel=2)
    return x * x


def prints_to_stderr_then_squares(x):
    import sys

    print("a log line on stderr", file=sys.stderr)
    return x * x


@pytest.mark.parametrize("answer", [warns_then_squares, prints_to_stderr_then_squares])
def test_a_right_answer_that_warns_passes_and_writes_nothing_to_stderr(capsys, answer):
    # nbgrader fails a grade cell with anything on stderr: the check keeps stderr clean and
    # repeats the warning on stdout as a note.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning escaping the check would raise here
        mc.check_function("square", answer, points=[2.0, 3.0], expected=[4.0, 9.0])
    out, err = capsys.readouterr()
    assert err == ""
    assert "✔ square: correct" in out and "costs no marks" in out
    assert ("right all the same" in out) == (answer is warns_then_squares)


def test_a_wrong_answer_that_warns_still_fails():
    def warns_and_is_wrong(x):
        warnings.warn("careful", stacklevel=2)
        return x + 1

    assert "is not right" in fails(
        mc.check_function, "square", warns_and_is_wrong, points=[2.0], expected=[4.0]
    )


def test_a_warning_turned_into_an_error_by_the_answer_is_still_a_failure():
    def errors_on_warnings(x):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.warn("now an error", stacklevel=2)
        return x * x

    assert "raised UserWarning: now an error" in fails(
        mc.check_function, "square", errors_on_warnings, points=[2.0], expected=[4.0]
    )


def test_check_raises_and_gradcheck_catch_warnings_too(capsys):
    def warns_then_fails():
        warnings.warn("about to fail", stacklevel=2)
        raise ValueError("bad shape")

    def warning_sine(t):
        warnings.warn("sine warns", stacklevel=2)
        return t.sin()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mc.check_raises("the error", warns_then_fails, ValueError, match="bad shape")
        x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
        mc.check_gradcheck("sine", warning_sine, [x])
    out, err = capsys.readouterr()
    assert err == "" and out.count("correct") == 2 and "sine warns" in out


def test_equivalent_types_of_a_function_result_are_accepted():
    def as_tensor(x):
        return mg.tensor(x * x)

    def as_tuple(x):
        return (x, x * x)

    mc.check_function("square", as_tensor, points=[3.0], expected=[9.0])
    mc.check_function("pair", as_tuple, points=[3.0], expected=[[3.0, 9.0]])


# --------------------------------------------------------------------------- recursion
def chain(n):
    return list(range(n))


def loop_sum(items):
    total, stack = 0, list(items)
    while stack:
        total += stack.pop()
    return total


def recursive_sum(items):
    return 0 if not items else items[0] + recursive_sum(items[1:])


def renamed_helper_sum(items):
    def helper(rest):
        return 0 if not rest else rest[0] + helper(rest[1:])

    return helper(items)


def ping(items):
    return 0 if not items else items[0] + pong(items[1:])


def pong(items):
    return 0 if not items else items[0] + ping(items[1:])


def deep_limit_sum(items):
    import sys

    sys.setrecursionlimit(100_000)
    return recursive_sum(items)


def profiler_off_sum(items):
    import sys

    sys.setprofile(None)
    return recursive_sum(items)


def test_a_loop_passes_the_no_recursion_check(capsys):
    mc.check_no_recursion("loop_sum", loop_sum, make_input=chain)
    assert capsys.readouterr().out == "✔ loop_sum: correct\n"


@pytest.mark.parametrize(
    "answer", [recursive_sum, renamed_helper_sum, ping, deep_limit_sum, profiler_off_sum]
)
def test_recursion_is_caught_however_it_is_hidden(answer):
    limit = __import__("sys").getrecursionlimit()
    try:
        message = fails(mc.check_no_recursion, "total", answer, make_input=chain, hint="Loop.")
    finally:
        __import__("sys").setrecursionlimit(limit)
    assert ("calls itself" in message or "switched off the profiler" in message) and (
        "Hint: Loop." in message
    )


def test_an_unanswered_no_recursion_check_says_so():
    def placeholder(items):
        raise NotImplementedError()

    assert "not answered yet" in fails(
        mc.check_no_recursion, "total", placeholder, make_input=chain
    )


# --------------------------------------------------------------------------- forbidden functions
def summed_down(grad, shape):
    return grad.sum(dim=0)


def ready_made(grad, shape):
    return grad.sum_to_size(shape)


def ready_made_through_an_alias(grad, shape):
    shrink = mg.Tensor.sum_to_size
    return shrink(grad, shape)


def test_a_forbidden_function_fails_however_it_is_reached():
    use = lambda answer, point: answer(mg.tensor([[1.0, 2.0], [3.0, 4.0]]), point)  # noqa: E731
    mc.check_function(
        "sum_to_shape",
        summed_down,
        points=[(2,)],
        expected=[[4.0, 6.0]],
        call=use,
        forbidden=[mg.Tensor.sum_to_size],
    )
    for answer in (ready_made, ready_made_through_an_alias):
        message = fails(
            mc.check_function,
            "sum_to_shape",
            answer,
            points=[(2,)],
            expected=[[4.0, 6.0]],
            call=use,
            forbidden=[mg.Tensor.sum_to_size],
            hint="Write it.",
        )
        assert "uses Tensor.sum_to_size, which this exercise rules out" in message
        assert "Hint: Write it." in message


def test_a_single_number_tensor_counts_as_its_number_in_an_exact_check():
    mc.check_equal("count", mg.tensor(3), expected=3)
    mc.check_equal("flag", mg.tensor(True), fingerprint=fingerprint(True))
    mc.check_equal("pairs", [(1, mg.tensor(2.0))], expected=[(1, 2)])
    assert "is not right" in fails(mc.check_equal, "flag", mg.tensor(1), expected=True)
