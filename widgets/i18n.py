"""The language the widgets speak: English, Russian (``ru``) or Simplified Chinese (``zh_CN``).

Every word the widgets show comes from a gettext catalog in ``widgets/locale``; English is
the source. What PyTorch itself prints (tensor reprs, ``grad_fn`` names like ``MulBackward0``,
its error messages) is never translated.

**Which language.** The first of these that gives an answer:

1. ``widgets.set_language("ru")``, called in the notebook (``set_language(None)`` forgets it);
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
import io
import json
import math
import os
import time
from pathlib import Path

from babel.messages import mofile, pofile

#: The languages the widgets speak, as their catalogs are named.
LANGUAGES = ("en", "ru", "zh_CN")
_DOMAIN = "widgets"
_LOCALE_DIR = Path(__file__).parent / "locale"
# The locale variables, in the order gettext consults them.
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: str | None = None


def _normalise(code: str) -> str | None:
    """The catalog a language code names, or None. Accepts ``ru``, ``ru_RU.UTF-8``, ``zh``,
    ``zh-CN``, ``zh_Hans``, ``en_GB`` and such, in any case; ``C`` and ``POSIX`` are English."""
    tag = code.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if tag in ("c", "posix", "en") or tag.startswith("en_"):
        return "en"
    if tag == "ru" or tag.startswith("ru_"):
        return "ru"
    # Simplified Chinese: zh, zh_CN, zh_SG, zh_Hans (and zh_Hans_CN); not zh_TW or zh_Hant.
    if tag in ("zh", "zh_cn", "zh_sg") or tag.startswith("zh_hans"):
        return "zh_CN"
    return None


def set_language(code: str | None) -> None:
    """Speak ``code`` (``"en"``, ``"ru"`` or ``"zh_CN"``; ``"ru_RU"``, ``"zh"``,
    ``"zh-Hans"`` are understood) in every widget drawn from now on; ``None`` goes back to
    the notebook's metadata, the locale, or English.

    >>> set_language("fr")
    Traceback (most recent call last):
        ...
    ValueError: the widgets speak 'en', 'ru' and 'zh_CN', not 'fr'
    >>> set_language(None)
    """
    global _chosen
    if code is None:
        _chosen = None
        return
    catalog = _normalise(code) if isinstance(code, str) else None
    if catalog is None:
        supported = ", ".join(repr(name) for name in LANGUAGES[:-1])
        raise ValueError(f"the widgets speak {supported} and {LANGUAGES[-1]!r}, not {code!r}")
    _chosen = catalog


def language() -> str:
    """The language the widgets speak now: ``"en"``, ``"ru"`` or ``"zh_CN"`` (see the
    module's docstring for the order in which it is chosen).

    >>> set_language("ru_RU.UTF-8"); language()
    'ru'
    >>> set_language(None)
    """
    if _chosen is not None:
        return _chosen
    return _notebook_language() or _locale_language() or "en"


def _notebook_path() -> Path | None:
    """The notebook this kernel runs, when a Jupyter server started it.

    The server sets ``JPY_SESSION_NAME`` to the notebook's absolute path (its folder joined
    with its name), or to its path relative to the server's root when it was given no name;
    the kernel itself starts in the notebook's folder."""
    session = os.environ.get("JPY_SESSION_NAME")
    if not session:
        return None
    return _find_notebook(session, os.getcwd())


@functools.lru_cache(maxsize=8)
def _find_notebook(session: str, folder: str) -> Path | None:
    path = Path(session)
    for candidate in (path, Path(folder) / path, Path(folder) / path.name):
        if candidate.suffix == ".ipynb" and candidate.is_file():
            return candidate
    return None


# The notebook's language, looked up again at most once a second: every word a widget
# shows asks for the language, and a stepper shows thousands.
_RECHECK_SECONDS = 1.0
_last_check: tuple[float, str | None, str | None] = (-math.inf, None, None)


def _notebook_language() -> str | None:
    global _last_check
    session = os.environ.get("JPY_SESSION_NAME")
    checked_at, checked_session, found = _last_check
    now = time.monotonic()
    if session == checked_session and now - checked_at < _RECHECK_SECONDS:
        return found
    path = _notebook_path()
    found = None
    if path is not None:
        try:
            found = _metadata_language(str(path), path.stat().st_mtime_ns)
        except OSError:
            found = None
    _last_check = (now, session, found)
    return found


@functools.lru_cache(maxsize=8)
def _metadata_language(path: str, modified: int) -> str | None:
    """``metadata.minigrad.language`` of the notebook at ``path`` (read again whenever the
    notebook is saved, as ``modified`` changes); None when absent, unknown or unreadable."""
    try:
        with open(path, encoding="utf-8") as file:
            metadata = json.load(file).get("metadata", {})
        code = metadata.get("minigrad", {}).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return _normalise(code) if isinstance(code, str) else None


def _locale_language() -> str | None:
    """The language of the locale: the first variable that is set decides (``LANGUAGE`` may
    list several, ``de:ru``: the first one the widgets speak)."""
    for variable in _LOCALE_VARIABLES:
        value = os.environ.get(variable, "")
        if not value:
            continue
        for code in value.split(":"):
            catalog = _normalise(code) if code else None
            if catalog is not None:
                return catalog
        if variable != "LANGUAGE":
            return None
    return None


@functools.cache
def _translations(catalog: str) -> _gettext.NullTranslations:
    """The translations of ``catalog``, read from its ``.po`` file once (no compiled ``.mo``
    is kept in the repository: Babel compiles it in memory; fuzzy entries are left out)."""
    if catalog == "en":
        return _gettext.NullTranslations()
    po_path = _LOCALE_DIR / catalog / "LC_MESSAGES" / f"{_DOMAIN}.po"
    with open(po_path, "rb") as file:
        messages = pofile.read_po(file, locale=catalog, domain=_DOMAIN)
    compiled = io.BytesIO()
    mofile.write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


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
    """``message`` for a matplotlib plot: translated when matplotlib's fonts can draw every
    character of the translation, else English. (Matplotlib's default font, DejaVu Sans, has
    Cyrillic but no Chinese: a missing glyph would draw as a box, with a warning.)"""
    translated = _(message)
    return translated if _fonts_draw(translated) else message


@functools.lru_cache(maxsize=256)
def _fonts_draw(text: str) -> bool:
    if text.isascii():
        return True
    from matplotlib import font_manager, rcParams
    from matplotlib.ft2font import FT2Font

    families = [*rcParams["font.sans-serif"], *rcParams["font.family"]]
    paths = set()
    for family in families:
        try:  # fallback_to_default=False: a missing family is skipped, without a log line
            properties = font_manager.FontProperties(family=family)
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
