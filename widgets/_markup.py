r"""One way into markup: how every string a user controls reaches HTML, DOT and plots.

A student controls many strings the widgets show: the names of tensors (``names={...}``),
the op names and values of an engine of their own (``widgets.protocol``), a widget's label.
Each is *text*, to be drawn exactly as typed, never read as markup. This module is the one
place where text becomes markup; the widgets build HTML, DOT and plot labels only with it.

**HTML.** ``Markup`` is HTML written in this package's code. ``html(template, ...)`` fills a
template (a literal in the code, never a user's string) with values, escaping every value
that is not already ``Markup``; ``join`` joins pieces the same way. So forgetting to escape
is not possible: a plain string always arrives as text.

>>> name = '<img src=x onerror="alert(1)">'
>>> html("<b>{}</b> has {n:d} steps", name, n=3)
Markup('<b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</b> has 3 steps')
>>> html("<p>{}</p>", html("<i>{}</i>", "a & b"))  # Markup is kept, not escaped again
Markup('<p><i>a &amp; b</i></p>')

**DOT.** A label is lines of text for a box of ordinary shape (box, ellipse, note; never a
``record``, whose ``{|}<>`` mean fields). ``dot_label`` makes it a string Graphviz draws as
typed: never an HTML-like label (``graphviz.nohtml``), backslashes doubled (``\N`` would be
the node's name), ``&`` written as ``&amp;`` (Graphviz reads character entities in every
label), each line made ``one_line``. The ``graphviz`` package then quotes it, escaping ``"``.

>>> print(dot_label(["<b>", 'say "hi"', "a\\N &amp;"]))
<b>\nsay "hi"\na\\N &amp;amp;

**One line.** A name is shown on one line, in a picture's box as in a sentence: ``one_line``
writes a newline, a tab or any other control character as the escape that types it.

>>> one_line("a\nb\tc")
'a\\nb\\tc'

**Plots.** Matplotlib reads ``$...$`` in a label as mathematics: ``plot_text`` keeps dollars
literal, and cuts a name too long for a legend (which cannot be wider than its figure).

>>> plot_text("$x$.grad")
'\\$x\\$.grad'
>>> len(plot_text("w" * 500))
60
"""

from __future__ import annotations

import html as _html
import re
import string
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import graphviz


class Markup(str):
    """HTML written by this package's code: ``html`` and ``join`` never escape it again."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Markup({str.__repr__(self)})"


def escape(value: Any) -> Markup:
    """``value`` as HTML text (``<``, ``>``, ``&`` and both quotes escaped, so the text is
    safe in an element and in a quoted attribute); ``Markup`` is returned as it is.

    >>> escape("x < 1 & 'y'")
    Markup('x &lt; 1 &amp; &#x27;y&#x27;')
    """
    if isinstance(value, Markup):
        return value
    return Markup(_html.escape(str(value), quote=True))


class _EscapingFormatter(string.Formatter):
    """``str.format`` that escapes each value after formatting it (``{:g}``, ``{!r}``)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Markup):
            if format_spec:
                raise ValueError("Markup takes no format spec: format the text, then escape it")
            return value
        return escape(format(value, format_spec))


_FORMATTER = _EscapingFormatter()


def html(template: str, /, *args: Any, **kwargs: Any) -> Markup:
    """``template.format(*args, **kwargs)`` with every value escaped unless it is ``Markup``.
    ``template`` is written in the code: it is trusted, the values are not."""
    return Markup(_FORMATTER.vformat(template, args, kwargs))


def join(pieces: Iterable[Any], separator: str = "") -> Markup:
    """The pieces (each escaped unless ``Markup``) one after another, with ``separator``
    (written in the code) between them.

    >>> join(["<a>", html("<br>")], ", ")
    Markup('&lt;a&gt;, <br>')
    """
    return Markup(Markup(separator).join(escape(piece) for piece in pieces))


def stylesheet(css: str) -> Markup:
    """A ``<style>`` element of ``css`` written by this package (class names and colours,
    never a user's string). Escaping would break it (``>`` is a CSS combinator), so it is
    checked instead: no ``<`` can close the element early."""
    if "<" in css:
        raise ValueError("a stylesheet must not contain '<'")
    return Markup(f"<style>{css}</style>")


# C0 and C1 control characters, the Unicode line and paragraph separators, and lone
# surrogates (not valid UTF-8: they would fail to reach Graphviz).
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _typed(match: re.Match[str]) -> str:
    char = match.group()
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def one_line(text: str) -> str:
    r"""``text`` on one line: each control character as the escape that types it in Python
    (``\n``, ``\t``, ``\x00``, ``\u2028``); every other character as it is.

    >>> print(one_line("a\nb\x00c\u2028"))
    a\nb\x00c\u2028
    """
    return _INVISIBLE.sub(_typed, text)


def wide_characters(text: str) -> int:
    """How many characters of ``text`` are drawn twice as wide as a Latin letter (Chinese,
    Japanese, Korean, full-width punctuation).

    >>> wide_characters("梯度 x（1）")
    4
    """
    return sum(unicodedata.east_asian_width(char) in ("W", "F") for char in text)


# The widest line a picture's box shows, in Latin letters (a Chinese character counts two):
# a longer name would make its box, and so the whole picture, thousands of pixels wide.
# (The package's own longest lines, such as "ещё 1999 узлов графа не показаны (max_nodes=200)",
# fit: about 500 pixels at the natural size.)
LONGEST_BOX_LINE = 60


def box_line(text: str) -> str:
    r"""``text`` as one line of a picture's box: ``one_line``, and if wider than
    ``LONGEST_BOX_LINE`` its beginning and end with an ellipsis between (both ends of a
    name tell names apart, and a box's " (leaf)" stays). The full text is the box's tooltip
    (``GraphvizView.titles``).

    >>> box_line("w" * 70 + " (leaf)")
    'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww…wwwwwwwwwwww (leaf)'
    >>> len(box_line("a\nb" * 100)), box_line("short")
    (60, 'short')
    """
    line = one_line(text)
    if len(line) + wide_characters(line) <= LONGEST_BOX_LINE:
        return line
    head, tail = [], []
    room = LONGEST_BOX_LINE - 1  # the ellipsis takes one
    front, back = 0, len(line) - 1
    # Characters from the front and the back in turn, two from the front for each one from
    # the back, while they fit: so the cut keeps more of the beginning.
    while front <= back:
        side_front = len(head) < 2 * len(tail) + 2
        char = line[front] if side_front else line[back]
        cost = 1 + wide_characters(char)
        if cost > room:
            break
        room -= cost
        if side_front:
            head.append(char)
            front += 1
        else:
            tail.append(char)
            back -= 1
    return "".join(head) + "…" + "".join(reversed(tail))


def _dot_line(line: str) -> str:
    line = box_line(line).replace("\\", "\\\\").replace("&", "&amp;")
    # Graphviz in the browser has no font to measure with: it estimates a Chinese character
    # at three quarters of the width it is drawn with. A space per such character, half on
    # each side, gives the box the room it lacks and keeps the text centred.
    wide = wide_characters(line)
    if wide:
        padding = " " * ((wide + 1) // 2)
        line = f"{padding}{line}{padding}"
    # Graphviz draws no <text> for an empty line: the stepper counts on one per line.
    return line or " "


def dot_label(lines: Sequence[str]) -> str:
    """The label of a box (or arrow) of ordinary shape showing ``lines``, each drawn as
    typed (see the module's docstring). Pass it to ``graphviz``'s ``node`` or ``edge``."""
    return graphviz.nohtml("\\n".join(_dot_line(line) for line in lines))


# A legend wider than its figure makes matplotlib warn on every drawing, and a warning on
# stderr fails a graded cell under nbgrader: longer labels end in an ellipsis.
LONGEST_PLOT_LABEL = 60


def plot_text(text: str) -> str:
    """``text`` for a matplotlib label or title: one line, at most ``LONGEST_PLOT_LABEL``
    characters, with its dollars literal."""
    line = one_line(text)
    if len(line) > LONGEST_PLOT_LABEL:
        line = line[: LONGEST_PLOT_LABEL - 1] + "…"
    return line.replace("$", r"\$")
