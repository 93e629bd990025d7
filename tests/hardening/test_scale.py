"""Deep and wide graphs: backward walks them without recursion.

No timing here: the benchmark reports the slope. These only prove that 100 000 nodes in a
chain, or 100 000 leaves into one node, work and give the right gradient.
"""

from __future__ import annotations

import sys

import minigrad as mg

SIZE = 100_000


def test_a_chain_of_100_000_ops():
    assert SIZE > 10 * sys.getrecursionlimit()  # recursion could not walk this graph
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(SIZE // 2):
        y = y * 1.0 + 0.5  # two nodes per round
    y.backward()
    assert y.item() == 1.0 + 0.5 * (SIZE // 2)
    assert x.grad.item() == 1.0
    del y  # freeing the chain must not recurse either


def test_a_chain_of_100_000_ops_through_autograd_grad_with_create_graph():
    x = mg.tensor(0.5, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(SIZE):
        y = y + x
    (g,) = mg.autograd.grad(y, x, create_graph=True)
    assert g.item() == SIZE + 1


def test_a_fan_in_of_100_000_leaves():
    leaves = [mg.tensor(float(i), dtype=mg.float64, requires_grad=True) for i in range(SIZE)]
    total = mg.stack(leaves).sum()
    assert len(total.grad_fn.next_functions[0][0].next_functions) == SIZE
    total.backward()
    assert total.item() == SIZE * (SIZE - 1) / 2
    assert all(leaf.grad.item() == 1.0 for leaf in leaves)


def test_a_sum_of_100_000_leaves_one_add_at_a_time():
    leaves = [mg.tensor(1.0, requires_grad=True) for _ in range(SIZE)]
    total = leaves[0]
    for leaf in leaves[1:]:
        total = total + leaf
    total.backward()
    assert total.item() == SIZE
    assert leaves[0].grad.item() == 1.0 and leaves[-1].grad.item() == 1.0
