"""The fonts of the widgets' matplotlib plots: matplotlib's own, then Noto Sans SC for Chinese.

Matplotlib ships DejaVu Sans, which has Latin and Cyrillic but no Chinese. The package
``pylopdf-fonts-zh-cn`` (a dependency, see docs/translating.md) ships Noto Sans SC; the
widgets register it with matplotlib the first time they draw a plot and put its family
*after* the student's own fonts, so Latin and Cyrillic still come from DejaVu Sans (or
whatever the student chose) and only a character those fonts lack is taken from Noto Sans SC:
matplotlib looks for each glyph along the ``font.family`` list.

The change is made inside ``plot_fonts()``, an ``rc_context`` around each widget's drawing
(its ``plot_png``):
a student's own ``rcParams`` are never touched.

>>> import matplotlib
>>> before = list(matplotlib.rcParams["font.family"])
>>> with plot_fonts():
...     during = list(matplotlib.rcParams["font.family"])
>>> during[: len(before)] == before and list(matplotlib.rcParams["font.family"]) == before
True
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
from collections.abc import Iterator
from pathlib import Path

import matplotlib
from matplotlib import font_manager

__all__ = ["plot_fonts", "plot_font_families"]

# The package and the file in it: Noto Sans SC Regular 2.004, the Simplified Chinese subset
# of Noto Sans CJK (OFL-1.1).
CHINESE_FONT_PACKAGE = "pylopdf_fonts_zh_cn"
CHINESE_FONT_FILE = "NotoSansSC-Regular.otf"


def _chinese_font_file() -> Path | None:
    """Where the installed font package keeps Noto Sans SC, or ``None`` without it."""
    try:
        font_file = importlib.resources.files(CHINESE_FONT_PACKAGE) / CHINESE_FONT_FILE
    except ModuleNotFoundError:
        return None
    # A package installed by pip is a folder on disk, which is what matplotlib reads.
    path = Path(str(font_file))
    return path if path.is_file() else None


@functools.cache
def chinese_font_family() -> str | None:
    """The family name of the Chinese font, registered with matplotlib on the first call
    (reading the 8 MB font's tables takes about 20 ms), or ``None`` when the font package
    is missing: then Chinese plots keep their English words (``i18n.plot_gettext``)."""
    path = _chinese_font_file()
    if path is None:
        return None
    font_manager.fontManager.addfont(path)
    return font_manager.FontProperties(fname=path).get_name()


def plot_font_families() -> list[str]:
    """The ``font.family`` list of the widgets' plots: the current one (a student's choice
    included), then the Chinese font when it is installed and not in the list already."""
    families = list(matplotlib.rcParams["font.family"])
    chinese = chinese_font_family()
    if chinese is not None and chinese not in families:
        families.append(chinese)
    return families


@contextlib.contextmanager
def plot_fonts() -> Iterator[None]:
    """Draw a widget's plot inside this (or under ``@plot_fonts()``, which looks the fonts
    up again at each call): its text may use every font of ``plot_font_families()``; the
    rcParams are as they were afterwards."""
    with matplotlib.rc_context({"font.family": plot_font_families()}):
        yield
