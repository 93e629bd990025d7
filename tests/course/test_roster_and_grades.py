"""A class from a learning platform (docs/teachers.md), with real nbgrader: a roster in, the
platform's zip of submissions sorted by ``nbgrader zip_collect``, graded, grades out.

The doc's marked block runs literally, in order, in a fresh clone, as
test_teachers_guide.py runs the one-machine steps: a roster of three students (names in
Latin, Cyrillic and Chinese script), a zip laid out as Canvas's "Download Submissions" names
its files (the expression in ``teacher/nbgrader_config.py``), one student handing in the
teacher's answers, one the untouched release, one nothing. The other tests pin down what
nbgrader does with a faulty roster, as the doc says, and the script that turns
``grades.csv`` into one column per set.
"""

from __future__ import annotations

import csv
import doctest
import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook
from test_teachers_guide import fresh_clone, isolated_env, nbgrader, solved_release
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parents[2]
TEACHERS_GUIDE = ROOT / "docs" / "teachers.md"
CONFIG = ROOT / "teacher" / "nbgrader_config.py"
SCRIPT = ROOT / "scripts" / "grades_for_lms.py"
# The MyST comment in front of the block that test_the_platform_steps_in_order runs.
MARKER = "tests/course/test_roster_and_grades.py runs the block below"
# The "download" step's comment names where the platform's zip goes.
DOWNLOAD_PLACE = re.compile(r"downloaded/(?P<set>[\w-]+)/archive/(?P<zip>[\w.-]+\.zip)")
SET = "01_gradients"  # the quickest set to grade

# The class: Canvas user id, first name, last name, email.
ROSTER = [
    ("12345", "Alice", "Smith", "alice@example.org"),
    ("12346", "Иван", "Петров", "ivan@example.org"),
    ("12347", "小明", "王", "xiaoming@example.org"),
]
ALICE, IVAN, XIAOMING = (student[0] for student in ROSTER)
STUDENT_COLUMNS = ["student_id", "last_name", "first_name", "email"]


def write_roster(path: Path, rows: list[tuple[str, ...]], header: str = "id") -> None:
    """A roster as nbgrader's `db student import` reads it: UTF-8, a header line first."""
    with path.open("w", newline="", encoding="utf-8") as roster:
        writer = csv.writer(roster)
        writer.writerow([header, "first_name", "last_name", "email"])
        writer.writerows(rows)


def students_in(db: Path) -> set[tuple[str, str, str, str]]:
    """(id, first name, last name, email) of every student in the gradebook."""
    with Gradebook(f"sqlite:///{db}") as gradebook:
        return {(s.id, s.first_name, s.last_name, s.email) for s in gradebook.students}


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def platform_steps() -> list[str]:
    """The lines of the code block that follows the marker in docs/teachers.md."""
    text = TEACHERS_GUIDE.read_text()
    assert text.count(MARKER) == 1, "the platform block is marked once"
    block = re.search(r"```bash\n(.*?)```", text[text.index(MARKER) :], re.DOTALL)
    assert block is not None, "a ```bash block follows the marker"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def canvas_download(path: Path, clone: Path, name: str) -> dict[str, object]:
    """The zip Canvas's "Download Submissions" gives: one file per student, named
    ``<name>_[late_]<user id>_<file id>_<file name>``. Alice hands in the teacher's answers
    (a second time, so Canvas adds "-1"), Ivan the untouched release, late; Xiaoming nothing.
    Returns each handed-in notebook by student id."""
    answered = solved_release(clone, name)
    untouched = nbformat.read(clone / "notebooks" / "exercises" / name / f"{name}.ipynb", 4)
    handed_in = {ALICE: answered, IVAN: untouched}
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"smithalice_{ALICE}_70001_{name}-1.ipynb", nbformat.writes(answered))
        archive.writestr(f"petrovivan_late_{IVAN}_70002_{name}.ipynb", nbformat.writes(untouched))
    return handed_in


def script_module():
    spec = importlib.util.spec_from_file_location("grades_for_lms", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_platform_steps_in_order_sort_grade_and_export_the_class(tmp_path):
    clone = fresh_clone(tmp_path / "clone")
    # The clone holds the grades script too (fresh_clone copies the course only).
    (clone / "scripts").mkdir()
    shutil.copy2(SCRIPT, clone / "scripts" / SCRIPT.name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    for command in (["add", "-A"], ["commit", "-q", "-m", "the grades script"]):
        subprocess.run([*git, *command], cwd=clone, check=True, capture_output=True)
    env = isolated_env(tmp_path / "scratch")

    cwd = clone
    ran: list[str] = []
    handed_in: dict[str, object] = {}
    for step in platform_steps():
        if step.startswith("#"):
            place = DOWNLOAD_PLACE.search(step)
            if place:  # the "download" step: the platform's zip where the doc says
                zip_path = cwd / "downloaded" / place["set"] / "archive" / place["zip"]
                handed_in = canvas_download(zip_path, clone, place["set"])
                ran.append("download")
            continue
        words = shlex.split(step, comments=True)
        if words[0] == "cd":
            cwd = (cwd / words[1]).resolve()
            assert cwd.is_dir() and clone in cwd.parents, step
            continue
        if words[:4] == ["nbgrader", "db", "student", "import"]:
            write_roster(cwd / words[4], ROSTER)  # the teacher's roster, where the doc reads it
        if words[0] == "python":
            result = subprocess.run(
                [sys.executable, *words[1:]], cwd=cwd, env=env, capture_output=True, text=True
            )
            ran.append(Path(words[1]).name)
        else:
            assert words[0] == "nbgrader", f"a step this test does not know how to run: {step}"
            result = nbgrader(words, cwd, env)
            ran.append(words[1])
        assert result.returncode == 0, f"{step} failed:\n{result.stdout}\n{result.stderr}"
    assert ran == [
        "db",
        "generate_assignment",
        "download",
        "zip_collect",
        "autograde",
        "export",
        "grades_for_lms.py",
    ]
    teacher = clone / "teacher"
    assert cwd == teacher

    # The gradebook holds the roster, names as written.
    assert students_in(teacher / "gradebook.db") == set(ROSTER)

    # zip_collect put each student's notebook where autograde looks, under their user id.
    for student, notebook in handed_in.items():
        submitted = teacher / "submitted" / student / SET / f"{SET}.ipynb"
        assert nbformat.read(submitted, 4) == notebook, student
    assert sorted(path.name for path in (teacher / "submitted").iterdir()) == [ALICE, IVAN]

    # grades.csv: one row per student and set; the teacher's answers full marks, the
    # untouched release 0, no submission 0 (and no timestamp).
    grades = {row["student_id"]: row for row in read_csv(teacher / "grades.csv")}
    assert sorted(grades) == [ALICE, IVAN, XIAOMING]
    max_score = float(grades[ALICE]["max_score"])
    assert max_score > 0
    assert float(grades[ALICE]["score"]) == max_score
    assert float(grades[IVAN]["score"]) == 0 and grades[IVAN]["timestamp"] == ""
    assert float(grades[XIAOMING]["score"]) == 0 and grades[XIAOMING]["timestamp"] == ""
    for student_id, first, last, email in ROSTER:
        row = grades[student_id]
        assert (row["assignment"], row["first_name"], row["last_name"], row["email"]) == (
            SET,
            first,
            last,
            email,
        )

    # The gradebook's file: one row per student, one column per set, the score in points.
    with (teacher / "grades_for_lms.csv").open(newline="", encoding="utf-8") as file:
        header, *rows = list(csv.reader(file))
    assert header == [*STUDENT_COLUMNS, SET]
    by_student = {row[0]: row for row in rows}
    assert sorted(by_student) == [ALICE, IVAN, XIAOMING]
    for student_id, first, last, email in ROSTER:
        assert by_student[student_id][:4] == [student_id, last, first, email]
    assert float(by_student[ALICE][4]) == max_score
    assert by_student[IVAN][4] == by_student[XIAOMING][4] == "0"

    # The roster, the download, the grades and the students' work: git shows none of them.
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--ignored=no"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert status == "", f"git status after the steps:\n{status}"

    # A newer download: zip_collect stops rather than mix it with the first ...
    with zipfile.ZipFile(zip_path, "a") as archive:  # Xiaoming hands in, late, renamed
        archive.writestr(
            f"wangxiaoming_late_{XIAOMING}_70003_homework.ipynb", nbformat.writes(handed_in[ALICE])
        )
    again = nbgrader(["nbgrader", "zip_collect", SET], teacher, env)
    assert again.returncode != 0
    assert "Directory not empty" in again.stdout + again.stderr
    # ... and with --force sorts it afresh, the renamed notebook under its own name.
    forced = nbgrader(["nbgrader", "zip_collect", SET, "--force"], teacher, env)
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert "Invalid submission notebook name 'homework.ipynb'" in forced.stdout + forced.stderr
    for student, notebook in handed_in.items():
        submitted = teacher / "submitted" / student / SET / f"{SET}.ipynb"
        assert nbformat.read(submitted, 4) == notebook, student
    renamed = teacher / "submitted" / XIAOMING / SET / "homework.ipynb"
    assert sorted(renamed.parent.iterdir()) == [renamed]
    # autograde does not grade it; renamed as the doc says, it does.
    ungraded = nbgrader(["nbgrader", "autograde", SET, f"--student={XIAOMING}"], teacher, env)
    assert "No notebooks found" in ungraded.stdout + ungraded.stderr
    renamed.rename(renamed.with_name(f"{SET}.ipynb"))
    graded = nbgrader(["nbgrader", "autograde", SET, f"--student={XIAOMING}"], teacher, env)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    with Gradebook(f"sqlite:///{teacher / 'gradebook.db'}") as gradebook:
        assert gradebook.find_submission(SET, XIAOMING).score == max_score


def test_the_canvas_names_in_the_doc_give_the_student_and_the_notebook():
    """Each example file name of docs/teachers.md, read by the expression that
    teacher/nbgrader_config.py gives zip_collect, as nbgrader applies it (to the whole path
    of the extracted file), gives the student id the doc names and the set's notebook."""
    config = PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()
    expression = config.FileNameCollectorPlugin.named_regexp
    text = TEACHERS_GUIDE.read_text()
    section = text[text.index("## A class from a learning platform") :]
    block = re.search(r"```text\n(smith.*?)```", section, re.DOTALL)
    assert block is not None
    examples = [line.split() for line in block.group(1).splitlines()]
    assert len(examples) == 2
    for file_name, word, student_id, *_ in examples:
        assert word == "student"
        path = f"/course/downloaded/{SET}/extracted/submissions/{file_name}"
        match = re.match(expression, path)
        assert match is not None, file_name
        assert match["student_id"] == student_id.rstrip(",")
        assert match["file_id"] == SET
    # Not a notebook, or not named as Canvas names files: skipped, not guessed.
    extracted = f"/course/downloaded/{SET}/extracted/submissions"
    for other in ["smithalice_12345_67890_notes.txt", f"{SET}.ipynb"]:
        assert re.match(expression, f"{extracted}/{other}") is None, other


def course_folder(tmp_path: Path) -> tuple[Path, dict]:
    """A scratch course folder with the teacher's configuration, and nbgrader's environment."""
    folder = tmp_path / "course"
    folder.mkdir()
    shutil.copy2(CONFIG, folder / CONFIG.name)
    return folder, isolated_env(tmp_path / "scratch")


def test_a_roster_of_three_imports_with_names_in_any_script(tmp_path):
    course, env = course_folder(tmp_path)
    write_roster(course / "roster.csv", ROSTER)
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert students_in(course / "gradebook.db") == set(ROSTER)
    # Importing again updates: a changed email replaces the old one, nobody is doubled.
    moved = [ROSTER[0], ROSTER[1], (*ROSTER[2][:3], "wang@example.org")]
    write_roster(course / "roster.csv", moved)
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert students_in(course / "gradebook.db") == set(moved)


@pytest.mark.parametrize(
    "first_column",
    ["student", "\ufeffid"],  # no id column; Excel's "CSV UTF-8", whose byte-order mark
    ids=["no-id-column", "excel-byte-order-mark"],  # nbgrader reads as part of the name
)
def test_a_roster_without_an_id_column_stops_at_once_and_imports_nobody(tmp_path, first_column):
    course, env = course_folder(tmp_path)
    write_roster(course / "roster.csv", ROSTER, header=first_column)
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode != 0
    assert "Malformatted CSV file: must contain a column for 'id'" in result.stdout + result.stderr
    assert students_in(course / "gradebook.db") == set()


def test_a_row_without_an_id_stops_the_import_there_and_a_second_import_completes_it(tmp_path):
    """What the doc says of an empty id: the rows above it are in, the rows below not; once
    it is filled in, importing again gives the whole class, nobody twice."""
    course, env = course_folder(tmp_path)
    gap = [ROSTER[0], ("", *ROSTER[1][1:]), ROSTER[2]]
    write_roster(course / "roster.csv", gap)
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode != 0
    assert "NOT NULL constraint failed: student.id" in result.stdout + result.stderr
    assert students_in(course / "gradebook.db") == {ROSTER[0]}
    write_roster(course / "roster.csv", ROSTER)
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert students_in(course / "gradebook.db") == set(ROSTER)


def test_a_comma_in_a_name_breaks_nbgraders_export_and_the_script_names_the_line(tmp_path):
    """The roster imports a quoted name with a comma, nbgrader's export writes it unquoted,
    and grades_for_lms.py refuses that row rather than shift its columns. Exporting one set
    with --assignment leaves the others out."""
    course, env = course_folder(tmp_path)
    comma = ("12348", "Martin", "Luther King, Jr.", "mlk@example.org")
    write_roster(course / "roster.csv", [*ROSTER, comma])
    result = nbgrader(["nbgrader", "db", "student", "import", "roster.csv"], course, env)
    assert result.returncode == 0, result.stdout + result.stderr
    # Two sets in the gradebook (added here, not by a slower nbgrader command each).
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for name in (SET, "02_chain_rule"):
            gradebook.add_assignment(name)
    result = nbgrader(["nbgrader", "export", f"--assignment={SET}"], course, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert comma in students_in(course / "gradebook.db")
    lines = (course / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(ROSTER) + 1  # the header, one row per student, one set only
    assert all(line.startswith(f"{SET},") for line in lines[1:])
    (broken,) = [number for number, line in enumerate(lines, 1) if "King" in line]

    result = subprocess.run(
        [sys.executable, str(SCRIPT), "grades.csv", "grades_for_lms.csv"],
        cwd=course,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert f"line {broken} has 12 columns, the header 11" in result.stderr
    assert not (course / "grades_for_lms.csv").exists()


def test_the_grades_scripts_examples_hold():
    module = script_module()
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0
