"""What viewers without widgets show (GitHub, nbviewer, an untrusted notebook): each
widget's display bundle carries an ``image/png`` of its picture and a ``text/plain`` that
describes it, beside the widget view.

The PNG of a graph comes from Graphviz's ``dot`` when it is on PATH. CI hides ``dot``, so
these tests put a stand-in ``dot`` on PATH that records how it was called and answers with
a PNG of its own; a test without any ``dot`` checks that nothing fails and no PNG is given.
"""

from __future__ import annotations

import base64
import io
import stat
import struct
import sys
import textwrap
import warnings
import zlib

import pytest
from PIL import Image

import minigrad as mg
from widgets import BackwardStepper, GradAccumulation, SecondDerivative, draw

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def stand_in_dot(tmp_path, monkeypatch):
    """A ``dot`` on PATH (only it): writes its arguments and stdin beside itself and prints
    a 300x100 full-colour PNG."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "dot"
    script.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import io, sys
            from PIL import Image
            open({str(tmp_path / "args")!r}, "w").write(" ".join(sys.argv[1:]))
            open({str(tmp_path / "calls")!r}, "a").write("called\\n")
            open({str(tmp_path / "stdin")!r}, "wb").write(sys.stdin.buffer.read())
            picture = Image.new("RGBA", (300, 100), (86, 180, 233, 255))
            for x in range(300):
                picture.putpixel((x, 50), (x % 256, 0, 255 - x % 256, 255))
            out = io.BytesIO()
            picture.save(out, format="png")
            sys.stdout.buffer.write(out.getvalue())
            """
        )
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(folder))
    return tmp_path


def png_of(bundle: dict) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))


def test_a_drawing_carries_a_png_made_by_dot_and_says_what_it_shows(stand_in_dot):
    x = mg.tensor(2.0, requires_grad=True)
    y = x * 3
    drawing = draw(y, names={"x": x, "y": y})
    data, _ = drawing._repr_mimebundle_()
    assert WIDGET_VIEW in data  # Jupyter with widgets shows the live picture
    # dot drew the drawing's own DOT text, as a PNG at 72 dpi (12-point text, 12 pixels),
    # scaled down to fit 20 inches square when it is larger.
    assert (stand_in_dot / "stdin").read_text() == drawing.source
    assert (stand_in_dot / "args").read_text().split() == ["-Tpng", "-Gdpi=72", "-Gsize=20,20"]
    picture = png_of(data)
    assert picture.size == (300, 100)
    assert picture.mode == "P"  # a palette: a quarter of the size of dot's own PNG
    text = data["text/plain"]
    assert text.startswith("<widgets.Drawing")
    assert "x (leaf): scalar, value 2., grad None" in text
    assert "x (leaf) → AccumulateGrad" in text and "MulBackward0 → y (output)" in text


def test_without_dot_there_is_no_png_and_nothing_fails(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    x = mg.tensor(2.0, requires_grad=True)
    data, _ = draw(x * 3)._repr_mimebundle_()
    assert "image/png" not in data and WIDGET_VIEW in data
    bundle = BackwardStepper(x * 3)._repr_mimebundle_()
    assert "image/png" not in bundle and bundle["text/plain"].startswith("BackwardStepper(")


def test_a_stepper_shows_the_graph_as_the_pass_leaves_it_and_the_pass_in_words(stand_in_dot):
    x = mg.tensor(2.0, requires_grad=True)
    y = mg.tensor(3.0, requires_grad=True)
    z = x * y + x**2
    stepper = BackwardStepper(z, names={"x": x, "y": y, "z": z})
    bundle = stepper._repr_mimebundle_()
    assert WIDGET_VIEW in bundle and png_of(bundle).size == (300, 100)
    source = (stand_in_dot / "stdin").read_text()
    assert 'label="x (leaf)\\nscalar\\nvalue 2.\\ngrad 7."' in source  # the end of the pass
    lines = bundle["text/plain"].splitlines()
    assert lines[0] == repr(stepper)
    assert lines[1:] == [
        "step 1: AddBackward0, which made z: gets 1., sends 1., 1.",
        "step 2: PowBackward0: gets 1., sends 4.",
        "step 3: MulBackward0: gets 1., sends 3., 2.",
        "step 4: AccumulateGrad for the leaf y: y.grad None → 2.",
        "step 5: AccumulateGrad for the leaf x: x.grad None → 7.",
    ]


def test_the_plot_widgets_carry_their_plot(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # their plots need no dot
    w = mg.tensor(2.0, requires_grad=True)
    demo = GradAccumulation(lambda w: w**2, [w], names=["w"])
    demo.backward()
    bundle = demo._repr_mimebundle_()
    assert png_of(bundle).size == Image.open(io.BytesIO(demo._plot.value)).size
    assert bundle["text/plain"].splitlines()[1:] == [
        "0. start: w.grad = None",
        "1. backward(): w.grad = 4.",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        second = SecondDerivative(lambda x: x**3, 2.0, label="x**3")
    bundle = second._repr_mimebundle_()
    assert png_of(bundle).size == Image.open(io.BytesIO(second._plot.value)).size
    assert "after x.grad.backward(): 24. (f' + f'')" in bundle["text/plain"]


def chain(steps: int) -> mg.Tensor:
    """A graph of ``2 * steps + 1`` nodes: ``steps`` multiplications, one after the other."""
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y * 1.001
    return y


def test_a_picture_is_made_once_however_often_it_is_displayed(stand_in_dot):
    drawing = draw(chain(3))
    first, _ = drawing._repr_mimebundle_()
    second, _ = drawing._repr_mimebundle_()
    assert first["image/png"] == second["image/png"]
    stepper = BackwardStepper(chain(2))
    assert stepper._repr_mimebundle_()["image/png"] == stepper._repr_mimebundle_()["image/png"]
    assert (stand_in_dot / "calls").read_text().splitlines() == ["called", "called"]


def test_a_large_graph_gets_a_note_instead_of_a_picture_and_dot_is_not_run(stand_in_dot):
    drawing = draw(chain(1000))  # 2 001 nodes, cut to max_nodes=200
    data, _ = drawing._repr_mimebundle_()
    assert "image/png" not in data and WIDGET_VIEW in data
    assert not (stand_in_dot / "calls").exists()
    lines = data["text/plain"].splitlines()
    assert lines[0].startswith("<widgets.Drawing")
    assert lines[1].startswith("No picture for viewers without widgets: ")
    assert "too many to read in one picture" in lines[1]
    assert lines[2] == "Boxes:"


def test_a_large_graph_without_dot_gets_the_same_note(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    data, _ = draw(chain(1000))._repr_mimebundle_()
    assert "image/png" not in data
    assert data["text/plain"].splitlines()[1].startswith("No picture for viewers without widgets")


def huge_png_header(width: int, height: int) -> bytes:
    """The start of a PNG that says it is ``width`` x ``height`` pixels: all a reader needs
    to refuse it, a few dozen bytes."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + header
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(header))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def test_a_picture_too_large_to_open_gives_no_picture_and_no_exception(tmp_path, monkeypatch):
    """What dot did for a 1 000-step chain before pictures were bounded: a PNG of tens of
    thousands of pixels a side, which Pillow refuses (DecompressionBombError)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "dot"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.stdin.buffer.read()\n"
        f"sys.stdout.buffer.write({huge_png_header(30_000, 30_000)!r})\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(folder))
    data, _ = draw(chain(3))._repr_mimebundle_()
    assert "image/png" not in data and WIDGET_VIEW in data
