"""The lessons are stored with outputs, and those outputs are what a fresh run prints.

Students read a lesson before they run it, so every notebook under ``notebooks/`` must be saved
*with* its outputs, from one clean top-to-bottom run (``scripts/execute_notebooks.py`` does
that). These tests check it in two ways:

* statically: every code cell was executed, in order, in one kernel, and nothing failed;
* by running a copy with nbclient and comparing each cell's outputs with the stored ones, so a
  stripped, stale or non-deterministic notebook fails. Genuinely volatile text (memory
  addresses) is masked by the patterns in ``notebooks/nbval-sanitize.cfg``, the same file
  ``pytest --nbval`` uses.

Run: ``.venv/bin/python -m pytest tests/test_notebooks.py -q``. To fix a failure, change the
code cells and run ``.venv/bin/python scripts/execute_notebooks.py notebooks/NAME.ipynb``.
"""

import copy
import functools
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
SANITIZE_FILE = NOTEBOOK_DIR / "nbval-sanitize.cfg"
# The released exercise sets (notebooks/exercises) are nbgrader's output, stored without
# outputs on purpose; tests/course checks them.
NOTEBOOKS = sorted(
    p
    for p in NOTEBOOK_DIR.rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts and "exercises" not in p.relative_to(NOTEBOOK_DIR).parts
)

# Widget views carry random model ids on every run; nbval skips them too.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
VOLATILE_MIME_TYPES = {WIDGET_VIEW}
RAISES = "raises-exception"  # nbval's tag for a cell that is meant to fail


def sanitize_patterns(text: str) -> list[tuple[str, str]]:
    """(regex, replacement) pairs from a sanitize file, read exactly as nbval reads it.

    >>> sanitize_patterns("[addresses]\\nregex: 0x[0-9a-f]+\\nreplace: 0xADDR\\n")
    [('0x[0-9a-f]+', '0xADDR')]
    """
    return re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, flags=re.MULTILINE)


PATTERNS = sanitize_patterns(SANITIZE_FILE.read_text())


def _masked(text: str, patterns: list[tuple[str, str]]) -> str:
    for regex, replacement in patterns:
        text = re.sub(regex, replacement, text)
    return text


def comparable(outputs: list, patterns: list[tuple[str, str]]) -> list[dict]:
    """A cell's outputs reduced to what a reader sees, in order, with volatile text masked.

    Consecutive writes to one stream are joined (how they are split into messages depends on
    timing); tracebacks are dropped (they contain paths and colours), their error name and
    message are kept.
    """
    seen = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            if seen and seen[-1].get("stream") == output["name"]:
                seen[-1]["text"] += output["text"]
            else:
                seen.append({"stream": output["name"], "text": output["text"]})
        elif kind == "error":
            seen.append({"error": output["ename"], "text": output["evalue"]})
        else:
            # A widget's PNG, the picture shown where widgets cannot run, exists only where
            # Graphviz's `dot` is installed (CI hides it); nbval skips PNGs too. Plots are
            # compared.
            volatile = VOLATILE_MIME_TYPES | (
                {"image/png"} if WIDGET_VIEW in output["data"] else set()
            )
            data = {
                mime: value if isinstance(value, str) else repr(value)
                for mime, value in output["data"].items()
                if mime not in volatile
            }
            seen.append({kind: data})
    for item in seen:
        for key, value in item.items():
            if isinstance(value, str):
                item[key] = _masked(value, patterns)
            elif isinstance(value, dict):
                item[key] = {mime: _masked(text, patterns) for mime, text in value.items()}
    return seen


def storage_problems(nb) -> list[str]:
    """What is wrong with how ``nb`` was saved; an empty list when it is a clean, full run.

    A clean run numbers the code cells 1, 2, 3, ... in order (a restarted kernel, a re-run
    cell or a skipped cell breaks the sequence) and raises no error outside cells tagged
    ``raises-exception``.
    """
    problems = []
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    if not code_cells:
        problems.append("the notebook has no code cells")
    for number, cell in enumerate(code_cells, start=1):
        first_line = cell.source.splitlines()[0] if cell.source else ""
        where = f"code cell {number} ({first_line!r})"
        if cell.execution_count is None:
            problems.append(f"{where} was never executed: the notebook is stored without outputs")
        elif cell.execution_count != number:
            problems.append(
                f"{where} has execution count {cell.execution_count}, expected {number}: "
                "not stored from one top-to-bottom run"
            )
        errors = [out for out in cell.outputs if out.output_type == "error"]
        if errors and RAISES not in cell.metadata.get("tags", []):
            problems.append(f"{where} stored an error: {errors[0].ename}: {errors[0].evalue}")
    if code_cells and not any(cell.outputs for cell in code_cells):
        problems.append("no code cell has any output: the outputs were stripped")
    return problems


def output_differences(stored, fresh, patterns: list[tuple[str, str]]) -> list[str]:
    """Cells whose outputs in ``fresh`` (a new run) differ from those stored in ``stored``."""
    stored_cells = [cell for cell in stored.cells if cell.cell_type == "code"]
    fresh_cells = [cell for cell in fresh.cells if cell.cell_type == "code"]
    differences = []
    for number, (old, new) in enumerate(zip(stored_cells, fresh_cells), start=1):
        before, after = comparable(old.outputs, patterns), comparable(new.outputs, patterns)
        if before != after:
            differences.append(f"code cell {number}:\n  stored: {before}\n  fresh:  {after}")
    return differences


@functools.cache
def executed(path: Path):
    """A fresh top-to-bottom run of the notebook at ``path`` (the file itself is untouched)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def _ids(path: Path) -> str:
    return str(path.relative_to(NOTEBOOK_DIR))


def test_there_are_lessons():
    assert NOTEBOOKS, f"no notebooks found under {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_stored_from_one_clean_run(path):
    problems = storage_problems(nbformat.read(path, as_version=4))
    assert not problems, "\n".join(problems) + "\nfix: scripts/execute_notebooks.py " + str(path)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_a_fresh_run_prints_the_stored_outputs(path):
    stored = nbformat.read(path, as_version=4)
    differences = output_differences(stored, executed(path), PATTERNS)
    assert not differences, "\n".join(differences)


# --------------------------------------------------------------------------- the checks can fail
def test_a_notebook_stored_without_outputs_is_rejected():
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
            cell.outputs = []
    problems = storage_problems(nb)
    assert any("stored without outputs" in problem for problem in problems)
    assert any("stripped" in problem for problem in problems)


def test_outputs_stored_out_of_order_are_rejected():
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    code_cells[-1].execution_count += 1  # as if one cell had been run twice
    assert any("expected" in problem for problem in storage_problems(nb))


def test_a_changed_output_is_reported():
    path = NOTEBOOKS[0]
    stored = nbformat.read(path, as_version=4)
    tampered = copy.deepcopy(stored)
    cell = next(c for c in tampered.cells if c.cell_type == "code" and c.outputs)
    output = cell.outputs[0]
    if output.output_type == "stream":
        output.text += "edited by hand\n"
    else:
        output.data["text/plain"] = output.data.get("text/plain", "") + " edited by hand"
    assert len(output_differences(tampered, executed(path), PATTERNS)) == 1


def test_only_volatile_text_is_masked():
    def run(text):
        return nbformat.from_dict(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "source": "",
                        "metadata": {},
                        "execution_count": 1,
                        "outputs": [{"output_type": "stream", "name": "stdout", "text": text}],
                    }
                ]
            }
        )

    here, there = run("<Digraph at 0x7f3a01>\n"), run("<Digraph at 0x7f99ff>\n")
    assert output_differences(here, there, PATTERNS) == []
    assert output_differences(run("tensor(4.)\n"), run("tensor(5.)\n"), PATTERNS) != []
