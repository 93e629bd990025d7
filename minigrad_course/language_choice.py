"""Which language the course speaks: one choice for the drawings and the checks alike.

The widgets (``widgets/i18n.py``) and the exercise checks (``minigrad_course/i18n.py``) each
keep their own catalog, but they speak the same language, chosen here, in this order:

1. an explicit choice: ``set_language("ru")`` (``widgets.set_language`` and
   ``minigrad_course.set_language`` both call it); ``None`` forgets it;
2. the notebook's own metadata, ``"minigrad": {"language": "ru"}``, when the kernel can find
   its notebook: a Jupyter server starting a kernel for a notebook sets ``JPY_SESSION_NAME``
   to the notebook's path (a saved change is seen within a second);
3. the locale: the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set
   (``ru_RU.UTF-8`` is Russian; ``zh_CN``, ``zh_Hans``, ``zh`` are Simplified Chinese);
4. English.

This module imports nothing of the project, so that the grading sandbox, which copies only
``minigrad`` and ``minigrad_course``, has it too.

>>> set_language("zh-Hans")
>>> language()
'zh_CN'
>>> set_language(None)
"""

from __future__ import annotations

import functools
import gettext
import io
import json
import math
import os
import time
from pathlib import Path

from babel.messages import mofile, pofile

__all__ = ["LANGUAGES", "normalise", "checked", "set_language", "language", "translations"]

#: The languages of the course, as their catalogs are named.
LANGUAGES = ("en", "ru", "zh_CN")
# The locale variables, in the order gettext consults them.
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: str | None = None


def normalise(code: str) -> str | None:
    """The catalog a language code names, or None. Accepts ``ru``, ``ru_RU.UTF-8``, ``zh``,
    ``zh-CN``, ``zh_Hans``, ``en_GB`` and such, in any case; ``C`` and ``POSIX`` are English.

    >>> normalise("ru_RU.UTF-8"), normalise("zh-Hans"), normalise("C"), normalise("zh_TW")
    ('ru', 'zh_CN', 'en', None)
    """
    tag = code.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if tag in ("c", "posix", "en") or tag.startswith("en_"):
        return "en"
    if tag == "ru" or tag.startswith("ru_"):
        return "ru"
    # Simplified Chinese: zh, zh_CN, zh_SG, zh_Hans (and zh_Hans_CN); not zh_TW or zh_Hant.
    if tag in ("zh", "zh_cn", "zh_sg") or tag.startswith("zh_hans"):
        return "zh_CN"
    return None


def checked(code: object, speaker: str = "the course speaks") -> str:
    """The catalog ``code`` names, or a ValueError that says which languages ``speaker`` has.

    >>> checked("fr", "the widgets speak")
    Traceback (most recent call last):
        ...
    ValueError: the widgets speak 'en', 'ru' and 'zh_CN', not 'fr'
    """
    catalog = normalise(code) if isinstance(code, str) else None
    if catalog is None:
        supported = ", ".join(repr(name) for name in LANGUAGES[:-1])
        raise ValueError(f"{speaker} {supported} and {LANGUAGES[-1]!r}, not {code!r}")
    return catalog


def set_language(code: str | None, speaker: str = "the course speaks") -> None:
    """Speak ``code`` (``"en"``, ``"ru"``, ``"zh_CN"``; ``"ru_RU"``, ``"zh"``, ``"zh-Hans"``
    understood) from now on; ``None`` goes back to the notebook's metadata, the locale, or
    English."""
    global _chosen
    _chosen = None if code is None else checked(code, speaker)


def language() -> str:
    """The language spoken now: ``"en"``, ``"ru"`` or ``"zh_CN"``, chosen in the order the
    module's docstring gives."""
    if _chosen is not None:
        return _chosen
    return notebook_language() or locale_language() or "en"


# The notebook's language, looked up again at most once a second: every word a widget
# shows asks for the language, and a stepper shows thousands.
_RECHECK_SECONDS = 1.0
_last_check: tuple[float, str | None, str | None] = (-math.inf, None, None)


def notebook_language() -> str | None:
    """``metadata.minigrad.language`` of the notebook a Jupyter server started this kernel
    for, or None when there is none, or it names no language the course speaks."""
    global _last_check
    session = os.environ.get("JPY_SESSION_NAME")
    checked_at, checked_session, found = _last_check
    now = time.monotonic()
    if session == checked_session and now - checked_at < _RECHECK_SECONDS:
        return found
    path = _find_notebook(session, os.getcwd()) if session else None
    found = None
    if path is not None:
        try:
            found = metadata_language(str(path), path.stat().st_mtime_ns)
        except OSError:
            found = None
    _last_check = (now, session, found)
    return found


@functools.lru_cache(maxsize=8)
def _find_notebook(session: str, folder: str) -> Path | None:
    """The server sets ``JPY_SESSION_NAME`` to the notebook's absolute path, or to its path
    relative to the server's root when it was given no name; the kernel itself starts in the
    notebook's folder."""
    path = Path(session)
    for candidate in (path, Path(folder) / path, Path(folder) / path.name):
        if candidate.suffix == ".ipynb" and candidate.is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=8)
def metadata_language(path: str, modified: int) -> str | None:
    """``metadata.minigrad.language`` of the notebook at ``path`` (read again whenever the
    notebook is saved, as ``modified`` changes); None when absent, unknown or unreadable."""
    try:
        with open(path, encoding="utf-8") as file:
            code = json.load(file).get("metadata", {}).get("minigrad", {}).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return normalise(code) if isinstance(code, str) else None


def locale_language() -> str | None:
    """The locale's language: the first variable that is set decides (``LANGUAGE`` may list
    several, ``de:ru``: the first one the course speaks)."""
    for variable in _LOCALE_VARIABLES:
        value = os.environ.get(variable, "")
        if not value:
            continue
        for code in value.split(":"):
            catalog = normalise(code) if code else None
            if catalog is not None:
                return catalog
        if variable != "LANGUAGE":
            return None
    return None


@functools.cache
def translations(locale_dir: Path, domain: str, catalog: str) -> gettext.NullTranslations:
    """The translations of ``domain`` in ``catalog``, read from its ``.po`` file once (no
    compiled ``.mo`` is kept in the repository: Babel compiles it in memory; fuzzy entries
    are left out, so they show the English)."""
    if catalog == "en":
        return gettext.NullTranslations()
    with open(locale_dir / catalog / "LC_MESSAGES" / f"{domain}.po", "rb") as file:
        messages = pofile.read_po(file, locale=catalog, domain=domain)
    compiled = io.BytesIO()
    mofile.write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
