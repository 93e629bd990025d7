"""The examples of the source pages are in the lessons the landing pages say.

The course grew out of three tutorial pages on PyTorch's autograd. ``notebooks/README.md`` and
``docs/index.md`` each carry a table: an example's code, what PyTorch 2.13 prints for it, and
the lesson and section (``[lesson N, §M](...)``) where it is. Here every code fragment of a row
must be in a code cell of that section, and every printed result in that section's stored
outputs. (That the stored outputs are PyTorch's own is checked by
``tests/test_lessons_match_torch.py``.)

The tables write ``tensor(...)`` and ``1.`` as the pages do; the lessons write ``mg.tensor``
and ``1.0``. ``normalized`` makes both spellings the same before comparing.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "notebooks" / "README.md", ROOT / "docs" / "index.md"]
LOCATION = re.compile(r"\[lesson (\d+), §(\d+)\]\([^)]*?(\d\d_\w+)\.ipynb\)")
SOURCE_PAGES = ["Атрибут grad", "Функция backward", "如何在 PyTorch 中计算梯度？"]


def normalized(code: str) -> str:
    """One spelling for the pages' code and the lessons'.

    >>> normalized("mg.tensor([1.0, 2.0, .5])") == normalized("tensor([1., 2., 0.5])")
    True
    """
    code = re.sub(r"\b(?:mg|torch)\.", "", code)
    code = re.sub(r"(?<![\w.])\.(\d)", r"0.\1", code)  # .5 -> 0.5
    code = re.sub(r"(\d)\.0+(?!\d)", r"\1.", code)  # 1.0 -> 1.
    return re.sub(r"\s+", "", code)


def table_rows(page: Path) -> list[tuple[list[str], list[str], list[tuple[int, int, str]]]]:
    """The rows of the page's source-pages table: (code fragments, printed results,
    locations as (lesson, section, notebook name))."""
    text = page.read_text()
    section = text.split("## Coming from the tutorial pages", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not LOCATION.search(cells[2]):
            continue
        code = re.findall(r"`([^`]+)`", cells[0])
        printed = re.findall(r"`([^`]+)`", cells[1])
        where = [(int(n), int(m), name) for n, m, name in LOCATION.findall(cells[2])]
        rows.append((code, printed, where))
    return rows


def section_cells(name: str, number: int) -> list:
    """The cells of section ``## number.`` of a lesson, up to the next ``## `` heading."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    inside, cells = False, []
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            inside = cell.source.startswith(f"## {number}. ")
        elif inside:
            cells.append(cell)
    assert cells, f"{name} has no section {number}"
    return cells


def printed_text(cell) -> str:
    texts = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            texts.append(output["text"])
        elif "data" in output:
            texts.append(output["data"].get("text/plain", ""))
    return "\n".join(texts)


ROWS = [(page, row) for page in PAGES for row in table_rows(page)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_page_names_the_source_pages_and_has_the_table(page):
    text = page.read_text()
    for title in SOURCE_PAGES:
        assert title in text
    rows = table_rows(page)
    # The nine examples of the source pages (see the issue), the linear loss among them.
    assert len(rows) == 9
    assert any("loss.backward()" in code for codes, _, _ in rows for code in codes)


def test_both_pages_give_the_same_table():
    notebooks_readme, docs_index = (table_rows(page) for page in PAGES)
    assert notebooks_readme == docs_index


@pytest.mark.parametrize(
    "page, row", ROWS, ids=[f"{page.parent.name}-{i}" for i, (page, _) in enumerate(ROWS)]
)
def test_each_example_is_in_the_section_it_names(page, row):
    code_fragments, printed, locations = row
    assert code_fragments and printed and locations
    for lesson, section, name in locations:
        assert name.startswith(f"{lesson:02d}_"), (lesson, name)
        cells = section_cells(name, section)
        code = normalized("\n".join(c.source for c in cells if c.cell_type == "code"))
        outputs = normalized("\n".join(printed_text(c) for c in cells if c.cell_type == "code"))
        for fragment in code_fragments:
            assert normalized(fragment) in code, (name, section, fragment)
        for result in printed:
            assert normalized(result) in outputs, (name, section, result)


def test_where_the_pages_print_otherwise_the_lesson_shows_both_in_a_box():
    """The three results the source pages print differently: each lesson section shows the
    pages' output and PyTorch's in the coloured box (a ``<div style=...>`` callout)."""
    differences = [
        ("01_gradients", 6, "tensor([-0.8000, -1.6000, -2.4000])", "tensor([-3., -6., -9.])"),
        ("07_differentiating_twice", 3, "tensor(12.)", "tensor(24., grad_fn=<CopyBackwards>)"),
        ("01_gradients", 7, "tensor([2., 2., 1.5])", "tensor([2.0000, 2.0000, 1.5000])"),
    ]
    for name, section, pages_print, torch_prints in differences:
        boxes = [
            cell.source
            for cell in section_cells(name, section)
            if cell.cell_type == "markdown" and cell.source.startswith("<div style=")
        ]
        assert any(pages_print in box and torch_prints in box for box in boxes), (name, section)
