"""The documentation site in Russian and Chinese is finished, current and in its language.

English is the source; ``scripts/translate_docs.py`` (``make docs``) extracts each page's texts
with Sphinx's gettext builder, merges them into the page's catalogs in ``docs/locale`` with
sphinx-intl, and builds ``docs/_build/html/ru`` and ``docs/_build/html/zh_CN``
(docs/translating_docs.md). These tests fail when:

* a started catalog has an empty or fuzzy entry, or does not hold exactly the texts its English
  page has today (an English edit nobody has translated yet);
* a student's page has no catalog in a language, or a developer page has one;
* the prose of a translated page is not in the language's script, or breaks its typography;
* a built site lacks a translated page, shows an English lesson where a translated one
  exists, or a switcher link leads to no page.

The built sites are the ones ``make docs`` wrote (``make test`` runs it before pytest); the
tests fail, not skip, when they are missing or older than their sources.
"""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SITE = DOCS / "_build" / "html"


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


tool = load("translate_docs", ROOT / "scripts" / "translate_docs.py")
site_languages = tool.site_languages
lessons_tests = load("lessons_translation_tests", ROOT / "tests" / "test_translations.py")

LANGUAGES = tool.TRANSLATED_LANGUAGES
STUDENT_PAGES = ["index", "installation", "quickstart", "lessons", "glossary"]
STARTED = [(lang, page) for lang in LANGUAGES for page in tool.started_pages(lang)]


def pair_id(pair) -> str:
    return "/".join(pair)


def read(catalog: Path):
    with catalog.open("rb") as file:
        return tool.read_po(file)


# --------------------------------------------------------------------------- what is translated


def test_the_student_pages_are_started_in_russian_and_chinese():
    assert set(LANGUAGES) == {"ru", "zh_CN"}
    for lang in LANGUAGES:
        assert set(STUDENT_PAGES) <= set(tool.started_pages(lang)), lang


def test_the_developer_pages_and_the_api_reference_have_no_catalog():
    pages = {path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.rglob("*.md")}
    english_only = {page for page in pages if site_languages.is_english_only(page)}
    assert {"api/index", "api/nn", "architecture", "performance", "protocol"} <= english_only
    assert not english_only & set(tool.translatable_pages())
    catalogs = {
        path.relative_to(site_languages.LOCALE / lang / "LC_MESSAGES").with_suffix("").as_posix()
        for lang in LANGUAGES
        for path in (site_languages.LOCALE / lang).rglob("*.po")
    }
    assert catalogs <= set(tool.translatable_pages()), catalogs - set(tool.translatable_pages())


# --------------------------------------------------------------------------- finished, current


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_every_entry_is_translated_and_none_is_fuzzy(pair):
    lang, page = pair
    catalog = site_languages.catalog_path(page, lang)
    left = site_languages.unfinished_entries(catalog)
    assert not left, f"{catalog.relative_to(ROOT)}: translate (and unmark fuzzy): {left}"
    # As a translator's tool reads it (polib parses as GNU gettext does): the same entries.
    entries = [entry for entry in polib.pofile(str(catalog)) if not entry.obsolete]
    assert len(entries) == len([message for message in read(catalog) if message.id])
    assert not [entry.msgid for entry in entries if not entry.msgstr or entry.fuzzy]


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """The templates of today's English pages, extracted as make docs extracts them."""
    folder = tmp_path_factory.mktemp("gettext")
    original = tool.TEMPLATES
    tool.TEMPLATES = folder
    try:
        tool.extract()
    finally:
        tool.TEMPLATES = original
    return folder


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_each_catalog_holds_the_texts_of_its_english_page_today(pair, templates):
    lang, page = pair
    catalog = site_languages.catalog_path(page, lang)
    english = tool.catalog_ids(templates / f"{page}.pot")
    translated = tool.catalog_ids(catalog)
    assert translated == english, (
        f"{catalog.relative_to(ROOT)} is out of date (make docs updates it): "
        f"new {sorted(english - translated)}, gone {sorted(translated - english)}"
    )


def test_an_english_edit_arrives_fuzzy_and_a_new_page_waits_until_started(tmp_path, monkeypatch):
    """The pipeline as a translator meets it: sphinx-intl keeps the old translation of a changed
    text as a fuzzy suggestion, and check() reports it; a page with no catalog is not started,
    so check() does not count it; once started, its empty entries are reported."""
    pytest.importorskip("sphinx_intl")
    locale, templates = tmp_path / "locale", tmp_path / "gettext"
    (locale / "ru" / "LC_MESSAGES").mkdir(parents=True)
    templates.mkdir()
    monkeypatch.setattr(site_languages, "LOCALE", locale)
    monkeypatch.setattr(tool, "TEMPLATES", templates)
    monkeypatch.setattr(tool, "translatable_pages", lambda: ["lessons", "teachers"])
    template = "\n".join(
        ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
        + ['msgid "Lessons and exercises"', 'msgstr ""', ""]
    )
    (templates / "lessons.pot").write_text(template, encoding="utf-8")
    (templates / "teachers.pot").write_text(template, encoding="utf-8")
    tool.start("lessons", ["ru"])
    catalog = locale / "ru" / "LC_MESSAGES" / "lessons.po"
    problems = tool.check(["ru"])
    assert len(problems) == 1, problems
    assert "untranslated or fuzzy: 'Lessons and exercises'" in problems[0]
    assert site_languages.page_state("lessons", "ru") == "unfinished"
    assert site_languages.page_state("teachers", "ru") == "not started"

    translation = polib.pofile(str(catalog))
    translation.find("Lessons and exercises").msgstr = "Уроки и задания"
    translation.save()
    assert site_languages.page_state("lessons", "ru") == "translated"
    assert tool.check(["ru"]) == []

    (templates / "lessons.pot").write_text(
        template.replace("Lessons and exercises", "Lessons and their exercises"), encoding="utf-8"
    )
    tool.update(["ru"])
    entry = polib.pofile(str(catalog)).find("Lessons and their exercises")
    assert entry.fuzzy and entry.msgstr == "Уроки и задания"
    assert site_languages.page_state("lessons", "ru") == "unfinished"
    assert any("untranslated or fuzzy" in problem for problem in tool.check(["ru"]))
    assert not (locale / "ru" / "LC_MESSAGES" / "teachers.po").exists()


def test_a_page_state_follows_its_catalog(tmp_path, monkeypatch):
    monkeypatch.setattr(site_languages, "LOCALE", tmp_path)
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    assert site_languages.page_state("quickstart", "zh_CN") == "not started"
    (folder / "quickstart.po").write_text(header + 'msgid "Gradients"\nmsgstr ""\n', "utf-8")
    assert site_languages.page_state("quickstart", "zh_CN") == "unfinished"
    (folder / "quickstart.po").write_text(
        header + '#, fuzzy\nmsgid "Gradients"\nmsgstr "梯度"\n', "utf-8"
    )
    assert site_languages.page_state("quickstart", "zh_CN") == "unfinished"
    (folder / "quickstart.po").write_text(header + 'msgid "Gradients"\nmsgstr "梯度"\n', "utf-8")
    assert site_languages.page_state("quickstart", "zh_CN") == "translated"
    assert site_languages.page_state("api/nn", "zh_CN") == "english only"
    assert site_languages.page_state("quickstart", "en") == "source"


# --------------------------------------------------------------------------- in the language

# "Python 3.11", "torch 2.13.0", "nbgrader 0.9": a version is a name, not a decimal number of
# the prose.
VERSION = re.compile(
    r"\b(Python|PyTorch|torch|nbgrader|repo2docker|JupyterLab|Sphinx) \d+(?:\.\d+)+"
)


def comments(code: str) -> str:
    return " ".join(match[1] for line in code.splitlines() if (match := tool.COMMENT.search(line)))


def without_comments(code: str) -> list[str]:
    return [tool.COMMENT.sub("", line).rstrip() for line in code.splitlines()]


def prose(message, page: str) -> str:
    """What a reader reads as the language's prose in an entry: a code block's comments."""
    return comments(message.string) if message.id in tool.code_blocks(page) else message.string


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_translations_follow_the_typography_of_their_language(pair):
    lang, page = pair
    check = lessons_tests.TYPOGRAPHY[lang]
    problems = [
        f"{message.id[:50]!r}: {problem}"
        for message in read(site_languages.catalog_path(page, lang))
        if message.id and message.string
        for problem in check(VERSION.sub(r"\1", prose(message, page)))
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_a_translated_code_block_is_the_english_one_but_for_its_comments(pair):
    """The lessons' one rule for code: comments are translated, nothing else."""
    lang, page = pair
    blocks = tool.code_blocks(page)
    for message in read(site_languages.catalog_path(page, lang)):
        if message.id in blocks:
            assert without_comments(message.string) == without_comments(message.id)
            assert comments(message.string) != comments(message.id), "comments not translated"


def test_only_code_blocks_with_words_in_their_comments_are_entries():
    quickstart = tool.code_blocks("quickstart")
    assert any("# close to 3 and 0.5" in block for block in quickstart)
    assert tool.comment_words("print(t.grad)     # tensor([2., 4., 6.])") == ""
    assert "close" in tool.comment_words("print(model.weight)   # close to 3 and 0.5")


def test_a_placeholder_of_markdown_survives_each_translation():
    """Each translation keeps the code spans, roles, link targets and images of its entry (a
    name may be repeated): the translated page shows the same code, links the same pages and
    draws the same images."""
    markup = re.compile(r"`[^`]+`|\]\([^)]*\)|\{doc\}")
    problems = []
    for lang, page in STARTED:
        for message in read(site_languages.catalog_path(page, lang)):
            if message.id and message.string:
                english, translated = markup.findall(message.id), markup.findall(message.string)
                if set(english) != set(translated):
                    problems.append(f"{lang} {page}: {message.id[:60]!r}")
    assert not problems, "\n".join(problems)


class Text(HTMLParser):
    """The words of a built page's article, by section (an ``<h2>`` starts one), without code,
    formulas and lists of other pages."""

    SKIPPED = {"pre", "code", "script", "style"}

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[list[str]] = [[]]
        self.in_article = False
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = dict(attrs).get("class") or ""
        if tag == "article":
            self.in_article = True
        elif tag == "h2":
            self.sections.append([])
        # A toctree lists other pages by their titles: each is measured on its own page.
        skipped_class = {"math", "toctree-wrapper"} & set(classes.split())
        if self.skipping or tag in self.SKIPPED or skipped_class:
            self.skipping.append(tag)

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()
        if tag == "article":
            self.in_article = False

    def handle_data(self, data):
        if self.in_article and not self.skipping:
            self.sections[-1].append(data)


def built_page(lang: str, docname: str) -> Path:
    path = SITE / lang / f"{docname}.html"
    if not path.is_file():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run make docs (make test does)")
    return path


def sections_of(path: Path) -> list[str]:
    parser = Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return [" ".join(section) for section in parser.sections if "".join(section).strip()]


# The names of programs and formats the pages mention: in every language they are written as
# their makers write them, so they are not English prose. (The installation page lists many in
# a few lines: "numpy, Graphviz's Python bindings, ipywidgets, anywidget, matplotlib, pillow".)
PRODUCT_NAMES = re.compile(
    r"\b(?:Python|PyTorch|torch|numpy|Graphviz|Jupyter(?:Lab|Hub)?|Notebook|ipywidgets|anywidget"
    r"|matplotlib|pillow|DOT|HTML|WebAssembly|Linux|macOS|Windows|VS Code|nbgrader|nbconvert"
    r"|nbval|pytest|ruff|Sphinx|Playwright|Chromium|MathJax|TeX|CDN|npm|PyPI|Binder|CPU|CI"
    r"|PATH|ES|Launcher|Create Assignment|Formgrader|wheel|pip)\b"
)


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_the_prose_of_every_translated_page_is_in_the_target_script(pair):
    """The lessons' measure (tests/test_translations.py), on each section of the built page:
    the share of the language's letters among all the letters of its prose, product names
    left out as code and identifiers are."""
    lang, page = pair
    sections = sections_of(built_page(lang, page))
    assert sections
    for section in sections:
        share = lessons_tests.script_share(PRODUCT_NAMES.sub(" ", section), lang)
        threshold = lessons_tests.THRESHOLD[lang]
        assert share is None or share >= threshold, f"{share:.2f} < {threshold}:\n{section[:600]}"


def test_the_measure_tells_the_english_site_from_a_translated_one():
    if not (SITE / "installation.html").is_file():
        pytest.fail("docs/_build/html/installation.html is missing: run make docs")
    for page in ("quickstart", "installation"):
        english = PRODUCT_NAMES.sub(" ", " ".join(sections_of(SITE / f"{page}.html")))
        assert lessons_tests.script_share(english, "ru") < 0.05
        assert lessons_tests.script_share(english, "zh_CN") < 0.05


# --------------------------------------------------------------------------- the built sites


def test_the_built_sites_are_newer_than_their_catalogs():
    for lang, page in STARTED:
        built = built_page(lang, page)
        catalog = site_languages.catalog_path(page, lang)
        assert built.stat().st_mtime >= catalog.stat().st_mtime, (
            f"{built.relative_to(ROOT)} is older than {catalog.relative_to(ROOT)}: run make docs"
        )


def h1_of(path: Path) -> str:
    match = re.search(r"<h1>(.*?)<a class=\"headerlink\"", path.read_text(encoding="utf-8"), re.S)
    assert match, f"no title in {path}"
    return re.sub(r"<[^>]+>", "", match[1]).strip()


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_a_translated_page_of_the_built_site_has_its_translated_title_and_no_note(pair):
    lang, page = pair
    english_title = (DOCS / f"{page}.md").read_text(encoding="utf-8").splitlines()[0][2:]
    catalog = read(site_languages.catalog_path(page, lang))
    title = catalog[english_title].string if english_title in catalog else english_title
    page_html = built_page(lang, page).read_text(encoding="utf-8")
    assert h1_of(built_page(lang, page)) == title
    assert "site-language-note" not in page_html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_english_page_of_a_translated_site_says_why_in_the_sites_language(lang):
    notes = site_languages.NOTES[lang]
    assert notes["english only"] in built_page(lang, "api/index").read_text(encoding="utf-8")
    assert notes["english only"] in built_page(lang, "architecture").read_text(encoding="utf-8")
    for page in tool.translatable_pages():
        if not site_languages.catalog_path(page, lang).is_file():
            page_html = built_page(lang, page).read_text(encoding="utf-8")
            assert notes["not started"] in page_html, page


def lesson_title(notebook: Path) -> str:
    import nbformat

    cells = nbformat.read(notebook, as_version=4).cells
    first = next(cell.source for cell in cells if cell.cell_type == "markdown")
    return re.sub(r"^#\s*", "", first.splitlines()[0]).strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lessons_of_a_translated_site_are_the_translated_lessons(lang):
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    translated = 0
    for english in lessons:
        source = site_languages.lesson_source(Path(english.name), lang)
        page = built_page(lang, f"lessons/{english.stem}")
        assert h1_of(page) == lesson_title(source).replace("`", ""), english.name
        translated += source != english
    assert translated == len(lessons), "every lesson has a finished translation today"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_exercise_sets_of_a_translated_site_are_the_translated_releases(lang):
    notebooks = ROOT / "notebooks"
    sets = sorted((notebooks / "exercises").glob("[0-9][0-9]_*/[0-9][0-9]_*.ipynb"))
    translated = 0
    for english in sets:
        relative = english.relative_to(notebooks)
        source = site_languages.lesson_source(relative, lang)
        page = built_page(lang, f"lessons/{relative.with_suffix('').as_posix()}")
        assert h1_of(page) == lesson_title(source).replace("`", ""), relative
        translated += source != english
    assert sets and translated == len(sets), "every set has a finished translation today"


class Links(HTMLParser):
    """The switcher's links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.links: list[str] = []
        self.current: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "nav" and "site-languages" in (attributes.get("class") or ""):
            self.depth = 1
        elif self.depth and tag == "a":
            self.links.append(attributes["href"])
        elif self.depth and tag == "span" and attributes.get("aria-current") == "page":
            self.current.append(attributes.get("lang"))

    def handle_endtag(self, tag):
        if tag == "nav":
            self.depth = 0


def test_every_page_of_the_three_sites_links_to_itself_in_the_other_languages():
    sites = {"en": SITE, **{lang: SITE / lang for lang in LANGUAGES}}
    checked = 0
    for lang, site in sites.items():
        pages = [
            page
            for page in site.rglob("*.html")
            if page.relative_to(site).parts[0] not in ("_modules", "_static", *LANGUAGES)
        ]
        assert len(pages) > 30, f"{site}: run make docs"
        for page in pages:
            links = Links()
            links.feed(page.read_text(encoding="utf-8"))
            assert links.current == [site_languages.HTML_TAGS[lang]], page
            assert len(links.links) == len(sites) - 1, page
            for href in links.links:
                target = (page.parent / unquote(urlsplit(href).path)).resolve()
                assert target.is_file(), f"{page.relative_to(SITE)} -> {href}"
                assert target.relative_to(SITE.resolve()).parts[-1] == page.name
            checked += 1
    assert checked > 100


# A picture in a page's Markdown: ![alt](images/name.png).
PICTURE = re.compile(r"!\[[^\]]*\]\((images/[^)\s]+\.png)\)")


def pictures_of(page: str) -> list[Path]:
    return sorted({Path(found) for found in PICTURE.findall((DOCS / f"{page}.md").read_text())})


def language_version(picture: Path, lang: str) -> Path:
    """images/draw.png -> images/draw.ru.png: docs/conf.py's figure_language_filename."""
    return picture.with_name(f"{picture.stem}.{lang}{picture.suffix}")


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_every_picture_of_a_translated_page_has_its_languages_version(pair):
    """A translated page shows its pictures in its language (the widgets' screenshots made
    again with the widgets speaking it: scripts/widget_screenshots.py --language, ...), each
    no bigger than the English one (saved with a palette)."""
    lang, page = pair
    for picture in pictures_of(page):
        english, translated = DOCS / picture, DOCS / language_version(picture, lang)
        assert translated.is_file(), f"{translated.relative_to(ROOT)} is missing"
        assert translated.read_bytes() != english.read_bytes(), translated
        assert translated.stat().st_size <= english.stat().st_size, translated


def test_the_pictures_are_found_where_there_are_some():
    # The measure above looks at something: the three pages with screenshots have them.
    for page in ("index", "installation", "quickstart"):
        assert pictures_of(page), page
    assert "figure_language_filename" in (DOCS / "conf.py").read_text()


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_the_built_translated_page_shows_the_pictures_in_its_language(pair):
    lang, page = pair
    built = built_page(lang, page)
    sources = re.findall(r'<img\b[^>]*\bsrc="([^"]+)"', built.read_text(encoding="utf-8"))
    names = [Path(unquote(urlsplit(html.unescape(src)).path)).name for src in sources]
    for picture in pictures_of(page):
        wanted = language_version(picture, lang).name
        assert wanted in names, f"{built.relative_to(ROOT)} does not show {wanted}: {names}"
        assert picture.name not in names, f"{built.relative_to(ROOT)} shows {picture.name}"
    for src in sources:
        target = built.parent / unquote(urlsplit(html.unescape(src)).path)
        assert target.is_file(), f"{built.relative_to(ROOT)} -> {src}"


def test_the_switcher_links_are_relative_and_escaped():
    links = site_languages.language_links("api/nn", "zh_CN")
    assert [link["url"] for link in links] == [
        "../../api/nn.html",
        "../../ru/api/nn.html",
        "nn.html",
    ]
    template = (DOCS / "_templates" / "sidebar" / "languages.html").read_text(encoding="utf-8")
    assert "<script" not in template
    for value in re.findall(r"\{\{(.*?)\}\}", template):
        assert value.strip().endswith("|e"), value


def test_make_docs_builds_the_languages():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    docs = makefile.split("\ndocs: ", 1)[1].split("\n\n", 1)[0]
    assert "docs-languages" in docs
    assert "scripts/translate_docs.py all" in makefile.split("\ndocs-languages: ", 1)[1]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"sphinx-intl>=2.4.0' in pyproject


def test_the_sphinx_intl_command_line_is_the_one_the_script_calls():
    pytest.importorskip("sphinx_intl")
    shown = subprocess.run(
        [sys.executable, "-m", "sphinx_intl", "update", "--help"], capture_output=True, text=True
    )
    assert shown.returncode == 0
    for option in ("--pot-dir", "--locale-dir", "--language", "--jobs"):
        assert option in shown.stdout, option


def test_the_examples_in_the_docstrings_of_the_pipeline_hold():
    """The suite's --doctest-modules covers minigrad and widgets; these two modules are in
    scripts/ and docs/_ext/."""
    import doctest

    for module in (tool, site_languages):
        assert doctest.testmod(module).failed == 0, module.__name__


@pytest.mark.parametrize("pair", STARTED, ids=pair_id)
def test_the_built_page_shows_its_code_blocks_with_translated_comments(pair):
    lang, page = pair
    blocks = tool.code_blocks(page)
    text = html.unescape(re.sub(r"<[^>]+>", "", built_page(lang, page).read_text(encoding="utf-8")))
    for message in read(site_languages.catalog_path(page, lang)):
        if message.id in blocks:
            for line in message.string.splitlines():
                if match := tool.COMMENT.search(line):
                    assert match[1] in text, f"{page}: {match[1]!r} is not on the built page"
