"""The layers keep to the core's public surface: import-linter (``make test``) checks which
modules they import; this checks what they read. Neither the visual layer nor the course
tooling may touch an attribute the core keeps private (``node._saved``, ``t._array``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def private_names_of_the_core() -> set[str]:
    """Every ``_name`` the core defines or uses as an attribute (dunders are public)."""
    names = set()
    for path in (ROOT / "minigrad").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                name = node.name
            else:
                continue
            if name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def reads_of(package: str, names: set[str]) -> list[str]:
    """``file:line expression`` for each read of one of ``names`` on something other than
    the reading object itself (``self._x`` is the layer's own business)."""
    found = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in names:
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("package", ["widgets", "minigrad_course"])
def test_layer_reads_nothing_private_of_the_core(package):
    assert reads_of(package, private_names_of_the_core()) == []


def test_the_check_sees_a_private_read():
    names = private_names_of_the_core()
    assert {"_array", "_saved", "_version"} <= names
    assert reads_of("minigrad", {"_array"})  # the core itself reads its own privates
