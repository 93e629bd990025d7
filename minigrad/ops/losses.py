"""The loss functions' own nodes: ``mse_loss`` and ``nll_loss`` (``cross_entropy`` is
``nll_loss`` of ``log_softmax``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..function import Context
from .base import Op, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class MseLoss(Op):
    """The squared error ``(input − target)²``, averaged, summed or kept per element."""

    name = "MseLossBackward0"
    formula = "∂(x−y)²/∂x = 2(x−y),  ∂/∂y = −2(x−y)  (÷ n for the mean)"

    @staticmethod
    def forward(
        ctx: Context, input: np.ndarray, target: np.ndarray, reduction: str = "mean"
    ) -> np.ndarray:
        ctx.save_for_backward(input, target)
        ctx.reduction = reduction
        squared = (input - target) ** 2
        if reduction == "mean":
            return np.asarray(squared.mean(), dtype=squared.dtype)
        if reduction == "sum":
            return np.asarray(squared.sum(), dtype=squared.dtype)
        return squared

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        input, target = ctx.saved_tensors
        difference = input - target
        grad_input = 2 * difference * grad
        if ctx.reduction == "mean":
            # The mean is over every element of the broadcast difference.
            grad_input = grad_input / difference.numel()
        needs_input, needs_target = ctx.needs_input_grad
        return (grad_input if needs_input else None), (-grad_input if needs_target else None)


class NllLoss(Op):
    """The negative log-likelihood: minus the log-probability of each sample's class.

    ``target`` (class indices) is an option rather than an input: it gets no gradient and,
    as in PyTorch, no edge in the graph.
    """

    name = "NllLossBackward0"
    formula = "∂(−log pₜ)/∂(log pᵢ) = −1 if i = t else 0  (÷ n for the mean)"

    @staticmethod
    def forward(
        ctx: Context, log_probs: np.ndarray, target: Any = None, reduction: str = "mean"
    ) -> np.ndarray:
        batched = log_probs.ndim == 2
        rows = log_probs if batched else log_probs[None, :]
        classes = np.asarray(target).reshape(-1)
        # A one-hot mask of the chosen classes: the loss is −Σ mask·log p, and so the
        # derivative is −mask.
        mask = np.zeros_like(rows)
        mask[np.arange(len(classes)), classes] = 1
        ctx.mask, ctx.reduction, ctx.batched = mask, reduction, batched
        losses = -(mask * rows).sum(axis=1)
        if reduction == "mean":
            return np.asarray(losses.mean(), dtype=rows.dtype)
        if reduction == "sum":
            return np.asarray(losses.sum(), dtype=rows.dtype)
        return losses if batched else losses[0]

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        mask = constant(ctx.mask)
        if ctx.reduction == "none":
            per_row = grad.reshape(-1, 1)  # one gradient per sample
        elif ctx.reduction == "mean":
            per_row = grad / mask.shape[0]
        else:
            per_row = grad
        grad_input = -mask * per_row
        return grad_input if ctx.batched else grad_input.reshape(-1)
