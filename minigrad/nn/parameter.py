"""``Parameter``: a tensor that a ``Module`` registers as one of its learnable weights."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad and that a ``Module`` lists in ``parameters()``.

    Assigning a ``Parameter`` to an attribute of a module is what registers it; a plain
    tensor assigned the same way is just an attribute. It shares memory with ``data``.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> w = nn.Parameter(mg.tensor([1.0, 2.0]))
    >>> w
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    >>> w.is_leaf, (w * 2).grad_fn is not None
    (True, True)
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = Tensor(np.empty(0, dtype=np.float32))
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}"
            )
        if requires_grad and not data.is_floating_point():
            # PyTorch words this check differently from requires_grad_()'s.
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        # A new leaf over the same memory: whatever history `data` had is cut off here.
        super().__init__(data._array, requires_grad=requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()
