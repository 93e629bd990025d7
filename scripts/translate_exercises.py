"""The exercise sets in other languages, built from the English teacher sources and catalogs.

A thin front end to ``translate_notebooks.py`` (the lessons' tool): the same Markdown blocks
and code comments make the entries, the same catalogs (Babel, gettext ``.po``), the same
``update`` merge and the same rule for unfinished entries. What an exercise set adds is the
words its checks show a student (see :func:`check_strings`), and where the files go::

    teacher/source/<set>/<set>.ipynb              the English source (answer key)
    translations/exercises/<set>.pot              its template: every text to translate
    translations/<lang>/exercises/<set>.po        the translator's catalog
    teacher/<lang>/source/<set>/<set>.ipynb       built: the translated answer key
    notebooks/<lang>/exercises/<set>/<set>.ipynb  released from it by nbgrader

``teacher/<lang>/`` is a course directory of its own (a class is taught in one language): its
``nbgrader_config.py`` loads the English one and only moves the release into
``notebooks/<lang>/exercises``. Everything under ``teacher/`` stays out of every student
channel, as the English answer key does.

Commands, from the repository root (``python`` is ``.venv/bin/python``)::

    python scripts/translate_exercises.py extract [03_backward_step_by_step ...]
    python scripts/translate_exercises.py update --lang ru   # templates -> catalogs
    python scripts/translate_exercises.py build              # catalogs -> teacher/<lang>, release
    python scripts/translate_exercises.py check              # untranslated, fuzzy, stale?
    python scripts/translate_exercises.py status             # which set in which language

``build`` writes the translated teacher source of every set that has a catalog, then runs
``nbgrader generate_assignment`` in ``teacher/<lang>`` for it (``--no-release`` skips that).
A set with no catalog in a language is not started there: nothing is built, and the
landing page of that language links to the English set.
"""

from __future__ import annotations

import argparse
import ast
import copy
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import nbformat
from babel.messages.catalog import Catalog

sys.path.insert(0, str(Path(__file__).resolve().parent))
import translate_notebooks as lessons  # noqa: E402 - the lessons' tool, beside this file

ROOT = lessons.ROOT
TEACHER = ROOT / "teacher"
SOURCES = TEACHER / "source"
TEMPLATES = lessons.TRANSLATIONS / "exercises"
PROJECT = "minigrad exercise sets"
HEADER = """\
# The texts of a minigrad exercise set to translate, from scripts/translate_exercises.py extract.
# Do not edit: translate translations/<lang>/exercises/<this name>.po
# (docs/translating_exercises.md)
# A location's number is the notebook's cell (from 1)."""

# nbgrader's markers are instructions to nbgrader, not prose: never entries.
NBGRADER_MARKER = re.compile(r"^#* ?(BEGIN|END) (SOLUTION|HIDDEN TESTS)$|^YOUR CODE HERE$")


def _check_functions() -> frozenset[str]:
    """The functions of ``minigrad_course.checks`` whose first parameter is the check's
    ``name``: the calls whose words reach a student."""
    sys.path.insert(0, str(ROOT))
    from minigrad_course import checks

    return frozenset(
        name
        for name, function in vars(checks).items()
        if inspect.isfunction(function)
        and not name.startswith("_")
        and function.__module__ == checks.__name__
        and next(iter(inspect.signature(function).parameters), None) == "name"
    )


CHECK_FUNCTIONS = _check_functions()


# --------------------------------------------------------------------------- check strings


@dataclass(frozen=True)
class Literal:
    """A string literal of a code cell that a student reads in a check's message: ``text`` is
    its value, written from ``start`` to ``end`` (``(line, column)``, from 0, in characters;
    implicitly concatenated parts are one literal)."""

    start: tuple[int, int]
    end: tuple[int, int]
    text: str
    kind: str  # "label", "hint", "common mistake" or "message"


def is_prose_label(label: str) -> bool:
    """Whether a check's name is words to translate: not a Python expression, and an
    English word outside code. ``x.grad``, ``remembering(steps)``, ``c.grad is None`` and
    ``f'(3)`` stay as written; ``saved at (A)`` and ``the printed values`` are prose.

    >>> [is_prose_label(s) for s in ("x.grad", "c.grad is None", "f'(3)", "saved at (A)")]
    [False, False, False, True]
    """
    try:
        ast.parse(label, mode="eval")
    except SyntaxError:
        return lessons.needs_translation(label)
    return False


def _call_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return None


def _is_text(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def check_strings(code: str) -> list[Literal]:
    """The string literals of ``code`` that a check shows a student, in the order they are
    written. The rule, for each call of a check (a function of ``minigrad_course.checks``
    whose first parameter is ``name``, called as ``mc.check_value``, ``_mc.check_grad``...):

    - its ``hint=`` keyword;
    - the message of each ``(mistake, message)`` pair of its ``common_mistakes=`` list;
    - its name (first argument, or ``name=``) when :func:`is_prose_label` says it is prose;

    and, anywhere in the cell, the message of an ``assert`` (``assert ok, "message"``) or of a
    raised exception (``raise AssertionError("message")``), which a check cell's own helpers
    show when an answer fails them; a message built with ``"...{name}...".format(...)`` is
    its literal, placeholders and all.

    A hint or message written as a variable (``one_path``) stands for the string literal
    assigned to that name at the top level of the same cell. Only literals with an English
    word outside code are entries; f-strings and computed strings are not translated.

    >>> code = 'tip = "Add both paths."\\nmc.check_value("x.grad", g, hint="Sum them.",\\n' \\
    ...        '    common_mistakes=[(3, tip)])\\nmc.check_equal("the set of leaves", s)'
    >>> [(s.text, s.kind) for s in check_strings(code)]
    [('Add both paths.', 'common mistake'), ('Sum them.', 'hint'), ('the set of leaves', 'label')]
    >>> [s.text for s in check_strings('assert len(g) == 3, "return three gradients"')]
    ['return three gradients']
    >>> [s.text for s in check_strings('assert ok, "{name} has the wrong shape".format(name=n)')]
    ['{name} has the wrong shape']
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a cell magic: no checks in it
        return []
    assigned: dict[str, list[ast.Constant]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and _is_text(statement.value):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(statement.value)

    def texts(node: ast.AST) -> list[ast.Constant]:
        if _is_text(node):
            return [node]
        if isinstance(node, ast.Name):
            return assigned.get(node.id, [])
        return []

    def message_text(node: ast.AST | None) -> ast.Constant | None:
        # "..." or "...{name}...".format(name=...): the literal is the entry, its
        # placeholders kept by the translator.
        if _is_text(node):
            return node
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and _is_text(node.func.value)
        ):
            return node.func.value
        return None

    found: dict[int, tuple[ast.Constant, str]] = {}
    for node in ast.walk(tree):
        message = None
        if isinstance(node, ast.Assert):
            message = message_text(node.msg)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            message = message_text(node.exc.args[0])
        if message is not None:
            found.setdefault(id(message), (message, "message"))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _call_name(call) not in CHECK_FUNCTIONS:
            continue
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        name = call.args[0] if call.args else keywords.get("name")
        if _is_text(name) and is_prose_label(name.value):
            found.setdefault(id(name), (name, "label"))
        for node in texts(keywords.get("hint")):
            found.setdefault(id(node), (node, "hint"))
        mistakes = keywords.get("common_mistakes")
        for pair in getattr(mistakes, "elts", []):
            if isinstance(pair, ast.Tuple) and len(pair.elts) == 2:
                for node in texts(pair.elts[1]):
                    found.setdefault(id(node), (node, "common mistake"))
    lines = code.split("\n")

    def position(line: int, byte_column: int) -> tuple[int, int]:
        # ast counts columns in UTF-8 bytes; the lines are edited in characters.
        return line - 1, len(lines[line - 1].encode()[:byte_column].decode())

    literals = [
        Literal(
            position(node.lineno, node.col_offset),
            position(node.end_lineno, node.end_col_offset),
            node.value,
            kind,
        )
        for node, kind in found.values()
        if lessons.needs_translation(node.value)
    ]
    return sorted(literals, key=lambda literal: literal.start)


# A translated string is written in parts of at most this many columns (a Chinese character
# takes two), so that ruff's formatting can lay a long one out over lines within 100 columns.
PART_WIDTH = 60


def width(text: str) -> int:
    """Columns ``text`` takes in an editor: two for a wide (Chinese) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def string_parts(text: str) -> list[str]:
    """``text`` cut into parts of at most :data:`PART_WIDTH` columns, after a space where
    there is one (a part keeps its trailing space, as the English sources write them), else
    after a full-width punctuation mark or anywhere (Chinese has no spaces).

    >>> string_parts("short")
    ['short']
    >>> [width(part) <= PART_WIDTH for part in string_parts("梯度" * 40)]
    [True, True, True]
    """
    parts: list[str] = []
    rest = text
    while width(rest) > PART_WIDTH:
        cut, used = 0, 0
        for index, char in enumerate(rest):
            used += width(char)
            if used > PART_WIDTH:
                break
            cut = index + 1
        spaces = [i + 1 for i in range(cut) if rest[i] == " " or rest[i] in "，。：；？！、"]
        if spaces and spaces[-1] > cut // 2:
            cut = spaces[-1]
        parts.append(rest[:cut])
        rest = rest[cut:]
    return [*parts, rest] if rest or not parts else parts


def python_string(text: str) -> str:
    """``text`` as Python source: double-quoted parts, implicitly concatenated.

    >>> python_string('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    quoted = [
        '"' + part.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        for part in string_parts(text)
    ]
    return " ".join(quoted)


def ruff_formatted(code: str) -> str:
    """``code`` as ``ruff format`` writes it, with the project's settings (a notebook cell:
    no final newline)."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        raise SystemExit("error: ruff is needed to lay out translated checks (pip install ruff)")
    result = subprocess.run(
        [ruff, "format", "--stdin-filename", "cell.py", "-"],
        input=code,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return result.stdout.removesuffix("\n")


def translate_checks(code: str, translate) -> str:
    """``code`` with each check string of :func:`check_strings` translated, and laid out by
    ruff as the English was (a cell with nothing translated comes back unchanged).

    >>> russian = {"Sum them.": "Сложите."}
    >>> translate_checks('mc.check_value("x.grad", g, hint="Sum them.")', russian.get)
    'mc.check_value("x.grad", g, hint="Сложите.")'
    """
    lines = code.split("\n")
    changed = False
    for literal in reversed(check_strings(code)):
        translated = translate(literal.text) or literal.text
        if translated == literal.text:
            continue
        (first, start), (last, end) = literal.start, literal.end
        lines[first : last + 1] = [
            lines[first][:start] + python_string(translated) + lines[last][end:]
        ]
        changed = True
    return ruff_formatted("\n".join(lines)) if changed else code


# --------------------------------------------------------------------------- catalogs


def exercise_entries(nb: nbformat.NotebookNode) -> list[lessons.Entry]:
    """Every text of a set to translate, in reading order: a lesson's entries (Markdown blocks
    and comments, by the lessons' own function; nbgrader's markers aside), then, in each code
    cell, its check strings."""
    entries = [
        entry
        for entry in lessons.notebook_entries(nb)
        if not ("a comment in code" in entry.note and NBGRADER_MARKER.match(entry.text))
    ]
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type == "code":
            for literal in check_strings(cell.source):
                note = f"cell {number}, a check's {literal.kind}: plain text, shown to the student"
                entries.append(lessons.Entry(literal.text, number, note))
    # By cell, each cell's lesson entries first (sorted() keeps the order of equal cells).
    return sorted(entries, key=lambda entry: entry.line)


def source_path(name: str) -> Path:
    return SOURCES / name / f"{name}.ipynb"


def template_path(name: str) -> Path:
    return TEMPLATES / f"{name}.pot"


def catalog_path(lang: str, name: str) -> Path:
    return lessons.TRANSLATIONS / lang / "exercises" / f"{name}.po"


def translated_source_path(lang: str, name: str) -> Path:
    return TEACHER / lang / "source" / name / f"{name}.ipynb"


def released_path(lang: str, name: str) -> Path:
    return lessons.NOTEBOOKS / lang / "exercises" / name / f"{name}.ipynb"


def template_for(name: str) -> Catalog:
    catalog = Catalog(project=PROJECT, fuzzy=False, header_comment=HEADER)
    where = source_path(name).relative_to(ROOT).as_posix()
    for entry in exercise_entries(nbformat.read(source_path(name), as_version=4)):
        catalog.add(entry.text, locations=[(where, entry.line)], auto_comments=[entry.note])
    return catalog


def sets_with_templates() -> list[str]:
    return [pot.stem for pot in sorted(TEMPLATES.glob("*.pot"))]


def languages() -> list[str]:
    """The languages with exercise catalogs: the folders ``translations/<lang>/exercises``."""
    folders = lessons.TRANSLATIONS.glob("*/exercises")
    return sorted(path.parent.name for path in folders if path.is_dir())


def is_translated(name: str, lang: str) -> bool:
    """True when ``lang`` has a catalog for set ``name`` with every entry done, and the set
    is released: only such a set is linked from that language's landing page."""
    return lessons.is_exercise_set_translated(name, lang)


# --------------------------------------------------------------------------- building


def built_source(
    name: str, lang: str, catalog: Catalog, english: nbformat.NotebookNode | None = None
) -> nbformat.NotebookNode:
    """The translated teacher source: Markdown and comments as in a lesson, the check strings
    translated, the widgets told the language, and ``metadata.minigrad.language`` (which the
    checks and autograding speak). Cell metadata (nbgrader's ids, points) is kept; outputs
    are not. ``english`` translates another English version of the set than its source (a
    class variant's, whose code differs from it in numbers only)."""
    done = lessons.translations(catalog)
    if english is None:
        english = nbformat.read(source_path(name), as_version=4)
    nb = copy.deepcopy(english)
    widgets_told = False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = lessons.translate_markdown(cell.source, done.get)
        elif cell.cell_type == "code":
            cell.source = translate_checks(
                lessons.translate_comments(cell.source, done.get), done.get
            )
            imports = map(lessons.WIDGETS_IMPORT.match, cell.source.splitlines())
            if not widgets_told and any(imports):
                cell.source = lessons.with_widget_language(cell.source, lang)
                widgets_told = True
    nb.metadata.setdefault("minigrad", {})["language"] = lang
    # The English source's outputs are its own (English labels, English verdicts): a translated
    # source stores none. nbgrader's release clears outputs anyway, and `make test` runs the
    # translated sources with nbval, where a failing check fails.
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata.pop("widgets", None)
    return nb


def canonical(nb: nbformat.NotebookNode) -> str:
    return json.dumps(nb, sort_keys=True, ensure_ascii=False, indent=1)


def stale_reason(name: str, lang: str) -> str | None:
    """Why the translated teacher source of ``name`` is not what ``build`` writes now (None
    when it is current). That its release is what nbgrader makes of it, the course tests
    check (tests/course/test_translated_sets.py)."""
    built = translated_source_path(lang, name)
    if not built.exists():
        return f"{built.relative_to(ROOT)} does not exist"
    catalog = lessons.read_catalog(catalog_path(lang, name))
    wanted = built_source(name, lang, catalog)
    if canonical(nbformat.read(built, as_version=4)) != canonical(wanted):
        return f"{built.relative_to(ROOT)} differs from its source and catalog"
    if not released_path(lang, name).exists():
        return f"{released_path(lang, name).relative_to(ROOT)} does not exist"
    return None


def release(name: str, lang: str) -> None:
    """``nbgrader generate_assignment`` for one set in the language's course directory (a
    scratch gradebook: releasing for the repository enrols no one)."""
    nbgrader = shutil.which("nbgrader", path=str(Path(sys.executable).parent)) or "nbgrader"
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, JUPYTER_CONFIG_DIR=scratch, JUPYTER_DATA_DIR=scratch)
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        subprocess.run(
            [
                nbgrader,
                "generate_assignment",
                name,
                "--force",
                f"--CourseDirectory.db_url=sqlite:///{Path(scratch) / 'gradebook.db'}",
            ],
            cwd=TEACHER / lang,
            env=env,
            check=True,
        )


def build(name: str, lang: str, release_it: bool, force: bool = False) -> None:
    """Write the translated teacher source of ``name``, then release it with nbgrader when it
    changed, or has no release yet, or ``force``."""
    catalog = lessons.read_catalog(catalog_path(lang, name))
    missing = lessons.unfinished(catalog)
    if missing:
        print(f"  {len(missing)} entries not translated: shown in English", file=sys.stderr)
    built = translated_source_path(lang, name)
    built.parent.mkdir(parents=True, exist_ok=True)
    before = built.read_bytes() if built.exists() else None
    nbformat.write(built_source(name, lang, catalog), built)
    if not release_it:
        return
    if force or built.read_bytes() != before or not released_path(lang, name).exists():
        release(name, lang)
    else:
        print("  current, not released again (--force releases it)")


# --------------------------------------------------------------------------- commands


def extract(names: list[str]) -> None:
    for name in names or sets_with_templates():
        template, pot = template_for(name), template_path(name)
        if pot.exists() and lessons.messages(lessons.read_catalog(pot)) == lessons.messages(
            template
        ):
            print(f"{pot.relative_to(ROOT)}: current")
            continue
        lessons.write_catalog(template, pot)
        print(f"{pot.relative_to(ROOT)}: {len(lessons.messages(template))} entries")


def update(langs: list[str], names: list[str]) -> None:
    for name in names or sets_with_templates():
        template = lessons.read_catalog(template_path(name))
        for lang in langs:
            path = catalog_path(lang, name)
            if path.exists():
                catalog = lessons.read_catalog(path)
            else:
                catalog = Catalog(
                    locale=lang,
                    project=PROJECT,
                    fuzzy=False,
                    header_comment=f"# {lang} translation of a minigrad exercise set: "
                    "see docs/translating_exercises.md.",
                )
            catalog.update(template)
            lessons.write_catalog(catalog, path)
            left = lessons.unfinished(catalog)
            total = len(lessons.messages(catalog))
            print(f"{path.relative_to(ROOT)}: {len(left)} of {total} to do")


def check(langs: list[str]) -> list[str]:
    """Everything that keeps the translated sets from being finished and current (a set
    with no catalog in a language is not started there, and not a problem)."""
    problems = []
    for name in sets_with_templates():
        if lessons.messages(lessons.read_catalog(template_path(name))) != lessons.messages(
            template_for(name)
        ):
            problems.append(f"{template_path(name).relative_to(ROOT)} is out of date: extract")
        for lang in langs:
            path = catalog_path(lang, name)
            if not path.exists():
                continue
            for text in lessons.unfinished(lessons.read_catalog(path)):
                problems.append(f"{path.relative_to(ROOT)}: untranslated or fuzzy: {text[:60]!r}")
            reason = stale_reason(name, lang)
            if reason:
                problems.append(f"{reason}: build")
    return problems


def status() -> str:
    """Which set exists in which language: a table for the docs and the terminal."""
    rows = []
    for source in sorted(SOURCES.glob("*/*.ipynb")):
        name = source.stem
        cells = [
            "done"
            if is_translated(name, lang)
            else "started"
            if catalog_path(lang, name).exists()
            else "-"
            for lang in languages()
        ]
        rows.append(f"{name:32} " + " ".join(f"{cell:8}" for cell in cells))
    return f"{'set':32} " + " ".join(f"{lang:8}" for lang in languages()) + "\n" + "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for command, text in (
        ("extract", "English teacher sources -> templates (.pot)"),
        ("update", "templates -> catalogs"),
        ("build", "catalogs -> translated teacher sources, then nbgrader's release"),
        ("check", "what is not done"),
        ("status", "which set exists in which language"),
    ):
        sub = commands.add_parser(command, help=text)
        if command != "extract":
            sub.add_argument("--lang", action="append", help="a language (default: every one)")
        if command in ("extract", "update", "build"):
            sub.add_argument("sets", nargs="*", help="only these sets, e.g. 01_gradients")
        if command == "build":
            sub.add_argument("--no-release", action="store_true", help="no generate_assignment")
            sub.add_argument("--force", action="store_true", help="release even when current")
    args = parser.parse_args(argv)

    names = sorted({Path(name).stem for name in getattr(args, "sets", [])})
    if unknown := [name for name in names if not source_path(name).exists()]:
        print(f"not an exercise set: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.command == "extract":
        extract(names)
        return 0
    langs = args.lang or languages()
    if args.command == "update":
        update(langs, names)
    elif args.command == "build":
        for lang in langs:
            for name in names or sets_with_templates():
                if catalog_path(lang, name).exists():
                    print(f"building {translated_source_path(lang, name).relative_to(ROOT)} ...")
                    build(name, lang, release_it=not args.no_release, force=args.force)
    elif args.command == "status":
        print(status())
    else:
        problems = check(langs)
        print("\n".join(problems) or "every translated exercise set is finished and current")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
