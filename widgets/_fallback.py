"""What a viewer without widgets shows: a PNG of the picture and a text that says something.

GitHub, nbviewer, and JupyterLab for a notebook it does not trust show only a cell's
``text/plain`` and ``image/png``, never a widget. So each widget's display bundle carries,
beside its widget view, a PNG of its picture (drawn by Graphviz's ``dot`` program when it
is on PATH; without it there is no PNG and nothing fails) and a ``text/plain`` that
describes it. Jupyter with widgets shows the widget view and ignores both. nbval does not
compare ``image/png``, so stored lessons stay valid where ``dot`` is missing.

The PNG is bounded in pixels and in time, whatever the graph: ``dot`` draws it at most
``PNG_MAX_INCHES`` square (a larger drawing is scaled down to fit), a graph of more than
``PNG_MAX_BOXES`` boxes gets no PNG but a note saying why (its picture would be too small
to read, and laying it out takes seconds), and each picture is made once, however often it
is displayed.

>>> bundle = with_fallback({"text/plain": "X()"}, "a short description", None)
>>> bundle
{'text/plain': 'a short description'}
"""

from __future__ import annotations

import base64
import functools
import io
import re
import shutil
import subprocess
from typing import Any

from PIL import Image  # Pillow, which matplotlib needs too

from .i18n import _, language

# Graphviz draws points at this many pixels per inch: 12-point text becomes 12 pixels, a
# lesson's graph a PNG of some 5 to 20 KB.
PNG_DPI = 72
# The largest picture: 20 inches square, 1440 x 1440 pixels at 72 dpi. Graphviz scales a
# larger drawing down to fit (its ``size`` attribute), so the PNG stays some kilobytes.
PNG_MAX_INCHES = 20
# Above this many boxes, no PNG: scaled into 1440 pixels their text would be too small to
# read, and drawing them takes dot seconds. A lesson's graphs have at most a few dozen.
PNG_MAX_BOXES = 150
# However large the graph, dot gets this long before the picture is given up.
DOT_TIMEOUT_SECONDS = 5

# A node statement of DOT as the graphviz package writes it (``\tn3 [label=...]``), and
# not an edge (``n3 -> n4``) or a default (``node [...]``).
_NODE_STATEMENT = re.compile(r"^\s*(?!(?:graph|node|edge)\b)(\w+|\"[^\"]*\")\s*\[(?!.*->)", re.M)


def box_count(source: str) -> int:
    """How many boxes (node statements) the DOT text ``source`` draws.

    >>> box_count("digraph {\\n node [shape=box]\\n a [label=x]\\n b [label=y]\\n a -> b\\n}")
    2
    """
    return len(_NODE_STATEMENT.findall(source))


def fallback_picture(source: str) -> tuple[bytes | None, str]:
    """The PNG of ``source`` for viewers without widgets, and a note for the text beside it:
    ``(png, "")``; ``(None, note)`` for a graph too large to draw as a PNG; ``(None, "")``
    when ``dot`` is not on PATH or fails (a missing picture must never break a lesson).
    Made once per DOT text (and ``dot`` found on PATH), however often it is displayed.

    >>> many = "\\n".join(["digraph {", *(f"\\tn{i} [label=x]" for i in range(999)), "}"])
    >>> fallback_picture(many)[1].split(", ")[0]
    'No picture for viewers without widgets: 999 boxes are more than 150'
    """
    return _fallback_picture(source, shutil.which("dot"), language())


@functools.lru_cache(maxsize=32)
def _fallback_picture(source: str, dot: str | None, speaking: str) -> tuple[bytes | None, str]:
    """The picture and its note (``speaking``, the widgets' language, keys the cache)."""
    boxes = box_count(source)
    if boxes > PNG_MAX_BOXES:
        note = _(
            "No picture for viewers without widgets: {boxes} boxes are more than {most}, too "
            "many to read in one picture."
        ).format(boxes=boxes, most=PNG_MAX_BOXES)
        return None, note
    if dot is None:
        return None, ""
    try:
        done = subprocess.run(
            [dot, "-Tpng", f"-Gdpi={PNG_DPI}", f"-Gsize={PNG_MAX_INCHES},{PNG_MAX_INCHES}"],
            input=source.encode("utf-8"),
            capture_output=True,
            timeout=DOT_TIMEOUT_SECONDS,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None, ""
    if not done.stdout:
        return None, ""
    try:
        return small_png(done.stdout), ""
    except (OSError, Image.DecompressionBombError):  # not a PNG, or a huge one
        return None, ""


def dot_png(source: str) -> bytes | None:
    """``source`` drawn by ``dot`` as a PNG, or ``None`` when there is none (see
    ``fallback_picture``)."""
    return fallback_picture(source)[0]


def small_png(png: bytes, colours: int = 32) -> bytes:
    """``png`` with a palette of ``colours``: a quarter of the size of Graphviz's full-colour
    PNG, and the same to the eye (a drawing has a handful of colours and their edges)."""
    with Image.open(io.BytesIO(png)) as picture:
        smaller = io.BytesIO()
        picture.convert("RGB").quantize(colors=colours).save(smaller, format="png", optimize=True)
    return smaller.getvalue()


def with_fallback(
    data: dict[str, Any], text: str, png: bytes | None, note: str = ""
) -> dict[str, Any]:
    """``data`` (a display bundle) with ``text`` as its ``text/plain`` and ``png`` (if
    any) as its ``image/png``; ``note`` (if any) is the first line after the text's first."""
    data = dict(data)
    if note:
        first, _, rest = text.partition("\n")
        text = f"{first}\n{note}\n{rest}" if rest else f"{first}\n{note}"
    data["text/plain"] = text
    if png:
        data["image/png"] = base64.b64encode(png).decode("ascii")
    return data
