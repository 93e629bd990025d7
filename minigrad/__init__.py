"""minigrad: a compact numpy autograd engine with PyTorch's API and semantics.

>>> import minigrad as mg
>>> x = mg.tensor(2.0, requires_grad=True)
>>> y = x**2 + 1
>>> y
tensor(5., grad_fn=<AddBackward0>)
>>> y.backward()
>>> x.grad
tensor(4.)
"""

from __future__ import annotations

from typing import Any

from . import autograd, cuda, dtypes, engine, func, nn, ops, optim, profiler, random
from .creation import (
    arange,
    as_tensor,
    cat,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    stack,
    tensor,
    zeros,
    zeros_like,
)
from .device import device, get_default_device, set_default_device
from .dtypes import (
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .ops import where
from .printing import set_printoptions
from .random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    seed,
    set_rng_state,
)
from .serialization import load, save
from .tensor import Size, Tensor

bool = dtypes.bool_  # noqa: A001 - PyTorch's names: minigrad.bool, minigrad.float, ...
float = dtypes.float32  # noqa: A001
double = dtypes.float64
half = dtypes.float16
long = dtypes.int64
int = dtypes.int32  # noqa: A001
short = dtypes.int16

__version__ = "0.1.0"


def _unary(name: str) -> Any:
    def function(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        try:
            return getattr(input, name)(*args, **kwargs)
        except TypeError as error:
            if not hasattr(error, "function_form"):
                raise
            # PyTorch counts the tensor among the arguments of the function
            raise error.function_form(input) from None

    function.__name__ = name
    function.__doc__ = f"``minigrad.{name}(x)`` is ``x.{name}()``."
    return function


# The functional forms: minigrad.tanh(x) is x.tanh(), as torch.tanh(x) is.
exp = _unary("exp")
log = _unary("log")
log10 = _unary("log10")
log2 = _unary("log2")
sqrt = _unary("sqrt")
abs = _unary("abs")  # noqa: A001
sin = _unary("sin")
cos = _unary("cos")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
relu = _unary("relu")
clamp = _unary("clamp")
clip = _unary("clip")
norm = _unary("norm")
std = _unary("std")
var = _unary("var")
prod = _unary("prod")
cumsum = _unary("cumsum")
masked_fill = _unary("masked_fill")
gather = _unary("gather")
chunk = _unary("chunk")
split = _unary("split")
outer = _unary("outer")
unflatten = _unary("unflatten")
softmax = _unary("softmax")
log_softmax = _unary("log_softmax")
sum = _unary("sum")  # noqa: A001
mean = _unary("mean")
max = _unary("max")  # noqa: A001
min = _unary("min")  # noqa: A001
argmax = _unary("argmax")
argmin = _unary("argmin")
amax = _unary("amax")
amin = _unary("amin")
logsumexp = _unary("logsumexp")
all = _unary("all")  # noqa: A001
any = _unary("any")  # noqa: A001
sort = _unary("sort")
argsort = _unary("argsort")
index_add = _unary("index_add")
histogram = _unary("histogram")
histc = _unary("histc")
reshape = _unary("reshape")
transpose = _unary("transpose")
permute = _unary("permute")
t = _unary("t")
squeeze = _unary("squeeze")
unsqueeze = _unary("unsqueeze")
flatten = _unary("flatten")
matmul = _unary("matmul")
mm = _unary("mm")
bmm = _unary("bmm")
mv = _unary("mv")
dot = _unary("dot")
add = _unary("add")
sub = _unary("sub")
mul = _unary("mul")
div = _unary("div")
neg = _unary("neg")
clone = _unary("clone")
detach = _unary("detach")
sign = _unary("sign")
allclose = _unary("allclose")
equal = _unary("equal")
# ... and the in-place ones PyTorch has as functions: minigrad.exp_(x) is x.exp_().
exp_, log_, log10_, log2_, sqrt_ = map(_unary, ("exp_", "log_", "log10_", "log2_", "sqrt_"))
sin_, cos_, tanh_, sigmoid_, relu_ = map(_unary, ("sin_", "cos_", "tanh_", "sigmoid_", "relu_"))
abs_, neg_, clamp_, clip_, detach_ = map(_unary, ("abs_", "neg_", "clamp_", "clip_", "detach_"))


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001
    """``minigrad.pow(x, 2)`` is ``x ** 2``; the base may be a number: ``pow(2, x)``."""
    return input**exponent


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()
