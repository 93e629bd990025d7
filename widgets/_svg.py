"""One Graphviz SVG for a whole backward pass: the stepper lays the graph out once.

Graphviz places the boxes; ``mark_steps`` then adds what a stepper's frames need, so that a
frame is a few lines of CSS and never a copy of the picture (a frame per step of a 100-node
graph would otherwise be a 140 KB SVG each, and the frames 14 MB):

- classes on the boxes and arrows, saying at which steps they take part (``mg-ran-3``: the
  node that step 3 runs). A frame's stylesheet colours the classes of its steps.
- every text a line will show during the pass, as ``<text>`` elements in the same place.
  The first is shown; each later one has ``display="none"`` and the class ``mg-from-k``
  (the step that writes it); the one it replaces gets ``mg-until-k``. A frame's stylesheet
  shows and hides them by those classes. CSS properties beat SVG presentation attributes,
  so the picture alone shows the state before the first step.

Boxes and arrows are found by the ``id`` the drawing gave them (``mg-n3``, ``mg-e5``).

Graphviz writes its SVG with a fixed printer: each box and arrow is one ``<g id="..."
class="...">`` with no group inside, and each line of a label one ``<text ...>words</text>``
in it. So the text is edited in place (a parser and writer would cost more than the rest of
the stepper); each group must have as many lines as it is given texts for, or this raises.

>>> svg = ('<?xml version="1.0"?>\\n<svg width="8pt">\\n<g id="a" class="node">\\n'
...        '<ellipse stroke="black"/>\\n<text x="1">grad  None </text>\\n</g>\\n</svg>\\n')
>>> print(mark_steps(svg, {"a": ["mg-leaf-2"]}, {"a": [[(0, "grad None"), (2, "grad 4.")]]}))
<svg style="max-width: 100%; height: auto;" width="8pt">
<g id="a" class="node mg-leaf-2">
<ellipse stroke="black"/>
<text class="mg-until-2" x="1">grad None</text>
<text class="mg-from-2" display="none" x="1">grad 4.</text>
</g>
</svg>
<BLANKLINE>
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

# The classes of a text shown from step k on, and of one shown until step k.
SHOWN_FROM = "mg-from-{}"
SHOWN_UNTIL = "mg-until-{}"

# What a line of text reads over the pass: (from which step, the words), in step order,
# starting at step 0 (before the first step).
Timeline = Sequence[tuple[int, str]]

# The start of a box or an arrow (the whole graph's <g> has more attributes, so it does not
# match), and a line of text. Graphviz escapes <, > and & in the words: none is in [^<]*.
_BOX = re.compile(r'<g id="([^"]*)" class="([^"]*)">')
_LINE = re.compile(r"<text ([^>]*)>([^<]*)</text>")


def mark_steps(
    svg: str, classes: Mapping[str, Sequence[str]], texts: Mapping[str, Sequence[Timeline]]
) -> str:
    """Graphviz's ``svg`` with ``classes[id]`` added to the box or arrow ``id``, and the
    i-th line of its label reading ``texts[id][i]`` over the pass (see the docstring of the
    module); ready to go into a page (the XML prolog is dropped)."""

    svg = svg[svg.index("<svg") :]
    # Let a wide graph shrink to the width of the page instead of overflowing it.
    svg = svg.replace("<svg ", '<svg style="max-width: 100%; height: auto;" ', 1)
    pieces, end = [], 0
    for box in _BOX.finditer(svg):
        element_id = html.unescape(box[1])  # Graphviz writes "mg-n3" as "mg&#45;n3"
        names = " ".join([box[2], *classes.get(element_id, ())])
        close = svg.index("</g>", box.end())
        inside = svg[box.end() : close]
        if element_id in texts:
            inside = _write_timelines(element_id, inside, texts[element_id])
        pieces += [svg[end : box.start()], f'<g id="{box[1]}" class="{names}">', inside]
        end = close
    pieces.append(svg[end:])
    return "".join(pieces)


def _write_timelines(element_id: str, inside: str, timelines: Sequence[Timeline]) -> str:
    """The lines of one box: each line, then a copy of it for each later text."""
    found = len(_LINE.findall(inside))
    if found != len(timelines):
        raise ValueError(f"{element_id} has {found} lines of text, {len(timelines)} were given")
    lines = iter(timelines)

    def write(line: re.Match[str]) -> str:
        attributes = line[1]
        timeline = next(lines)
        if timeline[0][0] != 0:
            raise ValueError(f"a line's text must start at step 0, not {timeline[0][0]}")
        copies = []
        for i, (step, words) in enumerate(timeline):
            names = [] if i == 0 else [SHOWN_FROM.format(step)]
            if i + 1 < len(timeline):
                names.append(SHOWN_UNTIL.format(timeline[i + 1][0]))
            hidden = ' display="none"' if i else ""
            mark = f'class="{" ".join(names)}"{hidden} ' if names else ""
            copies.append(f"<text {mark}{attributes}>{html.escape(words, quote=False)}</text>")
        return "\n".join(copies)

    return _LINE.sub(write, inside)
