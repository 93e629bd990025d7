"""Every differentiable op, each forward beside its local derivative: the table of contents.

Each op is a class in ``torch.autograd.Function``'s shape: ``forward`` computes with numpy
arrays, ``backward`` turns the gradient of the result into one for each input, written with
Tensor operations so it can be differentiated again, and ``formula`` is the local
derivative in one line, as the backward stepper shows it. The engine sums the gradients of
broadcast inputs back to their shapes, so the derivatives read as on paper. Class names
follow ATen's (``PowTensorScalar`` is ``pow.Tensor_Scalar``); node names are PyTorch's.

To add an op: write its class in the file of its subject (``forward``, ``backward`` and
``jvp``), give the Tensor a method that calls ``YourOp.apply``, and add its rows here
(``tests/core/test_ops_index.py`` checks that these tables and the package agree).

==================================  ==================  ============  ==============================
written                             class               file          local derivative
==================================  ==================  ============  ==============================
``a + b``, ``a.add(b, alpha)``      Add                 arithmetic    ∂/∂a = 1, ∂/∂b = 1
``a - b``, ``a.sub(b, alpha)``      Sub                 arithmetic    ∂/∂a = 1, ∂/∂b = −1
``2 - a``                           RsubScalar          arithmetic    ∂/∂a = −1
``a * b``                           Mul                 arithmetic    ∂/∂a = b, ∂/∂b = a
``a / b``                           Div                 arithmetic    ∂/∂a = 1/b, ∂/∂b = −a/b²
``a.reciprocal()``                  Reciprocal          arithmetic    −1/a²
``-a``                              Neg                 arithmetic    −1
``a ** 2``                          PowTensorScalar     arithmetic    n·aⁿ⁻¹
``a ** b``                          PowTensorTensor     arithmetic    b·aᵇ⁻¹, aᵇ·ln a
``2 ** a``                          PowScalarTensor     arithmetic    cᵃ·ln c
``a.exp()``                         Exp                 unary         eᵃ
``a.log()``                         Log                 unary         1/a
``a.log10()``, ``a.log2()``         Log10, Log2         unary         1/(a·ln 10), 1/(a·ln 2)
``a.sqrt()``                        Sqrt                unary         1/(2√a)
``a.abs()``                         Abs                 unary         sign(a)
``a.sign()``                        Sign                unary         0
``a.sin()``                         Sin                 unary         cos a
``a.cos()``                         Cos                 unary         −sin a
``a.tanh()``                        Tanh                unary         1 − tanh²a
``a.clamp(min, max)``               Clamp               unary         1 inside [min, max], else 0
``a.clamp(min_t, max_t)`` tensors   ClampTensor         unary         1 inside; min/max outside
``where(c, a, b)``                  Where               unary         c for a, not c for b
``a.masked_fill(mask, 0.0)``        MaskedFill          unary         0 where mask, else 1
``a.masked_fill(mask, v)``, v 0-d   MaskedFillTensor    unary         as above; v: Σ g over the mask
``a.sigmoid()``                     Sigmoid             activations   σ(a)·(1 − σ(a))
``a.relu()``                        Relu                activations   1 if a > 0 else 0
``a.softmax(dim)``                  Softmax             activations   s·(g − Σ g·s)
``a.log_softmax(dim)``              LogSoftmax          activations   g − softmax·Σ g
``a.sum()``, ``a.sum(dim)``         Sum                 reduce        1 for every element
``a.mean()``, ``a.mean(dim)``       Mean                reduce        1/n for every element
``a.max()``, ``a.min()``            MaxAll, MinAll      reduce        1/k at the k extremes
``a.max(dim)``, ``a.min(dim)``      MaxDim, MinDim      reduce        1 at the chosen index
``a.var(dim, correction)``          Var                 reduce        2(aᵢ − mean)/(n − correction)
``a.std(dim, correction)``          Std                 reduce        (aᵢ − mean)/((n − c)·std)
``a.prod()``, ``a.prod(dim)``       Prod                reduce        Π of the others (exact at 0s)
``a.cumsum(dim)``                   Cumsum              reduce        sums of g from the right
``a.amax(dim)``, ``a.amin(dim)``    Amax, Amin          reduce        1/k at the k extremes
``a.logsumexp(dim)``                Logsumexp           reduce        softmax(a)
``A @ B`` (matrices)                Mm                  linalg        G@Bᵀ, Aᵀ@G
``A @ v``                           Mv                  linalg        g vᵀ, Aᵀ g
``u @ v`` (vectors)                 Dot                 linalg        v, u
``A @ B`` (batches), ``A.bmm(B)``   Bmm                 linalg        G@Bᵀ, Aᵀ@G
``F.linear(x, W, b)``               Addmm               linalg        G for b, G@W for x, Gᵀ@x for W
``a.norm(p, dim)``                  LinalgVectorNorm    linalg        aᵢ·|aᵢ|ᵖ⁻²/‖a‖ᵖ⁻¹
``a.view(shape)``                   View                views         reshaped back
``a.reshape(shape)``                ReshapeAlias        views         reshaped back
(reshape of a copy)                 UnsafeView          views         reshaped back
``a.transpose(0, 1)``, ``a.mT``     Transpose           views         transposed back
``a.t()``                           TransposeMatrix     views         transposed back
``a.permute(...)``, ``a.T``         Permute             views         permuted back
``a.unsqueeze(dim)``                Unsqueeze           views         squeezed back
``a.squeeze(dim)``                  Squeeze             views         reshaped back
``unpack_dual(a).primal``           FwPrimal            views         1
(the end of ``v @ M``)              SqueezeInPlace      views         reshaped back
``a.expand(shape)``                 Expand              views         summed over the copies
(a view after an in-place change)   AsStrided           views         put back at the view's places
``a[i]``                            Index               index         scattered back to i
(the gradient of ``a[i]``)          IndexPutAccumulate  index         read back at i
``a[i] = v``                        IndexPut            index         0 at i for a; read at i for v
``cat(tensors, dim)``               Cat                 index         each input's slice
``stack(tensors, dim)``             Stack               index         each input's slice
``a.gather(dim, index)``            Gather              index         added back at the index
(the gradient of ``gather``)        ScatterAdd          index         gathered back
``a.repeat(2, 1)``                  Repeat              index         the copies summed
``a.split(n)``, ``a.chunk(n)``      SplitPiece          index         its slice, 0 elsewhere
``a.sort(dim)``                     Sort, SortStable    index         back to where each came from
``a.index_add(dim, i, s, alpha)``   IndexAdd            index         1 for a; α·grad[i] for s
``a.to(dtype)``                     ToCopy              copy          cast back
``a.clone()``                       Clone               copy          1
``a.fill_(v)``, ``a.zero_()``       Fill, Zero          copy          0
``a[...] = 5.0`` (a 0-d value)      FillWithTensor      copy          0 for a; Σ g for the value
``a.copy_(b)``                      CopyFrom            copy          0 for a, 1 for b
``F.mse_loss(x, y)``                MseLoss             losses        2(x−y), ÷ n for the mean
``F.nll_loss(logp, t)``             NllLoss             losses        −1 at the target class
``F.binary_cross_entropy(p, t)``    BinaryCrossEntropy  losses        (p−t)/(p(1−p)), log(1−p)−log p
``F.binary_..._with_logits(x, t)``  BCEWithLogits       losses        σ(x)−t, −x
``F.logsigmoid(x)``                 LogSigmoid          losses        σ(−x)
==================================  ==================  ============  ==============================

Forward mode (``minigrad.autograd.forward_ad``) runs each op's ``jvp`` beside its forward:
from the tangents of its inputs (ȧ for a's), the tangent of its result, again written with
Tensor operations. An input without a tangent drops its term. ``ForwardStep.formula`` is
the op's line here (its class's ``jvp_formula``):

==================  =============================================================
class               tangent of the result (ȧ: the tangent of a)
==================  =============================================================
Add                 ȧ + α·ḃ
Sub                 ȧ − α·ḃ
RsubScalar          −ȧ
Mul                 ȧ·b + a·ḃ
Div                 (ȧ − (a/b)·ḃ)/b
Reciprocal          −ȧ/a²
Neg                 −ȧ
PowTensorScalar     n·aⁿ⁻¹·ȧ
PowTensorTensor     b·aᵇ⁻¹·ȧ + aᵇ·ln a·ḃ
PowScalarTensor     cᵃ·ln c·ȧ
Exp                 ȧ·eᵃ
Log                 ȧ/a
Log10, Log2         ȧ/(a·ln 10), ȧ/(a·ln 2)
Sqrt                ȧ/(2√a)
Abs                 ȧ·sign(a)
Sign                0
Sin                 ȧ·cos a
Cos                 −ȧ·sin a
Tanh                ȧ·(1 − tanh²a)
Clamp               ȧ inside [min, max], else 0
ClampTensor         ȧ inside, ṁin below, ṁax above
Where               ȧ where c, else ḃ
MaskedFill          ȧ where not mask, else 0
MaskedFillTensor    ȧ where not mask, v̇ where mask
Sigmoid             ȧ·σ(a)·(1 − σ(a))
Relu                ȧ where a > 0, else 0
Softmax             s·(ȧ − Σ ȧ·s)
LogSoftmax          ȧ − Σ ȧ·softmax(a)
Sum                 Σ ȧ
Mean                mean of ȧ
MaxAll, MinAll      Σ ȧ at the k maxima / k, Σ ȧ at the k minima / k
MaxDim, MinDim      ȧ at the chosen index
Var                 2·Σ (a − mean)·ȧ / (n − correction)
Std                 Σ (a − mean)·ȧ / ((n − correction)·std)
Prod                Σ ȧᵢ·Π_{j≠i} aⱼ
Cumsum              cumsum(ȧ)
Amax, Amin          Σ ȧ at the k maxima / k, Σ ȧ at the k minima / k
Logsumexp           Σ ȧ·softmax(a)
Mm                  Ȧ@B + A@Ḃ
Mv                  Ȧ@v + A@v̇
Dot                 ȧ·b + a·ḃ
Bmm                 Ȧ@B + A@Ḃ
Addmm               ḃias + Ṁ₁@M₂ + M₁@Ṁ₂
LinalgVectorNorm    Σ ȧᵢ·aᵢ·|aᵢ|ᵖ⁻²/‖a‖ᵖ⁻¹ (p = 2: Σ ȧᵢ·aᵢ/‖a‖)
View                ȧ reshaped
ReshapeAlias        ȧ reshaped
UnsafeView          ȧ reshaped
Transpose           ȧ transposed
TransposeMatrix     ȧ transposed
Permute             ȧ permuted
Unsqueeze           ȧ unsqueezed
Squeeze             ȧ squeezed
FwPrimal            ȧ (the tangent at other levels)
SqueezeInPlace      ȧ squeezed
Expand              ȧ expanded
AsStrided           ȧ read at the view's places
Index               ȧ[i]
IndexPutAccumulate  ȧ added at i into zeros
IndexPut            ȧ, with v̇ written at i
Cat                 cat(ȧ, ḃ, …)
Stack               stack(ȧ, ḃ, …)
Gather              ȧ gathered
ScatterAdd          ȧ added at the index into zeros
Repeat              ȧ repeated
SplitPiece          ȧ's slice
Sort, SortStable    ȧ in the sorted order
IndexAdd            ȧ + α·ṡ added at the index
ToCopy              ȧ cast
Clone               ȧ
Fill, Zero          0
FillWithTensor      v̇ everywhere
CopyFrom            ṡ
MseLoss             2(x − y)·(ẋ − ẏ), reduced
NllLoss             −wₜ·(log ṗ)ₜ, reduced
BinaryCrossEntropy  w·(x − t)·ẋ/(x(1 − x)) + w·(log(1 − x) − log x)·ṫ, reduced
BCEWithLogits       w·((p·t + 1 − t)·σ(x) − p·t)·ẋ + w·(log σ(−x) − p·log σ(x))·ṫ
LogSigmoid          ẋ·σ(−x)
==================  =============================================================

``matmul`` (``linalg.py``) and ``index`` (``index.py``) decide which of these nodes PyTorch
records for a given call; ``base.py`` holds ``Op`` and elementwise type promotion.
"""

from .activations import LogSoftmax, Relu, Sigmoid, Softmax
from .arithmetic import (
    Add,
    Div,
    Mul,
    Neg,
    PowScalarTensor,
    PowTensorScalar,
    PowTensorTensor,
    Reciprocal,
    RsubScalar,
    Sub,
)
from .base import Elementwise, Op
from .copy import Clone, CopyFrom, Fill, FillWithTensor, ToCopy, Zero
from .index import (
    Cat,
    Gather,
    Index,
    IndexAdd,
    IndexPut,
    IndexPutAccumulate,
    Repeat,
    ScatterAdd,
    Sort,
    SortStable,
    SplitPiece,
    Stack,
    basic_then_advanced,
    check_in_bounds,
    chunk,
    index,
    index_add,
    is_basic_index,
    keeps_everything,
    normalize_index,
    sort,
    split,
)
from .linalg import Addmm, Bmm, Dot, LinalgVectorNorm, Mm, Mv, matmul
from .losses import BCEWithLogits, BinaryCrossEntropy, LogSigmoid, MseLoss, NllLoss
from .reduce import (
    Amax,
    Amin,
    Cumsum,
    Logsumexp,
    MaxAll,
    MaxDim,
    Mean,
    MinAll,
    MinDim,
    Prod,
    Std,
    Sum,
    Var,
    all_or_any,
    histc,
    histogram,
)
from .unary import (
    Abs,
    Clamp,
    ClampTensor,
    Cos,
    Exp,
    Log,
    Log2,
    Log10,
    MaskedFill,
    MaskedFillTensor,
    Sign,
    Sin,
    Sqrt,
    Tanh,
    Where,
    clamp,
    masked_fill,
    where,
)
from .views import (
    AsStrided,
    Expand,
    FwPrimal,
    Permute,
    ReshapeAlias,
    Squeeze,
    SqueezeInPlace,
    Transpose,
    TransposeMatrix,
    UnsafeView,
    Unsqueeze,
    View,
    positions_in_base,
)
