"""What every built-in op shares: the ``Op`` base class, elementwise type promotion, and
two small helpers for writing derivatives.

A built-in op computes on numpy arrays in ``forward`` (fast, and easy to read beside the
maths) and writes ``backward`` with Tensor operations, so that with ``create_graph=True``
the derivative is itself recorded and can be differentiated again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

# (ndarray by its own name, tested on every op: see minigrad/function.py)
from numpy import ndarray

from .. import dtypes, grad_mode, profiling
from ..function import BackwardNode, Context, Function, new_object, recorded_node
from ..shapes import broadcast_error, broadcast_shape
from ..tangents import open_levels, propagate
from .aten_names import aten_name

if TYPE_CHECKING:
    from ..tensor import Tensor


class Op(Function):
    """A built-in op. Its ``forward(ctx, *arrays, **options)`` computes with the numpy
    arrays of its Tensor arguments (and returns an array); ``ctx.save_for_backward`` takes
    those arrays, or the one it returns, and keeps the Tensors they belong to. Its node is
    named ``<ClassName>Backward0`` unless ``name`` says else.

    Class attributes: ``formula`` (the local derivative in a line, for the stepper),
    ``jvp_formula`` (the forward derivative: the result's tangent from the inputs'
    tangents, written ȧ for a's), ``name`` (the node's name) and ``is_view`` (the result
    shares the first input's memory).

    ``jvp(ctx, *tangents)`` is forward mode's derivative (``torch.autograd.Function``'s
    name for it): given one tangent per argument (None where there is none), it returns
    the result's, with Tensor operations so that it can itself be differentiated. It finds
    the inputs in ``ctx.primals`` and the result in ``ctx.result``, beside whatever
    ``forward`` left in ``ctx``.
    """

    jvp_formula: str = ""
    # Whether backward is written only with what numpy arrays and Tensors do alike
    # (``grad * b``, ``-grad``, ``grad @ m`` and the helpers of minigrad.alike): then a
    # backward pass that records nothing runs it on plain arrays, its saved tensors given
    # as arrays too. Otherwise it gets Tensors, as with create_graph.
    backward_on_arrays = False

    returns_new_gradients = True
    _node_base = BackwardNode

    # A static method given its op, not a classmethod: Python 3.11 binds a classmethod
    # anew at each read (every op's run calls it, ``arrays_for_forward(op, args)``).
    @staticmethod
    def arrays_for_forward(op: type[Op], args: tuple[Any, ...]) -> list[Any]:
        """What ``forward`` receives: each Tensor's numpy array, other values as they are."""
        Tensor = _tensor.Tensor
        # A loop, not a list comprehension: in this Python (3.11) a comprehension is a
        # function made and called each time, which costs more than its one or two items.
        arrays = []
        for value in args:
            arrays.append(value._array if isinstance(value, Tensor) else value)
        return arrays

    @classmethod
    def apply(cls, *args: Any, **options: Any) -> Tensor:
        """Run ``forward`` on ``args`` (Tensors; numbers come wrapped) and, when gradients
        are being recorded and an input requires them, attach a node that can run
        ``backward``. Keyword ``options`` (``dim=0``) go to ``forward`` and get no gradient."""
        return _apply_of(cls)(*args, **options)  # (each op has its own: see __init_subclass__)

    @classmethod
    def node_name(cls) -> str:
        return cls.name or f"{cls.__name__}Backward0"

    @classmethod
    def shapes_error(cls, arrays: list[Any]) -> RuntimeError | None:
        """PyTorch's error for ``arrays`` when ``forward`` failed on them: shapes that do
        not fit together, say (None: numpy's error stands)."""
        return None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Each op gets an ``apply`` of its own, a plain function that knows its op: Python
        # 3.11 binds a classmethod anew at each call (``Mul.apply`` for every x * y), which
        # cost about as much as the call itself. Read on the class, a function is not bound.
        cls.apply = _apply_of(cls)  # type: ignore[method-assign]


def _apply_of(op: type[Op]) -> Callable[..., Tensor]:
    """``op.apply``: what ``Op.apply`` does, for this one op."""
    # What every run reads of its op, read once here, when the class is made (an op's
    # class is not changed afterwards): Python 3.11 does not cache an attribute read on a
    # class (about 170 instructions each, four per op).
    arrays_for_forward, node_class, forward, is_view = (
        op.arrays_for_forward,
        op._node_class,
        op.forward,
        op.is_view,
    )

    def run(op: type[Op], args: tuple[Any, ...], options: dict[str, Any]) -> Tensor:
        """Run ``forward`` on ``args`` and record it when needed.

        Every op runs this, the derivatives' ops too: it is written for the fewest Python
        calls (each costs more than a multiplication of two numbers in numpy)."""
        arrays = arrays_for_forward(op, args)
        # grad_mode's state read directly: is_grad_enabled() is this one read, and a call
        # costs more than it.
        node = recorded_node(node_class, args) if grad_mode._state.enabled else None
        ctx = node if node is not None else Context()
        try:
            returned = forward(ctx, *arrays, **options)
        except ValueError:  # numpy's own error: PyTorch's instead, where it has one
            error = op.shapes_error(arrays)
            if error is None:
                raise
            raise error from None
        # numpy gives scalars, not 0-d arrays, for 0-d inputs (np.tanh(np.array(1.0)))
        array = returned if returned.__class__ is ndarray else np.asarray(returned)
        # Tensor._from_op, written out: one call less for every op.
        result = new_object(_tensor.Tensor)
        result._array = array
        if node is not None:
            result._grad_fn = node
            result._requires_grad = True
        if is_view:
            result._share_memory_with(args[0])
        if node is not None and node._to_save:  # after: a view saves its base's versions
            node._save(arrays, args, returned, result)
        if open_levels:  # forward mode: the one check that code without it pays
            propagate(op, ctx, args, result)
        return result

    def apply(*args: Any, **options: Any) -> Tensor:
        if profiling.active:  # a profiler is open: time the op under PyTorch's name for it
            return profiling.run_op(run, op, aten_name(op, options), args, options)
        return run(op, args, options)

    apply.__doc__ = Op.apply.__doc__
    apply.__qualname__ = f"{op.__qualname__}.apply"
    return apply


class Elementwise(Op):
    """An op on operands of the same shape after broadcasting, computed in the dtype that
    PyTorch's type promotion gives (``int_tensor * 2.5`` is float32, not numpy's float64)."""

    @staticmethod
    def arrays_for_forward(op: type[Op], args: tuple[Any, ...]) -> list[Any]:
        first = args[0]._array
        dtype = first.dtype
        arrays = [first]
        for operand in args[1:]:
            array = operand._array
            # `is`: numpy makes one dtype object per built-in type, and comparing two with
            # `!=` costs as much as a small multiplication. Equal dtypes that are not the same
            # object (a byte-swapped one) just take the general path below.
            if array.dtype is not dtype:
                if operand._is_wrapped_number and dtype.kind == "f":
                    # A number takes a float tensor's type, whatever its own (PyTorch's
                    # promotion: x_float32 * 2.5 and x + 1 are float32): cast here.
                    array = array.astype(dtype)
                elif array.dtype is not _BOOL or dtype.kind != "f":
                    return op._promoted_arrays(args)
            arrays.append(array)
        # The most common case: operands of one dtype (numbers wrapped in it too), or a
        # float tensor and masks (bool: numpy and PyTorch keep the float type), of any
        # shapes: numpy broadcasts them as PyTorch does, and shapes that do not broadcast
        # get PyTorch's error from shapes_error when numpy refuses them.
        if dtype.kind == "f" or op.computation_dtype(dtype) is dtype:
            return arrays
        return op._promoted_arrays(args)

    @classmethod
    def shapes_error(cls, arrays: list[Any]) -> RuntimeError | None:
        return broadcast_error(*(array.shape for array in arrays))

    @classmethod
    def _promoted_arrays(cls, args: tuple[Any, ...]) -> list[np.ndarray]:
        """PyTorch's type promotion and broadcasting, in full."""
        arrays = [a._array for a in args]
        dtype = cls.computation_dtype(dtypes.result_type(args))
        shape = arrays[0].shape
        for array in arrays:
            if array.shape != shape and array.ndim != 0:  # broadcasting: check it can
                broadcast_shape(*(b.shape for b in arrays))
                break
        return [b if b.dtype == dtype else b.astype(dtype) for b in arrays]

    @staticmethod
    def computation_dtype(promoted: np.dtype) -> np.dtype:
        """The dtype to compute in, given the promoted one. A float dtype is kept as it is
        (so it is not asked for floats when the operands are alike); true division
        computes integers in the default float type."""
        return promoted


_BOOL = np.dtype(np.bool_)


def as_float(x: np.ndarray) -> np.ndarray:
    """Integer inputs to exp, log, ... compute in the default float type, as in PyTorch."""
    return x if x.dtype.kind == "f" else x.astype(dtypes.get_default_dtype().numpy)


def constant(array: Any) -> Tensor:
    """A tensor of values a derivative needs that have no history (a mask, a count)."""
    return _tensor.Tensor(np.asarray(array))


def recorded_constant(values: Any, source: Any) -> Any:
    """``values`` a derivative multiplies by (a mask, weights) that were read off
    ``source``: when ``source`` is recorded, so is this tensor, as a function of ``source``
    whose own derivative is zero.

    PyTorch's derivative formulas that read an input (relu's reads its result, nll_loss's
    its log-probabilities) keep it in their graph: with ``create_graph=True`` the first
    derivative requires grad, and its derivative is zero, not an error. A bare comparison
    records nothing, hence this. The zero comes from ``masked_fill`` over every element,
    which, unlike ``source * 0``, stays 0 where ``source`` is inf or nan. A backward pass
    on plain arrays (``source`` a numpy array) gets ``values`` themselves, at no cost.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    >>> recorded_constant(np.array([True, False]), x)
    tensor([1., 0.], grad_fn=<AddBackward0>)
    """
    if source.__class__ is ndarray:  # a backward pass on arrays: nothing to record
        return values
    if isinstance(values, _tensor.Tensor):  # a comparison of Tensors: its array
        values = values._array
    if not (grad_mode._state.enabled and source.requires_grad):
        return constant(values)
    zeros_on_source = source.masked_fill(constant(True), 0.0)
    return zeros_on_source + constant(values)


# tensor.py imports the ops, so the Tensor class is reached through its module, imported
# last: this works whichever of the two modules is imported first.
from .. import tensor as _tensor  # noqa: E402
