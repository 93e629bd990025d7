"""Every lesson's numbers are PyTorch's.

Each lesson is re-run with ``import torch as mg`` in place of ``import minigrad as mg``, and
what every code cell prints or displays must equal the output stored in the notebook (which
came from minigrad). Cells tagged ``minigrad-only`` (drawings, widgets, the engine's step
records) are left out; ``minigrad.`` and ``torch.`` count as the same word, and object
addresses are ignored.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

torch = pytest.importorskip("torch")
# torch 2.13 warns from inside its own forward-mode code (lesson 18) that torch.jit.script is
# deprecated: not ours to show
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script` is deprecated:DeprecationWarning"
)

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def normalize(text: str) -> str:
    text = ADDRESS.sub("", text).replace("torch.", "minigrad.")
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def stored_text(cell: Any) -> list[str]:
    """What the notebook shows for a cell as text: printed lines, results, errors."""
    shown = []
    for output in cell.get("outputs", []):
        kind = output["output_type"]
        if kind == "stream" and output["name"] == "stdout":
            shown.append(output["text"])
        elif kind in ("execute_result", "display_data"):
            data = output["data"]
            if "image/png" in data or "image/svg+xml" in data:
                continue  # a figure: its numbers are checked through the cells that print them
            if "text/plain" in data:
                shown.append(data["text/plain"] + "\n")
        elif kind == "error":
            shown.append(f"{output['ename']}: {output['evalue']}\n")
    return [normalize("".join(shown))] if shown else []


def run_cell(source: str, namespace: dict[str, Any]) -> list[str]:
    """Run a cell as IPython would: the value of a final expression is displayed."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    displayed: list[str] = []
    namespace["display"] = lambda *objects: displayed.extend(repr(o) + "\n" for o in objects)
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                if value is not None:
                    displayed.append(repr(value) + "\n")
        except Exception as error:  # noqa: BLE001 - a cell's error is part of its output
            displayed.append(f"{type(error).__name__}: {error}\n")
    shown = printed.getvalue() + "".join(displayed)
    return [normalize(shown)] if shown else []


def with_torch(source: str) -> str:
    source = source.replace("import minigrad as mg", "import torch as mg")
    # Magics and shell lines mean nothing outside IPython.
    lines = source.splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_gives_torchs_numbers(lesson: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(lesson.parent)
    notebook = nbformat.read(lesson, as_version=4)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    compared = 0
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type != "code" or "minigrad-only" in cell.metadata.get("tags", []):
            continue
        actual = run_cell(with_torch(cell.source), namespace)
        expected = stored_text(cell)
        assert actual == expected, f"{lesson.name}, cell {number}:\n{cell.source}"
        compared += bool(expected)
    assert compared >= 5, f"{lesson.name}: too few cells compared with torch ({compared})"


def test_every_lesson_is_checked() -> None:
    assert LESSONS, "no lessons found under notebooks/"
