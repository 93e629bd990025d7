"""The language the widgets speak: English, Russian (``ru``) or Simplified Chinese (``zh_CN``).

Every word the widgets show comes from a gettext catalog in ``widgets/locale``; English is
the source. What PyTorch itself prints (tensor reprs, ``grad_fn`` names like ``MulBackward0``,
its error messages) is never translated.

**Which language.** The course's one choice (:mod:`minigrad_course.language_choice`,
which the exercise checks follow too), the first of these that gives an answer:

1. ``widgets.set_language("ru")``, called in the notebook (``set_language(None)`` forgets it;
   ``minigrad_course.set_language`` is the same setting);
2. the notebook's own metadata, ``"minigrad": {"language": "ru"}``, when the kernel can find
   its notebook: a Jupyter server starting a kernel for a notebook sets the environment
   variable ``JPY_SESSION_NAME`` to that notebook's path (a saved change is seen within a
   second; a notebook renamed after its kernel started is no longer found);
3. the locale, from the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
   set (``ru_RU.UTF-8`` is Russian; ``zh_CN``, ``zh_Hans``, ``zh`` are Simplified Chinese);
4. English.

A widget takes the language when it draws a frame: call ``set_language`` before building it.

>>> set_language("ru")
>>> language()
'ru'
>>> _("one step forward")
'на шаг вперёд'
>>> set_language("zh-Hans")
>>> language()
'zh_CN'
>>> set_language(None)  # back to the notebook's metadata, the locale, or English

**For the widgets' code.** A sentence is one catalog entry with *named* placeholders, filled
by ``widgets._markup.html`` so that every value is still escaped; word order belongs to the
translation, so sentences are never joined from English fragments:

>>> from widgets._markup import html
>>> html(_("Gradient arriving from {sender}: {grad}"), sender="<x>", grad="1.")
Markup('Gradient arriving from &lt;x&gt;: 1.')

A string defined once at import time is marked with ``N_`` (so ``pybabel extract`` finds it)
and translated with ``_`` where it is shown.
"""

from __future__ import annotations

import functools
import gettext as _gettext
from pathlib import Path

from minigrad_course import language_choice as _choice
from minigrad_course.language_choice import LANGUAGES, language

__all__ = ["LANGUAGES", "set_language", "language"]

_DOMAIN = "widgets"
_LOCALE_DIR = Path(__file__).parent / "locale"


def set_language(code: str | None) -> None:
    """Speak ``code`` (``"en"``, ``"ru"`` or ``"zh_CN"``; ``"ru_RU"``, ``"zh"``,
    ``"zh-Hans"`` are understood) in every widget drawn from now on; ``None`` goes back to
    the notebook's metadata, the locale, or English.

    >>> set_language("fr")
    Traceback (most recent call last):
        ...
    ValueError: the widgets speak 'en', 'ru' and 'zh_CN', not 'fr'
    >>> set_language("ru_RU.UTF-8"); language()
    'ru'
    >>> set_language(None)
    """
    _choice.set_language(code, "the widgets speak")


def _translations(catalog: str) -> _gettext.NullTranslations:
    return _choice.translations(_LOCALE_DIR, _DOMAIN, catalog)


def _(message: str) -> str:
    """``message`` in the widgets' language: a template for ``html`` or plain text."""
    if not message:  # gettext("") is the catalog's header
        return message
    return _translations(language()).gettext(message)


def gettext(message: str) -> str:
    """The same as ``_``."""
    return _(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that suits ``count`` (Russian has three, Chinese one); the
    count itself is filled in by the caller, as a named placeholder.

    >>> ngettext("{count} step", "{count} steps", 2).format(count=2)
    '2 steps'
    """
    return _translations(language()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in ``context``, for one English word with two meanings
    (a button's "Back" and a direction's "back")."""
    return _translations(language()).pgettext(context, message)


def plot_gettext(message: str) -> str:
    """``message`` for a widget's matplotlib plot: translated when the plot's fonts can draw
    every character of the translation, else English. Matplotlib's own font, DejaVu Sans, has
    Cyrillic but no Chinese; the widgets add Noto Sans SC from the font package they depend
    on (``widgets._plot_fonts``). Without that package a Chinese plot keeps its English
    words, rather than drawing each missing glyph as a box, with a warning."""
    from ._plot_fonts import plot_font_families

    translated = _(message)
    return translated if _fonts_draw(translated, tuple(plot_font_families())) else message


@functools.lru_cache(maxsize=256)
def _fonts_draw(text: str, families: tuple[str, ...]) -> bool:
    """Whether one of the fonts matplotlib finds for ``families`` (a ``font.family`` list,
    searched glyph by glyph as matplotlib does) has each character of ``text``."""
    if text.isascii():
        return True
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    paths = set()
    for family in families:
        try:  # fallback_to_default=False: a missing family is skipped, without a log line
            # A list, as one string would be read as a fontconfig pattern ("sans-serif").
            properties = font_manager.FontProperties(family=[family])
            paths.add(font_manager.findfont(properties, fallback_to_default=False))
        except ValueError:
            continue
    fonts = [FT2Font(path) for path in paths]
    return all(
        char.isspace() or any(font.get_char_index(ord(char)) for font in fonts) for char in text
    )


def N_(message: str) -> str:
    """``message`` itself: marks a string defined at import time for extraction; translate
    it with ``_`` where it is shown."""
    return message
