"""``SGD``: stochastic gradient descent, with momentum, Nesterov and weight decay.

The training loop is PyTorch's:

>>> import minigrad as mg
>>> from minigrad import nn, optim
>>> w = nn.Parameter(mg.tensor([1.0]))
>>> optimizer = optim.SGD([w], lr=0.1)
>>> loss = (w**2).sum()
>>> optimizer.zero_grad()
>>> loss.backward()
>>> optimizer.step()
>>> w
Parameter containing:
tensor([0.8000], requires_grad=True)

``step()`` changes each parameter in place under ``no_grad``: the parameters stay the
same leaf tensors, so the model, the optimizer and any drawing of the graph keep them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import minigrad as mg

from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum and weight decay.

    Each ``step()`` does, for every parameter ``p`` with a gradient ``g`` (PyTorch's rule):

    - ``g = −g`` with ``maximize=True`` (climb instead of descend)
    - ``g = g + weight_decay·p``
    - with momentum: ``b = g`` at the first step, then ``b = momentum·b + (1 − dampening)·g``;
      and ``g = g + momentum·b`` (nesterov) or ``g = b``
    - ``p = p − lr·g``

    >>> import minigrad as mg
    >>> from minigrad import optim
    >>> w = mg.tensor([1.0], requires_grad=True)
    >>> optimizer = optim.SGD([w], lr=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     w.grad = mg.tensor([1.0])
    ...     optimizer.step()
    >>> w  # 1 − 0.1·1, then − 0.1·(0.9·1 + 1)
    tensor([0.7100], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._evaluate(closure)
        with mg.no_grad():
            for group in self.param_groups:
                for param in self._parameters_with_grad(group):
                    self._update(param, group)
        return loss

    def _update(self, param: mg.Tensor, group: dict[str, Any]) -> None:
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buffer = state.get("momentum_buffer")
            if buffer is None:
                # The first step starts the running average at the gradient itself.
                buffer = state["momentum_buffer"] = grad.detach().clone()
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        param.add_(grad, alpha=-group["lr"])
