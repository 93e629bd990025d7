"""The language of the course checks' messages: English, Russian (``ru``) or Chinese (``zh_CN``).

Every sentence the checks show a student (``✔ x.grad: correct``, ``not answered yet``, a
wrong shape...) comes from a gettext catalog in ``minigrad_course/locale``; English is the
source, written in the code. Values, names, an exercise's own hints and anything PyTorch or
Python prints are placeholders, never translated.

**Which language.** The same order as the widgets' (``widgets/i18n.py``), with one setting:

1. an explicit choice: ``minigrad_course.set_language("ru")``, which sets the widgets'
   language too (when the widgets can be imported), or ``widgets.set_language("ru")``,
   which the checks follow; ``None`` forgets it;
2. the notebook's own metadata, ``"minigrad": {"language": "ru"}``, when a Jupyter server
   started the kernel (it names the notebook in ``JPY_SESSION_NAME``);
3. the locale: the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set;
4. English.

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
import functools
import gettext as _gettext
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages import mofile, pofile

__all__ = ["LANGUAGES", "set_language", "language", "speaking"]

#: The languages of the checks, as their catalogs are named.
LANGUAGES = ("en", "ru", "zh_CN")
_DOMAIN = "minigrad_course"
_LOCALE_DIR = Path(__file__).parent / "locale"
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# Set only when the widgets cannot be imported (they hold the one explicit choice otherwise),
# or for a while by `speaking`.
_chosen: str | None = None


def _normalise(code: str) -> str | None:
    """The catalog a language code names, or None (the widgets' rules: ``ru_RU.UTF-8``,
    ``zh``, ``zh-Hans``, ``C``...)."""
    tag = code.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if tag in ("c", "posix", "en") or tag.startswith("en_"):
        return "en"
    if tag == "ru" or tag.startswith("ru_"):
        return "ru"
    if tag in ("zh", "zh_cn", "zh_sg") or tag.startswith("zh_hans"):
        return "zh_CN"
    return None


def _checked(code: str) -> str:
    catalog = _normalise(code) if isinstance(code, str) else None
    if catalog is None:
        supported = ", ".join(repr(name) for name in LANGUAGES[:-1])
        raise ValueError(f"the course speaks {supported} and {LANGUAGES[-1]!r}, not {code!r}")
    return catalog


def set_language(code: str | None) -> None:
    """Speak ``code`` (``"en"``, ``"ru"``, ``"zh_CN"``; ``"zh"``, ``"ru_RU"`` understood) in
    the checks' messages and the widgets alike; ``None`` goes back to the notebook's metadata,
    the locale, or English.

    >>> set_language("fr")
    Traceback (most recent call last):
        ...
    ValueError: the course speaks 'en', 'ru' and 'zh_CN', not 'fr'
    """
    global _chosen
    catalog = None if code is None else _checked(code)
    try:
        import widgets.i18n  # one setting for the drawings and the checks
    except ImportError:  # a course installed without the widgets: the checks keep their own
        _chosen = catalog
        return
    widgets.i18n.set_language(catalog)
    _chosen = None


def language() -> str:
    """The language of the checks' messages now: ``"en"``, ``"ru"`` or ``"zh_CN"``.

    >>> with speaking("zh"):
    ...     language()
    'zh_CN'
    """
    if _chosen is not None:
        return _chosen
    # The widgets choose by the same rules, and also know their own explicit choice; a
    # notebook that never imported them cannot have made one.
    shared = sys.modules.get("widgets.i18n")
    if shared is not None:
        return shared.language()
    return _notebook_language() or _locale_language() or "en"


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """The checks speak ``code`` inside the ``with`` block, whatever else is chosen (the
    grader judges a notebook in that notebook's language); the widgets are left alone."""
    global _chosen
    before, _chosen = _chosen, _checked(code)
    try:
        yield
    finally:
        _chosen = before


def _notebook_language() -> str | None:
    """``metadata.minigrad.language`` of the notebook a Jupyter server started this kernel
    for (``JPY_SESSION_NAME`` is its path; the kernel starts in its folder)."""
    session = os.environ.get("JPY_SESSION_NAME")
    if not session:
        return None
    path = Path(session)
    for candidate in (path, Path.cwd() / path, Path.cwd() / path.name):
        if candidate.suffix == ".ipynb" and candidate.is_file():
            try:
                return _metadata_language(str(candidate), candidate.stat().st_mtime_ns)
            except OSError:
                return None
    return None


@functools.lru_cache(maxsize=8)
def _metadata_language(path: str, modified: int) -> str | None:
    """Read again whenever the notebook is saved (``modified`` changes)."""
    try:
        with open(path, encoding="utf-8") as file:
            code = json.load(file).get("metadata", {}).get("minigrad", {}).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return _normalise(code) if isinstance(code, str) else None


def _locale_language() -> str | None:
    """The locale's language: the first variable set decides (``LANGUAGE`` may list several)."""
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
    """``catalog``'s translations, read from its ``.po`` file once and compiled in memory
    (fuzzy entries left out: they show the English)."""
    if catalog == "en":
        return _gettext.NullTranslations()
    with open(_LOCALE_DIR / catalog / "LC_MESSAGES" / f"{_DOMAIN}.po", "rb") as file:
        messages = pofile.read_po(file, locale=catalog, domain=_DOMAIN)
    compiled = io.BytesIO()
    mofile.write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


def _(message: str) -> str:
    """``message`` (a template with named placeholders) in the checks' language."""
    return _translations(language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a template that suits ``count`` (Russian has three, Chinese one)."""
    return _translations(language()).ngettext(singular, plural, count)
