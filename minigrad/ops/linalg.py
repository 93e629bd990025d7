"""Matrix products, and ``matmul``: which of them PyTorch records for each pair of shapes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes
from ..alike import transposed
from ..function import Context
from ..shapes import broadcast_shape, reduced_dims
from ..tangents import combine, scaled
from .base import Op, constant
from .unary import where
from .views import SqueezeInPlace, UnsafeView

if TYPE_CHECKING:
    from ..tensor import Tensor


def kept_for_the_other(ctx: Context, a: np.ndarray, b: np.ndarray) -> tuple[Any, Any]:
    """The two factors of a product as it saves them: each only if the other needs a
    gradient (∂(ab)/∂a needs b alone), as PyTorch keeps them; ``None`` in its place else."""
    needs_a, needs_b = ctx.needs_input_grad or (False, False)
    return (a if needs_b else None), (b if needs_a else None)


class Mm(Op):
    formula = "∂(A@B)/∂A = G@Bᵀ,  ∂(A@B)/∂B = Aᵀ@G"
    jvp_formula = "Ȧ@B + A@Ḃ"
    saved_as = ("mat2", "self")  # PyTorch's order
    backward_on_arrays = True

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
        kept_a, kept_b = kept_for_the_other(ctx, a, b)
        ctx.save_for_backward(kept_b, kept_a)  # mat2 first, as PyTorch saves them
        return a @ b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        b, a = ctx.saved_tensors
        grad_a = grad @ transposed(b) if ctx.needs_input_grad[0] else None
        grad_b = transposed(a) @ grad if ctx.needs_input_grad[1] else None
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        a, b = ctx.primals
        return combine(scaled(a_t, lambda t: Mm.apply(t, b)), scaled(b_t, lambda t: Mm.apply(a, t)))


class Mv(Op):
    formula = "∂(A@v)/∂A = g vᵀ,  ∂(A@v)/∂v = Aᵀ g"
    jvp_formula = "Ȧ@v + A@v̇"
    saved_as = ("self", "vec")

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
        ctx.save_for_backward(*kept_for_the_other(ctx, a, v))
        return a @ v

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, v = ctx.saved_tensors
        grad_a = grad.unsqueeze(1) * v if ctx.needs_input_grad[0] else None
        grad_v = a.t() @ grad if ctx.needs_input_grad[1] else None
        return grad_a, grad_v

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, v_t: Tensor | None) -> Tensor | None:
        a, v = ctx.primals
        return combine(scaled(a_t, lambda t: Mv.apply(t, v)), scaled(v_t, lambda t: Mv.apply(a, t)))


class Dot(Op):
    formula = "∂(a·b)/∂a = b,  ∂(a·b)/∂b = a"
    jvp_formula = "ȧ·b + a·ḃ"
    saved_as = ("self", "tensor")

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
        ctx.save_for_backward(*kept_for_the_other(ctx, a, b))
        return np.asarray(a @ b)

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        a, b = ctx.saved_tensors
        grad_a = grad * b if ctx.needs_input_grad[0] else None
        grad_b = grad * a if ctx.needs_input_grad[1] else None
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        a, b = ctx.primals
        return combine(
            scaled(a_t, lambda t: Dot.apply(t, b)), scaled(b_t, lambda t: Dot.apply(a, t))
        )


class Bmm(Op):
    """Batched products: ``matmul`` gives it two 3-d operands with the same batch size."""

    formula = "∂(A@B)/∂A = G@Bᵀ,  ∂(A@B)/∂B = Aᵀ@G"
    jvp_formula = "Ȧ@B + A@Ḃ"
    saved_as = ("mat2", "self")  # PyTorch's order

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
        kept_a, kept_b = kept_for_the_other(ctx, a, b)
        ctx.save_for_backward(kept_b, kept_a)  # mat2 first, as PyTorch saves them
        return a @ b

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, Tensor | None]:
        b, a = ctx.saved_tensors
        grad_a = Bmm.apply(grad, b.transpose(-1, -2)) if ctx.needs_input_grad[0] else None
        grad_b = Bmm.apply(a.transpose(-1, -2), grad) if ctx.needs_input_grad[1] else None
        return grad_a, grad_b

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor | None, b_t: Tensor | None) -> Tensor | None:
        a, b = ctx.primals
        return combine(
            scaled(a_t, lambda t: Bmm.apply(t, b)), scaled(b_t, lambda t: Bmm.apply(a, t))
        )


class Addmm(Op):
    """``bias + mat1 @ mat2`` in one node, as PyTorch records a linear layer on a batch.

    The bias is broadcast over the rows; the engine sums its gradient back to its shape.
    """

    name = "AddmmBackward0"
    formula = "∂/∂bias = G,  ∂/∂mat1 = G@mat2ᵀ,  ∂/∂mat2 = mat1ᵀ@G"
    jvp_formula = "ḃias + Ṁ₁@M₂ + M₁@Ṁ₂"

    @staticmethod
    def forward(ctx: Context, bias: np.ndarray, mat1: np.ndarray, mat2: np.ndarray) -> np.ndarray:
        if mat1.shape[1] != mat2.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} "
                f"and {mat2.shape[0]}x{mat2.shape[1]})"
            )
        for what, a, b in (("mat1 and mat2", mat1, mat2), ("self and mat2", bias, mat2)):
            if a.dtype != b.dtype:
                first, second = dtypes.scalar_type_name(a.dtype), dtypes.scalar_type_name(b.dtype)
                raise RuntimeError(f"{what} must have the same dtype, but got {first} and {second}")
        _, needs_mat1, needs_mat2 = ctx.needs_input_grad or (False,) * 3
        ctx.save_for_backward(mat1 if needs_mat2 else None, mat2 if needs_mat1 else None)
        return bias + mat1 @ mat2

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> tuple[Tensor | None, ...]:
        mat1, mat2 = ctx.saved_tensors
        needs_bias, needs_mat1, needs_mat2 = ctx.needs_input_grad
        grad_bias = grad if needs_bias else None
        grad_mat1 = grad @ mat2.t() if needs_mat1 else None
        grad_mat2 = mat1.t() @ grad if needs_mat2 else None
        return grad_bias, grad_mat1, grad_mat2

    @staticmethod
    def jvp(
        ctx: Context, bias_t: Tensor | None, mat1_t: Tensor | None, mat2_t: Tensor | None
    ) -> Tensor | None:
        _, mat1, mat2 = ctx.primals
        return combine(
            bias_t,
            scaled(mat1_t, lambda t: Mm.apply(t, mat2)),
            scaled(mat2_t, lambda t: Mm.apply(mat1, t)),
        )


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b``, decomposed into the ops PyTorch's ``matmul`` records for each case.

    1-d and 2-d operands are one ``dot``, ``mv`` or ``mm``. When one operand has batch
    dimensions and the other has none, PyTorch folds the batch into the rows of one ``mm``
    (or ``mv``) where that costs no copy, or where the other operand requires grad (see
    ``_should_fold``); everything else is expanded to common batch dimensions and goes
    through one ``bmm``.
    """
    # Read once: each read of the .ndim property is a Python call.
    a_dims, b_dims = a._array.ndim, b._array.ndim
    if a_dims == 0 or b_dims == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a_dims}D and {b_dims}D"
        )
    if a_dims == 1 and b_dims == 1:
        return Dot.apply(a, b)
    if a_dims == 2 and b_dims == 1:
        return Mv.apply(a, b)
    if a_dims == 1 and b_dims == 2:
        return SqueezeInPlace.apply(Mm.apply(a.unsqueeze(0), b), dim=0)
    if a_dims == 2 and b_dims == 2:
        return Mm.apply(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    if a_dims == 3 and b_dims == 3 and a.shape[0] != b.shape[0]:
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


def _check_reduced_dims_not_empty(a: np.ndarray, p: float, dim: Any) -> None:
    """PyTorch's error for an inf norm (a max or a min) over nothing: of an empty tensor,
    or along a dim of size 0, named as it was given (the missing space is PyTorch's)."""
    given = () if dim is None else (tuple(dim) if isinstance(dim, tuple | list) else (dim,))
    if not given:
        if a.size == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p} norm on an empty tensor because "
                "the operation does not have an identity"
            )
        return
    for d in given:
        if a.shape[d] == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p} norm on the dimension {d}because "
                "this dimension is empty and the operation does not have an identity"
            )


class LinalgVectorNorm(Op):
    """``a.norm(p, dim, keepdim)``: ``(Σ |aᵢ|ᵖ)^(1/p)``; p = inf is the largest ``|aᵢ|``, p = 0
    counts the elements that are not 0."""

    formula = "∂‖a‖ₚ/∂aᵢ = aᵢ·|aᵢ|ᵖ⁻²/‖a‖ₚᵖ⁻¹ (p = 2: aᵢ/‖a‖)"
    jvp_formula = "Σ ȧᵢ·aᵢ·|aᵢ|ᵖ⁻²/‖a‖ᵖ⁻¹ (p = 2: Σ ȧᵢ·aᵢ/‖a‖)"

    @staticmethod
    def forward(
        ctx: Context, a: np.ndarray, p: Any = 2, dim: Any = None, keepdim: bool = False
    ) -> np.ndarray:
        if a.dtype.kind != "f":
            raise RuntimeError(
                "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                f"Got {dtypes.scalar_type_name(a.dtype)}"
            )
        dims = reduced_dims(dim, a.ndim)
        ctx.p, ctx.dims, ctx.keepdim, ctx.shape = p, dims, keepdim, a.shape
        ctx.all_dims = dim is None
        axis = dims if a.ndim else None
        magnitude = np.abs(a)
        if p in (float("inf"), -float("inf")):
            _check_reduced_dims_not_empty(a, p, dim)
        if p == float("inf"):
            result = np.max(magnitude, axis=axis, keepdims=keepdim)
        elif p == -float("inf"):
            result = np.min(magnitude, axis=axis, keepdims=keepdim)
        elif p == 0:
            result = np.sum(magnitude != 0, axis=axis, keepdims=keepdim)
        elif p == 2:
            result = np.sqrt(np.sum(magnitude * magnitude, axis=axis, keepdims=keepdim))
        else:
            with np.errstate(divide="ignore", over="ignore"):
                total = np.sum(magnitude**p, axis=axis, keepdims=keepdim)
                result = total ** (1.0 / p)
        result = np.asarray(result, dtype=a.dtype)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Tensor | None:
        from .reduce import _all_dims, _unreduce

        a, result = ctx.saved_tensors
        p = ctx.p
        spread = _unreduce(grad, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        norm = _unreduce(result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        if p == 0:  # a count: no gradient at all (None, as PyTorch gives)
            return None
        if p == 1:
            return spread * a.sign()
        zero_norm = (norm == 0)._array
        if p in (float("inf"), -float("inf")):
            # The gradient is shared by the elements at the extreme, as max's is.
            at_extreme = (a.abs() == norm)._array
            count = at_extreme.sum(axis=ctx.dims if a.ndim else None, keepdims=True)
            share = constant((at_extreme / count).astype(a._array.dtype))
            return spread * a.sign() * share
        safe_norm = where(zero_norm, 1.0, norm)
        if p == 2:
            return where(zero_norm, 0.0, spread * a / safe_norm)
        scaled = a * a.abs() ** (p - 2) / safe_norm ** (p - 1)
        return where(zero_norm, 0.0, spread * scaled)

    @staticmethod
    def jvp(ctx: Context, a_t: Tensor) -> Tensor:
        from .reduce import _all_dims, _reduce_like, _unreduce

        (a,) = ctx.primals
        p = ctx.p
        if p == 0:  # a count: it does not move
            return constant(np.zeros(ctx.result._array.shape, dtype=ctx.result._array.dtype))
        if p == 1:
            return _reduce_like(a_t * a.sign(), ctx)
        norm = _unreduce(ctx.result, ctx.dims, ctx.keepdim, ctx.shape, _all_dims(ctx))
        zero_norm = (norm == 0)._array
        if p in (float("inf"), -float("inf")):
            at_extreme = (a.abs() == norm)._array
            count = at_extreme.sum(axis=ctx.dims if a.ndim else None, keepdims=True)
            share = constant((at_extreme / count).astype(a._array.dtype))
            return _reduce_like(a_t * a.sign() * share, ctx)
        safe_norm = where(zero_norm, 1.0, norm)
        if p == 2:
            return _reduce_like(where(zero_norm, 0.0, a_t * a / safe_norm), ctx)
        scaled_a = a * a.abs() ** (p - 2) / safe_norm ** (p - 1)
        return _reduce_like(where(zero_norm, 0.0, a_t * scaled_a), ctx)
