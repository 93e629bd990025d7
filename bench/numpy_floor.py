"""How little a numpy-backed autograd could cost per op: W1's chain on the bare minimum.

micrograd's design (one closure per op, no checks, no dtype rules, no graph records, no
step-by-step account) with 0-d numpy arrays instead of floats, timed beside torch in the
same run. It is a yardstick for W1, not a library: it only knows ``* k`` and ``+ k`` on a
chain, which is all W1 needs.

    python bench/numpy_floor.py
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable

os.environ.setdefault("OMP_NUM_THREADS", "1")  # as bench/run.py: one thread per library

import numpy as np  # noqa: E402


class Value:
    __slots__ = ("data", "grad", "backward_step", "parent")

    def __init__(self, data: np.ndarray, parent: Value | None = None) -> None:
        self.data, self.grad, self.parent = data, None, parent
        self.backward_step: Callable[[], None] | None = None

    def __mul__(self, k: float) -> Value:
        out = Value(np.asarray(self.data * k), self)

        def backward_step() -> None:
            self.grad = np.asarray(out.grad * k)

        out.backward_step = backward_step
        return out

    def __add__(self, k: float) -> Value:
        out = Value(np.asarray(self.data + k), self)

        def backward_step() -> None:
            self.grad = out.grad

        out.backward_step = backward_step
        return out

    def backward(self) -> None:
        self.grad = np.ones_like(self.data)
        node: Value | None = self
        while node is not None and node.backward_step is not None:  # a chain: one parent
            node.backward_step()
            node = node.parent


def chain(make: Callable[[], object], n: int = 1000) -> Callable[[], object]:
    def run() -> object:
        x = make()
        y = x
        for i in range(n):
            y = y * 1.001 if i % 2 == 0 else y + 0.001
        y.backward()
        return x.grad

    return run


def median_us_per_op(run: Callable[[], object], rounds: int = 31, n: int = 1000) -> float:
    samples = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            run()
            samples.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return sorted(samples)[len(samples) // 2] / n * 1e6


def main() -> None:
    import torch

    torch.set_num_threads(1)
    floor = chain(lambda: Value(np.array(1.0)))
    torch_run = chain(lambda: torch.tensor(1.0, dtype=torch.float64, requires_grad=True))
    np.testing.assert_allclose(float(floor()), float(torch_run()), rtol=1e-12)
    for _ in range(3):
        a, b = median_us_per_op(floor), median_us_per_op(torch_run)
        print(f"numpy floor {a:.2f} µs/op, torch {b:.2f} µs/op, floor / torch {a / b:.2f}")


if __name__ == "__main__":
    main()
