"""The loss functions' own nodes: ``mse_loss``, ``nll_loss``, ``binary_cross_entropy`` and
``binary_cross_entropy_with_logits`` (``cross_entropy`` is ``nll_loss`` of ``log_softmax``;
``l1_loss`` is made of ordinary ops, as in PyTorch)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..alike import kept_where
from ..function import Context
from ..tangents import combine, scaled
from .base import Op, as_float, constant, recorded_constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class MseLoss(Op):
    """The squared error ``(input − target)²``, averaged, summed or kept per element."""

    name = "MseLossBackward0"
    formula = "∂(x−y)²/∂x = 2(x−y),  ∂/∂y = −2(x−y)  (÷ n for the mean)"
    jvp_formula = "2(x − y)·(ẋ − ẏ), reduced"

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

    @staticmethod
    def jvp(ctx: Context, input_t: Tensor | None, target_t: Tensor | None) -> Tensor:
        input, target = ctx.primals
        per_element = 2 * (input - target) * combine(input_t, scaled(target_t, lambda t: -t))
        return _reduced(per_element, ctx.reduction)


class NllLoss(Op):
    """The negative log-likelihood: minus the log-probability of each sample's class, times
    the class's weight (1 by default; 0 for a target equal to ``ignore_index``).

    ``target`` (class indices) and ``weight`` are options rather than inputs: they get no
    gradient and, as in PyTorch, no edge in the graph. Saved as PyTorch saves them: the
    input, the targets, the weights if given, and the total weight of the targets counted.
    """

    name = "NllLossBackward0"
    formula = "∂(−wₜ log pₜ)/∂(log pᵢ) = −wₜ if i = t else 0  (÷ Σ wₜ for the mean)"
    jvp_formula = "−wₜ·(log ṗ)ₜ, reduced"
    saved_as = ("self", "target", "weight", "total_weight")
    options_as = {
        "reduction": lambda node: ("none", "mean", "sum").index(node.reduction),
        # PyTorch shows the index as an unsigned 64-bit number: -100 is 2⁶⁴ − 100.
        "ignore_index": lambda node: node.ignore_index % 2**64,
    }

    @staticmethod
    def forward(
        ctx: Context,
        log_probs: np.ndarray,
        target: Any = None,
        weight: np.ndarray | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
    ) -> np.ndarray:
        rows = log_probs if log_probs.ndim == 2 else log_probs[None, :]
        # A mask holding each sample's weight at its class: the loss is −Σ mask·log p, and
        # so the derivative is −mask.
        mask = _weight_at_each_target(rows.shape, rows.dtype, target, weight, ignore_index)
        # As in PyTorch, 0 when the losses are not reduced (the total is not needed then).
        total_weight = np.asarray(0 if reduction == "none" else mask.sum(), dtype=rows.dtype)
        ctx.save_for_backward(log_probs, target, weight, total_weight)
        ctx.target, ctx.weight = target, weight
        ctx.reduction, ctx.ignore_index = reduction, ignore_index
        losses = -(mask * rows).sum(axis=1)
        if reduction == "mean":
            # The weighted mean; 0/0 (every target ignored) is nan, as in PyTorch.
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.asarray(losses.sum() / total_weight, dtype=rows.dtype)
        if reduction == "sum":
            return np.asarray(losses.sum(), dtype=rows.dtype)
        return losses if log_probs.ndim == 2 else losses[0]

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        log_probs, target, weight, total_weight = ctx.saved_tensors
        batched = log_probs.ndim == 2
        shape = log_probs.shape if batched else (1, log_probs.shape[0])
        weights = None if weight is None else weight._array
        dtype = log_probs._array.dtype
        mask = _weight_at_each_target(shape, dtype, target._array, weights, ctx.ignore_index)
        # Negated here, "+ 0.0" turning numpy's -0.0 into 0.0, so that the gradient has
        # PyTorch's zeros, not -0.0. Recorded from the log-probabilities, as PyTorch's
        # derivative is (it reads them): with create_graph it requires grad.
        minus_mask = recorded_constant(-mask + 0.0, log_probs)
        if ctx.reduction == "none":
            per_row = grad.reshape(-1, 1)  # one gradient per sample
        elif ctx.reduction == "mean":
            # Every target ignored: the loss is nan, but no element moves it: gradient 0.
            total = float(total_weight._array)
            per_row = grad / (total if total != 0 else 1.0)
        else:
            per_row = grad
        # Selected at the targets: a negative gradient times the 0s elsewhere would be -0.
        grad_input = kept_where(mask != 0, minus_mask * per_row)
        return grad_input if batched else grad_input.reshape(-1)

    @staticmethod
    def jvp(ctx: Context, log_probs_t: Tensor) -> Tensor:
        batched = log_probs_t.ndim == 2
        rows = log_probs_t if batched else log_probs_t.unsqueeze(0)
        mask = _weight_at_each_target(
            rows.shape, rows._array.dtype, ctx.target, ctx.weight, ctx.ignore_index
        )
        losses = -(constant(mask) * rows).sum(1)
        if ctx.reduction == "mean":
            return losses.sum() / constant(np.asarray(mask.sum(), dtype=mask.dtype))
        if ctx.reduction == "sum":
            return losses.sum()
        return losses if batched else losses.squeeze(0)


def _weight_at_each_target(
    shape: tuple[int, ...],
    dtype: np.dtype,
    target: np.ndarray,
    weight: np.ndarray | None,
    ignore_index: int,
) -> np.ndarray:
    """Zeros of ``shape`` (samples × classes) holding each sample's class weight at its
    target class (1 without weights; 0 for a sample whose target is ``ignore_index``)."""
    classes = np.asarray(target).reshape(-1)
    counted = classes != ignore_index
    picked = np.where(counted, classes, 0)
    weights = np.ones(len(classes)) if weight is None else weight[picked]
    mask = np.zeros(shape, dtype=dtype)
    mask[np.arange(len(classes)), picked] = np.where(counted, weights, 0)
    return mask


def _reduce(losses: np.ndarray, reduction: str) -> np.ndarray:
    """A loss per element, averaged, summed or kept as it is."""
    if reduction == "mean":
        return np.asarray(losses.mean(), dtype=losses.dtype)
    if reduction == "sum":
        return np.asarray(losses.sum(), dtype=losses.dtype)
    return losses


def _spread(grad: Tensor, reduction: str, count: int) -> Tensor:
    """The gradient of each element's loss, from the gradient of the reduced loss."""
    return grad / count if reduction == "mean" else grad


def _reduced(losses: Tensor, reduction: str) -> Tensor:
    """A tangent per element, reduced as the losses were."""
    if reduction == "mean":
        return losses.mean()
    if reduction == "sum":
        return losses.sum()
    return losses


_EPSILON = float(np.float32(1e-12))


class LogSigmoid(Op):
    """``log σ(x) = −log(1 + e^(−x))``, the log-probability of a logistic loss, computed
    without overflow or underflow for any ``x``."""

    formula = "∂log σ(x)/∂x = 1 − σ(x) = σ(−x)"
    jvp_formula = "ẋ·σ(−x)"
    saved_as = ("self", "buffer")

    @staticmethod
    def forward(ctx: Context, x: np.ndarray) -> np.ndarray:
        x = as_float(x)
        # min(x, 0) − log(1 + e^(−|x|)): e is raised to a non-positive power only.
        buffer = np.exp(-np.abs(x))
        # PyTorch's kernel keeps e^(−|x|) for its backward; kept here too, so that saved-
        # tensor hooks see what they see in PyTorch. The backward below is written with
        # sigmoid instead, so that it can be differentiated again.
        ctx.save_for_backward(x, buffer)
        return (np.minimum(x, 0) - np.log1p(buffer)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        x, _ = ctx.saved_tensors
        return grad * (-x).sigmoid()

    @staticmethod
    def jvp(ctx: Context, x_t: Tensor) -> Tensor:
        return x_t * (-ctx.primals[0]).sigmoid()


class BinaryCrossEntropy(Op):
    """The binary cross-entropy of probabilities ``input`` against targets in [0, 1]:
    ``−w·(t·log x + (1 − t)·log(1 − x))``, each log clamped at −100 as in PyTorch, so that
    a confident wrong answer costs 100 rather than infinity.

    ``weight`` (already expanded to the input's shape) is an option: as in PyTorch it is not
    an input of the node and gets no gradient.
    """

    name = "BinaryCrossEntropyBackward0"
    saved_as = ("self", "target", "weight")
    options_as = {"reduction": lambda node: ("none", "mean", "sum").index(node.reduction)}
    formula = "∂/∂x = w·(x − t)/(x(1 − x)),  ∂/∂t = w·(log(1 − x) − log x)  (÷ n for the mean)"
    jvp_formula = "w·(x − t)·ẋ/(x(1 − x)) + w·(log(1 − x) − log x)·ṫ, reduced"

    @staticmethod
    def forward(
        ctx: Context,
        input: np.ndarray,
        target: np.ndarray,
        weight: np.ndarray | None = None,
        reduction: str = "mean",
    ) -> np.ndarray:
        ctx.save_for_backward(input, target, weight)
        ctx.reduction, ctx.weight = reduction, weight
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(input), -100)
            log_1_minus_x = np.maximum(np.log1p(-input), -100)
        losses = -(target * log_x + (1 - target) * log_1_minus_x)
        if weight is not None:
            losses = losses * weight
        return _reduce(losses.astype(input.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        input, target, weight = ctx.saved_tensors
        grad = _spread(grad, ctx.reduction, input.numel())
        if weight is not None:
            grad = grad * weight
        needs_input, needs_target = ctx.needs_input_grad
        grad_input = grad_target = None
        if needs_input:
            # PyTorch keeps the denominator away from 0 with an epsilon of 1e-12 stored as
            # a float32 (9.99999996e-13): the same one, so x = 0 or 1 gives its gradient.
            grad_input = grad * (input - target) / (input * (1 - input)).clamp(min=_EPSILON)
        if needs_target:
            grad_target = grad * ((1 - input).log() - input.log())
        return grad_input, grad_target

    @staticmethod
    def jvp(ctx: Context, input_t: Tensor | None, target_t: Tensor | None) -> Tensor:
        input, target = ctx.primals
        along_input = along_target = None
        if input_t is not None:
            denominator = (input * (1 - input)).clamp(min=_EPSILON)
            along_input = input_t * (input - target) / denominator
        if target_t is not None:
            along_target = target_t * ((1 - input).log() - input.log())
        per_element = combine(along_input, along_target)
        if ctx.weight is not None:
            per_element = per_element * constant(ctx.weight)
        return _reduced(per_element, ctx.reduction)


class BCEWithLogits(Op):
    """The binary cross-entropy of ``sigmoid(input)``, computed from the logits without
    overflow: ``w·((1 − t)·x + (1 + (p − 1)·t)·softplus(−x))`` with ``p`` the weight of
    positive examples (``pos_weight``, 1 by default) and ``softplus(z) = log(1 + eᶻ)``.

    ``weight`` and ``pos_weight`` are options, not inputs: they get no gradient.
    """

    name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_as = ("pos_weight", "self", "target", "weight")
    options_as = {"reduction": lambda node: ("none", "mean", "sum").index(node.reduction)}
    formula = "∂/∂x = w·((p·t + 1 − t)·σ(x) − p·t),  ∂/∂t = w·(−x + (p − 1)·softplus(−x))"
    jvp_formula = "w·((p·t + 1 − t)·σ(x) − p·t)·ẋ + w·(log σ(−x) − p·log σ(x))·ṫ"

    @staticmethod
    def forward(
        ctx: Context,
        input: np.ndarray,
        target: np.ndarray,
        weight: np.ndarray | None = None,
        pos_weight: np.ndarray | None = None,
        reduction: str = "mean",
    ) -> np.ndarray:
        ctx.save_for_backward(pos_weight, input, target, weight)  # PyTorch's order
        ctx.reduction, ctx.weight, ctx.pos_weight = reduction, weight, pos_weight
        # softplus(−x) = max(−x, 0) + log(1 + e^(−|x|)): no exp of a large number.
        softplus = np.maximum(-input, 0) + np.log1p(np.exp(-np.abs(input)))
        if pos_weight is None:
            losses = (1 - target) * input + softplus
        else:
            losses = (1 - target) * input + (1 + (pos_weight - 1) * target) * softplus
        if weight is not None:
            losses = losses * weight
        # As in PyTorch, whose formula accumulates in place into (1 − target): the result
        # has the target's dtype.
        return _reduce(losses.astype(target.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        pos_weight, input, target, weight = ctx.saved_tensors
        grad = _spread(grad, ctx.reduction, input.numel())
        if weight is not None:
            grad = grad * weight
        needs_input, needs_target = ctx.needs_input_grad
        grad_input = grad_target = None
        if pos_weight is None:
            if needs_input:
                grad_input = grad * (input.sigmoid() - target)
            if needs_target:
                grad_target = -grad * input
            return grad_input, grad_target
        if needs_target:
            # log σ(−x) − p·log σ(x): smooth everywhere, so that it differentiates again.
            log_p, log_not_p = LogSigmoid.apply(input), LogSigmoid.apply(-input)
            grad_target = grad * (log_not_p - pos_weight * log_p)
        if needs_input:
            grad_input = grad * (
                (pos_weight * target + 1 - target) * input.sigmoid() - pos_weight * target
            )
        return grad_input, grad_target

    @staticmethod
    def jvp(ctx: Context, input_t: Tensor | None, target_t: Tensor | None) -> Tensor:
        input, target = ctx.primals
        weight = 1.0 if ctx.pos_weight is None else constant(ctx.pos_weight)
        along_input = along_target = None
        if input_t is not None:
            slope = (weight * target + 1 - target) * input.sigmoid() - weight * target
            along_input = input_t * slope
        if target_t is not None:
            log_p, log_not_p = LogSigmoid.apply(input), LogSigmoid.apply(-input)
            along_target = target_t * (log_not_p - weight * log_p)
        per_element = combine(along_input, along_target)
        if ctx.weight is not None:
            per_element = per_element * constant(ctx.weight)
        return _reduced(per_element, ctx.reduction)
