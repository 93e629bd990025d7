"""The losses as modules, with PyTorch's constructors: ``nn.MSELoss()(prediction, target)``.

Each holds its options (``reduction``, class ``weight``, ...) and calls the function of the
same name in ``minigrad.nn.functional``. Weights are buffers, as in PyTorch: saved in
``state_dict`` and converted by ``.double()``, but not parameters.

>>> import minigrad as mg
>>> from minigrad import nn
>>> loss_fn = nn.BCEWithLogitsLoss(pos_weight=mg.tensor([2.0]))
>>> loss_fn
BCEWithLogitsLoss()
>>> list(loss_fn.state_dict())
['pos_weight']
>>> loss_fn(mg.tensor([0.0]), mg.tensor([1.0]))
tensor(1.3863)
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .modules import Module

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CrossEntropyLoss",
    "L1Loss",
    "MSELoss",
    "NLLLoss",
]


class _Loss(Module):
    """What every loss module keeps: how to reduce the losses of the elements."""

    def __init__(
        self,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F.legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """The mean (or sum, or per-element) absolute error (see ``F.l1_loss``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """The mean squared error: ``MSELoss()(prediction, target)``.

    ``reduction`` is ``'mean'`` (the default), ``'sum'`` or ``'none'`` (one loss per element).
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """The negative log-likelihood of class indices under log-probabilities, as a
    ``LogSoftmax`` layer gives them (see ``F.nll_loss``)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
        )


class CrossEntropyLoss(_WeightedLoss):
    """The classification loss on logits and class indices (see ``F.cross_entropy``)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """The binary cross-entropy of probabilities, as a ``Sigmoid`` layer gives them (see
    ``F.binary_cross_entropy``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """The binary cross-entropy computed from logits, stable for large scores (see
    ``F.binary_cross_entropy_with_logits``)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(
            input,
            target,
            self.weight,
            pos_weight=self.pos_weight,
            reduction=self.reduction,
        )
