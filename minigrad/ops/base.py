"""What every built-in op shares: the ``Op`` base class, elementwise type promotion, and
two small helpers for writing derivatives.

A built-in op computes on numpy arrays in ``forward`` (fast, and easy to read beside the
maths) and writes ``backward`` with Tensor operations, so that with ``create_graph=True``
the derivative is itself recorded and can be differentiated again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..function import Function
from ..shapes import broadcast_shape

if TYPE_CHECKING:
    from ..tensor import Tensor


class Op(Function):
    """A built-in op: its node is named ``<ClassName>Backward0`` unless ``name`` says else."""

    returns_new_gradients = True

    @classmethod
    def node_name(cls) -> str:
        return cls.name or f"{cls.__name__}Backward0"


class Elementwise(Op):
    """An op on operands of the same shape after broadcasting, computed in the dtype that
    PyTorch's type promotion gives (``int_tensor * 2.5`` is float32, not numpy's float64)."""

    @classmethod
    def arrays_for_forward(cls, args: tuple[Any, ...]) -> list[Any]:
        arrays = [a._array for a in args]
        first = arrays[0]
        for array in arrays:
            if array.dtype != first.dtype or array.shape != first.shape:
                break
        else:  # the most common case: operands alike, nothing to promote or broadcast
            if cls.computation_dtype(first.dtype) == first.dtype:
                return arrays
        dtype = cls.computation_dtype(dtypes.result_type(args))
        shape = arrays[0].shape
        for array in arrays:
            if array.shape != shape and array.ndim != 0:  # broadcasting: check it can
                broadcast_shape(*(b.shape for b in arrays))
                break
        return [b if b.dtype == dtype else b.astype(dtype) for b in arrays]

    @staticmethod
    def computation_dtype(promoted: np.dtype) -> np.dtype:
        return promoted


def as_float(x: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, ... compute in the default float type, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(dtypes.get_default_dtype().numpy)


def constant(array: Any) -> Tensor:
    """A tensor of values a derivative needs that have no history (a mask, a count)."""
    from ..tensor import Tensor

    return Tensor(np.asarray(array))
