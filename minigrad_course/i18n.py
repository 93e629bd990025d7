"""The language of the course checks' messages: English, Russian (``ru``) or Chinese (``zh_CN``).

Every sentence the checks show a student (``✔ x.grad: correct``, ``not answered yet``, a
wrong shape...) comes from a gettext catalog in ``minigrad_course/locale``; English is the
source, written in the code. Values, names, an exercise's own hints and anything PyTorch or
Python prints are placeholders, never translated.

**Which language.** One choice for the checks and the widgets, made in
:mod:`minigrad_course.language_choice`: an explicit ``set_language`` (``minigrad_course`` or
``widgets``: the same setting), the notebook's metadata, the locale, English.

Autograding speaks the graded notebook's metadata language, else English
(:mod:`minigrad_course.isolated_grading`).

>>> set_language("ru")
>>> language()
'ru'
>>> _("{name}: correct").format(name="x.grad")
'x.grad: верно'
>>> set_language(None)
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from pathlib import Path

from minigrad_course import language_choice as _choice
from minigrad_course.language_choice import LANGUAGES

__all__ = ["LANGUAGES", "set_language", "language", "speaking"]

_DOMAIN = "minigrad_course"
_LOCALE_DIR = Path(__file__).parent / "locale"

# Set for a while by `speaking`: the grader's language, which the widgets do not follow. A
# context variable, so that graders running in threads side by side (nbgrader may) each keep
# their own and none leaves another's behind.
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("speaking", default=None)


def set_language(code: str | None) -> None:
    """Speak ``code`` (``"en"``, ``"ru"``, ``"zh_CN"``; ``"zh"``, ``"ru_RU"`` understood) in
    the checks' messages and the widgets alike; ``None`` goes back to the notebook's metadata,
    the locale, or English.

    >>> set_language("fr")
    Traceback (most recent call last):
        ...
    ValueError: the course speaks 'en', 'ru' and 'zh_CN', not 'fr'
    """
    _choice.set_language(code, "the course speaks")


def language() -> str:
    """The language of the checks' messages now: ``"en"``, ``"ru"`` or ``"zh_CN"``.

    >>> with speaking("zh"):
    ...     language()
    'zh_CN'
    """
    return _speaking.get() or _choice.language()


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """The checks speak ``code`` inside the ``with`` block, whatever else is chosen (the
    grader judges a notebook in that notebook's language); the widgets are left alone."""
    token = _speaking.set(_choice.checked(code))
    try:
        yield
    finally:
        _speaking.reset(token)


def _(message: str) -> str:
    """``message`` (a template with named placeholders) in the checks' language."""
    if not message:  # gettext("") is the catalog's header
        return message
    return _choice.translations(_LOCALE_DIR, _DOMAIN, language()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a template that suits ``count`` (Russian has three, Chinese one)."""
    return _choice.translations(_LOCALE_DIR, _DOMAIN, language()).ngettext(singular, plural, count)
