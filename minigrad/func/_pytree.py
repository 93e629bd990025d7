"""Nested Python containers of tensors ("pytrees"), flattened to a list of leaves and a
``TreeSpec`` that puts them back, as ``torch.utils._pytree`` does for ``torch.func``.

Tuples (named ones too), lists and dicts are containers; everything else, ``None``
included, is a leaf. The specs print as PyTorch prints them, because PyTorch's error
messages about mismatched structures show them.

>>> leaves, spec = tree_flatten({"a": 1, "b": (2, [3])})
>>> leaves
[1, 2, 3]
>>> tree_unflatten([10, 20, 30], spec)
{'a': 10, 'b': (20, [30])}
>>> spec.brief()
"{'a': *, 'b': (*, [*])}"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TreeSpec:
    """The shape of a pytree without its leaves: the container's type (None for a leaf),
    its dict keys (the ``context``), and one spec per child."""

    kind: type | None = None
    context: Any = None
    children: tuple[TreeSpec, ...] = field(default_factory=tuple)

    @property
    def is_leaf(self) -> bool:
        return self.kind is None

    @property
    def num_leaves(self) -> int:
        return 1 if self.is_leaf else sum(child.num_leaves for child in self.children)

    def __repr__(self) -> str:
        return self._long(indent=0)

    def _long(self, indent: int) -> str:
        """PyTorch's ``TreeSpec(tuple, None, [*,\\n  *])``: every child after the first on
        a line of its own, indented two more spaces per level."""
        if self.is_leaf:
            return "*"
        assert self.kind is not None
        inner = indent + 2
        shown = [child._long(inner) for child in self.children]
        body = shown[0] if shown else ""
        if len(shown) > 1:
            body += "," + ",".join(f"\n{' ' * inner}{child}" for child in shown[1:])
        return f"TreeSpec({self.kind.__name__}, {self.context}, [{body}])"

    def brief(self) -> str:
        """The short form PyTorch prints in ``vjp``'s messages: ``(*, [*])``, ``{'a': *}``."""
        if self.is_leaf:
            return "*"
        shown = [child.brief() for child in self.children]
        if issubclass(self.kind, dict):  # type: ignore[arg-type]
            pairs = ", ".join(f"{key!r}: {child}" for key, child in zip(self.context, shown))
            return "{" + pairs + "}"
        if issubclass(self.kind, list):  # type: ignore[arg-type]
            return "[" + ", ".join(shown) + "]"
        if len(shown) == 1:
            return f"({shown[0]},)"
        return "(" + ", ".join(shown) + ")"


LEAF = TreeSpec()


def _is_container(value: Any) -> bool:
    return isinstance(value, tuple | list | dict)


def tree_flatten(tree: Any) -> tuple[list[Any], TreeSpec]:
    """The leaves of ``tree`` in order (dicts in their keys' order) and its spec."""
    leaves: list[Any] = []
    return leaves, _flatten_into(tree, leaves)


def _flatten_into(tree: Any, leaves: list[Any]) -> TreeSpec:
    if not _is_container(tree):
        leaves.append(tree)
        return LEAF
    if isinstance(tree, dict):
        keys = list(tree)
        children = tuple(_flatten_into(tree[key], leaves) for key in keys)
        return TreeSpec(type(tree), keys, children)
    return TreeSpec(type(tree), None, tuple(_flatten_into(item, leaves) for item in tree))


def tree_unflatten(leaves: list[Any], spec: TreeSpec) -> Any:
    """The pytree of shape ``spec`` holding ``leaves``: ``tree_flatten`` undone."""
    remaining = iter(leaves)
    return _build(spec, remaining)


def _build(spec: TreeSpec, leaves: Any) -> Any:
    if spec.is_leaf:
        return next(leaves)
    children = [_build(child, leaves) for child in spec.children]
    kind = spec.kind
    assert kind is not None
    if issubclass(kind, dict):
        return kind(zip(spec.context, children))
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):  # a namedtuple
        return kind(*children)
    return kind(children)


def broadcast_prefix(prefix: Any, spec: TreeSpec) -> list[Any] | None:
    """One entry of ``prefix`` per leaf of ``spec``: ``prefix`` is a pytree whose leaves stand
    for whole subtrees of the tree ``spec`` describes (``in_dims=(0, None)`` for two
    arguments of any structure). None when ``prefix`` does not fit that structure.

    >>> broadcast_prefix((0, None), tree_flatten(([1, 2], 3))[1])
    [0, 0, None]
    """
    if not _is_container(prefix):
        return [prefix] * spec.num_leaves
    if spec.is_leaf or not isinstance(prefix, spec.kind):  # type: ignore[arg-type]
        return None
    if isinstance(prefix, dict):
        if list(prefix) != list(spec.context) and set(prefix) != set(spec.context):
            return None
        items = [prefix[key] for key in spec.context]
    else:
        items = list(prefix)
    if len(items) != len(spec.children):
        return None
    result: list[Any] = []
    for item, child in zip(items, spec.children, strict=True):
        part = broadcast_prefix(item, child)
        if part is None:
            return None
        result.extend(part)
    return result
