"""The activation functions networks are built from: ``sigmoid``, ``relu``, ``softmax`` and
``log_softmax``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..alike import kept_where
from ..function import Context
from ..shapes import normalize_dims
from .base import Op, as_float, recorded_constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class Sigmoid(Op):
    formula = "∂σ(a)/∂a = σ(a)·(1 − σ(a))"
    jvp_formula = "ȧ·σ(a)·(1 − σ(a))"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        a = as_float(a)
        # Written with exp(-|a|) so that neither branch overflows for large |a|.
        e = np.exp(-np.abs(a))
        result = np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * result * (1 - result)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        result = ctx.result
        return a_t * result * (1 - result)


class Relu(Op):
    formula = "∂relu(a)/∂a = 1 if a > 0 else 0"
    jvp_formula = "ȧ where a > 0, else 0"
    saved_as = ("result",)
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.maximum(a, 0)
        if result.dtype is not a.dtype:  # (numpy gives integers for a bool input)
            result = result.astype(a.dtype)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        # The result is 0 where the input was <= 0, and the gradient is selected where it is
        # not 0 rather than multiplied by a mask (-1 * 0 would print -0.). A nan input (whose
        # result is nan, which counts as true) passes its gradient on, as in PyTorch.
        if result.__class__ is np.ndarray or isinstance(result, np.generic):
            # A backward pass on arrays: nothing to record, and `where` reads the result as
            # its own condition, which costs less than a comparison and a product.
            return np.where(result, grad, 0.0)
        # With Tensors (create_graph), the mask is recorded as a function of the result, as
        # PyTorch's derivative is: the first derivative keeps a graph; its own is zero.
        passes = result != 0
        return kept_where(passes, grad * recorded_constant(passes, result))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return kept_where(~(ctx.result <= 0), a_t)


def _largest(a: np.ndarray, dim: int) -> np.ndarray:
    """The largest value along ``dim``, kept as a dim of 1: what softmax subtracts so that
    no exp overflows. An empty dim gives -inf (nothing to subtract from), where numpy's max
    alone refuses a reduction with no identity; PyTorch's softmax of it is empty.

    >>> _largest(np.zeros((2, 0)), 1).shape
    (2, 1)
    """
    return a.max(axis=dim, keepdims=True, initial=-np.inf)


class Softmax(Op):
    formula = "∂softmax/∂a: s·(g − Σ g·s)"
    jvp_formula = "s·(ȧ − Σ ȧ·s)"
    saved_as = ("result",)
    options_as = {"dim": "dim"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = -1) -> np.ndarray:
        normalize_dims(dim, a.ndim)  # PyTorch's IndexError for a dim out of range
        a = as_float(a)
        shifted = np.exp(a - _largest(a, dim))
        result = shifted / shifted.sum(axis=dim, keepdims=True)
        ctx.save_for_backward(result)
        ctx.dim = dim
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return result * (grad - (grad * result).sum(dim=ctx.dim, keepdim=True))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        result = ctx.result
        return result * (a_t - (a_t * result).sum(dim=ctx.dim, keepdim=True))


class LogSoftmax(Op):
    formula = "∂log_softmax/∂a: g − softmax·Σ g"
    jvp_formula = "ȧ − Σ ȧ·softmax(a)"
    saved_as = ("result",)
    options_as = {"dim": "dim"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = -1) -> np.ndarray:
        normalize_dims(dim, a.ndim)  # PyTorch's IndexError for a dim out of range
        a = as_float(a)
        shifted = a - _largest(a, dim)
        with np.errstate(divide="ignore"):  # an empty dim sums to 0: its log is never used
            result = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        ctx.save_for_backward(result)
        ctx.dim = dim
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad - result.exp() * grad.sum(dim=ctx.dim, keepdim=True)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t - (a_t * ctx.result.exp()).sum(dim=ctx.dim, keepdim=True)
