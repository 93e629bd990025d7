"""The exercise sets: solutions pass, unsolved work says so, wrong answers get their hint.

* ``minigrad.exercises`` is tested directly: each check prints the right verdict, returns it,
  and gives the specific hint of a typical wrong answer.
* Every teacher notebook is run with nbclient (in autograde mode, where a failed check raises):
  every check passes.
* Every untouched student notebook is run with nbclient: it runs to the end and every check
  reports "not yet solved"; in autograde mode every check cell fails, so a grader gives no
  points for it.
* In each set one typical wrong answer is put in place of a solution and the notebook is run:
  the check prints that mistake's hint.
* The student notebooks are what ``scripts/make_student_versions.py`` makes of the teacher
  notebooks, and the nbgrader metadata of every answer and check cell is well-formed.

Run: ``.venv/bin/python -m pytest tests/test_exercises.py -q``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import os
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import minigrad as mg
from minigrad import exercises as mx

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "notebooks" / "exercises"
TEACHER = sorted((EXERCISES / "teacher").glob("*.ipynb"))
STUDENT_DIR = EXERCISES / "student"
CHECK_CALL = re.compile(r"\bmx\.check_\w+\(")
TOPICS = [
    "01_gradients",
    "02_computation_graph",
    "03_backward_step_by_step",
    "04_accumulation_and_zeroing",
    "05_non_scalar_outputs",
    "06_retain_graph",
    "07_differentiating_twice",
    "08_turning_gradients_off",
    "09_training",
    "10_checking_gradients",
]


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "make_student_versions", ROOT / "scripts" / "make_student_versions.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


script = _load_script()


@pytest.fixture(autouse=True)
def interactive(monkeypatch):
    """Checks in this process run in interactive mode unless a test turns autograding on."""
    monkeypatch.delenv(mx.AUTOGRADE_VARIABLE, raising=False)


def printed(capsys) -> str:
    return capsys.readouterr().out.strip()


# --------------------------------------------------------------------------- check_value
def test_a_right_number_is_reported_correct(capsys):
    assert mx.check_value("dy/dx at 2", 4.0, expected=mg.tensor(4.0)) is True
    assert printed(capsys) == "✔ dy/dx at 2: correct"


def test_a_wrong_number_says_by_how_much_and_gives_the_hint(capsys):
    assert mx.check_value("dy/dx at 2", 5.0, expected=4.0, hint="Use 2x.") is False
    assert printed(capsys) == "✘ dy/dx at 2 is 5.0 but should be 4.0 (off by 1.0). Hint: Use 2x."


def test_none_is_not_yet_solved(capsys):
    assert mx.check_value("dy/dx at 2", None, expected=4.0, hint="Use 2x.") is False
    out = printed(capsys)
    assert out.startswith("… dy/dx at 2: not yet solved")
    assert "Use 2x" not in out  # no hint before the student has tried


def test_a_typical_mistake_gets_its_own_hint(capsys):
    mistakes = [(27.0, "Differentiate -2x too."), (21.0, "That is f(3).")]
    mx.check_value("f'(3)", 21, expected=25, hint="general", common_mistakes=mistakes)
    assert printed(capsys).endswith("Hint: That is f(3).")
    mx.check_value("f'(3)", 26, expected=25, hint="general", common_mistakes=mistakes)
    assert printed(capsys).endswith("Hint: general")


def test_the_tolerance_is_applied_and_not_wider(capsys):
    assert mx.check_value("v", 1.0 + 1e-9, expected=1.0)
    assert not mx.check_value("v", 1.0 + 1e-4, expected=1.0)
    assert mx.check_value("v", 1.0 + 1e-4, expected=1.0, tol=1e-3)


def test_arrays_name_the_worst_entry(capsys):
    assert not mx.check_value("x.grad", [2.0, 4.0, 1.5], expected=mg.tensor([2.0, 2.0, 1.5]))
    assert printed(capsys) == (
        "✘ x.grad is [2. , 4. , 1.5] but should be [2. , 2. , 1.5] "
        "(largest difference 2.0 at index [1])."
    )


def test_a_wrong_shape_is_named_before_values(capsys):
    transposed = np.arange(6.0).reshape(3, 2)
    hint = "Row i is output i."
    assert not mx.check_value(
        "J", transposed.T, expected=transposed, common_mistakes=[(transposed.T, hint)]
    )
    assert printed(capsys) == (
        "✘ J has shape (2, 3) but should have shape (3, 2). Hint: Row i is output i."
    )


def test_a_non_number_is_rejected_with_its_type(capsys):
    assert not mx.check_value("f'(3)", "25", expected=25)
    assert printed(capsys) == "✘ f'(3) should be a number, not str '25'."


def test_the_expected_value_must_be_a_number():
    with pytest.raises(TypeError, match="not a number"):
        mx.check_value("f'(3)", 25, expected="25")


# --------------------------------------------------------------------------- other checks
def test_check_equal_is_exact_about_types(capsys):
    assert mx.check_equal("flags", (False, True), expected=(False, True))
    assert not mx.check_equal("is None", 1, expected=True)  # 1 == True, but it is not a bool
    assert printed(capsys).splitlines()[-1] == "✘ is None is 1 but should be True."
    assert mx.check_equal("count", 3.0, expected=3)


def test_check_equal_hints_for_typical_wrong_answers(capsys):
    mx.check_equal(
        "leaves", {"x"}, expected={"x", "c"}, common_mistakes=[({"x"}, "Constants too.")]
    )
    assert printed(capsys).endswith("Hint: Constants too.")


def test_check_shape(capsys):
    assert mx.check_shape("g", mg.zeros(2, 3), expected_shape=mg.Size([2, 3]))
    assert not mx.check_shape("g", mg.zeros(3), expected_shape=(2, 3), hint="y's shape.")
    assert printed(capsys).splitlines()[-1] == (
        "✘ g has shape (3,) but should have shape (2, 3). Hint: y's shape."
    )
    assert not mx.check_shape("g", None, expected_shape=(2, 3))


def test_check_grad_explains_a_missing_gradient(capsys):
    w = mg.tensor([1.0, 2.0])
    assert not mx.check_grad("w.grad", w, expected=[2.0, 4.0])
    assert "requires_grad=True" in printed(capsys)
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    assert not mx.check_grad("w.grad", w, expected=[2.0, 4.0])
    assert "call backward()" in printed(capsys)
    (w * w).sum().backward()
    assert mx.check_grad("w.grad", w, expected=2 * w.detach())
    assert not mx.check_grad("w.grad", 3.0, expected=[2.0, 4.0])
    assert "should be a tensor" in printed(capsys)


def test_check_grad_is_none(capsys):
    w = mg.tensor(1.0, requires_grad=True)
    assert mx.check_grad_is_none("w.grad", w)
    (3 * w).backward()
    assert not mx.check_grad_is_none("w.grad", w, hint="Set it to None.")
    assert printed(capsys).splitlines()[-1] == (
        "✘ w.grad is tensor(3.) but should be None. Hint: Set it to None."
    )


def test_check_function_names_the_first_wrong_point(capsys):
    assert mx.check_function("d", lambda x: 2 * x, expected=lambda x: 2 * x, points=[1.0, 2.0])
    assert not mx.check_function("d", lambda x: x * x, expected=lambda x: 2 * x, points=[2.0, 3.0])
    assert printed(capsys).splitlines()[-1] == "✘ d at 3.0 is 9.0 but should be 6.0 (off by 3.0)."


def test_check_function_recognises_a_typical_wrong_function(capsys):
    def forward_difference(f, x0, eps):
        return (f(x0 + eps) - f(x0)) / eps

    assert not mx.check_function(
        "numerical_derivative",
        forward_difference,
        expected=np.cos,
        points=[0.3, 1.0],
        call=lambda answer, x0: answer(np.sin, x0, 1e-3),
        hint="general",
        common_mistakes=[(forward_difference, "Step both ways.")],
    )
    assert printed(capsys).endswith("Hint: Step both ways.")


def test_check_function_reports_errors_and_missing_returns(capsys):
    def raises_runtime(x):
        raise RuntimeError("element 0 of tensors does not require grad")

    mistakes = [(RuntimeError, "Use create_graph=True.")]
    assert not mx.check_function(
        "f2", raises_runtime, expected=abs, points=[1.0], common_mistakes=mistakes
    )
    assert printed(capsys) == (
        "✘ f2 at 1.0 raised RuntimeError: element 0 of tensors does not require grad. "
        "Hint: Use create_graph=True."
    )
    assert not mx.check_function("f2", lambda x: None, expected=abs, points=[1.0])
    assert "forget `return`" in printed(capsys)
    assert not mx.check_function("f2", 3.0, expected=abs, points=[1.0])
    assert "should be a function" in printed(capsys)


def test_check_raises(capsys):
    def second_backward():
        y = (mg.tensor(2.0, requires_grad=True) ** 2).sum()
        y.backward()
        y.backward()

    assert mx.check_raises("twice", second_backward, RuntimeError, match="a second time")
    assert not mx.check_raises("twice", lambda: None, RuntimeError)
    assert "raised nothing, but should raise RuntimeError" in printed(capsys)
    assert not mx.check_raises("twice", lambda: 1 / 0, RuntimeError)
    assert "raised ZeroDivisionError: division by zero, but should raise" in printed(capsys)
    assert not mx.check_raises("twice", second_backward, RuntimeError, match="leaf")
    assert "the message should contain 'leaf'" in printed(capsys)


class _WrongCube(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x


def test_check_gradcheck_catches_a_wrong_backward(capsys):
    x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    assert not mx.check_gradcheck("Cube", _WrongCube, [x], hint="3x².")
    out = printed(capsys)
    assert out.startswith("✘ Cube fails gradcheck: Jacobian mismatch") and out.endswith("3x².")
    assert mx.check_gradcheck("cube", lambda t: t**3, [x])
    assert not mx.check_gradcheck("Cube", None, [x])


def test_autograde_mode_raises_on_failure_only(monkeypatch, capsys):
    monkeypatch.setenv(mx.AUTOGRADE_VARIABLE, "1")
    assert mx.check_value("v", 1.0, expected=1.0)
    with pytest.raises(AssertionError, match=r"✘ v is 2.0 but should be 1.0 .*Hint: h"):
        mx.check_value("v", 2.0, expected=1.0, hint="h")
    with pytest.raises(AssertionError, match="not yet solved"):
        mx.check_equal("v", None, expected=1)
    assert "✘ v is 2.0" in printed(capsys)  # the student still sees the message


def test_graph_nodes_lists_shared_leaves_once():
    a, b, c = (mg.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    names = [node.name() for node in mx.graph_nodes((a * b + c) * a)]
    assert names == ["MulBackward0", "AddBackward0", "MulBackward0"] + ["AccumulateGrad"] * 3
    assert mx.graph_nodes(mg.tensor(1.0)) == []


def test_raises_helper():
    assert mx.raises(lambda: 1 / 0, ZeroDivisionError)
    assert not mx.raises(lambda: 1 / 2)
    with pytest.raises(ZeroDivisionError):
        mx.raises(lambda: 1 / 0, KeyError)


# --------------------------------------------------------------------------- running notebooks
def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


@functools.cache
def run_with_nbclient(path: Path, autograde: bool) -> nbformat.NotebookNode:
    """A fresh kernel run of the notebook (the file is untouched); errors stop the run."""
    nb = read(path)
    env = dict(os.environ)
    env.pop(mx.AUTOGRADE_VARIABLE, None)
    if autograde:
        env[mx.AUTOGRADE_VARIABLE] = "1"
    client = NotebookClient(
        nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute(env=env)
    return nb


def run_in_process(nb: nbformat.NotebookNode) -> list[str | BaseException]:
    """Run the code cells in one namespace here (faster than a kernel); per cell: its printed
    text, or the exception that stopped it (the run goes on, as nbgrader's does)."""
    namespace: dict = {"__name__": "__main__"}
    results: list[str | BaseException] = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(cell.source, "<cell>", "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - recorded for the test to inspect
            results.append(error)
            continue
        results.append(out.getvalue())
    return results


def cell_text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def check_cells(nb):
    return [cell for cell in nb.cells if script.is_check_cell(cell)]


def test_there_is_one_set_per_lesson_topic():
    assert [path.stem for path in TEACHER] == TOPICS
    assert sorted(path.stem for path in STUDENT_DIR.glob("*.ipynb")) == TOPICS


@pytest.mark.parametrize("path", TEACHER, ids=lambda p: p.stem)
def test_every_teacher_solution_passes_its_checks(path):
    nb = run_with_nbclient(path, autograde=True)  # a failed check would raise here
    checks = check_cells(nb)
    assert 3 <= len(checks) <= 4, "each set has 3 or 4 exercises"
    for cell in checks:
        text = cell_text(cell)
        calls = len(CHECK_CALL.findall(cell.source))
        assert "✘" not in text and "not yet solved" not in text, text
        assert text.count("✔") == calls >= 1, f"{cell.metadata.nbgrader.grade_id}: {text}"


@pytest.mark.parametrize("name", TOPICS)
def test_the_untouched_student_version_runs_and_reports_not_yet_solved(name):
    nb = run_with_nbclient(STUDENT_DIR / f"{name}.ipynb", autograde=False)
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors
    for cell in check_cells(nb):
        lines = cell_text(cell).splitlines()
        assert lines, f"{cell.metadata.nbgrader.grade_id} printed nothing"
        assert all(line.startswith("… ") and "not yet solved" in line for line in lines), lines


@pytest.mark.parametrize("name", TOPICS)
def test_an_autograder_gives_no_points_to_the_untouched_student_version(name, monkeypatch):
    monkeypatch.setenv(mx.AUTOGRADE_VARIABLE, "1")
    nb = read(STUDENT_DIR / f"{name}.ipynb")
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    for cell, result in zip(code, run_in_process(nb)):
        if script.is_check_cell(cell):
            assert isinstance(result, AssertionError) and "not yet solved" in str(result)
        else:
            assert isinstance(result, str), result


# Per set, one typical wrong answer: (answer cell, wrong code, text of the hint it must get).
WRONG_ANSWERS = {
    "01_gradients": ("ex1_answer", "dfdx = 27", "derivative of the term -2x"),
    "02_computation_graph": ("ex2_answer", "n_accumulate = 4", "it is one leaf"),
    "03_backward_step_by_step": (
        "ex4_answer",
        "dfdx = math.cos(1.5**2)",
        "multiply by the derivative of the inside",
    ),
    "04_accumulation_and_zeroing": (
        "ex3_answer",
        """\
def train(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.1)
    for _ in range(steps):
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item()""",
        "call optimizer.zero_grad() in every step",
    ),
    "05_non_scalar_outputs": (
        "ex3_answer",
        "J = [[3.0, 1.0, 4.0], [2.0, 1.0, 0.0]]",
        "you wrote Jᵀ",
    ),
    "06_retain_graph": (
        "ex3_answer",
        "loss1.backward()\nx_grad = x.grad",
        "gradient of loss1 alone",
    ),
    "07_differentiating_twice": (
        "ex2_answer",
        """\
def second_derivative(x0):
    x = mg.tensor(x0, dtype=mg.float64, requires_grad=True)
    (first,) = mg.autograd.grad(f(x), x)
    (second,) = mg.autograd.grad(first, x)
    return second.item()""",
        "needs create_graph=True",
    ),
    "08_turning_gradients_off": (
        "ex3_answer",
        "def sgd_update(w, lr):\n    w -= lr * w.grad",
        "must happen under mg.no_grad()",
    ),
    "09_training": (
        "ex1_answer",
        "def mse(w, b):\n    return ((w * x + b - y) ** 2).sum()",
        ".mean()",
    ),
    "10_checking_gradients": (
        "ex1_answer",
        "def numerical_derivative(f, x0, eps):\n    return (f(x0 + eps) - f(x0)) / eps",
        "step both ways",
    ),
}


def with_answer(nb, grade_id: str, code: str) -> tuple[nbformat.NotebookNode, int]:
    """``nb`` with the solution region of answer cell ``grade_id`` replaced by ``code``; also
    the index (among code cells) of the check cell that follows it."""
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    for index, cell in enumerate(code_cells):
        if script.nbgrader_meta(cell).get("grade_id") == grade_id:
            ((begin, end),) = script.solution_regions(cell.source)
            lines = cell.source.splitlines()
            cell.source = "\n".join(lines[:begin] + code.splitlines() + lines[end + 1 :])
            return nb, index + 1
    raise AssertionError(f"no answer cell {grade_id}")


@pytest.mark.parametrize("name", TOPICS)
def test_a_typical_wrong_answer_gets_the_intended_hint(name, monkeypatch):
    grade_id, wrong, hint = WRONG_ANSWERS[name]
    nb, check_index = with_answer(read(EXERCISES / "teacher" / f"{name}.ipynb"), grade_id, wrong)
    results = run_in_process(nb)
    shown = results[check_index]
    assert isinstance(shown, str), shown
    assert shown.startswith("✘") and "Hint: " in shown and hint.lower() in shown.lower(), shown
    # The other exercises of the set are unaffected.
    others = [r for i, r in enumerate(results) if i != check_index]
    assert all(isinstance(r, str) and "✘" not in r for r in others)
    # In autograde mode that check cell fails with the same message.
    monkeypatch.setenv(mx.AUTOGRADE_VARIABLE, "1")
    failed = run_in_process(nb)[check_index]
    assert isinstance(failed, AssertionError) and hint.lower() in str(failed).lower()


# --------------------------------------------------------------------------- the student files
def test_the_student_notebooks_are_up_to_date(tmp_path):
    script.write_student_versions(EXERCISES / "teacher", tmp_path, execute=False)
    for name in TOPICS:
        fresh, stored = read(tmp_path / f"{name}.ipynb"), read(STUDENT_DIR / f"{name}.ipynb")
        assert [c.cell_type for c in fresh.cells] == [c.cell_type for c in stored.cells]
        for new, old in zip(fresh.cells, stored.cells):
            assert new.source == old.source, (
                f"{name} is stale: run scripts/make_student_versions.py"
            )
            assert new.metadata.get("nbgrader") == old.metadata.get("nbgrader")


def test_student_versions_contain_no_solution():
    for name in TOPICS:
        teacher, student = (
            read(EXERCISES / "teacher" / f"{name}.ipynb"),
            read(STUDENT_DIR / f"{name}.ipynb"),
        )
        for t_cell, s_cell in zip(teacher.cells, student.cells):
            if script.is_solution_cell(t_cell):
                assert "BEGIN SOLUTION" not in s_cell.source
                assert "# YOUR CODE HERE" in s_cell.source
                assert all(
                    line.endswith("= None  # YOUR CODE HERE") or line.startswith("#")
                    for line in s_cell.source.splitlines()
                )
            else:
                assert t_cell.source == s_cell.source


NBGRADER_KEYS = {"grade", "grade_id", "locked", "schema_version", "solution", "task"}


@pytest.mark.parametrize("path", TEACHER + sorted(STUDENT_DIR.glob("*.ipynb")), ids=str)
def test_nbgrader_metadata_is_well_formed(path):
    nb = read(path)
    grade_ids = []
    for cell in nb.cells:
        meta = script.nbgrader_meta(cell)
        if cell.cell_type == "code":
            assert meta, f"code cell without nbgrader metadata: {cell.source[:40]!r}"
        if not meta:
            continue
        assert set(meta) - {"points"} == NBGRADER_KEYS
        assert meta["schema_version"] == 3 and meta["task"] is False
        assert re.fullmatch(r"[A-Za-z0-9_-]+", meta["grade_id"])
        grade_ids.append(meta["grade_id"])
        if meta["solution"]:  # an answer cell: editable, not graded
            assert (meta["grade"], meta["locked"]) == (False, False)
            if "teacher" in path.parts:
                assert script.solution_regions(cell.source)
        elif meta["grade"]:  # an autograded test cell: locked, worth points
            assert meta["locked"] is True
            assert isinstance(meta["points"], int) and meta["points"] > 0
            assert CHECK_CALL.search(cell.source)
        else:  # given code: read-only
            assert meta["locked"] is True and "points" not in meta
    assert len(grade_ids) == len(set(grade_ids)), "grade ids must be unique"
    kinds = [
        "answer" if script.is_solution_cell(c) else "check"
        for c in nb.cells
        if script.is_solution_cell(c) or script.is_check_cell(c)
    ]
    assert kinds == ["answer", "check"] * (len(kinds) // 2), "each answer has its check"


# --------------------------------------------------------------------------- the script's rules
@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION", "indented"),
        ("### BEGIN SOLUTION\nd = 1", "never closed"),
        ("d = 1\n### END SOLUTION", "without"),
        ("### BEGIN SOLUTION\nunused = 1\n### END SOLUTION", "binds no name"),
        ("d = 1", "without ### BEGIN SOLUTION"),
    ],
)
def test_bad_solution_markup_is_refused(source, error):
    with pytest.raises(script.SolutionMarkupError, match=error):
        script.student_source(source, checked={"d"})


def test_placeholders_keep_the_code_around_the_region():
    source = "# given\nx = 2\n### BEGIN SOLUTION\nt = x\ndfdx = 3 * t\n### END SOLUTION\nprint(1)"
    assert script.student_source(source, checked={"dfdx", "x"}) == (
        "# given\nx = 2\ndfdx = None  # YOUR CODE HERE\nprint(1)"
    )


def test_markers_outside_an_answer_cell_are_refused():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("### BEGIN SOLUTION\nd = 1\n### END SOLUTION")]
    with pytest.raises(script.SolutionMarkupError, match="without nbgrader solution metadata"):
        script.student_notebook(nb)
