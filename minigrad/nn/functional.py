"""Functions on tensors that neural networks are built from: ``linear``, ``mse_loss``, ...

Import it as PyTorch users do:

>>> import minigrad as mg
>>> import minigrad.nn.functional as F
>>> prediction = mg.tensor([1.0, 2.0], requires_grad=True)
>>> loss = F.mse_loss(prediction, mg.tensor([1.0, 4.0]))
>>> loss
tensor(2., grad_fn=<MseLossBackward0>)

Three ops live here rather than in ``minigrad.ops`` because only networks use them:
``Addmm`` (a linear layer's ``bias + x @ Wᵀ``), ``MseLoss`` and ``NllLoss``. Each keeps its
forward beside its derivative and carries PyTorch's node name, so a drawing of a network's
graph shows the same boxes as PyTorch's.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..function import Context, Function
from ..tensor import Tensor

__all__ = [
    "cross_entropy",
    "linear",
    "log_softmax",
    "mse_loss",
    "nll_loss",
    "relu",
    "sigmoid",
    "softmax",
    "tanh",
]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _dtype_name(array: np.ndarray) -> str:
    """PyTorch's short dtype names in messages: Float, Double, Long, ..."""
    names = {"float16": "Half", "float32": "Float", "float64": "Double", "int64": "Long"}
    return names.get(array.dtype.name, array.dtype.name.capitalize())


# ---------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------
class Addmm(Function):
    """``bias + mat1 @ mat2`` in one node, as PyTorch records a linear layer on a batch.

    The bias is broadcast over the rows; the engine sums its gradient back to its shape.
    """

    name = "AddmmBackward0"
    formula = "∂/∂bias = G,  ∂/∂mat1 = G@mat2ᵀ,  ∂/∂mat2 = mat1ᵀ@G"

    @staticmethod
    def forward(ctx: Context, bias: np.ndarray, mat1: np.ndarray, mat2: np.ndarray) -> np.ndarray:
        if mat1.shape[1] != mat2.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} "
                f"and {mat2.shape[0]}x{mat2.shape[1]})"
            )
        for what, a, b in (("mat1 and mat2", mat1, mat2), ("self and mat2", bias, mat2)):
            if a.dtype != b.dtype:
                raise RuntimeError(
                    f"{what} must have the same dtype, but got {_dtype_name(a)} and "
                    f"{_dtype_name(b)}"
                )
        ctx.save_for_backward(mat1, mat2)
        return bias + mat1 @ mat2

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, ...]:
        mat1, mat2 = ctx.saved_tensors
        needs_bias, needs_mat1, needs_mat2 = ctx.needs_input_grad
        grad_bias = grad if needs_bias else None
        grad_mat1 = grad @ mat2.t() if needs_mat1 else None
        grad_mat2 = mat1.t() @ grad if needs_mat2 else None
        return grad_bias, grad_mat1, grad_mat2


class MseLoss(Function):
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


class NllLoss(Function):
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
        mask = Tensor(ctx.mask)
        if ctx.reduction == "none":
            per_row = grad.reshape(-1, 1)  # one gradient per sample
        elif ctx.reduction == "mean":
            per_row = grad / mask.shape[0]
        else:
            per_row = grad
        grad_input = -mask * per_row
        return grad_input if ctx.batched else grad_input.reshape(-1)


# ---------------------------------------------------------------------------------------
# The functional API
# ---------------------------------------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    A batch of rows (2-d input) with a bias is one ``AddmmBackward0`` node. Any other
    shape is flattened to rows and viewed back, which adds ``ViewBackward0`` nodes, as in
    PyTorch. Without a bias it is a plain matrix product.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> x = mg.tensor([[1.0, 2.0]])
    >>> w = mg.tensor([[3.0, 4.0]], requires_grad=True)
    >>> F.linear(x, w, mg.tensor([0.5], requires_grad=True))
    tensor([[11.5000]], grad_fn=<AddmmBackward0>)
    """
    if bias is None:
        return input @ weight.t()
    if input.ndim == 2:
        return Addmm.apply(bias, input, weight.t())
    if input.ndim == 0:
        raise RuntimeError(
            "both arguments to linear need to be at least 1D, but they are 0D and 2D"
        )
    rows = input.reshape(-1, input.shape[-1])
    result = Addmm.apply(bias, rows, weight.t())
    return result.reshape(*input.shape[:-1], weight.shape[0])


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The mean (or sum, or per-element) squared difference of ``input`` and ``target``.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.mse_loss(mg.tensor([0.0, 3.0]), mg.tensor([1.0, 1.0]), reduction="sum")
    tensor(5.)
    """
    _check_reduction(reduction)
    if target.shape != input.shape:
        # A prediction of shape (n, 1) against targets of shape (n,) broadcasts to (n, n):
        # a classic silent bug, hence PyTorch's warning.
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=2,
        )
    return MseLoss.apply(input, target, reduction=reduction)


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of class indices ``target`` under log-probabilities
    ``input`` (shape ``(n, classes)``, or ``(classes,)`` for one sample).

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> log_p = mg.tensor([[0.5, 0.5], [0.25, 0.75]]).log()
    >>> F.nll_loss(log_p, mg.tensor([0, 1]))
    tensor(0.4904)
    """
    _check_reduction(reduction)
    if input.ndim not in (1, 2):
        raise ValueError(
            f"minigrad's nll_loss takes input of shape (N, C) or (C,), got {input.ndim} dims"
        )
    if target.dtype.is_floating_point:
        name = target.type_description().removeprefix("minigrad.").split("Tensor")[0]
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {name}")
    batch = input.shape[0] if input.ndim == 2 else 1
    if target.numel() != batch or target.ndim != input.ndim - 1:
        raise ValueError(
            f"Expected input batch_size ({batch}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 1})."
        )
    classes = target.numpy()
    out_of_range = (classes < 0) | (classes >= input.shape[-1])
    if out_of_range.any():
        raise IndexError(f"Target {classes[out_of_range].flat[0]} is out of bounds.")
    return NllLoss.apply(input, target=classes, reduction=reduction)


def cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """The classification loss on raw scores (logits): ``nll_loss(log_softmax(input))``.

    ``target`` holds class indices. (PyTorch also takes class probabilities, weights,
    ``ignore_index`` and label smoothing; minigrad keeps to the common case.)

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.cross_entropy(mg.tensor([[2.0, 0.0]]), mg.tensor([0]))
    tensor(0.1269)
    """
    if target.dtype.is_floating_point and target.shape == input.shape:
        raise NotImplementedError(
            "minigrad's cross_entropy takes class indices as target, not class probabilities"
        )
    class_dim = 0 if input.ndim == 1 else 1
    return nll_loss(input.log_softmax(class_dim), target, reduction=reduction)


def relu(input: Tensor) -> Tensor:
    """``max(input, 0)`` elementwise."""
    return input.relu()


def tanh(input: Tensor) -> Tensor:
    """The hyperbolic tangent, elementwise."""
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(−input))`` elementwise."""
    return input.sigmoid()


def _implicit_dim(name: str, ndim: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to "
        "include dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None) -> Tensor:
    """Exponentials normalised to sum to 1 along ``dim``.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.softmax(mg.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _implicit_dim("softmax", input.ndim)
    return input.softmax(dim)


def log_softmax(input: Tensor, dim: int | None = None) -> Tensor:
    """``log(softmax(input, dim))``, computed without overflow."""
    if dim is None:
        dim = _implicit_dim("log_softmax", input.ndim)
    return input.log_softmax(dim)
