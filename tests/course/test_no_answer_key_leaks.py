"""No channel through which a class gets the course holds the answer key.

The channels, each built or laid out for real:

1. the home folder of the Binder/JupyterHub image: repo2docker copies the repository (a
   clone, with ``.git``) into it, leaving out what ``binder/.dockerignore`` names, then runs
   ``binder/postBuild`` there; here a clone of this checkout (with today's edits), through
   ``postBuild`` as repo2docker runs it (its ``REPO_DIR`` and ``APP_BASE``), against a
   scratch prefix, and without the help of ``.dockerignore`` (an older repo2docker ignores
   it): the strictest case;
2. the student release: what ``nbgrader generate_assignment`` writes (the ``course``
   fixture's release folder), and ``build/student-release.zip`` (``make student-release``);
3. the JupyterLite site (``make lite``, the ``lite_site`` fixture of tests/conftest.py);
4. the wheel and 5. the sdist, built once by ``scripts/student_release.py``.

The answer key: every line of the solutions (``### BEGIN SOLUTION`` ... ``### END
SOLUTION``, and Markdown answer cells) and of the hidden tests (``### BEGIN HIDDEN TESTS``
... ``### END HIDDEN TESTS``) of ``teacher/source``, and of the wrong answers in
``tests/course/wrong*`` (each a solution with one bug). Lines are compared with their
whitespace collapsed. A line does not count when it could not give an answer away, by this
rule:

- it is shorter than 12 characters (``return x``, ``],``, ``pass``: any program has them);
- it is scaffolding, in the key of half the sets or more (the hidden tests' fresh import of
  the checks);
- students see it anyway: in a teacher's notebook outside the key (the statement, given
  code, the visible checks), in a lesson, or in the library's own source
  (``minigrad``, ``widgets``, ``minigrad_course`` ship in every channel by design, and an
  exercise such as set 16's engine shares idioms with them);
- it is one of the few plain idioms in ``IDIOMS``, which the project's other code writes
  independently.

Besides the lines, the key's files themselves: no file of a channel may have the content of
a file of the key, and no path in it may lead into ``teacher/`` or ``tests/course/``.
``test_the_search_finds_a_planted_leak`` shows that the search catches a leak, in a plain
file, a notebook and an archive inside an archive.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

ROOT = Path(__file__).resolve().parents[2]
KEY_FOLDERS = ("teacher", "tests/course")  # what binder/.dockerignore and MANIFEST.in drop
SOLUTION = re.compile(r"^[ \t]*### BEGIN SOLUTION\n(.*?)^[ \t]*### END SOLUTION", re.S | re.M)
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)
SHORTEST = 12
# Lines of a solution that the project's own code also writes, for reasons of its own.
IDIOMS = {
    "for _ in range(n):",  # tests/core/test_profiler.py
    "s = x.sigmoid()",  # tests/programs/scripts/saved_tensors_inspection.py
    "x.grad.zero_()",  # lesson 04 teaches it (on other names); tests/core/test_engine.py
}


# --------------------------------------------------------------------------- the answer key
def normalise(line: str) -> str:
    return " ".join(line.split())


def notebook_cells(data: bytes) -> list[dict]:
    return json.loads(data).get("cells", [])


def cell_text(cell: dict) -> str:
    """A cell's source and the text of its outputs (streams, plain text, errors)."""
    source = cell.get("source", "")
    parts = ["".join(source) if isinstance(source, list) else source]
    for output in cell.get("outputs", []):
        text = output.get("text", "")
        parts.append("".join(text) if isinstance(text, list) else text)
        for value in output.get("data", {}).values():
            parts.append("".join(value) if isinstance(value, list) else str(value))
        parts.extend(output.get("traceback", []))
    return "\n".join(parts)


def key_regions(cell: dict) -> list[str]:
    """The parts of a teacher's cell that are the key."""
    source = cell_text({"source": cell.get("source", "")})
    if cell.get("cell_type") == "markdown":
        return [source] if cell.get("metadata", {}).get("nbgrader", {}).get("solution") else []
    return SOLUTION.findall(source) + HIDDEN.findall(source)


def wrong_answer_strings(module: str) -> list[str]:
    """The string literals of a module of wrong answers (its code is the tests' own)."""
    tree = ast.parse(module)
    docstring = ast.get_docstring(tree, clean=False)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value != docstring
    ]


def teacher_source_folders() -> list[Path]:
    """The teacher's versions of the sets: ``teacher/source``, and the translated ones that
    scripts/translate_exercises.py builds in each language's course, ``teacher/<lang>/source``
    (a translated solution or hidden test is the answer key too)."""
    return [ROOT / "teacher" / "source", *sorted((ROOT / "teacher").glob("*/source"))]


def key_files() -> list[Path]:
    teacher = sorted(path for folder in teacher_source_folders() for path in folder.rglob("*"))
    wrong = sorted((ROOT / "tests" / "course").glob("wrong*"))
    wrong += sorted((ROOT / "tests" / "course" / "wrong").glob("*"))
    return [path for path in teacher + wrong if path.is_file()]


def public_lines() -> set[str]:
    """Lines students see anyway (the module docstring's third rule)."""
    lines: set[str] = set()
    for path in sorted(
        path for folder in teacher_source_folders() for path in folder.glob("*/*.ipynb")
    ):
        for cell in notebook_cells(path.read_bytes()):
            source = cell_text({"source": cell.get("source", "")})
            if cell.get("cell_type") != "markdown" or not key_regions(cell):
                lines.update(map(normalise, HIDDEN.sub("", SOLUTION.sub("", source)).splitlines()))
    # Not the released sets: they are searched, and what they hold beyond the teacher's
    # given code and statements would be a leak.
    for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"):
        for cell in notebook_cells(path.read_bytes()):
            lines.update(map(normalise, cell_text(cell).splitlines()))
    for package in ("minigrad", "widgets", "minigrad_course"):
        for path in (ROOT / package).rglob("*.py"):
            lines.update(map(normalise, path.read_text().splitlines()))
    return lines


def answer_key() -> dict[str, str]:
    """Each line of the key that counts, and where it comes from (``set: file``)."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in key_files():
        where = path.relative_to(ROOT).as_posix()
        if path.suffix == ".ipynb":
            regions = [r for cell in notebook_cells(path.read_bytes()) for r in key_regions(cell)]
        elif path.suffix == ".py":  # the wrong answers are the module's strings
            regions = wrong_answer_strings(path.read_text())
        else:
            continue
        for region in regions:
            for line in region.splitlines():
                found[normalise(line)].add(where)
    sets = len(list((ROOT / "teacher" / "source").iterdir()))
    public = public_lines()
    return {
        line: ", ".join(sorted(wheres))
        for line, wheres in found.items()
        if len(line) >= SHORTEST
        and len(set(map(set_of, wheres))) < sets / 2
        and line not in public
        and line not in IDIOMS
    }


def set_of(where: str) -> str:
    """The set a file of the key belongs to (a translated source counts as its set), or the
    file itself (the wrong answers).

    >>> set_of("teacher/ru/source/03_backward_step_by_step/03_backward_step_by_step.ipynb")
    '03_backward_step_by_step'
    """
    parts = where.split("/")
    return parts[-2] if parts[0] == "teacher" else where


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def key() -> dict[str, str]:
    lines = answer_key()
    # The rule keeps the key's substance: hundreds of lines, from every set.
    assert len(lines) > 300
    sets = {path.name for path in (ROOT / "teacher" / "source").iterdir()}
    assert all(any(name in where for where in lines.values()) for name in sets)
    return lines


@pytest.fixture(scope="module")
def key_digests() -> dict[str, str]:
    return {digest(path.read_bytes()): path.relative_to(ROOT).as_posix() for path in key_files()}


# --------------------------------------------------------------------------- searching a channel
def members(name: str, data: bytes) -> Iterator[tuple[str, bytes]]:
    """The file ``name``, or, for an archive, every file inside it (archives in archives too)."""
    if name.endswith((".zip", ".whl")):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for entry in archive.infolist():
                if not entry.is_dir():
                    yield from members(f"{name}!{entry.filename}", archive.read(entry))
    elif name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            for entry in archive.getmembers():
                if entry.isfile():
                    content = archive.extractfile(entry).read()
                    yield from members(f"{name}!{entry.name}", content)
    else:
        yield name, data


def channel_files(folder: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            yield from members(path.relative_to(folder).as_posix(), path.read_bytes())


def file_lines(name: str, data: bytes) -> set[str]:
    if name.endswith(".ipynb"):
        try:
            return {
                normalise(line)
                for cell in notebook_cells(data)
                for line in cell_text(cell).splitlines()
            }
        except (ValueError, AttributeError):
            pass  # not a notebook after all: searched as text
    return {normalise(line) for line in data.decode("utf-8", errors="replace").splitlines()}


def leaks(folder: Path, key: dict[str, str], key_digests: dict[str, str]) -> list[str]:
    """What of the key ``folder`` holds, one line of explanation each (empty: nothing)."""
    found = []
    for name, data in channel_files(folder):
        inner = "/" + name.split("!")[-1]  # the path inside the innermost archive
        if any(f"/{folder}/" in inner for folder in KEY_FOLDERS):
            found.append(f"{name}: a file of the answer key's folders")
        if digest(data) in key_digests:
            found.append(f"{name}: the content of {key_digests[digest(data)]}")
        for line in sorted(file_lines(name, data) & key.keys()):
            found.append(f"{name}: {line!r} (from {key[line]})")
    return found


# --------------------------------------------------------------------------- the channels
def clone_with_todays_edits(destination: Path) -> Path:
    """A clone of this checkout (with .git, so with its history), with the working folder's
    edits and new files on top: the repository as repo2docker would fetch it once committed."""
    subprocess.run(
        ["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(destination)], check=True
    )
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source, target = ROOT / name, destination / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        elif target.exists():  # deleted in the working folder
            target.unlink()
    return destination


def run_post_build(home: Path, prefix: Path, *, in_repo2docker: bool) -> None:
    env = {
        **os.environ,
        "NB_PYTHON_PREFIX": str(prefix),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "JUPYTER_DATA_DIR": str(prefix / "home-data"),
    }
    env.pop("APP_BASE", None)
    env.pop("REPO_DIR", None)
    if in_repo2docker:  # what repo2docker's Dockerfile sets when it runs postBuild
        env.update(APP_BASE="/srv", REPO_DIR=str(home))
    subprocess.run(
        ["binder/postBuild"], cwd=home, env=env, check=True, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def image_home(tmp_path_factory) -> Path:
    scratch = tmp_path_factory.mktemp("image")
    home = clone_with_todays_edits(scratch / "home")
    run_post_build(home, scratch / "prefix", in_repo2docker=True)
    return home


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """``make student-release``, keeping the sdist and the wheel it builds: each alone in a
    folder of its own, as a channel."""
    scratch = tmp_path_factory.mktemp("student-release")
    archive = scratch / "zip" / "student-release.zip"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "student_release.py"),
            "--out",
            str(archive),
            "--dist",
            str(scratch / "dist"),
        ],
        check=True,
        capture_output=True,
    )
    channels = {"student-release.zip": archive.parent}
    for kind, pattern in [("wheel", "*.whl"), ("sdist", "*.tar.gz")]:
        (path,) = (scratch / "dist").glob(pattern)
        channels[kind] = scratch / kind
        channels[kind].mkdir()
        path.rename(channels[kind] / path.name)
    return channels


# --------------------------------------------------------------------------- the tests
def test_the_image_home_holds_no_answer_key(image_home, key, key_digests):
    lesson = image_home / "notebooks" / "01_gradients.ipynb"
    # The course is there, and the rest of postBuild ran after the pruning: the lesson is
    # signed in the prefix's signature database.
    share = image_home.parent / "prefix" / "share" / "jupyter"
    notary = NotebookNotary(
        db_file=str(share / "nbsignatures.db"), secret_file=str(share / "notebook_secret")
    )
    assert notary.check_signature(nbformat.read(lesson, as_version=4))
    assert not (image_home / ".git").exists()  # the history holds every past key
    assert leaks(image_home, key, key_digests) == []


def test_dockerignore_names_the_key_and_post_build_prunes_what_it_names():
    listed = [
        line.strip()
        for line in (ROOT / "binder" / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert {".git", *KEY_FOLDERS} <= set(listed)
    # postBuild removes each line as a path: plain paths inside the repository only.
    assert all(re.fullmatch(r"[\w.-]+(/[\w.-]+)*", line) and ".." not in line for line in listed)


def test_post_build_outside_repo2docker_deletes_nothing(tmp_path):
    """Run by hand in a teacher's checkout (docs/teachers.md), postBuild sets up the
    environment and leaves the repository whole."""
    home = tmp_path / "checkout"
    parts = [
        "binder",
        "scripts",
        "notebooks",
        "widgets/labextension",
        "teacher/source/01_gradients",
    ]
    for part in [*parts, ".git"]:
        source = ROOT / part if part != ".git" else None
        if source is not None and source.is_dir():
            shutil.copytree(source, home / part)
        else:
            (home / part).mkdir(parents=True)
    run_post_build(home, tmp_path / "prefix", in_repo2docker=False)
    assert (home / "teacher" / "source" / "01_gradients").is_dir() and (home / ".git").is_dir()


def test_the_student_release_holds_no_answer_key(course, key, key_digests):
    release = course.root / "release"
    assert len(list(release.glob("*/*.ipynb"))) == len(list((ROOT / "teacher/source").iterdir()))
    assert leaks(release, key, key_digests) == []


@pytest.mark.parametrize("channel", ["student-release.zip", "wheel", "sdist"])
def test_the_archive_and_the_distributions_hold_no_answer_key(built, channel, key, key_digests):
    names = [name for name, _ in channel_files(built[channel])]
    assert any(name.endswith("minigrad/tensor.py") for name in names)  # the library is in it
    assert leaks(built[channel], key, key_digests) == []


def test_the_student_release_zip_has_what_a_student_needs(built):
    (archive,) = built["student-release.zip"].iterdir()
    names = set(zipfile.ZipFile(archive).namelist())
    sets = sorted(path.name for path in (ROOT / "teacher" / "source").iterdir())
    assert "minigrad-course/README.md" in names and "minigrad-course/notebooks/README.md" in names
    for name in sets:
        assert f"minigrad-course/notebooks/exercises/{name}/{name}.ipynb" in names
        released = ROOT / "notebooks" / "exercises" / name / f"{name}.ipynb"
        zipped = zipfile.ZipFile(archive).read(
            f"minigrad-course/notebooks/exercises/{name}/{name}.ipynb"
        )
        assert zipped == released.read_bytes()
    (wheel,) = [name for name in names if name.endswith(".whl")]
    readme = zipfile.ZipFile(archive).read("minigrad-course/README.md").decode()
    # The README installs the very wheel it ships, and tells no one to clone anything.
    assert wheel.removeprefix("minigrad-course/") in readme and "clone" not in readme


def test_the_zipped_wheel_gives_a_student_the_checks(built, tmp_path):
    """What the archive's README installs is enough for the exercise sets' given code
    (``from minigrad_course import checks as mc``), with no file of this repository."""
    (archive,) = built["student-release.zip"].iterdir()
    zipfile.ZipFile(archive).extractall(tmp_path / "unpacked")
    (wheel,) = (tmp_path / "unpacked" / "minigrad-course" / "wheels").glob("*.whl")
    installed = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
        + ["--target", str(installed), str(wheel)],
        check=True,
        capture_output=True,
    )
    code = "import minigrad as mg, minigrad_course.checks as mc; print(mc.__file__)"
    shown = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(installed)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(shown.stdout.strip()).is_relative_to(installed)


def test_students_are_never_sent_to_this_repository_for_graded_work():
    landing = (ROOT / "notebooks" / "README.md").read_text()
    assert "clone" not in landing and "take them from your teacher" in landing
    readme = (ROOT / "README.md").read_text()
    students = readme.split("**Students in a class that grades the exercise sets**")[1]
    assert "do not start here" in students.split("\n\n")[0]


def test_the_jupyterlite_site_holds_no_answer_key(lite_site, key, key_digests):
    assert leaks(lite_site, key, key_digests) == []


def test_the_search_finds_a_planted_leak(tmp_path, key, key_digests):
    """The search can fail: a solution line in a text file, a teacher's notebook inside a zip
    inside a wheel-like archive, and a file in a folder of the key are all found."""
    source = (
        ROOT / "teacher" / "source" / "03_backward_step_by_step" / "03_backward_step_by_step.ipynb"
    )
    solution_line = next(line for line, where in key.items() if "03_backward" in where)
    (tmp_path / "notes.md").write_text(f"Some notes.\n    {solution_line}\n")
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("copy/of/a/set.ipynb", source.read_bytes())
    with zipfile.ZipFile(tmp_path / "bundle.whl", "w") as archive:
        archive.writestr("inner.zip", inner.getvalue())
    (tmp_path / "tests" / "course").mkdir(parents=True)
    (tmp_path / "tests" / "course" / "anything.txt").write_text("no key line here\n")
    found = leaks(tmp_path, key, key_digests)
    assert "tests/course/anything.txt: a file of the answer key's folders" in found
    assert any(item.startswith("notes.md: ") for item in found)
    assert any(
        item.startswith("bundle.whl!inner.zip!copy/of/a/set.ipynb: the content of")
        for item in found
    )
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "lesson.md").write_text("x = mg.tensor(2.0, requires_grad=True)\n")
    assert leaks(clean, key, key_digests) == []
