"""One nbgrader course, built and graded once per test session (the ``course`` fixture).

The teacher sources (``teacher/source``) are copied into a temporary course directory, so the
tests never touch the repository's course directory nor the user's home (the database, the
Jupyter config and runtime directories all live under the temporary directory). Then:

1. ``nbgrader generate_assignment "*"`` releases every set;
2. for every set, submissions are made from the release: the teacher's solutions, the
   untouched release, typical wrong answers (``wrong_answers.py``) and attempts to defeat
   grading (on top of wrong answers);
3. ``nbgrader autograde "*"`` grades them all in one call, ``nbgrader generate_feedback "*"``
   writes the feedback, and ``nbgrader validate`` checks some of them as a student would.

``build`` does all that; conftest.py makes it a session fixture.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from wrong_answers import WRONG  # noqa: F401 - tests import it from here

ROOT = Path(__file__).resolve().parents[2]
TEACHER = ROOT / "teacher"
SOURCES = TEACHER / "source"
RELEASED = ROOT / "notebooks" / "exercises"
SETS = sorted(path.name for path in SOURCES.iterdir() if path.is_dir())
BIN = Path(sys.executable).parent


SOLUTION_MARKERS = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$")

# Attempts to get marks without the answers, each put in front of the first answer cell of a
# submission whose answers are all wrong ("wrong-a").
CHEATS = {
    # Environment variables (the old checks obeyed MINIGRAD_AUTOGRADE), and every check of
    # the module the grade cells use replaced by one that accepts anything.
    "cheat-patch": """\
import os

os.environ["MINIGRAD_AUTOGRADE"] = "0"
os.environ["NBGRADER_EXECUTION"] = ""
import minigrad_course.checks

for _name in dir(minigrad_course.checks):
    if _name.startswith("check_") or _name.startswith("_"):
        try:
            setattr(minigrad_course.checks, _name, lambda *args, **kwargs: None)
        except (AttributeError, TypeError):
            pass
""",
    # The checker redefined: `mc` becomes an object that accepts any check, and the module
    # is replaced by a fake one in sys.modules.
    "cheat-replace": """\
import sys
import types


class _AcceptEverything(types.ModuleType):
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


mc = _AcceptEverything("minigrad_course.checks")
sys.modules["minigrad_course.checks"] = mc
""",
}


# Appended to an answer cell: it warns and prints, and so does every function it defines,
# each time it is called (in the grade cells).
NOISY = """

import functools as _functools
import inspect as _inspect
import warnings as _warnings


def _noisy(function):
    @_functools.wraps(function)
    def noisy(*args, **kwargs):
        _warnings.warn("a right answer that warns", stacklevel=2)
        print("a right answer that prints")
        return function(*args, **kwargs)

    return noisy


for _name in {names}:
    if _inspect.isfunction(globals()[_name]):
        globals()[_name] = _noisy(globals()[_name])
_warnings.warn("an answer cell that warns", stacklevel=1)
print("an answer cell that prints")
"""


def defined_functions(source: str) -> list[str]:
    tree = ast.parse(source)
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]


def noisy(source: str) -> str:
    """An answer that works like ``source`` but warns and prints each time it is used."""
    return source + NOISY.format(names=defined_functions(source))


def strip_solution(source: str) -> str:
    """The teacher's answer as a student would type it: the source without the markers."""
    return "\n".join(line for line in source.splitlines() if not SOLUTION_MARKERS.match(line))


def nbgrader_meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def answer_cells(nb) -> list:
    return [cell for cell in nb.cells if nbgrader_meta(cell).get("solution")]


def grade_cells(nb) -> list:
    return [cell for cell in nb.cells if nbgrader_meta(cell).get("grade")]


def by_id(nb) -> dict:
    return {nbgrader_meta(c)["grade_id"]: c for c in nb.cells if nbgrader_meta(c)}


def read(path: Path):
    return nbformat.read(path, as_version=4)


def error_text(cell) -> str:
    return "\n".join(
        f"{out.get('ename')}: {out.get('evalue')}"
        for out in cell.get("outputs", [])
        if out["output_type"] == "error"
    )


@dataclass
class Course:
    """A temporary nbgrader course directory, released, submitted and graded."""

    root: Path
    env: dict
    students: list[str] = field(default_factory=list)
    autograde_log: str = ""

    def nbgrader(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [
            str(BIN / "nbgrader"),
            *args,
            # teacher/nbgrader_config.py is read from the course directory; these override
            # where it puts things, so that everything stays in the temporary directory.
            f"--CourseDirectory.root={self.root}",
            "--CourseDirectory.course_id=minigrad-test",
            "--CourseDirectory.release_directory=release",
            f"--CourseDirectory.db_url=sqlite:///{self.root / 'gradebook.db'}",
        ]
        result = subprocess.run(
            command, cwd=self.root, env=self.env, capture_output=True, text=True, timeout=900
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
            )
        return result

    def release(self, name: str):
        return read(self.root / "release" / name / f"{name}.ipynb")

    def source(self, name: str):
        return read(SOURCES / name / f"{name}.ipynb")

    def submission_path(self, student: str, name: str) -> Path:
        return self.root / "submitted" / student / name / f"{name}.ipynb"

    def autograded(self, student: str, name: str):
        return read(self.root / "autograded" / student / name / f"{name}.ipynb")

    def feedback(self, student: str, name: str) -> str:
        return (self.root / "feedback" / student / name / f"{name}.html").read_text()

    def scores(self, student: str, name: str) -> tuple[float, float, dict[str, float]]:
        """(score, max score, score of each grade cell) from the gradebook."""
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{self.root / 'gradebook.db'}") as gradebook:
            notebook = gradebook.find_submission_notebook(name, name, student)
            cells = {grade.name: grade.score for grade in notebook.grades}
            return notebook.score, notebook.max_score, cells

    def submit(self, student: str, name: str, nb) -> None:
        path = self.submission_path(student, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        if student not in self.students:
            self.students.append(student)


def solved(course: Course, name: str):
    """The release with the teacher's solution typed into every answer cell."""
    nb = course.release(name)
    solutions = by_id(course.source(name))
    for cell in answer_cells(nb):
        cell.source = strip_solution(solutions[nbgrader_meta(cell)["grade_id"]].source)
    return nb


def with_wrong(course: Course, name: str, which: int):
    """The solved notebook with wrong answer number ``which`` of each exercise (the solution
    where an exercise has no such wrong answer)."""
    nb = solved(course, name)
    for grade_id, mistakes in WRONG[name].items():
        if which < len(mistakes):
            by_id(nb)[grade_id].source = mistakes[which][0]
    return nb


# Sets graded once more with the teacher's answers made to warn and print (``noisy``): a
# full nbgrader round trip for a few sets; test_graded_fairly.py covers every set in-process.
NOISY_SETS = ["09_training", "14_control_flow", "16_build_your_own_engine"]


def noisy_solution(course: Course, name: str):
    """The solved release, every answer warning and printing (a right answer all the same)."""
    nb = solved(course, name)
    for cell in answer_cells(nb):
        if cell.cell_type == "code":
            cell.source = noisy(cell.source)
    return nb


def log_by_submission(log: str) -> dict[tuple[str, str], list[str]]:
    """Autograde's warnings, by (student, set): each follows the submission it names."""
    warnings: dict[tuple[str, str], list[str]] = {}
    current = None
    for line in log.splitlines():
        named = re.search(r"submitted/([^/\s]+)/([^/\s]+)/", line)
        if named:
            current = named.groups()
        elif "WARNING" in line and current is not None:
            warnings.setdefault(current, []).append(line)
    return warnings


def build(root: Path) -> Course:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"  # nbgrader runs `alembic`
    for variable, folder in [
        ("JUPYTER_CONFIG_DIR", "jupyter-config"),
        ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
        ("JUPYTER_DATA_DIR", "jupyter-data"),
        ("IPYTHONDIR", "ipython"),
    ]:
        env[variable] = str(root / folder)
    env.pop("MINIGRAD_AUTOGRADE", None)
    shutil.copytree(SOURCES, root / "source")
    shutil.copy(TEACHER / "nbgrader_config.py", root / "nbgrader_config.py")
    course = Course(root=root, env=env)
    course.nbgrader("generate_assignment", "*", "--force")

    for name in SETS:
        course.submit("solution", name, solved(course, name))
        course.submit("untouched", name, course.release(name))
        course.submit("wrong-a", name, with_wrong(course, name, 0))
        course.submit("wrong-b", name, with_wrong(course, name, 1))
        for student, code in CHEATS.items():
            nb = with_wrong(course, name, 0)
            first = answer_cells(nb)[0]
            first.source = code + "\n" + first.source
            course.submit(student, name, nb)
        # Editing a locked cell: every grade cell emptied, the answers wrong.
        nb = with_wrong(course, name, 0)
        for cell in grade_cells(nb):
            cell.source = "pass"
        course.submit("cheat-locked", name, nb)
    for name in NOISY_SETS:
        course.submit("noisy", name, noisy_solution(course, name))

    graded = course.nbgrader("autograde", "*", "--force")
    course.autograde_log = graded.stdout + graded.stderr
    course.nbgrader("generate_feedback", "*", "--force")
    return course
