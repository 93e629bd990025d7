"""Sets 17 and 18: every typical wrong answer gets its hint, in-process.

``test_round_trip.py`` grades the first two wrong answers of each exercise under nbgrader;
this runs all of them (``wrong/<set>.py``) straight through the released check cells, and
the teacher's solutions through the checks and the hidden tests, in seconds.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from nbgrader_course import RELEASED, SOURCES, WRONG, by_id, nbgrader_meta, read, strip_solution

SETS = ["17_backprop_by_hand", "18_forward_mode"]


def run(cells_to_run) -> dict:
    """Run code cells in order in one namespace, as a kernel would (printing silenced)."""
    namespace: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells_to_run:
            exec(compile(cell.source, "<cell>", "exec"), namespace)
    return namespace


def released_with(name: str, answers: dict[str, str]):
    """Set ``name``'s released code cells, with the answer cells replaced by ``answers`` and
    every other answer cell by the teacher's solution."""
    solutions = by_id(read(SOURCES / name / f"{name}.ipynb"))
    released = read(RELEASED / name / f"{name}.ipynb")
    code = []
    for cell in released.cells:
        if cell.cell_type != "code":
            continue
        grade_id = nbgrader_meta(cell).get("grade_id")
        if nbgrader_meta(cell).get("solution"):
            source = answers.get(grade_id)
            if source is None:
                source = strip_solution(solutions[grade_id].source)
            cell = cell.copy()
            cell.source = source
        code.append(cell)
    return code


@pytest.mark.parametrize("name", SETS)
def test_the_teachers_notebook_passes_its_checks_and_hidden_tests(name):
    source = read(SOURCES / name / f"{name}.ipynb")
    run([cell for cell in source.cells if cell.cell_type == "code"])


@pytest.mark.parametrize("name", SETS)
def test_the_solutions_pass_the_released_checks(name):
    run(released_with(name, {}))


WRONG_ANSWERS = [
    pytest.param(name, answer_id, code, hint, id=f"{name}-{answer_id}-{i}")
    for name in SETS
    for answer_id, mistakes in WRONG[name].items()
    for i, (code, hint) in enumerate(mistakes)
]


@pytest.mark.parametrize(("name", "answer_id", "code", "hint"), WRONG_ANSWERS)
def test_a_wrong_answer_fails_its_check_with_its_hint(name, answer_id, code, hint):
    notebook = released_with(name, {answer_id: code})
    ids = [nbgrader_meta(cell).get("grade_id") for cell in notebook]
    check = ids.index(answer_id.replace("_answer", "_check"))
    run(notebook[:check])  # everything before the check runs
    with pytest.raises(AssertionError) as failure:
        run(notebook[: check + 1])
    message = str(failure.value)
    assert message.startswith("✘ "), message
    assert hint in message, message
