"""The benchmark guards itself: libraries that disagree on a gradient stop it with a
non-zero exit and a message naming them, and its instruction counter reads callgrind's dumps."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import instructions  # noqa: E402  (bench/instructions.py)
import run  # noqa: E402  (bench/run.py)


def test_differing_gradients_stop_the_timing():
    case = run.Case("W0", "toy", "s", 1.0)
    runners = {"minigrad": lambda: [np.array([1.0, 2.0])], "other": lambda: [np.array([1.0, 2.5])]}
    with pytest.raises(
        run.GradientMismatch, match="W0 toy: other's gradients differ from minigrad's"
    ):
        run.time_cases(case, runners, {}, rtol=1e-9)
    assert case.samples == {}  # nothing was timed


def test_equal_gradients_are_timed():
    case = run.Case("W0", "toy", "s", 1.0)
    runners = {"minigrad": lambda: [np.array([1.0])], "other": lambda: [np.array([1.0])]}
    run.time_cases(case, runners, {"minigrad": 3, "other": 2}, rtol=1e-9)
    assert {lib: len(times) for lib, times in case.samples.items()} == {"minigrad": 3, "other": 2}


def test_a_wrong_gradient_fails_the_run_loudly(monkeypatch, capsys, tmp_path):
    def chain_runners(n, recursion_limit=None, libraries=run.LIBRARIES):
        return {"minigrad": lambda: [np.array(1.0)], "mygrad": lambda: [np.array(-1.0)]}

    monkeypatch.setattr(run, "chain_runners", chain_runners)
    monkeypatch.setattr(run, "print_instructions", lambda only, quick: {})
    json = tmp_path / "results.json"
    monkeypatch.setattr(sys, "argv", ["run.py", "--only", "W1", "--quick", "--json", str(json)])
    assert run.main() == 1
    assert "bench: FAILED: W1 scalar chain, 1 000 ops: mygrad's gradients differ" in (
        capsys.readouterr().err
    )
    assert not json.exists()


def test_the_counter_reads_the_totals_of_a_dump(tmp_path):
    dump = tmp_path / "callgrind.out.2"
    dump.write_text("version: 1\nevents: Ir\nsummary: 1234\ntotals: 1234\nfn=(1) main\n")
    assert instructions.total_instructions(dump) == 1234
    dump.write_text("events: Ir\n")
    with pytest.raises(ValueError, match="no totals line"):
        instructions.total_instructions(dump)


def test_only_the_runners_asked_for_are_built():
    assert set(run.chain_runners(10, libraries=("minigrad",))) == {"minigrad"}
    assert set(run.mlp_runners(libraries=("minigrad", "limit"))) == {"minigrad", "limit"}
