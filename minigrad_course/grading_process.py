"""The two processes that isolated grading starts: one runs a submission, one makes the key.

``python -m minigrad_course.grading_process answers PROGRAM OUT`` runs a submission's cells
(in a sandbox, see :mod:`minigrad_course.isolated_grading`) in an IPython shell, as a kernel
would. Its grade cells hold only the *answer side* of the hidden tests
(:mod:`minigrad_course.hidden_tests`): each check hands what it needs from the student to
:class:`AnswerRecorder`, which turns it into data (:mod:`minigrad_course.answer_data`). After
every cell, OUT is rewritten as JSON: each cell's output and error, and the recorded answers.
Nothing in this process decides a grade, so nothing the student's code does here can.

``python -m minigrad_course.grading_process key PROGRAM OUT`` runs only the teacher's code:
the locked cells that define given functions, then the *key side* of the hidden tests, which
hands the expected values to :class:`KeyRecorder`. It never sees a submission.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import sys
import warnings
from typing import Any

import numpy as np

import minigrad as mg
from minigrad_course import checks
from minigrad_course.answer_data import dumps, to_data

__all__ = ["AnswerRecorder", "KeyRecorder", "measure", "main"]

MAX_OUTPUT = 20_000  # characters of a cell's output kept
CHECK_NAMES = tuple(checks.__all__)  # taken now: an answer cell may replace checks.__all__


def measure(kind: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """What the verdict needs from the student for one check, as data.

    >>> measure("check_value", "x", {"answer": 2.0})
    {'answer': {'float': 2.0}}
    >>> measure("check_function", "double", {"answer": None, "points": [1.0]})
    {'failed': '✘ double: not answered yet (replace the placeholder with your answer).'}
    """
    try:
        if kind in ("check_value", "check_equal"):
            return {"answer": to_data(arguments.get("answer"))}
        if kind in ("check_grad", "check_grad_is_none"):
            tensor = arguments.get("tensor")
            if not isinstance(tensor, mg.Tensor):
                return {"not_tensor": to_data(tensor)}
            with (
                warnings.catch_warnings()
            ):  # reading a non-leaf's .grad warns: its None is the answer
                warnings.simplefilter("ignore")
                grad = tensor.grad
            grad = None if grad is None else to_data(grad.detach().numpy())
            return {"requires_grad": bool(tensor.requires_grad), "grad": grad}
        if kind == "check_function":
            call = arguments.get("call")
            use = call if call is not None else (lambda function, point: function(point))
            results = checks.function_results(
                name,
                arguments.get("answer"),
                arguments["points"],
                use,
                arguments.get("forbidden", ()),
                arguments.get("common_mistakes", ()),
                arguments.get("hint", ""),
            )
            return {"results": [to_data(result) for result in results]}
        # check_raises, check_gradcheck, check_no_recursion: what they measure is how the
        # student's code behaves, so they run here whole; their "✔" line is the verdict's.
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                getattr(checks, kind)(name, **arguments)
        finally:
            notes = [line for line in printed.getvalue().splitlines() if checks.is_note_line(line)]
            for line in notes:
                print(line)
        return {"passed": True}
    except AssertionError as problem:
        return {"failed": str(problem)}


class AnswerRecorder:
    """Collects the answers of the hidden tests' answer side."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def record(self, grade_id: str, index: int, kind: str, name: str, **arguments: Any) -> None:
        """Measure one check's answer and keep it (see :func:`measure`)."""
        data = measure(kind, name, arguments)
        self.records.append({"cell": grade_id, "index": index, "kind": kind, "data": data})


def _plain(value: Any) -> Any:
    """The teacher's values with tensors as arrays, ready to pickle."""
    if isinstance(value, mg.Tensor):
        return value.detach().numpy()
    if type(value) in (list, tuple):  # a subclass (a Fingerprint, say) stays as it is
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


class KeyRecorder:
    """Collects the expected values of the hidden tests' key side."""

    def __init__(self) -> None:
        self.key: dict[tuple[str, int], tuple[str, str, dict[str, Any]]] = {}

    def record(self, grade_id: str, index: int, kind: str, name: str, **arguments: Any) -> None:
        """Keep one check's name and teacher's arguments (``expected=``, ``tol=``...).

        A typical mistake given as a function is left out: judging it would mean running it
        through the student's ``call``, which only the student's process has."""
        mistakes = arguments.get("common_mistakes")
        if mistakes:
            arguments["common_mistakes"] = [
                (mistake, hint)
                for mistake, hint in mistakes
                if isinstance(mistake, checks.Fingerprint)
                or (isinstance(mistake, type) and mistake.__module__ == "builtins")
                or not callable(mistake)
            ]
        self.key[grade_id, index] = (kind, name, _plain(arguments))


def _watched(shell: Any) -> dict[str, Any]:
    """What an answer cell has no business changing, each as something comparable.

    Changing one of them cannot alter a verdict (none is reached here), but it says that
    the submission tried: the teacher is told.
    """
    import builtins
    import math

    user_finders = [f for f in sys.meta_path if type(f).__module__ == "__main__"]
    return {
        "numpy.allclose or numpy.isclose": (id(np.allclose), id(np.isclose)),
        "math.isclose": id(math.isclose),
        "builtins.__import__": id(builtins.__import__),
        "builtins.AssertionError": id(builtins.AssertionError),
        "the import system (sys.meta_path, sys.path_hooks)": (
            len(user_finders),
            len(sys.path_hooks),
        ),
        "IPython's input transformers": (
            len(shell.input_transformers_cleanup),
            len(shell.input_transformers_post),
            len(shell.ast_transformers),
        ),
        "IPython's event hooks": tuple(
            len(callbacks) for callbacks in shell.events.callbacks.values()
        ),
        "the checks module": (
            id(sys.modules.get("minigrad_course.checks")),
            tuple(id(getattr(checks, name, None)) for name in CHECK_NAMES),
        ),
        "a trace or profile hook (sys.settrace, sys.setprofile)": (
            sys.gettrace() is None,
            sys.getprofile() is None,
        ),
    }


def _write_json(path: str, data: Any) -> None:
    temporary = f"{path}.part"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(dumps(data))
    os.replace(temporary, path)


def run_answers(program: dict[str, Any], out: str) -> None:
    """Run a submission's cells, writing each cell's output and the answers to ``out``."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    # Errors are reported as data (name and message); tracebacks would quote hidden tests.
    shell.showtraceback = lambda *args, **kwargs: None
    shell.showsyntaxerror = lambda *args, **kwargs: None
    recorder = AnswerRecorder()
    shell.user_ns["_grading"] = recorder
    done: list[dict[str, Any]] = []
    tampered: list[str] = []
    report = {"cells": done, "records": recorder.records, "tampered": tampered, "finished": False}
    before = _watched(shell)
    real_stdout, real_stderr = sys.stdout, sys.stderr
    for step in program["steps"]:
        shell.user_ns["_grading"] = recorder  # an answer cell may have replaced it
        stdout, stderr = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = stdout, stderr
        try:
            result = shell.run_cell(step["code"], store_history=False)
            error = result.error_before_exec or result.error_in_exec
        except BaseException as escaped:  # noqa: BLE001 - SystemExit and the like end a cell only
            error = escaped
        finally:
            sys.stdout, sys.stderr = real_stdout, real_stderr
        done.append(
            {
                "cell": step["cell"],
                "stdout": stdout.getvalue()[:MAX_OUTPUT],
                "stderr": stderr.getvalue()[:MAX_OUTPUT],
                "error": None if error is None else [type(error).__name__, str(error)[:2000]],
            }
        )
        try:
            now = _watched(shell)
        except Exception:  # noqa: BLE001 - the student's code broke what the watch reads
            now = {what: None for what in before}
        tampered += [what for what in before if now[what] != before[what] and what not in tampered]
        _write_json(out, report)
    report["finished"] = True
    _write_json(out, report)


def run_key(program: dict[str, Any], out: str) -> None:
    """Run the teacher's given cells, then the key side of every hidden test."""
    namespace: dict[str, Any] = {"__name__": "__main__", "np": np, "mg": mg}
    for code in program["given"]:
        with contextlib.suppress(Exception), contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "<given cell>", "exec"), namespace)  # noqa: S102 - teacher's code
    recorder = KeyRecorder()
    namespace["_grading"] = recorder
    for cell in program["cells"]:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(cell["code"], f"<key of {cell['grade_id']}>", "exec"), namespace)  # noqa: S102
    with open(out, "wb") as file:
        pickle.dump(recorder.key, file)


def main(argv: list[str]) -> None:
    """``answers PROGRAM OUT`` or ``key PROGRAM OUT``."""
    mode, program_path, out = argv
    with open(program_path, encoding="utf-8") as file:
        program = json.load(file)
    {"answers": run_answers, "key": run_key}[mode](program, out)


if __name__ == "__main__":
    main(sys.argv[1:])
