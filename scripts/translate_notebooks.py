"""The lessons in other languages, built from the English notebooks and gettext catalogs.

English is the source. A translator never edits a translated notebook: they translate the
entries of a catalog, and this script builds the notebook from the English one and the catalog,
then runs it, so its stored outputs come from a real run as the English lessons' do.

Files (``<stem>`` is the English file's name without its suffix, ``<lang>`` a folder of
``translations/``, such as ``ru`` or ``zh_CN``)::

    notebooks/<stem>.ipynb, notebooks/README.md        the English source
    translations/notebooks/<stem>.pot                  its template: every text to translate
    translations/<lang>/notebooks/<stem>.po            the translator's catalog
    notebooks/<lang>/<stem>.ipynb, .../README.md       built: never edit by hand

What is translated (one entry each): every block of Markdown prose (a heading, a paragraph, a
list item's paragraph, a table cell, an HTML block such as ``<summary>``), written as one line
however the English wraps it; and every comment of a code cell, as one line. Code, code spans,
LaTeX (but for words in ``\\text{...}``), stored outputs and what a program prints are not: a
block or comment with no English word outside code and formulas has no entry. A translated
notebook's code cells are the English ones with their comments translated, plus one line after
the first ``import widgets``: ``widgets.set_language("<lang>")``, so the widgets speak the
lesson's language whatever the student's locale.

Commands, from the repository root::

    python scripts/translate_notebooks.py extract notebooks/04_accumulation_and_zeroing.ipynb
    python scripts/translate_notebooks.py extract           # every source that has a template
    python scripts/translate_notebooks.py update --lang ru  # templates -> the catalogs of ru
    python scripts/translate_notebooks.py build --all       # every language (make translations)
    python scripts/translate_notebooks.py check             # untranslated, fuzzy, stale?

(``python`` is the venv's, ``.venv/bin/python``.)

``update`` merges each template into the language's catalogs as ``msgmerge`` does (with
Babel): a new text gets an empty entry, a changed one keeps its old translation marked
``fuzzy`` (with the old English as ``#| msgid``), a removed one becomes obsolete (``#~``). An
entry that is empty or fuzzy is shown in English in the built notebook, and ``check`` (and the
test suite) fails until it is translated. ``build`` runs a notebook only when its cells or
catalog changed (``--force`` runs it anyway); ``--no-execute`` writes the cells with no
outputs (``check`` then says it was not run).
"""

from __future__ import annotations

import argparse
import copy
import io
import os
import re
import sys
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
from babel.messages.catalog import Catalog
from babel.messages.pofile import normalize, read_po, unescape, write_po
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TRANSLATIONS = ROOT / "translations"
TEMPLATES = TRANSLATIONS / "notebooks"
PROJECT = "minigrad lessons"
GUIDE = "see docs/translating_lessons.md"
HEADER = """\
# The texts of a minigrad lesson to translate, from scripts/translate_notebooks.py extract.
# Do not edit: translate translations/<lang>/notebooks/<this name>.po (docs/translating_lessons.md).
# A location's number is a notebook's cell (from 1) or a Markdown page's line."""

# A text needs translating when an English word is left once code and formulas are removed.
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+?\$", re.DOTALL)
TEXT_IN_MATH = re.compile(r"\\text\{([^{}]*)\}")
LINK_TARGET = re.compile(r"\]\(([^)\s]*)\)")
HTML_TAG = re.compile(r"<[^>]+>")
WHOLE_LINK = re.compile(r"^\[([^\[\]]+)\]\(([^()\s]+)\)$")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
# Comments that are instructions to a tool, not prose: never translated.
PRAGMA = re.compile(r"^(noqa|type:|fmt:|pragma|ruff:|isort:)")
# A translated lesson tells the widgets its language after the imports that bring them in.
IMPORT = re.compile(r"^(?:import|from) ")
WIDGETS_IMPORT = re.compile(r"^(?:import widgets\b|from widgets(?:\.\w+)* import )")
PLAIN_WIDGETS_IMPORT = re.compile(r"^import widgets\b")
ADDED_IMPORT = "import widgets"
LANGUAGE_GAP = "\n\n"


def prose_of(text: str) -> str:
    """What a reader reads as words in ``text``: without code spans, link targets, HTML tags
    and formulas, but with the words of a formula's ``\\text{...}``.

    >>> prose_of("at $x = 2$, `x.grad` is $\\\\text{twice } y$; [see](01_gradients.ipynb)")
    'at   ,   is  twice  ; [see]'
    """
    text = CODE_SPAN.sub(" ", text)
    text = MATH.sub(lambda formula: " " + " ".join(TEXT_IN_MATH.findall(formula[0])) + " ", text)
    text = LINK_TARGET.sub("]", text)
    return HTML_TAG.sub(" ", text)


def needs_translation(text: str) -> bool:
    """Whether ``text`` holds an English word outside code and formulas.

    >>> needs_translation("$$z = x^2 \\\\qquad \\\\text{at } x = 2$$"), needs_translation("`a + b`")
    (True, False)
    """
    return bool(ENGLISH_WORD.search(prose_of(text)))


# --------------------------------------------------------------------------- Markdown


@dataclass(frozen=True)
class Block:
    """One translatable block of a Markdown text: lines ``first`` to ``last`` (excluded) of
    the text hold it, and ``text`` is its entry in the catalog. ``cells`` is set for a table
    row: the text of each cell (a row's entries are its cells)."""

    first: int
    last: int
    text: str
    kind: str  # "paragraph", "heading", "html" or "table row"
    cells: tuple[str, ...] = ()
    lead: str = ""  # the start of its first line after any list marker or heading's #


PARSER = MarkdownIt("commonmark").enable("table")


def one_line(content: str) -> str:
    """A block's text as a catalog entry: its lines joined by spaces, as Markdown reads them.

    >>> one_line("the chain rule\\n   read off each step")
    'the chain rule read off each step'
    """
    return re.sub(r"[ \t]*\n[ \t]*", " ", content.strip())


def markdown_blocks(markdown: str) -> list[Block]:
    """The blocks of ``markdown`` a translator sees, in reading order.

    >>> markdown = "# Title\\n\\n1. first\\n   item\\n\\n| node | `b` |\\n|---|---|\\n"
    >>> [block_entries(block) for block in markdown_blocks(markdown)]
    [['Title'], ['first item'], ['node']]
    """
    tokens = PARSER.parse(markdown)
    blocks = []
    row_map, row_cells = None, []
    for index, token in enumerate(tokens):
        if token.type == "tr_open":
            row_map, row_cells = token.map, []
        elif token.type == "tr_close":
            texts = tuple(row_cells)
            if any(needs_translation(cell) for cell in texts):
                blocks.append(Block(row_map[0], row_map[1], "", "table row", texts))
        elif token.type == "html_block" and needs_translation(token.content):
            blocks.append(Block(token.map[0], token.map[1], token.content.strip("\n"), "html"))
        elif token.type != "inline":
            pass
        elif tokens[index - 1].type in ("th_open", "td_open"):
            row_cells.append(token.content.strip())
        elif tokens[index - 1].type in ("paragraph_open", "heading_open"):
            opening = tokens[index - 1]
            kind = "heading" if opening.type == "heading_open" else "paragraph"
            first, last = opening.map
            if kind == "heading" and opening.markup in ("=", "-"):
                last -= 1  # a setext heading's underline stays as it is
            text = one_line(token.content)
            if needs_translation(text):
                lead = token.content.strip().split("\n")[0][:20]
                blocks.append(Block(first, last, text, kind, lead=lead))
        if token.type == "table_close":
            row_map = None
    return blocks


def cell_entry(cell: str) -> str:
    """A table cell's entry: the cell, or the words of a cell that is one link, so that a
    column of links with the same words (``[exercises](01/...)``, ...) is one entry.

    >>> cell_entry("[exercises](exercises/01_gradients/01_gradients.ipynb)"), cell_entry("a `b`")
    ('exercises', 'a `b`')
    """
    link = WHOLE_LINK.match(cell)
    return link[1] if link else cell


def translate_cell(cell: str, translate: Callable[[str], str]) -> str:
    """A table cell translated, keeping the target of a cell that is one link."""
    link = WHOLE_LINK.match(cell)
    return f"[{translate(link[1])}]({link[2]})" if link else translate(cell)


def block_entries(block: Block) -> list[str]:
    """The catalog entries of a block: its text, or each of a table row's cells that has words."""
    if block.kind == "table row":
        return [cell_entry(cell) for cell in block.cells if needs_translation(cell)]
    return [block.text]


def continuation_indent(first_prefix: str) -> str:
    """The indentation of a block's next lines, from its first line's prefix: a list marker
    becomes spaces, a block quote's ``>`` stays.

    >>> continuation_indent("12. "), continuation_indent("> - ")
    ('    ', '>   ')
    """
    return re.sub(r"[-*+](?= )|\d+[.)](?= )", lambda marker: " " * len(marker[0]), first_prefix)


def replace_block(lines: list[str], block: Block, translate: Callable[[str], str]) -> list[str]:
    """The lines that stand for ``block`` once translated (the original lines when nothing
    in it is translated)."""
    original = lines[block.first : block.last]
    if block.kind == "table row":
        cells = [
            translate_cell(cell, translate) if needs_translation(cell) else cell
            for cell in block.cells
        ]
        if cells == list(block.cells):
            return original
        return ["| " + " | ".join(one_line(cell) for cell in cells) + " |"]
    translated = translate(block.text)
    if translated == block.text:
        return original
    if block.kind == "html":
        return translated.split("\n")
    if block.kind == "heading":
        translated = one_line(translated)
    prefix = original[0][: original[0].index(block.lead)]
    rest = continuation_indent(prefix)
    if len(original) > 1:
        second = original[1]
        rest = second[: len(second) - len(second.lstrip(" >"))]
    new_lines = translated.split("\n")
    return [prefix + new_lines[0], *(rest + line for line in new_lines[1:])]


def translate_markdown(markdown: str, translate: Callable[[str], str]) -> str:
    """``markdown`` with each block replaced by ``translate(block text)``; everything else
    (code blocks, formulas on their own, blank lines) as it was.

    >>> german = {"Two": "Zwei", "Some `x` text.": "Ein `x`."}
    >>> translate_markdown("## Two\\n\\nSome `x`\\ntext.\\n", german.get)
    '## Zwei\\n\\nEin `x`.\\n'
    """

    def translated(text: str) -> str:
        return translate(text) or text  # no translation (None or ""): the English text

    lines = markdown.split("\n")
    for block in reversed(markdown_blocks(markdown)):  # from the end: line numbers stay right
        lines[block.first : block.last] = replace_block(lines, block, translated)
    return "\n".join(lines)


# --------------------------------------------------------------------------- code comments


def comments(code: str) -> Iterator[tuple[int, int, str]]:
    """``(line index, column, text)`` of each comment of ``code`` that is prose. Code that
    Python cannot tokenize (a cell magic) has none.

    >>> list(comments("x = 1  # one\\n# noqa: E501\\n"))
    [(0, 7, 'one')]
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return
    for token in tokens:
        if token.type == tokenize.COMMENT:
            text = token.string[1:].strip()
            if not PRAGMA.match(text) and needs_translation(text):
                yield token.start[0] - 1, token.start[1], text


def translate_comments(code: str, translate: Callable[[str], str]) -> str:
    """``code`` with each prose comment translated (on one line), and nothing else changed.

    >>> translate_comments("x = 1  # one\\n", {"one": "eins"}.get)
    'x = 1  # eins\\n'
    """
    lines = code.split("\n")
    for line, column, text in comments(code):
        translated = translate(text) or text
        if translated != text:
            lines[line] = lines[line][:column] + "# " + one_line(translated)
    return "\n".join(lines)


def set_language_line(lang: str) -> str:
    """The line a translated lesson runs after ``import widgets``.

    >>> set_language_line("ru")
    'widgets.set_language("ru")'
    """
    return f'widgets.set_language("{lang}")'


def with_widget_language(code: str, lang: str) -> str:
    """``code`` with ``widgets.set_language(lang)`` after the block of imports that holds its
    first import of ``widgets`` (and a blank line, as the imports' style wants). A block that
    only imports names from ``widgets`` gets ``import widgets`` too, where import sorting puts
    it: just before the first ``from widgets import``.

    >>> with_widget_language("import widgets\\nimport numpy\\n\\nx = 1", "ru")
    'import widgets\\nimport numpy\\n\\nwidgets.set_language("ru")\\n\\nx = 1'
    >>> with_widget_language("import math\\nfrom widgets import draw", "ru")
    'import math\\nimport widgets\\nfrom widgets import draw\\n\\nwidgets.set_language("ru")'
    """
    lines = code.split("\n")
    first = next((i for i, line in enumerate(lines) if WIDGETS_IMPORT.match(line)), None)
    if first is None:
        return code
    start = end = first
    while start > 0 and IMPORT.match(lines[start - 1]):
        start -= 1
    while end + 1 < len(lines) and IMPORT.match(lines[end + 1]):
        end += 1
    if not any(PLAIN_WIDGETS_IMPORT.match(line) for line in lines[start : end + 1]):
        lines.insert(first, ADDED_IMPORT)
        end += 1
    lines[end] += LANGUAGE_GAP + set_language_line(lang)
    return "\n".join(lines)


def without_widget_language(code: str, lang: str) -> str:
    """``code`` as it was before :func:`with_widget_language` (for code whose block of imports
    did not already hold ``import widgets`` just before a ``from widgets import``, which no
    lesson does: undoing cannot tell that one from the line the build adds).

    >>> without_widget_language(with_widget_language("import widgets\\nx = 1", "ru"), "ru")
    'import widgets\\nx = 1'
    >>> without_widget_language(with_widget_language("from widgets import draw", "ru"), "ru")
    'from widgets import draw'
    """
    code = code.replace(LANGUAGE_GAP + set_language_line(lang), "", 1)
    return code.replace(ADDED_IMPORT + "\nfrom widgets", "from widgets", 1)


# --------------------------------------------------------------------------- catalogs


@dataclass(frozen=True)
class Entry:
    """One text to translate, where it is and what kind of text it is."""

    text: str
    line: int  # a notebook's cell number (from 1), or a Markdown file's line (from 1)
    note: str


def notebook_entries(nb: nbformat.NotebookNode) -> list[Entry]:
    """Every text of a notebook to translate, in reading order."""
    entries = []
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type == "markdown":
            for block in markdown_blocks(cell.source):
                for text in block_entries(block):
                    entries.append(Entry(text, number, f"cell {number}, Markdown {block.kind}"))
        elif cell.cell_type == "code":
            for _, _, text in comments(cell.source):
                note = f"cell {number}, a comment in code: one line, no Markdown"
                entries.append(Entry(text, number, note))
    return entries


def markdown_entries(markdown: str) -> list[Entry]:
    """Every text of a Markdown page to translate, in reading order."""
    return [
        Entry(text, block.first + 1, f"line {block.first + 1}, Markdown {block.kind}")
        for block in markdown_blocks(markdown)
        for text in block_entries(block)
    ]


def source_entries(source: Path) -> list[Entry]:
    if source.suffix == ".ipynb":
        return notebook_entries(nbformat.read(source, as_version=4))
    return markdown_entries(source.read_text(encoding="utf-8"))


def template_for(source: Path) -> Catalog:
    """The template (``.pot``) of an English notebook or Markdown page."""
    catalog = Catalog(project=PROJECT, fuzzy=False, header_comment=HEADER)
    where = source.relative_to(ROOT).as_posix()
    for entry in source_entries(source):
        catalog.add(entry.text, locations=[(where, entry.line)], auto_comments=[entry.note])
    return catalog


def messages(catalog: Catalog) -> list[tuple]:
    """What a catalog says, without its header (whose dates change on every write)."""
    return [
        (m.id, m.string or "", tuple(m.locations), tuple(m.auto_comments), "fuzzy" in m.flags)
        for m in catalog
        if m.id
    ]


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        # Babel reads ``#| msgid`` lines as a translator's comments: take them back as the
        # former English of an entry still fuzzy, and drop them from one no longer fuzzy.
        previous = [line[1:].strip() for line in message.user_comments if line.startswith("|")]
        if not previous:
            continue
        message.user_comments = [line for line in message.user_comments if not line.startswith("|")]
        quoted = " ".join(previous).removeprefix("msgid").strip()
        former = "".join(unescape(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', quoted))
        message.previous_id = [former] if "fuzzy" in message.flags else []
    return catalog


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    for message in catalog:
        # Babel guesses Python format strings from braces and %; LaTeX has both, and no entry
        # here is ever formatted, so the guess would only mislead a translator's tools.
        message.flags -= {"python-format", "python-brace-format"}
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=CATALOG_WIDTH)
    path.write_bytes(with_previous_ids(buffer.getvalue().decode(), catalog).encode())


CATALOG_WIDTH = 100


def with_previous_ids(text: str, catalog: Catalog) -> str:
    """The catalog's text with each fuzzy entry's former English as ``#| msgid`` lines, which
    show a translator what changed. Babel's ``include_previous`` folds a long former English
    into comment lines that are not PO (GNU gettext, Poedit and polib reject the file), so the
    lines are written here, as gettext's ``msgmerge`` writes them."""
    for message in catalog:
        if not message.id or not message.previous_id or "fuzzy" not in message.flags:
            continue
        entry = f"\nmsgid {normalize(message.id, width=CATALOG_WIDTH)}\n"
        previous = (
            f"\n#| msgid {normalize(message.previous_id[0], prefix='#| ', width=CATALOG_WIDTH)}"
        )
        assert text.count(entry) == 1, message.id
        text = text.replace(entry, previous + entry)
    return text


def template_path(source: Path) -> Path:
    return TEMPLATES / f"{source.stem}.pot"


def catalog_path(lang: str, stem: str) -> Path:
    return TRANSLATIONS / lang / "notebooks" / f"{stem}.po"


def source_of(stem: str) -> Path:
    """The English file a template or catalog ``stem`` translates."""
    for suffix in (".ipynb", ".md"):
        if (NOTEBOOKS / f"{stem}{suffix}").exists():
            return NOTEBOOKS / f"{stem}{suffix}"
    raise SystemExit(f"error: no English notebooks/{stem}.ipynb or .md for its catalog")


def translated_sources() -> list[Path]:
    """Every English file that has a template."""
    return [source_of(pot.stem) for pot in sorted(TEMPLATES.glob("*.pot"))]


def languages() -> list[str]:
    """The languages with lesson catalogs: the folders ``translations/<lang>/notebooks``."""
    return sorted(path.parent.name for path in TRANSLATIONS.glob("*/notebooks") if path.is_dir())


def translations(catalog: Catalog) -> dict[str, str]:
    """The finished translations of a catalog: not empty, not fuzzy."""
    return {m.id: m.string for m in catalog if m.id and m.string and "fuzzy" not in m.flags}


def unfinished(catalog: Catalog) -> list[str]:
    """The entries of a catalog that a built file shows in English: empty or fuzzy."""
    return [m.id for m in catalog if m.id and (not m.string or "fuzzy" in m.flags)]


# --------------------------------------------------------------------------- building


def output_path(source: Path, lang: str) -> Path:
    return NOTEBOOKS / lang / source.name


def is_translated(stem: str, lang: str) -> bool:
    """True when ``lang`` has a catalog for ``stem`` with every entry translated and none fuzzy
    (a catalog being filled must not send readers to a half-English lesson)."""
    path = catalog_path(lang, stem)
    return path.exists() and not unfinished(read_catalog(path))


def is_exercise_set_translated(name: str, lang: str) -> bool:
    """True when exercise set ``name`` has a finished catalog in ``lang`` and is released
    there (``notebooks/<lang>/exercises/<name>/<name>.ipynb``); a set not started in a language
    has no catalog (docs/translating_exercises.md)."""
    path = TRANSLATIONS / lang / "exercises" / f"{name}.po"
    released = NOTEBOOKS / lang / "exercises" / name / f"{name}.ipynb"
    return path.exists() and released.exists() and not unfinished(read_catalog(path))


def link_target(target: str, source: Path, lang: str) -> str:
    """Where a relative link of an English file points from its translation: a lesson whose
    catalog in ``lang`` is finished to the translated lesson beside it, an exercise set released
    in ``lang`` from a finished catalog (scripts/translate_exercises.py) to that release,
    anything else to the English file. A target with a scheme or an anchor only is left alone.

    >>> link_target("01_gradients.ipynb#top", NOTEBOOKS / "README.md", "xx")
    '../01_gradients.ipynb#top'
    >>> link_target("exercises/03_backward_step_by_step/03_backward_step_by_step.ipynb",
    ...             NOTEBOOKS / "README.md", "xx")
    '../exercises/03_backward_step_by_step/03_backward_step_by_step.ipynb'
    >>> link_target("https://pytorch.org", NOTEBOOKS / "README.md", "xx")
    'https://pytorch.org'
    """
    if not target or target.startswith(("#", "/")) or re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return target
    path, hash_, anchor = target.partition("#")
    english = (source.parent / path).resolve()
    is_lesson = english.suffix == ".ipynb" and english.parent == NOTEBOOKS
    if is_lesson and is_translated(english.stem, lang):
        english = output_path(english, lang)
    elif english.parent.parent == NOTEBOOKS / "exercises" and is_exercise_set_translated(
        english.stem, lang
    ):
        english = NOTEBOOKS / lang / english.relative_to(NOTEBOOKS)
    out_folder = output_path(source, lang).parent
    return Path(os.path.relpath(english, out_folder)).as_posix() + hash_ + anchor


def with_links_for(markdown: str, source: Path, lang: str) -> str:
    """``markdown`` (translated from ``source``) with its relative links pointing where the
    translated page is: see :func:`link_target`."""
    return LINK_TARGET.sub(lambda link: f"]({link_target(link[1], source, lang)})", markdown)


def built_markdown(source: Path, lang: str, catalog: Catalog) -> str:
    """The translated Markdown page, as ``build`` writes it."""
    done = translations(catalog)
    markdown = translate_markdown(source.read_text(encoding="utf-8"), done.get)
    return with_links_for(markdown, source, lang)


def built_notebook(source: Path, lang: str, catalog: Catalog) -> nbformat.NotebookNode:
    """The translated notebook's cells and metadata, as ``build`` writes them before running
    it (its outputs are still the English ones)."""
    done = translations(catalog)
    nb = copy.deepcopy(nbformat.read(source, as_version=4))
    widgets_told = False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = with_links_for(translate_markdown(cell.source, done.get), source, lang)
        elif cell.cell_type == "code":
            cell.source = translate_comments(cell.source, done.get)
            if not widgets_told and any(map(WIDGETS_IMPORT.match, cell.source.splitlines())):
                cell.source = with_widget_language(cell.source, lang)
                widgets_told = True
    nb.metadata.setdefault("minigrad", {})["language"] = lang
    return nb


def cells_of(nb: nbformat.NotebookNode) -> list[tuple[str, str, dict]]:
    """What ``build`` decides in a notebook: each cell's type, source and metadata."""
    return [(cell.cell_type, cell.source, dict(cell.metadata)) for cell in nb.cells]


def stale_reason(source: Path, lang: str) -> str | None:
    """Why the built translation of ``source`` is not what ``build`` would write now, or
    None when it is current."""
    built = output_path(source, lang)
    if not built.exists():
        return f"{built.relative_to(ROOT)} does not exist"
    catalog = read_catalog(catalog_path(lang, source.stem))
    if source.suffix == ".md":
        if built.read_text(encoding="utf-8") != built_markdown(source, lang, catalog):
            return f"{built.relative_to(ROOT)} differs from its source and catalog"
        return None
    stored = nbformat.read(built, as_version=4)
    wanted = built_notebook(source, lang, catalog)
    if cells_of(stored) != cells_of(wanted):
        return f"{built.relative_to(ROOT)}: its cells differ from its source and catalog"
    if stored.metadata.get("minigrad", {}).get("language") != lang:
        return f"{built.relative_to(ROOT)}: metadata minigrad.language is not {lang!r}"
    if any(cell.cell_type == "code" and cell.execution_count is None for cell in stored.cells):
        return f"{built.relative_to(ROOT)} has not been run"
    return None


def build(source: Path, lang: str, execute: bool, force: bool) -> None:
    catalog = read_catalog(catalog_path(lang, source.stem))
    built = output_path(source, lang)
    built.parent.mkdir(parents=True, exist_ok=True)
    missing = unfinished(catalog)
    if missing:
        print(f"  {len(missing)} entries not translated: shown in English", file=sys.stderr)
    if source.suffix == ".md":
        built.write_text(built_markdown(source, lang, catalog), encoding="utf-8")
        return
    if not force and stale_reason(source, lang) is None:
        print("  current, not run again (--force runs it)")
        return
    nb = built_notebook(source, lang, catalog)
    if not execute:
        # The English outputs would pass for this notebook's own: store none, so that the
        # notebook counts as not run (stale_reason) until a build runs it.
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nb.metadata.pop("widgets", None)
    nbformat.write(nb, built)
    if execute:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from execute_notebooks import execute_in_place  # the English lessons' runner

        execute_in_place(built)


# --------------------------------------------------------------------------- commands


def extract(sources: list[Path]) -> None:
    for source in sources or translated_sources():
        source = source.resolve()
        template = template_for(source)
        pot = template_path(source)
        if pot.exists() and messages(read_catalog(pot)) == messages(template):
            print(f"{pot.relative_to(ROOT)}: current")
            continue
        write_catalog(template, pot)
        print(f"{pot.relative_to(ROOT)}: {len(messages(template))} entries")


def update(langs: list[str]) -> None:
    for pot in sorted(TEMPLATES.glob("*.pot")):
        template = read_catalog(pot)
        for lang in langs:
            path = catalog_path(lang, pot.stem)
            if path.exists():
                catalog = read_catalog(path)
            else:
                catalog = Catalog(
                    locale=lang,
                    project=PROJECT,
                    fuzzy=False,
                    header_comment=f"# {lang} translation of a minigrad lesson: {GUIDE}.",
                )
            catalog.update(template)
            write_catalog(catalog, path)
            left = unfinished(catalog)
            print(f"{path.relative_to(ROOT)}: {len(left)} of {len(messages(catalog))} to do")


def check(langs: list[str]) -> list[str]:
    """Everything that keeps the translations from being finished and current."""
    problems = []
    for source in translated_sources():
        if messages(read_catalog(template_path(source))) != messages(template_for(source)):
            problems.append(f"{template_path(source).relative_to(ROOT)} is out of date: extract")
        for lang in langs:
            path = catalog_path(lang, source.stem)
            if not path.exists():
                continue
            for text in unfinished(read_catalog(path)):
                problems.append(f"{path.relative_to(ROOT)}: untranslated or fuzzy: {text[:60]!r}")
            reason = stale_reason(source, lang)
            if reason:
                problems.append(f"{reason}: build")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    extract_parser = commands.add_parser("extract", help="English source -> template (.pot)")
    extract_parser.add_argument("sources", nargs="*", type=Path)
    for name, text in (
        ("update", "templates -> catalogs"),
        ("build", "catalogs -> notebooks"),
        ("check", "what is not done"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("--lang", action="append", help="a language (default: every one)")
        command.add_argument("--all", action="store_true", help="every language (the default)")
        if name == "build":
            command.add_argument("--no-execute", action="store_true", help="do not run them")
            command.add_argument("--force", action="store_true", help="run even when current")
            command.add_argument(
                "lessons",
                nargs="*",
                help="only these, by name or path: 04_accumulation_and_zeroing, README, "
                "notebooks/04_accumulation_and_zeroing.ipynb",
            )
    args = parser.parse_args(argv)

    if args.command == "extract":
        extract(args.sources)
        return 0
    langs = args.lang or languages()
    if args.command == "update":
        update(langs)
    elif args.command == "build":
        # A lesson may be named as a path or a bare name; one that is not translated is an
        # error, not a build that silently does nothing.
        stems = {Path(name).stem for name in args.lessons}
        known = {source.stem for source in translated_sources()}
        if unknown := sorted(stems - known):
            print(f"not a translated lesson: {', '.join(unknown)}", file=sys.stderr)
            return 2
        for lang in langs:
            for source in translated_sources():
                wanted = not stems or source.stem in stems
                if wanted and catalog_path(lang, source.stem).exists():
                    print(f"building {output_path(source, lang).relative_to(ROOT)} ...")
                    build(source, lang, execute=not args.no_execute, force=args.force)
        print("then refresh what make lab trusts: scripts/trusted_notebooks.py refresh")
    else:
        problems = check(langs)
        print("\n".join(problems) or "every translation is finished and current")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
