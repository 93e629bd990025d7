"""Learning-rate schedules: ``StepLR`` and ``ExponentialLR`` over the ``LRScheduler`` base.

A scheduler changes ``group["lr"]`` in its optimizer's parameter groups each time its
``step()`` is called, once per epoch, after the optimizer's own ``step()``:

>>> import minigrad as mg
>>> from minigrad import optim
>>> w = mg.tensor([1.0], requires_grad=True)
>>> optimizer = optim.SGD([w], lr=1.0)
>>> scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
>>> for epoch in range(5):
...     w.grad = mg.tensor([1.0])
...     optimizer.step()
...     scheduler.step()
...     print(epoch, scheduler.get_last_lr())
0 [1.0]
1 [0.5]
2 [0.5]
3 [0.25]
4 [0.25]
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable
from functools import wraps
from typing import Any

from .optimizer import Optimizer

__all__ = ["ExponentialLR", "LRScheduler", "StepLR"]

_STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
_EPOCH_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the "
    "new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)


def _noting_calls(optimizer: Optimizer) -> Callable[..., Any]:
    """``optimizer.step``, made to set ``optimizer._opt_called`` when it runs: the scheduler
    warns if its own step comes first. The wrapper refers to the optimizer weakly, so
    storing it on the optimizer makes no reference cycle."""
    unbound_step = type(optimizer).step
    optimizer_ref = weakref.ref(optimizer)

    @wraps(unbound_step)
    def step(*args: Any, **kwargs: Any) -> Any:
        owner = optimizer_ref()
        owner._opt_called = True
        return unbound_step(owner, *args, **kwargs)

    step._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    return step


class LRScheduler:
    """Base class of schedulers: subclasses say in ``get_lr()`` what the next rates are.

    Making a scheduler records each group's starting rate as ``group["initial_lr"]`` (kept
    in ``base_lrs``) and counts ``last_epoch`` from 0: the constructor takes the first step.
    ``last_epoch=k`` resumes a schedule, and then each group must already have its
    ``initial_lr`` (from the optimizer's ``load_state_dict``).
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for index, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{index}] when "
                        "resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not "
                        "recommended)"
                    )
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        if not hasattr(optimizer.step, "_wrapped_by_lr_sched"):
            optimizer.step = _noting_calls(optimizer)  # type: ignore[method-assign]
        self._get_lr_called_within_step = False
        self._is_initial = True
        self._step_count = 0
        self.step()  # epoch 0: the rates the schedule starts from
        self._is_initial = False

    def get_lr(self) -> list[float]:
        """The rates for epoch ``last_epoch``, one per group (each scheduler writes its own)."""
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The rates the last ``step()`` set, one per parameter group."""
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch and set each group's ``lr`` for it.

        Call it after ``optimizer.step()``; calling it first skips the schedule's first
        rate, and a warning says so. ``epoch`` (deprecated in PyTorch) jumps to that
        epoch, using the schedule's closed form.
        """
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(_STEP_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_WARNING, UserWarning, stacklevel=2)
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                rates = self.get_lr()
            else:
                self.last_epoch = epoch
                rates = self._closed_form_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, rates):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _closed_form_lr(self) -> list[float]:
        return self.get_lr()

    def _current_lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]

    def _warn_if_called_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                UserWarning,
                stacklevel=3,
            )

    def state_dict(self) -> dict[str, Any]:
        """Everything the scheduler keeps, except the optimizer (saved on its own)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take back what ``state_dict()`` gave."""
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """Multiply each group's rate by ``gamma`` every ``step_size`` epochs.

    At epoch ``e``: ``lr = initial_lr · gamma^⌊e / step_size⌋`` (when nothing else changes
    the rates: the scheduler multiplies the current rate, as PyTorch's does).
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _closed_form_lr(self) -> list[float]:
        return [lr * self.gamma ** (self.last_epoch // self.step_size) for lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply each group's rate by ``gamma`` every epoch: ``lr = initial_lr · gammaᵉ``.

    >>> import minigrad as mg
    >>> from minigrad import optim
    >>> optimizer = optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.1)
    >>> scheduler = optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
    >>> optimizer.step(); scheduler.step(); scheduler.get_last_lr()
    [0.05]
    >>> optimizer.param_groups[0]["initial_lr"], scheduler.last_epoch
    (0.1, 1)
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _closed_form_lr(self) -> list[float]:
        return [lr * self.gamma**self.last_epoch for lr in self.base_lrs]
