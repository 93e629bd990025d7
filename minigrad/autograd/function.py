"""``minigrad.autograd.function``: ``Function`` and ``once_differentiable``, where PyTorch
keeps them (``torch.autograd.function``).

>>> import minigrad as mg
>>> from minigrad.autograd.function import Function, once_differentiable
>>> class Square(Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x * x
...     @staticmethod
...     @once_differentiable
...     def backward(ctx, grad):
...         (x,) = ctx.saved_tensors
...         return 2 * x * grad
>>> x = mg.tensor(3.0, requires_grad=True)
>>> Square.apply(x).backward()
>>> x.grad
tensor(6.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..function import Function, FunctionContext, FunctionNode
from ..grad_mode import no_grad

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

FunctionCtx = FunctionContext


def once_differentiable(backward: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a ``backward`` that cannot itself be differentiated (it may compute with numpy,
    say): it runs with recording off, so its results have no history, and a derivative
    taken through them fails loudly instead of being silently wrong."""

    @functools.wraps(backward)
    def wrapper(ctx: FunctionNode, *grads: Any) -> Any:
        with no_grad():
            return backward(ctx, *grads)

    return wrapper
