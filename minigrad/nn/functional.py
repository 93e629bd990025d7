"""Functions on tensors that neural networks are built from: ``linear``, ``mse_loss``, ...

Import it as PyTorch users do:

>>> import minigrad as mg
>>> import minigrad.nn.functional as F
>>> prediction = mg.tensor([1.0, 2.0], requires_grad=True)
>>> loss = F.mse_loss(prediction, mg.tensor([1.0, 4.0]))
>>> loss
tensor(2., grad_fn=<MseLossBackward0>)

The nodes these functions record (``AddmmBackward0``, ``MseLossBackward0``,
``NllLossBackward0``) are ops like any other: they live in ``minigrad/ops/`` (``linalg.py``
and ``losses.py``), each forward beside its derivative.
"""

from __future__ import annotations

import warnings

from ..ops import Addmm, MseLoss, NllLoss
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
