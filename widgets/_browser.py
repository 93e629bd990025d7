"""Graphviz in the browser: the widgets that turn DOT text into a picture on the page.

Python builds the DOT text (``widgets.draw``, the stepper); the browser lays it out and draws
it with Graphviz compiled to WebAssembly (the npm package ``@viz-js/viz``, shipped inside
this package as ``static/viz.js.gz``, see ``scripts/build_graphviz_bundle.sh``). So no
``dot`` program is needed where the kernel runs, and a stored lesson's picture is whatever
the reader's browser draws from the same DOT text, not an SVG made by the Graphviz of the
machine that ran it.

Two widgets do it:

- ``GraphvizEngine``: holds Graphviz itself (the bundle, gzipped and base64-encoded, about
  620 KB). One per kernel, shared by every drawing, so a notebook's saved widget state
  carries it once.
- ``GraphvizView``: one picture, an anywidget whose front end (``static/graphviz_view.js``)
  takes Graphviz from the engine and draws its ``dot``. Both are saved with the notebook's
  widget state, so a saved notebook, its HTML export and the docs site draw with no kernel.

>>> view = GraphvizView(dot="digraph { a -> b }")
>>> view
GraphvizView(18 characters of DOT)
>>> view.engine is GraphvizView(dot="digraph { b }").engine  # one Graphviz per kernel
True
"""

from __future__ import annotations

import base64
import json
from functools import cache
from pathlib import Path

import anywidget
import ipywidgets
import traitlets

from ._view_words import view_words

STATIC = Path(__file__).parent / "static"


@cache
def bundle_info() -> dict[str, str]:
    """Which Graphviz is shipped: ``{"package", "version", "sha256"}`` (of the ES module)."""
    return json.loads((STATIC / "viz.json").read_text(encoding="utf-8"))


class GraphvizEngine(ipywidgets.Widget):
    """Graphviz for the browser, as widget state: a model with no view of its own."""

    version = traitlets.Unicode().tag(sync=True)
    bundle = traitlets.Unicode().tag(sync=True)  # the gzipped ES module, in base64

    def __init__(self) -> None:
        gzipped = (STATIC / "viz.js.gz").read_bytes()
        info = bundle_info()
        super().__init__(
            version=f"{info['package']}@{info['version']}",
            bundle=base64.b64encode(gzipped).decode("ascii"),
        )

    def __repr__(self) -> str:
        return f"GraphvizEngine({self.version})"


_engine: GraphvizEngine | None = None


def shared_engine() -> GraphvizEngine:
    """The kernel's one ``GraphvizEngine``, made on first use (again if it was closed)."""
    global _engine
    if _engine is None or _engine.comm is None:
        _engine = GraphvizEngine()
    return _engine


class GraphvizView(anywidget.AnyWidget):
    """A picture of ``dot``, laid out and drawn by Graphviz in the browser.

    ``text_copies`` and ``position`` are for the stepper (see ``widgets._svg``): the extra
    ``<text>`` elements its frames show and hide, and how many steps are shown (the front
    end marks the classes of the steps reached, which one stylesheet styles). ``titles``
    maps a box's id to its full text, for a box whose lines were cut
    (``widgets._markup.box_line``): the front end makes it the box's tooltip.
    """

    _esm = (STATIC / "graphviz_view.js").read_text(encoding="utf-8")
    dot = traitlets.Unicode().tag(sync=True)
    text_copies = traitlets.Dict().tag(sync=True)
    titles = traitlets.Dict().tag(sync=True)
    # A drawing by layers: how the browser opens a module's box on a click (widgets.layers).
    layers = traitlets.Dict().tag(sync=True)
    position = traitlets.Int(0).tag(sync=True)
    # The words the page shows around the picture (zoom bar, Graphviz's failure), in the
    # widgets' language when the view is made.
    words = traitlets.Dict().tag(sync=True)
    engine = traitlets.Instance(GraphvizEngine).tag(sync=True, **ipywidgets.widget_serialization)

    def __init__(
        self,
        dot: str,
        text_copies: dict | None = None,
        titles: dict | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(
            dot=dot,
            text_copies=text_copies or {},
            titles=titles or {},
            words=view_words(),
            engine=shared_engine(),
            **kwargs,
        )

    def __repr__(self) -> str:
        # A notebook stores this as the picture's text/plain: the same on every run.
        return f"GraphvizView({len(self.dot)} characters of DOT)"
