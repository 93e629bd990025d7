"""Differential fuzzing of the losses of minigrad.nn.functional against PyTorch.

Hypothesis draws a loss (binary cross-entropy on probabilities or on logits, L1, MSE,
NLL, cross-entropy), a shape, a reduction, optional weights (class weights, per-element
weights, ``pos_weight`` broadcast along the last dim), an ``ignore_index``, and values,
some of them extreme (probabilities of exactly 0 or 1, logits of ±50). Both libraries get
the same float64 arrays. Compared: the loss, the graph it records (names along
``next_functions``), the first derivatives of input and target (``create_graph=True``) and
the second derivatives of a random combination of them (not at probabilities of exactly 0
or 1, where both libraries' second derivatives are artefacts of their epsilons).

The seed is fixed, as in test_fuzz_vs_torch.py, so CI's verdict depends on the code alone;
FUZZ_EXAMPLES sets the number of examples.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 0)) or (300 if os.environ.get("CI") else 100)
RTOL, ATOL = 1e-7, 1e-9

ELEMENTWISE = ("binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss", "mse_loss")
CLASSES = ("nll_loss", "cross_entropy")


def graph_names(node):
    if node is None:
        return None
    name = node.name().replace("torch::", "minigrad::")
    return name, tuple(graph_names(child) for child, _ in node.next_functions)


def as_numpy(tensor):
    if tensor is None:
        return None
    if isinstance(tensor, torch.Tensor):
        return tensor.detach().numpy(force=True)  # force: second derivatives may be ZeroTensors
    return tensor.detach().numpy()


def assert_close(ours, theirs, what):
    a, b = as_numpy(ours), as_numpy(theirs)
    if a is None or b is None:
        # Not recorded in one library (a derivative known to be constant): must be zero.
        present = a if b is None else b
        assert present is None or not present.any(), what
        return
    np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=what)


def values(draw, shape, low, high, extremes=(), label="values"):
    """An array of ``shape`` in [low, high], with some elements set to the ``extremes``."""
    number = draw(st.integers(0, 2**32 - 1), label=f"{label} seed")
    rng = np.random.default_rng(number)
    array = rng.uniform(low, high, shape)
    if extremes and draw(st.booleans(), label=f"{label} extremes"):
        chosen = rng.random(shape) < 0.3
        array[chosen] = rng.choice(extremes, size=int(chosen.sum()))
    return array


def draw_elementwise(draw):
    name = draw(st.sampled_from(ELEMENTWISE), label="loss")
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=0, max_size=3), label="shape"))
    options = {}
    if name == "binary_cross_entropy":
        # Away from 0 and 1 unless exactly there: the derivative has a pole at each end, and
        # torch's double backward shifts it by 1e-12.
        x = values(draw, shape, 0.02, 0.98, extremes=(0.0, 1.0), label="probabilities")
        if draw(st.booleans(), label="weight"):
            options["weight"] = values(draw, shape[-1:], 0.1, 2.0, label="weight")
    else:
        x = values(draw, shape, -5, 5, extremes=(-50.0, 50.0, 0.0), label="input")
    if name == "binary_cross_entropy_with_logits":
        if draw(st.booleans(), label="weight"):
            options["weight"] = values(draw, shape, 0.1, 2.0, label="weight")
        if draw(st.booleans(), label="pos_weight"):
            options["pos_weight"] = values(draw, shape[-1:], 0.1, 3.0, label="pos_weight")
    extremes = (0.0, 1.0) if name.startswith("binary") else (0.0,)
    t = values(draw, shape, 0, 1, extremes=extremes, label="target")
    if name in ("l1_loss", "mse_loss"):
        # No tie of input and target: |x − t| has a kink there.
        t = np.where(np.abs(x - t) < 1e-3, t + 0.5, t)
    if name == "binary_cross_entropy":
        # At p = 0 or 1 with the matching target the loss is flat; with the other target its
        # gradient is torch's clamped 1/ε: keep the pole only where torch's is exact.
        t = np.where((x == 0) | (x == 1), x, t)
    return name, x, t, options


def draw_classes(draw):
    name = draw(st.sampled_from(CLASSES), label="loss")
    batch = draw(st.integers(0, 5), label="batch (0: one sample without a batch dim)")
    classes = draw(st.integers(2, 5), label="classes")
    shape = (batch, classes) if batch else (classes,)
    x = values(draw, shape, -3, 3, label="scores")
    if name == "nll_loss":
        x = x - np.log(np.exp(x).sum(axis=-1, keepdims=True))
    target = np.array(
        draw(st.lists(st.integers(0, classes - 1), min_size=batch or 1, max_size=batch or 1))
    )
    if not batch:
        target = target[0]
    options = {}
    if draw(st.booleans(), label="weight"):
        options["weight"] = values(draw, (classes,), 0.1, 2.0, label="class weights")
    if draw(st.booleans(), label="ignore_index"):
        options["ignore_index"] = draw(st.integers(0, classes - 1), label="ignored class")
    return name, x, target, options


def call(library, functional, name, x, t, options, reduction, target_grad):
    to = library.tensor
    inputs = [to(x, requires_grad=True), to(t, requires_grad=target_grad)]
    extra = {k: (to(v) if isinstance(v, np.ndarray) else v) for k, v in options.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # broadcasting warnings: not what is fuzzed here
        loss = getattr(functional, name)(*inputs, reduction=reduction, **extra)
    return loss, inputs if target_grad else inputs[:1]


@seed(20261204)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_losses_agree_with_torch(data):
    draw = data.draw
    if draw(st.booleans(), label="class-index loss"):
        name, x, t, options = draw_classes(draw)
        target_grad = False
    else:
        name, x, t, options = draw_elementwise(draw)
        target_grad = draw(st.booleans(), label="target requires grad")
    reduction = draw(st.sampled_from(["mean", "sum", "none"]), label="reduction")
    m_loss, m_inputs = call(mg, F, name, x, t, options, reduction, target_grad)
    t_loss, t_inputs = call(torch, torch.nn.functional, name, x, t, options, reduction, target_grad)

    assert graph_names(m_loss.grad_fn) == graph_names(t_loss.grad_fn)
    assert_close(m_loss, t_loss, "loss")
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1), label="seed of the weights"))
    grad_out = rng.standard_normal(tuple(t_loss.shape))
    m_first = mg.autograd.grad(m_loss, m_inputs, mg.tensor(grad_out), create_graph=True)
    t_first = torch.autograd.grad(t_loss, t_inputs, torch.tensor(grad_out), create_graph=True)
    for i, (a, b) in enumerate(zip(m_first, t_first)):
        assert_close(a, b, f"first derivative {i}")
    if name == "binary_cross_entropy" and ((x == 0) | (x == 1)).any():
        return

    mix = [rng.standard_normal(tuple(b.shape)) for b in t_first]
    m_total = sum((g * mg.tensor(w)).sum() for g, w in zip(m_first, mix))
    t_total = sum((g * torch.tensor(w)).sum() for g, w in zip(t_first, mix))
    none = [None] * len(m_inputs)
    m_second = (
        mg.autograd.grad(m_total, m_inputs, allow_unused=True) if m_total.requires_grad else none
    )
    t_second = (
        torch.autograd.grad(t_total, t_inputs, allow_unused=True) if t_total.requires_grad else none
    )
    for i, (a, b) in enumerate(zip(m_second, t_second)):
        assert_close(a, b, f"second derivative {i}")
