"""PyTorch's own autograd programs run unchanged on minigrad (issues #13 and #25).

Each file in ``scripts/`` is a complete program written as a student would write it for
PyTorch, starting with ``import torch``: the kind of code PyTorch's autograd tutorials and
notes, d2l.ai's autograd chapter, micrograd's tests and the makemore lectures' notebooks
(``makemore_*.py``) exercise, in this project's own words.
Each runs twice, once on torch 2.13 (the oracle) and once with ``import torch`` answered by
minigrad (``torch_is_minigrad.py``), and both must print the same thing.

"The same" means equal after four normalisations, and no others:

- every floating-point number is rounded to 4 significant digits;
- the word ``torch`` reads ``minigrad`` (``torch.float32``, module names);
- memory addresses (`` at 0x7f...``) are left out, as minigrad prints none;
- trailing spaces are dropped.

Random inputs come from numpy (``np.random.default_rng(seed)``), never from either
library's own generator, so both runs see the same numbers. A program may also draw from a
seeded ``torch.Generator`` (``randint``, ``multinomial``, ...), whose stream is each
library's own: it then prints only what holds for any stream (shapes, dtypes, ranges, that a
seed repeats its draws), never the values drawn.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted((HERE / "scripts").glob("*.py"))
LIBRARIES = ("torch", "minigrad")

# Programs whose output differs from PyTorch's, each with why, run as strict xfails (once one
# passes, its mark must go): none now.
EXPECTED_TO_FAIL: dict[str, str] = {}

pytestmark = pytest.mark.oracle

FLOAT = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][-+]?\d+)?(?![\w.])")
# minigrad prints a node as <MulBackward0 object>, PyTorch adds " at 0x7f..." (docs/pytorch.md).
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
TORCH_WORD = re.compile(r"\btorch\b")


def four_digits(match: re.Match[str]) -> str:
    return f"{float(match.group()):.4g}"


def normalize(output: str) -> str:
    """The output as compared: floats to 4 significant digits, ``torch`` read as
    ``minigrad``, addresses left out, trailing spaces dropped.

    >>> normalize("tensor([1.23456, 2.]) torch.float32 <MulBackward0 object at 0x7f3a>\\n")
    'tensor([1.235, 2]) minigrad.float32 <MulBackward0 object>'
    """
    output = ADDRESS.sub("", output)
    output = TORCH_WORD.sub("minigrad", output)
    output = FLOAT.sub(four_digits, output)
    return "\n".join(line.rstrip() for line in output.strip().splitlines())


def run_all(library: str) -> dict[str, dict[str, object]]:
    # One thread: the tensors are tiny, and on a busy machine torch's thread pool makes each
    # backward() wait tens of milliseconds for its workers (measured: 3.9 s against 0.2 s).
    single_threaded = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, str(HERE / "run_programs.py"), library, *map(str, PROGRAMS)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=single_threaded,
    )
    if done.returncode != 0:
        raise RuntimeError(f"running the programs on {library} failed:\n{done.stderr}")
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def outputs() -> dict[str, dict[str, dict[str, object]]]:
    """What every program printed, per library; both libraries run at the same time."""
    pytest.importorskip("torch")
    with ThreadPoolExecutor(len(LIBRARIES)) as pool:
        return dict(zip(LIBRARIES, pool.map(run_all, LIBRARIES)))


def program_params() -> list[object]:
    params = []
    for program in PROGRAMS:
        marks = []
        if program.stem in EXPECTED_TO_FAIL:
            marks.append(pytest.mark.xfail(strict=True, reason=EXPECTED_TO_FAIL[program.stem]))
        params.append(pytest.param(program.name, marks=marks, id=program.stem))
    return params


def test_there_are_enough_programs() -> None:
    assert len(PROGRAMS) >= 25


@pytest.mark.parametrize("program", program_params())
def test_program_prints_what_torch_prints(program: str, outputs) -> None:
    with_torch = outputs["torch"][program]
    with_minigrad = outputs["minigrad"][program]
    assert with_torch["exit"] == 0, f"{program} fails under torch itself:\n{with_torch['output']}"
    expected = normalize(str(with_torch["output"]))
    assert expected, f"{program} prints nothing: there is nothing to compare"
    got = normalize(str(with_minigrad["output"]))
    assert got == expected, f"stderr of the minigrad run:\n{with_minigrad['stderr']}"
    assert with_minigrad["exit"] == 0, with_minigrad["stderr"]
