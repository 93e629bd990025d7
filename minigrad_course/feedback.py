"""Feedback pages that show each failed check's message, not its traceback.

``nbgrader generate_feedback`` renders the autograded notebooks. A traceback there would
show the lines around the failing call: for a hidden test, the expected value. This
preprocessor (listed in ``teacher/nbgrader_config.py``) keeps only the last line of each
error, ``AssertionError: ✘ ... Hint: ...``, which is all a student needs.

>>> import nbformat
>>> cell = nbformat.v4.new_code_cell("check()")
>>> cell.outputs = [nbformat.v4.new_output(
...     "error", ename="AssertionError", evalue="✘ x is not right.", traceback=["long", "trace"])]
>>> _ = ShortErrors().preprocess_cell(cell, {}, 0)
>>> cell.outputs[0].traceback
['AssertionError: ✘ x is not right.']
"""

from __future__ import annotations

from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool


class ShortErrors(Preprocessor):
    """Replace every error output's traceback by its one-line message."""

    # nbconvert runs a preprocessor listed by name only when it is enabled.
    enabled = Bool(True).tag(config=True)

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                output["traceback"] = [f"{output['ename']}: {output['evalue']}"]
        return cell, resources
