"""Run programs from ``scripts/`` with one library and report what each printed, as JSON.

    python run_programs.py torch PROGRAM.py ...      # the real PyTorch
    python run_programs.py minigrad PROGRAM.py ...   # ``import torch`` gives minigrad

The library is imported once; each program then runs in a forked child of its own, so no
setting one program changes (default dtype, print options, ...) reaches the next, and the
import is paid once. The report maps each program's file name to ``{"output", "stderr",
"exit", "seconds"}``: what it printed (the part compared), what it wrote to stderr (warnings
and tracebacks, shown when a comparison fails but never compared: each library words its
warnings' provenance its own way), its exit status and its running time. An exception the
program does not catch ends its output with ``UNCAUGHT <type>: <message>``, exit status 1.
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The checkout these tests belong to: its minigrad is the one under test, not whichever copy
# the environment has installed (an editable install points at one checkout only, and a git
# worktree beside it would otherwise test that one's code).
CHECKOUT = HERE.parents[1]


def run_in_child(program: Path, stdout_file: str, stderr_file: str) -> None:
    """Run ``program`` as ``__main__``, its stdout and stderr going to the two files."""
    for descriptor, name in ((1, stdout_file), (2, stderr_file)):
        with open(name, "w") as out:
            os.dup2(out.fileno(), descriptor)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - lives as long as the child
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
    status = 0
    try:
        runpy.run_path(str(program), run_name="__main__")
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    except BaseException as error:  # noqa: BLE001 - reported, not hidden
        traceback.print_exc(file=sys.stderr)
        print(f"UNCAUGHT {type(error).__name__}: {error}")
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def run(program: Path) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        stdout, stderr = Path(folder, "stdout"), Path(folder, "stderr")
        sys.stdout.flush()
        sys.stderr.flush()
        started = time.perf_counter()
        child = os.fork()
        if child == 0:
            run_in_child(program, str(stdout), str(stderr))
        _, status = os.waitpid(child, 0)
        return {
            "output": stdout.read_text(),
            "stderr": stderr.read_text(),
            "exit": os.waitstatus_to_exitcode(status),
            "seconds": time.perf_counter() - started,
        }


def warm_up(torch) -> None:  # noqa: ANN001 - either library's module
    """One tiny step of each optimizer, so that what their first step loads is loaded."""
    for optimizer_class in (torch.optim.SGD, torch.optim.Adam):
        weight = torch.nn.Parameter(torch.ones(1))
        optimizer = optimizer_class([weight], lr=0.1)
        (weight * 2).sum().backward()
        optimizer.step()


def main(library: str, programs: list[str]) -> None:
    sys.path.insert(0, str(CHECKOUT))
    if library == "minigrad":
        sys.path.insert(0, str(HERE))
        import torch_is_minigrad

        torch_is_minigrad.install()
    elif library != "torch":
        raise SystemExit(f"unknown library {library!r}: torch or minigrad")
    # Imported once here, before the children are forked: torch loads much of itself lazily
    # (torch.optim's first step alone takes seconds), and each child would pay it again.
    import torch

    for module in ("torch.nn", "torch.optim", "torch.autograd.functional"):
        try:
            importlib.import_module(module)
        except ImportError:
            pass  # a program that needs it fails, saying so, in its own output
    warm_up(torch)

    report = {Path(program).name: run(Path(program)) for program in programs}
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
