"""Optimizers: ``SGD`` and the ``Optimizer`` base it is built on, as in ``torch.optim``.

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

from .grad_mode import enable_grad, no_grad
from .nn.modules import _typename, _zero_grad
from .tensor import Tensor

__all__ = ["SGD", "Optimizer"]


class Optimizer:
    """Base class of optimizers: holds ``param_groups`` and per-parameter ``state``.

    ``params`` is an iterable of tensors, or of dicts (parameter groups) each with a
    ``"params"`` entry and, optionally, its own settings, such as ``{"params": ..., "lr": 0.01}``.
    Settings a group leaves out come from ``defaults``.
    """

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        # Per-parameter memory, such as SGD's momentum buffer; tensors hash by identity.
        self.state: dict[Tensor, dict[str, Any]] = {}
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_typename(params)}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters, with its own settings, to be optimized too."""
        params = param_group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _typename(param)
                )
            if not param.is_leaf:
                # Updating a computed tensor would not change the leaves it came from.
                raise ValueError("can't optimize a non-leaf Tensor")
        group = {**param_group, "params": params}
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        already = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in already for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient: ``None`` by default, or zeros in place."""
        for group in self.param_groups:
            for param in group["params"]:
                _zero_grad(param, set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum and weight decay.

    Each ``step()`` does, for every parameter ``p`` with a gradient ``g`` (PyTorch's rule):

    - ``g = g + weight_decay·p``
    - with momentum: ``b = g`` at the first step, then ``b = momentum·b + (1 − dampening)·g``;
      and ``g = g + momentum·b`` (nesterov) or ``g = b``
    - ``p = p − lr·g`` (``+`` with ``maximize=True``)

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
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for param in group["params"]:
                    if param.grad is not None:
                        self._update(param, group)
        return loss

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state.setdefault(param, {})
            buffer = state.get("momentum_buffer")
            if buffer is None:
                # The first step starts the running average at the gradient itself.
                buffer = state["momentum_buffer"] = grad.clone().detach()
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        param.add_(grad, alpha=-group["lr"])
