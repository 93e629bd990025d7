"""``Adagrad``: each step divided by the root of the sum of all squared gradients so far.

>>> import minigrad as mg
>>> from minigrad import optim
>>> w = mg.tensor([1.0], requires_grad=True)
>>> optimizer = optim.Adagrad([w], lr=0.5)
>>> for _ in range(4):
...     w.grad = mg.tensor([2.0])
...     optimizer.step()
>>> w  # steps of 0.5·2/√(4k): 0.5, 0.354, 0.289, 0.25 (sum 1.392)
tensor([-0.3922], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import minigrad as mg

from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad (Duchi, Hazan & Singer, 2011), with PyTorch's options and defaults.

    Each ``step()`` does, for every parameter ``p`` with a gradient ``g``, at step ``t``
    (counting from 1):

    - ``g = −g`` with ``maximize=True``; ``g = g + weight_decay·p``
    - ``clr = lr / (1 + (t − 1)·lr_decay)``
    - ``s = s + g²`` (``s`` starts at ``initial_accumulator_value``)
    - ``p = p − clr · g / (√s + eps)``

    Unlike the running averages of RMSprop and Adam, ``s`` only grows, so every
    parameter's steps shrink as training goes on.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        *,
        maximize: bool = False,
    ) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "maximize": maximize,
        }
        super().__init__(params, defaults)
        # As in PyTorch, every parameter's state exists from the start, gradient or not.
        for group in self.param_groups:
            for param in group["params"]:
                self._state(param, group)

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
            state["sum"] = mg.full_like(param, group["initial_accumulator_value"])
        return state

    def _update(self, param: mg.Tensor, group: dict[str, Any]) -> None:
        state = self._state(param, group)
        state["step"].add_(1)
        t = state["step"].item()
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        decayed_lr = group["lr"] / (1 + (t - 1) * group["lr_decay"])

        sum_of_squares = state["sum"]
        sum_of_squares.add_(grad * grad)
        param.add_(grad / sum_of_squares.sqrt().add(group["eps"]), alpha=-decayed_lr)
