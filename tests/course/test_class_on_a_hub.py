"""A class on a real JupyterHub, end to end (issue #20): one teacher, two students.

The test starts ``jupyterhub`` (with ``configurable-http-proxy``) on a free localhost port,
with a test authenticator (one password for the class), the simple local process spawner,
each user's home in a fresh folder and nbgrader's exchange there too (``hub_class.py``).
Then, as a class would:

1. the teacher and both students log in through the hub's REST API with the password (a
   wrong one is refused), and each starts a server of their own through the hub;
2. the teacher, in a terminal of their own server, in their clone's ``teacher/`` folder,
   generates and releases one exercise set (``01_gradients``, the quickest to grade);
3. each student, through nbgrader's endpoints in their own server (those the *Assignments*
   tab calls), fetches it, answers in the notebook through the server's contents API and
   submits: Alice types the teacher's answers, Bob two wrong ones (and, in front of his first
   answer, code that reads the teacher's source at grading time and runs its solutions);
4. the teacher collects, autogrades (through ``teacher/nbgrader_config.py``: each submission in
   the bubblewrap sandbox), generates and releases feedback and exports ``grades.csv``;
5. each student fetches their feedback.

It checks that Alice gets full marks and Bob exactly the points of his right answers, with his
submission flagged; that each student's feedback is the page the teacher generated for them;
and that neither student reaches the teacher's course folder nor the other's work.

What stands for system users: run as root (as CI runs), the hub starts each user's server as a
uid of its own that no system user holds, named for the servers by nss_wrapper (Debian's
``libnss-wrapper``), so nbgrader takes each student's id from the operating system, and files
and the exchange's permissions (its inbound folder writable, not listable; feedback reachable
only by a name derived from the student's own submission) separate the users as on a hub whose
``LocalProcessSpawner`` runs servers as system users. The isolation test runs commands in each
student's own terminal that a curious student would type, and expects the system to refuse.
Not run as root, every server runs as the same user (JupyterHub's SimpleLocalProcessSpawner
gives no isolation: anything a student runs could read the teacher's files), each student's
server is told its student id in a file the student could edit, and the isolation test skips
with the reason. What only a real deployment shows: its authenticator (this one lets any user
log in as any other with the class's password), its spawner's isolation (containers on
Kubernetes) and a shared exchange volume (docs/jupyterhub.md).
"""

from __future__ import annotations

import csv
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
import requests

pytest.importorskip("jupyterhub", reason="JupyterHub is not installed: pip install -e '.[course]'")

from hub_class import COURSE_ID, Hub, User, class_folder, proxy_program, start_hub  # noqa: E402
from nbgrader_course import (  # noqa: E402
    SOURCES,
    TEACHER,
    WRONG,
    answer_cells,
    attack_code,
    by_id,
    grade_cells,
    nbgrader_meta,
    strip_solution,
)

SET = "01_gradients"
TEACHER_NAME = "teacher"
HONEST, WRONG_AND_CHEATING = "alice", "bob"
# Bob's wrong answers: the first typical mistake of these exercises; the others he gets right.
BOBS_MISTAKES = ["ex1_answer", "ex2_answer"]
# The teacher's clone, as far as grading this set needs it.
CLONE = "minigrad"
COURSE = f"{CLONE}/teacher"
HUB_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "jupyterhub.md"
# The MyST comment in front of the two blocks the teacher types on the hub.
HUB_GUIDE_MARKER = "tests/course/test_class_on_a_hub.py runs this block and the next one"


@dataclass
class ClassRun:
    """What happened in the class: the hub, its users and what each step answered."""

    hub: Hub
    users: dict[str, User]
    refused_login: int = 0
    teacher_printed: dict[str, str] = field(default_factory=dict)
    submitted: dict[str, object] = field(default_factory=dict)  # the notebook each handed in
    feedback: dict[str, dict[str, str]] = field(default_factory=dict)  # path -> page

    @property
    def course(self) -> Path:
        return self.hub.home(TEACHER_NAME) / COURSE


def answered(release, name: str, teachers_course: Path):
    """The released notebook as a student hands it in: Alice with the teacher's answers, Bob
    with ``BOBS_MISTAKES`` and, in front of his first answer, code that reads the teacher's
    source (in ``teachers_course``) at grading time and runs its solutions."""
    source = by_id(nbformat.read(SOURCES / SET / f"{SET}.ipynb", as_version=4))
    nb = nbformat.from_dict(release)
    for cell in answer_cells(nb):
        cell.source = strip_solution(source[nbgrader_meta(cell)["grade_id"]].source)
    if name == WRONG_AND_CHEATING:
        cells = by_id(nb)
        for grade_id in BOBS_MISTAKES:
            cells[grade_id].source = WRONG[SET][grade_id][0][0]
        first = answer_cells(nb)[0]
        first.source = attack_code("attack-read-source", teachers_course, SET) + first.source
    return nb


def hub_guide_blocks() -> tuple[list[str], list[str]]:
    """The teacher's commands on a hub, as docs/jupyterhub.md writes them: the block that
    releases a set and the block that grades it, the two that follow the marker."""
    text = HUB_GUIDE.read_text()
    assert text.count(HUB_GUIDE_MARKER) == 1, "the hub's teacher blocks are marked once"
    blocks = re.findall(r"```bash\n(.*?)```", text[text.index(HUB_GUIDE_MARKER) :], re.DOTALL)
    release, grade = (
        [line.strip() for line in block.splitlines() if line.strip()] for block in blocks[:2]
    )
    for line in release + grade:
        assert line.startswith("nbgrader "), (
            f"a line of the hub guide's blocks is a command: {line}"
        )
    assert f"{SET} " in f"{release[0]} ", "the guide's blocks release the set this test answers"
    return release, grade


def teacher_runs(run: ClassRun, *commands: str) -> str:
    """The teacher's commands, typed in a terminal of their server, in their course folder."""
    teacher = run.users[TEACHER_NAME]
    # A terminal starts a login shell, which sets PATH afresh: the venv is activated first, as
    # docs/teachers.md tells the teacher.
    activate = Path(sys.executable).parent / "activate"
    line = " && ".join([f"source {activate}", f"cd ~/{COURSE}", *commands])
    status, printed = teacher.terminal(line)
    assert status == 0, f"{line} failed ({status}):\n{printed[-6000:]}"
    run.teacher_printed[line] = printed
    return printed


def student_action(user: User, action: str) -> list[dict]:
    """One of nbgrader's student actions (fetch, submit, fetch_feedback) through the
    endpoints of the user's own server that the Assignments tab calls."""
    answer = user.post(
        f"/assignments/{action}", data={"course_id": COURSE_ID, "assignment_id": SET}
    )
    assert answer.status_code == 200, answer.text
    listing = answer.json()
    assert isinstance(listing, dict) and listing.get("success"), listing
    return listing["value"]


def listed(user: User) -> list[dict]:
    answer = user.get("/assignments", params={"course_id": COURSE_ID})
    assert answer.status_code == 200 and answer.json()["success"], answer.text
    return [entry for entry in answer.json()["value"] if entry["assignment_id"] == SET]


def contents(user: User, path: str) -> dict:
    answer = user.get(f"/api/contents/{path}", params={"content": 1})
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()


@pytest.fixture(scope="module")
def class_run():
    if proxy_program() is None:
        pytest.skip("configurable-http-proxy is not installed: make bootstrap installs it")
    root = class_folder()
    hub = None
    try:
        hub = start_hub(
            root,
            TEACHER_NAME,
            [HONEST, WRONG_AND_CHEATING],
            {
                f"{COURSE}/nbgrader_config.py": TEACHER / "nbgrader_config.py",
                f"{COURSE}/source/{SET}": SOURCES / SET,
            },
        )
        yield play_the_class(hub)
    finally:
        if hub is not None:
            hub.stop()  # the hub, the proxy, every server and terminal, even after a failure
        shutil.rmtree(root, ignore_errors=True)


def play_the_class(hub: Hub) -> ClassRun:
    refused = hub.login(HONEST, "not the class password").status_code
    users = {name: hub.log_in(name) for name in [TEACHER_NAME, HONEST, WRONG_AND_CHEATING]}
    run = ClassRun(hub, users, refused_login=refused)
    for user in users.values():
        user.start_server()
    for user in users.values():
        user.wait_for_server()

    release, grade = hub_guide_blocks()
    teacher_runs(run, *release)

    for name in [HONEST, WRONG_AND_CHEATING]:
        student = users[name]
        assert [entry["status"] for entry in listed(student)] == ["released"]
        fetched = [e for e in student_action(student, "fetch") if e["status"] == "fetched"]
        assert len(fetched) == 1, fetched
        path = f"{fetched[0]['path']}/{SET}.ipynb"
        nb = answered(contents(student, path)["content"], name, run.course)
        saved = student.put(
            f"/api/contents/{path}", json={"type": "notebook", "format": "json", "content": nb}
        )
        assert saved.status_code == 200, saved.text
        student_action(student, "submit")
        run.submitted[name] = nb

    teacher_runs(run, *grade)

    for name in [HONEST, WRONG_AND_CHEATING]:
        student = users[name]
        student_action(student, "fetch_feedback")
        pages = {}
        for folder in contents(student, f"{SET}/feedback")["content"]:
            for page in contents(student, folder["path"])["content"]:
                pages[page["path"]] = contents(student, page["path"])["content"]
        run.feedback[name] = pages
    return run


def grades(run: ClassRun) -> dict[str, tuple[float, float]]:
    with open(run.course / "grades.csv") as table:
        return {
            row["student_id"]: (float(row["score"]), float(row["max_score"]))
            for row in csv.DictReader(table)
            if row["assignment"] == SET
        }


def points_of_right_answers(nb) -> float:
    """The points of the check cells whose exercise Bob answered right: each check cell
    follows its exercise's answer cell."""
    points, wrong = 0.0, False
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if meta.get("solution"):
            wrong = meta["grade_id"] in BOBS_MISTAKES
        elif meta.get("grade"):
            points += 0 if wrong else meta["points"]
    return points


def test_each_user_logs_in_with_the_class_password_and_gets_a_server(class_run):
    assert class_run.refused_login == 403
    for name, user in class_run.users.items():
        status = user.get("/api/status")
        assert status.status_code == 200, (name, status.text)
        # A user's token opens their own server only.
        for other in class_run.users.values():
            if other is not user:
                borrowed = requests.get(
                    f"{user.server}/api/status", headers=other.headers, timeout=60
                )
                assert borrowed.status_code == 403, (other.name, name, borrowed.status_code)


def test_the_honest_student_gets_full_marks_the_other_the_points_of_his_right_answers(
    class_run,
):
    table = grades(class_run)
    release = nbformat.read(
        class_run.course.parent / "notebooks" / "exercises" / SET / f"{SET}.ipynb", 4
    )
    max_score = sum(nbgrader_meta(cell)["points"] for cell in grade_cells(release))
    assert table[HONEST] == (max_score, max_score)
    expected = points_of_right_answers(class_run.submitted[WRONG_AND_CHEATING])
    assert 0 < expected < max_score
    assert table[WRONG_AND_CHEATING] == (expected, max_score)


def test_the_submission_that_tried_to_read_the_key_is_flagged(class_run):
    graded = nbformat.read(
        class_run.course / "autograded" / WRONG_AND_CHEATING / SET / f"{SET}.ipynb", 4
    )
    flags = graded.metadata["minigrad_grading"]["flags"]
    assert graded.metadata["minigrad_grading"]["isolation"] == "bwrap"
    assert any("changed IPython's event hooks" in flag for flag in flags), flags
    honest = nbformat.read(class_run.course / "autograded" / HONEST / SET / f"{SET}.ipynb", 4)
    assert honest.metadata["minigrad_grading"]["flags"] == []


def test_each_student_fetches_the_feedback_generated_for_them_and_only_that(class_run):
    for name in [HONEST, WRONG_AND_CHEATING]:
        generated = (class_run.course / "feedback" / name / SET / f"{SET}.html").read_text()
        pages = class_run.feedback[name]
        assert list(pages.values()) == [generated], sorted(pages)
    assert class_run.feedback[HONEST] != class_run.feedback[WRONG_AND_CHEATING]


def test_no_student_reaches_the_teachers_course_or_the_other_students_work(class_run):
    hub = class_run.hub
    if not hub.own_uids:
        pytest.skip(f"every server runs as one user here: {hub.why_one_uid}")
    # nbgrader's collect checks that each submission's folder is owned by the student it names
    # (the servers' own uids, named as the students): it warns about none.
    collected = next(out for line, out in class_run.teacher_printed.items() if "collect" in line)
    assert "Processing 2 submissions" in collected and "cheating attempt" not in collected
    course = class_run.course
    inbound = hub.exchange / COURSE_ID / "inbound"
    for name, other in [(HONEST, WRONG_AND_CHEATING), (WRONG_AND_CHEATING, HONEST)]:
        student = class_run.users[name]
        for command in [
            f"cat {course / 'source' / SET / (SET + '.ipynb')}",
            f"ls {course}",
            f"ls {course / 'submitted'}",
            f"ls {inbound}",
            f"ls {hub.exchange / COURSE_ID / 'feedback'}",
            f"ls {hub.home(other)}",
        ]:
            status, printed = student.terminal(command)
            assert status != 0 and "Permission denied" in printed, (name, command, printed)
        # What is theirs to read, they read: the released set and their own home.
        released = hub.exchange / COURSE_ID / "outbound" / SET / f"{SET}.ipynb"
        for command in [f"head -c 100 {released}", f"ls {hub.home(name) / SET}"]:
            status, printed = student.terminal(command)
            assert status == 0 and "Permission denied" not in printed, (name, command, printed)
