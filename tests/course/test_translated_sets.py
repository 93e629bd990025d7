"""A translated exercise set under real nbgrader, in each language's own course directory.

For the pilot set (03) in Russian and in Chinese, a temporary copy of ``teacher/<lang>``
(its ``nbgrader_config.py`` loads the English one, which sits above it as in the repository)
goes through ``generate_assignment``, ``autograde`` (the course's sandboxed grading) and
``generate_feedback``, with three submissions: the teacher's answers, the untouched release,
and the first typical wrong answer of every exercise (``wrong_answers.py``). Then:

- the release is the one committed in ``notebooks/<lang>/exercises`` and says its language;
- the teacher's answers score full marks, the untouched release 0;
- the feedback speaks the language: the checks' own words and the set's hints and
  common-mistake messages are there in translation, and their English is not.

Run: ``.venv/bin/python -m pytest tests/course/test_translated_sets.py -q`` (about a minute
a language).
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader_course import (
    ROOT,
    TEACHER,
    WRONG,
    Course,
    answer_cells,
    by_id,
    course_environment,
    grade_cells,
    nbgrader_meta,
    read,
    strip_solution,
)

PILOT = "03_backward_step_by_step"
LANGUAGES = ("ru", "zh_CN")
SCRIPT = {"ru": "[\u0400-\u04ff]", "zh_CN": "[\u4e00-\u9fff]"}
# The checks' own sentence for an unanswered exercise, as minigrad_course's catalogs say it.
NOT_ANSWERED = {"ru": "ответа пока нет", "zh_CN": "尚未作答"}


def load_tool():
    spec = importlib.util.spec_from_file_location(
        "translate_exercises", ROOT / "scripts" / "translate_exercises.py"
    )
    if spec.name in sys.modules:
        return sys.modules[spec.name]
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def translated_course(root: Path, lang: str) -> Course:
    """A temporary course directory ``root/<lang>`` laid out as ``teacher/<lang>``."""
    env = course_environment(root)
    env.pop("LANGUAGE", None)  # the language must come from the notebook, not the locale
    shutil.copy(TEACHER / "nbgrader_config.py", root / "nbgrader_config.py")
    course_root = root / lang
    (course_root / "source").mkdir(parents=True)
    shutil.copy(TEACHER / lang / "nbgrader_config.py", course_root / "nbgrader_config.py")
    shutil.copytree(TEACHER / lang / "source" / PILOT, course_root / "source" / PILOT)
    return Course(root=course_root, env=env)


def solved(course: Course, lang: str):
    nb = course.release(PILOT)
    solutions = by_id(read(tool.translated_source_path(lang, PILOT)))
    for cell in answer_cells(nb):
        cell.source = strip_solution(solutions[nbgrader_meta(cell)["grade_id"]].source)
    return nb


def first_wrong_answers(course: Course, lang: str):
    nb = solved(course, lang)
    for grade_id, mistakes in WRONG[PILOT].items():
        by_id(nb)[grade_id].source = mistakes[0][0]
    return nb


@pytest.fixture(scope="module", params=LANGUAGES)
def graded(request, tmp_path_factory) -> tuple[str, Course]:
    lang = request.param
    course = translated_course(tmp_path_factory.mktemp(f"course-{lang}"), lang)
    course.nbgrader("generate_assignment", PILOT, "--force")
    course.submit("solution", PILOT, solved(course, lang))
    course.submit("untouched", PILOT, course.release(PILOT))
    course.submit("wrong-a", PILOT, first_wrong_answers(course, lang))
    course.nbgrader("autograde", PILOT, "--force")
    course.nbgrader("generate_feedback", PILOT, "--force")
    return lang, course


def canonical(path: Path) -> str:
    return json.dumps(json.loads(path.read_text(encoding="utf-8")), sort_keys=True, indent=1)


def test_the_committed_release_is_what_nbgrader_generates(graded):
    lang, course = graded
    committed = tool.released_path(lang, PILOT)
    fresh = course.root / "release" / PILOT / f"{PILOT}.ipynb"
    assert canonical(fresh) == canonical(committed), (
        f"{committed} is stale: python scripts/translate_exercises.py build {PILOT}"
    )
    assert nbformat.read(committed, as_version=4).metadata["minigrad"]["language"] == lang


def test_the_teachers_answers_score_full_marks_and_a_blank_release_none(graded):
    _, course = graded
    score, max_score, cells = course.scores("solution", PILOT)
    assert max_score == 4 and score == max_score, cells
    score, _, cells = course.scores("untouched", PILOT)
    assert score == 0, cells
    score, _, cells = course.scores("wrong-a", PILOT)
    assert score == 0, cells


def feedback_text(course: Course, student: str) -> str:
    return html.unescape(course.feedback(student, PILOT))


def test_the_feedback_speaks_the_notebooks_language(graded):
    lang, course = graded
    untouched = feedback_text(course, "untouched")
    assert untouched.count(NOT_ANSWERED[lang]) >= 4  # one failing check per exercise
    assert "not answered yet" not in untouched

    wrong = feedback_text(course, "wrong-a")
    catalog = tool.lessons.read_catalog(tool.catalog_path(lang, PILOT))
    words = [m for m in catalog if m.id and "a check's" in m.auto_comments[0]]
    for grade_id, mistakes in WRONG[PILOT].items():
        # The message the wrong answer triggers (wrong_answers.py quotes part of its English):
        # the student reads its translation.
        english = [m for m in words if mistakes[0][1] in m.id]
        assert len(english) == 1, (grade_id, mistakes[0][1])
        assert english[0].string in wrong, (grade_id, english[0].string)
    # No English hint, message or label of the set reaches the student.
    assert words and not [m.id for m in words if m.id in wrong]
    nb = course.autograded("wrong-a", PILOT)
    for cell in grade_cells(nb):
        errors = [out for out in cell.outputs if out["output_type"] == "error"]
        assert errors and re.search(SCRIPT[lang], errors[0]["evalue"]), cell.source[:60]
