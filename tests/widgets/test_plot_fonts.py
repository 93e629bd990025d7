"""The widgets' matplotlib plots draw Chinese words with a font pip installs (issue 22).

- in Chinese, the accumulation and second-derivative widgets' plots carry their Chinese
  words, and drawing them warns of no missing glyph (warnings are errors here);
- the font comes from the package ``pylopdf-fonts-zh-cn``, found through its module, and is
  added after the student's own fonts, only while a widget draws: a student's rcParams are
  the same afterwards;
- without the package, a Chinese plot keeps its English words, as before, with no warning.
"""

from __future__ import annotations

import re
import warnings

import matplotlib
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

import minigrad as mg
import widgets
from widgets import _plot_fonts

HAN = re.compile("[\u4e00-\u9fff]")

pytestmark = pytest.mark.usefixtures("no_language_chosen")  # tests/widgets/conftest.py


@pytest.fixture
def drawn(monkeypatch) -> list[dict]:
    """What each figure held when it was saved: its words and the fonts it was drawn with."""
    figures: list[dict] = []
    save = Figure.savefig

    def recording_savefig(figure, *args, **kwargs):
        figures.append(
            {
                "words": [t.get_text() for t in figure.findobj(Text) if t.get_text()],
                "font.family": list(matplotlib.rcParams["font.family"]),
            }
        )
        return save(figure, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", recording_savefig)
    return figures


@pytest.fixture
def fresh_font_lookup():
    """The font is looked up once per process: each test here looks afresh, and leaves no
    trace of a failed look-up for later tests."""
    _plot_fonts.chinese_font_family.cache_clear()
    yield
    _plot_fonts.chinese_font_family.cache_clear()


def draw_both_plots(drawn: list[dict]) -> tuple[dict, dict]:
    """Both widgets' plots, with every word their code can put there (a five-element
    gradient is drawn as its sum, which has a sentence of its own): what the last drawing of
    each held. (Each widget also draws its plot as it is built and after each action.)"""
    x = mg.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
    accumulation = widgets.GradAccumulation(lambda x: (x * x).sum(), [x], names=["x"])
    accumulation.backward(retain_graph=True)
    accumulation.backward()
    accumulation.plot_png()
    accumulation_drawing = drawn[-1]
    widgets.SecondDerivative(lambda x: x**3, 2.0).plot_png(points=9)
    return accumulation_drawing, drawn[-1]


def test_the_font_comes_from_the_package_it_names(fresh_font_lookup):
    path = _plot_fonts._chinese_font_file()
    assert path is not None and path.is_file(), "pip install pylopdf-fonts-zh-cn"
    assert path.name == "NotoSansSC-Regular.otf"
    assert _plot_fonts.chinese_font_family() == "Noto Sans SC"
    assert _plot_fonts.plot_font_families()[-1] == "Noto Sans SC"


def test_chinese_plots_carry_chinese_words_with_no_missing_glyph(drawn, fresh_font_lookup):
    widgets.set_language("zh_CN")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph 20999 (\N{...}) missing from font(s) ..."
        accumulation, second = (figure["words"] for figure in draw_both_plots(drawn))
    assert "操作编号（空心圆：.grad 为 None）" in accumulation
    assert "x.grad 之和" in accumulation
    assert "切线" in second
    assert "f 及其在 x = 2 处的切线（斜率 12）" in second
    assert "f' 和 f''（由 autograd.grad 计算）" in second
    # Latin and Cyrillic still come first from matplotlib's own font; Noto Sans SC is last.
    assert all(figure["font.family"] == ["sans-serif", "Noto Sans SC"] for figure in drawn)


def test_russian_plots_are_drawn_with_the_same_fonts(drawn, fresh_font_lookup):
    widgets.set_language("ru")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        accumulation, second = draw_both_plots(drawn)
    assert "касательная" in second["words"]


def test_a_students_rcparams_are_theirs(drawn, fresh_font_lookup):
    widgets.set_language("zh_CN")
    with matplotlib.rc_context({"font.family": ["serif"], "font.size": 13.0}):
        before = dict(matplotlib.rcParams)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            draw_both_plots(drawn)
        assert dict(matplotlib.rcParams) == before
    # The student's fonts stay first in the widgets' plots, Noto Sans SC only after them.
    assert all(figure["font.family"] == ["serif", "Noto Sans SC"] for figure in drawn)
    assert "切线" in drawn[-1]["words"]
    assert "Noto Sans SC" not in matplotlib.rcParams["font.family"]


def test_without_the_font_package_chinese_plots_stay_english(drawn, fresh_font_lookup, monkeypatch):
    monkeypatch.setattr(_plot_fonts, "CHINESE_FONT_PACKAGE", "no_such_font_package")
    assert _plot_fonts._chinese_font_file() is None
    widgets.set_language("zh_CN")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        accumulation, second = (figure["words"] for figure in draw_both_plots(drawn))
    assert "action #  (open circle: .grad is None)" in accumulation
    assert "sum of x.grad" in accumulation
    assert "tangent" in second
    assert not any(HAN.search(word) for figure in drawn for word in figure["words"])
    assert all(figure["font.family"] == ["sans-serif"] for figure in drawn)
