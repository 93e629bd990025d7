"""docs/teachers.md followed literally: its one-machine steps, run in order in a fresh clone,
take a student's notebook to full marks, a feedback page and ``grades.csv``, and leave git
with nothing to commit. The commands are read out of the doc's marked code block, so the
doc and this test cannot drift apart.

The course id and the exchange folder's permissions, which a teacher copies from the docs,
are the same in teachers.md, jupyterhub.md and ``teacher/nbgrader_config.py``.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TEACHERS_GUIDE = DOCS / "teachers.md"
HUB_GUIDE = DOCS / "jupyterhub.md"
CONFIG = ROOT / "teacher" / "nbgrader_config.py"
BIN = Path(sys.executable).parent
# The MyST comment in front of the block this test runs.
MARKER = "tests/course/test_teachers_guide.py runs the block below"
# The comment of the "collect" step names where a student's notebook goes.
SUBMISSION_PLACE = re.compile(r"submitted/<student id>/(?P<set>[\w-]+)/(?P<file>[\w-]+\.ipynb)")
SOLUTION_MARKERS = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$")
STUDENT = "alice"


def one_machine_steps() -> list[str]:
    """The lines of the code block that follows the marker in docs/teachers.md."""
    text = TEACHERS_GUIDE.read_text()
    assert text.count(MARKER) == 1, "the one-machine block is marked once"
    block = re.search(r"```bash\n(.*?)```", text[text.index(MARKER) :], re.DOTALL)
    assert block is not None, "a ```bash block follows the marker"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def fresh_clone(destination: Path) -> Path:
    """A git repository holding what this checkout tracks of the course (teacher/, the
    released sets, .gitignore), as in the working tree, committed: a clone, as a teacher
    gets it."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--", "teacher", "notebooks/exercises", ".gitignore"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).exists():  # a file deleted but not yet committed is not cloned
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "clone"]):
        subprocess.run([*git, *command], cwd=destination, check=True, capture_output=True)
    return destination


def isolated_env(scratch: Path) -> dict:
    """The environment nbgrader runs in: this venv's programs first (nbgrader calls
    `alembic`), and Jupyter's folders in the scratch folder, never the user's own."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    for variable in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR"):
        env[variable] = str(scratch / variable.lower())
    return env


def nbgrader(words: list[str], cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """One nbgrader command of the doc, as written, pinned to the clone's course directory
    and its gradebook (so no configuration of the user's can send it elsewhere)."""
    command = [
        str(BIN / "nbgrader"),
        *words[1:],
        f"--CourseDirectory.root={cwd}",
        f"--CourseDirectory.db_url=sqlite:///{cwd / 'gradebook.db'}",
    ]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def solved_release(clone: Path, name: str):
    """The student version of set ``name`` with the teacher's solutions typed into its answer
    cells (without the solution markers), as an honest student hands it in."""
    release = nbformat.read(clone / "notebooks" / "exercises" / name / f"{name}.ipynb", 4)
    source = nbformat.read(clone / "teacher" / "source" / name / f"{name}.ipynb", 4)
    solutions = {
        cell.metadata["nbgrader"]["grade_id"]: cell.source
        for cell in source.cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }
    for cell in release.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            lines = solutions[meta["grade_id"]].splitlines()
            cell.source = "\n".join(line for line in lines if not SOLUTION_MARKERS.match(line))
    return release


def test_the_one_machine_steps_in_order_give_full_marks_feedback_and_grades(tmp_path):
    clone = fresh_clone(tmp_path / "clone")
    env = isolated_env(tmp_path / "scratch")
    steps = one_machine_steps()
    cwd = clone
    ran: list[str] = []
    handed_in: list[Path] = []
    for step in steps:
        if step.startswith("#"):
            place = SUBMISSION_PLACE.search(step)
            if place:  # the "collect" step: the student's notebook where the doc says
                path = cwd / "submitted" / STUDENT / place["set"] / place["file"]
                path.parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(solved_release(clone, place["set"]), path)
                handed_in.append(path)
                ran.append("collect")
            continue
        words = shlex.split(step, comments=True)
        if words[0] == "cd":
            cwd = (cwd / words[1]).resolve()
            assert cwd.is_dir() and clone in cwd.parents, step
            continue
        assert words[0] == "nbgrader", f"a step this test does not know how to run: {step}"
        result = nbgrader(words, cwd, env)
        assert result.returncode == 0, f"{step} failed:\n{result.stdout}\n{result.stderr}"
        ran.append(words[1])
    # Every step of the way is in the block, in an order that works (each one above
    # succeeded, and autograde fails without generate_assignment first: see below).
    assert ran == ["generate_assignment", "collect", "autograde", "generate_feedback", "export"]
    assert cwd == clone / "teacher"
    (submission,) = handed_in
    name = submission.parent.name

    # Full marks for the teacher's answers, in the grades.csv that `export` wrote.
    with (cwd / "grades.csv").open(newline="") as grades:
        rows = [row for row in csv.DictReader(grades) if row["student_id"] == STUDENT]
    assert [row["assignment"] for row in rows] == [name]
    assert float(rows[0]["max_score"]) > 0
    assert float(rows[0]["score"]) == float(rows[0]["max_score"])
    feedback = cwd / "feedback" / STUDENT / name / f"{name}.html"
    assert "BEGIN HIDDEN TESTS" not in feedback.read_text()

    # The gradebook, grades.csv, the submission, the graded copy and the feedback are all
    # there, and git shows none of them (nor any change to a tracked file).
    for made in ("gradebook.db", "grades.csv", "submitted", "autograded", "feedback"):
        assert (cwd / made).exists(), made
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--ignored=no"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert status == "", f"git status after the teacher's steps:\n{status}"


def test_autograde_on_a_fresh_clone_needs_generate_assignment_first(tmp_path):
    """Why the steps start with generate_assignment: the gradebook of a fresh clone does not
    know the set, and autograde says so."""
    clone = fresh_clone(tmp_path / "clone")
    env = isolated_env(tmp_path / "scratch")
    teacher = clone / "teacher"
    name = "01_gradients"
    path = teacher / "submitted" / STUDENT / name / f"{name}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(solved_release(clone, name), path)
    result = nbgrader(["nbgrader", "autograde", name], teacher, env)
    assert result.returncode != 0
    assert f"No assignment with ID '{name}' exists in the database" in result.stdout + result.stderr


def course_ids_in(text: str) -> set[str]:
    """Every course id a doc or config names: `course_id = "..."` and `--course ...`."""
    assigned = re.findall(r"course_id\s*=\s*[\"']([^\"']+)[\"']", text)
    flags = re.findall(r"--course[= ]([\w.-]+)", text)
    return set(assigned) | set(flags)


def test_one_course_id_everywhere():
    (configured,) = course_ids_in(CONFIG.read_text())
    for doc in (TEACHERS_GUIDE, HUB_GUIDE):
        assert course_ids_in(doc.read_text()) == {configured}, doc.name


def test_one_exchange_folder_and_one_permission_rule():
    rule = "chmod 1777 /srv/nbgrader/exchange"
    for doc in (TEACHERS_GUIDE, HUB_GUIDE):
        text = doc.read_text()
        assert re.findall(r"chmod [^\s`]+ [^\s`]+", text) == [rule], doc.name
        assert set(re.findall(r"Exchange\.root\s*=\s*\"([^\"]+)\"", text)) == {
            "/srv/nbgrader/exchange"
        }, doc.name
        assert "ugo+rw" not in text


def test_git_ignores_the_gradebook_grades_and_students_work():
    paths = [
        "teacher/gradebook.db",
        "teacher/grades.csv",
        "teacher/submitted/alice/01_gradients/01_gradients.ipynb",
        "teacher/autograded/alice/01_gradients/01_gradients.ipynb",
        "teacher/feedback/alice/01_gradients/01_gradients.html",
    ]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert ignored == paths


def test_the_jupyterlite_site_gets_the_lessons_and_no_exercise_set():
    """docs/jupyterlite.md says the site holds no exercise set: the build copies none."""
    script = (ROOT / "scripts" / "build_lite.sh").read_text()
    copies = [
        line
        for line in script.splitlines()
        if not line.lstrip().startswith("#") and "contents" in line and "cp " in line
    ]
    assert copies == ['cp notebooks/[0-9][0-9]_*.ipynb notebooks/README.md "$work/contents/"']
    assert "exercise sets" in (DOCS / "jupyterlite.md").read_text()


def test_zero_to_jupyterhub_keeps_the_course_outside_the_persistent_home(tmp_path):
    """A persistent home volume hides the image's home folder: the image built as
    jupyterhub.md says keeps the repository elsewhere, installs the course from it not
    editable (binder/requirements.txt), and the values file's postStart hook copies the
    lessons into the home once, keeping a student's own copies on later starts."""
    yaml = pytest.importorskip("yaml")
    text = HUB_GUIDE.read_text()
    (repo_dir,) = re.findall(r"--target-repo-dir (\S+)", text)
    assert not repo_dir.startswith("/home")
    requirements = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert "." in requirements and not any(line.startswith("-e") for line in requirements)
    values = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    (hook,) = [
        v["singleuser"]["lifecycleHooks"] for v in values if "lifecycleHooks" in v["singleuser"]
    ]
    command = hook["postStart"]["exec"]["command"]
    assert any(f"{repo_dir}/notebooks" in word for word in command)

    # Run the hook against a scratch image folder and home.
    image, home = tmp_path / "image", tmp_path / "home"
    (image / "notebooks" / "exercises" / "01_gradients").mkdir(parents=True)
    (image / "notebooks" / "01_lesson.ipynb").write_text("as shipped")
    home.mkdir()
    local = [word.replace(repo_dir, str(image)) for word in command]
    env = {**os.environ, "HOME": str(home)}
    subprocess.run(local, env=env, check=True)
    copied = home / "minigrad"
    assert (copied / "exercises" / "01_gradients").is_dir()
    (copied / "01_lesson.ipynb").write_text("the student's work")
    subprocess.run(local, env=env, check=True)
    assert (copied / "01_lesson.ipynb").read_text() == "the student's work"
