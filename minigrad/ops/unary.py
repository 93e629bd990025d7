"""Functions of one tensor, elementwise: ``exp``, ``log``, ``sin``, ``tanh``, ``clamp``, ...
and ``where``, which picks elementwise between two."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..alike import kept_where
from ..function import Context
from ..tangents import selected
from .base import Elementwise, Op, as_float, constant

if TYPE_CHECKING:
    from ..tensor import Tensor


class Exp(Op):
    formula = "∂eᵃ/∂a = eᵃ"
    jvp_formula = "ȧ·eᵃ"
    saved_as = ("result",)
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.exp(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * result

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t * ctx.result


class Log(Op):
    formula = "∂ln a/∂a = 1/a"
    jvp_formula = "ȧ/a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad / a

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t / ctx.primals[0]


class Log10(Op):
    formula = "∂log₁₀ a/∂a = 1/(a · ln 10)"
    jvp_formula = "ȧ/(a·ln 10)"
    saved_as = ("self",)
    logarithm = staticmethod(np.log10)
    ln_base = math.log(10)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        # In float64, then rounded: numpy's float32 log10(100) is 2.0000002, PyTorch's 2.
        with np.errstate(divide="ignore", invalid="ignore"):
            return cls.logarithm(a.astype(np.float64)).astype(as_float(a).dtype)

    @classmethod
    def backward(cls, ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad / (a * cls.ln_base)

    @classmethod
    def jvp(cls, ctx: Context, a_t: Tensor) -> Tensor:
        return a_t / (ctx.primals[0] * cls.ln_base)


class Log2(Log10):
    formula = "∂log₂ a/∂a = 1/(a · ln 2)"
    jvp_formula = "ȧ/(a·ln 2)"
    logarithm = staticmethod(np.log2)
    ln_base = math.log(2)


class Sqrt(Op):
    formula = "∂√a/∂a = 1/(2√a)"
    jvp_formula = "ȧ/(2√a)"
    saved_as = ("result",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            result = np.sqrt(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad / (2 * result)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t / (2 * ctx.result)


class Abs(Op):
    formula = "∂|a|/∂a = sign(a)"
    jvp_formula = "ȧ·sign(a)"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.sign()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t * ctx.primals[0].sign()


class Sign(Op):
    """``sign(a)``: recorded, as in PyTorch, with a derivative that is zero everywhere (so
    that the derivative of ``abs``, which uses it, is itself differentiable)."""

    formula = "∂sign(a)/∂a = 0"
    jvp_formula = "0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "f":  # sign(nan) is 0 in PyTorch (numpy says nan)
            return np.where(np.isnan(a), 0, np.sign(a)).astype(a.dtype, copy=False)
        return np.sign(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return kept_where(False, grad)  # zeros, as PyTorch's (grad * 0 would give -0.)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return kept_where(False, a_t)


class Sin(Op):
    formula = "∂sin a/∂a = cos a"
    jvp_formula = "ȧ·cos a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.sin(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.cos()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t * ctx.primals[0].cos()


class Cos(Op):
    formula = "∂cos a/∂a = −sin a"
    jvp_formula = "−ȧ·sin a"
    saved_as = ("self",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.cos(as_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * -a.sin()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return a_t * -ctx.primals[0].sin()


class Tanh(Op):
    formula = "∂tanh a/∂a = 1 − tanh²a"
    jvp_formula = "ȧ·(1 − tanh²a)"
    saved_as = ("result",)
    backward_on_arrays = True

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.tanh(as_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * (1 - result * result)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        result = ctx.result
        return a_t * (1 - result * result)


class Clamp(Op):
    name = "ClampBackward1"
    formula = "∂clamp(a)/∂a = 1 inside [min, max], else 0"
    jvp_formula = "ȧ inside [min, max], else 0"
    saved_as = ("self",)
    options_as = {"min": lambda node: node.bounds[0], "max": lambda node: node.bounds[1]}

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, min: Any = None, max: Any = None, dtype: Any = None
    ) -> np.ndarray:
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        # numpy would make an int tensor clamped to 0.5 float64; PyTorch's promotion says
        # the default dtype (float32), as for `ints + 0.5`.
        return np.clip(a, min, max).astype(dtype or a.dtype, copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        low, high = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a._array >= low
        if high is not None:
            inside &= a._array <= high
        return kept_where(inside, grad)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        a, (low, high) = ctx.primals[0]._array, ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a >= low
        if high is not None:
            inside &= a <= high
        return kept_where(inside, a_t)


class Where(Elementwise):
    formula = "∂where(c, a, b)/∂a = c,  ∂/∂b = not c"
    jvp_formula = "ȧ where c, else ḃ"
    saved_as = ("condition",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, condition: Any = None) -> np.ndarray:
        ctx.save_for_backward(condition)
        ctx.condition = condition
        return np.where(condition, a, b).astype(np.result_type(a, b), copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        (keep,) = ctx.saved_tensors
        return kept_where(keep._array, grad), kept_where(~keep._array, grad)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        return selected(ctx.condition, a_t, b_t)


def where(condition: Any, a: Any, b: Any) -> Tensor:
    """``a`` where ``condition`` holds, else ``b``: ``minigrad.where(x > 0, x, 0.0)``."""
    from ..tensor import Tensor, _operand

    if isinstance(condition, Tensor):
        if condition._array.dtype != np.bool_:
            raise RuntimeError(
                "where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{dtypes.scalar_type_name(condition._array.dtype)}"
            )
        condition = condition._array
    else:
        condition = np.asarray(condition)
    return Where.apply(_operand(a), _operand(b), condition=condition)


class ClampTensor(Elementwise):
    """``a.clamp(min_tensor, max_tensor)``: bounds that are tensors (broadcast), each of
    which gets the gradient where it is the value chosen. A missing bound is a constant."""

    name = "ClampBackward0"
    formula = "∂clamp/∂a = 1 inside, ∂/∂min = 1 below min, ∂/∂max = 1 above max"
    jvp_formula = "ȧ inside, ṁin below, ṁax above"
    saved_as = ("max", "min", "self")  # PyTorch's order

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, low: np.ndarray, high: np.ndarray, given: Any = (True, True)
    ) -> np.ndarray:
        # A bound not given (an infinite constant here) is not saved, as in PyTorch.
        has_low, has_high = ctx.given = given
        ctx.save_for_backward(high if has_high else None, low if has_low else None, a)
        return np.minimum(np.maximum(a, low), high)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        high, low, a = ctx.saved_tensors
        nowhere = np.zeros(a.shape, dtype=bool)
        to_low = (a < low)._array if low is not None else nowhere
        to_high = nowhere
        if high is not None:
            to_high = (a > high)._array
            if low is not None:
                to_high = to_high | (low > high)._array  # min > max gives max, as in PyTorch
                # and min gets it only below a max above it: at min == max, or a nan max,
                # an input below min gives its gradient to no one, as in PyTorch.
                to_low = to_low & (low < high)._array
        # Inside only where both comparisons hold: a nan (in ``a`` or a bound) gets no gradient.
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside = inside & (a >= low)._array
        if high is not None:
            inside = inside & (a <= high)._array
        return kept_where(inside, grad), kept_where(to_low, grad), kept_where(to_high, grad)

    @staticmethod
    def jvp(
        ctx: Context, a_t: Tensor | None, low_t: Tensor | None, high_t: Tensor | None
    ) -> Tensor | None:
        # PyTorch's choices, which are not quite its backward's: with both bounds, a nan
        # (in ``a`` or a bound) keeps ``a``'s tangent; with one, a tie or a nan takes the
        # bound's.
        a, low, high = (t._array for t in ctx.primals)
        has_low, has_high = ctx.given
        if not has_high:
            return selected(a > low, a_t, low_t)
        if not has_low:
            return selected(a < high, a_t, high_t)
        between = selected(a < low, low_t, selected(a > high, high_t, a_t))
        return selected(low > high, high_t, between)  # min > max gives max


def clamp(a: Tensor, min: Any = None, max: Any = None, name: str = "clamp") -> Tensor:
    """``a.clamp(min, max)``: bounds both numbers (ClampBackward1) or both tensors
    (ClampBackward0), as PyTorch takes them; a number and a tensor together are refused
    (the message names the method called: ``clip``, ``clamp_``, ...)."""
    from ..tensor import Tensor

    as_tensors = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if not any(as_tensors):
        bounds = [b for b in (min, max) if b is not None]
        return Clamp.apply(a, min=min, max=max, dtype=dtypes.result_type([a, *bounds]))
    if not all(as_tensors):
        kinds = ", ".join(
            "Tensor" if isinstance(b, Tensor) else type(b).__name__ for b in (min, max)
        )
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got ({kinds}), but "
            "expected one of:\n * (Tensor min = None, Tensor max = None)\n"
            " * (Number min = None, Number max = None)"
        )
    far = np.inf if a._array.dtype.kind == "f" else np.iinfo(np.int64).max
    low = min if min is not None else constant(np.asarray(-far, dtype=a._array.dtype))
    high = max if max is not None else constant(np.asarray(far, dtype=a._array.dtype))
    return ClampTensor.apply(a, low, high, given=(min is not None, max is not None))


class MaskedFill(Op):
    """``a.masked_fill(mask, value)`` with a number: the filled places get no gradient."""

    formula = "∂/∂a = 0 where mask, else 1"
    jvp_formula = "ȧ where not mask, else 0"
    saved_as = ("mask",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, mask: Any = None, value: Any = 0) -> np.ndarray:
        ctx.save_for_backward(mask)
        ctx.mask = mask
        return np.where(mask, np.asarray(value).astype(a.dtype), a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (mask,) = ctx.saved_tensors
        # Filled, not multiplied by ~mask: a negative gradient times 0 would be -0.0 where
        # PyTorch's gradient is 0.
        return grad.masked_fill(mask, 0.0)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        return kept_where(~np.asarray(ctx.mask), a_t)


class MaskedFillTensor(Op):
    """``a.masked_fill(mask, value)`` with a 0-d tensor: it gets the gradients of the
    places it filled, summed."""

    name = "MaskedFillBackward1"
    formula = "∂/∂a = 0 where mask, else 1;  ∂/∂value = Σ over the mask"
    jvp_formula = "ȧ where not mask, v̇ where mask"
    saved_as = ("mask",)

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: np.ndarray, mask: Any = None) -> np.ndarray:
        ctx.save_for_backward(mask)
        ctx.mask = mask
        return np.where(mask, value.astype(a.dtype), a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        (mask,) = ctx.saved_tensors
        return grad.masked_fill(mask, 0.0), (grad * mask).sum()

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, value_t: Tensor | None) -> Tensor | None:
        return selected(ctx.mask, value_t, a_t)


def masked_fill(a: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``value`` where ``mask`` (a bool tensor broadcast to ``a``) is True, else ``a``."""
    from ..shapes import broadcast_shape
    from ..tensor import Tensor

    if mask._array.dtype != np.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{dtypes.c_type_name(mask._array.dtype)}"
        )
    if broadcast_shape(mask.shape, a.shape) != tuple(a.shape):  # PyTorch's message first
        raise RuntimeError(
            f"masked_fill: the mask of shape {list(mask.shape)} is larger than the tensor of "
            f"shape {list(a.shape)}"
        )
    filled = mask._array  # kept as given (broadcast by np.where), as PyTorch saves it
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        return MaskedFillTensor.apply(a, value, mask=filled)
    return MaskedFill.apply(a, mask=filled, value=value)
