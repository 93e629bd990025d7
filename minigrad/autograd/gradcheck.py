"""Gradient checking by finite differences, as ``torch.autograd.gradcheck`` does it.

>>> import minigrad as mg
>>> x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
>>> mg.autograd.gradcheck(lambda t: t.exp().sum(), x)
True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..grad_mode import enable_grad, no_grad
from ..tensor import Tensor
from . import _as_list, grad

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when analytic and numerical gradients disagree."""


# Jacobians are kept as PyTorch's gradcheck keeps them: jacobians[i][j] has one row per
# element of input i and one column per element of output j.
Jacobians = list[list[np.ndarray] | None]


def _differentiable(value: Any) -> bool:
    """Whether an input of the checked function gets a Jacobian: a Tensor that requires grad
    (other inputs, a Python number say, are passed to the function as they are)."""
    return isinstance(value, Tensor) and value.requires_grad


def _numerical_jacobians(func: Callable[..., Any], inputs: list[Tensor], eps: float) -> Jacobians:
    """d(outputs)/d(inputs) by central differences: each element of each input is nudged by
    ``±eps`` in place, in the input's own dtype (which is why float32 is too coarse)."""
    with no_grad():
        jacobians: Jacobians = []
        for tensor in inputs:
            if not _differentiable(tensor):
                jacobians.append(None)
                continue
            flat = tensor._array.reshape(-1)  # a view: writing to it changes the input
            rows: list[list[np.ndarray]] = []
            for k in range(flat.size):
                original = flat[k]
                flat[k] = original + eps
                plus = [o._array.reshape(-1).copy() for o in _as_list(func(*inputs))]
                flat[k] = original - eps
                minus = [o._array.reshape(-1).copy() for o in _as_list(func(*inputs))]
                flat[k] = original
                rows.append([(p - m) / (2 * eps) for p, m in zip(plus, minus, strict=True)])
            outputs = _as_list(func(*inputs))
            jacobians.append(
                [
                    np.stack([row[j] for row in rows])
                    if rows
                    else np.zeros((0, o.numel()), o._array.dtype)
                    for j, o in enumerate(outputs)
                ]
            )
        return jacobians


def _analytical_jacobians(func: Callable[..., Any], inputs: list[Tensor]) -> Jacobians:
    """The same Jacobians from backward: one ``autograd.grad`` per output element, seeded
    with a one-hot ``grad_outputs``, fills one column."""
    outputs = _as_list(func(*inputs))
    differentiable = [t for t in inputs if _differentiable(t)]
    columns: dict[int, list[list[np.ndarray]]] = {id(t): [] for t in differentiable}
    for output in outputs:
        for t in differentiable:
            columns[id(t)].append([])
        for k in range(output.numel()):
            seed = np.zeros(output.shape, dtype=output._array.dtype)
            seed.reshape(-1)[k] = 1
            grads: tuple[Any, ...] = (None,) * len(differentiable)
            if output.requires_grad:
                grads = grad(
                    output, differentiable, Tensor(seed), retain_graph=True, allow_unused=True
                )
            for t, g in zip(differentiable, grads, strict=True):
                column = np.zeros(t.numel(), t._array.dtype) if g is None else g._array
                columns[id(t)][-1].append(column.reshape(-1))
    return [
        [
            np.stack(cols, axis=1) if cols else np.zeros((t.numel(), 0), t._array.dtype)
            for cols in columns[id(t)]
        ]
        if _differentiable(t)
        else None
        for t in inputs
    ]


def _backward_ignores_grad_output(func: Callable[..., Any], inputs: list[Tensor]) -> bool:
    """PyTorch's extra check: with zero ``grad_outputs`` every gradient must be zero. A
    backward that forgets to multiply by ``grad_output`` can pass the Jacobian test (it
    is seeded with ones) and still be wrong."""
    outputs = [o for o in _as_list(func(*inputs)) if o.requires_grad]
    differentiable = [t for t in inputs if _differentiable(t)]
    if not outputs:
        return False
    zeros = [Tensor(np.zeros_like(o._array)) for o in outputs]
    grads = grad(outputs, differentiable, zeros, allow_unused=True)
    return any(g is not None and np.any(g._array != 0) for g in grads)


def gradcheck(
    func: Callable[..., Any],
    inputs: Tensor | Sequence[Tensor],
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """Compare ``func``'s gradients from ``backward`` with finite differences, as
    ``torch.autograd.gradcheck`` does (its slow mode): every Jacobian, then that backward
    multiplies by the gradient it is given.

    Use float64 inputs: in float32 the finite differences are too noisy to compare.

    >>> import minigrad as mg
    >>> x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
    >>> mg.autograd.gradcheck(lambda t: (t.sin() * t).sum(), x)
    True
    """
    input_list = _as_list(inputs)
    if not any(_differentiable(t) for t in input_list):
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of "
            "them have requires_grad=True."
        )
    for i, t in enumerate(input_list):
        if _differentiable(t) and t.dtype.name != "float64":
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )

    def fail(message: str) -> bool:
        if raise_exception:
            raise GradcheckError(message)
        return False

    numerical = _numerical_jacobians(func, input_list, eps)
    analytical = _analytical_jacobians(func, input_list)
    for i, (numerical_i, analytical_i) in enumerate(zip(numerical, analytical, strict=True)):
        if numerical_i is None or analytical_i is None:
            continue
        for j, (num, ana) in enumerate(zip(numerical_i, analytical_i, strict=True)):
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                return fail(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{Tensor(num)!r}\nanalytical:{Tensor(ana)!r}\n"
                )
    if _backward_ignores_grad_output(func, input_list):
        return fail("backward not multiplied by grad_output")
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Tensor] | None = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """``gradcheck`` of the first derivatives, as ``torch.autograd.gradgradcheck`` does it:
    the function checked is ``(inputs, grad_outputs) -> autograd.grad(func(inputs), inputs,
    grad_outputs, create_graph=True)``, differentiated in both.

    Without ``grad_outputs``, random ones are drawn (float64, a fixed seed: PyTorch's change
    at every call, minigrad's are the same each time so a lesson's output is too).

    >>> import minigrad as mg
    >>> x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
    >>> mg.autograd.gradgradcheck(lambda t: t.tanh() * t, x)
    True
    """
    input_list = _as_list(inputs)
    outputs = _as_list(func(*input_list))
    if grad_outputs is None:
        generator = np.random.default_rng(0)
        grad_list = [
            Tensor(generator.standard_normal(o.shape).astype(o._array.dtype), requires_grad=True)
            for o in outputs
        ]
    else:
        grad_list = _as_list(grad_outputs)
    count = len(input_list)

    @enable_grad()  # the numerical Jacobian calls this under no_grad: it must still record
    def first_derivatives(*args: Tensor) -> tuple[Tensor, ...]:
        args_in, seeds = list(args[:count]), list(args[count:])
        results = _as_list(func(*args_in))
        used = [a for a in args_in if _differentiable(a)]
        pairs = [(r, g) for r, g in zip(results, seeds, strict=True) if r.requires_grad]
        if not pairs:
            return tuple(a * 0 for a in used)
        grads = grad(
            [r for r, _ in pairs],
            used,
            [g for _, g in pairs],
            create_graph=True,
            allow_unused=True,
        )
        return tuple(g if g is not None else a * 0 for g, a in zip(grads, used, strict=True))

    return gradcheck(
        first_derivatives,
        input_list + grad_list,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
