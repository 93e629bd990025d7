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

from collections.abc import Callable
from typing import Any

from ..function import Node, saved_tensor_hooks_in_force
from ..tensor import Tensor

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu"]


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Inside ``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor an op saves
    for backward is kept as ``pack_hook(tensor)``; ``unpack_hook(packed)`` must give back a
    tensor with the same values when backward needs it. Contexts nest: the innermost wins."""

    def __init__(
        self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]
    ) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        saved_tensor_hooks_in_force().append((self.pack_hook, self.unpack_hook))
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
