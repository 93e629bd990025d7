"""A grade cell's hidden tests, split into what needs the student's code and what does not.

A hidden test reads like ``_mc.check_value("f'(3)", dfdx, expected=25.0)``. Isolated
grading must not run it as written in the student's process: that process could change
what ``check_value`` or ``numpy.allclose`` do, and it would hold the expected value. So
each check call is split in two:

* the **answer side** runs in the student's process: it evaluates only the arguments that
  come from the student (the answer; for a function, the points, ``call`` and ``forbidden``
  that use it) and hands them to ``_grading.record(...)``, which sends them out as data;
* the **key side** runs in a trusted process that never runs student code: it evaluates the
  teacher's arguments (the name, ``expected=``, ``tol=``, ``hint=``, the points) and hands
  them to ``_grading.record(...)`` too.

Both sides number the checks of a cell in the same order, so the verdict pairs them. Other
statements of the hidden tests (helper functions, a list of points) go to both sides; the
hidden tests' own imports go to neither (each side brings its own).

>>> answer, key, kinds = split_hidden_tests(
...     "import minigrad_course.checks as _mc\\n_mc.check_value('x', x, expected=2.0)", "ex1"
... )
>>> print(answer)
_grading.record('ex1', 0, 'check_value', 'x', answer=x)
>>> print(key)
_grading.record('ex1', 0, 'check_value', 'x', expected=2.0)
>>> kinds
['check_value']
"""

from __future__ import annotations

import ast
import inspect
import re

from minigrad_course import checks

__all__ = [
    "STUDENT_ARGUMENTS",
    "hidden_tests_of",
    "visible_part_of",
    "split_hidden_tests",
    "HiddenTestError",
]

HIDDEN = re.compile(
    r"^[ \t]*### BEGIN HIDDEN TESTS[ \t]*\n(.*?)^[ \t]*### END HIDDEN TESTS", re.S | re.M
)
WHOLE_HIDDEN = re.compile(
    r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?", re.S | re.M
)

# The arguments of each check that come from the student's work: evaluated, and used,
# only in the student's process. All the others are the teacher's.
STUDENT_ARGUMENTS = {
    "check_value": {"answer"},
    "check_equal": {"answer"},
    "check_grad": {"tensor"},
    "check_grad_is_none": {"tensor"},
    "check_function": {"answer", "points", "call", "forbidden"},
    "check_raises": {"action", "exception", "match"},
    "check_gradcheck": {"answer", "inputs"},
    "check_no_recursion": {"answer", "make_input", "sizes"},
}
# The teacher's arguments that the answer side needs as well, to use the answer: the points,
# and the hints for an answer that raises (typical mistakes given as exception classes).
SHARED_ARGUMENTS = {"check_function": {"points", "hint", "common_mistakes"}}
# Checks whose whole verdict is reached while the student's code runs (what they measure
# is how that code behaves); the key side keeps only their name.
MEASURED_IN_THE_STUDENT_PROCESS = {"check_raises", "check_gradcheck", "check_no_recursion"}


class HiddenTestError(ValueError):
    """A hidden test that isolated grading cannot split (the teacher's to fix)."""


def hidden_tests_of(source: str) -> str | None:
    """The hidden tests of a grade cell's source, or None when it has none.

    >>> hidden_tests_of("check(x)\\n### BEGIN HIDDEN TESTS\\nsecret(x)\\n### END HIDDEN TESTS")
    'secret(x)\\n'
    """
    found = HIDDEN.search(source)
    return found.group(1) if found else None


def visible_part_of(source: str) -> str:
    """A grade cell's source without its hidden tests: what students see.

    >>> visible_part_of("check(x)\\n### BEGIN HIDDEN TESTS\\nsecret(x)\\n### END HIDDEN TESTS\\n")
    'check(x)\\n'
    """
    return WHOLE_HIDDEN.sub("", source)


def _check_call(statement: ast.stmt) -> tuple[str, ast.Call] | None:
    """(check name, call) when the statement is ``<module>.check_...(...)``."""
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    function = statement.value.func
    if isinstance(function, ast.Attribute) and function.attr in STUDENT_ARGUMENTS:
        return function.attr, statement.value
    return None


def _is_housekeeping(statement: ast.stmt) -> bool:
    """The hidden tests' imports and their ``sys.modules.pop(...)`` of the checks."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return True
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and "modules.pop" in ast.unparse(statement.value.func)
    )


def _record(grade_id: str, index: int, kind: str, name: ast.expr, arguments: dict) -> ast.stmt:
    call = ast.Call(
        func=ast.Attribute(value=ast.Name("_grading", ast.Load()), attr="record", ctx=ast.Load()),
        args=[ast.Constant(grade_id), ast.Constant(index), ast.Constant(kind), name],
        keywords=[ast.keyword(arg=key, value=value) for key, value in arguments.items()],
    )
    return ast.fix_missing_locations(ast.Expr(call))


def _bound_arguments(kind: str, call: ast.Call) -> dict[str, ast.expr]:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        raise HiddenTestError(f"{kind}(...) with *args or **kwargs cannot be split")
    signature = inspect.signature(getattr(checks, kind))
    try:
        bound = signature.bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as error:
        raise HiddenTestError(f"{kind}(...): {error}") from error
    return dict(bound.arguments)


def _parsed(code: str, grade_id: str) -> ast.Module:
    try:
        return ast.parse(code)
    except SyntaxError as error:
        raise HiddenTestError(f"{grade_id}: the check cell does not parse: {error}") from error


def _tolerant(statement: ast.stmt) -> ast.stmt:
    """``try: statement`` / ``except Exception: pass``."""
    handler = ast.ExceptHandler(
        type=ast.Name("Exception", ast.Load()), name=None, body=[ast.Pass()]
    )
    guarded = ast.Try(body=[statement], handlers=[handler], orelse=[], finalbody=[])
    return ast.fix_missing_locations(guarded)


def split_hidden_tests(hidden: str, grade_id: str, visible: str = "") -> tuple[str, str, list[str]]:
    """(answer side, key side, the kind of each check) of one cell's hidden tests.

    The helpers that the visible part of the cell defines (a ``call`` function, say) come
    first on both sides, without the visible checks, which the hidden tests replace; on the
    key side each may fail (it may use the student's names) without stopping the others.
    """
    answer_side: list[ast.stmt] = []
    key_side: list[ast.stmt] = []
    kinds: list[str] = []
    # The visible part first, as the kernel ran it: its checks (fingerprints, with the hints
    # of typical mistakes) are judged too, before the hidden ones; its other statements
    # (helpers) may use the student's names, so on the key side each may fail alone.
    for part, statements in (("visible", _parsed(visible, grade_id).body), ("hidden", None)):
        if statements is None:
            statements = _parsed(hidden, grade_id).body
        for statement in statements:
            if _is_housekeeping(statement):
                continue
            found = _check_call(statement)
            if found is None:
                answer_side.append(statement)
                key_side.append(_tolerant(statement) if part == "visible" else statement)
                continue
            kind, call = found
            arguments = _bound_arguments(kind, call)
            name = arguments.pop("name")
            shared = SHARED_ARGUMENTS.get(kind, set())
            student = STUDENT_ARGUMENTS[kind] | shared
            teacher = (set(arguments) - STUDENT_ARGUMENTS[kind]) | shared
            if kind in MEASURED_IN_THE_STUDENT_PROCESS:
                teacher = set()
            index = len(kinds)
            kinds.append(kind)
            mine = {a: value for a, value in arguments.items() if a in student}
            theirs = {a: value for a, value in arguments.items() if a in teacher}
            answer_side.append(_record(grade_id, index, kind, name, mine))
            key_side.append(_record(grade_id, index, kind, name, theirs))
    if not kinds:
        raise HiddenTestError(f"{grade_id}: the hidden tests call no check")
    as_code = lambda statements: ast.unparse(ast.Module(body=statements, type_ignores=[]))  # noqa: E731
    return as_code(answer_side), as_code(key_side), kinds
