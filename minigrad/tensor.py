"""The ``Tensor``: a numpy array with the bookkeeping autograd needs.

A tensor holds its values, whether it ``requires_grad``, its ``.grad``, and ``grad_fn``, the
node of the backward graph that made it (``None`` for a leaf). Operators and methods only
delegate to the ops in ``minigrad.ops``, where each forward sits beside its derivative.

>>> import minigrad as mg
>>> w = mg.tensor(2.0, requires_grad=True)
>>> b = mg.tensor(5.0, requires_grad=True)
>>> x = mg.tensor(3)
>>> y = w * x + b
>>> y
tensor(11., grad_fn=<AddBackward0>)
>>> y.backward()
>>> w.grad, b.grad, x.grad
(tensor(3.), tensor(1.), None)
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

# (ndarray by its own name, tested on every op: see minigrad/function.py)
from numpy import ndarray

from . import dtypes, grad_mode, ops, profiling, shapes, tangents
from .copy_slices import (
    MADE_IN_NO_GRAD,
    CopySlices,
    regenerated_history,
    view_modified_error,
)
from .device import CPU, device, to_device
from .function import (
    AccumulateGrad,
    Node,
    SavedTensor,
    keepers_of_saved_values,
    new_accumulator,
    new_object,
    note_hook_registered,
    short_name,
)
from .grad_mode import is_grad_enabled, no_grad
from .printing import tensor_repr

Number = int | float | bool


class Size(tuple):
    """A shape, printed as PyTorch prints ``torch.Size``: ``minigrad.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


class VersionCounter:
    """Counts in-place changes of a tensor's memory; views share their base's counter, so a
    saved tensor can tell that it was modified behind its back."""

    # A class default rather than an __init__: every op's result gets a counter, and calling
    # an __init__ cost more than the rest of making it. The first bump sets its own value.
    value = 0

    def bump(self) -> None:
        self.value += 1


class _CounterMadeWhenRead:
    """A tensor's ``_version_counter`` until it is first read: the read makes it and keeps
    it on the tensor, whose own attribute is found first from then on (this descriptor
    has no ``__set__``). Most results of ops are never saved, viewed or changed in place,
    and making a counter for each cost a fifth of an unrecorded op on a scalar."""

    def __get__(self, tensor: Tensor | None, owner: type) -> Any:
        if tensor is None:
            return self
        counter = tensor._version_counter = VersionCounter()
        return counter


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` takes the hook away again."""

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


_NO_DATA: Any = object()  # Tensor() with no argument at all


def _legacy_constructor_array(
    data: Any, sizes: tuple[Any, ...], requires_grad: bool, place: Any
) -> np.ndarray:
    """The array of ``Tensor(data)`` or ``Tensor(2, 3)``, PyTorch's legacy constructor."""
    to_device(place)
    default = dtypes.get_default_dtype().numpy
    if data is _NO_DATA:
        return np.zeros(0, dtype=default)
    if isinstance(data, ndarray | np.generic) and not sizes:
        dtypes.from_numpy_dtype(data.dtype)
        return np.asarray(data)
    if requires_grad:
        raise TypeError(
            f"new() received an invalid combination of arguments - got "
            f"({type(data).__name__}, requires_grad=bool)"
        )
    if isinstance(data, Tensor) and not sizes:
        return data._array
    if isinstance(data, Size) or isinstance(data, int) and not isinstance(data, bool):
        shape = tuple(data) if isinstance(data, Size) else (data, *sizes)
        for n in shape:
            if not isinstance(n, int | np.integer) or isinstance(n, bool):
                raise TypeError(
                    f"new(): argument 'size' must be tuple of ints, but found element of type "
                    f"{type(n).__name__}"
                )
        if any(n < 0 for n in shape):
            negative = next(n for n in shape if n < 0)
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {negative}: {list(shape)}"
            )
        return np.zeros(shape, dtype=default)
    if isinstance(data, float | bool | complex):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    from .creation import tensor

    return tensor(data, dtype=dtypes.get_default_dtype())._array


def invalid_arguments(
    name: str, args: Sequence[Any], kwargs: dict[str, Any], expected: str
) -> TypeError:
    """PyTorch's "received an invalid combination of arguments - got (...)": the arguments
    listed by type, keywords last and in reverse order, as PyTorch's parser lists them. The
    function form (``minigrad.sum(x, keepdim=True)``) lists the tensor in front."""
    given = [_type_shown(a) for a in args]
    keywords = [f"{key}={_type_shown(kwargs[key])}" for key in reversed(kwargs)]
    listed = ", ".join(given + keywords) if given else "".join(k + ", " for k in keywords)
    error = TypeError(
        f"{name}() received an invalid combination of arguments - got ({listed}), but "
        f"expected {expected}"
    )
    return _with_function_form(
        error, lambda input: invalid_arguments(name, [input, *args], kwargs, expected)
    )


def _with_function_form(error: TypeError, as_function: Callable[[Tensor], TypeError]) -> TypeError:
    """Attach to a method's argument error the one PyTorch raises for the same call written as
    a function (``minigrad.max(x, ...)``), where the tensor is the first argument: the
    functional forms of ``minigrad/__init__.py`` raise that one instead."""
    error.function_form = as_function  # type: ignore[attr-defined]
    return error


def _type_shown(value: Any) -> str:
    return "Tensor" if isinstance(value, Tensor) else type(value).__name__


def _keepdims_alias(reduction: Callable[..., Any]) -> Callable[..., Any]:
    """Let ``reduction`` take ``keepdims=``, numpy's spelling, for ``keepdim=``, as PyTorch
    does, and refuse what PyTorch's argument parser refuses: both spellings at once (in
    words that depend on whether PyTorch has several signatures for the function), and
    ``keepdim`` without a ``dim`` where PyTorch's signature without ``dim`` takes no
    ``keepdim`` (``x.sum(keepdim=True)``; ``x.var(keepdim=True)`` keeps every dimension)."""
    name = reduction.__name__

    @functools.wraps(reduction)
    def reduce(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:  # x.sum(): nothing to refuse (every derivative of a sum)
            return reduction(self)
        if "keepdims" in kwargs and "keepdim" in kwargs:
            if name not in _SEVERAL_SIGNATURES:
                raise TypeError(f"{name}() got an unexpected keyword argument 'keepdims'")
            raise invalid_arguments(name, args, kwargs, "one of the signatures without keepdims")
        if name in _DIM_NEEDED or name == "logsumexp":
            _check_dim(name, args, kwargs)
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        return reduction(self, *args, **kwargs)

    return reduce


_SEVERAL_SIGNATURES = ("var", "std", "max", "min", "all", "any")
# PyTorch's signatures of these: one without dim (and then without keepdim), one with dim;
# the last three take no dim=None either, their dim is an int.
_DIM_NEEDED = ("sum", "mean", "max", "min", "prod")
_DIM_AN_INT = ("max", "min", "prod")


def _check_dim(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> None:
    dim_given = bool(args) or "dim" in kwargs
    dim = args[0] if args else kwargs.get("dim")
    if name == "logsumexp":  # dim is required, and a tuple of ints, not None
        if not dim_given:
            raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
        if dim is None:
            raise _dim_not_none(name, "tuple of ints", positional=bool(args))
        return
    keepdim_given = len(args) > 1 or "keepdim" in kwargs or "keepdims" in kwargs
    if keepdim_given and not dim_given:
        raise invalid_arguments(name, args, kwargs, "keepdim only together with dim")
    if name in _DIM_AN_INT and dim_given and dim is None:
        if not keepdim_given:
            raise invalid_arguments(name, args, kwargs, "dim to be an int, or no dim")
        error = _dim_not_none(name, "int", positional=bool(args))
        if name != "prod":  # the function max(input, other) makes it a combination again
            as_function = invalid_arguments(name, args, kwargs, "dim to be an int")
            error = _with_function_form(error, as_function.function_form)  # type: ignore[attr-defined]
        raise error


def _dim_not_none(name: str, kind: str, positional: bool) -> TypeError:
    """PyTorch's message for ``dim=None`` where its only matching signature needs a ``dim``;
    a positional ``dim`` is the method's argument 1, the function's argument 2."""

    def message(position: int | None) -> TypeError:
        where = "" if position is None else f" (position {position})"
        return TypeError(f"{name}(): argument 'dim'{where} must be {kind}, not NoneType")

    return _with_function_form(
        message(1 if positional else None), lambda input: message(2 if positional else None)
    )


def _inplace_of(name: str) -> Callable[[Tensor], Tensor]:
    """``x.exp_()`` made from ``x.exp()``: the op's result written into ``x``, recorded as
    the op itself (``ExpBackward0``), as PyTorch records it."""

    def inplace(self: Tensor) -> Tensor:
        return self._apply_inplace(lambda t: getattr(t, name)())

    inplace.__name__, inplace.__qualname__ = f"{name}_", f"Tensor.{name}_"
    inplace.__doc__ = f"``x.{name}()``, written into ``x`` in place."
    return inplace


# As tuples made once: `float | np.floating` written in the test would build a new union
# object at every call, and a number is wrapped for every `x * 0.5`.
_FLOATS, _BOOLS, _INTEGERS = (float, np.floating), (bool, np.bool_), (int, np.integer)
# The dtypes a wrapped number takes.
_FLOAT64, _BOOL, _INT64 = np.dtype(np.float64), np.dtype(np.bool_), np.dtype(np.int64)
_PYTHON_NUMBERS = (float, int, bool)  # the operands _operand wraps first


class Tensor:
    """An n-dimensional array that can record the operations applied to it.

    Make tensors with ``minigrad.tensor(...)``, ``zeros``, ``randn`` and friends rather than
    with this class directly. Called as PyTorch's legacy constructor, it follows it:
    ``Tensor([1, 2])`` is a tensor of the default float type, ``Tensor(2, 3)`` one of
    shape 2 × 3 (zeros here, where PyTorch leaves memory unset) and ``Tensor()`` an empty
    one. A numpy array is taken as it is, with its dtype and memory (minigrad's ops make
    every tensor that way; PyTorch would convert it to the default float type).

    >>> Tensor([1, 2])
    tensor([1., 2.])
    >>> Tensor(2, 3).shape
    minigrad.Size([2, 3])
    """

    __array_priority__ = 1000  # numpy_array * tensor calls Tensor.__rmul__

    # What most tensors never change is a class attribute: an op makes a tensor for every
    # result, and setting nine attributes each time cost more than the arithmetic on a scalar.
    _grad: Tensor | None = None
    _grad_fn: Node | None = None  # read through the grad_fn property
    _requires_grad = False
    _base: Tensor | None = None  # the tensor a view shares memory with
    # A view's: the version of the memory when its grad_fn was set (a newer one means the
    # history must be made again from the base), and how it was made when that forbids
    # in-place changes (a constant of copy_slices.py), as PyTorch's CreationMeta.
    _view_version = 0
    _creation_meta: str | None = None
    _hooks: Sequence[Callable[[Tensor], Tensor | None]] = ()  # a list from the first hook on
    _post_accumulate_grad_hooks: Sequence[Callable[[Tensor], None]] = ()  # likewise
    _accumulator: weakref.ref[AccumulateGrad] | None = None
    _is_wrapped_number = False
    _output_nr = 0  # which output of its grad_fn this is (a Function may return several)
    _tangents: dict[int, Tensor] | None = None  # forward mode: the tangent at each dual level
    _version_counter: VersionCounter = _CounterMadeWhenRead()  # type: ignore[assignment]

    def __init__(
        self, array: Any = _NO_DATA, *sizes: int, requires_grad: bool = False, device: Any = None
    ) -> None:
        if type(array) is not ndarray or sizes:  # the ops' fast path: a numpy array
            array = _legacy_constructor_array(array, sizes, requires_grad, device)
        self._array = array
        if requires_grad:
            self.requires_grad_(True)

    # -- construction used by the ops and the engine ------------------------------------
    @classmethod
    def _from_op(cls, array: np.ndarray, node: Node | None) -> Tensor:
        """The result of an op: with ``node`` as its ``grad_fn`` when recorded."""
        # __init__'s work, inlined: every op makes a tensor, and its result never needs
        # requires_grad_'s checks (False, the class default, unless recorded).
        result = new_object(cls)
        result._array = array
        if node is not None:
            result._grad_fn = node
            result._requires_grad = True
        return result

    def _share_memory_with(self, base: Tensor) -> None:
        """A view op's result: when its array is in ``base``'s memory, it is a view of it
        (of ``base``'s own base if that is a view too) and counts its versions with it."""
        array, base_array = self._array, base._array
        # numpy points a view at the array that owns the memory: a view made from base's
        # array is inside it, which np.shares_memory would take longer to say.
        owner = base_array if base_array.base is None else base_array.base
        if array.base is not owner and not _in_memory_of(array, base_array):
            return
        self._base = base if base._base is None else base._base
        self._version_counter = base._version_counter
        self._view_version = base._version_counter.value
        # A view of a view inherits how the first was made, unless this one is made under
        # no_grad.
        made = base._creation_meta if is_grad_enabled() else MADE_IN_NO_GRAD
        if made is not None:
            self._creation_meta = made

    @classmethod
    def _from_graph(cls, array: np.ndarray, node: Node, version: VersionCounter) -> Tensor:
        """A saved result, given back its ``grad_fn`` when it is unpacked."""
        result = cls(array)
        result.grad_fn, result._requires_grad, result._version_counter = node, True, version
        return result

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is (0 but for a Function's others)."""
        return self._output_nr

    def _edge(self) -> tuple[Node | None, int]:
        """Where a gradient for this tensor goes: its ``grad_fn``, or for a leaf that
        requires grad its ``AccumulateGrad`` node (one per leaf while a graph holds it)."""
        node = self.grad_fn
        if node is not None:
            return (node, self._output_nr)
        if not self._requires_grad:
            return (None, 0)
        accumulator = self._accumulator() if self._accumulator is not None else None
        if accumulator is None:
            accumulator = new_accumulator(self)
        return (accumulator, 0)

    # -- what a tensor is ---------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._array.shape)

    def size(self, dim: int | None = None) -> Size | int:
        return self.shape if dim is None else self._array.shape[dim]

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.from_numpy_dtype(self._array.dtype)

    @property
    def device(self) -> device:
        """Where the tensor lives: always the CPU, ``device(type='cpu')``."""
        return CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def ndim(self) -> int:
        return self._array.ndim

    def dim(self) -> int:
        return self._array.ndim

    def numel(self) -> int:
        return int(self._array.size)

    def nelement(self) -> int:
        """The number of elements: ``numel()``'s other name."""
        return int(self._array.size)

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self._array)

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def type_description(self) -> str:
        """PyTorch's short description used in error messages: ``FloatTensor [2, 3]``."""
        kind = self.dtype.scalar_type
        return f"minigrad.{kind}Tensor [{', '.join(map(str, self.shape))}]"

    # -- values out ------------------------------------------------------------------------
    def numpy(self, *positional: Any, force: bool = False) -> np.ndarray:
        """The values as a numpy array sharing memory with the tensor.

        Refused for a tensor that requires grad while gradients are being recorded (numpy
        would not record what is done with the values), as in PyTorch; allowed under
        ``no_grad()``, or with ``force=True`` (which is ``t.detach().numpy()``).

        >>> import minigrad as mg
        >>> w = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> w.numpy(force=True)
        array([1., 2.], dtype=float32)
        >>> with mg.no_grad():
        ...     w.numpy()
        array([1., 2.], dtype=float32)
        """
        if positional:  # PyTorch's message: force is keyword-only
            given = f"{len(positional)} {'was' if len(positional) == 1 else 'were'} given"
            raise TypeError(f"numpy() takes 0 positional arguments but {given}")
        if not isinstance(force, bool):
            raise TypeError(f"numpy(): argument 'force' must be bool, not {type(force).__name__}")
        if self._requires_grad and not force and is_grad_enabled():
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """``np.asarray(t)``, ``plt.plot(t)``: the values, as ``.numpy()`` gives them (so not
        for a tensor that requires grad while gradients are recorded: its values would leave
        the graph unnoticed)."""
        array = self.numpy()
        if dtype is not None and array.dtype != dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def item(self) -> Number:
        if self._array.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._array.size} elements cannot be converted to Scalar"
            )
        return self._array.item()

    def tolist(self) -> Any:
        return self._array.tolist()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._array.item())

    def __iter__(self) -> Iterator[Tensor]:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        name = short_name(self.grad_fn) if self.grad_fn is not None else None
        tangent = None
        if self._tangents and tangents.open_levels:  # a dual tensor, printed as PyTorch does
            tangent = tangents.tangent_of(self, tangents.open_levels[-1])
        return tensor_repr(
            self._array,
            requires_grad=self._requires_grad,
            grad_fn_name=name,
            tangent=None if tangent is None else f"{tangent}",
        )

    def __format__(self, format_spec: str) -> str:
        """``f"{loss:.4f}"``: a 0-d tensor formats as its number, as in PyTorch (so does
        ``f"{loss}"``); any other tensor takes no format spec and prints as its repr."""
        if self._array.ndim == 0:
            return self._array.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    __hash__ = object.__hash__  # == is elementwise, as in PyTorch; identity hashes

    # -- autograd attributes ----------------------------------------------------------------
    @property
    def grad_fn(self) -> Node | None:
        """The node that made this tensor, ``None`` for a leaf. A view whose memory changed
        in place since its history was set (through itself, its base or another view)
        gets it made again from its base, as in PyTorch: ``AsStridedBackward0``.

        >>> import minigrad as mg
        >>> y = mg.ones(3, requires_grad=True) * 1
        >>> first = y[0]
        >>> y.mul_(2).grad_fn, first.grad_fn
        (<MulBackward0 object>, <AsStridedBackward0 object>)
        """
        if self._base is not None and self._view_version != self._version_counter.value:
            self._regenerate_view_history()
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node: Node | None) -> None:
        self._grad_fn = node
        self._view_version = self._version_counter.value

    def _regenerate_view_history(self) -> None:
        """A view's history, made again from its base after an in-place change (PyTorch
        leaves a view with no history alone while its base needs no gradient)."""
        base = self._base
        if self._grad_fn is None and not base._requires_grad:
            return
        if not _in_memory_of(self._array, base._array):  # base.data was replaced
            return
        if self._creation_meta is not None:
            raise view_modified_error(self, self._creation_meta, directly=False)
        old, self.grad_fn = self._grad_fn, regenerated_history(self)
        self._requires_grad, self._output_nr = True, 0
        _move_retained_grad(self, old, self._grad_fn)

    @property
    def requires_grad(self) -> bool:
        if self._base is not None and self._creation_meta is None:
            self.grad_fn  # noqa: B018 - a view whose base now requires grad requires it too
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if flag and self.grad_fn is None and not self.dtype.is_floating_point:
            # PyTorch words this one differently from requires_grad_()'s.
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Start (or stop) recording operations on this leaf, in place."""
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach()."
                )
            return self
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors made by the user rather than by an op that was recorded."""
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by ``backward()``: ``None`` until one arrives.

        Only leaves get one, unless ``retain_grad()`` asked for it: reading it on any other
        tensor warns, as in PyTorch, since it is a common slip (``y.grad`` for ``x.grad``).
        """
        if self._grad is None and self.grad_fn is not None and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size"
                )
            if value.dtype != self.dtype:
                given, own = dtypes.c_type_name(value.dtype), dtypes.scalar_type_name(self.dtype)
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{given}' to a tensor with "
                    f"grad_dtype '{own}'. The "
                    "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype)."
                    " You can set the tensor's grad_dtype attribute with a specific dtype, or None "
                    "to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                    "tensor and its gradient may break downstream systems that assume they match."
                )
        self._grad = value

    @property
    def _version(self) -> int:
        """How many times this tensor's memory was changed in place (an int, as in PyTorch).

        >>> import minigrad as mg
        >>> a = mg.tensor([1.0, 2.0])
        >>> a.add_(1)._version
        1
        """
        return self._version_counter.value

    @property
    def data(self) -> Tensor:
        """The same values, detached from the graph (changing them is not recorded)."""
        detached = Tensor(self._array.view())  # a view object of its own, as in detach()
        return detached

    @data.setter
    def data(self, value: Tensor) -> None:
        self._array = value._array

    def detach(self) -> Tensor:
        """A tensor with the same values, sharing memory, but cut off from the graph."""
        # A new numpy view of the same memory, not the same array object: an op given both
        # x and x.detach() must be able to tell which of the two it saved for backward.
        detached = Tensor(self._array.view())
        # The version counter is shared, not the place in the graph: changing the detached
        # tensor in place is allowed, and a backward that needed the old values says so.
        detached._version_counter = self._version_counter
        return detached

    def detach_(self) -> Tensor:
        if self._base is not None:  # its history comes back from its base's: refused
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor too (leaves always keep theirs)."""
        if self.grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        _only_first_output(self, "retain_grad")
        note_hook_registered()
        self.grad_fn.retained_tensor = weakref.ref(self)

    @property
    def retains_grad(self) -> bool:
        node = self.grad_fn
        return (
            node is not None
            and node.retained_tensor is not None
            and (node.retained_tensor() is self)
        )

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient has been computed; a returned
        tensor replaces the gradient."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        note_hook_registered()
        # Until its first hook, a tensor or node shares an empty default: give it a list.
        if self.grad_fn is None:
            if not self._hooks:
                self._hooks = []
            hooks = self._hooks
        else:
            _only_first_output(self, "register_hook")
            if not self.grad_fn.tensor_pre_hooks:
                self.grad_fn.tensor_pre_hooks = []
            hooks = self.grad_fn.tensor_pre_hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """Call ``hook(tensor)`` on this leaf once backward has added the new gradient into
        its ``.grad``: where an optimizer can step a parameter as soon as its gradient is
        ready. The hook returns None.

        >>> import minigrad as mg
        >>> w = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> handle = w.register_post_accumulate_grad_hook(lambda t: print(t.grad))
        >>> (3 * w).sum().backward()
        tensor([3., 3.])
        >>> handle.remove()
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        note_hook_registered()
        if not self._post_accumulate_grad_hooks:
            self._post_accumulate_grad_hooks = []
        self._post_accumulate_grad_hooks.append(hook)
        return RemovableHandle(self._post_accumulate_grad_hooks, hook)

    def backward(
        self,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """Compute the gradient of this tensor with respect to every leaf that requires
        grad, and add it into each leaf's ``.grad``.

        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> (x**2).backward(gradient=mg.tensor([1.0, 0.5, 0.25]))
        >>> x.grad
        tensor([2.0000, 2.0000, 1.5000])
        """
        from .autograd import backward

        backward(
            [self],
            gradient,
            retain_graph,
            create_graph,
            inputs=inputs,
        )

    # -- changing values in place -----------------------------------------------------------
    def _inplace_is_recorded(self, other: Any) -> bool:
        """Whether an in-place change is recorded, after PyTorch's refusals: never under
        no_grad, else when this tensor (a view: or its base) or ``other`` requires grad."""
        if not is_grad_enabled():
            return False
        base = self._base
        if not (
            self._requires_grad
            or (base is not None and base._requires_grad)
            or getattr(other, "requires_grad", False)
        ):
            return False
        if base is not None:
            if self._creation_meta is not None:
                raise view_modified_error(self, self._creation_meta, directly=True)
            # PyTorch asks whether the view requires grad and its base is a leaf: a view
            # of a leaf that requires grad, or a view that was made a leaf itself
            # (``arange(6.0).view(2, 3).requires_grad_()``).
            if (base._requires_grad or self._requires_grad) and base._grad_fn is None:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
        return True

    def _apply_inplace(self, op: Callable[[Tensor], Tensor], other: Any = None) -> Tensor:
        """Write ``op(self)`` into this tensor's memory. When the change is recorded, the
        tensor's history continues from the op (PyTorch's rebase; for a view, its base's
        history becomes ``CopySlices``), and ops that saved this tensor earlier notice the
        new version and refuse to backward with stale values. (``add_``, ``sub_`` and
        ``mul_`` first try ``_written_directly``.)"""
        # (grad mode read directly: under no_grad, the optimizer's case, nothing is asked)
        recorded = grad_mode._state.enabled and self._inplace_is_recorded(other)
        if profiling.active:  # the profiler names the op as in place: aten::add_
            op = profiling.in_place(op)
        array = self._array
        if isinstance(other, Tensor) and _overlaps_partly(array, other._array):
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation."
            )
        # An element written twice through a stride of 0 (an expanded tensor); an empty
        # tensor has no element to write, whatever its strides. (The quick test first: no
        # stride of 0, no such element.)
        if 0 in array.strides and array.size and _written_twice(array):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation."
            )
        dual = bool(tangents.open_levels) and tangents.has_tangent((self, other))
        if recorded:
            # The op runs on a copy with the same place in the graph, so whatever it saves
            # for backward is the value from before the write.
            before = Tensor(self._array.copy())
            before.grad_fn, before._requires_grad = self.grad_fn, self._requires_grad
            if dual:  # and with the same tangents
                for level in tangents.visible_tangents(self):
                    tangents.set_tangent(before, level, tangents.tangent_of(self, level))
            result = op(before)
        elif is_grad_enabled():
            with no_grad():
                result = op(self)
        else:  # (no_grad already: the optimizer's p -= lr * p.grad)
            result = op(self)
        if result._array.shape != self._array.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                f"{list(result.shape)}"
            )
        written_dtype, own_dtype = result._array.dtype, self._array.dtype
        if written_dtype is not own_dtype and not np.can_cast(
            written_dtype, own_dtype, casting="same_kind"
        ):
            raise RuntimeError(
                f"result type {dtypes.scalar_type_name(result.dtype)} can't be cast to the "
                f"desired output type {dtypes.scalar_type_name(self.dtype)}"
            )
        if keepers_of_saved_values:  # allow_mutation_on_saved_tensors: copy what was saved
            keepers_of_saved_values[-1].before_write(self)
        if self._array.size:  # an empty tensor has nothing to write (and may be read-only)
            np.copyto(self._array, result._array, casting="same_kind")  # broadcasts as it copies
        self._version_counter.bump()
        if dual:
            tangents.write_in_place(self, result)
        viewed = self._base is not None and _in_memory_of(self._array, self._base._array)
        if recorded and viewed and result._grad_fn is not None:
            self._rebase_view_history(result._grad_fn)
        elif recorded:
            _move_retained_grad(self, self._grad_fn, result._grad_fn)
            self.grad_fn, self._requires_grad = result.grad_fn, result.requires_grad
        if recorded:
            _saved_result_is_now(self, result, viewed)
        return self

    # x.exp_(), x.tanh_(), ...: each op of one tensor, written into it (see _inplace_of)
    exp_, log_, log10_, log2_, sqrt_ = map(_inplace_of, ("exp", "log", "log10", "log2", "sqrt"))
    sin_, cos_, tanh_, sigmoid_, relu_ = map(_inplace_of, ("sin", "cos", "tanh", "sigmoid", "relu"))
    abs_, neg_, reciprocal_, sign_ = map(_inplace_of, ("abs", "neg", "reciprocal", "sign"))

    def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
        """Add ``alpha × source[i]`` into this tensor at ``index[i]`` along ``dim``, in place
        (an index named twice gets both): how a gradient is added into an embedding table.

        >>> import minigrad as mg
        >>> table = mg.zeros(3)
        >>> table.index_add_(0, mg.tensor([0, 2, 0]), mg.tensor([1.0, 2.0, 3.0]))
        tensor([4., 0., 2.])
        """
        return self._apply_inplace(lambda t: t.index_add(dim, index, source, alpha=alpha), source)

    def _rebase_view_history(self, node: Node) -> None:
        """This view was changed in place by ``node``'s op: its base's history becomes
        ``CopySlices`` (the old history outside the view, ``node`` inside it), and the
        view's own is made again from the base."""
        base = self._base
        positions = ops.positions_in_base(self._array, base._array)
        old, base._grad_fn = base._grad_fn, CopySlices(base, positions, node)
        _move_retained_grad(base, old, base._grad_fn)
        base._requires_grad, base._output_nr = True, 0
        self._regenerate_view_history()

    # The optimizer's p -= lr * p.grad first tries the direct write, before anything (the
    # general path's closure, say) is made for it.
    def add_(self, other: Any, alpha: Number = 1) -> Tensor:
        if _written_directly(self, other, np.add, alpha):  # (SGD's p.add_(g, alpha=-lr))
            return self
        return self._apply_inplace(lambda t: t.add(other, alpha=alpha), other)

    def sub_(self, other: Any, alpha: Number = 1) -> Tensor:
        if _written_directly(self, other, np.subtract, alpha):
            return self
        return self._apply_inplace(lambda t: t.sub(other, alpha=alpha), other)

    def mul_(self, other: Any) -> Tensor:
        if _written_directly(self, other, np.multiply):
            return self
        return self._apply_inplace(lambda t: t * other, other)

    def div_(self, other: Any) -> Tensor:
        return self._apply_inplace(lambda t: t / other, other)

    def pow_(self, exponent: Any) -> Tensor:
        return self._apply_inplace(lambda t: t**exponent, exponent)

    def zero_(self) -> Tensor:
        """Set every value to 0, in place: ``w.grad.zero_()`` before the next backward."""
        return self._apply_inplace(lambda t: ops.Zero.apply(t, value=0))

    def fill_(self, value: Number | Tensor) -> Tensor:
        """Every element set to ``value``: a number, or a 0-d tensor (whose gradient is then
        the sum of the gradient over the elements filled, ``FillBackward3``)."""
        if isinstance(value, Tensor):
            if value.ndim != 0:
                raise RuntimeError(
                    "fill_ only supports 0-dimension value tensor but got tensor with "
                    f"{value.ndim} dimensions."
                )
            return self._apply_inplace(lambda t: ops.FillWithTensor.apply(t, value), value)
        return self._apply_inplace(lambda t: ops.Fill.apply(t, value=value))

    def copy_(self, source: Any) -> Tensor:
        """Copy ``source``'s values (broadcast) into this tensor."""
        return self._apply_inplace(lambda t: ops.CopyFrom.apply(t, _operand(source)), source)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        """``x.clamp(min, max)``, written into ``x`` in place."""
        return self._clamp_in_place(min, max, "clamp_")

    def clip_(self, min: Any = None, max: Any = None) -> Tensor:
        """``x.clip(min, max)``, written into ``x`` in place: ``clamp_`` by its other name."""
        return self._clamp_in_place(min, max, "clip_")

    def _clamp_in_place(self, min: Any, max: Any, name: str) -> Tensor:
        # A bound that is a tensor takes part like the other operand of add_: if it requires
        # grad, the change is recorded.
        bounds = [bound for bound in (min, max) if isinstance(bound, Tensor)]
        if not bounds:  # numbers: PyTorch names the tensor's type as C++ does ("long int")
            given = [bound for bound in (min, max) if bound is not None]
            promoted = dtypes.result_type([self, *given])
            if given and not np.can_cast(promoted, self._array.dtype, casting="same_kind"):
                raise RuntimeError(
                    f"result type {dtypes.scalar_type_name(promoted)} can't be cast to the "
                    f"desired output type {dtypes.c_type_name(self.dtype)}"
                )
        other = next((b for b in bounds if b.requires_grad), bounds[0] if bounds else None)
        return self._apply_inplace(lambda t: ops.clamp(t, min, max, name), other)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        """``x.masked_fill(mask, value)``, written into ``x`` in place.

        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, -2.0, 3.0])
        >>> x.masked_fill_(x < 0, 0.0)
        tensor([1., 0., 3.])
        """
        if isinstance(mask, Tensor):  # PyTorch broadcasts the mask to the tensor first
            broadcast = shapes.broadcast_shape(self.shape, mask.shape)
            if tuple(broadcast) != tuple(self.shape):  # as every in-place op with a larger operand
                raise RuntimeError(
                    f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                    f"{list(broadcast)}"
                )
        return self._apply_inplace(lambda t: t.masked_fill(mask, value), value)

    # x += y is x.add_(y) itself (the same function, no call in between: the optimizer's
    # p -= lr * p.grad runs it for every parameter)
    __iadd__, __isub__, __imul__ = add_, sub_, mul_

    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other)

    def __setitem__(self, index: Any, value: Any) -> None:
        """``x[index] = value``, as PyTorch does it. A basic index (numbers, slices, ``None``,
        ``...``) writes into the view ``x[index]``, or into ``x`` when it keeps everything:
        ``fill_`` for a number or a 0-d tensor, else ``copy_`` (through a view, ``x``'s
        node becomes ``CopySlices``). The advanced part of an index (tensors, lists,
        masks) is one ``IndexPutBackward0``, into that view or into ``x``.

        >>> import minigrad as mg
        >>> y = mg.ones(2, 3, requires_grad=True) * 1
        >>> y[0] = 5.0
        >>> y.grad_fn
        <CopySlices object>
        >>> y[mg.tensor([1])] = 0.0
        >>> y.grad_fn
        <IndexPutBackward0 object>
        """
        if not ops.is_basic_index(index):
            # The basic items first, as a view (x[0, [1, 2]] writes into x[0]), unless
            # numpy must take the index whole.
            normalized = ops.normalize_index(index)
            steps = (
                None if isinstance(normalized, slice) else ops.basic_then_advanced(self, normalized)
            )
            target, rest = steps if steps is not None else (self, index)
            put = lambda t: ops.IndexPut.apply(t, _operand(value), index=rest)  # noqa: E731
            target._apply_inplace(put, value)
            return
        target = self if ops.keeps_everything(index, self.shape) else self[index]
        value = _operand(value)
        if value.shape != target.shape and value.ndim == 0:
            target._apply_inplace(lambda t: ops.FillWithTensor.apply(t, value), value)
            return
        if value.shape != target.shape:  # PyTorch views it without leading 1s, then expands
            ones = next((i for i, n in enumerate(value.shape) if n != 1), value.ndim)
            value = value.view(value.shape[ones:])
            if value.shape != target.shape:
                value = value.expand(target.shape)
        target.copy_(value)

    # -- arithmetic: a + b, 2 * x, x ** 2, a @ b ---------------------------------------------
    # A Tensor operand is passed on as it is, without a call to _operand (most operands of
    # a model's a + b, a * b, a @ b are Tensors). Its class is compared, not isinstance
    # asked: an isinstance that fails (x * 0.5) reads the number's __class__ the slow way.
    def __add__(self, other: Any) -> Tensor:
        return ops.Add.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __radd__(self, other: Any) -> Tensor:
        return ops.Add.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __sub__(self, other: Any) -> Tensor:
        return ops.Sub.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __rsub__(self, other: Any) -> Tensor:
        if isinstance(other, ndarray):
            return ops.Sub.apply(Tensor(other), self)
        return ops.RsubScalar.apply(self, number=other)

    def __mul__(self, other: Any) -> Tensor:
        return ops.Mul.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __rmul__(self, other: Any) -> Tensor:
        return ops.Mul.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __truediv__(self, other: Any) -> Tensor:
        return ops.Div.apply(self, other if other.__class__ is Tensor else _operand(other))

    def __rtruediv__(self, other: Any) -> Tensor:
        # PyTorch computes number / x as x.reciprocal() * number.
        return ops.Mul.apply(self.reciprocal(), _operand(other))

    def __abs__(self) -> Tensor:  # abs(x)
        return self.abs()

    def __neg__(self) -> Tensor:
        return ops.Neg.apply(self)

    def __pos__(self) -> Tensor:
        return self

    def __pow__(self, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor):
            return ops.PowTensorTensor.apply(self, exponent)
        return ops.PowTensorScalar.apply(self, exponent=_python_number(exponent))

    def __rpow__(self, base: Any) -> Tensor:
        return ops.PowScalarTensor.apply(self, base=_python_number(base))

    def __matmul__(self, other: Any) -> Tensor:
        return ops.matmul(self, other if other.__class__ is Tensor else _tensor_operand(other))

    def __rmatmul__(self, other: Any) -> Tensor:
        return ops.matmul(_tensor_operand(other), self)

    def add(self, other: Any, alpha: Number = 1) -> Tensor:
        return ops.Add.apply(self, _operand(other), alpha=alpha)

    def sub(self, other: Any, alpha: Number = 1) -> Tensor:
        return ops.Sub.apply(self, _operand(other), alpha=alpha)

    def mul(self, other: Any) -> Tensor:
        return self * other

    def div(self, other: Any) -> Tensor:
        return self / other

    def pow(self, exponent: Any) -> Tensor:
        return self**exponent

    def neg(self) -> Tensor:
        return -self

    def matmul(self, other: Tensor) -> Tensor:
        return self @ other

    def mm(self, other: Tensor) -> Tensor:
        if self.ndim != 2 or other.ndim != 2:
            raise RuntimeError(
                "self must be a matrix" if self.ndim != 2 else "mat2 must be a matrix"
            )
        return ops.Mm.apply(self, other)

    def mv(self, vec: Tensor) -> Tensor:
        if self.ndim != 2 or vec.ndim != 1:  # (PyTorch counts the vector mv adds to as 1-d)
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
        return ops.Mv.apply(self, vec)

    def dot(self, other: Tensor) -> Tensor:
        if self.ndim != 1 or other.ndim != 1:
            raise RuntimeError(
                f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors"
            )
        return ops.Dot.apply(self, other)

    def bmm(self, mat2: Tensor) -> Tensor:
        """A batch of matrix products, ``out[i] = self[i] @ mat2[i]``: two 3-d tensors with
        the same batch size (no broadcasting, unlike ``@``).

        >>> import minigrad as mg
        >>> mg.ones(2, 1, 3).bmm(mg.ones(2, 3, 4)).shape
        minigrad.Size([2, 1, 4])
        """
        for name, batch in (("batch1", self), ("batch2", mat2)):
            if batch.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        (size, _, inner), (size2, rows2, _) = self.shape, mat2.shape
        if (size2, rows2) != (size, inner):
            raise RuntimeError(
                "Expected size for first two dimensions of batch2 tensor to be: "
                f"[{size}, {inner}] but got: [{size2}, {rows2}]."
            )
        return ops.Bmm.apply(self, mat2)

    def reciprocal(self) -> Tensor:
        return ops.Reciprocal.apply(self)

    # -- comparisons: boolean tensors, never part of the graph ------------------------------
    def _compare(self, other: Any, compare: Callable[[Any, Any], np.ndarray]) -> Tensor:
        other = _operand(other)
        try:
            compared = compare(self._array, other._array)
        except ValueError:  # numpy's error: PyTorch's names the dim that does not broadcast
            error = shapes.broadcast_error(self._array.shape, other._array.shape)
            if error is None:
                raise
            raise error from None
        return Tensor(np.asarray(compared))

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return self._compare(other, np.equal)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return self._compare(other, np.not_equal)

    def __lt__(self, other: Any) -> Tensor:
        return self._compare(other, np.less)

    def __le__(self, other: Any) -> Tensor:
        return self._compare(other, np.less_equal)

    def __gt__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater)

    def __ge__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater_equal)

    def __and__(self, other: Any) -> Tensor:
        return self._compare(other, np.logical_and if self.dtype.name == "bool" else np.bitwise_and)

    def __or__(self, other: Any) -> Tensor:
        return self._compare(other, np.logical_or if self.dtype.name == "bool" else np.bitwise_or)

    def __invert__(self) -> Tensor:
        array = self._array
        return Tensor(np.logical_not(array) if array.dtype.kind == "b" else np.invert(array))

    def eq(self, other: Any) -> Tensor:
        return self == other

    def equal(self, other: Tensor) -> bool:
        return self.shape == other.shape and bool(np.array_equal(self._array, other._array))

    def allclose(self, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08) -> bool:
        return bool(np.allclose(self._array, other._array, rtol=rtol, atol=atol))

    def sign(self) -> Tensor:
        return ops.Sign.apply(self)

    @_keepdims_alias
    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the largest value (of the flattened tensor, or along ``dim``)."""
        return self._arg_extreme(np.argmax, "argmax", dim, keepdim)

    @_keepdims_alias
    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """The index of the smallest value (of the flattened tensor, or along ``dim``)."""
        return self._arg_extreme(np.argmin, "argmin", dim, keepdim)

    def _arg_extreme(self, pick: Any, name: str, dim: int | None, keepdim: bool) -> Tensor:
        if dim is None:
            if self._array.size == 0:
                raise IndexError(
                    f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
                )
            index = np.asarray(pick(self._array), dtype=np.int64)
            return Tensor(index.reshape((1,) * self.ndim) if keepdim else index)
        (axis,) = shapes.normalize_dims(dim, self.ndim)
        if self.ndim == 0:
            return Tensor(np.zeros((), dtype=np.int64))
        if self._array.shape[axis] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
        return Tensor(np.asarray(pick(self._array, axis=axis, keepdims=keepdim), dtype=np.int64))

    # -- functions of one tensor -------------------------------------------------------------
    def exp(self) -> Tensor:
        return ops.Exp.apply(self)

    def log(self) -> Tensor:
        return ops.Log.apply(self)

    def log10(self) -> Tensor:
        """The logarithm to base 10, elementwise (integers give the default float dtype).

        >>> import minigrad as mg
        >>> mg.tensor([1.0, 100.0], requires_grad=True).log10()
        tensor([0., 2.], grad_fn=<Log10Backward0>)
        """
        return ops.Log10.apply(self)

    def log2(self) -> Tensor:
        """The logarithm to base 2, elementwise: ``tensor([8.0]).log2()`` is ``[3.]``."""
        return ops.Log2.apply(self)

    def sqrt(self) -> Tensor:
        return ops.Sqrt.apply(self)

    def abs(self) -> Tensor:
        return ops.Abs.apply(self)

    def sin(self) -> Tensor:
        return ops.Sin.apply(self)

    def cos(self) -> Tensor:
        return ops.Cos.apply(self)

    def tanh(self) -> Tensor:
        return ops.Tanh.apply(self)

    def sigmoid(self) -> Tensor:
        return ops.Sigmoid.apply(self)

    def relu(self) -> Tensor:
        return ops.Relu.apply(self)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        """Values below ``min`` raised to it, above ``max`` lowered to it: numbers, or
        tensors that broadcast (both of one kind, as in PyTorch)."""
        return ops.clamp(self, min, max)

    def clip(self, min: Any = None, max: Any = None) -> Tensor:
        return ops.clamp(self, min, max, "clip")

    def where(self, condition: Any, other: Any) -> Tensor:
        """``minigrad.where(condition, self, other)``."""
        return ops.where(condition, self, other)

    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        """``value`` where ``mask`` is True, else this tensor's values.

        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, -2.0, 3.0])
        >>> x.masked_fill(x < 0, 0.0)
        tensor([1., 0., 3.])
        """
        return ops.masked_fill(self, mask, value)

    def index_add(self, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
        """A copy of this tensor with ``alpha × source[i]`` added at ``index[i]`` along
        ``dim`` (see ``index_add_``)."""
        return ops.index_add(self, dim, index, source, alpha)

    def sort(
        self, *positional: Any, dim: int = -1, descending: bool = False, stable: Any = None
    ) -> Any:
        """``(values, indices)``: the values sorted along ``dim`` and where each came from.
        As in PyTorch, ``dim`` and ``descending`` may come by position only when ``stable``
        is not given.

        >>> import minigrad as mg
        >>> mg.tensor([3.0, 1.0, 2.0]).sort(descending=True).indices
        tensor([0, 2, 1])
        """
        if len(positional) > 2 or (positional and stable is not None):
            # PyTorch's message, whichever of its two signatures was meant
            raise TypeError(
                f"sort() takes from 1 to 0 positional arguments but {len(positional)} were given"
            )
        if positional:
            dim = positional[0]
        if len(positional) == 2:
            descending = positional[1]
        return sortResult(*ops.sort(self, dim, descending, stable))

    def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
        """The indices that sort the tensor along ``dim`` (``sort``'s ``indices``)."""
        with no_grad():
            return ops.sort(self, dim, descending, stable)[1]

    def multinomial(
        self, num_samples: int, replacement: bool = False, *, generator: Any = None
    ) -> Tensor:
        """``minigrad.multinomial(self, ...)``: category indices drawn with these weights."""
        from .random import multinomial

        return multinomial(self, num_samples, replacement, generator=generator)

    def histogram(
        self,
        bins: Any = 100,
        *,
        range: Any = None,  # noqa: A002 - PyTorch's name
        weight: Tensor | None = None,
        density: bool = False,
    ) -> Any:
        """``(hist, bin_edges)``: how many values fall in each of ``bins`` equal bins over
        ``range`` (the data's by default), or between the edges ``bins`` gives as a tensor.

        >>> import minigrad as mg
        >>> mg.tensor([1.0, 2.0, 1.0]).histogram(2)
        minigrad.return_types.histogram(
        hist=tensor([2., 1.]),
        bin_edges=tensor([1.0000, 1.5000, 2.0000]))
        """
        hist, edges = ops.histogram(self, bins, range, weight, density)
        return histogramResult(Tensor(hist), Tensor(edges))

    def histc(self, bins: int = 100, min: Number = 0, max: Number = 0) -> Tensor:
        """The counts of ``histogram`` over [min, max] (the data's range when both are 0)."""
        return Tensor(ops.histc(self, bins, min, max))

    def gather(self, dim: int, index: Tensor) -> Tensor:
        """Along ``dim``, the elements ``index`` names: ``out[i][j] = x[i][index[i][j]]``."""
        return ops.Gather.apply(self, dim=dim, index=index._array)

    def norm(
        self, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
    ) -> Tensor:
        """The vector ``p``-norm of all elements, or along ``dim``: ``(Σ |xᵢ|ᵖ)^(1/p)``.
        ``"fro"`` is ``p = 2``; ``float("inf")`` the largest ``|xᵢ|``.

        >>> import minigrad as mg
        >>> mg.tensor([3.0, 4.0], requires_grad=True).norm()
        tensor(5., grad_fn=<LinalgVectorNormBackward0>)
        """
        if p == "fro" or p is None:
            p = 2
        if isinstance(p, str):
            raise RuntimeError(
                f"minigrad's norm takes a number for p or 'fro', not {p!r} (matrix norms such "
                "as 'nuc' are not implemented)"
            )
        source = self if dtype is None else self.to(dtype)
        return ops.LinalgVectorNorm.apply(source, p=p, dim=dim, keepdim=keepdim)

    def softmax(self, dim: int) -> Tensor:
        return ops.Softmax.apply(self, dim=dim)

    def log_softmax(self, dim: int) -> Tensor:
        return ops.LogSoftmax.apply(self, dim=dim)

    # -- reductions (each takes numpy's keepdims= too, as PyTorch does) ------------------------
    @_keepdims_alias
    def sum(self, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
        if dim is None and keepdim is False:  # x.sum(): forward's defaults, no options to pass
            return ops.Sum.apply(self)
        return ops.Sum.apply(self, dim=dim, keepdim=keepdim)

    @_keepdims_alias
    def mean(self, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
        if dim is None and keepdim is False:  # as sum's
            return ops.Mean.apply(self)
        return ops.Mean.apply(self, dim=dim, keepdim=keepdim)

    @_keepdims_alias
    def all(self, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
        """Whether every element is non-zero (True), over everything or along ``dim``.

        >>> import minigrad as mg
        >>> m = mg.tensor([[1.0, 0.0], [2.0, 3.0]])
        >>> m.all(), m.all(dim=1), m.any(0, keepdim=True)
        (tensor(False), tensor([False,  True]), tensor([[True, True]]))
        """
        return ops.all_or_any(self, np.all, dim, keepdim)

    @_keepdims_alias
    def any(self, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
        """Whether some element is non-zero, over everything or along ``dim``."""
        return ops.all_or_any(self, np.any, dim, keepdim)

    @_keepdims_alias
    def max(self, dim: int | None = None, keepdim: bool = False) -> Any:
        """The largest value, or with ``dim`` the ``(values, indices)`` along it."""
        if dim is None:
            return ops.MaxAll.apply(self)
        values = ops.MaxDim.apply(self, dim=dim, keepdim=keepdim)
        return maxResult(values, self.argmax(dim, keepdim))

    @_keepdims_alias
    def min(self, dim: int | None = None, keepdim: bool = False) -> Any:
        """The smallest value, or with ``dim`` the ``(values, indices)`` along it."""
        if dim is None:
            return ops.MinAll.apply(self)
        values = ops.MinDim.apply(self, dim=dim, keepdim=keepdim)
        return minResult(values, self.argmin(dim, keepdim))

    @_keepdims_alias
    def amax(self, dim: int | tuple[int, ...] = (), keepdim: bool = False) -> Tensor:
        """The largest value along ``dim`` (all dims by default); ties share the gradient.

        >>> import minigrad as mg
        >>> mg.tensor([[1.0, 3.0], [2.0, 0.0]], requires_grad=True).amax(1)
        tensor([3., 2.], grad_fn=<AmaxBackward0>)
        """
        return ops.Amax.apply(self, dim=dim, keepdim=keepdim)

    @_keepdims_alias
    def amin(self, dim: int | tuple[int, ...] = (), keepdim: bool = False) -> Tensor:
        """The smallest value along ``dim`` (all dims by default); ties share the gradient."""
        return ops.Amin.apply(self, dim=dim, keepdim=keepdim)

    @_keepdims_alias
    def logsumexp(self, dim: int | tuple[int, ...], keepdim: bool = False) -> Tensor:
        """``log Σ exp(x)`` along ``dim``, without overflow: the log of softmax's
        denominator, ``x.log_softmax(dim) == x - x.logsumexp(dim, keepdim=True)``."""
        return ops.Logsumexp.apply(self, dim=dim, keepdim=keepdim)

    @_keepdims_alias
    def var(
        self,
        dim: Any = None,
        unbiased: bool | None = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
    ) -> Tensor:
        """The variance, over everything or along ``dim``: Σ (xᵢ − mean)² / (n − correction),
        with ``correction=1`` (Bessel's) unless ``unbiased=False`` or ``correction`` says."""
        return ops.Var.apply(self, **_variance_options("var", dim, unbiased, keepdim, correction))

    @_keepdims_alias
    def std(
        self,
        dim: Any = None,
        unbiased: bool | None = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
    ) -> Tensor:
        """The standard deviation: the square root of ``var`` (same arguments)."""
        return ops.Std.apply(self, **_variance_options("std", dim, unbiased, keepdim, correction))

    @_keepdims_alias
    def prod(self, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        """The product of all elements, or along ``dim`` (integers multiply as int64)."""
        target = None if dtype is None else dtypes.to_dtype(dtype).numpy
        return ops.Prod.apply(self, dim=dim, keepdim=keepdim, dtype=target)

    def cumsum(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Running sums along ``dim``: ``tensor([1, 2, 3]).cumsum(0)`` is ``[1, 3, 6]``."""
        target = None if dtype is None else dtypes.to_dtype(dtype).numpy
        return ops.Cumsum.apply(self, dim=dim, dtype=target)

    def sum_to_size(self, *shape: Any) -> Tensor:
        """Sum over the dimensions that were broadcast, so the result has ``shape``."""
        shape = _shape_argument(shape)
        if not shape and self.ndim:  # to a single number: the plain sum, as in PyTorch
            return self.sum()
        result = self
        leading = self.ndim - len(shape)
        if leading > 0:
            result = result.sum(dim=tuple(range(leading)))
        stretched = tuple(i for i, n in enumerate(shape) if n == 1 and result.shape[i] != 1)
        if stretched:
            result = result.sum(dim=stretched, keepdim=True)
        return result

    # -- shapes ------------------------------------------------------------------------------
    def reshape(self, *shape: Any) -> Tensor:
        """The same values in another shape: a view when the memory allows it, else a copy,
        recorded as PyTorch records each case.

        >>> import minigrad as mg
        >>> m = mg.ones(2, 3, requires_grad=True)
        >>> m.reshape(3, 2).grad_fn, m.T.reshape(-1).grad_fn
        (<ViewBackward0 object>, <UnsafeViewBackward0 object>)
        """
        if not shape:
            raise _missing_argument("reshape", "shape")
        new_shape = _resolve_shape(_shape_argument(shape), self.numel())
        if self._array.flags.c_contiguous:
            return ops.View.apply(self, shape=new_shape)
        if shapes.can_view(self._array, new_shape):
            return ops.ReshapeAlias.apply(self, shape=new_shape)
        return ops.UnsafeView.apply(self.clone(), shape=new_shape)

    def view(self, *shape: Any) -> Tensor:
        """The same memory in another shape; refuses, as PyTorch does, when it cannot be."""
        if not shape:
            raise TypeError(
                "view() received an invalid combination of arguments - got (), but expected "
                "one of:\n * (minigrad.dtype dtype)\n * (tuple of ints size)\n"
            )
        new_shape = _resolve_shape(_shape_argument(shape), self.numel())
        if not shapes.can_view(self._array, new_shape):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            )
        return ops.View.apply(self, shape=new_shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """The dims from ``start_dim`` to ``end_dim`` merged into one (all, by default).

        >>> import minigrad as mg
        >>> mg.zeros(2, 3, 4).flatten(1).shape
        minigrad.Size([2, 12])
        """
        if self.ndim == 0:
            shapes.normalize_dims((start_dim, end_dim), 0)
            return self.reshape(1)
        start, end = shapes.normalize_dims((start_dim, end_dim), self.ndim)
        if start > end:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if start == end:
            # PyTorch returns the tensor itself: no ViewBackward0, and a leaf stays a leaf.
            return self
        shape = self.shape
        merged = int(np.prod(shape[start : end + 1], dtype=np.int64))
        return self.reshape(*shape[:start], merged, *shape[end + 1 :])

    def unflatten(self, dim: int, sizes: Sequence[int]) -> Tensor:
        """Dim ``dim`` split into several of ``sizes`` (one may be -1): the inverse of
        ``flatten``."""
        (axis,) = shapes.normalize_dims(dim, self.ndim)
        sizes = tuple(int(n) for n in sizes)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if self.ndim == 0:
            raise RuntimeError(
                "unflatten got an unexpected error:\nDimension specified as 0 but tensor has no "
                "dimensions"
            )
        if sizes.count(-1) > 1:
            raise RuntimeError(
                "unflatten got an unexpected error:\nonly one dimension can be inferred"
            )
        length = self.shape[axis]
        known = int(np.prod([n for n in sizes if n != -1], dtype=np.int64))
        inferred = sizes.count(-1) == 1 and known and length % known == 0
        if not inferred and (sizes.count(-1) or known != length):
            raise RuntimeError(
                f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
                f"{dim} ({length}) in the input tensor"
            )
        sizes = tuple(length // known if n == -1 else n for n in sizes)
        shape = (*self.shape[:axis], *sizes, *self.shape[axis + 1 :])
        if shapes.can_view(self._array, shape):
            return ops.View.apply(self, shape=shape)
        return self.reshape(shape)

    def repeat(self, *repeats: Any) -> Tensor:
        """Copies side by side: ``x.repeat(2, 1)`` stacks two copies of a matrix."""
        if not repeats:
            raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
        return ops.Repeat.apply(self, repeats=_shape_argument(repeats))

    def split(self, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
        """Pieces along ``dim``: of ``split_size`` each (an int), or of the sizes listed."""
        return ops.split(self, split_size, dim)

    def chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """``chunks`` pieces of (nearly) equal size along ``dim``."""
        return ops.chunk(self, chunks, dim)

    def outer(self, vec2: Tensor) -> Tensor:
        """The outer product of two vectors, ``out[i][j] = self[i] * vec2[j]``, recorded as
        PyTorch computes it: ``self.reshape(-1, 1) * vec2``."""
        for name, vector in (("self", self), ("vec2", vec2)):
            if vector.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector.ndim}-D")
        return self.reshape(-1, 1) * vec2

    def ger(self, vec2: Tensor) -> Tensor:
        return self.outer(vec2)

    def t(self) -> Tensor:
        return ops.TransposeMatrix.apply(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        return ops.Permute.apply(self, dims=tuple(reversed(range(self.ndim))))

    @property
    def mT(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """The last two dims swapped (each matrix of a batch transposed); a 0-d tensor is
        given back as it is, as PyTorch does."""
        if self.ndim < 2:
            if self.ndim == 0:
                return self
            raise RuntimeError(
                "tensor.mT is only supported on matrices or batches of matrices. "
                f"Got {self.ndim}-D tensor."
            )
        return self.transpose(-2, -1)

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        return ops.Transpose.apply(self, dim0=dim0, dim1=dim1)

    def permute(self, *dims: Any) -> Tensor:
        if not dims:
            raise _missing_argument("permute", "dims")
        return ops.Permute.apply(self, dims=_shape_argument(dims))

    def unsqueeze(self, dim: int) -> Tensor:
        return ops.Unsqueeze.apply(self, dim=dim)

    def squeeze(self, dim: int | None = None) -> Tensor:
        return ops.Squeeze.apply(self, dim=dim)

    def expand(self, *shape: Any) -> Tensor:
        if not shape:
            raise _missing_argument("expand", "size")
        return ops.Expand.apply(self, shape=_shape_argument(shape))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def __getitem__(self, index: Any) -> Tensor:
        return ops.index(self, index)

    def select(self, dim: int, index: int) -> Tensor:
        (axis,) = shapes.normalize_dims(dim, self.ndim)
        position = (slice(None),) * axis + (index,)
        if self.ndim == 0 or not isinstance(index, int) or isinstance(index, bool):
            return self[position]
        # A plain integer: the one SelectBackward0 that self[position] records, made without
        # the general indexing machinery (stack's derivative selects once per input).
        ops.check_in_bounds(index, self._array.shape[axis], axis)
        return ops.Index.apply(self, index=position)

    # -- copies and types ------------------------------------------------------------------
    def clone(self) -> Tensor:
        return ops.Clone.apply(self)

    def is_contiguous(self) -> bool:
        """Whether the elements lie in memory row after row, with no gaps (C order)."""
        return bool(self._array.flags.c_contiguous)

    def contiguous(self) -> Tensor:
        """This tensor if its memory is contiguous, else a contiguous copy (``CloneBackward0``).

        >>> import minigrad as mg
        >>> m = mg.ones(2, 3, requires_grad=True)
        >>> m.contiguous() is m, m.T.contiguous().grad_fn
        (True, <CloneBackward0 object>)
        """
        return self if self.is_contiguous() else self.clone()

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """A tensor of another dtype (``x.to(minigrad.float64)``), on a device (``x.to("cpu")``,
        ``x.to(device, dtype)``) or like another tensor (``x.to(other)``). This tensor
        itself when nothing changes, unless ``copy=True``; a new dtype is recorded as
        ``ToCopyBackward0``.

        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0])
        >>> x.to("cpu") is x, x.to("cpu", mg.float64).dtype
        (True, minigrad.float64)
        """
        target, copy = _to_arguments(self, args, kwargs)
        if target.numpy == self._array.dtype and not copy:
            return self
        if self._requires_grad and not target.is_floating_point:
            with no_grad():
                return ops.ToCopy.apply(self, dtype=target.numpy)
        return ops.ToCopy.apply(self, dtype=target.numpy)

    def cpu(self) -> Tensor:
        """This tensor: it is on the CPU already."""
        return self

    def cuda(self, device: Any = None) -> Tensor:
        """PyTorch's error for a build without CUDA: minigrad has no GPU."""
        to_device("cuda")
        return self  # not reached

    def type(self, dtype: Any) -> Tensor:
        return self.to(dtype)

    def float(self) -> Tensor:
        return self.to(dtypes.float32)

    def double(self) -> Tensor:
        return self.to(dtypes.float64)

    def half(self) -> Tensor:
        return self.to(dtypes.float16)

    def long(self) -> Tensor:
        return self.to(dtypes.int64)

    def int(self) -> Tensor:
        return self.to(dtypes.int32)

    def bool(self) -> Tensor:
        return self.to(dtypes.bool_)


class _ValuesAndIndices(NamedTuple):
    values: Tensor
    indices: Tensor

    def __repr__(self) -> str:
        kind = type(self).__name__.removesuffix("Result")
        return f"minigrad.return_types.{kind}(\nvalues={self.values!r},\nindices={self.indices!r})"


class sortResult(_ValuesAndIndices):  # noqa: N801
    """What ``x.sort(dim)`` returns: ``(values, indices)``, printed as PyTorch prints it."""


class histogramResult(NamedTuple):  # noqa: N801
    """What ``x.histogram(bins)`` returns: ``(hist, bin_edges)``, printed as in PyTorch."""

    hist: Tensor
    bin_edges: Tensor

    def __repr__(self) -> str:
        return (
            f"minigrad.return_types.histogram(\nhist={self.hist!r},\nbin_edges={self.bin_edges!r})"
        )


class maxResult(_ValuesAndIndices):  # noqa: N801
    """What ``x.max(dim)`` returns: ``(values, indices)``, printed as PyTorch prints it."""


class minResult(_ValuesAndIndices):  # noqa: N801
    """What ``x.min(dim)`` returns: ``(values, indices)``, printed as PyTorch prints it."""


def _in_memory_of(view: np.ndarray, base: np.ndarray) -> bool:
    """Whether a view's array still lies in its base's memory (``base.data`` may have been
    replaced since). An empty view holds no memory to compare, and counts as inside."""
    return view.size == 0 or np.shares_memory(view, base)


def _saved_result_is_now(target: Tensor, result: Tensor, viewed: bool = False) -> None:
    """An op done in place (``y.exp_()``) that saved its result saved what is now
    ``target``'s memory: the saved result takes ``target``'s version counter, so that a
    later change of ``target`` in place makes backward refuse, as in PyTorch (which then
    names the view's new history, ``AsStrided``, while ``target`` is a view still alive)."""
    for saved in getattr(result.grad_fn, "_saved", None) or ():
        if isinstance(saved, SavedTensor) and saved.version_counter is result._version_counter:
            saved.version_counter = target._version_counter
            saved.saved_version = target._version_counter.value
            saved.written_into_view = weakref.ref(target) if viewed else None


def _is_dtype(value: Any) -> bool:
    """A minigrad dtype, or a numpy one (the ops cast gradients back with those)."""
    return isinstance(value, dtypes.dtype | np.dtype) or (
        isinstance(value, type) and issubclass(value, np.generic)
    )


def _variance_options(
    name: str, dim: Any, unbiased: Any, keepdim: bool, correction: Any
) -> dict[str, Any]:
    """``var``'s and ``std``'s arguments as PyTorch reads them: ``x.var(True)`` is
    ``unbiased``, ``x.var(1, False)`` is ``dim=1, unbiased=False``."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got both 'unbiased' "
            "and 'correction'"
        )
    if unbiased is not None:
        correction = 1 if unbiased else 0
    return {"dim": dim, "correction": correction, "keepdim": keepdim}


_TO_KEYWORDS = ("device", "dtype", "non_blocking", "copy", "memory_format")


def _to_arguments(
    tensor: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[dtypes.dtype, bool]:
    """The dtype and ``copy`` flag of ``x.to(...)``'s three forms: ``to(dtype)``,
    ``to(device, dtype)`` and ``to(other)``; the device is checked (the CPU only)."""
    for key in kwargs:
        if key not in _TO_KEYWORDS:
            raise TypeError(f"to() got an unexpected keyword argument '{key}'")
    place, target = kwargs.get("device"), kwargs.get("dtype")
    rest = list(args)
    if rest and isinstance(rest[0], Tensor):
        other = rest.pop(0)
        target = other.dtype
    elif rest and _is_dtype(rest[0]):
        target = rest.pop(0)
    elif rest and (isinstance(rest[0], str | device | int) and not isinstance(rest[0], bool)):
        place = rest.pop(0)
        if rest and _is_dtype(rest[0]):
            target = rest.pop(0)
    copy = bool(kwargs.get("copy", False))
    if rest and isinstance(rest[0], bool):  # non_blocking, then copy, as in PyTorch
        rest.pop(0)
        if rest and isinstance(rest[0], bool):
            copy = rest.pop(0)
    if rest:
        kinds = ", ".join(
            "minigrad.dtype" if isinstance(a, dtypes.dtype) else type(a).__name__ for a in args
        )
        raise TypeError(f"to() received an invalid combination of arguments - got ({kinds})")
    if place is not None:
        to_device(place)
    return (tensor.dtype if target is None else dtypes.to_dtype(target)), copy


def _python_number(value: Any) -> Number:
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"unsupported operand type for **: '{type(value).__name__}'")


def _tensor_operand(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    raise TypeError(f"matmul(): argument 'other' must be Tensor, not {type(value).__name__}")


def _shape_argument(shape: tuple[Any, ...]) -> tuple[int, ...]:
    """``reshape(2, 3)`` and ``reshape((2, 3))`` both mean the shape ``(2, 3)``."""
    if len(shape) == 1 and isinstance(shape[0], tuple | list):
        shape = tuple(shape[0])
    return tuple(map(int, shape))


def _missing_argument(method: str, name: str) -> TypeError:
    """PyTorch's TypeError for a method called without its one required argument
    (``x.reshape()``), before an empty shape could be read as a shape of its own."""
    return TypeError(f'{method}() missing 1 required positional arguments: "{name}"')


def _resolve_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = int(np.prod([n for n in shape if n != -1]))
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    return shape


def _operand(value: Any) -> Tensor:
    """A Tensor for an op's argument: tensors as they are, Python numbers wrapped."""
    if value.__class__ in _PYTHON_NUMBERS:  # first: a failed isinstance costs a generic read
        return _wrapped_number(value)
    if isinstance(value, Tensor):
        return value
    if isinstance(value, ndarray):
        return Tensor(value)
    return _wrapped_number(value)


def _wrapped_number(value: Any) -> Tensor:
    """A Python number as an operand: a tensor that type promotion treats as a number.

    A module function, not a classmethod (Python 3.11 binds one at each call): x * 0.5
    wraps 0.5 every time.

    >>> _wrapped_number(0.5)._array.dtype, _wrapped_number(True)._array.dtype
    (dtype('float64'), dtype('bool'))
    """
    # A Python float first, the common case: np.array makes it float64 unasked, which
    # costs less than being told. Bools before ints, as bool is an int. (Other dtype
    # objects positional: np.array converts a type such as np.float64 to its dtype at
    # every call, and parses a keyword, which together cost a third of it.)
    if value.__class__ is float:
        array = np.array(value)
    elif isinstance(value, _FLOATS):
        array = np.array(value, _FLOAT64)
    elif isinstance(value, _BOOLS):
        array = np.array(value, _BOOL)
    elif isinstance(value, _INTEGERS):
        array = np.array(value, _INT64)
    else:
        raise TypeError(f"unsupported operand type: '{type(value).__name__}'")
    wrapped = new_object(Tensor)  # as an op's run makes its result (ops.base._apply_of)
    wrapped._array = array
    wrapped._is_wrapped_number = True
    return wrapped


def as_tensor_like(value: Any, like: Tensor) -> Tensor:
    """``value`` as a Tensor, taking ``like``'s dtype when it is not one already."""
    if isinstance(value, Tensor):
        return value
    return Tensor(np.asarray(value, dtype=like._array.dtype))


def _written_directly(tensor: Tensor, other: Any, ufunc: np.ufunc, alpha: Number = 1) -> bool:
    """Have numpy write ``ufunc(tensor, alpha * other)`` straight into ``tensor``'s array
    when an in-place op may (``np.subtract`` for ``sub_``), and say whether it did.

    It may when the op records nothing and ``other`` is a Tensor of the same float dtype
    and shape (no promotion, no broadcasting: numpy's arithmetic is then PyTorch's), the
    array is writable, no element of it is reached twice nor read from elsewhere in it,
    and nobody watches the write (a profiler, forward mode's tangents,
    ``allow_mutation_on_saved_tensors``). Anything else takes ``_apply_inplace``, which
    also raises PyTorch's errors.

    >>> import minigrad as mg
    >>> x = mg.ones(2)
    >>> _written_directly(x, mg.ones(2), np.add), x, x._version
    (True, tensor([2., 2.]), 1)
    >>> _written_directly(x, mg.ones(1), np.add), x._version
    (False, 1)
    """
    if not isinstance(other, Tensor) or alpha.__class__ not in (int, float):
        return False
    # (grad mode read directly: under no_grad, the optimizer's case, nothing is asked)
    if grad_mode._state.enabled and tensor._inplace_is_recorded(other):
        return False
    array, read = tensor._array, other._array
    dtype = array.dtype  # (a property of numpy's: read once)
    if not (
        read.dtype is dtype
        and dtype.kind == "f"
        and read.shape == array.shape
        and array.flags.writeable
        and not profiling.active
        and not tangents.open_levels
        and not keepers_of_saved_values
    ):
        return False
    # A stride of 0 (an element written twice?) or a partial overlap: the general path
    # finds out, and refuses.
    if 0 in array.strides or _overlaps_partly(array, read):
        return False
    # numpy computes into the tensor's own array, the same arithmetic in the same dtype,
    # without a result and a copy (out= given by place: no keyword to parse).
    ufunc(array, read if alpha == 1 else ops.arithmetic.scaled_by(read, alpha), array)
    tensor._version_counter.value += 1  # bump(), written out
    return True


def _written_twice(array: np.ndarray) -> bool:
    """Whether some element of ``array`` is reached through a stride of 0 along a dim of
    more than one element (an expanded tensor): an in-place write would write it twice."""
    return any(n > 1 and step == 0 for n, step in zip(array.shape, array.strides))


def _overlaps_partly(written: np.ndarray, read: np.ndarray) -> bool:
    """Whether an in-place op would read memory it writes, other than element for element
    (``y[0:2].add_(y[1:])``): PyTorch refuses that; ``y.add_(y)`` is fine."""
    # Two arrays that each own their memory are one array or apart: the quick test, as
    # np.may_share_memory costs twice as much (the optimizer's p -= lr * p.grad). (Not
    # `base is None`: an array made in C around memory it does not own may have no base.)
    if written.flags.owndata and read.flags.owndata:
        return False
    if not np.may_share_memory(written, read):
        return False
    same = (written.__array_interface__["data"][0], written.shape, written.strides)
    if same == (read.__array_interface__["data"][0], read.shape, read.strides):
        return False
    return bool(np.shares_memory(written, read))


def _move_retained_grad(tensor: Tensor, old: Node | None, new: Node | None) -> None:
    """``retain_grad()`` follows a tensor to its new ``grad_fn`` after an in-place change,
    as in PyTorch: ``.grad`` is then the gradient of its new value."""
    if old is None or new is None or old.retained_tensor is None:
        return
    if old.retained_tensor() is tensor:
        new.retained_tensor, old.retained_tensor = old.retained_tensor, None


def _only_first_output(tensor: Tensor, what: str) -> None:
    if tensor._output_nr:
        raise NotImplementedError(
            f"minigrad supports {what} on the first output of a Function that returns "
            f"several, not on output {tensor._output_nr}"
        )
