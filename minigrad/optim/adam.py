"""``Adam`` and ``AdamW``: a step per parameter scaled by running averages of its gradient.

Both keep, per parameter, the average of the gradient ``m`` and of its square ``v``;
they differ only in how weight decay enters (added to the gradient in ``Adam``, taken off
the parameter directly in ``AdamW``, "decoupled").

>>> import minigrad as mg
>>> from minigrad import optim
>>> w = mg.tensor([1.0, -1.0], requires_grad=True)
>>> optimizer = optim.Adam([w], lr=0.1)
>>> w.grad = mg.tensor([0.5, -2.0])
>>> optimizer.step()
>>> w  # the first step moves each entry by lr, whatever its gradient's size
tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import minigrad as mg

from .optimizer import Optimizer, _lerp_

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014), with PyTorch's options and defaults.

    Each ``step()`` does, for every parameter ``p`` with a gradient ``g``, at step ``t``
    (counting from 1):

    - ``g = −g`` with ``maximize=True``
    - weight decay: ``g = g + weight_decay·p`` or, decoupled (AdamW),
      ``p = p·(1 − lr·weight_decay)``
    - ``m = β1·m + (1 − β1)·g`` and ``v = β2·v + (1 − β2)·g²`` (both start at 0)
    - with ``amsgrad``: ``v_max = max(v_max, v)``, used in place of ``v`` below
    - ``p = p − lr/(1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + eps)``

    The two ``1 − βᵗ`` factors undo the pull towards 0 that starting the averages at 0
    gives the first steps.

    >>> import minigrad as mg
    >>> from minigrad import optim
    >>> w = mg.tensor([1.0], requires_grad=True)
    >>> optimizer = optim.Adam([w], lr=0.1, betas=(0.9, 0.99))
    >>> for g in (1.0, 1.0, -3.0):
    ...     w.grad = mg.tensor([g])
    ...     optimizer.step()
    >>> w
    tensor([0.8248], requires_grad=True)
    >>> optimizer.state[w]["step"], optimizer.state[w]["exp_avg"]
    (tensor(3.), tensor([-0.1290]))
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "betas": tuple(betas),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "decoupled_weight_decay": decoupled_weight_decay,
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

    def _state(self, param: mg.Tensor, amsgrad: bool) -> dict[str, Any]:
        state = self.state[param]
        if not state:
            # The step counter is a float32 tensor, as PyTorch saves it.
            state["step"] = mg.tensor(0.0, dtype=mg.float32)
            state["exp_avg"] = mg.zeros_like(param)
            state["exp_avg_sq"] = mg.zeros_like(param)
            if amsgrad:
                state["max_exp_avg_sq"] = mg.zeros_like(param)
        return state

    def _update(self, param: mg.Tensor, group: dict[str, Any]) -> None:
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        weight_decay = group["weight_decay"]
        state = self._state(param, group["amsgrad"])
        grad = -param.grad if group["maximize"] else param.grad
        state["step"].add_(1)
        t = state["step"].item()

        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        m, v = state["exp_avg"], state["exp_avg_sq"]
        _lerp_(m, grad, 1 - beta1)  # m = β1·m + (1 − β1)·g
        v.mul_(beta2).add_(grad * grad, alpha=1 - beta2)  # v = β2·v + (1 − β2)·g²
        if group["amsgrad"]:
            v_max = state["max_exp_avg_sq"]
            v = v_max.copy_(mg.where(v_max > v, v_max, v))  # v_max = max(v_max, v)

        # p = p − lr/(1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + eps)
        step_size = lr / (1 - beta1**t)
        denominator = (v.sqrt() / (1 - beta2**t) ** 0.5).add_(eps)
        param.add_(m / denominator, alpha=-step_size)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019): PyTorch's ``AdamW``.

    The same rule as :class:`Adam` with ``decoupled_weight_decay=True``: each step first
    shrinks the parameter, ``p = p·(1 − lr·weight_decay)``, instead of adding
    ``weight_decay·p`` to the gradient, so the decay is not rescaled by ``√v``.
    ``weight_decay`` defaults to ``1e-2`` (Adam's to 0).

    >>> import minigrad as mg
    >>> from minigrad import optim
    >>> w = mg.tensor([1.0], requires_grad=True)
    >>> optimizer = optim.AdamW([w], lr=0.1, weight_decay=0.5)
    >>> w.grad = mg.tensor([0.0])
    >>> optimizer.step()
    >>> w  # 1·(1 − 0.1·0.5): a zero gradient still decays the weight
    tensor([0.9500], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            maximize=maximize,
            decoupled_weight_decay=True,
        )
