"""How little a numpy-backed autograd could cost per op: W1's chain on two bare minimums.

- ``Value``: micrograd's design (one closure per op, no checks, no dtype rules, no graph
  records, no step-by-step account) with 0-d numpy arrays instead of floats.
- ``TapeTensor``: the least a *PyTorch-shaped* autograd must do: a tensor with a version
  counter, a node per op with ``next_functions`` and a sequence number, the saved input's
  version checked in backward, and an engine that counts each node's pending gradients and
  runs the newest ready node first. Still no dtype promotion, grad mode, hooks, wrapped
  numbers, broadcasting or step records, all of which minigrad has.

Both are timed beside torch in the same run. They are yardsticks for W1, not libraries:
they only know ``* k`` and ``+ k``, which is all W1 needs.

    python bench/numpy_floor.py
"""

from __future__ import annotations

import gc
import heapq
import itertools
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


class VersionCounter:
    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class TapeTensor:
    __slots__ = ("array", "requires_grad", "grad_fn", "version", "grad")

    def __init__(self, array: np.ndarray, requires_grad: bool = False) -> None:
        self.array, self.requires_grad = array, requires_grad
        self.grad_fn: TapeNode | None = None
        self.version, self.grad = VersionCounter(), None

    def __mul__(self, k: float) -> TapeTensor:
        return record(self, np.asarray(self.array * k), MulNode, k)

    def __add__(self, k: float) -> TapeTensor:
        return record(self, np.asarray(self.array + k), AddNode, k)

    def backward(self) -> None:
        run_backward(self)


sequence_numbers = itertools.count()


class TapeNode:
    __slots__ = ("next_functions", "sequence_nr", "saved")

    def __init__(self, next_functions: tuple, saved: tuple) -> None:
        self.next_functions, self.saved = next_functions, saved
        self.sequence_nr = next(sequence_numbers)


class AccumulateNode(TapeNode):
    __slots__ = ("variable",)

    def __call__(self, grad: TapeTensor) -> tuple:
        self.variable.grad = grad
        return ()


class MulNode(TapeNode):
    __slots__ = ()

    def __call__(self, grad: TapeTensor) -> tuple:
        tensor, version, k = self.saved
        if tensor.version.value != version:
            raise RuntimeError("a saved tensor was modified in place")
        return (grad * k,)  # a gradient is a tensor too, made by the same op


class AddNode(TapeNode):
    __slots__ = ()

    def __call__(self, grad: TapeTensor) -> tuple:
        return (grad,)


def record(source: TapeTensor, array: np.ndarray, node_type: type, k: float) -> TapeTensor:
    result = TapeTensor(array)
    if source.requires_grad:
        saved = (source, source.version.value, k) if node_type is MulNode else ()
        result.grad_fn = node_type(((edge(source), 0),), saved)
        result.requires_grad = True
    return result


def edge(tensor: TapeTensor) -> TapeNode:
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    node = AccumulateNode((), ())
    node.variable = tensor
    return node


def run_backward(output: TapeTensor) -> None:
    root = output.grad_fn
    pending: dict[TapeNode, int] = {root: 0}
    stack = [root]
    while stack:  # count the gradients each node waits for
        for child, _ in stack.pop().next_functions:
            if child in pending:
                pending[child] += 1
            else:
                pending[child] = 1
                stack.append(child)
    arrived = {root: [TapeTensor(np.ones_like(output.array))]}
    ready = [(-root.sequence_nr, root)]
    while ready:  # the newest ready node first, as PyTorch's engine
        node = heapq.heappop(ready)[1]
        grads = arrived.pop(node)
        grad = grads[0]
        for more in grads[1:]:
            grad = grad + more
        for (child, _), sent in zip(node.next_functions, node(grad)):
            arrived.setdefault(child, []).append(sent)
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(ready, (-child.sequence_nr, child))
        node.saved = ()  # freed, as after a backward without retain_graph


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
    closures = chain(lambda: Value(np.array(1.0)))
    tape = chain(lambda: TapeTensor(np.array(1.0), requires_grad=True))
    torch_run = chain(lambda: torch.tensor(1.0, dtype=torch.float64, requires_grad=True))
    expected = float(torch_run())
    np.testing.assert_allclose(float(closures()), expected, rtol=1e-12)
    np.testing.assert_allclose(float(tape().array), expected, rtol=1e-12)
    for _ in range(3):  # the three interleaved, round by round
        a, b, c = (median_us_per_op(run) for run in (closures, tape, torch_run))
        print(
            f"closures {a:.2f} µs/op ({a / c:.2f}x torch), "
            f"PyTorch-shaped tape {b:.2f} µs/op ({b / c:.2f}x torch), torch {c:.2f} µs/op"
        )


if __name__ == "__main__":
    main()
