"""The parts of isolated grading, in-process and fast (test_attacks.py runs them under nbgrader).

- every hidden test of every set splits, and the student's side never holds the key;
- answers cross as data that comes back as it went, and anything malformed is refused;
- the verdict judges forged or malformed answers as wrong, never as right.
"""

from __future__ import annotations

import ast
import math
import shutil
import sys

import numpy as np
import pytest
from nbgrader_course import SETS, SOURCES, grade_cells, nbgrader_meta, read

import minigrad as mg
from minigrad_course.answer_data import Opaque, dumps, from_data, loads, to_data
from minigrad_course.grading_process import measure
from minigrad_course.hidden_tests import (
    STUDENT_ARGUMENTS,
    HiddenTestError,
    hidden_tests_of,
    split_hidden_tests,
    visible_part_of,
)
from minigrad_course.isolated_grading import judge


@pytest.fixture
def one_checks_module(monkeypatch):
    """The checks module the verdict uses is the one notebooks import: other tests re-import
    it (as the hidden tests once did), and a Fingerprint of one copy is not of the other."""
    import minigrad_course
    from minigrad_course import isolated_grading

    monkeypatch.setitem(sys.modules, "minigrad_course.checks", isolated_grading.checks)
    monkeypatch.setattr(minigrad_course, "checks", isolated_grading.checks)


def hidden_cells(name: str) -> list[tuple[str, str, str]]:
    nb = read(SOURCES / name / f"{name}.ipynb")
    return [
        (nbgrader_meta(c)["grade_id"], hidden_tests_of(c.source), visible_part_of(c.source))
        for c in grade_cells(nb)
    ]


def record_calls(code: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "_grading.record"
    ]


@pytest.mark.parametrize("name", SETS)
def test_every_hidden_test_splits_and_the_students_side_never_holds_the_key(name):
    for grade_id, hidden, visible in hidden_cells(name):
        assert hidden is not None, f"{grade_id} has no hidden tests"
        answer_side, key_side, kinds = split_hidden_tests(hidden, grade_id, visible)
        assert kinds and all(kind in STUDENT_ARGUMENTS for kind in kinds)
        answers, keys = record_calls(answer_side), record_calls(key_side)
        assert len(answers) == len(keys) == len(kinds)
        for answer, key, kind in zip(answers, keys, kinds):
            given = {keyword.arg for keyword in answer.keywords}
            shared = {"points", "hint", "common_mistakes"} if kind == "check_function" else set()
            assert given <= STUDENT_ARGUMENTS[kind] | shared, (grade_id, given)
            assert not {"expected", "fingerprint", "fingerprints"} & given
            teacher = {keyword.arg for keyword in key.keywords}
            assert not teacher & (STUDENT_ARGUMENTS[kind] - shared), (grade_id, teacher)
        # No expected value of the key appears in what the student's process runs (short
        # numbers such as 0.0 or 2.0 also appear as points).
        for key in keys:
            for keyword in key.keywords:
                if keyword.arg != "expected":
                    continue
                assert ast.unparse(keyword.value) not in answer_side, grade_id
                for number in ast.walk(keyword.value):
                    text = repr(getattr(number, "value", None))
                    if isinstance(number, ast.Constant) and len(text) > 6:
                        assert text not in answer_side, (grade_id, text)
        assert "_mc." not in answer_side and "check_" not in answer_side.replace("'check_", "")


def test_a_hidden_test_that_cannot_be_split_is_refused():
    with pytest.raises(HiddenTestError, match="no check"):
        split_hidden_tests("assert x == 3", "ex1")
    with pytest.raises(HiddenTestError, match="cannot be split"):
        split_hidden_tests("_mc.check_value(*arguments)", "ex1")


@pytest.mark.parametrize(
    "answer",
    [
        None,
        3,
        2.5,
        math.nan,
        True,
        "MulBackward0",
        (1, 2.0),
        [[1.0, 2.0], [3.0, 4.0]],
        {"x", "c"},
        {"a": 1, ("b", 2): [1.5]},
        np.arange(6).reshape(2, 3),
        np.float32(1.5),
        np.array([True, False]),
    ],
)
def test_an_answer_comes_back_as_it_went(answer):
    back = from_data(loads(dumps(to_data(answer))))
    if isinstance(answer, np.ndarray):
        assert np.array_equal(back, answer) and back.shape == answer.shape
    elif isinstance(answer, float) and math.isnan(answer):
        assert math.isnan(back)
    else:
        assert back == answer and type(back) is type(answer) or isinstance(answer, np.floating)


def test_a_tensor_comes_back_as_its_numbers_and_anything_else_as_its_type_and_repr():
    assert np.array_equal(from_data(to_data(mg.tensor([[1.0, 2.0]]))), [[1.0, 2.0]])
    back = from_data(to_data(print))
    assert isinstance(back, Opaque) and back.type_name == "builtin_function_or_method"
    assert repr(back) == repr(print) and back != back


@pytest.mark.parametrize(
    "data",
    [
        {"int": True},
        {"float": "1.0"},
        {"str": 3},
        {"array": ["f", [2, 2], [1.0, 2.0]]},
        {"array": ["O", [1], [1]]},
        {"array": ["f", [-1], []]},
        {"array": ["f", [1], ["1"]]},
        {"set": [{"list": []}]},
        {"dict": [[{"list": []}, None]]},
        {"list": None},
        {"code": "import os"},
        {"int": 1, "float": 1.0},
        [1, 2],
        "text",
    ],
)
def test_malformed_answer_data_is_refused(data):
    with pytest.raises(ValueError):
        from_data(data)


def test_unreadable_or_too_deep_json_is_refused():
    with pytest.raises(ValueError):
        loads("{not json")
    deep = '{"list": [' * 10_000 + "]}" * 10_000
    with pytest.raises(ValueError):
        from_data(loads(deep))


def test_the_verdict_refuses_forged_answers_and_judges_real_ones():
    with pytest.raises(ValueError, match="wrong shape"):
        judge("check_value", "x", {"expected": 2.0}, {"passed": True})
    with pytest.raises(ValueError, match="wrong shape"):
        judge("check_equal", "x", {"expected": 2}, {"answer": {"int": 2}, "passed": True})
    with pytest.raises(AssertionError, match="is not right"):
        judge("check_value", "x", {"expected": 2.0}, {"answer": {"float": 2.5}})
    with pytest.raises(ValueError):
        judge("check_function", "f", {"points": [1], "expected": [1.0]}, {"results": [None]})
    with pytest.raises(ValueError):
        judge("check_gradcheck", "F", {}, {"passed": "yes"})
    with pytest.raises(AssertionError, match="✘ F fails gradcheck"):
        judge("check_gradcheck", "F", {}, {"failed": "✘ F fails gradcheck"})


def test_the_students_side_measures_and_the_verdict_judges_the_same_as_one_check():
    def double(x):
        return 2 * x

    def triple(x):
        return 3 * x

    teacher = {"points": [1.0, 2.0], "expected": [2.0, 4.0]}
    right = measure("check_function", "f", {"answer": double, "points": [1.0, 2.0]})
    judge("check_function", "f", teacher, loads(dumps(right)))
    wrong = measure("check_function", "f", {"answer": triple, "points": [1.0, 2.0]})
    with pytest.raises(AssertionError, match="f at 1.0 = 3.0 is not right"):
        judge("check_function", "f", teacher, loads(dumps(wrong)))
    tensor = mg.tensor([1.0, 2.0], requires_grad=True)
    (tensor * tensor).sum().backward()
    grad = measure("check_grad", "t.grad", {"tensor": tensor})
    judge("check_grad", "t.grad", {"expected": [2.0, 4.0]}, loads(dumps(grad)))
    with pytest.raises(AssertionError, match="is None"):
        judge(
            "check_grad",
            "t.grad",
            {"expected": [2.0]},
            measure("check_grad", "t.grad", {"tensor": mg.tensor([1.0])}),
        )


def run_alone(tmp_path, monkeypatch, code: str, sandbox: str) -> tuple[object, list[str], str]:
    """One submission's process with one cell, from a course folder ``tmp_path/course``."""
    from minigrad_course.isolated_grading import GradeInIsolation

    course = tmp_path / "course"
    (course / "source").mkdir(parents=True)
    (course / "source" / "teacher.ipynb").write_text("{}")
    submission = course / "submitted" / "someone" / "set"
    submission.mkdir(parents=True)
    monkeypatch.chdir(course)
    program = {"steps": [{"cell": 0, "code": code, "grade_id": None}]}
    return GradeInIsolation(sandbox=sandbox)._run_answers(program, submission)


WRITE_TO_THE_TEACHERS_SOURCE = """\
import os
for path in ["../../../source/teacher.ipynb", "{course}/source/teacher.ipynb"]:
    try:
        with open(path, "w") as file:
            file.write("changed")
    except OSError as error:
        print(type(error).__name__)
"""


def test_without_a_sandbox_a_write_outside_the_folder_is_flagged(tmp_path, monkeypatch):
    code = WRITE_TO_THE_TEACHERS_SOURCE.format(course=tmp_path / "course")
    report, flags, isolation = run_alone(tmp_path, monkeypatch, code, "none")
    assert isolation == "none" and report["finished"] is True
    assert any("wrote outside its folder" in flag for flag in flags), flags


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_in_the_sandbox_the_teachers_files_cannot_be_read_or_written(tmp_path, monkeypatch):
    code = WRITE_TO_THE_TEACHERS_SOURCE.format(course=tmp_path / "course")
    code += "print(os.getuid(), sorted(os.listdir('/tmp')))\n"
    report, flags, isolation = run_alone(tmp_path, monkeypatch, code, "bwrap")
    assert isolation == "bwrap" and flags == []
    assert (tmp_path / "course" / "source" / "teacher.ipynb").read_text() == "{}"
    printed = report["cells"][0]["stdout"]
    assert "65534" in printed and "'answers'" in printed and "course" not in printed


@pytest.mark.parametrize("name", SETS)
def test_in_process_the_two_sides_give_the_teachers_solutions_full_marks(name, one_checks_module):
    """Both sides of every hidden test run (here, in one process, over the teacher's
    solutions) and every verdict is ✔: no side misses a name the other defines."""
    import contextlib
    import io

    from minigrad_course.grading_process import AnswerRecorder, KeyRecorder

    nb = read(SOURCES / name / f"{name}.ipynb")
    answers, key = AnswerRecorder(), KeyRecorder()
    student = {"__name__": "__main__", "_grading": answers}
    teacher = {"__name__": "__main__", "_grading": key}
    checks = 0
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb.cells:
            meta = nbgrader_meta(cell)
            if cell.cell_type != "code":
                continue
            if not meta.get("grade"):
                exec(compile(cell.source, "<cell>", "exec"), student)
                if meta.get("locked"):
                    with contextlib.suppress(Exception):
                        exec(compile(cell.source, "<given>", "exec"), teacher)
                continue
            hidden, visible = hidden_tests_of(cell.source), visible_part_of(cell.source)
            answer_side, key_side, kinds = split_hidden_tests(hidden, meta["grade_id"], visible)
            exec(compile(answer_side, "<answer side>", "exec"), student)
            exec(compile(key_side, "<key side>", "exec"), teacher)
            checks += len(kinds)
        for record in answers.records:
            kind, check_name, arguments = key.key[record["cell"], record["index"]]
            judge(kind, check_name, arguments, loads(dumps(record["data"])))
    assert checks and len(answers.records) == len(key.key) == checks


@pytest.mark.parametrize("name", SETS)
def test_a_typical_wrong_answer_gets_its_hint_from_the_key(name, one_checks_module):
    """The key survives its trip (pickled, as the key process sends it) with the hints of
    typical mistakes, and a wrong answer judged against it gets its hint."""
    import contextlib
    import io
    import pickle

    from nbgrader_course import WRONG

    from minigrad_course.grading_process import AnswerRecorder, KeyRecorder

    nb = read(SOURCES / name / f"{name}.ipynb")
    wrong = {grade_id: mistakes[0] for grade_id, mistakes in WRONG[name].items() if mistakes}
    answers, key = AnswerRecorder(), KeyRecorder()
    student = {"__name__": "__main__", "_grading": answers}
    teacher = {"__name__": "__main__", "_grading": key}
    check_of_answer, last_answer = {}, None
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for cell in nb.cells:
            meta = nbgrader_meta(cell)
            if cell.cell_type != "code":
                continue
            if not meta.get("grade"):
                code = wrong[meta["grade_id"]][0] if meta.get("grade_id") in wrong else cell.source
                with contextlib.suppress(Exception):
                    exec(compile(code, "<cell>", "exec"), student)
                if meta.get("locked"):
                    with contextlib.suppress(Exception):
                        exec(compile(cell.source, "<given>", "exec"), teacher)
                last_answer = meta.get("grade_id")
                continue
            check_of_answer[meta["grade_id"]] = last_answer
            hidden, visible = hidden_tests_of(cell.source), visible_part_of(cell.source)
            answer_side, key_side, _ = split_hidden_tests(hidden, meta["grade_id"], visible)
            with contextlib.suppress(Exception):
                exec(compile(answer_side, "<answer side>", "exec"), student)
            exec(compile(key_side, "<key side>", "exec"), teacher)
        travelled = pickle.loads(pickle.dumps(key.key))
        messages: dict[str, str] = {}
        for record in answers.records:
            if record["cell"] in messages:
                continue  # a cell stops at its first failure
            kind, check_name, arguments = travelled[record["cell"], record["index"]]
            try:
                judge(kind, check_name, arguments, loads(dumps(record["data"])))
            except AssertionError as failed:
                messages[record["cell"]] = str(failed)
    for check_id, answer_id in check_of_answer.items():
        if answer_id in wrong:
            assert wrong[answer_id][1] in messages.get(check_id, ""), (check_id, messages)
