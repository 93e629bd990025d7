"""Every differentiable operation, each forward beside its local derivative.

Each op is a ``Function`` (see ``minigrad.function``): ``forward`` computes with numpy
arrays, ``backward`` turns the gradient of the result into a gradient for each input,
written with Tensor operations so that it can be differentiated again. ``formula`` is the
local derivative in one line, as the backward stepper shows it. The engine sums gradients
of broadcast inputs back to their shapes, so the derivatives read as on paper.

The node names (``MulBackward0``, ``PowBackward1``, ...) are PyTorch's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import dtypes
from .function import Context, Function

if TYPE_CHECKING:
    from .tensor import Tensor


class Op(Function):
    """A built-in op: its node is named ``<ClassName>Backward0`` unless ``name`` says else."""

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
        if _keeps_the_first_float_type(args, arrays):  # the next most common one
            dtype = cls.computation_dtype(arrays[0].dtype)
        else:
            dtype = cls.computation_dtype(dtypes.result_type(list(args)))
        shape = arrays[0].shape
        for array in arrays:
            if array.shape != shape and array.ndim != 0:  # broadcasting: check it can
                broadcast_shape(*(b.shape for b in arrays))
                break
        return [b if b.dtype == dtype else b.astype(dtype) for b in arrays]

    @staticmethod
    def computation_dtype(promoted: np.dtype) -> np.dtype:
        return promoted


def _keeps_the_first_float_type(args: tuple[Tensor, ...], arrays: list[np.ndarray]) -> bool:
    """Whether the first operand is a float tensor and every other one either has its dtype,
    is a bool tensor (a mask) or is a number: then promotion keeps that dtype (neither a
    bool nor a Python number raises a float tensor's dtype)."""
    dtype = arrays[0].dtype
    if dtype.kind != "f" or args[0]._is_wrapped_number:
        return False
    for operand, array in zip(args, arrays):
        if array.dtype != dtype and array.dtype.kind != "b" and not operand._is_wrapped_number:
            return False
    return True


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape operands broadcast to, or PyTorch's error naming the dimension that clashes."""
    result: list[int] = []
    for shape in shapes:
        shape = tuple(shape)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for i in range(1, len(shape) + 1):
            a, b = result[-i], shape[-i]
            if a != b and a != 1 and b != 1:
                raise RuntimeError(
                    f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                    f"non-singleton dimension {len(result) - i}"
                )
            result[-i] = b if a == 1 else a  # not max(): a size 0 broadcasts with 1 to 0
    return tuple(result)


def _float(x: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, ... compute in the default float type, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(np.float32)


# ---------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------
class Add(Elementwise):
    """``a + b``, or ``a + alpha * b`` for ``a.add(b, alpha=...)``: one node, as in PyTorch."""

    formula = "∂(a+b)/∂a = 1,  ∂(a+b)/∂b = 1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx.alpha = alpha
        return a + _scaled(b, alpha)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return grad, grad if ctx.alpha == 1 else grad * ctx.alpha


class Sub(Elementwise):
    """``a - b``, or ``a - alpha * b`` for ``a.sub(b, alpha=...)``."""

    formula = "∂(a−b)/∂a = 1,  ∂(a−b)/∂b = −1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        ctx.alpha = alpha
        return a - _scaled(b, alpha)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return grad, -grad if ctx.alpha == 1 else grad * -ctx.alpha


def _scaled(b: np.ndarray, alpha: Any) -> np.ndarray:
    if alpha == 1:
        return b
    if b.dtype.kind != "f" and isinstance(alpha, float):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    return (b * alpha).astype(b.dtype, copy=False)


class Rsub(Op):
    """``number - tensor``: PyTorch records it as ``RsubBackward1``, with the number kept
    as an option, not an input."""

    name = "RsubBackward1"
    formula = "∂(c−a)/∂a = −1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, number: Any = 0) -> np.ndarray:
        return (number - a).astype(dtypes.result_type([number, _like(a)]), copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return -grad


class Mul(Elementwise):
    formula = "∂(a·b)/∂a = b,  ∂(a·b)/∂b = a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        grad_a = grad * b if ctx.needs_input_grad[0] else None
        grad_b = grad * a if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class Div(Elementwise):
    formula = "∂(a/b)/∂a = 1/b,  ∂(a/b)/∂b = −a/b²"

    @staticmethod
    def computation_dtype(promoted: np.dtype) -> np.dtype:
        # True division of integers gives the default float type, as in PyTorch.
        return promoted if promoted.kind == "f" else dtypes.float32.numpy

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        grad_a = grad / b if ctx.needs_input_grad[0] else None
        # -g·(a/b)/b, not -g·a/b²: b² overflows (1e308² is inf) where a/b/b is still exact.
        grad_b = -grad * (a / b) / b if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class Reciprocal(Op):
    formula = "∂(1/a)/∂a = −1/a²"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.reciprocal(_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return -grad * result * result


class Neg(Op):
    formula = "∂(−a)/∂a = −1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        return np.negative(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return -grad


class PowScalar(Op):
    """``tensor ** number``."""

    name = "PowBackward0"
    formula = "∂(aⁿ)/∂a = n·aⁿ⁻¹"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, exponent: Any = 1) -> np.ndarray:
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        dtype = dtypes.result_type([_like(a), exponent])
        base = a.astype(dtype, copy=False)
        if exponent in (0.5, -0.5) and dtype.kind == "f":
            # PyTorch computes these as sqrt and 1/sqrt: (-inf) ** -0.5 is nan, not numpy's 0.
            with np.errstate(invalid="ignore", divide="ignore"):
                root = np.sqrt(base)
                return root if exponent == 0.5 else 1 / root
        return np.power(base, exponent)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        if ctx.exponent == 0:
            return grad * 0
        return grad * ctx.exponent * a ** (ctx.exponent - 1)


class Pow(Elementwise):
    """``tensor ** tensor``."""

    name = "PowBackward1"
    formula = "∂(aᵇ)/∂a = b·aᵇ⁻¹,  ∂(aᵇ)/∂b = aᵇ·ln a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        result = np.power(a, b)
        ctx.save_for_backward(a, b, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b, result = ctx.saved_tensors
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


class PowNumberBase(Op):
    """``number ** tensor``."""

    name = "PowBackward2"
    formula = "∂(cᵃ)/∂a = cᵃ·ln c"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, base: Any = 1) -> np.ndarray:
        dtype = dtypes.result_type([base, _like(a)])
        result = np.power(np.asarray(base, dtype=dtype), a.astype(dtype, copy=False))
        ctx.save_for_backward(result)
        ctx.base = base
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        if ctx.base == 0:
            return grad * 0
        return grad * result * float(np.log(ctx.base))


def _like(array: np.ndarray) -> Tensor:
    from .tensor import Tensor

    return Tensor(array)


# ---------------------------------------------------------------------------------------
# Functions of one tensor
# ---------------------------------------------------------------------------------------
class Exp(Op):
    formula = "∂eᵃ/∂a = eᵃ"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.exp(_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * result


class Log(Op):
    formula = "∂ln a/∂a = 1/a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad / a


class Sqrt(Op):
    formula = "∂√a/∂a = 1/(2√a)"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            result = np.sqrt(_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad / (2 * result)


class Abs(Op):
    formula = "∂|a|/∂a = sign(a)"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.sign()


class Sign(Op):
    """``sign(a)``: recorded, as in PyTorch, with a derivative that is zero everywhere (so
    that the derivative of ``abs``, which uses it, is itself differentiable)."""

    formula = "∂sign(a)/∂a = 0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "f":  # sign(nan) is 0 in PyTorch (numpy says nan)
            return np.where(np.isnan(a), 0, np.sign(a)).astype(a.dtype, copy=False)
        return np.sign(a)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad * 0


class Sin(Op):
    formula = "∂sin a/∂a = cos a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.sin(_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * a.cos()


class Cos(Op):
    formula = "∂cos a/∂a = −sin a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        ctx.save_for_backward(a)
        return np.cos(_float(a))

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad * -a.sin()


class Tanh(Op):
    formula = "∂tanh a/∂a = 1 − tanh²a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.tanh(_float(a))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * (1 - result * result)


class Sigmoid(Op):
    formula = "∂σ(a)/∂a = σ(a)·(1 − σ(a))"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        a = _float(a)
        # Written with exp(-|a|) so that neither branch overflows for large |a|.
        e = np.exp(-np.abs(a))
        result = np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad * result * (1 - result)


class Relu(Op):
    formula = "∂relu(a)/∂a = 1 if a > 0 else 0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        result = np.maximum(a, 0).astype(a.dtype, copy=False)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        # "not <= 0" rather than "> 0": a nan passes its gradient on, as in PyTorch.
        return grad * ~(result <= 0)


class Clamp(Op):
    name = "ClampBackward1"
    formula = "∂clamp(a)/∂a = 1 inside [min, max], else 0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, min: Any = None, max: Any = None) -> np.ndarray:
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        return np.clip(a, min, max)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        low, high = ctx.bounds
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside &= a._array >= low
        if high is not None:
            inside &= a._array <= high
        return grad * _like(inside)


class Softmax(Op):
    formula = "∂softmax/∂a: s·(g − Σ g·s)"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = -1) -> np.ndarray:
        _dims(dim, a.ndim)  # PyTorch's IndexError for a dim out of range
        a = _float(a)
        shifted = np.exp(a - a.max(axis=dim, keepdims=True))
        result = shifted / shifted.sum(axis=dim, keepdims=True)
        ctx.save_for_backward(result)
        ctx.dim = dim
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return result * (grad - (grad * result).sum(dim=ctx.dim, keepdim=True))


class LogSoftmax(Op):
    formula = "∂log_softmax/∂a: g − softmax·Σ g"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = -1) -> np.ndarray:
        _dims(dim, a.ndim)  # PyTorch's IndexError for a dim out of range
        a = _float(a)
        shifted = a - a.max(axis=dim, keepdims=True)
        result = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        ctx.save_for_backward(result)
        ctx.dim = dim
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        (result,) = ctx.saved_tensors
        return grad - result.exp() * grad.sum(dim=ctx.dim, keepdim=True)


class Where(Elementwise):
    formula = "∂where(c, a, b)/∂a = c,  ∂/∂b = not c"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray, condition: Any = None) -> np.ndarray:
        ctx.condition = condition
        return np.where(condition, a, b).astype(np.result_type(a, b), copy=False)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        keep = _like(np.asarray(ctx.condition))
        return grad * keep, grad * ~keep


def where(condition: Any, a: Any, b: Any) -> Tensor:
    """``a`` where ``condition`` holds, else ``b``: ``minigrad.where(x > 0, x, 0.0)``."""
    from .tensor import Tensor, _operand

    condition = condition._array if isinstance(condition, Tensor) else np.asarray(condition)
    return Where.apply(_operand(a), _operand(b), condition=condition)


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------
def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` as a tuple of non-negative axes, with PyTorch's error for one out of range."""
    dims = tuple(range(ndim)) if dim is None else (dim if isinstance(dim, tuple | list) else (dim,))
    normalized = []
    for d in dims:
        size = max(ndim, 1)
        if not -size <= d < size:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], "
                f"but got {d})"
            )
        normalized.append(d % size)
    return tuple(normalized)


def _unreduce(grad: Tensor, dims: tuple[int, ...], keepdim: bool, shape: tuple[int, ...]):
    """Undo a reduction's shape change: put back the reduced dims, then broadcast. Leading
    dims need no putting back, broadcasting adds them (a full sum's gradient just expands)."""
    if not keepdim and sorted(dims) != list(range(len(dims))):
        grad = grad.reshape(tuple(1 if i in dims else n for i, n in enumerate(shape)))
    return grad.expand(shape)


class Sum(Op):
    formula = "∂(Σ a)/∂aᵢ = 1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if dim is not None:
            ctx.node_name = "SumBackward1"
        ctx.dims, ctx.keepdim, ctx.shape = _dims(dim, a.ndim), keepdim, a.shape
        dtype = np.int64 if a.dtype.kind in "biu" else None
        return np.sum(a, axis=ctx.dims if a.ndim else None, keepdims=keepdim, dtype=dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape)


class Mean(Op):
    formula = "∂(mean a)/∂aᵢ = 1/n"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None, keepdim: bool = False):
        if a.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {dtypes.scalar_type_name(a.dtype)}"
            )
        if dim is not None:
            ctx.node_name = "MeanBackward1"
        ctx.dims, ctx.keepdim, ctx.shape = _dims(dim, a.ndim), keepdim, a.shape
        ctx.count = int(np.prod([a.shape[d] for d in ctx.dims])) if a.ndim else 1
        return np.mean(a, axis=ctx.dims if a.ndim else None, keepdims=keepdim).astype(a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape) / ctx.count


class MaxAll(Op):
    """``x.max()`` over all elements; ties share the gradient evenly, as in PyTorch."""

    name = "MaxBackward1"
    formula = "∂max/∂aᵢ = 1/k at the k maxima, else 0"
    reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.size == 0:
            raise RuntimeError(
                f"{cls.reduce.__name__}(): Expected reduction dim to be specified for "
                "input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )
        result = np.asarray(cls.reduce(a))
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        a, result = ctx.saved_tensors
        # A nan is the max (or min) of anything it is in, as in PyTorch: it gets the gradient.
        at_extreme = (a == result)._array | (np.isnan(a._array) & np.isnan(result._array))
        return grad * _like((at_extreme / at_extreme.sum()).astype(a._array.dtype))


class MinAll(MaxAll):
    name = "MinBackward1"
    formula = "∂min/∂aᵢ = 1/k at the k minima, else 0"
    reduce = staticmethod(np.min)


class MaxDim(Op):
    """``x.max(dim)``: values and the index of each; the gradient goes to that index."""

    name = "MaxBackward0"
    formula = "∂max/∂aᵢ = 1 at the chosen index, else 0"
    pick = staticmethod(np.argmax)

    @classmethod
    def forward(cls, ctx: Context, a: np.ndarray, dim: int = 0, keepdim: bool = False):
        (axis,) = _dims(dim, a.ndim)
        if a.ndim == 0:
            indices = np.zeros((), dtype=np.int64)
            values = a.copy()
        else:
            indices = cls.pick(a, axis=axis, keepdims=True)
            values = np.take_along_axis(a, indices, axis=axis)
            if not keepdim:
                values, indices = values.squeeze(axis), indices.squeeze(axis)
        ctx.axis, ctx.keepdim, ctx.shape = axis, keepdim, a.shape
        ctx.indices = indices
        return values

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        if not ctx.shape:
            return grad
        indices = ctx.indices if ctx.keepdim else np.expand_dims(ctx.indices, ctx.axis)
        positions = np.arange(ctx.shape[ctx.axis]).reshape(
            [-1 if i == ctx.axis else 1 for i in range(len(ctx.shape))]
        )
        chosen = _like(positions == indices)
        grad = grad if ctx.keepdim else grad.unsqueeze(ctx.axis)
        return grad * chosen


class MinDim(MaxDim):
    name = "MinBackward0"
    formula = "∂min/∂aᵢ = 1 at the chosen index, else 0"
    pick = staticmethod(np.argmin)


# ---------------------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------------------
class Mm(Op):
    formula = "∂(A@B)/∂A = G@Bᵀ,  ∂(A@B)/∂B = Aᵀ@G"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                f"{b.shape[0]}x{b.shape[1]})"
            )
        if a.dtype != b.dtype:
            names = " != ".join(dtypes.c_type_name(x.dtype) for x in (a, b))
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {names}")
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        grad_a = grad @ b.t() if ctx.needs_input_grad[0] else None
        grad_b = a.t() @ grad if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class Mv(Op):
    formula = "∂(A@v)/∂A = g vᵀ,  ∂(A@v)/∂v = Aᵀ g"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, v: np.ndarray) -> np.ndarray:
        if a.shape[1] != v.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                f"vec ({v.shape[0]})"
            )
        if a.dtype != v.dtype:
            mat, vec = dtypes.scalar_type_name(a.dtype), dtypes.scalar_type_name(v.dtype)
            raise RuntimeError(
                f"addmv input tensors must have the same dtype, but got {vec}, {mat}, and {vec}"
            )
        ctx.save_for_backward(a, v)
        return a @ v

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, v = ctx.saved_tensors
        grad_a = grad.unsqueeze(1) * v if ctx.needs_input_grad[0] else None
        grad_v = a.t() @ grad if ctx.needs_input_grad[1] else None
        return grad_a, grad_v


class Dot(Op):
    formula = "∂(a·b)/∂a = b,  ∂(a·b)/∂b = a"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.shape != b.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                f"[{b.shape[0]}] to have the same number of elements, but got {a.shape[0]} "
                f"and {b.shape[0]} elements respectively"
            )
        if a.dtype != b.dtype:
            first, second = dtypes.scalar_type_name(a.dtype), dtypes.scalar_type_name(b.dtype)
            raise RuntimeError(
                f"dot : expected both vectors to have same dtype, but found {first} and {second}"
            )
        ctx.save_for_backward(a, b)
        return np.asarray(a @ b)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        return grad * b, grad * a


class Bmm(Op):
    """Batched products: ``matmul`` gives it two 3-d operands with the same batch size."""

    formula = "∂(A@B)/∂A = G@Bᵀ,  ∂(A@B)/∂B = Aᵀ@G"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.shape[-1] != b.shape[-2]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{a.shape[0]}, {a.shape[-1]}] but got: [{b.shape[0]}, {b.shape[-2]}]."
            )
        broadcast_shape(a.shape[:-2], b.shape[:-2])
        if a.dtype != b.dtype:
            raise RuntimeError(
                f"expected scalar type {dtypes.scalar_type_name(a.dtype)} but found "
                f"{dtypes.scalar_type_name(b.dtype)}"
            )
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        grad_a = Bmm.apply(grad, b.transpose(-1, -2)) if ctx.needs_input_grad[0] else None
        grad_b = Bmm.apply(a.transpose(-1, -2), grad) if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b``, decomposed into the ops PyTorch's ``matmul`` records for each case.

    1-d and 2-d operands are one ``dot``, ``mv`` or ``mm``. When one operand has batch
    dimensions and the other has none, PyTorch folds the batch into the rows of one ``mm``
    (or ``mv``) where that costs no copy, or where the other operand requires grad (see
    ``_should_fold``); everything else is expanded to common batch dimensions and goes
    through one ``bmm``.
    """
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D"
        )
    if a.ndim == 1 and b.ndim == 1:
        return Dot.apply(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return Mv.apply(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return SqueezeInPlace.apply(Mm.apply(a.unsqueeze(0), b), dim=0)
    if a.ndim == 2 and b.ndim == 2:
        return Mm.apply(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    if a.ndim == 3 and b.ndim == 3 and a.shape[0] != b.shape[0]:
        # A batch of one that requires grad is squeezed, so that its gradient is no sum
        # over the other operand's batch.
        if a.shape[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if b.shape[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    return _batched_matmul(a, b)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """PyTorch's rule (``should_fold`` in ATen's LinearAlgebra.cpp) for folding the larger
    operand's batch into one matrix."""
    a_larger = a.ndim >= b.ndim
    # Only looked at, never recorded: the larger operand as it would be folded.
    array = a._array if a_larger else np.swapaxes(b._array, -1, -2)
    smaller = b if a_larger else a
    if not (array.ndim >= 3 and smaller.ndim <= 2):
        return False
    if smaller.requires_grad:  # folding keeps the smaller one's gradient a plain mm
        return True
    if a.ndim == 2:  # folding b would need a transposed copy of the result
        return False
    if array.size == 0:
        return True
    # The batch dimensions fold into the rows without a copy only if they are contiguous.
    strides = [stride // array.itemsize for stride in array.strides]
    return all(strides[i] == strides[i + 1] * array.shape[i + 1] for i in range(array.ndim - 2))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    transpose = b.ndim > a.ndim  # then compute (bᵀ @ aᵀ)ᵀ, folding bᵀ
    larger = b.mT if transpose else a
    smaller = (a.t() if a.ndim == 2 else a) if transpose else b
    output_shape = list(larger.shape[:-1])
    folded = larger.reshape(int(np.prod(output_shape, dtype=np.int64)), larger.shape[-1])
    if smaller.ndim == 1:
        return UnsafeView.apply(Mv.apply(folded, smaller), shape=tuple(output_shape))
    output_shape.append(smaller.shape[1])
    output = UnsafeView.apply(Mm.apply(folded, smaller), shape=tuple(output_shape))
    return output.mT.contiguous() if transpose else output


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    n = a.shape[-2] if a.ndim > 1 else 1
    m1 = a.shape[-1]
    m2 = b.shape[-2] if b.ndim > 1 else b.shape[0]
    p = b.shape[-1] if b.ndim > 1 else 1
    batch = list(broadcast_shape(a.shape[: max(a.ndim - 2, 0)], b.shape[: max(b.ndim - 2, 0)]))
    batch_size = int(np.prod(batch, dtype=np.int64))
    a_batched = a.expand(*batch, n, m1).reshape(batch_size, n, m1)
    vector_rhs = b.ndim == 1
    if vector_rhs:
        b_batched = b.expand(*batch, m2).reshape(batch_size, m2).unsqueeze(2)
    else:
        b_batched = b.expand(*batch, m2, p).reshape(batch_size, m2, p)
    output_shape = batch + ([n] if a.ndim > 1 else []) + ([p] if b.ndim > 1 else [])
    product = Bmm.apply(a_batched, b_batched)
    if vector_rhs:
        product = product.squeeze(-1)
    return UnsafeView.apply(product, shape=tuple(output_shape))


# ---------------------------------------------------------------------------------------
# Shapes: these return views of their input's memory, as in PyTorch
# ---------------------------------------------------------------------------------------
class View(Op):
    is_view = True
    formula = "reshape: the gradient is reshaped back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        ctx.shape = a.shape
        try:
            return a.reshape(shape)
        except ValueError:
            shown = list(shape)
            raise RuntimeError(f"shape '{shown}' is invalid for input of size {a.size}") from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.reshape(ctx.shape)


class ReshapeAlias(View):
    """``reshape`` of a tensor that is not contiguous (a transpose) but can still be viewed
    in the new shape: PyTorch records this view under its own name."""

    name = "ReshapeAliasBackward0"


class UnsafeView(View):
    """The second half of ``reshape`` where no view can do: PyTorch copies the tensor
    (CloneBackward0), then views the copy, which nothing else can see (so: not a view)."""

    is_view = False
    name = "UnsafeViewBackward0"


def can_view(array: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether ``array``'s memory can be read in ``shape`` without copying: numpy's rule,
    which is PyTorch's (a transposed matrix cannot be flattened in place)."""
    viewed = array.view()
    try:
        viewed.shape = shape  # numpy refuses, rather than copies, when strides cannot do it
    except AttributeError:
        return False
    return True


class Transpose(Op):
    is_view = True
    formula = "transpose: the gradient is transposed back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim0: int = 0, dim1: int = 1) -> np.ndarray:
        ctx.dims = _dims((dim0, dim1), a.ndim) if a.ndim else (0, 0)
        return np.swapaxes(a, *ctx.dims) if a.ndim else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.transpose(*ctx.dims)


class T(Op):
    is_view = True
    formula = "transpose: the gradient is transposed back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        if a.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
        return a.T

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.t()


class Permute(Op):
    is_view = True
    formula = "permute: the gradient is permuted back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dims: tuple[int, ...] = ()) -> np.ndarray:
        if len(dims) != a.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                f"the length of the desired ordering of dimensions i.e. input.dim() = {a.ndim} "
                f"is not equal to len(dims) = {len(dims)}"
            )
        ctx.dims = _dims(tuple(dims), a.ndim)
        return np.transpose(a, ctx.dims)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.permute(*np.argsort(ctx.dims).tolist())


class Unsqueeze(Op):
    is_view = True
    formula = "unsqueeze: the gradient is squeezed back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: int = 0) -> np.ndarray:
        size = a.ndim + 1
        if not -size <= dim < size:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], "
                f"but got {dim})"
            )
        ctx.dim = dim % size
        return np.expand_dims(a, ctx.dim)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.squeeze(ctx.dim)


class Squeeze(Op):
    is_view = True
    formula = "squeeze: the gradient is reshaped back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        ctx.shape = a.shape
        if dim is None:
            return np.squeeze(a)
        ctx.node_name = "SqueezeBackward1"
        dims = tuple(d for d in _dims(dim, a.ndim) if a.ndim and a.shape[d] == 1)
        return np.squeeze(a, axis=dims) if dims else a.view()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.reshape(ctx.shape)


class SqueezeInPlace(Squeeze):
    """The squeeze that ends ``vector @ matrix``: PyTorch squeezes its temporary product in
    place (``squeeze_``), a node named SqueezeBackward4."""

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dim: Any = None) -> np.ndarray:
        result = Squeeze.forward(ctx, a, dim=dim)
        ctx.node_name = "SqueezeBackward4"
        return result


class Expand(Op):
    is_view = True
    formula = "expand: the gradient is summed over the copies"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, shape: tuple[int, ...] = ()) -> np.ndarray:
        shape = tuple(
            a.shape[i - (len(shape) - a.ndim)] if s == -1 else s for i, s in enumerate(shape)
        )
        ctx.shape = a.shape
        try:
            return np.broadcast_to(a, shape)
        except ValueError:
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[-1]}) must match the existing size "
                f"({a.shape[-1] if a.ndim else 1}) at non-singleton dimension "
                f"{len(shape) - 1}.  Target sizes: {list(shape)}.  Tensor sizes: {list(a.shape)}"
            ) from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.sum_to_size(ctx.shape)


# ---------------------------------------------------------------------------------------
# Indexing, joining, copying
# ---------------------------------------------------------------------------------------
class Index(Op):
    """``x[index]``: basic indexing (``x[0]``, ``x[:, 1:]``) is a view; advanced indexing
    (lists, tensors, masks) copies. The gradient goes back to the places that were read."""

    is_view = True  # basic indexing shares memory; Tensor._from_op checks that it does
    formula = "index: the gradient is scattered back to the indexed places"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, index: Any = None) -> np.ndarray:
        ctx.index, ctx.shape = index, a.shape
        ctx.node_name = _index_node_name(index)
        try:
            return a[index]
        except IndexError as error:
            raise IndexError(_index_message(error, a.shape)) from None

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return IndexAdd.apply(grad, shape=ctx.shape, index=ctx.index)


def index(a: Tensor, index: Any) -> Tensor:
    """``a[index]``, recorded as PyTorch records it: one view per item of a basic index
    (``m[0, 1:]`` is a SliceBackward0 after a SelectBackward0, ``None`` an unsqueeze, a full
    ``:`` inside a tuple nothing at all), then one IndexBackward0 for the advanced part
    (lists, tensors, masks), applied to that view."""
    index = normalize_index(index)
    if isinstance(index, slice):  # a lone slice is recorded even when it keeps everything
        return Index.apply(a, index=index)
    parts = index if isinstance(index, tuple) else (index,)
    if not all(_is_chainable(p) for p in parts):
        return Index.apply(a, index=index)
    specified = sum(
        (p.ndim if p.dtype == np.bool_ else 1) if isinstance(p, np.ndarray) else 1
        for p in parts
        if p is not None and p is not Ellipsis
    )
    if specified > a.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a.ndim}")
    # dim: where the next item applies in the result so far; source: the same place in `a`,
    # which error messages name.
    result, dim, source, advanced = a, 0, 0, []
    for part in parts:
        if part is Ellipsis:
            dim, source = dim + a.ndim - specified, source + a.ndim - specified
        elif part is None:
            result, dim = Unsqueeze.apply(result, dim=dim), dim + 1
        elif isinstance(part, np.ndarray):
            advanced.append((dim, part))
            covered = part.ndim if part.dtype == np.bool_ else 1
            dim, source = dim + covered, source + covered
        elif isinstance(part, slice):
            if not _slice_keeps_everything(part, result.shape[dim]):
                result = Index.apply(result, index=(slice(None),) * dim + (part,))
            dim, source = dim + 1, source + 1
        else:  # an integer selects, and its dimension disappears
            check_in_bounds(part, result.shape[dim], source)
            result, source = Index.apply(result, index=(slice(None),) * dim + (part,)), source + 1
    if advanced:
        positions: list[Any] = []
        for where, array in advanced:
            positions += [slice(None)] * (where - len(positions)) + [array]
        return Index.apply(result, index=tuple(positions))
    return Index.apply(a, index=Ellipsis) if result is a else result


def _slice_keeps_everything(part: slice, size: int) -> bool:
    """Whether PyTorch skips this slice inside a tuple (``x[:, 0:]``, ``x[..., 0:size]``).
    It decides on the start as written, not on what it selects: ``x[..., 1:]`` of an empty
    dimension still records a SliceBackward0."""
    if part.step not in (None, 1) or part.start not in (None, 0):
        return False
    if part.stop is None:
        return True
    return (part.stop + size if part.stop < 0 else part.stop) >= size


def _is_chainable(part: Any) -> bool:
    if isinstance(part, bool | np.bool_):
        return False  # x[True] adds a dimension; left to numpy in one step
    return (
        part is None or part is Ellipsis or isinstance(part, int | np.integer | slice | np.ndarray)
    )


def _index_node_name(index: Any) -> str:
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, np.ndarray | list) for p in parts):
        return "IndexBackward0"
    last = [p for p in parts if p is not None and p is not Ellipsis]
    return (
        "SelectBackward0"
        if last and isinstance(last[-1], int | np.integer)
        else ("SliceBackward0" if last else "AliasBackward0")
    )


def check_in_bounds(index: int, size: int, dim: int) -> None:
    """PyTorch's IndexError for an integer index outside a dimension of ``size``."""
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")


def _index_message(error: IndexError, shape: tuple[int, ...]) -> str:
    text = str(error)
    if "out of bounds" in text:
        # numpy: "index 5 is out of bounds for axis 0 with size 3"
        words = text.split()
        index, axis, size = words[1], words[8], words[-1]
        return f"index {index} is out of bounds for dimension {axis} with size {size}"
    if "too many indices" in text:
        return f"too many indices for tensor of dimension {len(shape)}"
    return text


class IndexAdd(Op):
    """The gradient of indexing: zeros of the input's shape, with the gradient added at the
    indexed places (added, not assigned, so an index read twice gets both gradients)."""

    name = "IndexPutBackward0"
    formula = "scatter: the gradient is read back at the indexed places"

    @staticmethod
    def forward(ctx: Context, grad: np.ndarray, shape: Any = (), index: Any = None):
        ctx.index = index
        result = np.zeros(shape, dtype=grad.dtype)
        np.add.at(result, index, grad)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return Index.apply(grad, index=ctx.index)


def normalize_index(index: Any) -> Any:
    """Tensors inside an index become numpy arrays; booleans stay masks."""
    from .tensor import Tensor

    def one(part: Any) -> Any:
        if isinstance(part, Tensor):
            return part._array if part.ndim else part._array.item()
        if isinstance(part, list):
            return np.asarray([one(p) for p in part])
        return part

    return tuple(one(p) for p in index) if isinstance(index, tuple) else one(index)


class IndexPut(Op):
    """``x[index] = value``, as an op: the gradient of ``x`` is blocked at the overwritten
    places, and ``value`` receives the gradient read there."""

    formula = "x[i] = v: ∂/∂x = 0 at i, else 1;  ∂/∂v = the gradient at i"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: np.ndarray, index: Any = None):
        index = normalize_index(index)
        ctx.index, ctx.value_shape = index, value.shape
        result = a.copy()
        result[index] = value
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        kept = np.ones(grad.shape, dtype=bool)
        kept[ctx.index] = False
        return grad * _like(kept), Index.apply(grad, index=ctx.index)


class Cat(Op):
    formula = "cat: each input gets its slice of the gradient"

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        if not arrays:
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        (ctx.axis,) = _dims(dim, arrays[0].ndim)
        first = arrays[0]
        for number, a in enumerate(arrays[1:], start=1):
            if a.ndim != first.ndim:
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {first.ndim} and {a.ndim}"
                )
            for d, (expected, got) in enumerate(zip(first.shape, a.shape)):
                if d != ctx.axis and expected != got:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {ctx.axis}. Expected "
                        f"size {expected} but got size {got} for tensor number {number} in the "
                        "list."
                    )
        ctx.sizes = [a.shape[ctx.axis] for a in arrays]
        return np.concatenate(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, ...]:
        grads, start = [], 0
        for size in ctx.sizes:
            index = (slice(None),) * ctx.axis + (slice(start, start + size),)
            grads.append(grad[index])
            start += size
        return tuple(grads)


class Stack(Op):
    formula = "stack: each input gets its slice of the gradient"

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        if not arrays:
            raise RuntimeError("stack expects a non-empty TensorList")
        if len({a.shape for a in arrays}) > 1:
            bad = next(i for i, a in enumerate(arrays) if a.shape != arrays[0].shape)
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(arrays[0].shape)} "
                f"at entry 0 and {list(arrays[bad].shape)} at entry {bad}"
            )
        (ctx.axis,) = _dims(dim, arrays[0].ndim + 1)
        ctx.count = len(arrays)
        return np.stack(arrays, axis=ctx.axis)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, ...]:
        return tuple(grad.select(ctx.axis, i) for i in range(ctx.count))


class ToCopy(Op):
    """A change of dtype: the gradient is cast back to the input's dtype."""

    formula = "cast: the gradient is cast back"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, dtype: Any = None) -> np.ndarray:
        ctx.dtype = a.dtype
        return a.astype(dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad.to(ctx.dtype)


class Clone(Op):
    formula = "clone: the gradient passes through"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray) -> np.ndarray:
        return a.copy()

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad


class Fill(Op):
    """``x.fill_(value)`` recorded: the old values no longer matter, so no gradient flows."""

    name = "FillBackward2"  # PyTorch's node for fill_ with a number
    formula = "fill: ∂/∂a = 0"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, value: Any = 0) -> np.ndarray:
        return np.full_like(a, value)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor:
        return grad * 0


class Zero(Fill):
    """``x.zero_()`` recorded: PyTorch's own node for it."""

    name = "ZeroBackward0"
    formula = "zero: ∂/∂a = 0"


class CopyFrom(Op):
    """``x.copy_(source)`` recorded: the gradient goes to ``source``, none to old ``x``."""

    name = "CopyBackwards"
    formula = "copy: ∂/∂x = 0, ∂/∂source = 1"

    @staticmethod
    def forward(ctx: Context, a: np.ndarray, source: np.ndarray) -> np.ndarray:
        return np.broadcast_to(source, a.shape).astype(a.dtype)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor, Tensor]:
        return grad * 0, grad
