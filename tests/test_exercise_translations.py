"""The translated exercise sets are finished, current, in their language, and grade the same.

``scripts/translate_exercises.py`` builds ``teacher/<lang>/source/<set>`` from the English
teacher source and ``translations/<lang>/exercises/<set>.po``, and releases it with nbgrader
into ``notebooks/<lang>/exercises``. These tests fail when:

* a catalog has an empty or fuzzy entry, or a template is older than its English source;
* a translated teacher source is not what its source and catalog give today (``build``);
* the prose of a translated Markdown cell, or a check's translated words, are not in the
  language's script (the lessons' measure and thresholds, tests/test_translations.py);
* a translated code cell differs from the English one in anything but its comments, the
  check strings of the rule (docs/translating_exercises.md) and the widgets' language line;
* a translation breaks the typography of its language;
* a link of a released set leads nowhere.

That the translated set grades as the English one, and that its feedback speaks its
language, is tests/course/test_translated_sets.py's part (real nbgrader).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(name: str, path: Path):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


tool = load("translate_exercises", ROOT / "scripts" / "translate_exercises.py")
lessons_tests = load("lessons_translation_tests", ROOT / "tests" / "test_translations.py")
LANGUAGES = tool.languages()
SETS = tool.sets_with_templates()
PAIRS = [
    (lang, name) for lang in LANGUAGES for name in SETS if tool.catalog_path(lang, name).exists()
]
# The sets the course promises in every language (docs/translating_exercises.md lists them).
PILOT = "03_backward_step_by_step"


def pair_id(pair) -> str:
    return "/".join(pair)


def catalog(lang: str, name: str):
    return tool.lessons.read_catalog(tool.catalog_path(lang, name))


def test_the_pilot_set_exists_in_russian_and_chinese():
    assert {"ru", "zh_CN"} <= set(LANGUAGES)
    for lang in ("ru", "zh_CN"):
        assert (lang, PILOT) in PAIRS
        assert tool.translated_source_path(lang, PILOT).is_file()
        assert tool.released_path(lang, PILOT).is_file()


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_every_entry_is_translated_and_none_is_fuzzy(pair):
    left = tool.lessons.unfinished(catalog(*pair))
    assert not left, f"{tool.catalog_path(*pair)}: translate (and unmark fuzzy): {left}"


@pytest.mark.parametrize("name", SETS)
def test_the_template_is_extracted_from_the_current_english_source(name):
    stored = tool.lessons.messages(tool.lessons.read_catalog(tool.template_path(name)))
    assert stored == tool.lessons.messages(tool.template_for(name)), (
        f"run: python scripts/translate_exercises.py extract {name}, then update"
    )


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_translated_source_is_what_its_source_and_catalog_give(pair):
    lang, name = pair
    reason = tool.stale_reason(name, lang)
    assert reason is None, f"{reason}; run: python scripts/translate_exercises.py build {name}"
    released = nbformat.read(tool.released_path(lang, name), as_version=4)
    assert released.metadata["minigrad"]["language"] == lang  # what the checks speak


def without_translations(tree: ast.AST, texts: set[str]) -> str:
    """The tree's dump with every string that is a catalog's English or translation blanked."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in texts:
            node.value = "…"
    return ast.dump(tree)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_code_cells_differ_only_in_comments_check_strings_and_the_language_line(pair):
    lang, name = pair
    english = nbformat.read(tool.source_path(name), as_version=4).cells
    built = nbformat.read(tool.translated_source_path(lang, name), as_version=4).cells
    assert [cell.cell_type for cell in built] == [cell.cell_type for cell in english]
    texts = {text for m in catalog(lang, name) if m.id for text in (m.id, m.string)}
    for number, (theirs, ours) in enumerate(zip(english, built), start=1):
        assert ours.metadata == theirs.metadata, number  # nbgrader's ids, points, locks
        if theirs.cell_type != "code":
            continue
        code = tool.lessons.without_widget_language(ours.source, lang)
        assert without_translations(ast.parse(code), texts) == without_translations(
            ast.parse(theirs.source), texts
        ), number


LONE_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
PLAIN_CODE = re.compile(r"[\w.]+\(\)|\w+=\w+|\b(?:True|False|None)\b")
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])")


PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def code_names(name: str) -> frozenset[str]:
    """The names the English set's code uses, in its code cells and in the Python blocks of
    its Markdown: variables, functions, arguments and attributes. A check's plain text spells
    them as the code does (``saved``, ``gradcheck``, ``mg.autograd.grad``), where Markdown
    would put them in a code span: they are not prose."""
    sources = []
    for cell in nbformat.read(tool.source_path(name), as_version=4).cells:
        if cell.cell_type == "code":
            sources.append(cell.source)
        else:
            sources += PYTHON_BLOCK.findall(cell.source)
    names = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return frozenset(names)


def plain_words(text: str, names: frozenset[str]) -> str:
    """A check's plain text without its code: calls such as ``backward()``, ``name=value``
    pairs, ``True``, ``False`` and ``None``, the names of the set's code, and lone letters
    (the x of "x·y²" is a variable)."""
    text = PLAIN_CODE.sub(" ", text)
    text = LATIN_WORD.sub(lambda word: " " if word[0] in names else word[0], text)
    return LONE_LETTER.sub(" ", text)


def check_string_entries(lang: str, name: str) -> list:
    return [m for m in catalog(lang, name) if m.id and "a check's" in m.auto_comments[0]]


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_prose_of_every_markdown_cell_and_check_is_in_the_target_script(pair):
    lang, name = pair
    cells = nbformat.read(tool.translated_source_path(lang, name), as_version=4).cells
    threshold = lessons_tests.THRESHOLD[lang]
    for number, cell in enumerate(cells, start=1):
        if cell.cell_type == "markdown":
            share = lessons_tests.script_share(cell.source, lang)
            assert share is None or share >= threshold, f"cell {number}: {share:.2f}"
    entries = check_string_entries(lang, name)
    assert entries
    names = code_names(name)
    for message in entries:
        # A check's words are plain text, with no $...$ or `...` around formulas and code.
        words = plain_words(message.string, names)
        share = lessons_tests.script_share(words, lang)
        assert share is None or share >= threshold, f"{message.string}: {share:.2f}"


@pytest.mark.parametrize("name", SETS)
def test_an_untranslated_check_string_would_fail_the_measure(name):
    """The measure above leaves code out; what it leaves of each English check string is
    still an English word, so a check string copied untranslated fails it."""
    names = code_names(name)
    template = tool.lessons.read_catalog(tool.template_path(name))
    for message in template:
        if message.id and "a check's" in message.auto_comments[0]:
            assert LATIN_WORD.search(plain_words(message.id, names)), message.id


# In a check's plain text, a minus between two pieces of code (``x - 1``, ``2 * s(x) - 1``)
# is code a student may paste, not a dash: Markdown would put it in a code span.
CODE_MINUS = re.compile(r"(?<=[A-Za-z0-9_)\]]) - (?=[A-Za-z0-9_(\[])")


def as_checked(message) -> str:
    """The entry's text as the typography rules should see it: a check's plain text with
    the minus signs of its code taken out."""
    if "plain text" in message.auto_comments[0]:
        return CODE_MINUS.sub("-", message.string)
    return message.string


def test_a_minus_in_a_checks_code_is_not_a_dash_but_one_in_prose_is():
    hint = "a check's hint: plain text, shown to the student"
    code = SimpleNamespace(string="у x - 1 наклон, а 2 * s(x) - 1 нет", auto_comments=[hint])
    prose = SimpleNamespace(string="шаг - и всё", auto_comments=[hint])
    markdown = SimpleNamespace(string="у x - 1 наклон", auto_comments=["Markdown paragraph"])
    rule = lessons_tests.TYPOGRAPHY["ru"]
    assert rule(as_checked(code)) == []
    assert rule(as_checked(prose)) and rule(as_checked(markdown))


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_translations_follow_the_typography_of_their_language(pair):
    """As for the lessons, but for comments: a comment may quote code, such as ``3 - 1``,
    that Markdown would put in a code span; and so may a check's plain text."""
    lang, name = pair
    problems = [
        f"{message.id[:50]!r}: {problem}"
        for message in catalog(lang, name)
        if message.id and "a comment in code" not in message.auto_comments[0]
        for problem in lessons_tests.TYPOGRAPHY[lang](as_checked(message))
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_links_of_a_released_set_lead_somewhere(pair):
    lang, name = pair
    released = tool.released_path(lang, name)
    for cell in nbformat.read(released, as_version=4).cells:
        for target in tool.lessons.LINK_TARGET.findall(cell.source):
            if "://" not in target and not target.startswith("#"):
                assert (released.parent / target.partition("#")[0]).exists(), target


# --------------------------------------------------------------------------- the rule


def test_the_rule_finds_hints_messages_and_prose_labels_and_leaves_code_alone():
    code = (
        'tip = "Add what arrives along each path."\n'
        "mc.check_value(\n"
        '    "x.grad",\n'
        "    x_grad,\n"
        '    hint="Follow every path "\n'
        '    "from z to x.",\n'
        '    common_mistakes=[(mc.Fingerprint("num6::ab"), tip), (3, f"not {x}")],\n'
        ")\n"
        '_mc.check_equal("the printed values", printed, expected=[1, 2], hint="")\n'
        '_mc.check_grad("remembering(steps)", w, match="shape")\n'
        'print("not a check")'
    )
    found = [(literal.text, literal.kind) for literal in tool.check_strings(code)]
    assert found == [
        ("Add what arrives along each path.", "common mistake"),
        ("Follow every path from z to x.", "hint"),
        ("the printed values", "label"),
    ]
    russian = {
        "Add what arrives along each path.": "Сложите то, что приходит по каждому пути.",
        "Follow every path from z to x.": "Пройдите " * 12 + "по каждому пути от z к x.",
        "the printed values": "выведенные значения",
    }
    translated = tool.translate_checks(code, russian.get)
    assert tool.ruff_formatted(translated) == translated  # ruff's layout, as `format --check`
    tree = ast.parse(translated)
    values = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert set(russian.values()) <= values  # implicit concatenation kept one string
    assert "remembering(steps)" in values and "not a check" in values
    assert max(tool.width(line) for line in translated.split("\n")) <= 100


def test_a_chinese_string_is_cut_into_parts_of_at_most_sixty_columns():
    text = "到达的梯度乘以局部导数，" * 8
    parts = tool.string_parts(text)
    assert "".join(parts) == text and len(parts) > 1
    assert all(tool.width(part) <= tool.PART_WIDTH for part in parts)
    assert all(part.endswith("，") for part in parts[:-1])


def test_an_english_edit_makes_the_catalog_fuzzy_and_the_build_stale(tmp_path, monkeypatch):
    """The whole cycle on a copy: extract, update, translate, build, then edit the English."""
    source = tmp_path / "teacher" / "source" / "01_demo" / "01_demo.ipynb"
    source.parent.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("## Exercise 1\n\nStore the gradient in `g`."),
        nbformat.v4.new_code_cell('mc.check_value("x.grad", g, expected=2.0, hint="Use 2x.")'),
    ]
    nbformat.write(nb, source)
    for module, names in (
        (tool, {"ROOT": "", "TEACHER": "teacher", "SOURCES": "teacher/source"}),
        (tool, {"TEMPLATES": "translations/exercises"}),
        (tool.lessons, {"ROOT": "", "TRANSLATIONS": "translations", "NOTEBOOKS": "notebooks"}),
    ):
        for attribute, folder in names.items():
            monkeypatch.setattr(module, attribute, tmp_path / folder)
    tool.extract(["01_demo"])
    tool.update(["ru"], [])
    path = tool.catalog_path("ru", "01_demo")
    assert tool.check(["ru"])[0].startswith("translations/ru/exercises/01_demo.po: untranslated")
    russian = {"Exercise 1": "Задание 1", "Store the gradient in `g`.": "Запишите градиент в `g`."}
    russian["Use 2x."] = "Возьмите 2x."
    entries = tool.lessons.read_catalog(path)
    for message in entries:
        if message.id:
            message.string = russian[message.id]
    tool.lessons.write_catalog(entries, path)
    assert tool.check(["ru"]) == ["teacher/ru/source/01_demo/01_demo.ipynb does not exist: build"]

    tool.build("01_demo", "ru", release_it=False)
    built = nbformat.read(tool.translated_source_path("ru", "01_demo"), as_version=4)
    assert built.cells[1].source == (
        'mc.check_value("x.grad", g, expected=2.0, hint="Возьмите 2x.")'
    )
    assert built.metadata["minigrad"] == {"language": "ru"}
    released = tool.released_path("ru", "01_demo")
    assert tool.check(["ru"]) == [f"{released.relative_to(tmp_path)} does not exist: build"]
    released.parent.mkdir(parents=True)
    released.write_text("{}")  # what nbgrader generate_assignment would write
    assert tool.check(["ru"]) == []

    nb.cells[1].source = nb.cells[1].source.replace("Use 2x.", "Use 2*x.")
    nbformat.write(nb, source)
    assert tool.check(["ru"]) == [
        "translations/exercises/01_demo.pot is out of date: extract",
        "teacher/ru/source/01_demo/01_demo.ipynb differs from its source and catalog: build",
    ]
    tool.extract([])
    tool.update(["ru"], [])
    changed = tool.lessons.read_catalog(path).get("Use 2*x.")
    assert changed.string == "Возьмите 2x." and "fuzzy" in changed.flags
    assert "untranslated or fuzzy: 'Use 2*x.'" in tool.check(["ru"])[0]


def test_a_set_not_started_in_a_language_is_not_a_problem():
    """Only sets with a catalog are built and checked; the rest stay English (status says)."""
    started = {name for lang, name in PAIRS}
    every = sorted(path.name for path in tool.SOURCES.iterdir() if path.is_dir())
    for name in set(every) - started:
        for lang in LANGUAGES:
            assert not tool.translated_source_path(lang, name).exists()
            assert not tool.released_path(lang, name).exists()
    status = tool.status()
    assert re.search(rf"^{PILOT} +done +done", status, re.M), status


KEY_REGION = re.compile(
    r"^[ \t]*### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)^[ \t]*### END \1", re.DOTALL | re.M
)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_the_released_set_holds_no_line_of_its_translated_answer_key(pair):
    """The translated teacher source is answer key too: no line of its solutions or hidden
    tests reaches the student's version, unless the statement or given code has it as well
    (tests/course/test_no_answer_key_leaks.py searches every channel for the same lines)."""
    lang, name = pair
    source = nbformat.read(tool.translated_source_path(lang, name), as_version=4).cells
    key, outside = set(), set()
    for cell in source:
        for _, region in KEY_REGION.findall(cell.source):
            key.update(line.strip() for line in region.splitlines() if line.strip())
        outside.update(line.strip() for line in KEY_REGION.sub("", cell.source).splitlines())
    assert key
    released = nbformat.read(tool.released_path(lang, name), as_version=4).cells
    lines = {line.strip() for cell in released for line in cell.source.splitlines()}
    assert not (lines & (key - outside)), sorted(lines & (key - outside))
    assert not any("### BEGIN" in cell.source for cell in released)
    assert not any(cell.get("outputs") for cell in released)


@pytest.mark.parametrize("name", SETS)
def test_every_english_word_of_a_set_is_in_its_template_or_in_code(name):
    """The segmentation misses nothing: with each entry of the template translated as a mark,
    no English word is left in a Markdown cell, nor in a check's words."""
    texts = {m.id for m in tool.lessons.read_catalog(tool.template_path(name)) if m.id}
    marked = tool.Catalog(locale="ru")
    for text in texts:
        marked.add(text, "Ж")
    built = tool.built_source(name, "ru", marked)
    for cell in built.cells:
        if cell.cell_type == "markdown":
            assert not tool.lessons.needs_translation(cell.source), cell.source
        elif cell.cell_type == "code":
            assert {literal.text for literal in tool.check_strings(cell.source)} <= {"Ж"}


def test_the_docs_say_which_set_exists_in_which_language():
    """docs/translating_exercises.md's table names every set finished in a language, and no
    other: the number of each such set, with "translated" in the language's column."""
    page = (ROOT / "docs" / "translating_exercises.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) · [^|]+\| (\w+) \| (\w+) \|$", page, re.M)
    said = {
        (lang, int(number))
        for number, *cells in rows
        for lang, cell in zip(("ru", "zh_CN"), cells)
        if cell == "translated"
    }
    done = {
        (lang, int(path.name[:2]))
        for path in sorted(tool.SOURCES.iterdir())
        for lang in ("ru", "zh_CN")
        if tool.is_translated(path.name, lang)
    }
    assert done and said == done
