"""What students receive carries no answers; the teacher sources are well formed.

Static tests over ``teacher/source`` and the committed releases (``notebooks/exercises``);
``test_round_trip.py`` checks that those releases are exactly what nbgrader generates.
"""

from __future__ import annotations

import ast
import json
import re

import pytest
from nbgrader_course import RELEASED, ROOT, SETS, SOURCES, grade_cells, nbgrader_meta, read

HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)
SOLUTION = re.compile(r"^[ \t]*### BEGIN SOLUTION\n(.*?)^[ \t]*### END SOLUTION", re.DOTALL | re.M)
STUDENT_FACING = [
    *sorted(RELEASED.rglob("*.ipynb")),
    *sorted(ROOT.glob("notebooks/*/exercises/*/*.ipynb")),  # released in ru and zh_CN
    ROOT / "notebooks" / "README.md",
    ROOT / "docs" / "lessons.md",
]
# Every page of the docs site, the teachers' guide and the checks' reference included.
SITE_PAGES = [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "api").glob("*.md"))]


def source(name):
    return read(SOURCES / name / f"{name}.ipynb")


def release(name):
    return read(RELEASED / name / f"{name}.ipynb")


def solution_lines(nb) -> set[str]:
    """Every line of a solution, except those that the teacher's notebook also has outside
    its solutions (``(x,) = ctx.saved_tensors`` in given code, a statement quoting a line)."""
    inside, outside = set(), []
    for cell in nb.cells:
        for region in SOLUTION.findall(cell.source):
            inside.update(line.strip() for line in region.splitlines())
        outside.append(HIDDEN.sub("", SOLUTION.sub("", cell.source)))
    rest = "\n".join(outside)
    return {line for line in inside if line and not line.startswith("#") and line not in rest}


def expected_values(nb) -> list:
    """The literal ``expected=`` values of the hidden tests."""
    values = []
    for cell in grade_cells(nb):
        for block in HIDDEN.findall(cell.source):
            for node in ast.walk(ast.parse(block)):
                if isinstance(node, ast.keyword) and node.arg == "expected":
                    try:
                        values.append(ast.literal_eval(node.value))
                    except ValueError:  # computed from the student's own op: no literal
                        pass
    return values


def leaves(value):
    if isinstance(value, dict):  # the keys are given in the statement; the values are answers
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def texts_of(value) -> set[str]:
    """How a value would be written: only values that cannot turn up by chance (a number with
    at least four significant digits, a string of four or more characters)."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, str):
        return {value} if len(value) >= 4 else set()
    digits = f"{abs(value):.10g}".replace(".", "").replace("-", "").strip("0")
    if len(digits) < 4:
        return set()
    return {repr(value), f"{value:.6g}", f"{value:.5g}", f"{value:.4g}"}


@pytest.mark.parametrize("name", SETS)
def test_no_solution_line_reaches_the_release(name):
    lines = solution_lines(source(name))
    assert lines, "a teacher source without solutions"
    text = json.dumps(release(name).dict(), ensure_ascii=False)
    for line in lines:
        assert json.dumps(line, ensure_ascii=False)[1:-1] not in text, line


@pytest.mark.parametrize("name", SETS)
def test_no_solution_line_is_on_a_page_of_the_site_or_the_landing_page(name):
    """Lines the lessons teach (``loss.backward()``) may be anywhere; the others may not."""
    lessons = "\n".join(
        cell.source
        for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
        for cell in read(path).cells
    )
    lines = {line for line in solution_lines(source(name)) if line not in lessons}
    assert lines
    for page in [*SITE_PAGES, ROOT / "notebooks" / "README.md", ROOT / "README.md"]:
        text = page.read_text()
        for line in lines:
            assert line not in text, (page.name, line)


@pytest.mark.parametrize("name", SETS)
def test_no_expected_value_reaches_the_release(name):
    values = [v for value in expected_values(source(name)) for v in leaves(value)]
    assert values, "hidden tests without literal expected values"
    nb = release(name)
    # The statements (markdown, given code) are the teacher's own words, kept as written:
    # search what the checks and the stubs say, every output and all metadata.
    searched = [cell.source for cell in nb.cells if nbgrader_meta(cell).get("grade")]
    searched += [cell.source for cell in nb.cells if nbgrader_meta(cell).get("solution")]
    searched += [json.dumps(cell.get("outputs", []), ensure_ascii=False) for cell in nb.cells]
    searched += [json.dumps(cell.metadata, ensure_ascii=False) for cell in nb.cells]
    searched.append(json.dumps(nb.metadata, ensure_ascii=False))
    whole = json.dumps(nb.dict(), ensure_ascii=False)
    for value in values:
        for text in texts_of(value):
            assert not any(text in part for part in searched), (name, value, text)
            if not isinstance(value, str):  # a long number nowhere at all, prose included
                assert text not in whole, (name, value, text)


@pytest.mark.parametrize("name", SETS)
def test_the_release_has_no_hidden_tests_and_no_outputs(name):
    nb = release(name)
    for cell in nb.cells:
        assert "HIDDEN TESTS" not in cell.source and "SOLUTION" not in cell.source
        assert "_mc." not in cell.source
        assert not cell.get("outputs")


@pytest.mark.parametrize("path", STUDENT_FACING, ids=lambda p: str(p.relative_to(ROOT)))
def test_student_facing_pages_do_not_point_to_the_teacher_area(path):
    text = path.read_text()
    assert "teacher/" not in text and "/teacher" not in text
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text


NBGRADER_KEYS = {"grade", "grade_id", "locked", "schema_version", "solution", "task"}


@pytest.mark.parametrize("name", SETS)
def test_the_teacher_source_is_well_formed(name):
    nb = source(name)
    kinds = []
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if cell.cell_type == "code":
            assert meta, f"code cell without nbgrader metadata: {cell.source[:40]!r}"
        if not meta:
            continue
        assert set(meta) - {"points"} == NBGRADER_KEYS
        if meta["solution"]:  # an answer cell: editable, not graded, with a solution
            assert (meta["grade"], meta["locked"]) == (False, False)
            assert SOLUTION.search(cell.source)
            kinds.append("answer")
        elif meta["grade"]:  # a grade cell: locked, visible checks, then hidden tests
            assert meta["locked"] is True and meta["points"] > 0
            visible, _, hidden = cell.source.partition("### BEGIN HIDDEN TESTS")
            assert re.search(r"\bmc\.check_\w+\(", visible), "no visible check"
            assert "expected=" not in visible, "an expected value in the visible checks"
            # The hidden tests use a fresh copy of the checks, not the one answer cells see.
            assert '_sys.modules.pop("minigrad_course.checks", None)' in hidden
            assert "import minigrad_course.checks as _mc" in hidden
            assert re.search(r"\b_mc\.check_\w+\(", hidden)
            kinds.append("check")
        else:  # given code: read-only
            assert meta["locked"] is True and "points" not in meta
    assert kinds == ["answer", "check"] * (len(kinds) // 2), "each answer has its check"


@pytest.mark.parametrize("name", SETS)
def test_an_exercise_that_asks_for_a_function_releases_its_signature(name):
    for cell in release(name).cells:
        if nbgrader_meta(cell).get("solution") and "raise NotImplementedError()" in cell.source:
            before = cell.source.split("# YOUR CODE HERE")[0]
            for line in before.splitlines():
                assert (
                    not line
                    or line.startswith(("def ", "class ", "    "))
                    or re.fullmatch(r"\w+ = None", line)
                ), f"{name}: unexpected given line {line!r} in an answer cell"
    source_defs = {
        m.group(1)
        for cell in source(name).cells
        if nbgrader_meta(cell).get("solution")
        for m in re.finditer(r"^def (\w+\(.*\)):", cell.source, re.M)
    }
    release_text = "\n".join(c.source for c in release(name).cells)
    for signature in source_defs:
        assert f"def {signature}:" in release_text


def test_the_landing_page_links_every_released_set():
    readme = (ROOT / "notebooks" / "README.md").read_text()
    links = re.findall(r"\]\((exercises/[^)]+\.ipynb)\)", readme)
    assert links == [f"exercises/{name}/{name}.ipynb" for name in SETS]
    assert all((ROOT / "notebooks" / link).exists() for link in links)
