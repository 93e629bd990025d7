"""The ops package's docstring is its table of contents: it must name every op, each in the
file that holds it, and nothing that is not there."""

from __future__ import annotations

import inspect

import minigrad.ops as ops


def tables() -> list[list[list[str]]]:
    """The cells of each table in the docstring, row by row."""
    lines = ops.__doc__.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    assert len(rules) == 6, "two tables, each with a header rule, a rule under it and a last"
    found = []
    for first, under, last in (rules[0:3], rules[3:6]):
        columns = [len(part) for part in lines[first].split("  ")]
        starts = [sum(columns[:i]) + 2 * i for i in range(len(columns))]
        found.append(
            [
                [line[a : a + width].strip() for a, width in zip(starts, columns)]
                for line in lines[under + 1 : last]
            ]
        )
    return found


def table_rows() -> list[tuple[str, list[str], str, str]]:
    """(written, classes, file, derivative) for each row of the first table."""
    rows = []
    for cells in tables()[0]:
        names = [name.strip() for name in cells[1].split(",")]
        rows.append((cells[0], names, cells[2], cells[3]))
    return rows


def package_ops() -> dict[str, str]:
    """Every op class the package exports, with the file it is defined in."""
    found = {}
    for name, value in vars(ops).items():
        if inspect.isclass(value) and issubclass(value, ops.Op):
            if value not in (ops.Op, ops.Elementwise):
                found[name] = value.__module__.rsplit(".", 1)[-1]
    return found


def test_every_op_has_a_row_naming_its_file():
    listed = {name: file for _, names, file, _ in table_rows() for name in names}
    assert listed == package_ops()


def test_each_row_says_how_the_op_is_written_and_its_derivative():
    for written, names, file, derivative in table_rows():
        assert written and all(names) and file and derivative, (written, names, file, derivative)


def test_the_forward_table_gives_each_op_its_jvp_formula():
    """The second table: the same rows, each with the forward derivative of its classes
    (what ForwardStep.formula shows), and every op has a jvp of its own."""
    first, second = tables()
    assert [cells[0] for cells in second] == [cells[1] for cells in first]
    for cells in second:
        classes = [getattr(ops, name.strip()) for name in cells[0].split(",")]
        formulas = ", ".join(dict.fromkeys(op.jvp_formula for op in classes))
        assert cells[1] == formulas, cells
        assert all(op.jvp_formula and "jvp" in _defined_below_op(op) for op in classes)


def _defined_below_op(op: type) -> set[str]:
    names: set[str] = set()
    for klass in op.__mro__:
        if klass in (ops.Op, ops.Elementwise):
            break
        names.update(vars(klass))
    return names
