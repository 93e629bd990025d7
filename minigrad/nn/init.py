"""Ways to fill a layer's weights before training, with PyTorch's names: ``nn.init``.

Each function overwrites its tensor in place, without recording anything in the graph
(a parameter stays a leaf), and returns it. The random ones draw from ``generator=`` if
given, else from minigrad's default generator, so ``minigrad.manual_seed`` makes them
reproducible (the numbers are not PyTorch's: its generator is its own).

The scaled schemes keep the variance of activations roughly constant from layer to layer.
They read two numbers off the weight's shape: ``fan_in``, how many inputs feed each output
(``shape[1]`` times the size of a kernel, ``shape[2:]``), and ``fan_out`` (``shape[0]`` times
the same).

>>> import minigrad as mg
>>> from minigrad import nn
>>> layer = nn.Linear(4, 3)
>>> nn.init.zeros_(layer.bias)
Parameter containing:
tensor([0., 0., 0.], requires_grad=True)
>>> w = nn.init.xavier_uniform_(layer.weight)
>>> bound = nn.init.calculate_gain("linear") * (6 / (4 + 3)) ** 0.5
>>> bool((w.abs() <= bound).numpy().all()), w is layer.weight, w.is_leaf
(True, True, True)
"""

from __future__ import annotations

import math
import warnings

from .. import creation, dtypes, random
from ..grad_mode import no_grad
from ..random import Generator
from ..tensor import Tensor

__all__ = [
    "calculate_gain",
    "constant_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]

_LINEAR = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
)


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor by which a nonlinearity is known to shrink the spread of its inputs, to be
    made up for by the weights: 1 for linear layers and sigmoid, 5/3 for tanh, √2 for relu,
    √(2/(1 + slope²)) for leaky_relu (slope ``param``, 0.01 by default), 3/4 for selu.

    >>> from minigrad import nn
    >>> nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 1)
    (1.6666666666666667, 1.0)
    """
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, int | float) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fill_from(tensor: Tensor, values: Tensor) -> Tensor:
    """Overwrite ``tensor`` with ``values`` in place, unrecorded; return ``tensor``."""
    with no_grad():
        tensor.copy_(values)
    return tensor


def _check_floating(tensor: Tensor, kernel: str) -> None:
    if not tensor.is_floating_point():
        name = tensor.type_description().removeprefix("minigrad.").split("Tensor")[0]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def uniform_(
    tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Fill ``tensor`` with samples of the uniform distribution on [a, b) (drawn from
    ``generator`` if given)."""
    random.checked_generator(generator, "uniform_")
    _check_floating(tensor, "check_uniform_bounds")
    if a > b:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}"
        )
    samples = creation.rand(*tensor.shape, dtype=dtypes.float64, generator=generator)
    return _fill_from(tensor, samples * (b - a) + a)


def normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Fill ``tensor`` with samples of the normal distribution N(mean, std²) (drawn from
    ``generator`` if given)."""
    random.checked_generator(generator, "normal_")
    _check_floating(tensor, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    samples = creation.randn(*tensor.shape, dtype=dtypes.float64, generator=generator)
    return _fill_from(tensor, samples * std + mean)


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill ``tensor`` with the value ``val``."""
    with no_grad():
        tensor.fill_(val)
    return tensor


def ones_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with ones."""
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with zeros."""
    with no_grad():
        tensor.zero_()
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight of shape ``(out, in, *kernel)``."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    kernel_size = math.prod(tensor.shape[2:])
    return tensor.shape[1] * kernel_size, tensor.shape[0] * kernel_size


def _fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(
    tensor: Tensor, gain: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Glorot's scheme: U(−a, a) with ``a = gain·√(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std  # a uniform on [−a, a] has standard deviation a/√3
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Glorot's scheme: N(0, std²) with ``std = gain·√(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan = _fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def _is_empty(tensor: Tensor) -> bool:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """He's scheme: U(−b, b) with ``b = gain·√(3 / fan)``, ``fan`` being ``fan_in`` (keeps
    the forward pass's variance) or ``fan_out`` (the backward pass's); ``a`` is the slope
    of leaky_relu."""
    if _is_empty(tensor):
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """He's scheme: N(0, std²) with ``std = gain / √fan`` (see ``kaiming_uniform_``)."""
    if _is_empty(tensor):
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)
