"""Grading that student code cannot subvert: an nbgrader preprocessor in place of Execute.

nbgrader's own ``Execute`` runs a submission in a kernel, hidden tests included, as the
teacher, in the course folder: an answer cell can patch ``numpy.allclose``, import hooks,
IPython's input transformers or the checks on disk, or read the teacher's source, and the
hidden tests then pass. :class:`GradeInIsolation` grades in three places instead:

1. **the key**, made once per notebook by a trusted process that runs only the teacher's
   cells (taken from the gradebook, not from the submission): the *key side* of every
   hidden test (:mod:`minigrad_course.hidden_tests`), i.e. names and expected values;
2. **the answers**, made by a fresh process per submission, in a sandbox (bubblewrap's
   ``bwrap``): a private copy of the submission's folder is all it can write; the course
   folder, the home folder and nbgrader's exchange are hidden; the whole file system is
   read-only, including its own non-editable copy of ``minigrad`` and ``minigrad_course``;
   it runs as user ``nobody`` with no network and a cleared environment. It runs the
   student's cells and the *answer side* of the hidden tests, and hands the answers over
   as JSON data (:mod:`minigrad_course.answer_data`);
3. **the verdict**, here, in nbgrader's own interpreter, which never runs student code: the
   checks of :mod:`minigrad_course.checks` compare answers with the key, and each grade
   cell gets the outputs nbgrader scores (an error output when a check fails).

Whatever the student's process did, it could only change the answers it sent. A process
that crashed, exited early, ran out of time, sent malformed data or answers nobody asked
for is *flagged*: a warning in autograde's log, a note on top of the notebook's first code
cell (so the formgrader and the feedback show it) and ``metadata.minigrad_grading.flags``.

``teacher/nbgrader_config.py`` puts it in place of ``Execute``::

    c.Autograde.autograde_preprocessors = [
        "minigrad_course.isolated_grading.GradeInIsolation",
        ...  # nbgrader's other steps, unchanged
    ]
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool, Integer, Unicode

import minigrad as mg
import minigrad_course
from minigrad_course import checks
from minigrad_course.answer_data import from_data, loads
from minigrad_course.hidden_tests import (
    MEASURED_IN_THE_STUDENT_PROCESS,
    hidden_tests_of,
    split_hidden_tests,
    visible_part_of,
)
from minigrad_course.i18n import _, speaking
from minigrad_course.language_choice import normalise

__all__ = ["GradeInIsolation", "judge", "sandbox_command"]

MAX_ANSWERS = 64 * 1024 * 1024  # bytes of answers read back
NOBODY = 65534


# What the student's side sends for each kind of check (grading_process.measure), besides
# {"failed": message}: anything else is malformed, or forged.
SHAPES_OF_ANSWERS = {
    "check_value": [{"answer"}],
    "check_equal": [{"answer"}],
    "check_grad": [{"not_tensor"}, {"requires_grad", "grad"}],
    "check_grad_is_none": [{"not_tensor"}, {"requires_grad", "grad"}],
    "check_function": [{"results"}],
    **{kind: [{"passed"}] for kind in MEASURED_IN_THE_STUDENT_PROCESS},
}


class GradingError(Exception):
    """The teacher's material cannot be graded in isolation (a broken hidden test)."""


def judge(kind: str, name: str, teacher: dict[str, Any], data: Any) -> None:
    """One check's verdict from the student's answer ``data`` and the teacher's arguments:
    prints ``✔ name: correct``, or raises ``AssertionError`` with the check's message, or
    ``ValueError`` when the data is malformed. Runs no student code.

    >>> judge("check_value", "f'(3)", {"expected": 25.0}, {"answer": {"float": 25.0}})
    ✔ f'(3): correct
    >>> judge("check_function", "double", {"points": [1.0], "expected": [2.0]},
    ...       {"results": [{"array": ["f", [], [3.0]]}]})
    Traceback (most recent call last):
    ...
    AssertionError: ✘ double at 1.0 = 3.0 is not right.
    """
    __tracebackhide__ = True
    if not isinstance(data, dict):
        raise ValueError("answers that are not a record")
    if set(data) == {"failed"}:
        if not isinstance(data["failed"], str):
            raise ValueError("a failure without a message")
        raise AssertionError(data["failed"][:2000])
    if set(data) not in SHAPES_OF_ANSWERS.get(kind, ()):
        raise ValueError(f"answers of the wrong shape for {kind}")
    if kind in ("check_value", "check_equal"):
        getattr(checks, kind)(name, from_data(data.get("answer")), **teacher)
    elif kind in ("check_grad", "check_grad_is_none"):
        getattr(checks, kind)(name, _rebuilt_tensor(data), **teacher)
    elif kind == "check_function":
        results = [from_data(result) for result in _list(data.get("results"))]
        if not all(isinstance(result, np.ndarray) for result in results):
            raise ValueError("function results that are not arrays")
        arguments = dict(teacher)
        points = arguments.pop("points")
        checks.compare_function_results(name, points, results, **arguments)
    elif kind in MEASURED_IN_THE_STUDENT_PROCESS:
        if data != {"passed": True}:
            raise ValueError("a measured check with neither a pass nor a failure")
        checks._correct(name)
    else:
        raise ValueError(f"an answer for an unknown check {kind!r}")


def notebook_language(nb: Any) -> str:
    """The language a notebook asks for in ``metadata.minigrad.language``, else English.

    >>> import nbformat
    >>> notebook = nbformat.v4.new_notebook(metadata={"minigrad": {"language": "zh-Hans"}})
    >>> notebook_language(notebook), notebook_language(nbformat.v4.new_notebook())
    ('zh_CN', 'en')
    """
    minigrad = nb.get("metadata", {}).get("minigrad", {})
    code = minigrad.get("language") if isinstance(minigrad, dict) else None
    return (normalise(code) if isinstance(code, str) else None) or "en"


def _list(value: Any) -> list:
    if not isinstance(value, list):
        raise ValueError("a list that is not one")
    return value


def _rebuilt_tensor(data: dict[str, Any]) -> Any:
    """A tensor like the student's, as far as ``check_grad`` looks: its grad, requires_grad."""
    if "not_tensor" in data:
        return from_data(data["not_tensor"])
    grad = from_data(data.get("grad"))
    if grad is not None and not isinstance(grad, np.ndarray):
        raise ValueError("a gradient that is not an array")
    requires_grad = data.get("requires_grad")
    if not isinstance(requires_grad, bool):
        raise ValueError("requires_grad that is not a bool")
    shape = () if grad is None else grad.shape
    tensor = mg.zeros(shape, dtype=mg.float64, requires_grad=requires_grad)
    if grad is not None:
        tensor.grad = mg.tensor(grad.astype(np.float64), dtype=mg.float64)
    return tensor


def _package_folder(module: Any) -> Path:
    return Path(module.__file__).resolve().parent


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _hide_all_but(folder: Path, needed: list[Path]) -> list[Path]:
    """``folder``, or when it holds a ``needed`` path, the folders beside that path in it.

    >>> _hide_all_but(Path("/nonexistent/home"), [Path("/usr")])
    [PosixPath('/nonexistent/home')]
    """
    if not any(_inside(path, folder) for path in needed):
        return [folder]
    if any(path == folder for path in needed):
        return []
    hidden = []
    for child in sorted(folder.iterdir()):
        if child.is_dir() and not child.is_symlink():
            hidden += _hide_all_but(child, needed)
        else:
            hidden.append(child)  # a file: sandbox_command covers it with an empty one
    return hidden


def python_folders() -> list[Path]:
    """The folders the Python that grades runs from (its venv, the Python beneath it): the
    sandbox shows them, whatever it hides around them."""
    folders = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent]
    folders += [Path(sys.executable).resolve().parent]
    return list(dict.fromkeys(folder.resolve() for folder in folders))


def sandbox_command(
    bwrap: str, work: Path, hidden: list[Path], program_args: list[str], language: str = "en"
) -> list[str]:
    """The ``bwrap`` command that runs ``program_args`` in the sandbox for ``work``.

    >>> command = sandbox_command("bwrap", Path("/w"), [Path("/tmp")], ["python"])
    >>> command[:3], command[-2:]
    (['bwrap', '--ro-bind', '/'], ['--', 'python'])
    >>> command[command.index("--unshare-all") - 1]  # the student's folder, writable
    '/tmp/answers'
    """
    command = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    command += ["--tmpfs", "/tmp"]
    # Python itself may live under /tmp (a checkout there with its venv): shown again, read-only.
    for folder in python_folders():
        if _inside(folder, Path("/tmp")):
            command += ["--ro-bind", str(folder), str(folder)]
    for path in hidden:
        if path.is_dir() and not path.is_symlink():
            command += ["--tmpfs", str(path)]
        elif path.exists():
            command += ["--ro-bind", "/dev/null", str(path)]
    command += ["--ro-bind", str(work / "site"), "/tmp/grading/site"]
    command += ["--ro-bind", str(work / "program"), "/tmp/grading/program"]
    command += ["--bind", str(work / "submission"), "/tmp/submission"]
    command += ["--bind", str(work / "answers"), "/tmp/answers"]
    command += ["--unshare-all", "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]
    command += ["--die-with-parent", "--new-session", "--clearenv"]
    environment = _sandbox_environment("/tmp/submission", "/tmp/grading/site", language)
    for name, value in environment.items():
        command += ["--setenv", name, value]
    command += ["--chdir", "/tmp/submission", "--", *program_args]
    return command


def _sandbox_environment(home: str, site: str, language: str = "en") -> dict[str, str]:
    """The student's process's whole environment; its locale speaks the notebook's language
    (the checks' messages that it writes itself: minigrad_course/i18n.py)."""
    return {
        "LANGUAGE": language,
        "HOME": home,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "PYTHONPATH": site,
        "PYTHONDONTWRITEBYTECODE": "1",
        "IPYTHONDIR": f"{home}/.ipython",
        "MPLCONFIGDIR": f"{home}/.matplotlib",
        "MPLBACKEND": "Agg",
        "LANG": "C.UTF-8",
    }


def _writable_copy(source: Path, target: Path) -> None:
    """Copy a submission's folder (links as links) so that user ``nobody`` can write it."""
    shutil.copytree(source, target, symlinks=True)
    for folder, _folders, files in os.walk(target):
        os.chmod(folder, 0o777)
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | stat.S_IRUSR | stat.S_IWUSR | 0o066)


def _digests(folders: list[Path]) -> dict[str, str]:
    """A digest of every Python file and notebook under ``folders``: the installed course
    packages and the teacher's sources, which no submission may change.

    >>> _digests([Path("/nonexistent")])
    {}
    """
    digests = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".ipynb") and path.is_file():
                digests[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def _output(kind: str, **fields: Any) -> Any:
    if kind == "error":
        fields["traceback"] = [f"{fields['ename']}: {fields['evalue']}"]
    return nbformat.v4.new_output(kind, **fields)


class GradeInIsolation(NbGraderPreprocessor):
    """Run a submission in a sandbox, hand its answers over as data, judge them here."""

    timeout = Integer(900, help="Seconds a submission's process may run.").tag(config=True)
    sandbox = Unicode(
        "auto",
        help="'bwrap' (required), 'auto' (bwrap when installed) or 'none' (no isolation).",
    ).tag(config=True)
    hide = Unicode(
        "",
        help="More folders (separated by os.pathsep) that a submission must not see.",
    ).tag(config=True)
    require_sandbox = Bool(
        False, help="Refuse to grade when bubblewrap is missing (same as sandbox='bwrap')."
    ).tag(config=True)

    _keys: dict[str, dict] = {}  # made once per notebook and autograde run

    # ------------------------------------------------------------------ the programs
    def _teacher_cells(self, resources: dict) -> tuple[dict[str, Any], set[str]]:
        """The teacher's cells of this notebook from the gradebook, and its grade cells."""
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gradebook:
            try:
                notebook = gradebook.find_notebook(info["notebook"], info["assignment"])
            except MissingEntry as missing:
                raise GradingError(f"{info['notebook']} is not in the gradebook") from missing
            sources = {cell.name: cell for cell in notebook.source_cells}
            graded = {cell.name for cell in notebook.grade_cells if cell.cell_type == "code"}
            teacher = {
                name: {"source": cell.source, "locked": cell.locked, "type": cell.cell_type}
                for name, cell in sources.items()
            }
        return teacher, graded

    def _programs(self, nb: Any, resources: dict) -> tuple[dict, dict, dict[str, list[str]]]:
        teacher, graded = self._teacher_cells(resources)
        steps, given, keyed, kinds = [], [], [], {}
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            original = teacher.get(grade_id)
            if grade_id in graded and original is not None:
                source = original["source"]
                tests = hidden_tests_of(source)
                visible = visible_part_of(source) if tests is not None else ""
                answer_side, key_side, kinds[grade_id] = split_hidden_tests(
                    tests if tests is not None else source, grade_id, visible
                )
                steps.append({"cell": index, "code": answer_side, "grade_id": grade_id})
                keyed.append({"grade_id": grade_id, "code": key_side})
            elif original is not None and original["locked"] and original["type"] == "code":
                steps.append({"cell": index, "code": original["source"], "grade_id": None})
                given.append(original["source"])
            else:  # an answer cell, or a cell the student added
                steps.append({"cell": index, "code": cell.source, "grade_id": None})
        return {"steps": steps}, {"given": given, "cells": keyed}, kinds

    # ------------------------------------------------------------------ the key
    def _key(self, key_program: dict) -> dict:
        text = json.dumps(key_program, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest not in self._keys:
            with tempfile.TemporaryDirectory(prefix="minigrad-key-") as folder:
                program, out = Path(folder, "key.json"), Path(folder, "key.pickle")
                program.write_text(text, encoding="utf-8")
                command = [sys.executable, "-m", "minigrad_course.grading_process", "key"]
                done = subprocess.run(
                    [*command, str(program), str(out)],
                    cwd=folder,
                    capture_output=True,
                    text=True,
                    timeout=self.timeout,
                )
                if done.returncode != 0 or not out.exists():
                    raise GradingError(f"the hidden tests could not make a key:\n{done.stderr}")
                with out.open("rb") as file:
                    self._keys[digest] = pickle.load(file)  # noqa: S301 - our own trusted process
        return self._keys[digest]

    # ------------------------------------------------------------------ the answers
    _bwrap_works: dict[str, bool] = {}  # whether bwrap can make a sandbox here, once a run

    def _bwrap(self) -> str | None:
        """The bwrap program when it can make a sandbox here (inside a container, user
        namespaces may be forbidden), else None; an error when a sandbox is required."""
        required = self.sandbox == "bwrap" or self.require_sandbox
        found = None if self.sandbox == "none" else shutil.which("bwrap")
        if found is not None and found not in self._bwrap_works:
            probe = [found, "--ro-bind", "/", "/", "--unshare-all", "--unshare-user"]
            try:
                tried = subprocess.run([*probe, "--", "true"], capture_output=True, timeout=60)
                self._bwrap_works[found] = tried.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                self._bwrap_works[found] = False
        if found is not None and not self._bwrap_works[found]:
            self.log.warning("bwrap is installed but cannot make a sandbox here")
            found = None
        if found is None and required:
            raise GradingError(
                "no working bubblewrap (apt-get install bubblewrap; in a container, allow user "
                "namespaces): submissions cannot be graded in isolation"
            )
        return found

    def _hidden_folders(self, submission: Path) -> list[Path]:
        """The course folder, the home folder, nbgrader's exchange: not for the student.
        A folder that holds Python itself (a home with pyenv) is hidden but for that path."""
        candidates = [Path.cwd(), submission.parents[2], Path.home(), Path("/srv/nbgrader")]
        candidates += [Path(p) for p in self.hide.split(os.pathsep) if p]
        needed = python_folders()
        hidden: list[Path] = []
        for folder in candidates:
            folder = folder.resolve()
            if folder.is_dir() and folder != Path("/"):
                hidden += _hide_all_but(folder, needed)
        return list(dict.fromkeys(hidden))

    def _run_answers(
        self, program: dict, submission: Path, language: str = "en"
    ) -> tuple[Any, list[str], str]:
        """(the answers report or None, flags, how isolated) for one submission."""
        flags: list[str] = []
        with tempfile.TemporaryDirectory(prefix="minigrad-grading-") as folder:
            work = Path(folder)
            _writable_copy(submission, work / "submission")
            for package in (mg, minigrad_course):  # a private, read-only, non-editable copy
                shutil.copytree(
                    _package_folder(package),
                    work / "site" / package.__name__,
                    ignore=shutil.ignore_patterns("__pycache__"),
                )
            (work / "program").mkdir()
            (work / "program" / "program.json").write_text(json.dumps(program), encoding="utf-8")
            (work / "answers").mkdir(mode=0o777)
            os.chmod(work / "answers", 0o777)
            guarded = [_package_folder(mg), _package_folder(minigrad_course), Path.cwd() / "source"]
            before = _digests(guarded)
            bwrap = self._bwrap()
            runner = [sys.executable, "-s", "-m", "minigrad_course.grading_process", "answers"]
            if bwrap is not None:
                isolation = "bwrap"
                args = [*runner, "/tmp/grading/program/program.json", "/tmp/answers/answers.json"]
                hidden = self._hidden_folders(submission)
                command = sandbox_command(bwrap, work, hidden, args, language)
                cwd, env = str(work), {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            else:
                isolation = "none"
                self.log.warning("Grading without a sandbox: install bubblewrap (bwrap)")
                program_file = work / "program" / "program.json"
                command = [*runner, str(program_file), str(work / "answers" / "answers.json")]
                cwd = str(work / "submission")
                env = _sandbox_environment(cwd, str(work / "site"), language)
            try:
                done = subprocess.run(
                    command, cwd=cwd, env=env, capture_output=True, timeout=self.timeout
                )
                if done.returncode != 0:
                    flags.append(f"process ended with exit status {done.returncode}")
            except subprocess.TimeoutExpired:
                flags.append(f"process ran out of time ({self.timeout} s) and was stopped")
            after = _digests(guarded)
            changed = sorted(set(before.items()) ^ set(after.items()))
            if changed:
                flags.append(f"process wrote outside its folder (it changed {changed[0][0]})")
            answers = work / "answers" / "answers.json"
            if not answers.is_file():
                flags.append("process sent back no answers at all")
                return None, flags, isolation
            if answers.stat().st_size > MAX_ANSWERS:
                flags.append("process sent back far too much data")
                return None, flags, isolation
            try:
                report = loads(answers.read_text(encoding="utf-8", errors="replace"))
            except ValueError as error:
                flags.append(f"process sent back {error}")
                return None, flags, isolation
        if not isinstance(report, dict) or report.get("finished") is not True:
            flags.append("process stopped before the last cell (os._exit, a crash...)")
        return report, flags, isolation

    # ------------------------------------------------------------------ the verdict
    def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
        """Grade ``nb``: key, answers in the sandbox, verdict; outputs written into ``nb``."""
        program, key_program, kinds = self._programs(nb, resources)
        key = self._key(key_program)
        submission = Path(resources["metadata"]["path"]).resolve()
        # The checks' messages in the notebook's own language (its metadata), else English:
        # never the grading machine's locale. Only the words change, never a verdict.
        language = notebook_language(nb)
        report, flags, isolation = self._run_answers(program, submission, language)
        ran, records = self._read_report(report, kinds, flags)
        with speaking(language):
            for step in program["steps"]:
                cell = nb.cells[step["cell"]]
                this = ran.get(step["cell"])
                if step["grade_id"] is None:
                    cell.outputs = self._plain_outputs(this)
                else:
                    cell.outputs = self._graded_outputs(
                        step["grade_id"], this, kinds, key, records, flags
                    )
        flags = list(dict.fromkeys(flags))
        nb.metadata["minigrad_grading"] = {"isolation": isolation, "flags": flags}
        where = f"{resources['nbgrader'].get('student')}/{resources['nbgrader']['notebook']}"
        for flag in flags:
            self.log.warning("Flagged %s: %s", where, flag)
        if flags:
            first = next(cell for cell in nb.cells if cell.cell_type == "code")
            text = "".join(f"⚠ flagged for the teacher: the submission's {f}.\n" for f in flags)
            first.outputs.insert(0, _output("stream", name="stdout", text=text))
        return nb, resources

    def _read_report(self, report: Any, kinds: dict, flags: list[str]) -> tuple[dict, dict]:
        """Each cell's run and each check's answer, from a report that may be forged."""
        ran: dict[int, dict] = {}
        records: dict[tuple[str, int], Any] = {}
        if not isinstance(report, dict):
            return ran, records
        tampered = report.get("tampered") if isinstance(report.get("tampered"), list) else []
        for what in tampered[:20]:
            if isinstance(what, str):
                flags.append(f"code changed {what[:80]} (grading does not use it)")
        for cell in report.get("cells", []) if isinstance(report.get("cells"), list) else []:
            if isinstance(cell, dict) and isinstance(cell.get("cell"), int):
                ran.setdefault(cell["cell"], cell)
        raw = report.get("records") if isinstance(report.get("records"), list) else []
        for record in raw:
            slot = None
            if isinstance(record, dict):
                slot = (record.get("cell"), record.get("index"))
            known = isinstance(slot, tuple) and slot[0] in kinds
            if not known or not isinstance(slot[1], int) or not 0 <= slot[1] < len(kinds[slot[0]]):
                flags.append("process sent back answers that no hidden test asked for")
                continue
            if slot in records or record.get("kind") != kinds[slot[0]][slot[1]]:
                flags.append("process sent back answers twice, or for the wrong check")
                continue
            records[slot] = record.get("data")
        return ran, records

    @staticmethod
    def _error_of(run: dict | None) -> tuple[str, str] | None:
        error = None if run is None else run.get("error")
        if isinstance(error, list) and len(error) == 2 and all(isinstance(e, str) for e in error):
            return error[0], error[1]
        return None

    def _plain_outputs(self, run: dict | None) -> list:
        outputs = []
        if run is None:
            return outputs
        for stream in ("stdout", "stderr"):
            if isinstance(run.get(stream), str) and run[stream]:
                outputs.append(_output("stream", name=stream, text=run[stream]))
        error = self._error_of(run)
        if error is not None:
            outputs.append(_output("error", ename=error[0], evalue=error[1]))
        return outputs

    def _graded_outputs(
        self, grade_id: str, run: dict | None, kinds: dict, key: dict, records: dict, flags: list
    ) -> list:
        """A grade cell's outputs: what the student's code printed (stderr as notes, since
        nbgrader fails a cell that writes to stderr), each check's verdict, the first error."""
        notes = ""
        if run is not None:
            notes += run.get("stdout", "") if isinstance(run.get("stdout"), str) else ""
            stderr = run.get("stderr", "") if isinstance(run.get("stderr"), str) else ""
            notes += "".join(
                _("note: {line}").format(line=line) + "\n"
                for line in stderr.splitlines()
                if line.strip()
            )
        printed = io.StringIO()
        error = None
        for index, kind in enumerate(kinds[grade_id]):
            if (grade_id, index) not in records:
                error = self._error_of(run)
                if error is None and run is None:
                    never_ran = _("this cell never ran: the process stopped before it")
                    error = ("GradingError", never_ran)
                elif error is None:
                    flags.append("process did not send back the answers of every check")
                    error = ("GradingError", _("the answers of this check never came back"))
                break
            name, teacher = key[grade_id, index][1:]
            try:
                with contextlib.redirect_stdout(printed):
                    judge(kind, name, dict(teacher), records[grade_id, index])
            except AssertionError as failed:
                error = ("AssertionError", str(failed))
                break
            except (ValueError, TypeError, KeyError) as malformed:
                flags.append(f"process sent back malformed answers ({malformed})")
                error = ("GradingError", _("the answers of this check came back malformed"))
                break
        else:
            error = self._error_of(run)  # every check passed, but the cell raised after them
        outputs = []
        if notes + printed.getvalue():
            outputs.append(_output("stream", name="stdout", text=notes + printed.getvalue()))
        if error is not None:
            outputs.append(_output("error", ename=error[0], evalue=error[1]))
        return outputs
