"""One picture for a whole backward pass: what the stepper adds to Graphviz's SVG.

Graphviz lays the graph out once, in the browser (``widgets._browser``). A stepper's frame
is then a few lines of CSS over that one picture, never a copy of it (a frame per step of a
100-node graph would otherwise be a 140 KB SVG each, and the frames 14 MB). Two things make
that possible:

- classes on the boxes and arrows, saying at which steps they take part (``mg-ran-3``: the
  node that step 3 runs). They are written into the DOT text as each node's and edge's
  ``class`` attribute, which Graphviz copies onto the SVG group it draws (``<g id="mg-n3"
  class="node mg-ran-3">``). The front end marks those of the steps reached for the
  position shown (``mg-ran-3`` gets ``mg-ran-reached``, ``-now`` or ``-past``), and the
  stepper's one stylesheet colours the marked classes (``style_at`` writes it out).
- every text a line will show during the pass, as ``<text>`` elements in the same place.
  The first is the one Graphviz drew; each later one is a copy with ``display="none"`` and
  the class ``mg-from-k`` (the step that writes it); the one it replaces gets
  ``mg-until-k``. The stylesheet shows and hides them by those classes, marked. CSS
  properties beat SVG presentation attributes, so the picture alone shows the state
  before the first step.

``text_copies`` says which copies to make; the front end (``static/graphviz_view.js``)
makes them once Graphviz has drawn the picture, and refuses a box whose number of lines
differs from what it was given.

>>> text_copies({"mg-n1": [[(0, "grad None"), (2, "grad 4.")]]})
{'mg-n1': [[['mg-until-2', False, 'grad None'], ['mg-from-2', True, 'grad 4.']]]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ._markup import box_line

# The classes of a text shown from step k on, and of one shown until step k.
SHOWN_FROM = "mg-from-{}"
SHOWN_UNTIL = "mg-until-{}"

# What a line of text reads over the pass: (from which step, the words), in step order,
# starting at step 0 (before the first step).
Timeline = Sequence[tuple[int, str]]

# One <text> element: its classes, whether it starts hidden, its words.
TextCopy = list[str | bool]


def text_copies(texts: Mapping[str, Sequence[Timeline]]) -> dict[str, list[list[TextCopy]]]:
    """For each box or arrow id, for each line of its label: the ``<text>`` elements that
    line becomes (the first is Graphviz's own, given its classes and words; the others are
    copies of it). JSON-ready, for the front end."""
    copies: dict[str, list[list[TextCopy]]] = {}
    for element_id, timelines in texts.items():
        copies[element_id] = []
        for timeline in timelines:
            if timeline[0][0] != 0:
                raise ValueError(f"a line's text must start at step 0, not {timeline[0][0]}")
            line: list[TextCopy] = []
            for i, (step, words) in enumerate(timeline):
                names = [] if i == 0 else [SHOWN_FROM.format(step)]
                if i + 1 < len(timeline):
                    names.append(SHOWN_UNTIL.format(timeline[i + 1][0]))
                # The words reach the page as text (the front end sets textContent), on
                # one line and cut as in the label Graphviz drew.
                line.append([" ".join(names), i > 0, box_line(words)])
            copies[element_id].append(line)
    return copies


# A class the front end marks for the position shown (``static/graphviz_view.js``,
# ``showPosition``): ``mg-ran-reached`` stands for every ``mg-ran-k`` with k <= position.
_MARKED = re.compile(r"\.(mg-[a-z-]+)-(reached|now|past)(?![\w-])")
_RULE = re.compile(r"([^{}]+?)\s*\{([^}]*)\}")


def style_at(style: str, position: int, first: int = 1) -> str:
    """A stepper's stylesheet as it acts at ``position``, each marked class written out as
    the step classes it stands for (``first`` is the first step's number): what the front
    end's marking amounts to, for tests and for reading. A rule whose marked class stands
    for no step is left out: it styles nothing.

    >>> style_at(".s .mg-ran-past > ellipse { stroke: green }", 3)
    '.s :is(.mg-ran-1, .mg-ran-2) > ellipse { stroke: green }'
    >>> style_at(".s .mg-ran-past > ellipse { stroke: green }", 1)
    ''
    """
    steps = {
        "reached": range(first, position + 1),
        "now": range(position, position + 1) if position >= first else range(0),
        "past": range(first, position),
    }
    rules = []
    for selector, body in _RULE.findall(style):
        marked = _MARKED.findall(selector)
        if any(not steps[when] for _, when in marked):
            continue
        written = _MARKED.sub(
            lambda m: ":is(" + ", ".join(f".{m[1]}-{k}" for k in steps[m[2]]) + ")", selector
        )
        rules.append(f"{written.strip()} {{ {body.strip()} }}")
    return "\n".join(rules)
