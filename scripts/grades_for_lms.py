"""nbgrader's grades with one column per exercise set, for a learning platform's gradebook.

``nbgrader export`` writes ``grades.csv`` in long form: one row per student and set, with
``score`` and ``max_score``. A gradebook import (Moodle's "Import grades from CSV", Canvas's
gradebook import, a spreadsheet) wants wide form instead: one row per student, one column per
graded item. From ``teacher/``:

    nbgrader export
    python ../scripts/grades_for_lms.py grades.csv grades_for_lms.csv

writes ``grades_for_lms.csv``: the columns ``student_id``, ``last_name``, ``first_name`` and
``email``, then one column per set, named after the set, holding the student's score (after
any late penalty) in points. It prints each set's maximum, which the platform's item for that
set should have as its maximum too.

A student who handed nothing in for a set gets 0, as in nbgrader's own export: gradebooks
leave an empty cell ungraded, and Moodle's and Canvas's course totals skip ungraded items, so
an empty cell would raise the total of a student who missed a deadline. Export only the sets
that are due (``nbgrader export --assignment=01_gradients``, the option once for each set) to
keep the others out of the file.

nbgrader writes ``grades.csv`` without quoting: a name with a comma in it shifts that row's
columns. This script stops with the line's number rather than guess which column is which;
fix the name in the roster (``nbgrader db student import``) and export again.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

# The columns of nbgrader's export this script reads, and the student's columns it keeps.
NEEDED = ("assignment", "student_id", "last_name", "first_name", "email", "score", "max_score")
STUDENT_COLUMNS = ("student_id", "last_name", "first_name", "email")


class GradesFileError(ValueError):
    """``grades.csv`` is not what ``nbgrader export`` writes, or a row cannot be read safely."""


def points(text: str) -> str:
    """A score as a gradebook shows it: no trailing ``.0``, no rounding.

    >>> points("6.0"), points("2.5"), points("0.0"), points("")
    ('6', '2.5', '0', '0')
    """
    if text.strip() == "":
        return "0"
    value = float(text)
    return str(int(value)) if value.is_integer() else repr(value)


def read_long_grades(lines: Iterable[str]) -> list[dict[str, str]]:
    """The rows of nbgrader's ``grades.csv``, each checked to have exactly the header's columns.

    >>> rows = read_long_grades([
    ...     "assignment,student_id,last_name,first_name,email,score,max_score",
    ...     "01_gradients,1001,Smith,Alice,alice@example.org,6.0,6.0",
    ... ])
    >>> rows[0]["first_name"], rows[0]["score"]
    ('Alice', '6.0')
    >>> read_long_grades([  # doctest: +ELLIPSIS
    ...     "assignment,student_id,last_name,first_name,email,score,max_score",
    ...     "01_gradients,1001,Smith,Jr.,Alice,alice@example.org,6.0,6.0",
    ... ])
    Traceback (most recent call last):
    ...
    grades_for_lms.GradesFileError: line 2 has 8 columns, the header 7: a name or email ...
    """
    reader = csv.reader(lines)
    header = next(reader, None)
    if header is None:
        raise GradesFileError("the file is empty: run `nbgrader export` first")
    missing = [column for column in NEEDED if column not in header]
    if missing:
        raise GradesFileError(f"not nbgrader's grades.csv: no column {', '.join(missing)}")
    rows = []
    for line_number, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise GradesFileError(
                f"line {line_number} has {len(fields)} columns, the header {len(header)}: "
                "a name or email with a comma in it? (nbgrader's export does not quote them)"
            )
        rows.append(dict(zip(header, fields)))
    return rows


def wide_grades(rows: Sequence[dict[str, str]]) -> tuple[list[str], list[list[str]]]:
    """One row per student and one column per set, from the rows of ``read_long_grades``.

    Students and sets keep the order in which they first appear. A student with no row for a
    set gets 0 there, as nbgrader's export gives a student without a submission.

    >>> header, table = wide_grades([
    ...     {"assignment": "01_gradients", "student_id": "1001", "last_name": "Smith",
    ...      "first_name": "Alice", "email": "a@example.org", "score": "6.0", "max_score": "6.0"},
    ...     {"assignment": "02_chain_rule", "student_id": "1002", "last_name": "Петров",
    ...      "first_name": "Иван", "email": "i@example.org", "score": "2.5", "max_score": "4.0"},
    ... ])
    >>> header
    ['student_id', 'last_name', 'first_name', 'email', '01_gradients', '02_chain_rule']
    >>> for row in table:
    ...     print(row)
    ['1001', 'Smith', 'Alice', 'a@example.org', '6', '0']
    ['1002', 'Петров', 'Иван', 'i@example.org', '0', '2.5']
    """
    sets: list[str] = []
    students: dict[str, list[str]] = {}
    scores: dict[tuple[str, str], str] = {}
    for row in rows:
        student, name = row["student_id"], row["assignment"]
        if name not in sets:
            sets.append(name)
        students.setdefault(student, [row[column] for column in STUDENT_COLUMNS])
        if (student, name) in scores:
            raise GradesFileError(f"two rows for student {student} and set {name}")
        scores[student, name] = points(row["score"])
    table = [
        details + [scores.get((student, name), "0") for name in sets]
        for student, details in students.items()
    ]
    return [*STUDENT_COLUMNS, *sets], table


def maximum_of_each_set(rows: Sequence[dict[str, str]]) -> dict[str, str]:
    """Each set's maximum score in points, as nbgrader's export gives it.

    >>> maximum_of_each_set([{"assignment": "01_gradients", "max_score": "6.0"}])
    {'01_gradients': '6'}
    """
    return {row["assignment"]: points(row["max_score"]) for row in rows}


def main(argv: Sequence[str] | None = None) -> int:
    """Read nbgrader's ``grades.csv``, write the wide file; 1 with a message if it cannot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grades", type=Path, help="the grades.csv that `nbgrader export` wrote")
    parser.add_argument("output", type=Path, help="the CSV to write, one column per set")
    arguments = parser.parse_args(argv)
    try:
        with arguments.grades.open(newline="", encoding="utf-8") as source:
            rows = read_long_grades(source)
        header, table = wide_grades(rows)
    except (OSError, GradesFileError) as error:
        print(f"grades_for_lms.py: {arguments.grades}: {error}", file=sys.stderr)
        return 1
    # UTF-8, as nbgrader writes grades.csv on Linux and macOS: Cyrillic and Chinese names
    # stay as they are (choose UTF-8 in the platform's import form if it asks).
    with arguments.output.open("w", newline="", encoding="utf-8") as target:
        writer = csv.writer(target)
        writer.writerow(header)
        writer.writerows(table)
    print(f"{len(table)} students, {len(header) - len(STUDENT_COLUMNS)} sets -> {arguments.output}")
    for name, maximum in maximum_of_each_set(rows).items():
        print(f"  {name}: out of {maximum} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
