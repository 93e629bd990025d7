"""``minigrad.func`` on its own: what no comparison with PyTorch shows. A transform that
fails leaves nothing behind (no open level, no refused random draws, no parameter swapped
into a module), and fresh leaves never leak a history to the caller."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import _levels, functional_call, grad, jacrev, vjp, vmap
from minigrad.func._pytree import broadcast_prefix, tree_flatten, tree_unflatten


def test_a_failing_function_leaves_no_level_open():
    def broken(x):
        raise ValueError("inside")

    for transform in (grad(broken), jacrev(broken), lambda x: vjp(broken, x)):
        with pytest.raises(ValueError, match="inside"):
            transform(mg.tensor(1.0))
    assert _levels._open_levels == 0
    # and the next transform's results are released as at the top level
    assert grad(lambda x: x * x)(mg.tensor(3.0)).grad_fn is None


def test_a_failing_function_under_vmap_leaves_random_draws_allowed():
    def draws_then_fails(row):
        raise KeyError("inside")

    with pytest.raises(KeyError):
        vmap(draws_then_fails)(mg.ones(2, 2))
    assert mg.rand(2).shape == (2,)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        vmap(lambda row: row + mg.rand(2))(mg.ones(2, 2))
    assert mg.randn(3).shape == (3,)


def test_randomness_same_gives_every_example_the_same_draws():
    mg.manual_seed(3)
    same = vmap(lambda row: row + mg.rand(2), randomness="same")(mg.zeros(3, 2))
    assert np.array_equal(same[0].numpy(), same[2].numpy())
    different = vmap(lambda row: row + mg.rand(2), randomness="different")(mg.zeros(3, 2))
    assert not np.array_equal(different[0].numpy(), different[1].numpy())


def test_functional_call_puts_the_parameters_back_after_an_error():
    layer = mg.nn.Linear(2, 1)
    original = layer.weight
    with pytest.raises(RuntimeError):
        functional_call(layer, {"weight": mg.ones(1, 3)}, (mg.ones(4, 2),))
    assert layer.weight is original
    assert (
        functional_call(layer, {"weight": mg.zeros(1, 2), "bias": mg.ones(1)}, mg.ones(1, 2)).item()
        == 1.0
    )
    assert layer.weight is original


def test_the_callers_tensors_are_never_changed():
    x = mg.tensor([1.0, 2.0])
    grad(lambda a: (a**2).sum())(x)
    assert not x.requires_grad and x.grad is None and x.grad_fn is None
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    grad(lambda a: (a**2).sum())(w)
    assert w.grad is None


def test_pytrees_round_trip_and_print_as_pytorch_does():
    tree = {"a": (1, [2, 3]), "b": None}
    leaves, spec = tree_flatten(tree)
    assert leaves == [1, 2, 3, None]
    assert tree_unflatten(leaves, spec) == tree
    assert repr(tree_flatten((1, 2))[1]) == "TreeSpec(tuple, None, [*,\n  *])"
    assert spec.brief() == "{'a': (*, [*, *]), 'b': *}"
    assert broadcast_prefix({"a": 0, "b": None}, spec) == [0, 0, 0, None]
    assert broadcast_prefix((0,), spec) is None
