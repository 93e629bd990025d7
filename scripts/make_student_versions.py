"""Make the student exercise notebooks from the teacher versions, which hold the solutions.

The teacher notebooks, ``notebooks/exercises/teacher/NN_topic.ipynb``, mark their answers the
nbgrader way: each answer cell carries nbgrader metadata with ``"solution": true`` and holds
its solution between the lines ``### BEGIN SOLUTION`` and ``### END SOLUTION``; each check cell
is an nbgrader autograded test cell (``"grade": true``, ``"points": N``, ``"locked": true``).
This script writes ``notebooks/exercises/student/NN_topic.ipynb``: the same notebook with every
solution region replaced by placeholders, then (unless ``--no-execute``) runs it so that it is
stored with the outputs of a real run, as every notebook in this repository is.

Placeholders: one line ``name = None  # YOUR CODE HERE`` for each name that the region binds
at top level and a later check cell uses. This differs on purpose from nbgrader's own
``# YOUR CODE HERE`` followed by ``raise NotImplementedError()``: an untouched student notebook
must run from top to bottom without crashing (``pytest --nbval`` runs it, and a student who
does *Run All* should see every exercise), and the checks in ``minigrad.exercises`` report a
``None`` answer as "not yet solved". So a solution region must sit at the top level of its cell
(not inside a function body) and bind at least one name that a check cell reads, for example::

    ### BEGIN SOLUTION                      becomes      dfdx = None  # YOUR CODE HERE
    dfdx = 3 * 3**2 - 2
    ### END SOLUTION

Everything outside the regions (prose, given code, check cells, nbgrader metadata) is copied
unchanged, so a teacher can also release the teacher notebooks through nbgrader itself.

Usage, from the repository root::

    .venv/bin/python scripts/make_student_versions.py               # all sets, executed
    .venv/bin/python scripts/make_student_versions.py --no-execute --out /tmp/student
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
TEACHER_DIR = ROOT / "notebooks" / "exercises" / "teacher"
STUDENT_DIR = ROOT / "notebooks" / "exercises" / "student"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
PLACEHOLDER = "{name} = None  # YOUR CODE HERE"


class SolutionMarkupError(ValueError):
    """A teacher notebook whose solution regions cannot be turned into placeholders."""


def nbgrader_meta(cell: dict) -> dict:
    """The cell's nbgrader metadata, or ``{}``."""
    return cell.get("metadata", {}).get("nbgrader", {})


def is_solution_cell(cell: dict) -> bool:
    return cell["cell_type"] == "code" and bool(nbgrader_meta(cell).get("solution"))


def is_check_cell(cell: dict) -> bool:
    return cell["cell_type"] == "code" and bool(nbgrader_meta(cell).get("grade"))


def solution_regions(source: str) -> list[tuple[int, int]]:
    """``(begin, end)`` line numbers (0-based, inclusive) of each solution region in ``source``.

    >>> solution_regions("a = 1\\n### BEGIN SOLUTION\\nb = 2\\n### END SOLUTION")
    [(1, 3)]
    """
    regions, begin = [], None
    for number, line in enumerate(source.splitlines()):
        marker = line.strip()
        if marker == BEGIN:
            if begin is not None:
                raise SolutionMarkupError(f"line {number + 1}: {BEGIN} inside another region")
            if line != marker:
                raise SolutionMarkupError(
                    f"line {number + 1}: solution regions must not be indented (a None "
                    "placeholder only works at the top level of a cell)"
                )
            begin = number
        elif marker == END:
            if begin is None:
                raise SolutionMarkupError(f"line {number + 1}: {END} without {BEGIN}")
            regions.append((begin, number))
            begin = None
    if begin is not None:
        raise SolutionMarkupError(f"line {begin + 1}: {BEGIN} is never closed")
    return regions


def bound_names(code: str) -> list[str]:
    """Names that ``code`` binds at its top level, in order of first binding.

    >>> bound_names("x, y = 1, 2\\ndef f():\\n    z = 3\\nclass C: pass")
    ['x', 'y', 'f', 'C']
    """
    names: list[str] = []

    def add(name: str) -> None:
        if name not in names:
            names.append(name)

    def targets(node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            add(node.id)
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                targets(element)
        elif isinstance(node, ast.Starred):
            targets(node.value)

    for statement in ast.parse(code).body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                targets(target)
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets(statement.target)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            add(statement.name)
        elif isinstance(statement, ast.For):
            targets(statement.target)
        elif isinstance(statement, ast.With):
            for item in statement.items:
                if item.optional_vars is not None:
                    targets(item.optional_vars)
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            for alias in statement.names:
                add((alias.asname or alias.name).split(".")[0])
    return names


def used_names(code: str) -> set[str]:
    """Every name that ``code`` reads anywhere.

    >>> sorted(used_names("print(a + b)"))
    ['a', 'b', 'print']
    """
    return {
        node.id
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def student_source(source: str, checked: set[str]) -> str:
    """``source`` with each solution region replaced by placeholders for the answer names.

    ``checked`` holds the names the later check cells read: those are the answers.

    >>> print(student_source("# f'(3)\\n### BEGIN SOLUTION\\nt = 3\\nd = 3 * t\\n"
    ...                      "### END SOLUTION", {"d"}))
    # f'(3)
    d = None  # YOUR CODE HERE
    """
    lines = source.splitlines()
    regions = solution_regions(source)
    if not regions:
        raise SolutionMarkupError(f"a solution cell without {BEGIN} ... {END}")
    out, position = [], 0
    for begin, end in regions:
        out += lines[position:begin]
        answers = [
            name for name in bound_names("\n".join(lines[begin + 1 : end])) if name in checked
        ]
        if not answers:
            raise SolutionMarkupError(
                f"the solution region at line {begin + 1} binds no name that a check cell uses"
            )
        out += [PLACEHOLDER.format(name=name) for name in answers]
        position = end + 1
    out += lines[position:]
    return "\n".join(out).strip("\n")


def student_notebook(teacher: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The student version of a teacher notebook, without outputs."""
    nb = copy.deepcopy(teacher)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
        if not is_solution_cell(cell):
            if BEGIN in cell.source or END in cell.source:
                raise SolutionMarkupError(
                    f"cell {index}: solution markers in a cell without nbgrader solution metadata"
                )
            continue
        checked = set().union(
            *(used_names(later.source) for later in nb.cells[index + 1 :] if is_check_cell(later))
        )
        try:
            cell.source = student_source(cell.source, checked)
        except SolutionMarkupError as error:
            raise SolutionMarkupError(f"cell {index}: {error}") from None
    return nb


def write_student_versions(
    teacher_dir: Path = TEACHER_DIR, student_dir: Path = STUDENT_DIR, execute: bool = True
) -> list[Path]:
    """Write the student version of every teacher notebook; returns the paths written.

    Example: ``write_student_versions(execute=False)`` regenerates the sources only.
    """
    student_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for teacher_path in sorted(teacher_dir.glob("*.ipynb")):
        nb = student_notebook(nbformat.read(teacher_path, as_version=4))
        nbformat.validate(nb)
        path = student_dir / teacher_path.name
        nbformat.write(nb, path)
        written.append(path)
    if execute:
        sys.path.insert(0, str(ROOT / "scripts"))
        from execute_notebooks import execute_in_place

        for path in written:
            print(f"executing {path} ...", flush=True)
            execute_in_place(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teacher", type=Path, default=TEACHER_DIR, help="teacher notebooks")
    parser.add_argument("--out", type=Path, default=STUDENT_DIR, help="where to write")
    parser.add_argument(
        "--no-execute", action="store_true", help="write the sources only, without outputs"
    )
    args = parser.parse_args(argv)
    try:
        paths = write_student_versions(args.teacher, args.out, execute=not args.no_execute)
    except SolutionMarkupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in paths:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
