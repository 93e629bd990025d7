"""The words of a drawing's front end (``static/graphviz_view.js``), in the widgets' language.

The page draws them, but Python chooses them: ``GraphvizView`` sends
``view_words()`` as a synced trait, which the front end reads in place of its English
defaults (the zoom bar's buttons and hint, and the message when Graphviz fails). The keys
name the places in the front end; ``{error}`` is filled there with Graphviz's own message.

>>> view_words()["zoom_in"]
'Zoom in'
"""

from __future__ import annotations

from .i18n import _


def view_words() -> dict[str, str]:
    """The front end's words, by the place that shows them."""
    return {
        "zoom_out": _("Zoom out"),
        "zoom_in": _("Zoom in"),
        "fit": _("fit"),
        "fit_title": _("The whole graph in view"),
        "actual_title": _("Natural size: text as large as a lesson's"),
        "hint": _("A large graph: zoom in, then drag the picture to move around."),
        "error": _("Graphviz could not draw this graph: {error}"),
        "open_layer": _("Click to open this module one level."),
        "close_layer": _("Click to close this module."),
    }
