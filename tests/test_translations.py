"""The translated lessons are finished, current, in their language, and run the English code.

English is the source; ``scripts/translate_notebooks.py`` builds ``notebooks/<lang>/`` from it
and the catalogs in ``translations/``. These tests fail when:

* a catalog has an empty or fuzzy entry (an English edit that nobody has translated yet);
* a template no longer matches its English notebook (``extract`` was not run);
* a built notebook or page is not what its source and catalog give today (``build`` was not
  run), or a built notebook names a language other than its folder's;
* the prose of a translated Markdown cell is not in the language's script (an entry copied
  from English, or a Markdown block the tool did not see);
* a translated code cell differs from the English one in anything but its comments and the
  one ``widgets.set_language`` line;
* a translation breaks the typography of its language (docs/translating_lessons.md).

That every translated lesson runs and prints what it stores is nbval's part: ``make test``
runs ``pytest --nbval`` over ``notebooks/``, translated folders included.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import nbformat
import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "translate_notebooks.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("translate_notebooks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["translate_notebooks"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


tool = load_tool()
LANGUAGES = tool.languages()
SOURCES = tool.translated_sources()
PAIRS = [
    (lang, source)
    for lang in LANGUAGES
    for source in SOURCES
    if tool.catalog_path(lang, source.stem).exists()
]
BUILT_NOTEBOOKS = [(lang, source) for lang, source in PAIRS if source.suffix == ".ipynb"]


def pair_id(pair) -> str:
    lang, source = pair
    return f"{lang}/{source.name}"


# --------------------------------------------------------------------------- what exists


def test_lesson_3_and_the_landing_page_exist_in_russian_and_chinese():
    assert {"ru", "zh_CN"} <= set(LANGUAGES)
    for lang in ("ru", "zh_CN"):
        for name in ("03_backward_step_by_step.ipynb", "README.md"):
            assert (ROOT / "notebooks" / lang / name).is_file(), f"{lang}/{name}"


def test_the_english_landing_page_links_to_the_translated_ones():
    readme = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    assert "](ru/README.md)" in readme and "](zh_CN/README.md)" in readme


# --------------------------------------------------------------------------- finished, current


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_every_entry_is_translated_and_none_is_fuzzy(pair):
    lang, source = pair
    path = tool.catalog_path(lang, source.stem)
    left = tool.unfinished(tool.read_catalog(path))
    assert not left, f"{path.relative_to(ROOT)}: translate (and unmark fuzzy): {left}"
    # The file as a translator's tool reads it (polib parses as GNU gettext does): the same
    # entries, and no former English left behind in comments.
    entries = [entry for entry in polib.pofile(str(path)) if not entry.obsolete]
    assert len(entries) == len([message for message in tool.read_catalog(path) if message.id])
    assert not [entry.msgid for entry in entries if "|" in entry.tcomment], "stale #| lines"


@pytest.mark.parametrize("source", SOURCES, ids=lambda source: source.name)
def test_the_template_is_extracted_from_the_current_english_source(source):
    stored = tool.messages(tool.read_catalog(tool.template_path(source)))
    assert stored == tool.messages(tool.template_for(source)), (
        f"run: python scripts/translate_notebooks.py extract {source.relative_to(ROOT)}, "
        "then update"
    )


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_built_file_is_what_its_source_and_catalog_give(pair):
    lang, source = pair
    reason = tool.stale_reason(source, lang)
    assert reason is None, f"{reason}; run: python scripts/translate_notebooks.py build"


@pytest.mark.parametrize("pair", BUILT_NOTEBOOKS, ids=pair_id)
def test_a_built_notebook_says_its_language_and_tells_the_widgets(pair):
    lang, source = pair
    nb = nbformat.read(tool.output_path(source, lang), as_version=4)
    assert nb.metadata["minigrad"]["language"] == lang
    english = nbformat.read(source, as_version=4)
    # The first cell that imports the widgets, as `import widgets` or `from widgets import`.
    importing = [
        i
        for i, cell in enumerate(english.cells)
        if cell.cell_type == "code" and re.search(r"^(import|from) widgets\b", cell.source, re.M)
    ]
    if importing:
        lines = nb.cells[importing[0]].source.splitlines()
        told = lines.index(f'widgets.set_language("{lang}")')
        assert lines[told - 1] == "" and "import widgets" in lines[:told], lines[: told + 1]


def tokens_without_comments(code: str) -> list[tuple[int, str]]:
    return [
        (token.type, token.string)
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type not in (tokenize.COMMENT, tokenize.NL)
    ]


def comment_lines(code: str) -> list[int]:
    return [
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    ]


@pytest.mark.parametrize("pair", BUILT_NOTEBOOKS, ids=pair_id)
def test_code_cells_are_the_english_ones_but_for_comments_and_the_language_line(pair):
    lang, source = pair
    english = nbformat.read(source, as_version=4).cells
    built = nbformat.read(tool.output_path(source, lang), as_version=4).cells
    assert [cell.cell_type for cell in built] == [cell.cell_type for cell in english]
    for number, (theirs, ours) in enumerate(zip(english, built), start=1):
        if theirs.cell_type != "code":
            continue
        code = tool.without_widget_language(ours.source, lang)
        assert tokens_without_comments(code) == tokens_without_comments(theirs.source), number
        assert comment_lines(code) == comment_lines(theirs.source), number
        assert ours.metadata == theirs.metadata, number


# --------------------------------------------------------------------------- in the language

IDENTIFIER = re.compile(r"\b\w*(?:_|\d|[a-z][A-Z])\w*\b")  # snake_case, CamelCase, x2
URL = re.compile(r"https?://\S+")
SCRIPT_LETTER = {"ru": re.compile(r"[\u0400-\u04ff]"), "zh_CN": re.compile(r"[\u4e00-\u9fff]")}
LATIN_LETTER = re.compile(r"[A-Za-z]")
# The least share of the language's own letters among all letters of a cell's prose. Measured
# on lesson 3 and the README when they were written: every Russian cell is at 0.94 or more
# (product names and English glosses such as "(chain rule)" are the rest), every Chinese cell
# at 0.82 or more. One untranslated English paragraph in an average cell (some 200 Latin
# letters beside 500 Cyrillic ones, or beside 170 Han characters, each of which carries a
# syllable) brings the share to 0.71 and 0.46, below these thresholds.
THRESHOLD = {"ru": 0.8, "zh_CN": 0.6}


def script_share(markdown: str, lang: str) -> float | None:
    """The share of ``lang``'s letters among the letters of ``markdown``'s prose: code spans,
    formulas (but for their ``\\text``), URLs, link targets, HTML tags and identifiers are not
    prose. None when nothing is left."""
    prose = IDENTIFIER.sub(" ", URL.sub(" ", tool.prose_of(markdown)))
    own, latin = len(SCRIPT_LETTER[lang].findall(prose)), len(LATIN_LETTER.findall(prose))
    return own / (own + latin) if own + latin else None


def markdown_parts(lang: str, source: Path) -> list[tuple[str, str]]:
    """A built file's Markdown in the parts the share is measured on: a notebook's Markdown
    cells, a page's sections (from one ``##`` heading to the next)."""
    built = tool.output_path(source, lang)
    if built.suffix == ".ipynb":
        cells = nbformat.read(built, as_version=4).cells
        return [
            (f"cell {number}", cell.source)
            for number, cell in enumerate(cells, start=1)
            if cell.cell_type == "markdown"
        ]
    sections = re.split(r"^(?=## )", built.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return [(section.splitlines()[0], section) for section in sections]


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_prose_of_every_markdown_cell_is_in_the_target_script(pair):
    lang, source = pair
    for where, markdown in markdown_parts(lang, source):
        share = script_share(markdown, lang)
        assert share is None or share >= THRESHOLD[lang], f"{where}: {share:.2f}\n{markdown}"


def test_the_script_share_tells_english_from_a_translation():
    english = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    assert script_share(english, "ru") < 0.05 and script_share(english, "zh_CN") < 0.05
    assert script_share("Градиент `x.grad` равен $2x$ (gradient).", "ru") == 13 / 21
    assert script_share("`x` 的梯度", "zh_CN") == 1.0
    assert script_share("`x.grad`, $x^2$", "ru") is None


# --------------------------------------------------------------------------- typography

HAN = r"[\u4e00-\u9fff]"
FULL_WIDTH = "，。：；？！（）、“”‘’"


def as_prose(text: str) -> str:
    """``text`` with each code span and formula as one Latin letter (they are spaced like
    Latin words) and link targets dropped."""
    text = tool.CODE_SPAN.sub("X", text)
    text = tool.MATH.sub("X", text)
    return tool.LINK_TARGET.sub("]", text)


def chinese_typography(text: str) -> list[str]:
    """What breaks the Chinese conventions of the glossary in one translated entry.

    >>> chinese_typography("用`backward()`计算,然后 。")
    ['no space between Han and Latin: 用X', 'no space between Han and Latin: X计', \
'ASCII punctuation next to Han: 算,', 'ASCII punctuation next to Han: ,然', \
'space next to full-width punctuation:  。']
    >>> chinese_typography("用 `backward()` 计算，然后（第 2 步）。")
    []
    """
    prose = as_prose(text)
    problems = []
    for pattern, what in (
        (rf"{HAN}[A-Za-z0-9]|[A-Za-z0-9]{HAN}", "no space between Han and Latin"),
        (rf"{HAN}[,.:;?!()]|[,.:;?!()]{HAN}", "ASCII punctuation next to Han"),
        (rf" [{FULL_WIDTH}]|[{FULL_WIDTH}] ", "space next to full-width punctuation"),
    ):
        overlapping = rf"(?=({pattern}))"
        problems += [f"{what}: {match}" for match in re.findall(overlapping, prose)]
    return problems


def russian_typography(text: str) -> list[str]:
    """What breaks the Russian conventions of the glossary in one translated entry.

    >>> russian_typography('Это "шаг" - и 0.5')
    ['straight quotes: "шаг"', 'hyphen for a dash:  - ', 'decimal point: 0.5']
    >>> russian_typography("Это «шаг» — и 0,5, как в PyTorch 2.13 и в `tensor(0.5)`")
    []
    """
    prose = re.sub(r"PyTorch \d+\.\d+", "PyTorch", tool.CODE_SPAN.sub("X", text))
    problems = [f"straight quotes: {match}" for match in re.findall(r'"[^"]*"', prose)]
    problems += [f"hyphen for a dash: {match}" for match in re.findall(r" - ", as_prose(prose))]
    problems += [f"decimal point: {match}" for match in re.findall(r"\d\.\d", prose)]
    return problems


TYPOGRAPHY = {"ru": russian_typography, "zh_CN": chinese_typography}


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_translations_follow_the_typography_of_their_language(pair):
    lang, source = pair
    catalog = tool.read_catalog(tool.catalog_path(lang, source.stem))
    problems = [
        f"{message.id[:50]!r}: {problem}"
        for message in catalog
        if message.id and message.string and not message.id.startswith("<")
        for problem in TYPOGRAPHY[lang](message.string)
    ]
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- the tool itself


@pytest.mark.parametrize("source", SOURCES, ids=lambda source: source.name)
def test_with_nothing_translated_a_build_gives_back_the_english_text(source):
    """The segmentation loses nothing: an empty catalog rebuilds the English exactly."""
    empty = tool.Catalog(locale="ru")
    if source.suffix == ".md":
        english = source.read_text(encoding="utf-8")
        assert tool.translate_markdown(english, empty.get) == english
        return
    built = tool.built_notebook(source, "xx", empty)
    for theirs, ours in zip(nbformat.read(source, as_version=4).cells, built.cells):
        assert tool.without_widget_language(ours.source, "xx") == theirs.source


def test_every_english_word_of_lesson_3_is_in_its_template_or_in_code():
    """The segmentation misses no prose: with each entry of the template replaced by a mark,
    no English word is left in a Markdown cell, but in code and formulas."""
    source = ROOT / "notebooks" / "03_backward_step_by_step.ipynb"
    texts = {message.id for message in tool.read_catalog(tool.template_path(source)) if message.id}
    for cell in nbformat.read(source, as_version=4).cells:
        if cell.cell_type == "markdown":
            marked = tool.translate_markdown(cell.source, lambda text: "…" if text in texts else "")
            assert not tool.needs_translation(marked), marked


def test_an_english_edit_makes_the_translation_fuzzy_and_the_build_stale(tmp_path, monkeypatch):
    """The whole cycle on a copy: extract, update, translate, build, then edit the English."""
    (tmp_path / "notebooks").mkdir()
    lesson = tmp_path / "notebooks" / "01_demo.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A lesson\n\nThe gradient of `x`\nis $2x$."),
        nbformat.v4.new_code_cell("import widgets\n\nx = 2  # the input"),
    ]
    nbformat.write(nb, lesson)
    for name, value in (
        ("ROOT", tmp_path),
        ("NOTEBOOKS", tmp_path / "notebooks"),
        ("TRANSLATIONS", tmp_path / "translations"),
        ("TEMPLATES", tmp_path / "translations" / "notebooks"),
    ):
        monkeypatch.setattr(tool, name, value)
    tool.extract([lesson])
    tool.update(["ru"])
    path = tool.catalog_path("ru", "01_demo")
    catalog = tool.read_catalog(path)
    assert [message.id for message in catalog if message.id] == [
        "A lesson",
        "The gradient of `x` is $2x$.",
        "the input",
    ]
    russian = {
        "A lesson": "Урок",
        "The gradient of `x` is $2x$.": "Градиент `x`\nравен $2x$.",
        "the input": "вход",
    }
    for message in catalog:
        if message.id:
            message.string = russian[message.id]
    tool.write_catalog(catalog, path)
    assert tool.check(["ru"]) == ["notebooks/ru/01_demo.ipynb does not exist: build"]

    tool.build(lesson, "ru", execute=False, force=False)
    built = nbformat.read(tool.output_path(lesson, "ru"), as_version=4)
    assert built.cells[0].source == "# Урок\n\nГрадиент `x`\nравен $2x$."
    assert built.cells[1].source == 'import widgets\n\nwidgets.set_language("ru")\n\nx = 2  # вход'
    assert built.metadata["minigrad"] == {"language": "ru"}
    assert built.cells[1].outputs == [] and "widgets" not in built.metadata  # not English ones
    assert tool.check(["ru"]) == ["notebooks/ru/01_demo.ipynb has not been run: build"]
    built.cells[1].execution_count = 1  # what running it (scripts/execute_notebooks.py) records
    nbformat.write(built, tool.output_path(lesson, "ru"))
    assert tool.check(["ru"]) == []

    nb.cells[0].source = "# A lesson\n\nThe gradient of `x`\nis $2\\,x$."
    nbformat.write(nb, lesson)
    assert tool.check(["ru"]) == [
        "translations/notebooks/01_demo.pot is out of date: extract",
        "notebooks/ru/01_demo.ipynb: its cells differ from its source and catalog: build",
    ]
    tool.extract([])
    tool.update(["ru"])
    catalog = tool.read_catalog(path)
    changed = catalog.get("The gradient of `x` is $2\\,x$.")
    assert changed.string == "Градиент `x`\nравен $2x$." and "fuzzy" in changed.flags
    assert "translations/ru/notebooks/01_demo.po: untranslated or fuzzy: " in tool.check(["ru"])[0]
    shutil.rmtree(tmp_path / "notebooks" / "ru")


def test_a_fuzzy_entry_keeps_its_former_english_in_a_file_gettext_reads(tmp_path):
    """A long former English (``#| msgid``) is written as gettext writes it, on lines that
    GNU gettext's tools and polib read back, not folded into comment text."""
    from babel.messages.catalog import Catalog

    before = "So every training loop starts with `optimizer.zero_grad()`; " * 4
    catalog = Catalog(locale="ru")
    catalog.add("A new sentence.", "Новое предложение.", flags={"fuzzy"}, previous_id=before)
    path = tmp_path / "demo.po"
    tool.write_catalog(catalog, path)
    (entry,) = polib.pofile(str(path))
    assert entry.previous_msgid == before and entry.fuzzy
    # Read back by the tool (whose Babel takes those lines for comments), it is the same entry;
    # once a translator has seen it, the former English goes.
    catalog = tool.read_catalog(path)
    message = catalog.get("A new sentence.")
    assert list(message.previous_id) == [before] and message.user_comments == []
    message.flags.discard("fuzzy")
    tool.write_catalog(catalog, path)
    assert "#|" not in path.read_text(encoding="utf-8")
    (entry,) = polib.pofile(str(path))
    assert entry.previous_msgid is None and not entry.fuzzy
    if shutil.which("msgfmt"):  # GNU gettext, where installed, agrees
        subprocess.run(["msgfmt", "--check-format", "-o", os.devnull, str(path)], check=True)


def test_links_of_a_translated_page_lead_to_the_translation_or_the_english_file():
    for lang in LANGUAGES:
        page = ROOT / "notebooks" / lang / "README.md"
        targets = tool.LINK_TARGET.findall(page.read_text(encoding="utf-8"))
        # A translated lesson links to its translation, any other to the English lesson.
        for lesson in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
            translated = (page.parent / lesson.name).exists()
            assert (lesson.name if translated else f"../{lesson.name}") in targets, lesson.name
        assert "03_backward_step_by_step.ipynb" in targets
        # An exercise set released in the language (scripts/translate_exercises.py) is linked
        # there, any other to the English set.
        for released in sorted((ROOT / "notebooks" / "exercises").glob("*/*.ipynb")):
            target = released.relative_to(ROOT / "notebooks").as_posix()
            translated = (page.parent / target).exists()
            assert (target if translated else f"../{target}") in targets, target
        assert "exercises/03_backward_step_by_step/03_backward_step_by_step.ipynb" in targets
        for target in targets:
            if "://" not in target:
                assert (page.parent / target.partition("#")[0]).exists(), f"{lang}: {target}"


def test_make_tests_nbval_run_collects_the_translated_lessons():
    """``make test`` runs ``pytest --nbval`` over ``notebooks/``: the built lessons are in it."""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + ["--nbval", "--nbval-current-env", "notebooks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for lang, source in BUILT_NOTEBOOKS:
        assert f"notebooks/{lang}/{source.name}::Cell 0" in collected, f"{lang}/{source.name}"


def test_build_refuses_a_lesson_it_does_not_know(capsys):
    """A misspelt lesson is an error: a build that quietly did nothing looked like success."""
    assert tool.main(["build", "--no-execute", "notebooks/99_no_such_lesson.ipynb"]) == 2
    assert "not a translated lesson: 99_no_such_lesson" in capsys.readouterr().err
