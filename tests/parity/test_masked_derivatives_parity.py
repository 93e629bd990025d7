"""First derivatives that read a mask off their input, with create_graph=True, against
PyTorch: whether the first derivative requires grad (is still in the graph), its printed
values, and its own derivative (zeros where PyTorch gives zeros, not an error).

relu's and nll_loss's derivatives read their input (relu's its result), so in PyTorch the
first derivative stays recorded; clamp's, where's, max's, ... do not, and must not in
minigrad either. The graph's node names may differ (docs/pytorch.md: derivative graphs
are made of ordinary nodes), so the printout compared is that of the detached values.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

WEIGHTS = [[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]]

FIRST_DERIVATIVES = {
    "relu": lambda L, x: x.relu(),
    "relu of nan, inf and 0": lambda L, x: (x / L.tensor([1.0, 0.0, 1.0])).relu(),
    "relu twice": lambda L, x: x.relu().relu() * x,
    "relu squared": lambda L, x: x.relu() ** 2,
    "relu in place": lambda L, x: (x * 1).relu_(),
    "F.relu": lambda L, x: L.nn.functional.relu(x),
    "nn.ReLU": lambda L, x: L.nn.ReLU()(x),
    "nll_loss, mean": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([0, 2])),
    "nll_loss, sum": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 1]), reduction="sum"),
    "nll_loss, none": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([2, 0]), reduction="none"),
    "nll_loss, weighted": lambda L, x: L.nn.functional.nll_loss(
        x, L.tensor([0, 2]), weight=L.tensor([1.0, 2.0, 3.0])
    ),
    "nll_loss, ignored": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([0, 1]), ignore_index=1),
    "nll_loss, one sample": lambda L, x: L.nn.functional.nll_loss(x[0], L.tensor(1)),
    "cross_entropy": lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 2])),
    # PyTorch's derivatives of these do not read their input: not recorded in either.
    "clamp": lambda L, x: x.clamp(-1.5, 2.0),
    "clamp(min)": lambda L, x: x.clamp(min=0.0),
    "clamp with tensor bounds": lambda L, x: x.clamp(x * 0 + 0.7, x * 0 + 2.5),
    "where": lambda L, x: L.where(x > 0, x, x * 2),
    "masked_fill": lambda L, x: x.masked_fill(x > 0, 0.0),
    "max": lambda L, x: x.max(),
    "max(dim)": lambda L, x: x.max(1)[0],
    "amin(dim)": lambda L, x: x.amin(0),
    "sort": lambda L, x: x.sort(1)[0] * L.tensor([1.0, 2.0, 3.0]),
    "gather": lambda L, x: x.gather(1, L.tensor([[0, 0], [2, 1]])),
    "index": lambda L, x: x[0],
}


@pytest.mark.parametrize("name", FIRST_DERIVATIVES)
def test_first_derivative_keeps_or_drops_its_graph_as_torch(run_both, name):
    def scenario(L, F, log):
        x = L.tensor([[1.0, -2.0, 3.0], [0.0, 3.0, -1.0]], requires_grad=True)
        y = FIRST_DERIVATIVES[name](L, x)
        (first,) = L.autograd.grad(y.sum(), x, create_graph=True)
        log.append(("requires_grad", first.requires_grad, first.grad_fn is not None))
        log.append(("printed", str(first.detach())))
        if first.requires_grad:
            weighted = (first * L.tensor(WEIGHTS)).sum()
            (second,) = L.autograd.grad(weighted, x, allow_unused=True)
            log.append(("second", None if second is None else str(second.detach())))

    run_both(scenario)


def test_relu_derivative_of_a_nan_passes_its_gradient_under_create_graph(run_both):
    """The recorded mask is 1 at a nan or inf result, not nan (as ``result * 0`` would be)."""

    def scenario(L, F, log):
        x = L.tensor([float("nan"), float("inf"), -float("inf"), 0.0, 2.0], requires_grad=True)
        (first,) = L.autograd.grad(x.relu().sum(), x, create_graph=True)
        log.append(str(first.detach()))
        log.append(first.requires_grad)
        (second,) = L.autograd.grad((first * first).sum(), x)
        log.append(str(second))

    run_both(scenario)


def test_relu_of_a_number_under_create_graph(run_both):
    def scenario(L, F, log):
        x = L.tensor(-1.5, requires_grad=True)
        (first,) = L.autograd.grad(x.relu(), x, create_graph=True)
        log.append((str(first.detach()), first.requires_grad))
        log.append(str(L.autograd.grad(first, x)[0]))

    run_both(scenario)


def test_masked_fill_gradient_is_zero_not_minus_zero(run_both):
    """The filled places' gradient is 0 even when the incoming gradient is negative."""

    def scenario(L, F, log):
        x = L.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        mask = L.tensor([True, False, True])
        (x.masked_fill(mask, 0.0) * -2).sum().backward()
        log.append(str(x.grad))
        x.grad = None
        (x.masked_fill(mask, L.tensor(5.0)) * -2).sum().backward()
        log.append(str(x.grad))

    run_both(scenario)


NEGATIVE_GRADIENT_OPS = {
    "relu": lambda L, x: x.relu(),
    "clamp(-0.5, 0.5)": lambda L, x: x.clamp(-0.5, 0.5),
    "clamp(min=0.0)": lambda L, x: x.clamp(min=0.0),
    "clamp(max=0.0)": lambda L, x: x.clamp(max=0.0),
    "clamp with tensor bounds": lambda L, x: x.clamp(L.tensor(-0.5), L.tensor(0.5)),
    "max": lambda L, x: x.max(),
    "min": lambda L, x: x.min(),
    "max(0)": lambda L, x: x.max(0)[0],
    "min(0)": lambda L, x: x.min(0)[0],
    "where": lambda L, x: L.where(x > 0, x, L.zeros(3)),
    "where, the other side": lambda L, x: L.where(x > 0, L.zeros(3), x),
    "x ** 0": lambda L, x: x**0,
    "sign": lambda L, x: x.sign(),
    "index put": lambda L, x: _index_put(L, x),
    "nll_loss": lambda L, x: L.nn.functional.nll_loss(x.reshape(1, 3), L.tensor([1])),
}


def _index_put(L, x):
    """A copy of ``x`` with places 0 and 2 overwritten: they get no gradient."""
    y = x * 1
    y[L.tensor([0, 2])] = L.tensor([7.0, 8.0])
    return y


NEGATIVE_GRADIENT_INPUTS = {
    "plain": [1.0, -2.0, 0.0],
    "nan and infinities": [float("nan"), -float("inf"), float("inf")],
    "ties": [2.0, 2.0, -1.0],
}


@pytest.mark.parametrize("inputs", NEGATIVE_GRADIENT_INPUTS)
@pytest.mark.parametrize("name", NEGATIVE_GRADIENT_OPS)
def test_a_negative_gradient_gives_0_not_minus_0(run_both, name, inputs):
    """Where the derivative is 0, the gradient is 0 (selected, as PyTorch does), not the
    -0. that a negative gradient times a 0 mask would print; with create_graph too."""

    def scenario(L, F, log):
        for create_graph in (False, True):
            x = L.tensor(NEGATIVE_GRADIENT_INPUTS[inputs], requires_grad=True)
            (NEGATIVE_GRADIENT_OPS[name](L, x) * -1).sum().backward(create_graph=create_graph)
            log.append(str(x.grad.detach()))

    run_both(scenario)


TANGENT_OPS = {
    "relu": lambda L, x: x.relu(),
    "clamp(-0.5, 0.5)": lambda L, x: x.clamp(-0.5, 0.5),
    "where": lambda L, x: L.where(x > 0, x, L.zeros(3)),
    "sign": lambda L, x: x.sign(),
    "x ** 0": lambda L, x: x**0,
    "masked_fill": lambda L, x: x.masked_fill(x > 0, 0.0),
}


@pytest.mark.parametrize("name", TANGENT_OPS)
def test_a_negative_tangent_gives_0_not_minus_0(run_both, name):
    """Forward mode selects too: where the derivative is 0, a tangent of -1 gives 0."""

    def scenario(L, F, log):
        forward_ad = L.autograd.forward_ad
        with forward_ad.dual_level():
            x = forward_ad.make_dual(L.tensor([1.0, -2.0, 0.0]), L.tensor([-1.0, -1.0, -1.0]))
            log.append(str(forward_ad.unpack_dual(TANGENT_OPS[name](L, x)).tangent))

    run_both(scenario)
