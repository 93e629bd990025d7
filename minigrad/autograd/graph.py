"""``minigrad.autograd.graph``: the graph's nodes and the hooks on saved tensors, as in
``torch.autograd.graph``.

A node (``y.grad_fn``) offers ``name()``, ``next_functions``, ``metadata``,
``register_hook`` and ``register_prehook``. ``saved_tensors_hooks`` decides how every tensor
saved for backward inside it is kept:

>>> import minigrad as mg
>>> packed = []
>>> def pack(tensor):
...     packed.append(tuple(tensor.shape))
...     return tensor
>>> x = mg.tensor([1.0, 2.0], requires_grad=True)
>>> with saved_tensors_hooks(pack, lambda tensor: tensor):
...     y = (x * x).sum()
>>> packed  # x saved twice: as self and as other
[(2,), (2,)]
>>> y.backward()
>>> x.grad
tensor([2., 4.])
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from .. import engine
from ..function import Node, keepers_of_saved_values, saved_tensor_hooks_in_force
from ..tensor import RemovableHandle, Tensor

__all__ = [
    "Node",
    "saved_tensors_hooks",
    "save_on_cpu",
    "register_multi_grad_hook",
    "allow_mutation_on_saved_tensors",
]


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Inside ``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor an op saves
    for backward is kept as ``pack_hook(tensor)``; ``unpack_hook(packed)`` must give back a
    tensor with the same values when backward needs it. Contexts nest: the innermost wins.
    As in PyTorch, ``pack_hook`` runs with recording off and gets the saved tensor itself,
    and what ``unpack_hook`` returns takes the saved tensor's place in the graph: backward
    computes with its values, and sends gradients where the saved tensor's went."""

    # Whether a tensor saved under these hooks is still checked for in-place changes before
    # backward uses it: yes, unless the hooks keep the earlier values themselves.
    checks_versions = True

    def __init__(
        self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]
    ) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        hooks = (self.pack_hook, self.unpack_hook, self.checks_versions)
        saved_tensor_hooks_in_force().append(hooks)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        saved_tensor_hooks_in_force().pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Keep saved tensors in CPU memory, as PyTorch's ``save_on_cpu`` does for GPU tensors.
    minigrad's tensors live there already: each is kept as a copy, given back as it was."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack(tensor: Tensor) -> Tensor:
            return tensor.detach().clone()

        def unpack(packed: Tensor) -> Tensor:
            return packed

        super().__init__(pack, unpack)


class _KeptValues:
    """What ``allow_mutation_on_saved_tensors`` keeps of one saved tensor: the tensor, and
    a copy of its values taken just before it was first changed in place."""

    __slots__ = ("tensor", "copy", "__weakref__")

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = tensor
        self.copy: Tensor | None = None


_OUTSIDE_MESSAGE = (
    # PyTorch's message, the missing space included.
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which "
    "the graph was originally recorded."
)


class allow_mutation_on_saved_tensors(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Inside ``with allow_mutation_on_saved_tensors():`` a tensor saved for backward may
    be changed in place: its values are copied just before the first change, and backward
    uses that copy. Run the backward inside the same ``with`` block: outside it the copies
    are gone and backward raises an ``AssertionError``. Contexts do not nest.

    >>> import minigrad as mg
    >>> with allow_mutation_on_saved_tensors():
    ...     a = mg.ones(2, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b**2).sum()  # saves b
    ...     _ = b.mul_(3)  # without the context, backward would refuse: b was saved
    ...     out.backward()
    >>> a.grad  # 2·b with b as it was saved
    tensor([2., 2.])
    """

    checks_versions = False  # the values backward needs are kept here

    def __init__(self) -> None:
        super().__init__(self._keep, self._give_back)
        # The saved tensors, by the version counter of their memory (shared by views).
        self._kept: dict[int, weakref.WeakSet[_KeptValues]] = {}
        self._open = False

    def __enter__(self) -> allow_mutation_on_saved_tensors:
        if keepers_of_saved_values:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        super().__enter__()
        keepers_of_saved_values.append(self)
        self._open = True
        return self

    def __exit__(self, *exc_info: Any) -> None:
        keepers_of_saved_values.remove(self)
        super().__exit__(*exc_info)
        self._open = False
        self._kept.clear()

    def _keep(self, tensor: Tensor) -> _KeptValues:
        # Detached (same memory, same version counter): a saved result must not hold its
        # own node, or the graph would be a reference cycle. Unpacking joins the graph again.
        kept = _KeptValues(tensor.detach())
        self._kept.setdefault(id(tensor._version_counter), weakref.WeakSet()).add(kept)
        return kept

    def _give_back(self, kept: _KeptValues) -> Tensor:
        if not self._open:
            raise AssertionError(_OUTSIDE_MESSAGE)
        return kept.copy if kept.copy is not None else kept.tensor

    def before_write(self, tensor: Tensor) -> None:
        """``tensor`` is about to be changed in place: copy the values of every saved
        tensor that shares its memory, once."""
        for kept in self._kept.get(id(tensor._version_counter), ()):
            if kept.copy is None:
                kept.copy = Tensor(kept.tensor._array.copy())


class _MultiHandle:
    """The handle ``register_multi_grad_hook`` returns: ``remove()`` removes every hook it
    registered."""

    def __init__(self, handles: Sequence[RemovableHandle]) -> None:
        self.handles = tuple(handles)

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(
    tensors: Sequence[Tensor], fn: Callable[[Any], None], *, mode: str = "all"
) -> _MultiHandle:
    """Call ``fn`` once per backward pass that reaches ``tensors``, as PyTorch does.

    With ``mode="all"``, ``fn(grads)`` runs once the gradients of all of ``tensors`` that
    this pass computes are ready: ``grads`` holds one per tensor, ``None`` for those the
    pass does not compute (not in its graph, or not needed for its ``inputs``). With
    ``mode="any"``, ``fn(grad)`` runs with the first of their gradients to be computed.
    ``handle.remove()`` takes the hook away. Built on ``Tensor.register_hook``.

    >>> import minigrad as mg
    >>> a = mg.tensor([1.0, 2.0], requires_grad=True)
    >>> b = mg.tensor([3.0, 4.0], requires_grad=True)
    >>> handle = register_multi_grad_hook((a, b), lambda grads: print(grads))
    >>> (a * b).sum().backward()
    [tensor([3., 4.]), tensor([1., 2.])]
    >>> (a * 2).sum().backward()
    [tensor([2., 2.]), None]
    >>> handle.remove()
    """
    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")
    tensors = tuple(tensors)
    if mode == "any":
        # The passes in which fn has run already.
        called: weakref.WeakSet[engine.BackwardPass] = weakref.WeakSet()

        def first_gradient(grad: Tensor) -> None:
            backward_pass = engine.current_pass()
            if backward_pass not in called:
                called.add(backward_pass)
                fn(grad)

        handles = [t.register_hook(first_gradient) for t in tensors if t.requires_grad]
        return _MultiHandle(handles)

    # Every tensor must have a node (or a leaf's AccumulateGrad) to wait for; checked before
    # any hook is registered, so a refused call leaves none behind. PyTorch's words.
    if not all(t.requires_grad for t in tensors):
        raise AssertionError("Expected gradient function to be set")
    # For each pass under way: the gradients so far, and how many this pass will compute.
    pending: weakref.WeakKeyDictionary[engine.BackwardPass, tuple[list, int]]
    pending = weakref.WeakKeyDictionary()

    def gradient_of(position: int) -> Callable[[Tensor], None]:
        def arrived(grad: Tensor) -> None:
            backward_pass = engine.current_pass()
            if backward_pass not in pending:
                expected = sum(backward_pass.will_run(t) for t in tensors)
                pending[backward_pass] = ([None] * len(tensors), expected)
            grads, expected = pending[backward_pass]
            grads[position] = grad
            if sum(g is not None for g in grads) == expected:
                del pending[backward_pass]
                fn(grads)

        return arrived

    return _MultiHandle([t.register_hook(gradient_of(i)) for i, t in enumerate(tensors)])
