"""The walks over a backward graph, used by the engine, the drawings and course checks:
``post_order`` (and ``nodes``, outputs first), and ``edge_counts``, which a backward pass
without ``inputs`` needs alone.

A graph is reached through ``next_functions`` alone: a node is anything with a
``next_functions`` sequence of ``(node or None, input_nr)`` pairs, so the walks work on
PyTorch-shaped graphs built by other engines too (``widgets.protocol``: a student's own
engine), with a clear error for anything that is not such a node.

>>> import minigrad as mg
>>> a = mg.tensor(1.0, requires_grad=True)
>>> [node.name() for node in nodes([(a * a + 1).grad_fn])]
['AddBackward0', 'MulBackward0', 'minigrad::autograd::AccumulateGrad']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

__all__ = ["post_order", "edge_counts", "nodes"]


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
    roots = list(roots)
    order: list[Any] = []
    edges_in: dict[Hashable, int] = {}
    try:
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
    except (AttributeError, TypeError, ValueError) as error:
        # Only the nodes themselves can fail here: say which one, and what it lacks.
        problem = _not_a_node(roots)
        if problem is None:
            raise
        raise TypeError(problem) from error
    return order, edges_in


def edge_counts(roots: Iterable[Any]) -> dict[Any, int]:
    """Every node reachable from ``roots``, with the number of edges that lead to it: what
    ``post_order`` counts, without putting the nodes in order (a backward pass needs only
    the counts, and this walk is about a third cheaper). A node comes after one of the
    nodes that lead to it: the roots first. ``None`` roots are skipped.

    >>> import minigrad as mg
    >>> x = mg.tensor(3.0, requires_grad=True)
    >>> counts = edge_counts([(x * x + 1).grad_fn])
    >>> [(node.name(), n) for node, n in counts.items()]
    [('AddBackward0', 0), ('MulBackward0', 1), ('minigrad::autograd::AccumulateGrad', 2)]
    """
    roots = list(roots)
    edges_in: dict[Hashable, int] = {}
    try:
        for root in roots:
            if root is None or root in edges_in:
                continue
            edges_in[root] = 0
            to_visit = [root]
            while to_visit:
                for child, _ in to_visit.pop().next_functions:
                    if child is None:
                        continue
                    if child in edges_in:
                        edges_in[child] += 1
                    else:
                        edges_in[child] = 1
                        to_visit.append(child)
    except (AttributeError, TypeError, ValueError) as error:
        problem = _not_a_node(roots)
        if problem is None:
            raise
        raise TypeError(problem) from error
    return edges_in


def _not_a_node(roots: list[Any]) -> str | None:
    """What keeps something reachable from ``roots`` from being a graph node, if anything.

    >>> class Value:
    ...     next_functions = ()
    >>> _not_a_node([Value(), 2.0]).split(":")[0]
    'a float is not a graph node'
    >>> _not_a_node([Value()]) is None
    True
    """
    seen: set[int] = set()
    stack = [root for root in roots if root is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node).__name__
        if not hasattr(node, "next_functions"):
            return (
                f"a {kind} is not a graph node: a node needs next_functions, a sequence of "
                "(input node or None, input number) pairs"
            )
        try:
            hash(node)
        except TypeError:
            return (
                f"a {kind} cannot be a graph node: it is not hashable (a class that defines "
                "__eq__ must define __hash__ too, e.g. __hash__ = object.__hash__)"
            )
        try:
            pairs = list(node.next_functions)
        except TypeError:
            return (
                f"the next_functions of a {kind} must be a sequence of pairs, "
                f"not {node.next_functions!r}"
            )
        for pair in pairs:
            try:
                child, _ = pair
            except (TypeError, ValueError):
                return (
                    f"the next_functions of a {kind} hold {pair!r}: each must be a pair "
                    "(input node or None, input number), e.g. ((a, 0), (b, 0))"
                )
            if child is not None:
                stack.append(child)
    return None


def nodes(roots: Iterable[Any]) -> list[Any]:
    """The distinct nodes reachable from ``roots``, outputs first: each node comes before
    every node it sends a gradient to (the order in which a backward pass can run them)."""
    order, _ = post_order(roots)
    order.reverse()
    return order
