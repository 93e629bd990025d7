"""A student's environment is a student's: ``make lab`` installs ``.[lab]``, what the lessons
need, and no developer or teacher tool; ``make test`` adds ``[dev,course]`` to the same venv.

A full install into a scratch venv takes minutes, so the test asks pip what ``.[lab]`` would
install, from nothing (``--dry-run --ignore-installed --report``): the whole resolved set,
dependencies of dependencies included. ``tests/test_make_lab.py`` checks that ``make lab``
asks bootstrap for that set.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent

# The developer's and teacher's tools: none of them belongs in a student's JupyterLab.
NOT_FOR_STUDENTS = {
    "sphinx",
    "sphinx-intl",  # the site in Russian and Chinese (scripts/translate_docs.py)
    "myst-nb",
    "furo",
    "ruff",
    "import-linter",
    "playwright",
    "pytest",
    "nbval",
    "hypothesis",
    "nbgrader",  # and with it its Create Assignment and Formgrader extensions
    "jupyterhub",  # the course's test of a class on a hub
    "torch",
}
# What the lessons need: JupyterLab (the front end make lab starts), Notebook 7, a kernel,
# what the lessons import, and JupyterLab's interface in the course's other languages.
FOR_STUDENTS = {
    "jupyterlab",
    "notebook",
    "ipykernel",
    "ipywidgets",
    "numpy",
    "matplotlib",
    "jupyterlab-language-pack-ru-ru",
    "jupyterlab-language-pack-zh-cn",
}


def extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["optional-dependencies"]


def test_the_tools_are_in_the_developers_and_teachers_extras():
    """The names below are the real ones: each tool is in an extra that make test installs."""
    named = {
        canonicalize_name(Requirement(line).name)
        for extra in ("dev", "course", "oracle")
        for line in extras()[extra]
    }
    assert NOT_FOR_STUDENTS <= named, NOT_FOR_STUDENTS - named


@pytest.fixture(scope="module")
def students_set(tmp_path_factory) -> set[str]:
    report = tmp_path_factory.mktemp("pip") / "report.json"
    resolved = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--report",
            str(report),
            "-e",
            f"{ROOT}[lab]",
        ],
        capture_output=True,
        text=True,
    )
    if resolved.returncode != 0:
        pytest.fail(f"pip could not resolve .[lab]:\n{resolved.stderr[-2000:]}")
    installs = json.loads(report.read_text())["install"]
    return {canonicalize_name(item["metadata"]["name"]) for item in installs}


def test_make_lab_installs_no_developer_or_teacher_tool(students_set):
    assert not students_set & NOT_FOR_STUDENTS, sorted(students_set & NOT_FOR_STUDENTS)


def test_make_lab_installs_what_the_lessons_need(students_set):
    assert FOR_STUDENTS | {"minigrad-classroom"} <= students_set, FOR_STUDENTS - students_set


def test_jupyterlab_offers_the_courses_three_languages():
    """The language packs ``.[lab]`` installs are the ones JupyterLab finds (Settings →
    Language lists Russian and Chinese beside English)."""
    from jupyterlab_server.translation_utils import get_language_packs

    packs, problems = get_language_packs()
    assert {"en", "ru_RU", "zh_CN"} <= set(packs), (sorted(packs), problems)
