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
import operator
from collections import OrderedDict, namedtuple
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .. import creation, dtypes
from ..grad_mode import no_grad
from ..shapes import normalize_dims
from ..tensor import Tensor
from . import functional as F
from . import init
from .parameter import Parameter

__all__ = [
    "Dropout",
    "Flatten",
    "Identity",
    "Linear",
    "LogSigmoid",
    "LogSoftmax",
    "Module",
    "ModuleList",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "Unflatten",
]


def _typename(value: Any) -> str:
    """How PyTorch names a value's type in messages: ``minigrad.FloatTensor``, ``int``."""
    if isinstance(value, Tensor):
        return value.type_description().split(" [")[0]
    return type(value).__name__


def _check_name(kind: str, name: Any, *, shown_in_dot_error: bool = False) -> None:
    """Refuse a name a registry cannot hold, as PyTorch does: ``state_dict`` keys join names
    with dots, so a dot would make two entries one (``"a.b"`` of a child ``a``)."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
    if "." in name:
        got = f", got: {name}" if shown_in_dot_error else ""
        raise KeyError(f'{kind} name can\'t contain "."{got}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


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
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())

    # -- registration by attribute assignment ---------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        parameters = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        if isinstance(value, Parameter):
            if parameters is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.__dict__.pop(name, None)
            modules.pop(name, None)
            self._buffers.pop(name, None)
            self._non_persistent_buffers.discard(name)
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
        elif name in self.__dict__.get("_buffers", {}):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as buffer '{name}' "
                    "(minigrad.Tensor or None expected)"
                )
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        # Called only when ordinary lookup fails: parameters and children live in their dicts.
        for registry in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(registry, {})
            if name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers.discard(name)
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or ``None``: a slot without a parameter) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name)
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(minigrad.nn.Parameter or None required)"
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register ``tensor`` as a buffer: state of the module that is not a parameter (it
        gets no gradient and no optimizer step) but is saved in ``state_dict`` (unless not
        ``persistent``) and converted by ``to``, such as a loss's ``pos_weight``.

        >>> import minigrad as mg
        >>> from minigrad import nn
        >>> layer = nn.Linear(2, 1)
        >>> layer.register_buffer("scale", mg.tensor(2.0))
        >>> list(layer.state_dict()), [name for name, _ in layer.named_parameters()]
        (['weight', 'bias', 'scale'], ['weight', 'bias'])
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(minigrad Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register ``module`` as a child under ``name`` (names need not be identifiers, but
        cannot be empty or hold a dot, which joins names in ``state_dict``).

        >>> from minigrad import nn
        >>> nn.Module().add_module("layer.1", nn.Linear(1, 1))
        Traceback (most recent call last):
            ...
        KeyError: 'module name can\\'t contain ".", got: layer.1'
        """
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if isinstance(name, str) and hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        _check_name("module", name, shown_in_dot_error=True)
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
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters to hand to an optimizer: ``SGD(model.parameters(), lr=0.1)``."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """Every buffer with its dotted name, as ``named_parameters`` lists parameters."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def _named_members(
        self, kind: str, prefix: str, recurse: bool, remove_duplicate: bool
    ) -> Iterator[tuple[str, Tensor]]:
        """The entries of each module's ``kind`` dict (``_parameters`` or ``_buffers``) with
        their dotted names; a tensor shared by two modules once, unless asked otherwise."""
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        seen: set[int] = set()
        for module_prefix, module in modules:
            for name, member in getattr(module, kind).items():
                if member is None or id(member) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(member))
                yield module_prefix + ("." if module_prefix else "") + name, member

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

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
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers:
                result[prefix + name] = buffer if keep_vars else buffer.detach()
        for name, module in self._modules.items():
            if module is not None:
                result.update(module.state_dict(prefix + name + ".", keep_vars))
        return result

    def load_state_dict(self, state_dict: Mapping[str, Tensor], strict: bool = True) -> Any:
        """Copy values from ``state_dict`` into the parameters and buffers, in place.

        With ``strict`` (the default) every key must match; the keys that did not are
        returned either way as ``(missing_keys, unexpected_keys)``. Everything is checked
        before anything is copied: a call that raises leaves the model as it was (PyTorch
        copies the entries that fit before it raises).

        >>> import minigrad as mg
        >>> from minigrad import nn
        >>> model = nn.Linear(2, 1)
        >>> model.load_state_dict({"weight": mg.ones(1, 2), "bias": mg.zeros(1)})
        <All keys matched successfully>
        >>> model.weight
        Parameter containing:
        tensor([[1., 1.]], requires_grad=True)
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        to_copy = []
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
                to_copy.append((param, value))
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
        with no_grad():
            for param, value in to_copy:
                param.copy_(value)
        return _IncompatibleKeys(missing, unexpected)

    # -- dtypes ------------------------------------------------------------------------------
    def to(self, *args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Module:
        """Convert every floating-point parameter and buffer to a dtype, in place; returns
        self. Takes PyTorch's forms: ``to(dtype)``, ``to(device)``, ``to(device, dtype)``,
        ``to(tensor)`` (its dtype). minigrad computes on the CPU only, so ``"cpu"`` is the
        one device it accepts.

        The parameters stay the same objects, so an optimizer made before still holds them.

        >>> from minigrad import nn
        >>> import minigrad as mg
        >>> layer = nn.Linear(2, 1).to("cpu", mg.float64)
        >>> layer.weight.dtype
        minigrad.float64
        """
        for arg in args:
            if isinstance(arg, Tensor):
                dtype = arg.dtype
            elif isinstance(arg, dtypes.dtype):
                dtype = arg
            else:
                device = arg
        if device is not None:
            _check_device(device)
        if dtype is None:
            return self
        target = dtypes.to_dtype(dtype)
        if not target.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got "
                f"desired dtype={target}"
            )
        with no_grad():
            for param in self.parameters():
                if param.is_floating_point():
                    param.data = param.to(target)
                    if param.grad is not None:
                        param.grad.data = param.grad.to(target)
            for module in self.modules():
                for name, buffer in module._buffers.items():
                    if buffer is not None and buffer.is_floating_point():
                        module._buffers[name] = buffer.to(target)
        return self

    def cpu(self) -> Module:
        """Where minigrad's tensors already are: returns self."""
        return self

    def apply(self, fn: Any) -> Module:
        """Call ``fn`` on every sub-module (children first) and on this module; returns
        self. The usual way to initialise a whole model:

        >>> from minigrad import nn
        >>> def init_weights(module):
        ...     if isinstance(module, nn.Linear):
        ...         nn.init.zeros_(module.bias)
        >>> model = nn.Sequential(nn.Linear(2, 3), nn.Tanh()).apply(init_weights)
        >>> model[0].bias
        Parameter containing:
        tensor([0., 0., 0.], requires_grad=True)
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
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


def _check_device(device: Any) -> None:
    """minigrad has one device, the CPU: anything else is refused with a clear message."""
    name = device if isinstance(device, str) else getattr(device, "type", device)
    if name != "cpu" and not (isinstance(name, str) and name.startswith("cpu:")):
        raise RuntimeError(f"minigrad computes on the CPU only: there is no device {device!r}")


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
    init.uniform_(param, low, high)


class Identity(Module):
    """Returns its input unchanged: a placeholder layer. Any arguments are ignored, so it
    can stand in for the layer it replaces without changing the call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class ReLU(Module):
    """``max(x, 0)`` elementwise (with ``inplace=True``, overwriting its input)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


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


class LogSigmoid(Module):
    """``log(sigmoid(x))`` elementwise, exact for any ``x``."""

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class Softmax(Module):
    """``softmax`` along ``dim``: each slice along it becomes probabilities summing to 1.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> nn.Softmax(dim=1)(mg.zeros(1, 4))
    tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        # stacklevel 5: a warning about a missing dim points at the line calling the module.
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log_softmax`` along ``dim``: log-probabilities, as ``NLLLoss`` expects them."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Dropout(Module):
    """In training mode, zero each element with probability ``p`` and scale the rest by
    1/(1 − p); in evaluation mode (``model.eval()``), pass the input through unchanged.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> _ = mg.manual_seed(0)
    >>> drop = nn.Dropout(p=0.5)
    >>> drop
    Dropout(p=0.5, inplace=False)
    >>> drop(mg.ones(6))
    tensor([0., 2., 2., 2., 0., 0.])
    >>> drop.eval()(mg.ones(6))
    tensor([1., 1., 1., 1., 1., 1.])
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """The dims from ``start_dim`` to ``end_dim`` merged into one, as ``torch.flatten``."""
    start = normalize_dims(start_dim, input.ndim)[0]
    end = normalize_dims(end_dim, input.ndim)[0]
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if input.ndim == 0:
        return input.reshape(1)
    if start == end:
        return input  # nothing to merge: the tensor itself, as in PyTorch
    shape = tuple(input.shape)
    merged = math.prod(shape[start : end + 1])
    return input.reshape(*shape[:start], merged, *shape[end + 1 :])


class Flatten(Module):
    """Merge the dims from ``start_dim`` to ``end_dim`` into one: by default every dim but
    the first (the batch), as between image-shaped data and a ``Linear`` layer.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> nn.Flatten()(mg.zeros(32, 1, 28, 28)).shape
    minigrad.Size([32, 784])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


def unflatten(input: Tensor, dim: int, sizes: Iterable[int]) -> Tensor:
    """Dim ``dim`` split into dims of ``sizes`` (one of them may be -1), as a view."""
    dim = normalize_dims(dim, input.ndim)[0]
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    length = input.shape[dim]
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    known = math.prod(size for size in sizes if size != -1)
    if -1 in sizes and known != 0 and length % known == 0:
        sizes = tuple(length // known if size == -1 else size for size in sizes)
    if math.prod(sizes) != length:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
            f"{dim} ({length}) in the input tensor"
        )
    shape = tuple(input.shape)
    return input.view(*shape[:dim], *sizes, *shape[dim + 1 :])


class Unflatten(Module):
    """Split dim ``dim`` into several of sizes ``unflattened_size``: ``Flatten`` undone.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> nn.Unflatten(1, (1, 28, 28))(mg.zeros(32, 784)).shape
    minigrad.Size([32, 1, 28, 28])
    """

    def __init__(self, dim: int, unflattened_size: tuple[int, ...]) -> None:
        super().__init__()
        if not isinstance(unflattened_size, tuple | list):
            raise TypeError(
                "unflattened_size must be a tuple of ints, but found type "
                f"{type(unflattened_size).__name__}"
            )
        for position, size in enumerate(unflattened_size):
            if not isinstance(size, int):
                raise TypeError(
                    "unflattened_size must be tuple of ints, but found element of type "
                    f"{type(size).__name__} at pos {position}"
                )
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return unflatten(input, self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class ModuleList(Module):
    """A list of modules whose parameters the owner registers: for a number of layers
    decided at run time. Unlike ``Sequential`` it has no ``forward``: you write the loop.

    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> class Deep(nn.Module):
    ...     def __init__(self, depth):
    ...         super().__init__()
    ...         self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(depth)])
    ...     def forward(self, x):
    ...         for layer in self.layers:
    ...             x = layer(x).relu()
    ...         return x
    >>> model = Deep(3)
    >>> len(list(model.parameters()))
    6
    >>> model.layers
    ModuleList(
      (0-2): 3 x Linear(in_features=4, out_features=4, bias=True)
    )
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _key(self, index: int) -> str:
        """The name under which the module at ``index`` (negative allowed) is registered."""
        index = operator.index(index)
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} is out of range")
        return str(index % len(self))

    def __getitem__(self, index: int | slice) -> Module | ModuleList:
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[self._key(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, self._key(index), module)

    def __delitem__(self, index: int | slice) -> None:
        if isinstance(index, slice):
            for position in range(len(self))[index]:
                del self._modules[str(position)]
        else:
            del self._modules[self._key(index)]
        # Renumber what is left: the names stay 0, 1, 2, ...
        remaining = list(self._modules.values())
        self._modules.clear()
        for position, module in enumerate(remaining):
            self._modules[str(position)] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return ModuleList([*self, *other])

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end; returns the list."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Add every module of ``modules`` at the end; returns the list."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                + type(modules).__name__
            )
        modules = list(modules)
        for module in modules:  # all checked first: a failed call adds nothing
            _check_module(module)
        for module in modules:
            self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``, shifting the later ones up."""
        _check_module(module)
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for position, item in enumerate(modules):
            self._modules[str(position)] = item

    def pop(self, index: int | slice) -> Module | ModuleList:
        """Remove the module at ``index`` and return it."""
        module = self[index]
        del self[index]
        return module

    def __repr__(self) -> str:
        # Runs of modules that print alike are printed once: "(0-2): 3 x Linear(...)".
        reprs = [repr(module) for module in self]
        if not reprs:
            return type(self).__name__ + "()"
        runs: list[list[Any]] = []  # [first index, last index, repr]
        for index, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        lines = []
        for first, last, text in runs:
            if first == last:
                line = f"({first}): {text}"
            else:
                line = f"({first}-{last}): {last - first + 1} x {text}"
            lines.append(_add_indent(line, 2))
        return type(self).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self) -> list[str]:
        return [name for name in super().__dir__() if not name.isdigit()]


def _check_module(module: Any) -> None:
    if module is not None and not isinstance(module, Module):
        raise TypeError(f"{_typename(module)} is not a Module subclass")
