"""What every stored notebook and page shows a reader, wherever it was made.

* No output names a file by an absolute path: the stored lessons come from a run on someone's
  machine, and a traceback names the files of its frames (``scripts/execute_notebooks.py``
  writes the repository's path as a relative one).
* No sentence ends in a doubled full stop, ``1..`` (a number's own dot, as PyTorch prints
  ``tensor(1.)``, followed by the sentence's), also in the widgets' stored frames, where
  ``<code>1.</code>.`` reads "1..".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
STORED = sorted(
    path
    for folder in ("notebooks", "teacher")
    for path in (ROOT / folder).rglob("*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)
PAGES = sorted(
    path
    for path in [*(ROOT / "notebooks").rglob("*.md"), *(ROOT / "docs").rglob("*.md")]
    if "_build" not in path.parts
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A path of two or more parts after a "/" that does not continue a word, a URL or base64
# data ("text/plain", "https://...", "iVBOR+/ab/cd" are not paths); or a Windows drive.
ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~+=<-])/[\w.-]+/[\w.-]+|\b[A-Za-z]:\\\w")
DOUBLE_STOP = re.compile(r"\d\.\.(?!\.)")
TAG = re.compile(r"<[^>]+>")


def absolute_paths(text: str) -> list[str]:
    r"""
    >>> absolute_paths("\x1b[32m/home/ada/minigrad/engine.py:100\x1b[39m, in grad")
    ['/home/ada']
    >>> absolute_paths("File ../minigrad/engine.py:100, text/plain, http://x.org/a/b")
    []
    """
    return ABSOLUTE_PATH.findall(ANSI.sub("", text))


def output_texts(path: Path) -> list[str]:
    """Every text a notebook's outputs hold (tracebacks, streams, text and SVG data); images
    other than SVG are base64 data, not text."""
    texts = []
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            texts += output.get("traceback", [])
            texts.append(output.get("text", ""))
            for mime, value in output.get("data", {}).items():
                if not mime.startswith("image/") or mime == "image/svg+xml":
                    texts.append(value if isinstance(value, str) else json.dumps(value))
    return texts


def widget_texts(path: Path) -> list[str]:
    """The words of every HTML widget stored in a notebook's widget state (a stepper's
    frames and panels, a widget's notes), with the tags taken out, as a reader sees them."""
    state = nbformat.read(path, as_version=4).metadata.get("widgets", {})
    models = state.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return [
        TAG.sub("", model["state"]["value"])
        for model in models.values()
        if model.get("model_name") == "HTMLModel" and isinstance(model["state"].get("value"), str)
    ]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", STORED, ids=name)
def test_no_output_holds_an_absolute_path(path):
    found = [p for text in output_texts(path) for p in absolute_paths(text)]
    assert not found, f"absolute paths in the outputs of {name(path)}: {sorted(set(found))}"


def double_stops(text: str) -> list[str]:
    """
    >>> double_stops("fell to 2.. then 1... or tensor(1.).")
    ['fell to 2..']
    """
    return [text[max(m.start() - 10, 0) : m.end()] for m in DOUBLE_STOP.finditer(text)]


@pytest.mark.parametrize("path", STORED + PAGES, ids=name)
def test_no_doubled_full_stop(path):
    if path.suffix == ".ipynb":
        nb = nbformat.read(path, as_version=4)
        texts = [cell.source for cell in nb.cells] + output_texts(path) + widget_texts(path)
    else:
        texts = [path.read_text()]
    found = [hit for text in texts for hit in double_stops(text)]
    assert not found, f"{name(path)}: {found}"
