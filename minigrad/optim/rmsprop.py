"""``RMSprop``: each step divided by a running root-mean-square of the gradient.

>>> import minigrad as mg
>>> from minigrad import optim
>>> w = mg.tensor([1.0, 1.0], requires_grad=True)
>>> optimizer = optim.RMSprop([w], lr=0.01)
>>> w.grad = mg.tensor([0.1, 10.0])
>>> optimizer.step()
>>> w  # √v = 0.1·|g|: the same step for a small and a large gradient
tensor([0.9000, 0.9000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import minigrad as mg

from .optimizer import Optimizer, _lerp_

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop (Hinton's lecture notes, 2012), with PyTorch's options and defaults.

    Each ``step()`` does, for every parameter ``p`` with a gradient ``g``:

    - ``g = −g`` with ``maximize=True``; ``g = g + weight_decay·p``
    - ``v = alpha·v + (1 − alpha)·g²`` (starting at 0)
    - ``centered``: also ``ḡ = alpha·ḡ + (1 − alpha)·g``, and ``v − ḡ²`` (an estimate of
      the gradient's variance) stands for ``v`` below
    - ``d = g / (√v + eps)``
    - with momentum: ``b = momentum·b + d`` (starting at 0) and ``p = p − lr·b``;
      without: ``p = p − lr·d``

    >>> import minigrad as mg
    >>> from minigrad import optim
    >>> w = mg.tensor([1.0], requires_grad=True)
    >>> optimizer = optim.RMSprop([w], lr=0.01, momentum=0.9, centered=True)
    >>> for g in (1.0, 2.0):
    ...     w.grad = mg.tensor([g])
    ...     optimizer.step()
    >>> w
    tensor([0.7187], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        *,
        maximize: bool = False,
    ) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = self._evaluate(closure)
        with mg.no_grad():
            for group in self.param_groups:
                for param in self._parameters_with_grad(group):
                    self._update(param, group)
        return loss

    def _state(self, param: mg.Tensor, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[param]
        if not state:
            state["step"] = mg.tensor(0.0, dtype=mg.float32)
            state["square_avg"] = mg.zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = mg.zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = mg.zeros_like(param)
        return state

    def _update(self, param: mg.Tensor, group: dict[str, Any]) -> None:
        alpha, eps, momentum = group["alpha"], group["eps"], group["momentum"]
        state = self._state(param, group)
        grad = -param.grad if group["maximize"] else param.grad
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])

        v = state["square_avg"]
        v.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
        if group["centered"]:
            mean = _lerp_(state["grad_avg"], grad, 1 - alpha)  # ḡ = α·ḡ + (1 − α)·g
            root = (v - mean * mean).sqrt()
        else:
            root = v.sqrt()
        direction = grad / root.add(eps)

        if momentum > 0:
            buffer = state["momentum_buffer"]
            buffer.mul_(momentum).add_(direction)
            param.add_(buffer, alpha=-group["lr"])
        else:
            param.add_(direction, alpha=-group["lr"])
