"""Functions on tensors that neural networks are built from: ``linear``, ``mse_loss``, ...

Import it as PyTorch users do:

>>> import minigrad as mg
>>> import minigrad.nn.functional as F
>>> prediction = mg.tensor([1.0, 2.0], requires_grad=True)
>>> loss = F.mse_loss(prediction, mg.tensor([1.0, 4.0]))
>>> loss
tensor(2., grad_fn=<MseLossBackward0>)

The nodes these functions record (``AddmmBackward0``, ``MseLossBackward0``,
``NllLossBackward0``, ``BinaryCrossEntropyBackward0``, ...) are ops like any other: they live
in ``minigrad/ops/`` (``linalg.py`` and ``losses.py``), each forward beside its derivative.

The losses take PyTorch's arguments in PyTorch's order, including the old
``size_average`` and ``reduce`` (both replaced by ``reduction``; using them warns, as in
PyTorch).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import creation, dtypes, profiling
from ..grad_mode import is_grad_enabled
from ..ops import Addmm, BCEWithLogits, BinaryCrossEntropy, LogSigmoid, MseLoss, NllLoss
from ..shapes import broadcast_shape
from ..tensor import Tensor

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "dropout",
    "l1_loss",
    "linear",
    "log_softmax",
    "logsigmoid",
    "mse_loss",
    "nll_loss",
    "one_hot",
    "relu",
    "relu_",
    "sigmoid",
    "softmax",
    "tanh",
]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """The ``reduction`` that PyTorch's old pair of flags stands for, with its warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = ("mean" if size_average else "sum") if reduce else "none"
    warnings.warn(
        "size_average and reduce args will be deprecated, please use "
        f"reduction='{reduction}' instead.",
        UserWarning,
        stacklevel=3,
    )
    return reduction


def _reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return reduction


def _dtype_name(tensor: Tensor) -> str:
    """PyTorch's short name of a tensor's dtype in kernel messages: Float, Double, Long."""
    return tensor.type_description().removeprefix("minigrad.").split("Tensor")[0]


def _no_grad_wanted(function: str, argument: str, tensor: Tensor | None) -> None:
    if tensor is not None and tensor.requires_grad:
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True."
        )


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
    if profiling.active:  # PyTorch's profiler shows aten::linear around the ops it runs
        return profiling.timed("aten::linear", _linear, input, weight, bias)
    return _linear(input, weight, bias)


def _linear(input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
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


def _size_warning(input: Tensor, target: Tensor) -> None:
    if target.shape != input.shape:
        # A prediction of shape (n, 1) against targets of shape (n,) broadcasts to (n, n):
        # a classic silent bug, hence PyTorch's warning.
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=3,
        )


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """Both expanded to their common shape, as torch.broadcast_tensors does (a tensor that
    has it already is returned as it is)."""
    shape = broadcast_shape(input.shape, target.shape)
    if input.shape != shape:
        input = input.expand(shape)
    if target.shape != shape:
        target = target.expand(shape)
    return input, target


def _weighted(errors: Tensor, weight: Tensor, input: Tensor, reduction: str) -> Tensor:
    """PyTorch's weighted form of l1_loss and mse_loss: the mean is divided by Σ weight."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = errors * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """The mean (or sum, or per-element) squared difference of ``input`` and ``target``;
    with ``weight`` (of the input's shape), each squared difference is weighted and the
    mean is divided by the sum of the weights.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.mse_loss(mg.tensor([0.0, 3.0]), mg.tensor([1.0, 1.0]), reduction="sum")
    tensor(5.)
    """
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted((input - target) ** 2, weight, input, reduction)
    _check_reduction(reduction)
    return MseLoss.apply(input, target, reduction=reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """The mean (or sum, or per-element) absolute difference of ``input`` and ``target``
    (``weight`` as in ``mse_loss``).

    PyTorch builds it from ordinary ops, and so does minigrad: the graph is
    ``MeanBackward0`` (or ``SumBackward0``) of ``AbsBackward0`` of ``SubBackward0``.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.l1_loss(mg.tensor([0.0, 3.0], requires_grad=True), mg.tensor([1.0, 1.0]))
    tensor(1.5000, grad_fn=<MeanBackward0>)
    """
    _size_warning(input, target)
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    input, target = _broadcast_pair(input, target)
    errors = (input - target).abs()
    if weight is not None:
        return _weighted(errors, weight, input, reduction)
    _check_reduction(reduction)
    if reduction == "mean":
        return errors.mean()
    if reduction == "sum":
        return errors.sum()
    return errors


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """The loss of a yes/no classifier that outputs probabilities ``input`` in [0, 1]:
    ``−(t·log x + (1 − t)·log(1 − x))`` per element, each log clamped at −100.

    ``weight`` (broadcast to the input's shape) rescales each element's loss. For raw
    scores, ``binary_cross_entropy_with_logits`` is the same loss computed more stably.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> p = mg.tensor([0.9, 0.2], requires_grad=True)
    >>> F.binary_cross_entropy(p, mg.tensor([1.0, 0.0]))
    tensor(0.1643, grad_fn=<BinaryCrossEntropyBackward0>)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    weights = None
    if weight is not None:
        shape = _broadcast_to_target(target.shape, weight.shape)
        _no_grad_wanted("binary_cross_entropy", "weight", weight)
        _fits_output(input.shape, shape)
        weights = weight.expand(shape).detach().numpy()
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {_dtype_name(target)} but expected {_dtype_name(input)}")
    probabilities = input.detach().numpy()
    if not ((probabilities >= 0) & (probabilities <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight=weights, reduction=reduction)


def _fits_output(output: tuple[int, ...], broadcast: tuple[int, ...]) -> None:
    """A weight may broadcast to the loss's shape, not beyond it."""
    if tuple(broadcast) != tuple(output):
        raise RuntimeError(
            f"output with shape {list(output)} doesn't match the broadcast shape {list(broadcast)}"
        )


def _broadcast_to_target(target: tuple[int, ...], weight: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a weight is expanded to (torch.broadcast_shapes), with its message."""
    try:
        return broadcast_shape(target, weight)
    except RuntimeError:
        for i in range(1, min(len(target), len(weight)) + 1):
            if weight[-i] not in (1, target[-i]) and target[-i] != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {weight[-i]} at {-i}! "
                    f"Mismatching argument at index 1 had minigrad.Size({list(weight)}); but "
                    f"expected shape should be broadcastable to {list(target)}"
                ) from None
        raise


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """``binary_cross_entropy(sigmoid(input), target)`` computed from the raw scores
    ``input`` (logits) in one stable step: no probability is rounded to 0 or 1 first.

    ``pos_weight`` weighs the positive examples' term (one value per class, broadcast
    along the last dimension): above 1 it favours recall. ``weight`` rescales each loss.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> logits = mg.tensor([2.0, -1.0], requires_grad=True)
    >>> F.binary_cross_entropy_with_logits(logits, mg.tensor([1.0, 0.0]))
    tensor(0.2201, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if not target.is_floating_point():
        raise RuntimeError(
            f"result type {_dtype_name(input)} can't be cast to the desired output type "
            f"{_dtype_name(target)}"
        )
    _no_grad_wanted("binary_cross_entropy_with_logits", "weight", weight)
    _no_grad_wanted("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    options: dict[str, Any] = {"reduction": reduction}
    # Shapes that do not broadcast get PyTorch's message, naming the operands in its order.
    if pos_weight is not None:
        _fits_output(input.shape, broadcast_shape(pos_weight.shape, target.shape))
        options["pos_weight"] = pos_weight.detach().numpy()
    if weight is not None:
        _fits_output(input.shape, broadcast_shape(input.shape, weight.shape))
        options["weight"] = weight.detach().numpy()
    return BCEWithLogits.apply(input, target, **options)


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """The negative log-likelihood of class indices ``target`` under log-probabilities
    ``input`` (shape ``(n, classes)``, or ``(classes,)`` for one sample).

    ``weight`` gives each class a weight (the mean is then weighted: divided by the sum of
    the weights of the targets); samples whose target is ``ignore_index`` count for nothing.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> log_p = mg.tensor([[0.5, 0.5], [0.25, 0.75]]).log()
    >>> F.nll_loss(log_p, mg.tensor([0, 1]))
    tensor(0.4904)
    """
    reduction = _reduction(size_average, reduce, reduction)
    # The checks in PyTorch's order, with its messages.
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim != 1 and input.shape[0] != (target.shape[0] if target.ndim else 0):
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 0})."
        )
    if input.ndim > 2:
        raise ValueError(
            f"minigrad's nll_loss takes input of shape (N, C) or (C,), got {input.ndim} dims"
        )
    if target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_dtype_name(target)}"
        )
    if input.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(
            f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}"
        )
    n_classes = input.shape[-1]
    class_weights = None
    if weight is not None:
        if weight.ndim != 1 or weight.numel() != n_classes:
            raise RuntimeError(
                f"weight tensor should be defined either for all {n_classes} classes or no "
                f"classes but got weight tensor of shape: {list(weight.shape)}"
            )
        if weight.dtype != input.dtype:
            raise RuntimeError(
                f"expected scalar type {_dtype_name(input)} but found {_dtype_name(weight)}"
            )
        _no_grad_wanted("nll_loss_forward", "weight", weight)
        class_weights = weight.detach().numpy()
    classes = target.numpy()
    counted = classes != ignore_index
    out_of_range = counted & ((classes < 0) | (classes >= n_classes))
    if out_of_range.any():
        raise IndexError(f"Target {classes[out_of_range].flat[0]} is out of bounds.")
    return NllLoss.apply(
        input,
        target=classes,
        weight=class_weights,
        ignore_index=ignore_index,
        reduction=reduction,
    )


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """The classification loss on raw scores (logits): ``nll_loss(log_softmax(input))``.

    ``target`` holds class indices; ``weight`` and ``ignore_index`` are ``nll_loss``'s.
    (PyTorch also takes class probabilities as target, and label smoothing; minigrad does
    not.)

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.cross_entropy(mg.tensor([[2.0, 0.0]]), mg.tensor([0]))
    tensor(0.1269)
    """
    if target.dtype.is_floating_point and target.shape == input.shape:
        raise NotImplementedError(
            "minigrad's cross_entropy takes class indices as target, not class probabilities"
        )
    if label_smoothing != 0.0:
        raise NotImplementedError("minigrad's cross_entropy has no label smoothing")
    reduction = _reduction(size_average, reduce, reduction)
    class_dim = 0 if input.ndim == 1 else 1
    return nll_loss(
        input.log_softmax(class_dim),
        target,
        weight=weight,
        ignore_index=ignore_index,
        reduction=reduction,
    )


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the others by 1/(1 − p), so
    that the expected value stays the same; outside training, return ``input`` itself.

    The zeros are drawn from minigrad's generator (``minigrad.manual_seed`` makes them
    reproducible). As in PyTorch on the CPU, it is recorded as a product with a mask:
    ``MulBackward0``.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> x = mg.ones(8)
    >>> kept = F.dropout(x, p=0.5)
    >>> set(kept.tolist()) <= {0.0, 2.0}
    True
    >>> F.dropout(x, p=0.5, training=False) is x
    True
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if not input.is_floating_point():
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {_dtype_name(input)}"
        )
    if inplace and input.is_leaf and input.requires_grad and is_grad_enabled():
        # Checked before the mask is drawn, so that the failed call leaves the generator
        # where it was (mul_ would raise the same error, but after the draw).
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if p == 1:
        mask = creation.zeros((), dtype=input.dtype)
    else:
        keep = 1 - p
        draws = creation.rand(*input.shape, dtype=dtypes.float64)
        mask = (draws < keep).to(input.dtype) / keep
    return input.mul_(mask) if inplace else input * mask


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Each class index of ``tensor`` (int64) as a row of ``num_classes`` zeros with a 1 at
    that index: a new last dimension. ``num_classes=-1`` takes one more than the largest
    index. The result is int64, as in PyTorch (``.float()`` it to multiply with weights).

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.one_hot(mg.tensor([0, 2]), num_classes=3)
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    classes = tensor._array
    if classes.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if classes.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(classes.max()) + 1
    if classes.size and classes.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if classes.size and classes.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    rows = np.arange(num_classes) == classes[..., None]
    return Tensor(rows.astype(np.int64))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)`` elementwise; with ``inplace``, overwriting ``input`` (recorded,
    as in PyTorch, as ``ReluBackward0``)."""
    return input.relu_() if inplace else input.relu()


def relu_(input: Tensor) -> Tensor:
    """``relu(input, inplace=True)``: ``input`` overwritten by ``max(input, 0)``.

    >>> import minigrad as mg
    >>> x = mg.tensor([-1.0, 2.0])
    >>> mg.nn.functional.relu_(x) is x, x
    (True, tensor([0., 2.]))
    """
    return input.relu_()


def tanh(input: Tensor) -> Tensor:
    """The hyperbolic tangent, elementwise."""
    return input.tanh()


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``, exact for any input (no log of an underflowed 0).

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.logsigmoid(mg.tensor([-800.0, 0.0], dtype=mg.float64))
    tensor([-8.0000e+02, -6.9315e-01], dtype=minigrad.float64)
    """
    return LogSigmoid.apply(input)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(−input))`` elementwise."""
    return input.sigmoid()


def _implicit_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to "
        "include dim=X as an argument.",
        UserWarning,
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """Exponentials normalised to sum to 1 along ``dim``.

    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.softmax(mg.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _implicit_dim("softmax", input.ndim, _stacklevel)
    if dtype is not None:
        input = input.to(dtype)  # cast first: the sums are then taken in ``dtype``
    return input.softmax(dim)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``log(softmax(input, dim))``, computed without overflow."""
    if dim is None:
        dim = _implicit_dim("log_softmax", input.ndim, _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return input.log_softmax(dim)
