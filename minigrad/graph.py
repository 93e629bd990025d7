"""The one walk over a backward graph, used by the engine, the drawings and course checks.

A graph is reached through ``next_functions`` alone: a node is anything with a
``next_functions`` sequence of ``(node or None, input_nr)`` pairs, so the walk works on
PyTorch-shaped graphs built by other engines too.

>>> import minigrad as mg
>>> a = mg.tensor(1.0, requires_grad=True)
>>> [node.name() for node in nodes([(a * a + 1).grad_fn])]
['AddBackward0', 'MulBackward0', 'minigrad::autograd::AccumulateGrad']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

__all__ = ["post_order", "nodes"]


def post_order(roots: Iterable[Any]) -> tuple[list[Any], dict[Any, int]]:
    """Every node reachable from ``roots``, each listed after all of its ``next_functions``,
    and for each node the number of edges that lead to it (the gradients it waits for in a
    backward pass). ``None`` roots are skipped.

    An explicit stack instead of recursion: a chain of 100 000 ops is an ordinary graph.

    >>> import minigrad as mg
    >>> x = mg.tensor(3.0, requires_grad=True)
    >>> order, edges_in = post_order([(x * x).grad_fn])
    >>> [node.name() for node in order], list(edges_in.values())
    (['minigrad::autograd::AccumulateGrad', 'MulBackward0'], [0, 2])
    """
    order: list[Any] = []
    edges_in: dict[Hashable, int] = {}
    for root in roots:
        if root is None or root in edges_in:
            continue
        edges_in[root] = 0
        stack = [(root, iter(root.next_functions))]
        while stack:
            node, children = stack[-1]
            for child, _ in children:
                if child is None:
                    continue
                if child in edges_in:
                    edges_in[child] += 1
                else:
                    edges_in[child] = 1
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order, edges_in


def nodes(roots: Iterable[Any]) -> list[Any]:
    """The distinct nodes reachable from ``roots``, outputs first: each node comes before
    every node it sends a gradient to (the order in which a backward pass can run them)."""
    order, _ = post_order(roots)
    order.reverse()
    return order
