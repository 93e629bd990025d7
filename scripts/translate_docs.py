"""The documentation site in Russian and Chinese, built from the English pages and gettext catalogs.

English is the source; a translated page is never written by hand. Sphinx's gettext builder
extracts the text of each English page into a template, ``sphinx-intl update`` merges it into
the page's catalog in each language, and the site is built once more per language with
``-D language=<lang>``: Sphinx shows each paragraph in the catalog's translation. Files::

    docs/<page>.md                                   the English page
    docs/_build/gettext/<page>.pot                   its template (made by ``extract``)
    docs/locale/<lang>/LC_MESSAGES/<page>.po         the translator's catalog (committed)
    docs/_build/html/<lang>/                         the site in <lang> (``build``)

Only the pages a student or teacher reads have catalogs. The API reference and the developer
pages stay English in every language (``site_languages.ENGLISH_ONLY``): they get no template.
A page is *not started* in a language until its catalog exists (``start`` creates it), and the
site then shows the English page with a note in that language; ``update`` and ``check`` see
only started pages, so a page can wait for a later round without failing the tests, but once
started it must be finished.

Commands, from the repository root (``python`` is ``.venv/bin/python``)::

    python scripts/translate_docs.py all              # extract, update, build: what make docs runs
    python scripts/translate_docs.py extract          # English pages -> templates
    python scripts/translate_docs.py update           # templates -> started catalogs (sphinx-intl)
    python scripts/translate_docs.py start teachers --lang ru   # a new page's catalog, empty
    python scripts/translate_docs.py build --lang ru  # the Russian site, warnings as errors
    python scripts/translate_docs.py check            # untranslated, fuzzy or stale entries

``update`` leaves a catalog untouched when its page's texts did not change; a changed text
arrives marked ``fuzzy`` with its former translation as a suggestion, a new one empty, and
``check`` (and ``tests/test_docs_translations.py``) fails until a translator has seen them.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
TEMPLATES = BUILD / "gettext"
sys.path.insert(0, str(DOCS / "_ext"))

sys.path.insert(0, str(ROOT / "scripts"))

import site_languages  # noqa: E402 - docs/_ext, put on the path above
from babel.messages.pofile import read_po, write_po  # noqa: E402
from markdown_it import MarkdownIt  # noqa: E402
from translate_exercises import NBGRADER_MARKER  # noqa: E402 - the exercise sets' rule
from translate_notebooks import ENGLISH_WORD, needs_translation  # noqa: E402 - the lessons' rule

TRANSLATED_LANGUAGES = [lang for lang in site_languages.LANGUAGES if lang != "en"]


def translatable_pages() -> list[str]:
    """Every page a student or teacher reads, by docname: the Markdown pages that are not
    English only. (The lessons are translated by their own catalogs.)

    >>> "quickstart" in translatable_pages(), "architecture" in translatable_pages()
    (True, False)
    """
    pages = [path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.rglob("*.md")]
    return sorted(
        page
        for page in pages
        if not page.startswith(("_", "lessons/")) and not site_languages.is_english_only(page)
    )


def started_pages(lang: str) -> list[str]:
    """The pages that have a catalog in ``lang``."""
    return [
        page for page in translatable_pages() if site_languages.catalog_path(page, lang).is_file()
    ]


def sphinx(*args: str) -> None:
    """Run sphinx-build with this Python; stop on failure."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "sphinx", *args], check=True)
    print(f"  ({time.monotonic() - started:.0f} s)")


# The lessons' page lists the lessons with toctree globs; a glob that matches nothing is a
# warning Sphinx cannot silence, so the extraction reads the first lesson and its exercise set
# too (their templates are not used: the lessons have catalogs of their own).
ONE_LESSON = ["lessons/01_*.ipynb", "lessons/exercises/01_*/01_*.ipynb"]


def extract() -> None:
    """Write a template for each translatable page into docs/_build/gettext. Only those pages
    are read (the lessons and the API reference are not), so the references they make to
    other pages cannot be resolved here: those warnings are silenced in this build only; the
    HTML builds check every reference."""
    shutil.rmtree(TEMPLATES, ignore_errors=True)
    print("extracting the templates of", ", ".join(translatable_pages()))
    sphinx(
        "-q",
        "-b",
        "gettext",
        "-D",
        "include_patterns="
        + ",".join([*(f"{page}.md" for page in translatable_pages()), *ONE_LESSON]),
        "-D",
        "suppress_warnings=toc.not_readable,ref.doc,ref.ref,myst.xref_missing",
        "-D",
        "gettext_additional_targets=literal-block",  # code blocks: site_languages.py
        "-d",
        str(BUILD / "doctrees" / "gettext"),
        str(DOCS),
        str(TEMPLATES),
    )
    for page in translatable_pages():
        keep_what_needs_translation(TEMPLATES / f"{page}.pot", page)


# A word of a comment that is code, not English: it holds a bracket, an operator, a dot...
CODE_WORD = re.compile(r"\S*[()\[\]{}=<>_./*²`'\"]\S*")
COMMENT = re.compile(r"(?:^|\s)#\s?(.*)$")


def comment_words(code: str) -> str:
    """The words of a code block's comments that are prose, not printed values. nbgrader's
    markers are instructions to nbgrader that must stay as they are, as in the exercise sets.

    >>> comment_words("print(x.grad)     # tensor(4.): dy/dx = 2x at x = 2")
    '2x at x  2'
    >>> comment_words("print(t.grad)     # tensor([2., 4., 6.])")
    ''
    >>> comment_words("### BEGIN SOLUTION\\nslope = 8.0\\n### END SOLUTION")
    ''
    """
    comments = [
        match[1]
        for line in code.splitlines()
        if (match := COMMENT.search(line)) and not NBGRADER_MARKER.match(match[1])
    ]
    return CODE_WORD.sub("", " ".join(comments)).strip()


def code_blocks(page: str) -> set[str]:
    """The code blocks of an English page, as Sphinx's templates hold them."""
    tokens = MarkdownIt("commonmark").parse((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    fences = [token for token in tokens if token.type == "fence"]
    return {fence.content for fence in fences if not fence.info.startswith("{")}


def keep_what_needs_translation(template: Path, page: str) -> None:
    """Drop the entries with nothing to translate, by the lessons' rule: text with no English
    word outside code and formulas (a table cell that is ``tensor(4.)``), and code blocks whose
    comments have no English word (``# tensor([2., 4., 6.])``). The page shows them as they
    are. A code block that stays is translated as a lesson's code is: its comments only."""
    with template.open("rb") as file:
        catalog = read_po(file)
    blocks = code_blocks(page)
    for message in list(catalog):
        if not message.id:
            continue
        if message.id in blocks:
            has_words = ENGLISH_WORD.search(comment_words(message.id))
        else:
            has_words = needs_translation(message.id)
        if not has_words:
            del catalog[message.id]
    with template.open("wb") as file:
        write_po(file, catalog, width=76)


def run_sphinx_intl(pages: list[str], lang: str) -> None:
    """``sphinx-intl update`` for these pages only: it merges every template of the folder it
    is given, so it gets a folder holding just theirs."""
    with tempfile.TemporaryDirectory() as folder:
        for page in pages:
            template = TEMPLATES / f"{page}.pot"
            if not template.is_file():
                raise SystemExit(f"error: no template for {page}: run extract first")
            (Path(folder) / template.name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(template, Path(folder) / f"{page}.pot")
        subprocess.run(
            [sys.executable, "-m", "sphinx_intl", "update", "-p", folder]
            + ["-d", str(site_languages.LOCALE), "-l", lang, "-j", "1"],
            check=True,
        )


def update(langs: list[str]) -> None:
    for lang in langs:
        pages = started_pages(lang)
        if pages:
            run_sphinx_intl(pages, lang)


def start(page: str, langs: list[str]) -> None:
    if page not in translatable_pages():
        raise SystemExit(f"error: {page} is not a page to translate: {translatable_pages()}")
    for lang in langs:
        run_sphinx_intl([page], lang)


def build(langs: list[str]) -> None:
    """Each language's site into docs/_build/html/<lang>, warnings as errors, with doctrees
    of its own (a language's doctrees hold its translated text), so a second build re-reads
    only what changed."""
    environment_ok = os.environ.get("MINIGRAD_WIDGET_JS") and os.environ.get("MINIGRAD_MATHJAX")
    if not environment_ok:
        print("note: MINIGRAD_WIDGET_JS/MINIGRAD_MATHJAX unset, conf.py looks in .venv/share")
    for lang in langs:
        print(f"building the {site_languages.LANGUAGES[lang]} site into docs/_build/html/{lang}")
        sphinx(
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-D",
            f"language={lang}",
            "-d",
            str(BUILD / "doctrees" / lang),
            str(DOCS),
            str(BUILD / "html" / lang),
        )


def catalog_ids(path: Path) -> set[str]:
    with path.open("rb") as file:
        return {message.id for message in read_po(file) if message.id}


def shown(path: Path) -> str:
    """A path as the messages show it: from the repository root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def check(langs: list[str]) -> list[str]:
    """What keeps the started pages from being finished and current (templates must have been
    extracted), and which pages are not started (not a problem: printed, not returned)."""
    problems = []
    for lang in langs:
        for page in translatable_pages():
            catalog = site_languages.catalog_path(page, lang)
            if not catalog.is_file():
                print(f"not started: {lang} {page}")
                continue
            for text in site_languages.unfinished_entries(catalog):
                problems.append(f"{shown(catalog)}: untranslated or fuzzy: {text[:60]!r}")
            template = TEMPLATES / f"{page}.pot"
            if template.is_file() and catalog_ids(template) != catalog_ids(catalog):
                problems.append(f"{shown(catalog)} is out of date: update")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("all", "extract, update and build every language (make docs)"),
        ("extract", "English pages -> templates"),
        ("update", "templates -> the started catalogs"),
        ("start", "a page's first catalog"),
        ("build", "catalogs -> the site of each language"),
        ("check", "what is not done"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("--lang", action="append", choices=TRANSLATED_LANGUAGES)
        if name == "start":
            command.add_argument("page", help="a docname, such as teachers")
    args = parser.parse_args(argv)
    langs = args.lang or TRANSLATED_LANGUAGES
    if args.command in ("all", "extract", "check"):
        extract()
    if args.command in ("all", "update"):
        update(langs)
    if args.command == "start":
        start(args.page, langs)
    if args.command in ("all", "check"):
        # make docs builds a half-translated site (the English shows where a translation is
        # missing); the check and the tests fail on it.
        problems = check(langs)
        print("\n".join(problems) or "every started page is translated and current")
        if problems and args.command == "check":
            return 1
    if args.command in ("all", "build"):
        build(langs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
