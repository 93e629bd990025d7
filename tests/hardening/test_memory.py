"""Memory: a finished backward pass lets go of what it no longer needs.

The garbage collector is switched off where it matters: what is released must be released by
reference counting alone, which proves that the graph left no reference cycles behind.
"""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
import tracemalloc
import warnings
import weakref

import pytest

import minigrad as mg
from minigrad import nn, optim


def test_backward_releases_saved_values_and_intermediates(gc_disabled):
    x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
    a = x * 2  # an intermediate: MulBackward0 below saves it
    b = a * a
    loss = b.sum()
    a_alive, a_values = weakref.ref(a), weakref.ref(a._array)
    b_node = weakref.ref(b.grad_fn)
    del a, b
    assert a_alive() is not None, "the graph keeps what backward will need"
    loss.backward()
    assert a_alive() is None and a_values() is None, "saved values are released by backward"
    assert b_node() is not None  # loss still holds its graph (without saved values)
    del loss
    assert b_node() is None, "nodes nobody references are freed without the collector"
    assert x.grad.tolist() == [4.0, 12.0]


def test_training_the_lesson_mlp_does_not_leak():
    mg.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)
    )
    optimizer = optim.SGD(model.parameters(), lr=0.05)
    inputs, targets = mg.randn(32, 2), mg.randn(32, 1)
    loss_fn = nn.MSELoss()

    def train(steps: int) -> float:
        for _ in range(steps):
            optimizer.zero_grad()
            loss = loss_fn(model(inputs), targets)
            loss.backward()
            optimizer.step()
        return loss.item()

    first = train(50)  # warm-up: caches, the optimizer's state, numpy's pools
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        last = train(1000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1024 * 1024, f"1 000 steps grew traced memory by {grown} bytes"
    assert last < first  # it did train


def _torch_create_graph_warnings() -> list[str]:
    script = (
        "import warnings, torch\n"
        "w = torch.tensor(2.0, requires_grad=True)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    (w**3).backward(create_graph=True)\n"
        "print(repr([str(c.message) for c in caught if c.category is UserWarning]))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return ast.literal_eval(run.stdout.strip().splitlines()[-1])


def test_create_graph_cycle_warns_as_torch_and_is_released(gc_disabled):
    pytest.importorskip("torch")
    w = mg.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (w**3).backward(create_graph=True)
    (ours,) = [str(c.message) for c in caught if c.category is UserWarning]
    # PyTorch warns once per process: asked in a fresh one, whatever ran before in this one.
    (theirs,) = _torch_create_graph_warnings()
    # PyTorch adds where in its C++ sources the warning was raised: "(Triggered internally ...)"
    assert theirs.startswith(ours) and ours.startswith("Using backward() with create_graph=True")
    assert theirs[len(ours) :].strip().startswith("(Triggered internally")

    w = mg.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        (w**3).backward(create_graph=True)
    assert w.grad.item() == 12.0 and w.grad.grad_fn is not None
    # w -> w.grad -> its graph -> AccumulateGrad(w) -> w: a cycle while .grad is set.
    derivative_graph = weakref.ref(w.grad.grad_fn)
    gc.collect()  # nothing else is garbage: the cycle survives a collection
    assert derivative_graph() is not None
    w.grad = None
    assert derivative_graph() is None, "resetting .grad breaks the cycle"
