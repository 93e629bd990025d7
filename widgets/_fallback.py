"""What a viewer without widgets shows: a PNG of the picture and a text that says something.

GitHub, nbviewer, and JupyterLab for a notebook it does not trust show only a cell's
``text/plain`` and ``image/png``, never a widget. So each widget's display bundle carries,
beside its widget view, a PNG of its picture (drawn by Graphviz's ``dot`` program when it
is on PATH; without it there is no PNG and nothing fails) and a ``text/plain`` that
describes it. Jupyter with widgets shows the widget view and ignores both. nbval does not
compare ``image/png``, so stored lessons stay valid where ``dot`` is missing.

>>> bundle = with_fallback({"text/plain": "X()"}, "a short description", None)
>>> bundle
{'text/plain': 'a short description'}
"""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
from typing import Any

from PIL import Image  # Pillow, which matplotlib needs too

# Graphviz draws points at this many pixels per inch: 12-point text becomes 12 pixels, a
# lesson's graph a PNG of some 5 to 20 KB.
PNG_DPI = 72


def dot_png(source: str) -> bytes | None:
    """``source`` drawn by ``dot`` as a PNG, or ``None`` when ``dot`` is not on PATH (or
    fails: a missing picture must never break a lesson)."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    try:
        done = subprocess.run(
            [dot, "-Tpng", f"-Gdpi={PNG_DPI}"],
            input=source.encode("utf-8"),
            capture_output=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return small_png(done.stdout) if done.stdout else None


def small_png(png: bytes, colours: int = 32) -> bytes:
    """``png`` with a palette of ``colours``: a quarter of the size of Graphviz's full-colour
    PNG, and the same to the eye (a drawing has a handful of colours and their edges)."""
    with Image.open(io.BytesIO(png)) as picture:
        smaller = io.BytesIO()
        picture.convert("RGB").quantize(colors=colours).save(smaller, format="png", optimize=True)
    return smaller.getvalue()


def with_fallback(data: dict[str, Any], text: str, png: bytes | None) -> dict[str, Any]:
    """``data`` (a display bundle) with ``text`` as its ``text/plain`` and ``png`` (if
    any) as its ``image/png``."""
    data = dict(data)
    data["text/plain"] = text
    if png:
        data["image/png"] = base64.b64encode(png).decode("ascii")
    return data
