"""The ops package's docstring is its table of contents: it must name every op, each in the
file that holds it, and nothing that is not there."""

from __future__ import annotations

import inspect

import minigrad.ops as ops


def table_rows() -> list[tuple[str, list[str], str, str]]:
    """(written, classes, file, derivative) for each row of the table in the docstring."""
    lines = ops.__doc__.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    assert len(rules) == 3, "the table has a header rule, a rule under it and a closing rule"
    columns = [len(part) for part in lines[rules[0]].split("  ")]
    starts = [sum(columns[:i]) + 2 * i for i in range(len(columns))]
    rows = []
    for line in lines[rules[1] + 1 : rules[2]]:
        cells = [line[a : a + width].strip() for a, width in zip(starts, columns)]
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
