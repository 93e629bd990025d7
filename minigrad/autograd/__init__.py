"""``backward`` and ``grad``; ``gradcheck`` (finite differences) lives in ``gradcheck.py``.

>>> import minigrad as mg
>>> x = mg.tensor(2.0, requires_grad=True)
>>> (dy,) = mg.autograd.grad(x**3, x, create_graph=True)
>>> dy
tensor(12., grad_fn=<MulBackward0>)
>>> (d2y,) = mg.autograd.grad(dy, x)
>>> d2y
tensor(12.)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import BackwardPass
from ..function import Context, Function
from ..tensor import Tensor

__all__ = [
    "Function",
    "Context",
    "backward",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
]


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _gradient_list(gradients: Any) -> list[Tensor | None] | None:
    """PyTorch's reading of ``grad_tensors``/``grad_outputs``: one Tensor, or a sequence of
    Tensors and Nones. Anything else gets PyTorch's TypeError: a number is "not iterable",
    a list of numbers "can be either Tensors or None, but got float"."""
    if gradients is None:
        return None
    if isinstance(gradients, Tensor):
        return [gradients]
    listed = list(gradients)  # TypeError: 'float' object is not iterable, as in PyTorch
    for gradient in listed:
        if gradient is not None and not isinstance(gradient, Tensor):
            raise TypeError(
                f"gradients can be either Tensors or None, but got {type(gradient).__name__}"
            )
    return listed


def backward(
    tensors: Tensor | Sequence[Tensor],
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Add the gradients of ``tensors`` into the ``.grad`` of every leaf they depend on, or,
    with ``inputs``, into the ``.grad`` of those tensors alone (leaves or not)."""
    outputs = _as_list(tensors)
    grads = _gradient_list(grad_tensors)
    if create_graph and not _warned_about_create_graph:
        _warn_once_about_create_graph()
    input_list = None
    if inputs is not None:
        input_list = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not input_list:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for tensor in input_list:
            if not tensor.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    BackwardPass(
        outputs,
        grads,
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=input_list,
        accumulate_into_inputs=input_list is not None,
    ).run()


_warned_about_create_graph = False


def _warn_once_about_create_graph() -> None:
    """PyTorch's warning about ``backward(create_graph=True)``, given once per process as
    PyTorch gives it (a training loop would otherwise print it at every step)."""
    global _warned_about_create_graph
    _warned_about_create_graph = True
    warnings.warn(
        "Using backward() with create_graph=True will create a reference cycle between "
        "the parameter and its gradient which can cause a memory leak. We recommend using "
        "autograd.grad when creating the graph to avoid this. If you have to use this "
        "function, make sure to reset the .grad fields of your parameters to None after "
        "use to break the cycle and avoid the leak.",
        UserWarning,
        stacklevel=4,
    )


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """The gradients of ``outputs`` with respect to ``inputs``, returned instead of being
    added into ``.grad``. With ``create_graph=True`` they can be differentiated again."""
    input_list = _as_list(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    captured = BackwardPass(
        _as_list(outputs),
        _gradient_list(grad_outputs),
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=input_list,
        allow_unused=allow_unused,
    ).run()
    assert captured is not None
    if materialize_grads:
        captured = [
            Tensor(np.zeros_like(t._array)) if g is None else g
            for g, t in zip(captured, input_list, strict=True)
        ]
    return tuple(captured)


# Imported last: gradcheck calls grad() above.
from . import forward_ad, function, functional, graph  # noqa: E402
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: E402
