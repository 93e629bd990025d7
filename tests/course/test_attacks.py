"""Grading that student code cannot subvert (issue #20), under real nbgrader, on every set.

Each attack of ``nbgrader_course.ATTACKS`` is a few generic lines in front of the first
answer cell of a submission whose answers are wrong. Under grading in the student's kernel
each of them scored full or nearly full marks; graded in isolation
(``minigrad_course.isolated_grading``) each must score no more than the untouched release,
and an attack that leaves a trace is flagged to the teacher with its reason.

Every attack is tried on every set (``SETS``: all of them; every hidden test of every set is
graded in isolation) by the ``every_attack`` fixture, which runs autograde's isolation step
alone, two submissions at a time; on the sets of ``ATTACKED_UNDER_NBGRADER`` the attacks are
also graded in the session's one ``nbgrader autograde`` run (the ``course`` fixture), where
the flags must reach autograde's log, the Formgrader's notebook and the feedback.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil

import pytest
from nbgrader_course import (
    AFTER_OVERWRITE,
    ATTACKED_UNDER_NBGRADER,
    ATTACKS,
    CHEATS,
    FLAGGED,
    NOISY_SETS,
    ROOT,
    SETS,
    attacked,
    grade_alone,
    grade_cells,
)

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)
FLAGGED_ATTACKS = [attack for attack in FLAGGED if attack in ATTACKS]
FLAGGED_CHEATS = [cheat for cheat in FLAGGED if cheat in CHEATS]


def grading(course, student: str, name: str) -> dict:
    return course.autograded(student, name).metadata.get("minigrad_grading", {})


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("name", SETS)
def test_an_attack_scores_no_more_than_the_untouched_release(course, every_attack, name, attack):
    untouched, _, _ = course.scores("untouched", name)
    assert every_attack[attack, name].score <= untouched


@pytest.mark.parametrize("name", SETS)
def test_graded_the_same_way_the_teachers_solutions_get_full_marks(course, every_attack, name):
    _, max_score, _ = course.scores("solution", name)
    assert every_attack["solution", name].score == max_score > 0
    assert every_attack["solution", name].flags == []


def test_without_the_sandbox_reading_the_teachers_source_would_pay(course):
    """The attack is real: graded with no sandbox, it finds the solutions and scores."""
    name = "03_backward_step_by_step"
    here = os.getcwd()
    os.chdir(course.root)
    try:
        nb = attacked(course, name, "attack-read-source")
        graded = grade_alone(course, "unsandboxed", name, nb, sandbox="none")
    finally:
        os.chdir(here)
    assert graded.isolation == "none" and graded.score == course.scores("solution", name)[0]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("name", ATTACKED_UNDER_NBGRADER)
def test_under_nbgrader_an_attack_scores_no_more_than_the_untouched_release(course, name, attack):
    score, _, cells = course.scores(attack, name)
    untouched, _, _ = course.scores("untouched", name)
    assert score <= untouched, cells


@pytest.mark.parametrize("attack", FLAGGED_ATTACKS)
@pytest.mark.parametrize("name", SETS)
def test_an_attack_that_leaves_a_trace_is_flagged_with_its_reason(every_attack, name, attack):
    flags = every_attack[attack, name].flags
    assert any(FLAGGED[attack] in flag for flag in flags), flags


@pytest.mark.parametrize("cheat", FLAGGED_CHEATS)
@pytest.mark.parametrize("name", SETS)
def test_a_cheat_is_flagged_with_its_reason(course, name, cheat):
    flags = grading(course, cheat, name)["flags"]
    assert any(FLAGGED[cheat] in flag for flag in flags), flags


@pytest.mark.parametrize("attack", FLAGGED_ATTACKS)
@pytest.mark.parametrize("name", ATTACKED_UNDER_NBGRADER)
def test_the_flag_reaches_the_log_the_formgrader_and_the_feedback(course, name, attack):
    reason = FLAGGED[attack]
    assert any(reason in flag for flag in grading(course, attack, name)["flags"])
    flagged = [line for line in course.autograde_log.splitlines() if "Flagged" in line]
    assert any(f"{attack}/{name}" in line and reason in line for line in flagged)
    # The Formgrader shows the autograded notebook: the note is on top of its first code cell.
    first = next(c for c in course.autograded(attack, name).cells if c.cell_type == "code")
    assert "flagged for the teacher" in first.outputs[0].get("text", "")
    page = html.unescape(course.feedback(attack, name))
    assert "flagged for the teacher" in page and reason in page


@pytest.mark.parametrize("name", SETS)
def test_honest_submissions_are_not_flagged(course, name):
    honest = ["solution", "untouched", "wrong-a", "wrong-b"]
    honest += ["noisy"] if name in NOISY_SETS else []
    honest += [AFTER_OVERWRITE] if name in ATTACKED_UNDER_NBGRADER else []
    for student in honest:
        assert grading(course, student, name)["flags"] == [], student


@needs_bwrap
@pytest.mark.parametrize("name", SETS)
def test_every_submission_ran_in_the_sandbox(course, every_attack, name):
    for student in course.students:
        if course.submission_path(student, name).exists():
            assert grading(course, student, name)["isolation"] == "bwrap", student
    for attack in ATTACKS:
        assert every_attack[attack, name].isolation == "bwrap", attack


@needs_bwrap
def test_overwriting_the_checks_on_disk_changes_nothing_for_the_next_student(course, every_attack):
    # The installed checks are what they were before grading, after every set's attack...
    now = hashlib.sha256((ROOT / "minigrad_course" / "checks.py").read_bytes()).hexdigest()
    assert now == course.checks_digest
    assert all(every_attack["attack-overwrite-checks", name].score == 0 for name in SETS)
    # ...and under nbgrader a blank submission graded after the attack, in the same autograde
    # run, still scores nothing.
    graded = re.findall(r"Autograding \S*/autograded/([^/\s]+)/", course.autograde_log)
    order = list(dict.fromkeys(graded))
    assert order.index(AFTER_OVERWRITE) > order.index("attack-overwrite-checks")
    for name in ATTACKED_UNDER_NBGRADER:
        assert course.scores(AFTER_OVERWRITE, name)[0] == 0, name


@needs_bwrap
@pytest.mark.parametrize("name", SETS)
def test_reading_the_teachers_source_finds_nothing(course, every_attack, name):
    # The source is where the attack looks (it would find the solutions without isolation)...
    assert (course.root / "source" / name / f"{name}.ipynb").exists()
    # ...but the submission's cells ran where it cannot be read: no answer was right.
    assert every_attack["attack-read-source", name].score == 0


@pytest.mark.parametrize("name", SETS)
def test_an_attack_never_shows_a_hidden_test(course, every_attack, name):
    notebooks = [every_attack[attack, name].nb for attack in ATTACKS]
    notebooks += [course.autograded(cheat, name) for cheat in CHEATS]
    for nb in notebooks:
        for cell in grade_cells(nb):
            text = "".join(str(output) for output in cell.get("outputs", []))
            assert "expected=" not in text and "_grading.record" not in text
