"""minigrad's cost on W1 and W2 in machine instructions, counted by valgrind's callgrind.

Timings on a shared 2-core machine move by 10 % from run to run; the number of
instructions a piece of Python executes does not (with a fixed hash seed and one BLAS
thread, repeat counts agree to well under 1 %). So every change to the per-op cost is
judged by these counts, and ``bench/run.py`` prints them beside its ratios.

How the counting works: a child Python runs under callgrind with
``--dump-before=sys_getswitchinterval``. The child imports minigrad, warms the workloads
up, then calls ``sys.getswitchinterval()`` (which nothing else in minigrad calls) before
and after each workload's repetitions. Callgrind writes out and zeroes its counters at
each call, so each dump holds exactly one workload's instructions, without the start-up.

    python bench/instructions.py            # W1 per op, W2 per step (about 30 s)
    python bench/instructions.py --peers    # and autograd's W1, mygrad's W2, and the ratios
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The C function behind sys.getswitchinterval(): callgrind dumps its counters before each call.
MARKER = "sys_getswitchinterval"
W1_OPS = 1000  # as bench/run.py's W1: a chain of 1 000 ops
REPETITIONS = {"W1": 3, "W2": 20}  # about 120 million instructions each
QUICK_REPETITIONS = {"W1": 1, "W2": 5}  # counts agree with the full ones to ~1 %


# The peer each target compares minigrad with: HIPS autograd on W1, mygrad on W2.
PEERS = {"W1": "autograd", "W2": "mygrad"}


def counted_runs(peers: bool) -> list[tuple[str, str]]:
    """(workload, library) in the order the child runs them: minigrad's, then the peers'."""
    runs = [("W1", "minigrad"), ("W2", "minigrad")]
    if peers:
        runs += [(w, lib) for w, lib in PEERS.items() if importlib.util.find_spec(lib)]
    return runs


def run_child(repetitions: dict[str, int], peers: bool) -> None:
    """Under callgrind: run each workload between two markers."""
    sys.path.insert(0, str(Path(__file__).parent))
    from run import chain_runners, mlp_runners

    make = {
        "W1": lambda lib: chain_runners(W1_OPS, libraries=(lib,))[lib],
        "W2": lambda lib: mlp_runners(libraries=(lib,))[lib],
    }
    runs = [(workload, make[workload](lib)) for workload, lib in counted_runs(peers)]
    for _, runner in runs:  # warm-up: lazy imports and caches fill here
        runner()
        runner()
    gc.collect()
    gc.disable()  # as the timed runs: no collection inside a sample
    sys.getswitchinterval()  # dump 1: everything up to here
    for workload, runner in runs:
        for _ in range(repetitions[workload]):
            runner()
        sys.getswitchinterval()  # dump 2, 3, ...: one per run


def total_instructions(dump: Path) -> int:
    """The ``totals:`` line of a callgrind dump: instructions executed in its interval."""
    for line in dump.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(f"{dump} has no totals line")


def count(quick: bool = False, peers: bool = False) -> dict[str, float] | None:
    """Instructions per op of W1 and per step of W2, or None when valgrind is missing.
    ``quick``: fewer repetitions (callgrind runs Python about 50 times slower); ``peers``:
    the same counts for the peer of each target (when installed), and the ratios."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    import minigrad

    # The child counts the minigrad that this process imported (a worktree's copy, say).
    source_root = str(Path(minigrad.__file__).resolve().parents[1])
    pythonpath = os.pathsep.join(filter(None, [source_root, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"}
    env.update(OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONPATH=pythonpath)
    runs = counted_runs(peers)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            valgrind,
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            f"--dump-before={MARKER}",
            sys.executable,
            __file__,
            "--child",
            *(["--quick"] if quick else []),
            *(["--peers"] if peers else []),
        ]
        finished = subprocess.run(command, env=env, capture_output=True, text=True)
        if finished.returncode != 0:
            raise RuntimeError(f"callgrind's run failed:\n{finished.stderr[-2000:]}")
        totals = [total_instructions(Path(f"{out}.{i + 2}")) for i in range(len(runs))]
    repetitions = QUICK_REPETITIONS if quick else REPETITIONS
    unit = {"W1": W1_OPS, "W2": 1}
    per = {"W1": "per op", "W2": "per step"}
    counts: dict[str, float] = {}
    for (workload, lib), total in zip(runs, totals, strict=True):
        name = f"{workload} instructions {per[workload]}"
        if lib != "minigrad":
            name = f"{workload} {lib}'s instructions {per[workload]}"
        counts[name] = total / (repetitions[workload] * unit[workload])
    for workload, lib in runs:
        if lib != "minigrad":
            ours = counts[f"{workload} instructions {per[workload]}"]
            counts[f"{workload} minigrad/{lib} in instructions"] = (
                ours / counts[f"{workload} {lib}'s instructions {per[workload]}"]
            )
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--peers", action="store_true", help="autograd's W1, mygrad's W2 too")
    args = parser.parse_args()
    if args.child:
        run_child(QUICK_REPETITIONS if args.quick else REPETITIONS, args.peers)
        return
    counts = count(args.quick, args.peers)
    if counts is None:
        print("valgrind is not installed: no instruction counts")
        return
    for name, value in counts.items():
        print(f"{name}: {value:,.2f}" if value < 100 else f"{name}: {value:,.0f}")


if __name__ == "__main__":
    main()
