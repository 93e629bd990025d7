"""A right answer gets full marks however it is written; a stated constraint is checked.

In-process and fast (``test_round_trip.py`` does the same under real nbgrader for a few
sets): every grade cell of every teacher's notebook, hidden tests included, run after the
teacher's answers changed to warn and print each time they are called. nbgrader fails a grade
cell that writes anything to stderr, so none may; and every wrong answer of the exercises
that rule something out (no recursion, no ready-made function) fails, in the released check
and in the hidden tests, with its hint.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

import pytest
from nbgrader_course import (
    RELEASED,
    SETS,
    SOURCES,
    WRONG,
    by_id,
    nbgrader_meta,
    noisy,
    read,
    strip_solution,
)


def code_cells(nb, answers: dict[str, str]):
    """The notebook's code cells, each answer cell replaced by ``answers[grade_id]``."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in answers:
            cell = cell.copy()
            cell.source = answers[grade_id]
        cells.append(cell)
    return cells


def show_on_stderr(message, category, filename, lineno, file=None, line=None) -> None:
    """Show a warning as a kernel does: on stderr (pytest would otherwise record it)."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def run_cell(cell, namespace: dict) -> str:
    """Run one cell as a kernel would; what it wrote to stderr (warnings included)."""
    stderr = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(stderr):
        exec(compile(cell.source, "<cell>", "exec"), namespace)
    return stderr.getvalue()


def solutions(name: str) -> dict[str, str]:
    source = read(SOURCES / name / f"{name}.ipynb")
    return {
        nbgrader_meta(c)["grade_id"]: strip_solution(c.source)
        for c in source.cells
        if nbgrader_meta(c).get("solution") and c.cell_type == "code"
    }


@pytest.mark.parametrize("name", SETS)
def test_a_right_answer_that_warns_and_prints_passes_every_grade_cell(name, monkeypatch):
    monkeypatch.chdir(SOURCES / name)  # where nbgrader runs it
    answers = {grade_id: noisy(code) for grade_id, code in solutions(name).items()}
    namespace: dict = {"__name__": "__main__"}
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # no warning is hidden by "once" bookkeeping
        warnings.showwarning = show_on_stderr  # restored by catch_warnings
        for cell in code_cells(read(SOURCES / name / f"{name}.ipynb"), answers):
            written = run_cell(cell, namespace)  # raises if a check fails
            if nbgrader_meta(cell).get("grade"):
                grade_id = nbgrader_meta(cell)["grade_id"]
                assert written == "", f"{grade_id} writes to stderr: {written[:300]}"


CONSTRAINED = {
    # set: the answer cells whose exercise rules something out
    "13_broadcasting_and_in_place": ["ex1_answer"],  # not Tensor.sum_to_size
    "15_jacobians_and_hessians": ["ex4_answer"],  # with autograd.grad, not F.hvp
    "16_build_your_own_engine": ["ex3_answer"],  # no function calling itself
}

CONSTRAINED_WRONG = [
    pytest.param(name, answer_id, code, hint, id=f"{name[:2]}-{answer_id}-{i}")
    for name, answer_ids in CONSTRAINED.items()
    for answer_id in answer_ids
    for i, (code, hint) in enumerate(WRONG[name][answer_id])
]


@pytest.mark.parametrize("hidden", [False, True], ids=["released", "hidden"])
@pytest.mark.parametrize(("name", "answer_id", "code", "hint"), CONSTRAINED_WRONG)
def test_a_wrong_answer_to_a_constrained_exercise_fails(
    name, answer_id, code, hint, hidden, monkeypatch
):
    limit = sys.getrecursionlimit()
    monkeypatch.chdir(SOURCES / name)
    nb = read((SOURCES if hidden else RELEASED) / name / f"{name}.ipynb")
    answers = {**solutions(name), answer_id: code}
    cells = code_cells(nb, answers)
    check_id = answer_id.replace("_answer", "_check")
    assert check_id in by_id(nb)
    namespace: dict = {"__name__": "__main__"}
    try:
        for cell in cells:
            if nbgrader_meta(cell).get("grade_id") == check_id:
                with pytest.raises(AssertionError) as failure:
                    run_cell(cell, namespace)
                assert str(failure.value).startswith("✘ ") and hint in str(failure.value)
                return
            run_cell(cell, namespace)
    finally:
        sys.setrecursionlimit(limit)
    raise AssertionError(f"no grade cell {check_id}")
