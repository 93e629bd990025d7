"""Class variants (scripts/class_variant.py): a class's own numbers, graded by nbgrader.

A secret is drawn here, as a teacher's would be. The sets that vary (``teacher/variants``)
are written for that class, released and autograded by real nbgrader in a temporary
course folder: the class's teacher's answers score full marks, the untouched release
nothing, and every typical wrong answer (with the class's numbers) loses its points with its
hint. The class's key is in no file this repository tracks, nor in the class's release; two
secrets give two keys; and with no secret the command gives back each template's own key,
which the rest of ``tests/course`` grades.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import secrets
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbgrader_course import (
    ROOT,
    Course,
    by_id,
    course_environment,
    error_text,
    grade_cells,
    nbgrader_meta,
    strip_solution,
)

_spec = importlib.util.spec_from_file_location(
    "class_variant", ROOT / "scripts" / "class_variant.py"
)
class_variant = importlib.util.module_from_spec(_spec)
sys.modules["class_variant"] = class_variant
_spec.loader.exec_module(class_variant)

VARYING = class_variant.varying_sets()
SECRET = secrets.token_hex(16)  # a class's secret, new on every run


def test_some_sets_vary():
    assert {"07_differentiating_twice", "10_checking_gradients"} <= set(VARYING)


def test_every_graded_exercise_of_every_set_varies():
    """Issue 20: a class's graded values come from its secret, never from this public
    repository, so no exercise keeps the repository's key in a class variant. A new
    exercise fails here until teacher/variants declares what a class gets instead."""
    kept = []
    for source in sorted(class_variant.SOURCES.glob("[0-9][0-9]_*")):
        template = class_variant.read_source(source.name)
        graded = {
            class_variant.exercise_of(cell.metadata["nbgrader"]["grade_id"])
            for cell in template.cells
            if cell.metadata.get("nbgrader", {}).get("grade")
        }
        assert graded, source.name
        found = class_variant.declaration(source.name)
        varied = class_variant._varied_exercises(template, found) if found else set()
        kept += [f"{source.name} {exercise}" for exercise in sorted(graded - varied)]
    assert not kept, "the same for every class: " + ", ".join(kept)


@pytest.fixture(scope="module")
def variants() -> dict:
    return {name: class_variant.make_variant(name, SECRET) for name in VARYING}


# --------------------------------------------------------------------------- the template
def _value_of(node):
    """A literal's value; arithmetic's too (``0.5 / 3.0``); else the code (``_points``)."""
    try:
        return eval(compile(ast.Expression(node), "<key>", "eval"), {"__builtins__": {}})  # noqa: S307
    except NameError:
        return ast.unparse(node)


def _key(nb) -> dict:
    """Every check's teacher's arguments that the variants rewrite, by (cell, index)."""
    key = {}
    for cell in grade_cells(nb):
        for index, call in enumerate(class_variant.check_calls(cell.source)):
            found = {}
            for argument in ("expected", "fingerprint", "fingerprints", "points"):
                node = call.keyword(argument)
                if node is not None:
                    found[argument] = _value_of(node)
                    if not class_variant.is_literal(node):  # computed as the key is made
                        found.setdefault("computed", []).append(argument)
            mistakes = class_variant._mistake_nodes(call)
            found["mistakes"] = [
                [class_variant.literal_or_code(a) for a in m.args] for m, _ in mistakes
            ]
            key[nbgrader_meta(cell)["grade_id"], index] = found
    return key


def _same(a, b) -> bool:
    """Equal, numbers within the checks' own tolerance (a template may hold the exact value
    where the reference solution computes an estimate: set 10's central differences)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list) and any(isinstance(x, list) for x in a):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))  # ragged: set 11's
    try:
        return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-6, atol=0))
    except (TypeError, ValueError):
        return a == b


@pytest.mark.parametrize("name", VARYING)
def test_without_a_secret_the_command_gives_back_the_templates_key(name):
    """Every fingerprint the template holds, of a right answer or of a common mistake, is
    the one the command computes from the solution or from the wrong answer with its hint;
    the expected values and the points are the template's."""
    template = class_variant.read_source(name)
    default = class_variant.make_variant(name, None)
    computed, written = _key(default.nb), _key(template)
    assert computed.keys() == written.keys()
    for check in written:
        computed[check].pop("computed", None)  # written out as a literal now, the same value
        written[check].pop("computed", None)
        assert _same(computed[check], written[check]), (check, computed[check], written[check])
    assert [c.source for c in default.nb.cells if nbgrader_meta(c).get("solution")] == [
        c.source for c in template.cells if nbgrader_meta(c).get("solution")
    ]


@pytest.mark.parametrize("name", VARYING)
def test_a_class_gets_other_numbers_and_another_key(variants, name):
    variant = variants[name]
    template_key = _key(class_variant.read_source(name))
    variant_key = _key(variant.nb)
    assert variant.numbers or variant.points or variant.words or variant.phrases
    varied = {exercise for exercise in [*variant.numbers, *variant.phrases]} | {
        class_variant.exercise_of(grade_id)
        for (grade_id, index), found in variant_key.items()
        if "points" in found and found["points"] != template_key[grade_id, index]["points"]
    }
    for (grade_id, index), found in variant_key.items():
        computed = "expected" in found.get("computed", [])  # from public points, as it grades
        if class_variant.exercise_of(grade_id) in varied and "expected" in found and not computed:
            before = template_key[grade_id, index]["expected"]
            if isinstance(before, bool | str):  # a choice beside a number (c.grad is None)
                assert found["expected"] == before
                continue
            assert not _same(found["expected"], before)


def test_a_draw_that_gives_a_hidden_test_the_repositorys_value_is_drawn_again():
    name = "04_accumulation_and_zeroing"
    template = class_variant.read_source(name)
    found = class_variant.declaration(name)
    wrong = class_variant.wrong_answers().get(name, {})
    # The other exercises' numbers and points as a class drawn in the open gets them.
    numbers, points = class_variant._draw(
        class_variant.draws("drawn-in-the-open-0", name)(0), found
    )
    # b.grad = a + 1 + 2b is 8 for a = 2, b = 2.5, as for the repository's a = 1, b = 3: the
    # public key would score. a = 2.5, b = 2 gives 7.5, and the class keeps its draw.
    with pytest.raises(class_variant.VariantError, match="b.grad is the public value"):
        numbers["ex1"] = {"1.0": "2.0", "3.0": "2.5"}
        class_variant.build_variant(name, template, wrong, found, numbers, points)
    numbers["ex1"] = {"1.0": "2.5", "3.0": "2.0"}
    kept = class_variant.build_variant(name, template, wrong, found, numbers, points)
    assert kept.expected[next(key for key in kept.expected if key[2] == "b.grad")] == "7.5"


def test_two_secrets_give_two_keys(variants):
    """Over three sets: one set alone may give two classes the same numbers (set 08 has five
    values to draw from), three sets together practically never."""
    other = {name: class_variant.make_variant(name, SECRET + "-other") for name in VARYING[:3]}
    assert {name: variant.expected for name, variant in other.items()} != {
        name: variants[name].expected for name in other
    }
    again = class_variant.make_variant(VARYING[0], SECRET)
    assert again.expected == variants[VARYING[0]].expected  # the same secret, the same key


def test_the_numbers_of_one_exercise_are_distinct_and_typeable(variants):
    for variant in variants.values():
        for numbers in variant.numbers.values():
            assert len(set(numbers.values())) == len(numbers)
            assert all(len(value.split(".")[-1]) <= 2 for value in numbers.values())


# --------------------------------------------------------------------------- no leak
def _text_of(path) -> str:
    """A file's text as a reader searches it: a notebook's cell sources and outputs."""
    try:
        raw = path.read_text()
    except (UnicodeDecodeError, OSError):
        return ""
    if path.suffix != ".ipynb":
        return raw
    nb = json.loads(raw)
    texts = []
    for cell in nb.get("cells", []):
        texts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            texts.append(json.dumps(output))
    return "\n".join(texts)


@pytest.fixture(scope="module")
def tracked_text() -> str:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return "\n".join(_text_of(ROOT / name) for name in filter(None, listed.split("\0")))


def _long_numbers_in(text: str) -> set[str]:
    """Numbers of eight or more significant digits (a short one, 3.0, is in many files),
    rounded to twelve: two writings of one value may differ in their last digit."""
    found = re.findall(r"\d+\.\d+(?:e-?\d+)?", text)
    return {f"{float(n):.11e}" for n in found if len(n.replace(".", "").lstrip("0")) >= 8}


def _key_lines(variant) -> list[str]:
    """The class's key as its hidden tests write it: the hidden blocks that changed. (Its
    fingerprints are no key: the class's release shows them, and a short answer's, 9.0's
    say, is in many files.)"""
    lines = []
    template = class_variant.read_source(variant.name)
    template_cells = by_id(template)
    for cell in grade_cells(variant.nb):
        hidden = class_variant.hidden_tests_of(cell.source)
        grade_id = nbgrader_meta(cell)["grade_id"]
        if hidden != class_variant.hidden_tests_of(template_cells[grade_id].source):
            lines.append(" ".join(hidden.split()))
    return lines


def test_the_class_key_is_in_no_tracked_file(variants, tracked_text):
    flat = " ".join(tracked_text.split())
    public = _long_numbers_in(tracked_text)
    long_ones = 0
    for variant in variants.values():
        values = _long_numbers_in(" ".join(variant.expected.values()))
        long_ones += len(values)
        assert not values & public, f"{variant.name}: {sorted(values & public)} in a tracked file"
        key = _key_lines(variant)
        assert key
        for line in key:
            assert line not in flat, f"{variant.name}: {line[:80]} is in a tracked file"
    assert long_ones > 10  # most keys hold values of many digits (set 15's are short)


# --------------------------------------------------------------------------- nbgrader
def class_submission(release, variant, which: int | None = None):
    """The class's release with the class's teacher's answers typed in, and the wrong
    answer number ``which`` of each exercise (with the class's numbers) where it has one."""
    nb = nbformat.from_dict(json.loads(json.dumps(release)))
    solutions = by_id(variant.nb)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("solution"):
            grade_id = nbgrader_meta(cell)["grade_id"]
            cell.source = strip_solution(solutions[grade_id].source)
            mistakes = variant.wrong.get(grade_id, [])
            if which is not None and which < len(mistakes):
                cell.source = mistakes[which][0]
    return nb


@pytest.fixture(scope="module")
def class_course(variants, tmp_path_factory) -> Course:
    """The class's course folder as the command writes it, the varying sets released and a
    submission graded per kind: solution, untouched, and the n-th wrong answer of each
    exercise ("wrong-0", "wrong-1", ...)."""
    root = tmp_path_factory.mktemp("class-course")
    class_variant.write_class(root, SECRET, VARYING)
    course = Course(root=root, env=course_environment(root))
    course.nbgrader("generate_assignment", "*", "--force")
    for name, variant in variants.items():
        release = course.release(name)
        course.submit("solution", name, class_submission(release, variant))
        course.submit("untouched", name, release)
        for which in range(max(len(m) for m in variant.wrong.values())):
            course.submit(f"wrong-{which}", name, class_submission(release, variant, which))
    course.nbgrader("autograde", "*", "--force")
    return course


@pytest.mark.parametrize("name", VARYING)
def test_the_class_release_holds_no_key(variants, class_course, name):
    release = class_course.release(name)
    text = " ".join(_text_of(class_course.root / "release" / name / f"{name}.ipynb").split())
    assert "BEGIN HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
    assert not _long_numbers_in(" ".join(variants[name].expected.values())) & _long_numbers_in(text)
    for line in _key_lines(variants[name]):
        assert line not in text, line[:80]
    assert release.cells  # it was written


@pytest.mark.parametrize("name", VARYING)
def test_the_class_teachers_answers_get_full_marks(class_course, name):
    score, max_score, cells = class_course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells


@pytest.mark.parametrize("name", VARYING)
def test_the_class_untouched_release_gets_nothing(class_course, name):
    score, _, cells = class_course.scores("untouched", name)
    assert score == 0, cells


@pytest.mark.parametrize("name", VARYING)
def test_every_wrong_answer_with_the_class_numbers_gets_its_hint(variants, class_course, name):
    variant = variants[name]
    most = max(len(m) for m in variant.wrong.values())
    for which in range(most):
        student = f"wrong-{which}"
        score, max_score, cells = class_course.scores(student, name)
        nb = by_id(class_course.autograded(student, name))
        for answer_id, mistakes in variant.wrong.items():
            if which >= len(mistakes):
                continue
            check_id = class_variant.exercise_of(answer_id) + "_check"
            assert cells[check_id] == 0, f"{student} {check_id} gave points for a wrong answer"
            shown = error_text(nb[check_id])
            assert mistakes[which][1] in shown, f"{student} {check_id}: {shown!r}"
        assert score < max_score


# --------------------------------------------------------------------------- the secret
def test_the_secret_comes_from_the_environment_else_a_file_made_once(tmp_path, monkeypatch):
    secret_file = tmp_path / "class_secret"
    monkeypatch.setenv(class_variant.SECRET_VARIABLE, "from-the-environment")
    assert class_variant.class_secret(secret_file) == "from-the-environment"
    assert not secret_file.exists()
    monkeypatch.delenv(class_variant.SECRET_VARIABLE)
    made = class_variant.class_secret(secret_file)
    assert len(made) == 32 and secret_file.stat().st_mode & 0o777 == 0o600
    assert class_variant.class_secret(secret_file) == made  # kept, not made again


def test_the_command_writes_a_course_folder_of_its_own(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(class_variant.SECRET_VARIABLE, SECRET)
    out = tmp_path / "class"
    class_variant.main(["--out", str(out), "07_differentiating_twice", "01_gradients"])
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.ipynb"))
    assert written == [
        "source/01_gradients/01_gradients.ipynb",
        "source/07_differentiating_twice/07_differentiating_twice.ipynb",
    ]
    config = (out / "nbgrader_config.py").read_text()
    assert config.rstrip().endswith('c.CourseDirectory.release_directory = "release"')
    assert "with this class's own numbers: 07_differentiating_twice" in capsys.readouterr().out


def test_git_ignores_the_class_secret_and_its_course_folder():
    paths = [
        "teacher/class_secret",
        "teacher/class/source/07_differentiating_twice/07_differentiating_twice.ipynb",
        "teacher/class/release/07_differentiating_twice/07_differentiating_twice.ipynb",
    ]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    assert ignored == paths


def test_the_student_archive_can_carry_a_class_release(tmp_path):
    """make student-release EXERCISES=teacher/class/release: the archive's exercise sets are
    the class's, under the same names as the public ones."""
    spec = importlib.util.spec_from_file_location(
        "student_release", ROOT / "scripts" / "student_release.py"
    )
    student_release = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(student_release)
    release = tmp_path / "release" / "07_differentiating_twice"
    release.mkdir(parents=True)
    (release / "07_differentiating_twice.ipynb").write_text("{}")
    wheel = tmp_path / "minigrad-0-py3-none-any.whl"
    files = student_release.student_files(wheel, tmp_path / "release")
    exercises = {name: path for name, path in files.items() if "/exercises/" in name}
    assert exercises == {
        "notebooks/exercises/07_differentiating_twice/07_differentiating_twice.ipynb": release
        / "07_differentiating_twice.ipynb"
    }
    public = student_release.student_files(wheel)
    assert sum("/exercises/" in name for name in public) == 18


# --------------------------------------------------------------------------- other languages
# A class taught in Russian or Chinese (class_variant.py --lang), under real nbgrader: in
# Russian, set 03 (a drawn number in the statement's prose, where Russian writes a decimal
# comma) and set 07 (numbers in a code block, drawn points); in Chinese, set 01 (numbers in
# the prose and in a code block).
TRANSLATED = {
    "ru": [
        "03_backward_step_by_step",
        "07_differentiating_twice",
        "09_training",
        "12_retain_grad_and_hooks",
    ],
    "zh_CN": ["01_gradients", "04_accumulation_and_zeroing"],
}
SCRIPT = {"ru": "[\u0400-\u04ff]", "zh_CN": "[\u4e00-\u9fff]"}


def test_numbers_in_prose_are_replaced_whole_and_as_the_language_writes_them():
    numbers = {"1.5": "2.25", "2.0": "0.5", "3": "4"}
    english = "At $x = 1.5$ and `y = 2.0`, not 11.5 nor 1.55 (exercise 3)."
    assert class_variant.substitute_in_prose(english, numbers) == (
        "At $x = 2.25$ and `y = 0.5`, not 11.5 nor 1.55 (exercise 3)."
    )
    russian = "В точке 1,5 (в коде `x = 1.5`, в формуле $f(1{,}5)$), а не 1,55; 2.0 и 2,0."
    assert class_variant.substitute_in_prose(russian, numbers, decimal_comma=True) == (
        "В точке 2,25 (в коде `x = 2.25`, в формуле $f(2{,}25)$), а не 1,55; 0.5 и 0,5."
    )
    assert class_variant.substitute_in_prose("1,5", numbers) == "1,5"  # a list, in English


def test_a_check_name_that_is_a_formula_gets_the_number_and_a_hint_does_not():
    code = 'mc.check_value("f\'(1.5)", d, hint="Evaluate at 1.5.", points=[1.5])'
    assert class_variant.substitute_numbers(code, {"1.5": "0.7"}, in_code=False) == (
        'mc.check_value("f\'(0.7)", d, hint="Evaluate at 1.5.", points=[1.5])'
    )


@pytest.fixture(scope="module", params=sorted(TRANSLATED))
def translated_class(request, variants, tmp_path_factory) -> tuple[str, Course]:
    """A class's course folder in one language, as ``class_variant.py --lang`` writes it,
    with its sets released and three submissions of each autograded: the class's teacher's
    answers (in that language), the untouched release and the first wrong answer of each
    exercise."""
    lang = request.param
    root = tmp_path_factory.mktemp(f"class-{lang}")
    with pytest.MonkeyPatch.context() as patch:  # the class's secret, as a teacher gives it
        patch.setenv(class_variant.SECRET_VARIABLE, SECRET)
        class_variant.main(["--lang", lang, "--out", str(root), *TRANSLATED[lang]])
    env = course_environment(root)
    env.pop("LANGUAGE", None)  # the language must come from the notebook, not the locale
    course = Course(root=root, env=env)
    course.nbgrader("generate_assignment", "*", "--force")
    for name in TRANSLATED[lang]:
        release = course.release(name)
        translated = class_variant.Variant(
            **{**vars(variants[name]), "nb": _class_source(course, name)}
        )
        course.submit("solution", name, class_submission(release, translated))
        course.submit("untouched", name, release)
        course.submit("wrong-0", name, class_submission(release, translated, 0))
    course.nbgrader("autograde", "*", "--force")
    return lang, course


def _class_source(course: Course, name: str):
    return nbformat.read(course.root / "source" / name / f"{name}.ipynb", as_version=4)


def _written(value: str, lang: str) -> list[str]:
    """The ways a statement in ``lang`` writes a drawn number (in code, always ``2.5``)."""
    if lang in class_variant.DECIMAL_COMMA:
        return [value, value.replace(".", ","), value.replace(".", "{,}")]
    return [value]


def test_a_translated_class_has_the_english_class_numbers_and_key(variants, translated_class):
    lang, course = translated_class
    for name in TRANSLATED[lang]:
        source, english = _class_source(course, name), variants[name].nb
        assert source.metadata["minigrad"]["language"] == lang
        assert _key(source) == _key(english)  # expected values, fingerprints, points, mistakes

        def code(nb) -> list[str]:  # the solutions, as Python reads them (comments translated)
            return [
                ast.dump(ast.parse(c.source)) for c in nb.cells if nbgrader_meta(c).get("solution")
            ]

        assert code(source) == code(english)
        # The statements are the language's, with the class's numbers where the English
        # class's statements have them.
        statements = [c.source for c in source.cells if c.cell_type == "markdown"]
        assert all(re.search(SCRIPT[lang], text) for text in statements[1:])
        english_statements = [c.source for c in english.cells if c.cell_type == "markdown"]
        drawn = [v for numbers in variants[name].numbers.values() for v in numbers.values()]
        assert drawn  # the test's sets have numbers in their statements
        for value in drawn:
            here = sum(any(w in text for w in _written(value, lang)) for text in statements)
            assert here == sum(value in text for text in english_statements), (name, value)


def test_a_translated_class_release_is_in_its_language_and_holds_no_key(
    variants, translated_class, tracked_text
):
    lang, course = translated_class
    flat = " ".join(tracked_text.split())
    for name in TRANSLATED[lang]:
        release_file = course.root / "release" / name / f"{name}.ipynb"
        assert course.release(name).metadata["minigrad"]["language"] == lang
        text = " ".join(_text_of(release_file).split())
        assert re.search(SCRIPT[lang], text)
        assert "BEGIN HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
        key = _long_numbers_in(" ".join(variants[name].expected.values()))
        assert key and not key & _long_numbers_in(text)
        assert not key & _long_numbers_in(tracked_text)
        template = class_variant.translation_tool().translated_source_path(lang, name)
        template_cells = by_id(nbformat.read(template, as_version=4))
        for cell in grade_cells(_class_source(course, name)):
            hidden = class_variant.hidden_tests_of(cell.source)
            grade_id = nbgrader_meta(cell)["grade_id"]
            if hidden != class_variant.hidden_tests_of(template_cells[grade_id].source):
                line = " ".join(hidden.split())
                assert line not in flat and line not in text, line[:80]


def test_a_translated_class_is_graded_on_its_numbers(variants, translated_class):
    lang, course = translated_class
    for name in TRANSLATED[lang]:
        score, max_score, cells = course.scores("solution", name)
        assert max_score > 0 and score == max_score, (name, cells)
        score, _, cells = course.scores("untouched", name)
        assert score == 0, (name, cells)
        graded = by_id(course.autograded("wrong-0", name))
        _, _, cells = course.scores("wrong-0", name)
        for answer_id in variants[name].wrong:
            check_id = class_variant.exercise_of(answer_id) + "_check"
            assert cells[check_id] == 0, f"{lang} {name}: {check_id} gave points for a wrong answer"
            assert re.search(SCRIPT[lang], error_text(graded[check_id])), (name, check_id)


# --------------------------------------------------------------------------- names and choices
# Sets 02 and 06 ask for names and choices (a grad_fn's name, which tensors are leaves,
# whether a second backward() fails), which numbers do not change: a class gets other code
# (``WORDS`` in teacher/variants), and its key is what the solutions, which compute their
# answers from that code, give. A secret written here, in the open, as a student could
# read it: its class of set 06 got the scripts' names swapped, so that every exercise of the
# two sets differs from the repository's.
WORDED = ["02_computation_graph", "06_retain_graph"]
OPEN_SECRET = "drawn-in-the-open-0"


def test_words_are_replaced_as_whole_tokens_and_all_at_once():
    swap = {"A": "B", "B": "A", "x + 1": "x - 1", "exp": "cos"}
    text = 'x + 1.5, x + 1, AB, {"A": x.exp()}, In B, expm1, В B, 脚本 A'
    assert class_variant.substitute_words(text, swap) == (
        'x + 1.5, x - 1, AB, {"B": x.cos()}, In A, expm1, В A, 脚本 B'
    )


def test_every_drawn_word_is_in_the_template_and_changes_it():
    """A fragment that a typo kept out of the exercise would vary nothing."""
    for name in WORDED:
        template = class_variant.read_source(name)
        found = class_variant.declaration(name)
        exercises = class_variant.exercise_per_cell(template)
        for exercise, groups in found.words.items():
            text = "\n".join(
                cell.source for cell, of in zip(template.cells, exercises) if of == exercise
            )
            for group in groups:
                for alternative in group:
                    for fragment in alternative:
                        table = {fragment: "\0"}
                        assert class_variant.substitute_words(text, table) != text, fragment


def _typed_in(release, source):
    """The release with the answer cells of ``source`` (a teacher's notebook) typed in."""
    nb = nbformat.from_dict(json.loads(json.dumps(release)))
    answers = by_id(source)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("solution"):
            cell.source = strip_solution(answers[nbgrader_meta(cell)["grade_id"]].source)
    return nb


@pytest.fixture(scope="module")
def open_class(tmp_path_factory) -> tuple[dict, Course]:
    """The sets 02 and 06 of the open secret's class, released and graded: the class's
    teacher's answers, the untouched release, and the repository's key (teacher/source's
    solutions) typed into the class's release."""
    return _class_graded(tmp_path_factory.mktemp("open-class"), OPEN_SECRET, WORDED)


def _class_graded(
    root: Path, secret: str, names: list[str], wrong: bool = False
) -> tuple[dict, Course]:
    """The sets ``names`` of the class of ``secret`` written into ``root``, released and
    autograded with three submissions each: the class's teacher's answers, the untouched
    release, and the repository's key typed in; with ``wrong``, every typical wrong answer
    too, with the class's numbers."""
    variants = {v.name: v for v in class_variant.write_class(root, secret, names)}
    course = Course(root=root, env=course_environment(root))
    course.nbgrader("generate_assignment", "*", "--force")
    for name, variant in variants.items():
        release = course.release(name)
        course.submit("solution", name, _typed_in(release, variant.nb))
        course.submit("untouched", name, release)
        course.submit("public-key", name, _typed_in(release, class_variant.read_source(name)))
        for which in range(max(len(m) for m in variant.wrong.values()) if wrong else 0):
            course.submit(f"wrong-{which}", name, class_submission(release, variant, which))
    course.nbgrader("autograde", "*", "--force")
    return variants, course


def _hidden_expected(nb) -> dict[str, object]:
    """The value each exercise's hidden test compares with."""
    found = {}
    for cell in grade_cells(nb):
        for call in class_variant.check_calls(cell.source):
            if call.hidden and call.keyword("expected") is not None:
                found[nbgrader_meta(cell)["grade_id"]] = _value_of(call.keyword("expected"))
    return found


@pytest.mark.parametrize("name", WORDED)
def test_the_repositorys_key_loses_the_exercises_whose_code_a_class_gets(open_class, name):
    variants, course = open_class
    variant = variants[name]
    assert set(variant.words) == set(class_variant.declaration(name).words)
    score, max_score, cells = course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells
    score, _, cells = course.scores("untouched", name)
    assert score == 0, cells
    public = _hidden_expected(class_variant.read_source(name))
    mine = _hidden_expected(variant.nb)
    _, _, cells = course.scores("public-key", name)
    for exercise in variant.words:
        check = exercise + "_check"
        # Every answer differs here (a class of set 06 keeps exercise 1's answer when its
        # scripts keep their names: half of them); the key that answered it gets nothing.
        assert mine[check] != public[check], check
        assert cells[check] == 0, f"{name} {check}: the repository's key scored"
    statements = " ".join(c.source for c in variant.nb.cells if c.cell_type == "markdown")
    for table in variant.words.values():  # the class sees its own code
        assert all(value in statements for value in table.values() if "Backward" not in value)


def test_a_class_of_set_06_keeps_exercise_1s_answer_only_when_its_scripts_keep_their_names():
    name = "06_retain_graph"
    public = _hidden_expected(class_variant.read_source(name))["ex1_check"]
    seen = set()
    for secret in [OPEN_SECRET, "drawn-in-the-open-3"]:  # swapped, and not
        variant = class_variant.make_variant(name, secret)
        swapped = variant.words["ex1"].get("A") == "B"
        answer = _hidden_expected(variant.nb)["ex1_check"]
        assert answer == (dict(zip("BA", public.values())) if swapped else public)
        seen.add(swapped)
    assert seen == {True, False}


def submit_translated(course: Course, name: str, variant, source) -> None:
    """Hand in, for a translated class's set (``source``, the teacher's notebook in its
    language, with the English class's ``variant``), the class's answers, the untouched
    release and the first typical wrong answer of each exercise."""
    release = course.release(name)
    translated = class_variant.Variant(**{**vars(variant), "nb": source})
    course.submit("solution", name, class_submission(release, translated))
    course.submit("untouched", name, release)
    course.submit("wrong-0", name, class_submission(release, translated, 0))


def grade_translated(course: Course, english: dict, lang: str) -> None:
    """Autograde what :func:`submit_translated` handed in: the class's answers full marks,
    the untouched release nothing, each wrong answer nothing with its hint in ``lang``."""
    course.nbgrader("autograde", "*", "--force")
    for name, variant in english.items():
        score, max_score, cells = course.scores("solution", name)
        assert max_score > 0 and score == max_score, (name, cells)
        score, _, cells = course.scores("untouched", name)
        assert score == 0, (name, cells)
        graded = by_id(course.autograded("wrong-0", name))
        _, _, cells = course.scores("wrong-0", name)
        for answer_id in variant.wrong:
            check_id = class_variant.exercise_of(answer_id) + "_check"
            assert cells[check_id] == 0, (name, check_id)
            assert re.search(SCRIPT[lang], error_text(graded[check_id])), (name, check_id)


def test_a_translated_class_of_sets_02_and_06_has_its_code_and_the_english_key(
    tmp_path, tracked_text
):
    """A Russian class of the open secret: its statements and hints show the class's code
    (code stays code in a translation), its key is the English class's, and real nbgrader
    grades the class's answers full, the untouched release 0, and a typical wrong answer
    0 with its hint in Russian, in the class's words."""
    root = tmp_path / "class-ru"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(class_variant.SECRET_VARIABLE, OPEN_SECRET)
        class_variant.main(["--lang", "ru", "--out", str(root), *WORDED])
    env = course_environment(root)
    env.pop("LANGUAGE", None)  # the language must come from the notebook, not the locale
    course = Course(root=root, env=env)
    course.nbgrader("generate_assignment", "*", "--force")
    english = {name: class_variant.make_variant(name, OPEN_SECRET) for name in WORDED}
    for name, variant in english.items():
        source = _class_source(course, name)
        assert _key(source) == _key(variant.nb)
        statements = [c.source for c in source.cells if c.cell_type == "markdown"]
        assert all(re.search(SCRIPT["ru"], text) for text in statements[1:])
        for exercise, table in variant.words.items():
            shown = [
                cell.source
                for cell, of in zip(source.cells, class_variant.exercise_per_cell(source))
                if of == exercise
            ]
            for value in table.values():
                if "Backward" not in value:  # a typical wrong answer's, not the code's
                    assert any(value in text for text in shown), (name, value)
        submit_translated(course, name, variant, source)
    grade_translated(course, english, "ru")
    # The Russian hint of set 02's exercise 4 names the class's function, as the English does.
    function = english["02_computation_graph"].words["ex4"]["exp"]
    check = by_id(_class_source(course, "02_computation_graph"))["ex4_check"].source
    hints = re.sub(r'"\s*\n\s*"', "", check)  # a hint's pieces, joined
    assert f"то, что вернула {function}()" in hints and "exp()" not in hints


def _occurrences(fragment: str, text: str) -> int:
    """How many times ``fragment`` stands in ``text`` as whole tokens."""
    return class_variant.substitute_words(text, {fragment: "\0"}).count("\0")


@pytest.mark.parametrize("lang", sorted(SCRIPT))
def test_every_translation_writes_the_code_that_a_class_may_change_as_the_english_does(lang):
    """A fragment of WORDS that a translation wrote otherwise (``x+1`` for ``x + 1``) would
    leave the template's code in that language's statement or hint of a class."""
    tool = class_variant.translation_tool()
    checked = 0
    for name in WORDED:
        catalog = tool.lessons.read_catalog(tool.catalog_path(lang, name))
        found = class_variant.declaration(name)
        fragments = {
            fragment
            for groups in found.words.values()
            for group in groups
            for alternative in group
            for fragment in alternative
        }
        for message in catalog:
            if not message.id or not isinstance(message.id, str):
                continue
            for fragment in fragments:
                english = _occurrences(fragment, message.id)
                if english:
                    checked += 1
                    assert _occurrences(fragment, message.string) == english, (name, message)
    assert checked > 10  # statements and hints of both sets


# --------------------------------------------------------------------------- worked numbers
# The exercises whose numbers are whole numbers of the prose and whose solutions are worked
# by hand: a declaration's WORKED numbers and phrases (teacher/variants/<set>.py) move them.
WORKED = {
    "01_gradients": ["ex1", "ex4"],
    "03_backward_step_by_step": ["ex1", "ex2", "ex3"],
    "05_non_scalar_outputs": ["ex1", "ex2", "ex3", "ex4"],
    "07_differentiating_twice": ["ex1"],
    "09_training": ["ex2"],
}
# A code-writing exercise whose points a variable of its check cell holds: its reference
# code is public (as every code-writing exercise's is), its points and values are the key.
NAMED_POINTS = {"11_custom_functions": ["ex2"]}


def test_phrases_are_replaced_whole_in_one_pass():
    phrases = {"x = 3": "x = 4", "12": "16", "12.0": "16.0", "3 * 3**2": "3 * 4**2"}
    text = "at x = 3, not x = 3.5; 12 and 12.0 of 112; 到达的是 12，3 * 3**2 - 2"
    assert class_variant.replace_phrases(text, phrases) == (
        "at x = 4, not x = 3.5; 16 and 16.0 of 112; 到达的是 16，3 * 4**2 - 2"
    )
    # A grade cell: its strings change (a check's name, a hint), never its key.
    cell = 'mc.check_value("f(3)", d, expected=12.0, hint="at x = 3")'
    assert class_variant._phrases_in_strings(cell, {"f(3)": "f(4)", **phrases}) == (
        'mc.check_value("f(4)", d, expected=12.0, hint="at x = 4")'
    )


def test_a_declared_phrase_that_the_exercise_does_not_write_stops_the_command():
    name = "01_gradients"
    found = class_variant.declaration(name)
    with pytest.raises(class_variant.VariantError, match="f'\\(7\\)"):
        class_variant.build_variant(
            name,
            class_variant.read_source(name),
            class_variant.wrong_answers()[name],
            found,
            {},
            {},
            phrases={"ex1": {"f'(7)": "f'(4)"}},
        )


def test_every_worked_exercise_gets_the_class_numbers(variants):
    for name, exercises in WORKED.items():
        variant = variants[name]
        assert sorted(variant.phrases) == exercises
        template = class_variant.read_source(name)
        cells = zip(variant.nb.cells, template.cells, class_variant.exercise_per_cell(template))
        changed = {exercise for new, old, exercise in cells if new.source != old.source}
        assert set(exercises) <= changed, name
        for exercise in exercises:  # the solution and the hidden tests' values moved
            assert any(e[0].startswith(exercise) for e in variant.expected), (name, exercise)


@pytest.fixture(scope="module")
def public_key_graded(variants, class_course) -> Course:
    """The repository's key handed in to the class: teacher/source's solutions typed into
    the class's release of each worked set, autograded as one more student."""
    for name in WORKED:
        public = class_variant.Variant(
            **{**vars(variants[name]), "nb": class_variant.read_source(name)}
        )
        class_course.submit(
            "public-key", name, class_submission(class_course.release(name), public)
        )
    class_course.nbgrader("autograde", "*", "--student", "public-key", "--force")
    return class_course


@pytest.mark.parametrize("name", sorted(WORKED))
def test_the_repositorys_key_scores_nothing_on_a_worked_exercise(public_key_graded, name):
    _, _, cells = public_key_graded.scores("public-key", name)
    for exercise in WORKED[name]:
        assert cells[f"{exercise}_check"] == 0, (name, exercise, cells)


def test_named_points_are_the_class_own(variants):
    """Set 11's exercise 2: both checks of the visible cell and both hidden tests are at the
    class's points, with the class's values; the template's are in none of them."""
    for name, exercises in NAMED_POINTS.items():
        template_key, class_key = _key(class_variant.read_source(name)), _key(variants[name].nb)
        for exercise in exercises:
            cell = by_id(variants[name].nb)[f"{exercise}_check"]
            calls, points = class_variant._calls_and_points(cell.source)
            at_points = [node for node in points if node is not None]  # not gradcheck
            drawn = {repr(ast.literal_eval(node)) for node in at_points}
            assert len(drawn) == 1 and len(at_points) == 4, calls  # one draw, four checks
            template_cell = by_id(class_variant.read_source(name))[f"{exercise}_check"]
            _, template_points = class_variant._calls_and_points(template_cell.source)
            assert drawn != {repr(ast.literal_eval(template_points[0]))}
            for (grade_id, index), found in class_key.items():
                if grade_id == f"{exercise}_check" and "expected" in found:
                    assert not _same(found["expected"], template_key[grade_id, index]["expected"])


def _strings(source: str) -> list[str]:
    return [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_a_translated_class_gets_the_worked_numbers_of_the_english_class(
    variants, translated_class
):
    """Its statements write the class's worked numbers where the English class's do, and
    its hints that hold one are translated, with the class's number."""
    lang, course = translated_class
    tried = 0
    for name in TRANSLATED[lang]:
        variant = variants[name]
        source, english = _class_source(course, name), variant.nb
        exercises = class_variant.exercise_per_cell(english)
        for mine, theirs, exercise in zip(source.cells, english.cells, exercises):
            written = [
                text for phrase, text in variant.phrases.get(exercise, {}).items() if phrase != text
            ]
            if mine.cell_type == "markdown":
                for text in written:
                    assert (text in mine.source) == (text in theirs.source), (name, text)
                    tried += text in mine.source
            elif nbgrader_meta(mine).get("grade"):
                for string in _strings(theirs.source):
                    holds_a_number = any(text in string for text in written)
                    if holds_a_number and re.search("[A-Za-z]{3} [a-z]{3}", string):
                        assert string not in _strings(mine.source), (name, string)
                        ours = [s for s in _strings(mine.source) if re.search(SCRIPT[lang], s)]
                        assert any(t in s for s in ours for t in written if t in string)
                        tried += 1
    assert tried  # the test's sets have worked numbers in their statements and hints


# --------------------------------------------------------------------------- sets 04, 07, 09, 12
# Exercises that vary since round 4 of issue 20: the value each asks for is the class's (and
# the repository's answer, typed in, scores nothing), except the code-writing exercises 1
# and 4 of set 12, whose public reference code works on any x: there the values its checks
# compare with are the class's.
NEWLY_VARYING = {
    "04_accumulation_and_zeroing": ["ex2", "ex4"],
    "07_differentiating_twice": ["ex1"],
    "09_training": ["ex2"],
    "12_retain_grad_and_hooks": ["ex3"],
}
CODE_TO_WRITE = {"12_retain_grad_and_hooks": ["ex1", "ex4"]}


def _all_hidden_expected(nb) -> dict[tuple[str, str], object]:
    """Every hidden test's value, by (grade cell, check name)."""
    found = {}
    for cell in grade_cells(nb):
        for call in class_variant.check_calls(cell.source):
            if call.hidden and call.keyword("expected") is not None:
                grade_id = nbgrader_meta(cell)["grade_id"]
                found[grade_id, call.name] = _value_of(call.keyword("expected"))
    return found


@pytest.fixture(scope="module")
def open_class_of_the_rest(tmp_path_factory) -> tuple[dict, Course]:
    """Sets 04, 07, 09 and 12 of the open secret's class, released and autograded: the
    class's teacher's answers, the untouched release, every typical wrong answer with the
    class's numbers, and the repository's key (teacher/source's solutions)."""
    root = tmp_path_factory.mktemp("open-class-rest")
    return _class_graded(root, OPEN_SECRET, sorted(NEWLY_VARYING), wrong=True)


@pytest.mark.parametrize("name", sorted(NEWLY_VARYING))
def test_the_rest_class_answers_full_marks_the_untouched_release_nothing(
    open_class_of_the_rest, name
):
    variants, course = open_class_of_the_rest
    score, max_score, cells = course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells
    score, _, cells = course.scores("untouched", name)
    assert score == 0, cells


@pytest.mark.parametrize("name", sorted(NEWLY_VARYING))
def test_the_rest_every_wrong_answer_with_the_class_numbers_gets_its_hint(
    open_class_of_the_rest, name
):
    variants, course = open_class_of_the_rest
    variant = variants[name]
    for which in range(max(len(m) for m in variant.wrong.values())):
        student = f"wrong-{which}"
        _, _, cells = course.scores(student, name)
        graded = by_id(course.autograded(student, name))
        for answer_id, mistakes in variant.wrong.items():
            if which < len(mistakes):
                check_id = class_variant.exercise_of(answer_id) + "_check"
                assert cells[check_id] == 0, (name, student, check_id)
                assert mistakes[which][1] in error_text(graded[check_id]), (name, student)


@pytest.mark.parametrize("name", sorted(NEWLY_VARYING))
def test_the_repositorys_key_scores_nothing_on_the_rest_newly_varying_exercises(
    open_class_of_the_rest, name
):
    variants, course = open_class_of_the_rest
    # In order, per grade cell: a check's name may be a formula of the class's numbers.
    public = list(_all_hidden_expected(class_variant.read_source(name)).items())
    mine = list(_all_hidden_expected(variants[name].nb).items())
    _, _, cells = course.scores("public-key", name)
    assert [key[0] for key, _ in mine] == [key[0] for key, _ in public]
    for exercise in NEWLY_VARYING[name] + CODE_TO_WRITE.get(name, []):
        checked = [i for i, (key, _) in enumerate(mine) if key[0] == f"{exercise}_check"]
        assert checked, (name, exercise)
        for i in checked:  # every value the class's hidden tests compare with is its own
            assert not _same(mine[i][1], public[i][1]), (name, mine[i][0])
    for exercise in NEWLY_VARYING[name]:
        assert cells[f"{exercise}_check"] == 0, (name, exercise, cells)


def test_the_rest_class_keys_are_the_class_numbers_worked_out_independently():
    """The key the command computes (by running the class's solution in minigrad) is what
    the class's numbers give by the formulas of the statements, worked out here in numpy."""
    for secret in [OPEN_SECRET, "drawn-in-the-open-1", "drawn-in-the-open-2"]:
        found = {name: class_variant.make_variant(name, secret) for name in NEWLY_VARYING}
        key = {name: _all_hidden_expected(v.nb) for name, v in found.items()}

        numbers = found["04_accumulation_and_zeroing"].numbers
        ks = [int(numbers["ex2"][k]) for k in ("1", "2", "3")]
        assert key["04_accumulation_and_zeroing"]["ex2_check", "the printed values"] == list(
            np.cumsum(ks).astype(float)
        )
        w, factor = float(numbers["ex4"]["2.0"]), int(numbers["ex4"]["3"])
        ex4 = {
            n: v
            for (cell, n), v in key["04_accumulation_and_zeroing"].items()
            if cell == "ex4_check"
        }
        assert ex4 == {"saved at (A)": factor, "saved at (B)": factor, "w.grad at (B)": 3 * w**2}

        point = int(
            re.search(
                r"f''\((-?\d+)\)", found["07_differentiating_twice"].phrases["ex1"]["f''(0)"]
            )[1]
        )
        (value,) = [
            v for (cell, _), v in key["07_differentiating_twice"].items() if cell == "ex1_check"
        ]
        assert value == pytest.approx((point + 2) * np.exp(point), rel=1e-12)

        training = found["09_training"]
        lr = float(training.numbers["ex2"]["0.1"])
        start = training.phrases["ex2"]
        w0 = float(start["w = mg.tensor(0.0"].split("(")[1])
        b0 = float(start["b = mg.tensor(0.0"].split("(")[1])
        x = np.linspace(-1.0, 1.0, 20)
        y = 3.0 * x + 0.5 + 0.1 * np.random.default_rng(0).standard_normal(20)
        residual = w0 * x + b0 - y
        assert key["09_training"]["ex2_check", "w1"] == pytest.approx(
            w0 - lr * np.mean(2 * residual * x)
        )
        assert key["09_training"]["ex2_check", "b1"] == pytest.approx(
            b0 - lr * np.mean(2 * residual)
        )

        hooks = found["12_retain_grad_and_hooks"]
        for exercise, cell, name, formula in [
            ("ex1", "ex1_check", "s.grad", lambda x: 2 * x / (1 + np.exp(-x))),
            ("ex4", "ex4_check", "x_grad", np.exp),
        ]:
            x = np.array([float(hooks.numbers[exercise][n]) for n in ("0.5", "1.0", "2.0")])
            assert np.allclose(key["12_retain_grad_and_hooks"][cell, name], formula(x), rtol=1e-12)


def test_a_class_of_set_12_gets_its_hooks_order_from_its_own_given_cell():
    """The class's letters rename the hooks of the given cell and the solution alike: running
    the class's given cell and its backward pass in minigrad gives the class's key, which is
    never the template's."""
    name = "12_retain_grad_and_hooks"
    public = _all_hidden_expected(class_variant.read_source(name))["ex3_check", "order"]
    for secret in [OPEN_SECRET, "drawn-in-the-open-1", "drawn-in-the-open-2"]:
        variant = class_variant.make_variant(name, secret)
        given = by_id(variant.nb)["given_3"].source
        namespace: dict = {}
        exec("import minigrad as mg\n" + given + "\ny.backward()", namespace)  # noqa: S102
        mine = _all_hidden_expected(variant.nb)["ex3_check", "order"]
        assert namespace["calls"] == mine != public
        assert sorted(mine) == sorted(public)  # the same six letters


# --------------------------------------------------------------------------- sets 08, 10, 13, 17
# Sets 08 (exercises 1, 2, 4), 10 (exercise 3), 13 (exercise 2) and 17 (exercise 3), which
# kept the public key until now. Value and choice exercises get other numbers or other code,
# so the repository's key, typed in, scores nothing there; code-writing exercises are checked
# at the class's own points, with the class's values.
ROUND4 = {
    "08_turning_gradients_off": ["ex2", "ex3"],
    "10_checking_gradients": ["ex3"],
    "13_broadcasting_and_in_place": ["ex2"],
    "17_backprop_by_hand": ["ex3"],
}
ROUND4_AT_POINTS = {"08_turning_gradients_off": ["ex1", "ex4"]}
ROUND4_WORDED = ["10_checking_gradients", "13_broadcasting_and_in_place", "17_backprop_by_hand"]
ROUND4_SECRET = "drawn-in-the-open-0"  # written here: set 17's class swaps a1 and z1
# Set 10's exercise 3 is answered by running gradcheck on the functions, which the teacher's
# solution does: typed into a class, that method finds the class's answer, as a code-writing
# exercise's public reference code does. Its key is the values, which a class does not share.
ROUND4_VALUES = {"10_checking_gradients": ["ex3_answer"]}


@pytest.fixture(scope="module")
def round4_class(tmp_path_factory) -> tuple[dict, Course]:
    """The four sets of the open secret's class, released and graded under real nbgrader:
    the class's teacher's answers, the untouched release, the repository's key (teacher/
    source's answers) typed in, and the n-th typical wrong answer of each exercise."""
    root = tmp_path_factory.mktemp("round4-class")
    variants = {v.name: v for v in class_variant.write_class(root, ROUND4_SECRET, list(ROUND4))}
    course = Course(root=root, env=course_environment(root))
    course.nbgrader("generate_assignment", "*", "--force")
    for name, variant in variants.items():
        release = course.release(name)
        course.submit("solution", name, class_submission(release, variant))
        course.submit("untouched", name, release)
        public = _typed_in(release, class_variant.read_source(name))
        for cell in public.cells:  # set 10's solution is a method: its key is its values
            if nbgrader_meta(cell).get("grade_id") in ROUND4_VALUES.get(name, []):
                cell.source = _template_values(name, nbgrader_meta(cell)["grade_id"])
        course.submit("public-key", name, public)
        for which in range(max(len(m) for m in variant.wrong.values())):
            course.submit(f"wrong-{which}", name, class_submission(release, variant, which))
    course.nbgrader("autograde", "*", "--force")
    return variants, course


def _template_values(name: str, answer_id: str) -> str:
    """An answer cell that writes the values the template's hidden tests expect, each in
    the variable its check names."""
    check = by_id(class_variant.read_source(name))[answer_id.replace("_answer", "_check")]
    return "\n".join(
        f"{call.name} = {ast.unparse(call.keyword('expected'))}"
        for call in class_variant.check_calls(check.source)
        if call.hidden
    )


@pytest.mark.parametrize("name", sorted(ROUND4))
def test_round4_the_class_is_graded_on_its_own_key(round4_class, name):
    variants, course = round4_class
    variant = variants[name]
    score, max_score, cells = course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells
    score, _, cells = course.scores("untouched", name)
    assert score == 0, cells
    for which in range(max(len(m) for m in variant.wrong.values())):
        nb = by_id(course.autograded(f"wrong-{which}", name))
        _, _, cells = course.scores(f"wrong-{which}", name)
        for answer_id, mistakes in variant.wrong.items():
            if which < len(mistakes):
                check_id = class_variant.exercise_of(answer_id) + "_check"
                assert cells[check_id] == 0, (name, which, check_id)
                assert mistakes[which][1] in error_text(nb[check_id]), (name, which, check_id)
    # The repository's key loses every value or choice exercise that varies now.
    public, mine = _hidden_expected(class_variant.read_source(name)), _hidden_expected(variant.nb)
    _, _, cells = course.scores("public-key", name)
    for exercise in ROUND4[name]:
        check = exercise + "_check"
        assert not _same(mine[check], public[check]), (name, check)
        assert cells[check] == 0, f"{name} {check}: the repository's key scored"


def test_round4_code_writing_exercises_are_checked_at_the_class_points(round4_class):
    """Set 08's exercises 1 and 4: the visible check and the hidden test are at the class's
    points, the hidden test's values are the class's; the template's are in neither."""
    variants, _ = round4_class
    for name, exercises in ROUND4_AT_POINTS.items():
        template, mine = by_id(class_variant.read_source(name)), by_id(variants[name].nb)
        for exercise in exercises:
            check = f"{exercise}_check"
            _, template_points = class_variant._calls_and_points(template[check].source)
            calls, points = class_variant._calls_and_points(mine[check].source)
            drawn = {repr(ast.literal_eval(node)) for node in points}
            assert len(points) == 2 and len(drawn) == 1, calls  # visible and hidden, one draw
            assert drawn != {repr(ast.literal_eval(template_points[0]))}
            theirs = _hidden_expected(class_variant.read_source(name))[check]
            assert not _same(_hidden_expected(variants[name].nb)[check], theirs), check


def test_round4_set_08_counts_the_class_model_and_set_17_names_the_class_tensor(round4_class):
    """What the solutions compute: the count of the class's statement, and the name the
    stepper finds, which is the tanh's input in the class's code."""
    variants, _ = round4_class
    v08 = variants["08_turning_gradients_off"]
    n_in, hidden, out = (int(v08.numbers["ex2"][n]) for n in ("3", "4", "2"))
    statement = by_id(v08.nb)["ex2_check"]  # the key: the layers after the frozen first one
    assert f"expected={hidden * hidden + hidden + out * hidden + out})" in statement.source
    assert f"mg.nn.Linear({n_in}, {hidden})" in " ".join(c.source for c in v08.nb.cells)
    v17 = variants["17_backprop_by_hand"]
    assert v17.words["ex3"]["a1"] == "z1"  # this secret's draw: the names swapped
    given = by_id(v17.nb)["given_3"].source
    assert "h = z1.tanh()" in given and "a1 = X @ W1" in given
    assert _hidden_expected(v17.nb)["ex3_check"] == "z1"


def test_round4_every_drawn_word_is_in_the_template_and_every_translation():
    """A fragment of WORDS that the exercise, or a translation, does not write as the English
    does would leave the template's code in a class's statement, hint or answer."""
    tool = class_variant.translation_tool()
    checked = 0
    for name in ROUND4_WORDED:
        template = class_variant.read_source(name)
        found = class_variant.declaration(name)
        exercises = class_variant.exercise_per_cell(template)
        fragments = set()
        for exercise, groups in found.words.items():
            text = "\n".join(c.source for c, of in zip(template.cells, exercises) if of == exercise)
            for alternative in (a for group in groups for a in group):
                for fragment in alternative:
                    assert class_variant.substitute_words(text, {fragment: "\0"}) != text
                    fragments.add(fragment)
        for lang in sorted(SCRIPT):
            catalog = tool.lessons.read_catalog(tool.catalog_path(lang, name))
            for message in catalog:
                if message.id and isinstance(message.id, str):
                    for fragment in fragments:
                        if english := _occurrences(fragment, message.id):
                            checked += 1
                            assert _occurrences(fragment, message.string) == english, message
    assert checked >= 3  # set 10's statement names the functions, in both languages


@pytest.mark.parametrize("lang", sorted(SCRIPT))
def test_round4_a_translated_class_has_the_english_class_code_and_key(lang, tmp_path):
    """A Russian or Chinese class of the open secret: its key and solutions are the English
    class's, its statements show the class's code, and real nbgrader grades the class's
    answers full, the untouched release 0 and a typical wrong answer 0 with a hint in the
    class's language."""
    root = tmp_path / f"class-{lang}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(class_variant.SECRET_VARIABLE, ROUND4_SECRET)
        class_variant.main(["--lang", lang, "--out", str(root), *ROUND4])
    env = course_environment(root)
    env.pop("LANGUAGE", None)  # the language must come from the notebook, not the locale
    course = Course(root=root, env=env)
    course.nbgrader("generate_assignment", "*", "--force")
    english = {name: class_variant.make_variant(name, ROUND4_SECRET) for name in ROUND4}
    for name, variant in english.items():
        source = _class_source(course, name)
        assert source.metadata["minigrad"]["language"] == lang
        assert _key(source) == _key(variant.nb)
        statements = " ".join(c.source for c in source.cells if c.cell_type == "markdown")
        for table in variant.words.values():
            shown = [value for value in table.values() if value in statements]
            assert shown or name == "17_backprop_by_hand", (name, table)  # 17: in code only
        submit_translated(course, name, variant, source)
    grade_translated(course, english, lang)


def test_round4_set_17s_key_is_where_the_stepper_finds_the_first_wrong_gradient(round4_class):
    """Set 17's solution writes the name, which the class's words change: the stepper, run
    on the class's code, finds the first wrong gradient at that name."""
    from widgets import BackwardStepper

    variant = round4_class[0]["17_backprop_by_hand"]
    cells = by_id(variant.nb)
    namespace: dict = {}
    exec(cells["setup"].source + "\n" + cells["given_3"].source, namespace)  # noqa: S102
    stepper = BackwardStepper(
        namespace["loss"], names=namespace["tensors"], yours=namespace["hand"]
    )
    first = next(name for name, check in stepper.checks.items() if not check.agrees)
    assert first == _hidden_expected(variant.nb)["ex3_check"] == variant.words["ex3"]["a1"]


# --------------------------------------------------------------------------- sets 14, 15, 18
# Exercises that varied last: worked numbers (sets 14 and 18, set 15's exercise 2), other
# code (set 15's exercises 1 and 3: a's length and M's shape, g's constants) and the seeds of
# set 18's random points. A class of a secret written here is graded on each, in English and
# in both translations.
RECENT = {
    "14_control_flow": ["ex1", "ex3"],
    "15_jacobians_and_hessians": ["ex1", "ex2", "ex3"],
    "18_forward_mode": ["ex3"],
}
# Code-writing exercises: a class's points (seeds, or the x of set 16's chains) are its own.
SEEDED = {"16_build_your_own_engine": ["ex3"], "18_forward_mode": ["ex2", "ex4"]}
RECENT_SECRET = "written-in-the-test-s32"


@pytest.fixture(scope="module")
def recent_class(tmp_path_factory) -> tuple[dict, Course]:
    """Sets 14, 15 and 18 of the written secret's class, released and graded: the class's
    teacher's answers, the untouched release, and the repository's key typed in."""
    return _class_graded(tmp_path_factory.mktemp("recent-class"), RECENT_SECRET, sorted(RECENT))


@pytest.mark.parametrize("name", sorted(RECENT))
def test_the_repositorys_key_scores_nothing_on_sets_14_15_and_18(recent_class, name):
    variants, course = recent_class
    score, max_score, cells = course.scores("solution", name)
    assert max_score > 0 and score == max_score, cells
    score, _, cells = course.scores("untouched", name)
    assert score == 0, cells
    public = _hidden_expected(class_variant.read_source(name))
    mine = _hidden_expected(variants[name].nb)
    _, _, cells = course.scores("public-key", name)
    for exercise in RECENT[name]:
        check = exercise + "_check"
        assert not _same(mine[check], public[check]), check
        assert cells[check] == 0, f"{name} {check}: the repository's key scored"


@pytest.mark.parametrize("name", sorted(SEEDED))
def test_code_writing_exercises_are_checked_at_the_class_points(name):
    """Set 18's exercises 2 and 4 check the student's function at points drawn from seeds,
    set 16's exercise 3 on chains at an x: a class's visible checks use points of its own,
    their fingerprints move with them, and so do the hidden tests' values."""
    variant = class_variant.make_variant(name, RECENT_SECRET)
    template = class_variant.read_source(name)
    public, mine = _hidden_expected(template), _hidden_expected(variant.nb)
    for exercise in SEEDED[name]:
        check = exercise + "_check"
        ours, theirs = by_id(variant.nb)[check].source, by_id(template)[check].source
        (our_call, *_), (our_points, *_) = class_variant._calls_and_points(ours)
        (their_call, *_), (their_points, *_) = class_variant._calls_and_points(theirs)
        assert not our_call.hidden and not their_call.hidden  # the visible check
        our_seeds, their_seeds = ast.literal_eval(our_points), ast.literal_eval(their_points)
        assert our_seeds != their_seeds and not set(our_seeds) & set(their_seeds)
        fingerprints = (call.keyword("fingerprints") for call in (our_call, their_call))
        assert len({ast.unparse(node) for node in fingerprints}) == 2
        if not isinstance(public[check], str):  # a value written in the template's key
            assert not _same(mine[check], public[check]), check


@pytest.mark.parametrize("lang", sorted(SCRIPT))
def test_a_translated_class_of_sets_14_15_and_18_is_graded_on_the_english_class_key(
    lang, tmp_path_factory
):
    """In Russian and in Chinese, the class of the written secret gets the English class's
    hidden values; its teacher's answers score full marks, its untouched release nothing,
    and its statements carry the class's worked numbers and code in that language."""
    root = tmp_path_factory.mktemp(f"recent-{lang}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(class_variant.SECRET_VARIABLE, RECENT_SECRET)
        class_variant.main(["--lang", lang, "--out", str(root), *sorted(RECENT)])
    env = course_environment(root)
    env.pop("LANGUAGE", None)
    course = Course(root=root, env=env)
    course.nbgrader("generate_assignment", "*", "--force")
    for name in RECENT:
        release = course.release(name)
        course.submit("solution", name, _typed_in(release, _class_source(course, name)))
        course.submit("untouched", name, release)
    course.nbgrader("autograde", "*", "--force")
    for name, exercises in RECENT.items():
        english = class_variant.make_variant(name, RECENT_SECRET)
        source = _class_source(course, name)
        assert _hidden_expected(source) == _hidden_expected(english.nb), name
        score, max_score, cells = course.scores("solution", name)
        assert max_score > 0 and score == max_score, (name, cells)
        assert course.scores("untouched", name)[0] == 0, name
        statements = [c.source for c in source.cells if c.cell_type == "markdown"]
        assert any(re.search(SCRIPT[lang], text) for text in statements)
        for exercise in exercises:
            # What the English class's statement writes with the class's numbers or code, the
            # translated statement writes too.
            written = {**english.phrases.get(exercise, {}), **english.words.get(exercise, {})}
            statement = " ".join(
                cell.source
                for cell, e in zip(english.nb.cells, class_variant.exercise_per_cell(english.nb))
                if e == exercise and cell.cell_type == "markdown"
            )
            shown = [t for p, t in written.items() if p != t and t in statement]
            cells_of = class_variant.exercise_per_cell(source)
            text = " ".join(
                c.source
                for c, e in zip(source.cells, cells_of)
                if e == exercise and c.cell_type == "markdown"
            )
            assert shown and all(t in text for t in shown), (name, exercise, shown)
