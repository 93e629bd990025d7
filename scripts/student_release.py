"""The course as a student receives it outside a JupyterHub: one zip archive.

    .venv/bin/python scripts/student_release.py            (or `make student-release`)

writes ``build/student-release.zip``, one folder ``minigrad-course/`` holding

- ``README.md``: what is inside and how to start, for students (from
  ``scripts/student_release_README.md``, with the wheel's file name filled in);
- ``notebooks/``: the lessons, the course's landing page and ``exercises/``, the exercise
  sets exactly as ``nbgrader generate_assignment`` released them into
  ``notebooks/exercises/`` (after changing a set, generate it again first: docs/teachers.md);
- ``wheels/``: this project's wheel, so that ``pip install`` gives the student ``minigrad``,
  ``widgets`` and the checks the exercise sets call, with no clone of this repository.

Nothing of ``teacher/`` or ``tests/`` goes in: the archive is made from named student
material, not by leaving things out, and ``tests/course/test_no_answer_key_leaks.py``
searches it for every line of the answer key.

The wheel is built as ``python -m build`` would, without needing it or the network: the
source distribution first, from a copy of the files git lists (so no stale build folder or
untracked file of this checkout gets in), then the wheel from that source distribution,
both by setuptools' own build hooks in this Python. ``--dist DIR`` keeps both files there
(the leak test checks them too).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "minigrad-course"  # the one folder at the top of the archive
README_TEMPLATE = ROOT / "scripts" / "student_release_README.md"
# A fixed date for every entry: the same sources give the same archive.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def copy_listed_files(source: Path, destination: Path) -> None:
    """Copy the files git lists in ``source`` (tracked, or new and not ignored) into
    ``destination``: the checkout as a clone of it would be, with today's edits."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=source,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        path = source / name
        if path.is_file():  # a tracked file deleted in the working folder is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def run_build_hook(hook: str, project: Path, out: Path) -> Path:
    """Call setuptools' PEP 517 hook ``hook`` (build_sdist or build_wheel) in a fresh
    Python, in ``project``; return the file it wrote into ``out``."""
    code = f"import setuptools.build_meta as hooks; print(hooks.{hook}({str(out)!r}))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise SystemExit(f"{hook} failed:\n{result.stdout}\n{result.stderr}")
    return out / result.stdout.strip().splitlines()[-1]


def build_distributions(dist: Path) -> tuple[Path, Path]:
    """The sdist of this checkout, and the wheel built from that sdist, into ``dist``.

    For example ``build_distributions(Path("dist"))`` returns
    ``(dist/minigrad_classroom-0.1.0.tar.gz, dist/minigrad_classroom-0.1.0-py3-none-any.whl)``.
    """
    dist.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        copy_listed_files(ROOT, work / "checkout")
        sdist = run_build_hook("build_sdist", work / "checkout", dist.resolve())
        with tarfile.open(sdist) as archive:
            archive.extractall(work / "unpacked", filter="data")
        (unpacked,) = (work / "unpacked").iterdir()
        wheel = run_build_hook("build_wheel", unpacked, dist.resolve())
    return sdist, wheel


def student_files(wheel: Path, exercises: Path | None = None) -> dict[str, Path]:
    """What goes into the archive, by its name there (inside ``FOLDER``), except the README.
    The exercise sets come from ``exercises`` (``notebooks/exercises`` unless a class's
    release is given: docs/teachers.md, "Class variants")."""
    notebooks = ROOT / "notebooks"
    exercises = exercises or notebooks / "exercises"
    files = {"notebooks/README.md": notebooks / "README.md"}
    for lesson in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        files[f"notebooks/{lesson.name}"] = lesson
    for released in sorted(exercises.glob("*/*.ipynb")):
        files[f"notebooks/exercises/{released.relative_to(exercises).as_posix()}"] = released
    files[f"wheels/{wheel.name}"] = wheel
    return files


def write_archive(out: Path, wheel: Path, exercises: Path | None = None) -> None:
    """Write the zip: the student README, then the files of ``student_files``."""
    readme = README_TEMPLATE.read_text().replace("{wheel}", wheel.name)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:

        def add(name: str, data: bytes) -> None:
            entry = zipfile.ZipInfo(f"{FOLDER}/{name}", date_time=ZIP_DATE)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)

        add("README.md", readme.encode())
        for name, path in student_files(wheel, exercises).items():
            add(name, path.read_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "student-release.zip")
    parser.add_argument("--dist", type=Path, help="keep the sdist and the wheel in this folder")
    parser.add_argument(
        "--exercises",
        type=Path,
        help="the released sets to ship (a class's: teacher/class/release)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        _, wheel = build_distributions(args.dist or Path(scratch))
        write_archive(args.out, wheel, args.exercises)
    print(f"student_release: {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
