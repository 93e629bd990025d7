"""What a derivative rule does alike to a numpy array and to a Tensor.

A backward pass that records nothing (``create_graph=False``, the usual case) has no use
for the Tensors of its intermediate gradients: nobody differentiates them again. So the
engine runs such a pass on plain numpy arrays, and a pass that records the derivative's
graph on Tensors, with the *same* derivative rule. Most of a rule reads the same in both
(``grad * b``, ``-grad``, ``grad @ m``); the few operations that numpy and PyTorch spell
differently are these helpers, each given an array or a Tensor and returning the same kind.

>>> import numpy as np
>>> import minigrad as mg
>>> summed_to(np.ones((2, 3)), (3,))
array([2., 2., 2.])
>>> summed_to(mg.ones(2, 3), (3,))
tensor([2., 2., 2.])
>>> transposed(np.zeros((2, 3))).shape, transposed(mg.zeros(2, 3)).shape
((3, 2), minigrad.Size([3, 2]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

# (ndarray by its own name, tested on every op: see minigrad/function.py)
from numpy import ndarray

__all__ = ["expanded", "expanded_view", "kept_where", "summed_to", "transposed", "unsqueezed"]


def kept_where(mask: Any, grad: Any) -> Any:
    """``grad`` where ``mask`` holds, else 0: how a derivative that is 1 or 0 (relu's,
    clamp's, max's) passes a gradient on. It selects, as PyTorch's derivatives do, rather
    than multiplies: ``grad * mask`` would leave -0.0 where a gradient is negative (and nan
    where it is nan or inf), which PyTorch prints as 0.

    >>> import minigrad as mg
    >>> kept_where(np.array([True, False]), np.array([-1.0, -1.0]))
    array([-1.,  0.])
    >>> kept_where(np.array([True, False]), mg.tensor([-1.0, -1.0]))
    tensor([-1.,  0.])
    """
    if grad.__class__ is ndarray or isinstance(grad, np.generic):  # (a 0-d one's number)
        return np.where(mask, grad, 0.0)
    return grad.where(mask, np.zeros((), grad._array.dtype))


def transposed(matrix: Any) -> Any:
    """A matrix transposed: ``m.T`` of an array, ``m.t()`` of a Tensor (recorded as
    PyTorch's derivatives record it, ``TBackward0``)."""
    return matrix.T if matrix.__class__ is ndarray else matrix.t()


def unsqueezed(grad: Any, dim: int) -> Any:
    """``grad`` with a new dimension of size 1 at ``dim``."""
    if grad.__class__ is ndarray:
        return np.expand_dims(grad, dim)
    return grad.unsqueeze(dim)


def expanded(grad: Any, shape: tuple[int, ...]) -> Any:
    """``grad`` broadcast to ``shape``: a read-only view for an array, ``expand`` for a Tensor."""
    if grad.__class__ is not ndarray:
        return grad.expand(shape)
    view = expanded_view(grad, shape)
    return view if view is not None else np.broadcast_to(grad, shape)


def summed_to(grad: Any, shape: tuple[int, ...]) -> Any:
    """``grad`` summed over the dimensions that were broadcast to make it from ``shape``
    (PyTorch's ``sum_to_size``): how a broadcast input's gradient gets its shape back.
    An array is summed in the same steps as a Tensor, so both give the same bits."""
    if grad.__class__ is not ndarray:
        return grad.sum_to_size(shape)
    if not shape and grad.ndim:  # to a single number: the plain sum
        return np.asarray(np.add.reduce(grad, axis=tuple(range(grad.ndim))))
    leading = grad.ndim - len(shape)
    if leading > 0:
        # (one leading dim, a bias's: its axis as a number, not a tuple made for it)
        grad = np.add.reduce(grad, axis=0 if leading == 1 else tuple(range(leading)))
    if grad.shape == shape:  # only leading dims were added (a bias's gradient)
        return grad
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return np.add.reduce(grad, axis=stretched, keepdims=True)


def expanded_view(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``array`` seen with ``shape``: a read-only view whose expanded dims step by 0 bytes.
    Made directly for an array in one contiguous block, as numpy's ``broadcast_to`` would
    (which costs as much as a dozen small ops, on the path of every sum's derivative);
    None when ``array`` is not contiguous or does not fit ``shape`` (broadcast_to decides)."""
    # The strides as a tuple: numpy converts a list element by element.
    if not array.ndim:  # one number (the gradient of a sum or mean of everything)
        strides: tuple[int, ...] = (0,) * len(shape)
    else:
        leading = len(shape) - array.ndim
        if leading < 0 or not array.flags.c_contiguous:
            return None
        steps = [0] * leading
        for size, n, step in zip(shape[leading:], array.shape, array.strides):
            if n != size and n != 1:
                return None
            steps.append(step if n == size else 0)
        strides = tuple(steps)
    view = ndarray(shape, array.dtype, array, 0, strides)
    view.setflags(write=False)  # (cheaper than view.flags.writeable = False)
    return view
