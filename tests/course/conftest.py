"""tests/course: the exercise sets as an nbgrader course.

The helper modules of this folder (``nbgrader_course``, ``wrong_answers``) are imported by
name: pytest's importlib mode does not put test folders on ``sys.path``, so this does.
"""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from nbgrader_course import Course, Graded, build, grade_every_attack  # noqa: E402


@pytest.fixture(scope="session")
def course(tmp_path_factory) -> Course:
    """A temporary course directory: every set released, about 70 submissions autograded,
    feedback generated (a few minutes, once per session)."""
    return build(tmp_path_factory.mktemp("nbgrader-course"))


@pytest.fixture(scope="session")
def every_attack(course) -> dict[tuple[str, str], Graded]:
    """Each attack of ``nbgrader_course.ATTACKS`` on every set, graded in isolation."""
    return grade_every_attack(course)


@pytest.fixture(autouse=True)
def recursion_limit_kept() -> Iterator[None]:
    """Student code run in this process (a wrong answer of set 16 raises the recursion
    limit to hide its recursion) must not change the limit later tests rely on."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)
