"""Every string a user controls is text, everywhere (issue 21).

A table of hostile names (script, event handlers, ``javascript:`` links, unbalanced
markup, Graphviz record syntax, newlines, backslashes, a very long name, an entity) is fed
through every widget: ``draw``, ``BackwardStepper``, ``GradAccumulation``,
``SecondDerivative``, and an engine of one's own (``widgets.protocol``) whose op names,
leaf names, formula and values are the hostile string. Then:

- the HTML the widget shows is parsed: it has exactly the elements and attributes it has
  for a harmless name (none came from the name), and its text holds the name as typed;
- the DOT of every picture has no HTML-like label, and Graphviz draws it (``dot`` when it
  is installed, else the Graphviz the browser runs, ``widgets/static/viz.js.gz``, in
  Node.js): no link, no event handler, as many boxes and arrows as for a harmless name, the
  name as typed in a box, and for the stepper one ``<text>`` per line it was given;
- the texts for viewers without widgets hold the name, and a plot accepts it.

"As typed", on one line: a newline or another control character shows as the escape that
types it (``a\\nb``), as ``widgets._markup.one_line`` writes it.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import shutil
import subprocess
import warnings
import xml.etree.ElementTree as ElementTree
from collections import Counter
from html.parser import HTMLParser
from types import SimpleNamespace

import ipywidgets
import pytest

import minigrad as mg
import minigrad.graph
import widgets
from widgets._browser import STATIC, GraphvizView
from widgets._markup import box_line, one_line

HOSTILE = {
    "img-onerror": "<img src=x onerror=alert(1)>",
    "script": "<script>alert(1)</script>",
    "attribute-breakout": '" onmouseover="alert(1)',
    "javascript-link": '<a href="javascript:alert(1)">x</a>',
    "unbalanced": "<b>",
    "record": "{a|b}",
    "newline": "a\nb",
    "backslash": "\\",
    "graphviz-escapes": "\\N\\G\\l\\",
    "long": "n" * 250 + "<i>" + "m" * 247,
    "entity": "&amp;",
    "dollars": "$\\frac{$",
    "empty": "",  # Graphviz draws no <text> for an empty line
    "control": "\x00\x1b[31m\u2028",
}
HARMLESS = "plain"


# --------------------------------------------------------------------------- the widgets
Value = None  # the toy engine's Value (tests/widgets/toy_engine.py), set by the fixture below


@pytest.fixture(autouse=True, scope="module")
def _the_toy_engine(toy_value):
    global Value
    Value = toy_value


def own_engine(name):
    """``out = op(x * w, label)``: every op named ``name``, a leaf holding ``name`` as its
    value (a value need not be a number to be shown)."""
    x, w, label = Value(2.0), Value(3.0), Value(name)
    a, b = x.data, w.data
    product = Value(a * b, (x, w), name, lambda g: (g * b, g * a), formula=name)
    out = Value(product.data, (product, label), name, lambda g: (g, 0.0), formula=name)
    return out, {name: x, "w": w, "label": label}


def minigrad_graph():
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    a = x * w
    y = (a + x).tanh()
    return x, w, a, y


@functools.cache  # each widget is built once for the whole module: the tests only read it
def shown_by(kind, name):
    """The widget of ``kind`` with ``name`` in every place a name goes, and what it shows:
    ``html`` (every HTML text it puts on the page), ``pictures`` (GraphvizView widgets),
    ``plain`` (the text/plain for viewers without widgets)."""
    if kind == "draw":
        x, w, a, y = minigrad_graph()
        widget = widgets.draw(y, names={name: x, "w": w, f"{name}2": a, "y": y})
        data, _ = widget._repr_mimebundle_()
        return SimpleNamespace(html=[], pictures=[widget.widget()], plain=data["text/plain"])
    if kind == "stepper":
        x, w, a, y = minigrad_graph()
        widget = widgets.BackwardStepper(y, names={name: x, "w": w, f"{name}2": a, f"{name}3": y})
    elif kind == "own-engine draw":
        out, names = own_engine(name)
        widget = widgets.draw(out, names=names)
        data, _ = widget._repr_mimebundle_()
        return SimpleNamespace(html=[], pictures=[widget.widget()], plain=data["text/plain"])
    elif kind == "own-engine stepper":
        out, names = own_engine(name)
        widget = widgets.BackwardStepper(out, names={**names, f"{name}3": out})
    elif kind == "accumulation":
        x = mg.tensor([2.0, -1.0], requires_grad=True)
        w = mg.tensor(1.0, requires_grad=True)
        widget = widgets.GradAccumulation(
            lambda x, w: (x * w).sum(),
            [x, w],
            names=[name, f"{name}2"],
            description=f"about {name}",
        )
        widget.backward()
        widget.backward()  # fails: the graph was freed; the error is shown
        widget.zero_grad()
    elif kind == "second derivative":
        widget = widgets.SecondDerivative(lambda x: x**3, 2.0, label=name)
    else:
        raise ValueError(kind)
    return SimpleNamespace(
        html=html_of(widget),
        pictures=pictures_of(widget),
        plain=widget._repr_mimebundle_()["text/plain"],
    )


def descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


def html_of(widget):
    return [w.value for w in descendants(widget) if isinstance(w, ipywidgets.HTML)]


def pictures_of(widget):
    return [w for w in descendants(widget) if isinstance(w, GraphvizView)]


KINDS = [
    "draw",
    "stepper",
    "own-engine draw",
    "own-engine stepper",
    "accumulation",
    "second derivative",
]
WITH_NAME_IN_HTML = [kind for kind in KINDS if "draw" not in kind]


# --------------------------------------------------------------------------- reading HTML
class _Reader(HTMLParser):
    """Every element (its tag and attribute names, in order) and all the text of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.attributes, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, tuple(name for name, _ in attrs)))
        self.attributes += attrs

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def read_html(pages):
    reader = _Reader()
    for page in pages:
        reader.feed(page)
    reader.close()
    return reader


@pytest.mark.parametrize("label", HOSTILE)
@pytest.mark.parametrize("kind", WITH_NAME_IN_HTML)
def test_the_html_holds_the_name_as_text_and_no_element_of_it(kind, label):
    name = HOSTILE[label]
    hostile, harmless = (
        read_html(shown_by(kind, name).html),
        read_html(shown_by(kind, HARMLESS).html),
    )
    # Element for element, attribute for attribute, the page a harmless name gives.
    assert Counter(hostile.elements) == Counter(harmless.elements)
    tags = {tag for tag, _ in hostile.elements}
    assert not tags & {"img", "script", "a", "iframe", "object", "svg"}, tags
    for attribute, value in hostile.attributes:
        assert not attribute.startswith("on"), attribute
        assert "javascript:" not in (value or ""), (attribute, value)
    text = "".join(hostile.text)
    assert one_line(name) in text
    if kind == "stepper":  # the first panel names the output twice: ∂out/∂out
        assert f"∂{one_line(name)}3/∂{one_line(name)}3" in text


@pytest.mark.parametrize("label", HOSTILE)
@pytest.mark.parametrize("kind", KINDS)
def test_the_text_for_viewers_without_widgets_names_it_on_one_line(kind, label):
    name = HOSTILE[label]
    shown = shown_by(kind, name)
    assert one_line(name) in shown.plain
    harmless = shown_by(kind, HARMLESS).plain
    assert shown.plain.count("\n") == harmless.count("\n")  # a name never adds a line


@pytest.mark.parametrize("label", HOSTILE)
def test_a_plot_takes_the_name_as_text(label):
    """Matplotlib reads ``$...$`` as mathematics, and an unbalanced one fails to draw."""
    x = mg.tensor(2.0, requires_grad=True)
    demo = widgets.GradAccumulation(lambda x: x * x, [x], names=[HOSTILE[label]])
    demo.backward()
    # and without a warning: under nbgrader, anything on stderr fails a graded cell
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert demo.plot_png().startswith(b"\x89PNG")
        widgets.SecondDerivative(lambda x: x**2, 1.0, label=HOSTILE[label]).plot_png(points=5)


# --------------------------------------------------------------------------- drawing DOT
LABEL = re.compile(r"\blabel=(.)")


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind != "accumulation"])
def test_no_label_is_html_like(kind):
    """Graphviz reads ``label=<...>`` as markup (``<a href>`` becomes a live link); every
    label the widgets write is a quoted string or a plain word."""
    for name in HOSTILE.values():
        for picture in shown_by(kind, name).pictures:
            starts = LABEL.findall(picture.dot)
            assert starts and "<" not in starts, (name, picture.dot)
            assert "record" not in picture.dot  # no shape whose {|}<> mean fields


@pytest.fixture(scope="module")
def graphviz_svg(tmp_path_factory):
    """A function from DOT sources to their SVGs, drawn by ``dot`` or, when it is not
    installed, by the Graphviz the browser runs (the shipped viz.js, in Node.js). Fails on
    any error Graphviz reports."""
    dot = shutil.which("dot")
    if dot is not None:

        def draw_with_dot(sources):
            svgs = []
            for source in sources:
                done = subprocess.run(
                    [dot, "-Tsvg"], input=source, capture_output=True, text=True, timeout=60
                )
                assert done.returncode == 0 and "Error" not in done.stderr, done.stderr
                svgs.append(done.stdout)
            return svgs

        return draw_with_dot
    node = shutil.which("node")
    if node is None:
        pytest.skip("neither Graphviz's dot nor Node.js (for the shipped viz.js) is installed")
    folder = tmp_path_factory.mktemp("viz")
    (folder / "viz.mjs").write_bytes(gzip.decompress((STATIC / "viz.js.gz").read_bytes()))
    (folder / "draw.mjs").write_text(
        'import { instance } from "./viz.mjs";\n'
        "const viz = await instance();\n"
        'let input = "";\n'
        "for await (const chunk of process.stdin) input += chunk;\n"
        "const results = JSON.parse(input).map((dot) => viz.render(dot, { format: 'svg' }));\n"
        "process.stdout.write(JSON.stringify(results));\n"
    )

    def draw_with_viz(sources):
        done = subprocess.run(
            [node, str(folder / "draw.mjs")],
            input=json.dumps(sources),
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        results = json.loads(done.stdout)
        for source, result in zip(sources, results):
            errors = [e for e in result["errors"] if e["level"] == "error"]
            assert result["status"] == "success" and not errors, (errors, source)
        return [result["output"] for result in results]

    return draw_with_viz


SVG = "{http://www.w3.org/2000/svg}"


def groups(svg, kind):
    return [g for g in svg.iter(f"{SVG}g") if g.get("class", "").split()[:1] == [kind]]


def texts(element):
    return [text.text or "" for text in element.iter(f"{SVG}text")]


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind != "accumulation"])
def test_every_picture_draws_with_the_name_as_typed(kind, graphviz_svg):
    labels = ["", *HOSTILE]  # "" for the harmless name
    pictures = {label: shown_by(kind, HOSTILE.get(label, HARMLESS)).pictures for label in labels}
    sources = [picture.dot for label in labels for picture in pictures[label]]
    drawn = iter(graphviz_svg(sources))
    svgs = {label: [next(drawn) for _ in pictures[label]] for label in labels}
    harmless = [ElementTree.fromstring(source.encode("utf-8")) for source in svgs[""]]
    for label in HOSTILE:
        name = one_line(HOSTILE[label])
        assert len(svgs[label]) == len(harmless) >= 1
        for picture, source, expected in zip(pictures[label], svgs[label], harmless):
            svg = ElementTree.fromstring(source.encode("utf-8"))
            for element in svg.iter():
                assert not element.tag.endswith("}a"), (label, source)
                for attribute, value in element.attrib.items():
                    assert "href" not in attribute, (label, attribute)
                    assert not attribute.startswith("on"), (label, attribute)
                    assert "javascript:" not in value, (label, value)
            # Every box and arrow is drawn, as for a harmless name.
            for group in ("node", "edge"):
                assert len(groups(svg, group)) == len(groups(expected, group)), (label, group)
            if kind != "second derivative":  # its label is in its HTML, not its pictures
                if box_line(name) == name:
                    assert any(name in text for text in texts(svg)), (label, texts(svg))
                else:  # too long for a box: its beginning there, all of it the box's tooltip
                    beginning = box_line(name).split("…")[0]
                    assert any(beginning in text for text in texts(svg)), (label, texts(svg))
                    assert any(name in title for title in picture.titles.values()), label
            # The stepper's frames show and hide copies of each line: the front end needs
            # one <text> per line it was given (else "has 5 lines of text, 4 were given").
            by_id = {g.get("id"): g for g in svg.iter(f"{SVG}g")}
            for element_id, lines in picture.text_copies.items():
                drawn_lines = [t for t in by_id[element_id] if t.tag == f"{SVG}text"]
                assert len(drawn_lines) == len(lines), (label, element_id, texts(by_id[element_id]))


def test_an_open_modules_frame_draws_its_name_as_typed(graphviz_svg):
    """The frame the browser draws around an open module's boxes (``draw_layers``; a click
    on it closes the module) is labelled with the module's name: a Graphviz cluster whose
    attributes Python writes. Each hostile name (``add_module`` refuses an empty one) draws
    there as typed, with no link or handler, in the cluster the front end looks for."""
    from collections import OrderedDict

    from minigrad import nn

    names = {label: name for label, name in HOSTILE.items() if name and "." not in name}
    sources, titles = [], []
    for name in names.values():
        model = nn.Sequential(OrderedDict([(name, nn.Sequential(nn.Linear(2, 2)))]))
        layers = widgets.draw_layers(model, lambda model=model: model(mg.ones(1, 2)).sum()).layers
        assert layers["openable"] == ["m1"] and set(layers["frames"]) == {"m1"}
        frame = layers["frames"]["m1"]
        # The frame round its child's box, as static/graphviz_view.js's layersDot writes it.
        inside = layers["boxes"]["m2"]
        sources.append(
            f"{layers['header']}subgraph cluster_m1 {{\n{frame['attributes']}{inside}}}\n}}\n"
        )
        titles.append(frame["title"])
    for label, name, source, title in zip(names, names.values(), graphviz_svg(sources), titles):
        assert title == one_line(f"{name} (Sequential)"), label
        svg = ElementTree.fromstring(source.encode("utf-8"))
        for element in svg.iter():
            assert not element.tag.endswith("}a"), (label, source)
            assert not any(a.startswith("on") or "href" in a for a in element.attrib), label
        (cluster,) = groups(svg, "cluster")
        assert cluster.get("id") == "mg-frame-m1", label
        assert texts(cluster) == [box_line(title)], (label, texts(cluster))


def test_the_front_end_puts_text_in_the_page_as_text():
    """The browser's side never parses a string as HTML: text goes in with textContent."""
    for script in STATIC.glob("*.js"):
        source = script.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in source, (script.name, sink)
    assert "textContent" in (STATIC / "graphviz_view.js").read_text(encoding="utf-8")
