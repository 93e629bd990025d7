"""``backward``, ``grad``, and gradient checking by finite differences.

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
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .engine import BackwardPass
from .function import Context, Function
from .grad_mode import enable_grad, no_grad
from .tensor import Tensor

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
    """Add the gradients of ``tensors`` into the ``.grad`` of every leaf they depend on."""
    outputs = _as_list(tensors)
    grads = _gradient_list(grad_tensors)
    if create_graph and not _warned_about_create_graph:
        _warn_once_about_create_graph()
    if inputs is not None:
        raise NotImplementedError("backward(inputs=...) is not supported by minigrad")
    BackwardPass(outputs, grads, retain_graph=retain_graph, create_graph=create_graph).run()


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


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when analytic and numerical gradients disagree."""


def _numerical_jacobian(
    func: Callable[..., Any], inputs: list[Tensor], eps: float
) -> list[np.ndarray]:
    """d(outputs)/d(inputs[i]) by central differences, one column per input element."""
    with no_grad():
        jacobians = []
        for tensor in inputs:
            if not tensor.requires_grad:
                jacobians.append(None)
                continue
            flat = tensor._array.reshape(-1)
            columns = []
            for k in range(flat.size):
                original = flat[k]
                flat[k] = original + eps
                plus = _flat_outputs(func(*inputs))
                flat[k] = original - eps
                minus = _flat_outputs(func(*inputs))
                flat[k] = original
                columns.append((plus - minus) / (2 * eps))
            jacobians.append(np.stack(columns, axis=1) if columns else np.zeros((0, 0)))
        return jacobians


def _flat_outputs(outputs: Any) -> np.ndarray:
    return np.concatenate([o._array.reshape(-1).astype(np.float64) for o in _as_list(outputs)])


def _analytical_jacobian(func: Callable[..., Any], inputs: list[Tensor]) -> list[np.ndarray]:
    outputs = _as_list(func(*inputs))
    sizes = [o.numel() for o in outputs]
    differentiable = [t for t in inputs if t.requires_grad]
    rows: dict[int, list[np.ndarray]] = {id(t): [] for t in differentiable}
    for which, output in enumerate(outputs):
        for k in range(sizes[which]):
            seed = np.zeros(output.shape, dtype=output._array.dtype)
            seed.reshape(-1)[k] = 1
            if not output.requires_grad:
                grads: tuple[Any, ...] = (None,) * len(differentiable)
            else:
                grads = grad(
                    output, differentiable, Tensor(seed), retain_graph=True, allow_unused=True
                )
            for t, g in zip(differentiable, grads, strict=True):
                row = np.zeros(t.numel()) if g is None else g._array.reshape(-1)
                rows[id(t)].append(row.astype(np.float64))
    return [np.stack(rows[id(t)]) if t.requires_grad else None for t in inputs]


def gradcheck(
    func: Callable[..., Any],
    inputs: Tensor | Sequence[Tensor],
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """Compare ``func``'s gradients from ``backward`` with finite differences.

    Use float64 inputs: in float32 the finite differences are too noisy to compare.

    >>> import minigrad as mg
    >>> x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
    >>> mg.autograd.gradcheck(lambda t: (t.sin() * t).sum(), x)
    True
    """
    input_list = _as_list(inputs)
    for i, t in enumerate(input_list):
        if t.requires_grad and t.dtype.name != "float64":
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point. "
                "This check will likely fail if all the inputs are not of double precision "
                "floating point. ",
                UserWarning,
                stacklevel=2,
            )
    numerical = _numerical_jacobian(func, input_list, eps)
    analytical = _analytical_jacobian(func, input_list)
    for i, (num, ana) in enumerate(zip(numerical, analytical, strict=True)):
        if num is None:
            continue
        if not np.allclose(ana, num, rtol=rtol, atol=atol):
            if not raise_exception:
                return False
            raise GradcheckError(
                f"Jacobian mismatch for output 0 with respect to input {i},\n"
                f"numerical:{_tensor_text(num)}\nanalytical:{_tensor_text(ana)}\n"
            )
    return True


def _tensor_text(array: np.ndarray) -> str:
    return repr(Tensor(array))


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Tensor | Sequence[Tensor],
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """``gradcheck`` of the first derivatives: checks second derivatives (double backward)."""
    input_list = _as_list(inputs)

    @enable_grad()  # the numerical Jacobian calls this under no_grad: it must still record
    def first_derivatives(*args: Tensor) -> tuple[Tensor, ...]:
        outputs = _as_list(func(*args))
        total = outputs[0].sum()
        for o in outputs[1:]:
            total = total + o.sum()
        used = [a for a in args if a.requires_grad]
        grads = grad(total, used, create_graph=True, allow_unused=True)
        return tuple(g if g is not None else a * 0 for g, a in zip(grads, used, strict=True))

    return gradcheck(
        first_derivatives,
        input_list,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
