"""``Module``, the base class of every layer and model, and the layers built on it.

A module's parameters and sub-modules are registered by plain attribute assignment, as in
PyTorch, so a model reads like the maths:

>>> import minigrad as mg
>>> from minigrad import nn
>>> class TwoLayers(nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.hidden = nn.Linear(2, 4)
...         self.out = nn.Linear(4, 1)
...     def forward(self, x):
...         return self.out(self.hidden(x).tanh())
>>> model = TwoLayers()
>>> [name for name, _ in model.named_parameters()]
['hidden.weight', 'hidden.bias', 'out.weight', 'out.bias']
>>> model(mg.zeros(3, 2)).shape
minigrad.Size([3, 1])
"""

from __future__ import annotations

import math
from collections import OrderedDict, namedtuple
from collections.abc import Iterator
from typing import Any

from .. import creation, dtypes
from ..grad_mode import no_grad
from ..tensor import Tensor
from . import functional as F
from .parameter import Parameter

__all__ = [
    "CrossEntropyLoss",
    "Identity",
    "Linear",
    "MSELoss",
    "Module",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Tanh",
]


def _typename(value: Any) -> str:
    """How PyTorch names a value's type in messages: ``minigrad.FloatTensor``, ``int``."""
    if isinstance(value, Tensor):
        return value.type_description().split(" [")[0]
    return type(value).__name__


def _add_indent(text: str, spaces: int) -> str:
    """Indent every line but the first: a child's repr nested inside its parent's."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class of layers and models: subclass it, assign layers and ``Parameter``s as
    attributes in ``__init__``, and write ``forward``. Call the module, not ``forward``.

    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(2, 16), nn.ReLU())
    >>> model
    Sequential(
      (0): Linear(in_features=2, out_features=16, bias=True)
      (1): ReLU()
    )
    """

    training: bool

    def __init__(self) -> None:
        # Written through object.__setattr__: our own __setattr__ needs these to exist.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())

    # -- registration by attribute assignment ---------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        parameters = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        if isinstance(value, Parameter):
            if parameters is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.__dict__.pop(name, None)
            modules.pop(name, None)
            self.register_parameter(name, value)
        elif parameters is not None and name in parameters:
            # `self.weight = some_tensor` would silently stop training the weight.
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(minigrad.nn.Parameter or None expected)"
                )
            parameters[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.__dict__.pop(name, None)
            parameters.pop(name, None)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as child module '{name}' "
                    "(minigrad.nn.Module or None expected)"
                )
            modules[name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        # Called only when ordinary lookup fails: parameters and children live in their dicts.
        for registry in ("_parameters", "_modules"):
            entries = self.__dict__.get(registry, {})
            if name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._modules):
            if name in registry:
                del registry[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or ``None``: a slot without a parameter) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(minigrad.nn.Parameter or None required)"
            )
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Register ``module`` as a child under ``name`` (names need not be identifiers)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._modules[name] = module

    # -- running -------------------------------------------------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def train(self, mode: bool = True) -> Module:
        """Put this module and every sub-module in training mode (or not); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode: ``train(False)``. Layers such as dropout behave differently in it."""
        return self.train(False)

    # -- walking the tree ------------------------------------------------------------------
    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self) -> Iterator[Module]:
        """The direct sub-modules, in the order they were assigned."""
        for _, module in self.named_children():
            yield module

    def named_modules(
        self, memo: set[int] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """This module and all below it, depth first, with dotted names (``""`` for self)."""
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            child_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, child_prefix, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Every parameter with its dotted name, such as ``0.weight`` or ``layers.1.bias``.

        A parameter shared by two layers is listed once, so an optimizer updates it once.
        """
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        seen: set[int] = set()
        for module_prefix, module in modules:
            for name, param in module._parameters.items():
                if param is None or id(param) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(param))
                yield module_prefix + ("." if module_prefix else "") + name, param

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters to hand to an optimizer: ``SGD(model.parameters(), lr=0.1)``."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    # -- gradients -----------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of every parameter before the next ``backward()``.

        By default ``.grad`` becomes ``None`` (PyTorch 2's default); with
        ``set_to_none=False`` the existing gradient tensors are filled with zeros instead.
        """
        for param in self.parameters():
            _zero_grad(param, set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Freeze (``False``) or unfreeze every parameter; returns self."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    # -- saving and loading ----------------------------------------------------------------
    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Every parameter by its dotted name, detached (they share memory with the model).

        >>> from minigrad import nn
        >>> list(nn.Sequential(nn.Linear(2, 3)).state_dict())
        ['0.weight', '0.bias']
        """
        result: OrderedDict[str, Tensor] = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                result[prefix + name] = param if keep_vars else param.detach()
        for name, module in self._modules.items():
            if module is not None:
                result.update(module.state_dict(prefix + name + ".", keep_vars))
        return result

    def load_state_dict(self, state_dict: dict[str, Tensor], strict: bool = True) -> Any:
        """Copy values from ``state_dict`` into the parameters, in place.

        With ``strict`` (the default) every key must match; the keys that did not are
        returned either way as ``(missing_keys, unexpected_keys)``.
        """
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        with no_grad():
            for key, param in own.items():
                if key not in state_dict:
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    errors.append(
                        f'While copying the parameter named "{key}", expected minigrad.Tensor '
                        f"in the state_dict but got {_typename(value)}"
                    )
                elif value.shape != param.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape {value.shape} "
                        f"from checkpoint, the shape in current model is {param.shape}."
                    )
                else:
                    param.copy_(value)
        if strict:
            if unexpected:
                keys = ", ".join(f'"{key}"' for key in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{key}"' for key in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors)
            )
        return _IncompatibleKeys(missing, unexpected)

    # -- dtypes ------------------------------------------------------------------------------
    def to(self, dtype: Any) -> Module:
        """Convert every floating-point parameter to ``dtype`` in place; returns self.

        The parameters stay the same objects, so an optimizer made before still holds them.
        """
        target = dtypes.to_dtype(dtype)
        with no_grad():
            for param in self.parameters():
                if param.is_floating_point():
                    param.data = param.to(target)
                    if param.grad is not None:
                        param.grad.data = param.grad.to(target)
        return self

    def double(self) -> Module:
        return self.to(dtypes.float64)

    def float(self) -> Module:
        return self.to(dtypes.float32)

    # -- printing ----------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """What goes between the parentheses of this module's repr; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({name}): {_add_indent(repr(module), 2)}" for name, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._modules))


def _zero_grad(param: Tensor, set_to_none: bool) -> None:
    """PyTorch's way of forgetting one gradient: drop it, or zero it in place, cut off
    from any graph it was part of (after ``backward(create_graph=True)``)."""
    if param.grad is None:
        return
    if set_to_none:
        param.grad = None
        return
    if param.grad.grad_fn is not None:
        param.grad.detach_()
    else:
        param.grad.requires_grad_(False)
    param.grad.zero_()


# ---------------------------------------------------------------------------------------
# Layers
# ---------------------------------------------------------------------------------------
class Linear(Module):
    """``y = x @ W.T + b`` with ``W`` of shape ``(out_features, in_features)``.

    Both are initialised as in PyTorch, uniformly in ±1/√in_features, from minigrad's
    random generator (``minigrad.manual_seed`` makes them reproducible; the values are not
    PyTorch's, whose generator is its own).

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> layer = nn.Linear(3, 2)
    >>> layer.weight.shape, layer.bias.shape
    (minigrad.Size([2, 3]), minigrad.Size([2]))
    >>> layer(mg.ones(5, 3)).grad_fn
    <AddmmBackward0 object>
    """

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, dtype: Any = None
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(creation.zeros(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.zeros(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh weights: PyTorch's kaiming-uniform with a=√5, which comes down to
        U(−1/√fan_in, 1/√fan_in) for the weight and the bias alike."""
        bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0.0
        _uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            _uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


def _uniform_(param: Tensor, low: float, high: float) -> None:
    """Fill ``param`` in place with samples of U(low, high) from minigrad's generator."""
    samples = creation.rand(*param.shape, dtype=dtypes.float64)
    with no_grad():
        param.copy_(samples * (high - low) + low)


class Identity(Module):
    """Returns its input unchanged: a placeholder layer."""

    def forward(self, input: Tensor) -> Tensor:
        return input


class ReLU(Module):
    """``max(x, 0)`` elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input)


class Tanh(Module):
    """The hyperbolic tangent, elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Sigmoid(Module):
    """The logistic function ``1 / (1 + exp(−x))``, elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class Sequential(Module):
    """Modules applied one after the other; indexable and sized like a list.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    >>> len(model), model[1]
    (3, Tanh())
    >>> model(mg.zeros(4, 2)).shape
    minigrad.Size([4, 1])
    """

    def __init__(self, *modules: Module) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, module in modules[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(modules):
                self.add_module(str(index), module)

    def __getitem__(self, index: int | slice) -> Module:
        if isinstance(index, slice):
            return Sequential(OrderedDict(list(self._modules.items())[index]))
        size = len(self)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules.values())[index % size]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input: Any) -> Any:
        for module in self:
            input = module(input)
        return input


class MSELoss(Module):
    """The mean squared error as a module: ``MSELoss()(prediction, target)``.

    ``reduction`` is ``'mean'`` (the default), ``'sum'`` or ``'none'`` (one loss per element).
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(Module):
    """The classification loss on logits and class indices (see ``F.cross_entropy``)."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, reduction=self.reduction)
