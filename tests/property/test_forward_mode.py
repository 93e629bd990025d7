"""Forward mode against reverse mode on random graphs.

The graphs are those of ``test_gradients.py`` (random ops on broadcasting shapes, values
reused on several paths), but the function keeps its last value whole instead of summing
it, so that its Jacobian is a real matrix. For random tangents ``v``, one forward-mode pass
must give ``J v``, where ``J`` is built row by row by reverse mode
(``autograd.functional.jacobian``); and forward over reverse must give the Hessian of the
sum times ``v``.
"""

import importlib.util
import pathlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.autograd.forward_ad as fwAD
from minigrad.autograd.functional import hessian, jacobian

_spec = importlib.util.spec_from_file_location(
    "_random_graphs", pathlib.Path(__file__).with_name("test_gradients.py")
)
random_graphs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(random_graphs)


def last_value(steps, inputs):
    """The graph's last value, whole (with a small part of every earlier one, broadcast),
    so that each input is on a path to the output."""
    values = list(inputs)
    for name, *operands in steps:
        args = [values[i] for i in operands]
        op = random_graphs.UNARY[name] if len(args) == 1 else random_graphs.BINARY[name]
        try:
            values.append(op(*args))
        except RuntimeError:  # shapes that do not broadcast: skip this step
            values.append(args[0])
    total = values[-1]
    for value in values[:-1]:
        total = total + 0.1 * value.sum()
    return total


def tangents_for(arrays, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(a.shape) for a in arrays]


def forward_jvp(steps, arrays, directions):
    with fwAD.dual_level():
        duals = [
            fwAD.make_dual(mg.tensor(a, dtype=mg.float64), mg.tensor(v, dtype=mg.float64))
            for a, v in zip(arrays, directions)
        ]
        out = last_value(steps, duals)
        primal, tangent = fwAD.unpack_dual(out)
        return primal.numpy(), tangent.numpy()


@settings(max_examples=60, deadline=None)
@given(random_graphs.graphs(), st.integers(0, 2**32 - 1))
def test_forward_mode_is_the_jacobian_times_v(graph, seed):
    arrays, steps = graph
    directions = tangents_for(arrays, seed)
    primal, tangent = forward_jvp(steps, arrays, directions)

    inputs = tuple(mg.tensor(a, dtype=mg.float64) for a in arrays)
    blocks = jacobian(lambda *xs: last_value(steps, xs), inputs)  # reverse mode, per row
    expected = sum(
        np.tensordot(block.numpy(), v, axes=v.ndim) for block, v in zip(blocks, directions)
    )
    np.testing.assert_allclose(primal, last_value(steps, inputs).numpy(), rtol=1e-12)
    np.testing.assert_allclose(tangent, expected, rtol=1e-9, atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(random_graphs.graphs(max_ops=4), st.integers(0, 2**32 - 1))
def test_forward_over_reverse_is_the_hessian_times_v(graph, seed):
    arrays, steps = graph
    directions = tangents_for(arrays, seed)
    with fwAD.dual_level():
        leaves = [mg.tensor(a, dtype=mg.float64, requires_grad=True) for a in arrays]
        duals = [
            fwAD.make_dual(leaf, mg.tensor(v, dtype=mg.float64))
            for leaf, v in zip(leaves, directions)
        ]
        gradients = mg.autograd.grad(
            last_value(steps, duals).sum(), duals, create_graph=True, allow_unused=True
        )
        products = [None if g is None else fwAD.unpack_dual(g).tangent for g in gradients]

    inputs = tuple(mg.tensor(a, dtype=mg.float64) for a in arrays)
    rows = hessian(lambda *xs: last_value(steps, xs).sum(), inputs)  # reverse over reverse
    for i, product in enumerate(products):
        expected = sum(
            np.tensordot(rows[i][j].numpy(), v, axes=v.ndim) for j, v in enumerate(directions)
        )
        found = np.zeros_like(arrays[i]) if product is None else product.detach().numpy()
        np.testing.assert_allclose(found, expected, rtol=1e-8, atol=1e-10)
