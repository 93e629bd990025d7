"""Sphinx extension: the documentation site in English, Russian and Simplified Chinese.

English is the source. ``scripts/translate_docs.py`` (``make docs``) builds the same pages once
per language, with ``-D language=ru`` (or ``zh_CN``), each into its own folder
(``docs/_build/html/ru/``); Sphinx replaces each paragraph by its translation from the page's
gettext catalog, ``docs/locale/<lang>/LC_MESSAGES/<page>.po``. This extension adds what
Sphinx does not do by itself:

* **the lessons in the site's language**: a lesson page is the translated notebook
  ``notebooks/<lang>/NN_name.ipynb`` once its catalog is finished (the translated lessons have
  catalogs of their own, docs/translating_lessons.md), else the English one;
* **a note on every page that is in English** in a Russian or Chinese site, written in the
  site's language, saying why: a page for developers (the API reference and the pages about
  how minigrad is built, :data:`ENGLISH_ONLY`, English in every language by choice), a page
  whose translation has not started (no catalog yet), or one whose catalog is not finished;
* **a language switcher** in the sidebar of every page: plain links to the same page in the
  other two languages (``sidebar/languages.html``), computed here as relative URLs, so the
  three sites work from disk as they do on a server.

A page's state in a language is read from its catalog, as the lessons' tool does: no catalog
means *not started*; a catalog with an empty or fuzzy entry, *unfinished* (the tests fail on
it); a catalog with every entry translated, *translated*.
"""

from __future__ import annotations

import fnmatch
import gettext
from pathlib import Path
from typing import Any, Literal

from babel.messages.pofile import read_po
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.i18n import docname_to_domain

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
LOCALE = DOCS / "locale"
NOTEBOOKS = ROOT / "notebooks"
LESSON_CATALOGS = ROOT / "translations"

# Each language of the site: its name in itself, and its tag for HTML's hreflang.
LANGUAGES = {"en": "English", "ru": "Русский", "zh_CN": "简体中文"}
HTML_TAGS = {"en": "en", "ru": "ru", "zh_CN": "zh-Hans"}
SOURCE_LANGUAGE = "en"

# Pages that stay English in every language, by choice: the API reference is the docstrings
# (one text, beside the code it describes), and the developer pages change with the code and
# are read by people who work in English on it. They get no catalog.
ENGLISH_ONLY = (
    "api/*",
    "architecture",
    "performance",
    "protocol",
    "translating",
    "translating_docs",
    "translating_exercises",
    "translating_lessons",
)

PageState = Literal["source", "english only", "translated", "unfinished", "not started"]

NOTES = {
    "ru": {
        "english only": "Эта страница на английском во всех языках сайта: справочник API и "
        "страницы для разработчиков не переводятся, их текст меняется вместе с кодом.",
        "not started": "Эта страница ещё не переведена на русский язык, ниже — английский текст.",
        "unfinished": "Перевод этой страницы ещё не закончен: непереведённые места "
        "показаны по-английски.",
    },
    "zh_CN": {
        "english only": "本页在网站的各个语言版本中都是英文：API 参考和面向开发者的页面"
        "不翻译，它们的内容随代码一起变化。",
        "not started": "本页尚未译成中文，以下是英文原文。",
        "unfinished": "本页的翻译尚未完成，未译的部分以英文显示。",
    },
}


def is_english_only(docname: str) -> bool:
    """Whether a page stays English in every language.

    >>> is_english_only("api/nn"), is_english_only("architecture"), is_english_only("quickstart")
    (True, True, False)
    """
    return any(fnmatch.fnmatchcase(docname, pattern) for pattern in ENGLISH_ONLY)


def unfinished_entries(catalog: Path) -> list[str]:
    """The entries of a gettext catalog that a reader would see in English: empty or fuzzy."""
    with catalog.open("rb") as file:
        messages = read_po(file)
    return [m.id for m in messages if m.id and (not m.string or m.fuzzy)]


def catalog_path(docname: str, lang: str) -> Path:
    """A page's catalog, where Sphinx looks for it (``locale_dirs``, ``gettext_compact``)."""
    return LOCALE / lang / "LC_MESSAGES" / f"{docname}.po"


def lesson_catalog_path(relative: Path, lang: str) -> Path:
    """The catalog of a lesson (scripts/translate_notebooks.py) or of an exercise set
    (scripts/translate_exercises.py), ``relative`` to ``notebooks/``."""
    if len(relative.parts) == 1:
        return LESSON_CATALOGS / lang / "notebooks" / f"{relative.stem}.po"
    return LESSON_CATALOGS / lang / "exercises" / f"{relative.stem}.po"


def lesson_source(relative: Path, lang: str) -> Path:
    """The notebook a lesson or exercise-set page of the ``lang`` site is made from
    (``relative`` to ``notebooks/``): the translation once its catalog is finished (and, for
    a set, released into ``notebooks/<lang>/exercises/``), else the English one."""
    english = NOTEBOOKS / relative
    translated = NOTEBOOKS / lang / relative
    if lang == SOURCE_LANGUAGE or not translated.is_file():
        return english
    catalog = lesson_catalog_path(relative, lang)
    if not catalog.is_file() or unfinished_entries(catalog):
        return english
    return translated


def page_state(docname: str, lang: str) -> PageState:
    """How a page reads in the ``lang`` site (see the module's docstring)."""
    if lang == SOURCE_LANGUAGE:
        return "source"
    if is_english_only(docname):
        return "english only"
    if docname.startswith("lessons/"):
        relative = Path(docname.removeprefix("lessons/") + ".ipynb")
        is_translated = lesson_source(relative, lang) != NOTEBOOKS / relative
        return "translated" if is_translated else "not started"
    catalog = catalog_path(docname, lang)
    if not catalog.is_file():
        return "not started"
    return "unfinished" if unfinished_entries(catalog) else "translated"


def language_links(pagename: str, lang: str) -> list[dict[str, Any]]:
    """The switcher's links from ``pagename`` of the ``lang`` site: the same page in each
    language, as a URL relative to the page. English is the site's root folder, each other
    language a folder in it (``ru/``, ``zh_CN/``).

    >>> [link["url"] for link in language_links("lessons/03_x", "ru")]
    ['../../lessons/03_x.html', '03_x.html', '../../zh_CN/lessons/03_x.html']
    >>> [link["url"] for link in language_links("index", "en")]
    ['index.html', 'ru/index.html', 'zh_CN/index.html']
    """
    up_to_own_root = "../" * pagename.count("/")
    page = pagename.rsplit("/", 1)[-1] + ".html"
    links = []
    for code, name in LANGUAGES.items():
        if code == lang:
            url = page
        else:
            up_to_english = up_to_own_root + ("" if lang == SOURCE_LANGUAGE else "../")
            folder = "" if code == SOURCE_LANGUAGE else f"{code}/"
            url = up_to_english + folder + pagename + ".html"
        links.append(
            {
                "code": code,
                "tag": HTML_TAGS[code],
                "name": name,
                "url": url,
                "current": code == lang,
            }
        )
    return links


# --------------------------------------------------------------------------- Sphinx events


def add_note(app: Sphinx, doctree: nodes.document) -> None:
    """Put the note that says why a page is in English at the top of the page."""
    lang = app.config.language
    state = page_state(app.env.docname, lang)
    text = NOTES.get(lang, {}).get(state)
    if text is None:
        return
    note = nodes.note("", nodes.paragraph(text, text), classes=["site-language-note"])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, note)
    else:
        doctree.insert(0, note)


def translate_code_blocks(app: Sphinx, doctree: nodes.document) -> None:
    """Put in each code block its translation from the page's catalog: the same code with its
    comments translated (the lessons' rule; tests/test_docs_translations.py checks it).

    Sphinx's own translation of code blocks (``gettext_additional_targets``) wraps the
    translation in reStructuredText's ``::`` and parses it again, which a Markdown page turns
    into a paragraph. So the extraction asks Sphinx for the code blocks' entries
    (``scripts/translate_docs.py``) and this puts their translations in place, as text."""
    lang = app.config.language
    if lang == SOURCE_LANGUAGE:
        return
    domain = docname_to_domain(app.env.docname, app.config.gettext_compact)
    # Sphinx has compiled each catalog into its .mo file before reading the pages.
    compiled = [
        Path(app.srcdir, folder, lang, "LC_MESSAGES", f"{domain}.mo")
        for folder in app.config.locale_dirs
    ]
    compiled = [path for path in compiled if path.is_file()]
    if not compiled:
        return
    with compiled[0].open("rb") as file:
        translation = gettext.GNUTranslations(file)
    for block in doctree.findall(nodes.literal_block):
        english = block.rawsource or block.astext()
        translated = translation.gettext(english)
        if translated == english:
            continue
        if block.astext() != english:  # the entry keeps the block's last line break
            translated = translated.rstrip("\n")
        block.rawsource = translated
        block[:] = [nodes.Text(translated)]


def add_switcher(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    context["site_languages"] = language_links(pagename, app.config.language)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-read", translate_code_blocks)
    app.connect("doctree-read", add_note)
    app.connect("html-page-context", add_switcher)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
