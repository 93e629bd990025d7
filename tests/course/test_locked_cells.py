"""The checksum warning of autograde names only the locked cells a student changed.

``test_round_trip.py`` reads autograde's log of the whole course; this checks the comparison
itself on every set: every locked cell of a release is what ``released_source`` expects.
"""

from __future__ import annotations

import pytest
from nbgrader_course import RELEASED, SETS, SOURCES, nbgrader_meta, read

from minigrad_course.locked_cells import released_source


@pytest.mark.parametrize("name", SETS)
def test_every_released_locked_cell_is_the_teachers_without_hidden_tests(name):
    teacher = {
        nbgrader_meta(c)["grade_id"]: c
        for c in read(SOURCES / name / f"{name}.ipynb").cells
        if nbgrader_meta(c)
    }
    locked = [
        c for c in read(RELEASED / name / f"{name}.ipynb").cells if nbgrader_meta(c).get("locked")
    ]
    assert locked
    for cell in locked:
        source = teacher[nbgrader_meta(cell)["grade_id"]]
        expected = released_source(source.source, source.cell_type)
        assert cell.source.rstrip() == expected.rstrip(), nbgrader_meta(cell)["grade_id"]
        assert "HIDDEN TESTS" not in expected
