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
import hashlib
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


# Ways out of a kernel that need no knowledge of the checks (issue #20), each put in front of
# the first answer cell of a "wrong-a" submission like the cheats above. Under the old
# grading, where the hidden tests ran in the student's kernel, each scored full or nearly
# full marks. ``{course}``, ``{repo}`` and ``{set}`` are filled in by ``attack_code``.
ATTACKS = {
    # Every comparison the hidden tests could use says "equal".
    "attack-allclose": """\
import math

import numpy

numpy.allclose = lambda *args, **kwargs: True
numpy.isclose = lambda *args, **kwargs: numpy.array(True)
math.isclose = lambda *args, **kwargs: True
""",
    # An import hook serving a fake checks module to the hidden tests' fresh import.
    "attack-meta-path": """\
import importlib.abc
import importlib.util
import sys


class _FakeChecks(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name == "minigrad_course.checks":
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__getattr__ = lambda name: (lambda *args, **kwargs: None)


sys.meta_path.insert(0, _FakeChecks())
sys.modules.pop("minigrad_course.checks", None)
""",
    # Later cells (the grade cells, hidden tests in) rewritten before they run.
    "attack-input-transformer": """\
def _no_checks(lines):
    text = "".join(lines)
    return ["pass\\n"] if "check" in text or "record" in text else lines


get_ipython().input_transformers_post.append(_no_checks)
""",
    # Every import of the checks answered by a module that accepts everything.
    "attack-import": """\
import builtins
import types

_real_import = builtins.__import__
_accepting = types.ModuleType("minigrad_course.checks")
_accepting.__getattr__ = lambda name: (lambda *args, **kwargs: None)


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if name.startswith("minigrad_course"):
        module = types.ModuleType(name)
        module.checks = _accepting
        return _accepting if name.endswith("checks") and fromlist else module
    return _real_import(name, globals, locals, fromlist, level)


builtins.__import__ = _import
""",
    # The teacher's source read at grading time (relative to the submission, and at the
    # course's real path), and its solutions run after every cell, so that they replace the
    # wrong answers just before each check: full marks without ever seeing the key.
    "attack-read-source": """\
import json
import os

_stolen = []
for _path in ["../../../source/{set}/{set}.ipynb", "{course}/source/{set}/{set}.ipynb"]:
    if os.path.exists(_path):
        with open(_path) as _file:
            _cells = json.load(_file)["cells"]
        _stolen = [
            "".join(_cell["source"])
            for _cell in _cells
            if _cell["metadata"].get("nbgrader", {{}}).get("solution")
        ]
        break


def _run_the_stolen_solutions(*args):
    for _code in _stolen:
        try:
            exec(_code, globals())
        except Exception:
            pass


get_ipython().events.register("post_run_cell", _run_the_stolen_solutions)
""",
    # The installed checks overwritten on disk: every student graded later would pass.
    "attack-overwrite-checks": """\
import importlib.util

_accept = "def __getattr__(name):\\n    return lambda *args, **kwargs: None\\n"
for _path in [importlib.util.find_spec("minigrad_course.checks").origin,
              "{repo}/minigrad_course/checks.py"]:
    try:
        with open(_path, "w") as _file:
            _file.write(_accept)
    except OSError:
        pass
""",
    # The process ends before any hidden test can fail.
    "attack-exit": """\
import os

os._exit(0)
""",
    # AssertionError, which every failing check raises, made harmless.
    "attack-assertion": """\
import builtins


class _Harmless:
    def __init__(self, *args):
        pass


builtins.AssertionError = _Harmless
""",
    # A line-trace hook that jumps over every `raise` of the checks' failure helper.
    "attack-settrace": """\
import linecache
import sys


def _skip_raises(frame, event, arg):
    if event == "call":
        return _skip_raises if frame.f_code.co_name == "_fail" else None
    if event == "line":
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
        if line.strip().startswith("raise"):
            try:
                frame.f_lineno = frame.f_lineno + 1
            except ValueError:
                pass
    return _skip_raises


sys.settrace(_skip_raises)
""",
    # Answers forged: the grading program read, every check reported passed, the process
    # ended before the real answers could be recorded.
    "attack-forge": """\
import json
import os
import re

for _folder, _, _files in os.walk("/tmp"):
    for _file in _files:
        if _file == "program.json":
            _program = json.load(open(os.path.join(_folder, _file)))
            _records = []
            for _step in _program["steps"]:
                for _id, _index, _kind in re.findall(
                    r"record\\('([^']+)', (\\d+), '([^']+)'", _step["code"]
                ):
                    _records.append({{"cell": _id, "index": int(_index), "kind": _kind,
                                     "data": {{"passed": True}}}})
            _report = {{"cells": [], "records": _records, "finished": True}}
            for _out in ["/tmp/answers/answers.json", "answers.json"]:
                try:
                    json.dump(_report, open(_out, "w"))
                except OSError:
                    pass
            print("[AutogradeApp | INFO] all tests passed")
            os._exit(0)
""",
}
# Attacks that leave a trace, and the reason the teacher is given.
FLAGGED = {
    "attack-allclose": "changed numpy.allclose",
    "attack-meta-path": "changed the import system",
    "attack-input-transformer": "changed IPython's input transformers",
    "attack-read-source": "changed IPython's event hooks",
    "attack-import": "changed builtins.__import__",
    "attack-exit": "stopped before the last cell",
    "attack-assertion": "changed builtins.AssertionError",
    "attack-settrace": "a trace or profile hook",
    "attack-forge": "sent back malformed answers",
    "cheat-patch": "changed the checks module",
    "cheat-replace": "changed the checks module",
}
# Graded after "attack-overwrite-checks" (autograde takes students in order of their names):
# a blank submission that must still score nothing.
AFTER_OVERWRITE = "zz-untouched-after-overwrite"


# Every attack is graded on every set by ``grade_every_attack`` (the isolation itself, without
# nbgrader's bookkeeping, which would cost minutes); on these sets also under nbgrader, in the
# session's autograde run, to show the flags in the log, the Formgrader and the feedback.
ATTACKED_UNDER_NBGRADER = ["03_backward_step_by_step", "16_build_your_own_engine"]


def attack_code(attack: str, course: Path, name: str) -> str:
    """An attack's code for one set, with the paths a cheating student would try."""
    return ATTACKS[attack].format(course=course, repo=ROOT, set=name)


def attacked(course: Course, name: str, attack: str):
    """A submission with every answer wrong and ``attack`` in front of its first answer."""
    nb = with_wrong(course, name, 0)
    first = answer_cells(nb)[0]
    first.source = attack_code(attack, course.root, name) + "\n" + first.source
    return nb


@dataclass
class Graded:
    """One submission graded by GradeInIsolation alone: its score, flags and notebook."""

    score: float
    flags: list[str]
    isolation: str
    nb: object


def grade_alone(course: Course, student: str, name: str, nb, sandbox: str = "auto") -> Graded:
    """Grade ``nb`` as autograde's GradeInIsolation step does, from the course's gradebook
    and in the course folder (call it from there), and score it as nbgrader does."""
    from nbgrader.utils import determine_grade

    from minigrad_course.isolated_grading import GradeInIsolation

    folder = course.root / "alone" / student / name
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{name}.ipynb")
    resources = {
        "nbgrader": {
            "notebook": name,
            "assignment": name,
            "student": student,
            "db_url": f"sqlite:///{course.root / 'gradebook.db'}",
        },
        "metadata": {"path": str(folder)},
    }
    graded, _ = GradeInIsolation(timeout=300, sandbox=sandbox).preprocess(nb, resources)
    score = sum(determine_grade(cell)[0] for cell in grade_cells(graded))
    info = graded.metadata["minigrad_grading"]
    return Graded(score, info["flags"], info["isolation"], graded)


def grade_every_attack(course: Course) -> dict[tuple[str, str], Graded]:
    """Every attack on every set, graded in isolation, two submissions at a time; with the
    teacher's solutions ("solution"), which must get full marks the same way."""
    from concurrent.futures import ThreadPoolExecutor

    def grade(job: tuple[str, str]) -> Graded:
        student, name = job
        nb = solved(course, name) if student == "solution" else attacked(course, name, student)
        return grade_alone(course, student, name, nb)

    jobs = [(student, name) for name in SETS for student in ["solution", *ATTACKS]]
    here = Path.cwd()
    os.chdir(course.root)  # where nbgrader runs: the course folder that the sandbox hides
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(jobs, pool.map(grade, jobs)))
    finally:
        os.chdir(here)


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
    checks_digest: str = ""  # of the installed checks.py before grading

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
            command, cwd=self.root, env=self.env, capture_output=True, text=True, timeout=1800
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


def course_environment(root: Path) -> dict:
    """The environment nbgrader runs in for a course at ``root``: every Jupyter and IPython
    folder inside it, nothing of the user's home."""
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
    return env


def build(root: Path) -> Course:
    env = course_environment(root)
    shutil.copytree(SOURCES, root / "source")
    shutil.copy(TEACHER / "nbgrader_config.py", root / "nbgrader_config.py")
    course = Course(root=root, env=env)
    checks = ROOT / "minigrad_course" / "checks.py"
    course.checks_digest = hashlib.sha256(checks.read_bytes()).hexdigest()
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
        if name in ATTACKED_UNDER_NBGRADER:
            for attack in ATTACKS:
                course.submit(attack, name, attacked(course, name, attack))
            course.submit(AFTER_OVERWRITE, name, course.release(name))
    for name in NOISY_SETS:
        course.submit("noisy", name, noisy_solution(course, name))

    graded = course.nbgrader("autograde", "*", "--force")
    course.autograde_log = graded.stdout + graded.stderr
    course.nbgrader("generate_feedback", "*", "--force")
    return course
