"""Grading that student code cannot subvert (issue #20), under real nbgrader, on every set.

Each attack of ``nbgrader_course.ATTACKS`` is a few generic lines in front of the first
answer cell of a submission whose answers are wrong. Under grading in the student's kernel
each of them scored full or nearly full marks; graded in isolation
(``minigrad_course.isolated_grading``) each must score no more than the untouched release,
and an attack that leaves a trace is flagged to the teacher with its reason. The submissions
are graded in the session's one ``nbgrader autograde`` run (the ``course`` fixture).

Sets covered: all of them (``SETS``); every hidden test of every set is graded in isolation.
"""

from __future__ import annotations

import hashlib
import html
import re
import shutil

import pytest
from nbgrader_course import (
    AFTER_OVERWRITE,
    ATTACKS,
    CHEATS,
    FLAGGED,
    NOISY_SETS,
    ROOT,
    SETS,
    grade_cells,
)

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)


def grading(course, student: str, name: str) -> dict:
    return course.autograded(student, name).metadata.get("minigrad_grading", {})


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("name", SETS)
def test_an_attack_scores_no_more_than_the_untouched_release(course, name, attack):
    score, _, cells = course.scores(attack, name)
    untouched, _, _ = course.scores("untouched", name)
    assert score <= untouched, cells


@pytest.mark.parametrize("attack", FLAGGED)
@pytest.mark.parametrize("name", SETS)
def test_an_attack_that_leaves_a_trace_is_flagged_with_its_reason(course, name, attack):
    flags = grading(course, attack, name)["flags"]
    assert any(FLAGGED[attack] in flag for flag in flags), flags
    # The formgrader and the feedback show it too, on top of the first code cell.
    page = html.unescape(course.feedback(attack, name))
    assert "flagged for the teacher" in page and FLAGGED[attack] in page
    assert any(FLAGGED[attack] in line for line in course.autograde_log.splitlines())


@pytest.mark.parametrize("name", SETS)
def test_honest_submissions_are_not_flagged(course, name):
    honest = ["solution", "untouched", "wrong-a", "wrong-b", AFTER_OVERWRITE]
    honest += ["noisy"] if name in NOISY_SETS else []
    for student in honest:
        assert grading(course, student, name)["flags"] == [], student


@needs_bwrap
@pytest.mark.parametrize("name", SETS)
def test_every_submission_ran_in_the_sandbox(course, name):
    for student in course.students:
        if course.submission_path(student, name).exists():
            assert grading(course, student, name)["isolation"] == "bwrap", student


@needs_bwrap
def test_overwriting_the_checks_on_disk_changes_nothing_for_the_next_student(course):
    # The installed checks are what they were before grading...
    now = hashlib.sha256((ROOT / "minigrad_course" / "checks.py").read_bytes()).hexdigest()
    assert now == course.checks_digest
    # ...and a blank submission graded after the attack, in the same autograde run, still
    # scores nothing on every set.
    graded = re.findall(r"Autograding \S*/autograded/([^/\s]+)/", course.autograde_log)
    order = list(dict.fromkeys(graded))
    assert order.index(AFTER_OVERWRITE) > order.index("attack-overwrite-checks")
    for name in SETS:
        assert course.scores(AFTER_OVERWRITE, name)[0] == 0, name


@needs_bwrap
@pytest.mark.parametrize("name", SETS)
def test_reading_the_teachers_source_finds_nothing(course, name):
    # The source is where the attack looks (it would find the solutions without isolation)...
    assert (course.root / "source" / name / f"{name}.ipynb").exists()
    # ...but the submission's cells ran where it cannot be read: no answer was right.
    score, _, _ = course.scores("attack-read-source", name)
    assert score <= course.scores("untouched", name)[0]


@pytest.mark.parametrize("student", [*CHEATS, *ATTACKS])
@pytest.mark.parametrize("name", SETS)
def test_an_attack_never_shows_a_hidden_test(course, name, student):
    for cell in grade_cells(course.autograded(student, name)):
        text = "".join(str(output) for output in cell.get("outputs", []))
        assert "expected=" not in text and "_grading.record" not in text
