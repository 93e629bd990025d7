"""``+ − × ÷`` and powers: the ops Python's operators record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..alike import kept_where
from ..function import Context
from ..tangents import combine, scaled
from .base import Elementwise, Op, as_float, constant
from .unary import where

if TYPE_CHECKING:
    from ..tensor import Tensor


class Add(Elementwise):
    """``a + b``, or ``a + alpha * b`` for ``a.add(b, alpha=...)``: one node, as in PyTorch."""

    formula = "∂(a+b)/∂a = 1,  ∂(a+b)/∂b = 1"
    jvp_formula = "ȧ + α·ḃ"
    options_as = {"alpha": "alpha"}  # grad_fn._saved_alpha, as in PyTorch
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx.alpha = alpha
        return a + scaled_by(b, alpha)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return grad, grad if ctx.alpha == 1 else grad * ctx.alpha

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        return combine(a_t, scaled(b_t, lambda t: t if ctx.alpha == 1 else t * ctx.alpha))


class Sub(Elementwise):
    """``a - b``, or ``a - alpha * b`` for ``a.sub(b, alpha=...)``."""

    formula = "∂(a−b)/∂a = 1,  ∂(a−b)/∂b = −1"
    jvp_formula = "ȧ − α·ḃ"
    options_as = {"alpha": "alpha"}
    backward_on_arrays = True

    @staticmethod
    def arrays_for_forward(op: type[Op], args: tuple[Any, ...]) -> list[Any]:
        # Asked before promotion, which turns a mask into numbers (True - 1 would be 0).
        first, second = args[0]._array.dtype.kind == "b", args[1]._array.dtype.kind == "b"
        if first or second:  # (a number True is a wrapped bool)
            raise _bool_subtraction_error(first and second)
        return Elementwise.arrays_for_forward(op, args)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx.alpha = alpha
        return a - scaled_by(b, alpha)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return grad, -grad if ctx.alpha == 1 else grad * -ctx.alpha

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        return combine(a_t, scaled(b_t, lambda t: -t if ctx.alpha == 1 else t * -ctx.alpha))


def _bool_subtraction_error(both: bool) -> RuntimeError:
    """PyTorch's refusal of ``-`` with a mask: ``~mask`` is what is meant, not ``1 - mask``."""
    if both:
        return RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead."
        )
    return RuntimeError(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
        "trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )


def scaled_by(b: np.ndarray, alpha: Any) -> np.ndarray:
    """``alpha * b`` in ``b``'s dtype, as ``add``'s and ``sub``'s ``alpha`` scales (also for
    ``add_`` written straight into a tensor).

    >>> scaled_by(np.array([1.0, 2.0], dtype=np.float32), 0.5)
    array([0.5, 1. ], dtype=float32)
    """
    if alpha == 1:
        if alpha is True and b.dtype.kind != "b":
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
        return b
    if alpha is False and b.dtype.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if b.dtype.kind != "f" and isinstance(alpha, float):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    return (b * alpha).astype(b.dtype, copy=False)


class RsubScalar(Op):
    """``number - tensor``: PyTorch records it as ``RsubBackward1``, with the number kept
    as an option, not an input."""

    name = "RsubBackward1"
    formula = "∂(c−a)/∂a = −1"
    jvp_formula = "−ȧ"
    options_as = {"alpha": lambda node: 1}
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, number: Any = 0) -> np.ndarray:
        kind = a.dtype.kind
        if kind == "f" and number.__class__ in (int, float):
            return number - a  # a float tensor's type, as in PyTorch and (for a number) numpy
        if kind == "b" or isinstance(number, bool | np.bool_):
            raise _bool_subtraction_error(kind == "b" and isinstance(number, bool | np.bool_))
        return (number - a).astype(dtypes.result_type([number, constant(a)]), copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return -grad

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return -a_t


class Mul(Elementwise):
    formula = "∂(a·b)/∂a = b,  ∂(a·b)/∂b = a"
    jvp_formula = "ȧ·b + a·ḃ"
    # Saved in PyTorch's order, other first: what saved_tensors_hooks see, and the names of
    # grad_fn._saved_other and _saved_self.
    saved_as = ("other", "self")
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if ctx.needs_input_grad:  # recorded: keep what the derivative will use, as PyTorch
            needs_a, needs_b = ctx.needs_input_grad  # does (∂/∂a needs b, ∂/∂b needs a)
            ctx.save_for_backward(b if needs_a else None, a if needs_b else None)
        return a * b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        b, a = ctx.saved_tensors
        grad_a = grad * b if ctx.needs_input_grad[0] else None
        grad_b = grad * a if ctx.needs_input_grad[1] else None
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        a, b = ctx.primals
        return combine(scaled(a_t, lambda t: t * b), scaled(b_t, lambda t: a * t))


class Div(Elementwise):
    formula = "∂(a/b)/∂a = 1/b,  ∂(a/b)/∂b = −a/b²"
    jvp_formula = "(ȧ − (a/b)·ḃ)/b"
    saved_as = ("other", "self")  # PyTorch's order

    @staticmethod
    def computation_dtype(promoted: np.dtype) -> np.dtype:
        # True division of integers gives the default float type, as in PyTorch.
        return promoted if promoted.kind == "f" else dtypes.get_default_dtype().numpy

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        needs_b = ctx.needs_input_grad and ctx.needs_input_grad[1]  # only ∂/∂b needs a
        ctx.save_for_backward(b, a if needs_b else None)
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        b, a = ctx.saved_tensors
        grad_a = grad / b if ctx.needs_input_grad[0] else None
        # -g·(a/b)/b, not -g·a/b²: b² overflows (1e308² is inf) where a/b/b is still exact.
        grad_b = -grad * (a / b) / b if ctx.needs_input_grad[1] else None
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        _, b = ctx.primals
        return combine(a_t, scaled(b_t, lambda t: -(t * ctx.result))) / b


class Reciprocal(Op):
    formula = "∂(1/a)/∂a = −1/a²"
    jvp_formula = "−ȧ/a²"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.reciprocal(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return -grad * result * result

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        result = ctx.result
        return -a_t * result * result


class Neg(Op):
    formula = "∂(−a)/∂a = −1"
    jvp_formula = "−ȧ"
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.dtype == np.bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return np.negative(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return -grad

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return -a_t


class PowTensorScalar(Op):
    """``tensor ** number``."""

    name = "PowBackward0"
    formula = "∂(aⁿ)/∂a = n·aⁿ⁻¹"
    jvp_formula = "n·aⁿ⁻¹·ȧ"
    saved_as = ("self",)
    options_as = {"exponent": "exponent"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, exponent: Any = 1) -> np.ndarray:
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        dtype = dtypes.result_type([constant(a), exponent])
        base = a.astype(dtype, copy=False)
        if dtype.kind in "iu" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if exponent in (0.5, -0.5) and dtype.kind == "f":
            # PyTorch computes these as sqrt and 1/sqrt: (-inf) ** -0.5 is nan, not numpy's 0.
            with np.errstate(invalid="ignore", divide="ignore"):
                root = np.sqrt(base)
                return root if exponent == 0.5 else 1 / root
        if dtype.kind == "b":  # mask ** True is a mask in PyTorch; numpy's power gives int8
            return np.power(base, exponent).astype(dtype)
        return np.power(base, exponent)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        if ctx.exponent == 0:  # zeros, as PyTorch's (grad * 0 would give -0. and nan)
            return kept_where(False, grad)
        return grad * ctx.exponent * a ** (ctx.exponent - 1)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        (a,) = ctx.primals
        if ctx.exponent == 0:
            return kept_where(False, a_t)
        return a_t * ctx.exponent * a ** (ctx.exponent - 1)


def integer_power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a ** b`` elementwise, as numpy computes it, except that an integer raised to a
    negative integer power is what PyTorch makes of it (numpy refuses): 1 for 1, ±1 for −1
    (by the exponent's parity), 0 for any other base, the fraction's integer part.

    >>> integer_power(np.array([1, -1, -1, 2, 3]), np.array([-2, -3, -2, -1, 2]))
    array([ 1, -1,  1,  0,  9])
    """
    result_kind = np.result_type(a, b).kind
    if result_kind not in "iu" or b.dtype.kind != "i" or not (b < 0).any():
        return np.power(a, b)
    negative = b < 0
    powers = np.power(a, np.where(negative, 0, b))
    odd = (b & 1).astype(bool)
    of_negative = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, of_negative, powers).astype(powers.dtype, copy=False)


class PowTensorTensor(Elementwise):
    """``tensor ** tensor``."""

    name = "PowBackward1"
    formula = "∂(aᵇ)/∂a = b·aᵇ⁻¹,  ∂(aᵇ)/∂b = aᵇ·ln a"
    jvp_formula = "b·aᵇ⁻¹·ȧ + aᵇ·ln a·ḃ"
    saved_as = ("exponent", "self", "result")  # PyTorch's order

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "b" and b.dtype.kind == "b":
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        result = integer_power(a, b)
        ctx.save_for_backward(b, a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        b, a, result = ctx.saved_tensors
        grad_a = None
        if ctx.needs_input_grad[0]:
            # b = 0 has derivative 0 in a, even at a = 0 where b·a^(b−1) would be 0·inf.
            grad_a = where((b == 0)._array, 0.0, grad * b * a ** (b - 1))
        grad_b = None
        if ctx.needs_input_grad[1]:
            # 0 ** b has derivative 0 in b for b >= 0, where ln 0 would give nan.
            zero_base = ((a == 0) & (b >= 0))._array
            grad_b = where(zero_base, 0.0, grad * result * a.log())
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        a, b = ctx.primals
        along_a = along_b = None
        if a_t is not None:  # the same guards as backward's
            along_a = where((b == 0)._array, 0.0, a_t * b * a ** (b - 1))
        if b_t is not None:
            zero_base = ((a == 0) & (b >= 0))._array
            along_b = where(zero_base, 0.0, b_t * ctx.result * a.log())
        return combine(along_a, along_b)


class PowScalarTensor(Op):
    """``number ** tensor``."""

    name = "PowBackward2"
    formula = "∂(cᵃ)/∂a = cᵃ·ln c"
    jvp_formula = "cᵃ·ln c·ȧ"
    # The exponent is kept too, as PyTorch keeps it, though cᵃ·ln c needs only the result.
    saved_as = ("exponent", "result")
    options_as = {"self": "base"}

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, base: Any = 1) -> np.ndarray:
        dtype = dtypes.result_type([base, constant(a)])
        result = integer_power(np.asarray(base, dtype=dtype), a.astype(dtype, copy=False))
        ctx.save_for_backward(a, result)
        ctx.base = base
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        _, result = ctx.saved_tensors
        if ctx.base == 0:
            return grad * 0
        return grad * result * float(np.log(ctx.base))

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        if ctx.base == 0:
            return a_t * 0
        return a_t * ctx.result * float(np.log(ctx.base))
