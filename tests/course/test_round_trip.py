"""nbgrader itself, on every exercise set: release, autograde, validate, feedback.

The ``course`` fixture (conftest.py) builds one temporary course directory per session and
grades every submission in one ``nbgrader autograde`` call; these tests read the results.

Run: ``.venv/bin/python -m pytest tests/course -q`` (a few minutes: about 70 notebooks are
graded in fresh kernels).
"""

from __future__ import annotations

import html
import json
import re

import pytest
from nbgrader_course import (
    CHEATS,
    NOISY_SETS,
    RELEASED,
    SETS,
    WRONG,
    by_id,
    error_text,
    grade_cells,
    log_by_submission,
    nbgrader_meta,
)


def _canonical_json(path_or_nb) -> str:
    data = path_or_nb if isinstance(path_or_nb, dict) else json.loads(path_or_nb.read_text())
    return json.dumps(data, sort_keys=True, indent=1)


@pytest.mark.parametrize("name", SETS)
def test_the_committed_release_is_what_nbgrader_generates(course, name):
    fresh = course.root / "release" / name / f"{name}.ipynb"
    committed = RELEASED / name / f"{name}.ipynb"
    assert committed.exists(), f"run nbgrader generate_assignment {name} in teacher/"
    assert _canonical_json(fresh) == _canonical_json(committed), (
        f"{committed} is stale: cd teacher && nbgrader generate_assignment {name} --force"
    )
    assert sorted(p.name for p in committed.parent.iterdir()) == [f"{name}.ipynb"]


@pytest.mark.parametrize("name", SETS)
def test_the_teachers_solutions_get_full_marks(course, name):
    score, max_score, cells = course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells


@pytest.mark.parametrize("name", SETS)
def test_the_untouched_release_gets_no_points(course, name):
    score, _, cells = course.scores("untouched", name)
    assert score == 0, cells
    nb = course.autograded("untouched", name)
    for cell in grade_cells(nb):
        assert "not answered yet" in error_text(cell), cell.source[:80]


def _grade_cell_after(nb, answer_id: str) -> str:
    ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
    for later in ids[ids.index(answer_id) + 1 :]:
        if later and later.endswith("_check"):
            return later
    raise AssertionError(f"no grade cell after {answer_id}")


def wrong_submission(name: str, which: int) -> bool:
    """Whether submission "wrong-a" (0) or "wrong-b" (1) of a set has a wrong answer."""
    return any(len(mistakes) > which for mistakes in WRONG[name].values())


WRONG_SUBMISSIONS = [
    pytest.param(name, which, id=f"{name}-{'ab'[which]}")
    for name in SETS
    for which in (0, 1)
    if wrong_submission(name, which)
]


@pytest.mark.parametrize(("name", "which"), WRONG_SUBMISSIONS)
def test_a_typical_wrong_answer_loses_its_points_with_its_hint(course, name, which):
    student = ["wrong-a", "wrong-b"][which]
    score, max_score, cells = course.scores(student, name)
    nb = course.autograded(student, name)
    cells_by_id = by_id(nb)
    feedback = html.unescape(course.feedback(student, name))
    wrong_cells = set()
    for answer_id, mistakes in WRONG[name].items():
        if which >= len(mistakes):
            continue
        check_id = _grade_cell_after(nb, answer_id)
        wrong_cells.add(check_id)
        hint = mistakes[which][1]
        assert cells[check_id] == 0, f"{check_id} gave points for a wrong answer"
        shown = error_text(cells_by_id[check_id])
        assert hint in shown, f"{check_id}: expected the hint {hint!r}, got {shown!r}"
        assert hint in feedback, f"the feedback does not show the hint {hint!r}"
    assert wrong_cells and score < max_score
    # The exercises answered right still get their points.
    for check_id, points in cells.items():
        if check_id not in wrong_cells:
            assert points == nbgrader_meta(cells_by_id[check_id])["points"], check_id


@pytest.mark.parametrize("student", [*CHEATS, "cheat-locked"])
@pytest.mark.parametrize("name", SETS)
def test_an_attempt_to_defeat_grading_gets_no_more_than_the_untouched_release(
    course, name, student
):
    score, _, cells = course.scores(student, name)
    untouched, _, _ = course.scores("untouched", name)
    assert score <= untouched, cells


@pytest.mark.parametrize("name", SETS)
def test_autograde_restores_an_edited_locked_cell(course, name):
    released = {c.id: c.source for c in grade_cells(course.release(name))}
    graded = course.autograded("cheat-locked", name)
    for cell in grade_cells(graded):
        assert cell.source.startswith(released[cell.id].rstrip()), cell.id
        assert "### BEGIN HIDDEN TESTS" in cell.source  # the grader's version, hidden tests in


VERDICT = re.compile(
    r"Success! Your notebook passes all the tests\.|VALIDATION FAILED ON (\d+) CELL\(S\)!"
)


def test_validate_fails_on_wrong_answers_and_passes_the_solutions(course):
    """``nbgrader validate`` is what a student's Validate button runs: the released checks,
    no hidden tests, no environment variable. Each set once with some answers right and
    some wrong ("wrong-b", or "wrong-a" where there is no "wrong-b"), once solved."""
    wrong = [
        (
            name,
            "wrong-b" if wrong_submission(name, 1) else "wrong-a",
            1 if wrong_submission(name, 1) else 0,
        )
        for name in SETS
    ]
    submissions = [*wrong, *((name, "solution", None) for name in SETS)]
    paths = [course.submission_path(student, name) for name, student, _ in submissions]
    result = course.nbgrader("validate", *map(str, paths), check=False)
    verdicts = VERDICT.findall(result.stdout)
    assert len(verdicts) == len(paths), result.stdout[-3000:] + result.stderr[-3000:]
    for (name, student, which), failed_cells in zip(submissions, verdicts):
        if which is None:
            assert failed_cells == "", f"validate failed the teacher's solution of {name}"
        else:
            wrong_exercises = sum(len(m) > which for m in WRONG[name].values())
            assert failed_cells and int(failed_cells) == wrong_exercises, (name, student)


@pytest.mark.parametrize("name", SETS)
def test_feedback_is_written_for_every_submission(course, name):
    for student in course.students:
        if not course.submission_path(student, name).exists():
            continue  # "noisy" submitted a few sets only
        page = html.unescape(course.feedback(student, name))
        score, max_score, _ = course.scores(student, name)
        assert f"{score:g}" in page and f"{max_score:g}" in page
        # Feedback shows the released checks and one-line messages, never the hidden tests
        # (not even in a traceback of a hidden test that failed, after a cheat).
        assert "BEGIN HIDDEN TESTS" not in page and "_mc.check" not in page
        assert "expected=" not in page and "most recent call last" not in page


@pytest.mark.parametrize("name", NOISY_SETS)
def test_a_right_answer_that_warns_and_prints_gets_full_marks(course, name):
    score, max_score, cells = course.scores("noisy", name)
    assert max_score > 0 and score == max_score, cells
    nb = course.autograded("noisy", name)
    notes = "".join(
        out.get("text", "")
        for cell in grade_cells(nb)
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    )
    # The functions' warnings reached the student, on stdout, as a note.
    assert "a right answer that warns" in notes and "costs no marks" in notes


def test_autograde_warns_only_about_the_locked_cells_that_were_edited(course):
    warned = log_by_submission(course.autograde_log)
    assert "Attribute 'checksum'" not in course.autograde_log
    for student in course.students:
        for name in SETS:
            edited = [line for line in warned.get((student, name), []) if "was edited" in line]
            if student != "cheat-locked":
                assert edited == [], (student, name, edited[:2])
            else:  # every grade cell of this submission was emptied
                expected = {nbgrader_meta(c)["grade_id"] for c in grade_cells(course.release(name))}
                named = {re.search(r"Locked cell (\S+) was edited", line)[1] for line in edited}
                assert named == expected, name
