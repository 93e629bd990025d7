"""Write the JupyterLab extension's words, ``widgets/labextension/src/words.json``, from the
widgets' gettext catalogs.

The extension's sentences are written in English in its JavaScript, marked ``N_('...')``;
``make catalogs`` extracts them into ``widgets/locale/widgets.pot`` with the widgets' other
words, and they are translated in ``widgets/locale/{ru,zh_CN}/LC_MESSAGES/widgets.po``. The
browser cannot read those catalogs, so this script copies the translations of every entry
extracted from the extension's folder into a JSON table the extension imports:

    {"stored picture; ...": {"ru": "...", "zh_CN": "..."}, ...}

``make labextension`` (scripts/build_labextension.sh) runs it before building:

    .venv/bin/python scripts/labextension_words.py          rewrite words.json
    .venv/bin/python scripts/labextension_words.py --check  exit 1 unless words.json is
                                                            what the catalogs make now

An entry that is untranslated or fuzzy in a catalog stops it: the extension would show that
sentence in English (``tests/widgets/test_i18n.py`` fails on it too).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from babel.messages import pofile

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "widgets" / "locale"
EXTENSION_SOURCES = "widgets/labextension/src/"
TABLE = ROOT / EXTENSION_SOURCES / "words.json"
LANGUAGES = ("ru", "zh_CN")


def extension_sentences(template: Path = LOCALE / "widgets.pot") -> list[str]:
    """The English sentences extracted from the extension's JavaScript, in template order."""
    with open(template, "rb") as file:
        catalog = pofile.read_po(file)
    return [
        message.id
        for message in catalog
        if message.id and any(where.startswith(EXTENSION_SOURCES) for where, _ in message.locations)
    ]


def words_table(locale: Path = LOCALE) -> dict[str, dict[str, str]]:
    """Each extension sentence with its translation in every language of the course.

    >>> table = words_table()
    >>> sorted(table["stored picture; run the cell to step it"])
    ['ru', 'zh_CN']
    """
    sentences = extension_sentences(locale / "widgets.pot")
    table: dict[str, dict[str, str]] = {sentence: {} for sentence in sentences}
    for language in LANGUAGES:
        with open(locale / language / "LC_MESSAGES" / "widgets.po", "rb") as file:
            catalog = pofile.read_po(file, locale=language)
        for sentence in sentences:
            message = catalog.get(sentence)
            if message is None or not message.string or message.fuzzy:
                raise SystemExit(
                    f"labextension_words: {sentence!r} is not translated in {language} "
                    "(run `make catalogs`, then translate it in its widgets.po)"
                )
            table[sentence][language] = message.string
    return table


def table_text(table: dict[str, dict[str, str]]) -> str:
    """The JSON as committed: UTF-8 words, not escapes, so that a reviewer reads them."""
    return json.dumps(table, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    arguments = parser.parse_args(argv)
    fresh = table_text(words_table())
    if arguments.check:
        if TABLE.exists() and TABLE.read_text(encoding="utf-8") == fresh:
            return 0
        print(f"labextension_words: {TABLE.relative_to(ROOT)} is stale: run make labextension")
        return 1
    TABLE.write_text(fresh, encoding="utf-8")
    print(f"labextension_words: {TABLE.relative_to(ROOT)} ({len(json.loads(fresh))} sentences)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
