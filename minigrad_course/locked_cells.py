"""Autograde warns about a locked cell only when the student changed it.

``nbgrader generate_assignment`` stores each locked cell's checksum *before* it takes the
hidden tests out, so nbgrader's own check (``OverwriteCells``) finds every grade cell with
hidden tests "changed" in every submission, untouched or not, and the warning says nothing.
:class:`RestoreLockedCells` compares the submitted cell with the released one (the teacher's
cell with its hidden tests taken out, as ``generate_assignment`` did) and warns only when
they differ. Either way the teacher's cell, hidden tests included, is what gets graded.

It replaces ``OverwriteCells`` among autograde's sanitizing steps, in
``teacher/nbgrader_config.py``::

    c.Autograde.sanitize_preprocessors = [
        "nbgrader.preprocessors.ClearOutput",
        "nbgrader.preprocessors.DeduplicateIds",
        "nbgrader.preprocessors.OverwriteKernelspec",
        "minigrad_course.locked_cells.RestoreLockedCells",
        "nbgrader.preprocessors.CheckCellMetadata",
    ]

>>> released_source("check(x)\\n### BEGIN HIDDEN TESTS\\nsecret(x)\\n### END HIDDEN TESTS", "code")
'check(x)'
"""

from __future__ import annotations

from typing import Any

import nbformat
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells


def released_source(teacher_source: str, cell_type: str) -> str:
    """The source a student received for a locked cell: the teacher's, hidden tests out."""
    cell = nbformat.v4.new_code_cell(teacher_source)
    if cell_type == "markdown":
        cell = nbformat.v4.new_markdown_cell(teacher_source)
    ClearHiddenTests()._remove_hidden_test_region(cell)
    return cell.source


class RestoreLockedCells(OverwriteCells):
    """nbgrader's ``OverwriteCells``, warning about a locked cell only if it was edited."""

    def preprocess_cell(self, cell: Any, resources: dict, cell_index: int) -> tuple[Any, dict]:
        self._edited = self._was_edited(cell)
        return super().preprocess_cell(cell, resources, cell_index)

    def _was_edited(self, cell: Any) -> bool:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is None:
            return False
        try:
            teacher = self.gradebook.find_source_cell(
                grade_id, self.notebook_id, self.assignment_id
            )
        except MissingEntry:  # nbgrader itself warns about a cell it does not know
            return False
        if not teacher.locked:
            return False
        released = released_source(teacher.source, teacher.cell_type)
        return cell.source.rstrip() != released.rstrip() or cell.cell_type != teacher.cell_type

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        if attr == "checksum":
            if self._edited:
                self.log.warning(
                    "Locked cell %s was edited in this submission: "
                    "the teacher's version is graded instead",
                    name,
                )
            return  # an untouched cell differs from the stored checksum only by its hidden tests
        super().report_change(name, attr, old, new)
