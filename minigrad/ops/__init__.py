"""PLACEHOLDER"""

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
from .copy import Clone, CopyFrom, Fill, ToCopy, Zero
from .index import Cat, Index, IndexPut, IndexPutAccumulate, Stack, check_in_bounds, index
from .linalg import Addmm, Bmm, Dot, Mm, Mv, matmul
from .losses import MseLoss, NllLoss
from .reduce import MaxAll, MaxDim, Mean, MinAll, MinDim, Sum
from .unary import Abs, Clamp, Cos, Exp, Log, Sign, Sin, Sqrt, Tanh, Where, where
from .views import (
    Expand,
    Permute,
    ReshapeAlias,
    Squeeze,
    SqueezeInPlace,
    Transpose,
    TransposeMatrix,
    UnsafeView,
    Unsqueeze,
    View,
)
