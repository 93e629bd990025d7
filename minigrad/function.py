"""Graph nodes and the ``Function`` base class every op is written with.

An op is a ``Function`` subclass with two static methods side by side, as in
``torch.autograd.Function``:

- ``forward(ctx, *arrays)`` computes the result with numpy. Tensor arguments arrive as
  numpy arrays; ``ctx.save_for_backward(...)`` keeps the ones the derivative needs.
- ``backward(ctx, grad)`` receives the gradient of the result as a Tensor and returns one
  gradient per positional argument of ``forward`` (``None`` for numbers and for inputs that
  need none). It is written with Tensor operations, so that with ``create_graph=True`` the
  derivative is itself recorded and can be differentiated again.

>>> import numpy as np
>>> import minigrad as mg
>>> class Cube(mg.autograd.Function):
...     formula = "∂(x³)/∂x = 3x²"
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x**3
...     @staticmethod
...     def backward(ctx, grad):
...         (x,) = ctx.saved_tensors
...         return grad * 3 * x**2
>>> x = mg.tensor(2.0, requires_grad=True)
>>> y = Cube.apply(x)
>>> y
tensor(8., grad_fn=<CubeBackward>)
>>> y.backward()
>>> x.grad
tensor(12.)

The engine broadcasts nothing back by itself in ``backward``: a gradient whose shape was
broadcast is summed back to the input's shape, and cast to its dtype, by the engine, as
PyTorch's engine does, so each op's derivative can be written as plainly as on paper.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .grad_mode import is_grad_enabled, no_grad

if TYPE_CHECKING:
    from .tensor import Tensor

FREED_GRAPH_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)

# Creation order of nodes: the engine runs the newest ready node first, as PyTorch does,
# and drawings number nodes by it so that they are the same on every run.
_sequence_numbers = itertools.count()

Edge = tuple["Node | None", int]


class Node:
    """A node of the backward graph: what a tensor's ``grad_fn`` points to.

    ``next_functions`` holds one ``(node, 0)`` pair per input of the operation, with
    ``None`` for inputs that need no gradient, exactly as PyTorch shows it.
    """

    formula: str = ""
    # Defaults shared by every node until one sets its own (a node is made for every op).
    tensor_pre_hooks: Sequence[Callable[[Tensor], Tensor | None]] = ()  # register_hook
    retained_tensor: weakref.ref[Tensor] | None = None  # retain_grad
    # (shape, dtype) of each input: the engine sums a broadcast gradient back to the
    # shape and casts it to the dtype. None where the node needs no such check.
    input_metadata: tuple[tuple[tuple[int, ...], np.dtype], ...] | None = None
    # Whether the gradients this node returns are new tensors that it keeps no reference
    # to: then the engine may make one a leaf's .grad without copying it.
    returns_new_gradients: bool = False

    def __init__(self, next_functions: tuple[Edge, ...]) -> None:
        self.next_functions = next_functions
        self.sequence_nr = next(_sequence_numbers)

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.name()} object>"

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        """The gradients this node sends to each of its ``next_functions``."""
        raise NotImplementedError

    # Overridden by nodes that keep saved tensors.
    def saved_tensors_freed(self) -> bool:
        """Whether backward has freed what this node saved (no ``retain_graph``)."""
        return False

    def constant_inputs(self) -> dict[int, Tensor]:
        """The inputs needing no gradient that this node saved, by place (see BackwardNode)."""
        return {}

    def release_saved_tensors(self) -> bool:
        """Free the saved tensors; say whether there were any."""
        return False

    def check_saved_tensors(self) -> None:
        """Raise PyTorch's error if a saved tensor was freed or modified in place."""


class AccumulateGrad(Node):
    """The node at the end of every path: adds the gradient that arrives into ``variable.grad``."""

    formula = "leaf.grad += grad"

    def __init__(self, variable: Tensor) -> None:
        super().__init__(())
        self.variable = variable

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        return ()

    def accumulate(self, grad: Tensor, create_graph: bool, owned: bool = False) -> None:
        """``variable.grad += grad``: see ``accumulate_into``."""
        accumulate_into(self.variable, grad, create_graph, owned)


def accumulate_into(tensor: Tensor, grad: Tensor, create_graph: bool, owned: bool = False) -> None:
    """``tensor.grad += grad``, as PyTorch's AccumulateGrad does it (``retain_grad`` too).

    The first gradient becomes ``.grad``: as it is when ``owned`` says that nobody else can
    see it (PyTorch steals such a gradient too, saving a copy the size of the tensor), else
    as a copy, so that ``.grad`` never shares memory with a gradient that went elsewhere.
    Later ones are added in place, unless the graph of the derivative is being built: then
    the sum is a new, recorded tensor.
    """
    Tensor = _tensor.Tensor
    if tensor.grad is None:
        if owned and not create_graph:
            tensor._grad = Tensor(grad._array)
        elif create_graph and grad.requires_grad:
            copy = Tensor._from_op(grad._array.copy(), CopyBackwards(grad._edge()), None)
            copy.grad_fn.input_metadata = ((grad.shape, grad._array.dtype),) * 2
            tensor._grad = copy
        else:
            tensor._grad = Tensor(grad._array.copy())
    elif create_graph:
        tensor._grad = tensor.grad + grad
    else:
        with no_grad():
            tensor.grad.add_(grad)


class CopyBackwards(Node):
    """What ``x.grad`` points to after ``backward(create_graph=True)``: ``.grad`` is a copy of
    the incoming gradient, and its history continues through that gradient's graph."""

    formula = "copy: the gradient passes through"

    def __init__(self, source: Edge) -> None:
        super().__init__(((None, 0), source))

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        return (None, grad)


class SavedTensor:
    """A tensor kept for ``backward``, with the version it had when it was saved.

    A saved *result* of the op is stored without its ``grad_fn``, which is this very node:
    keeping it would make a reference cycle between a node and its output.
    """

    __slots__ = (
        "tensor",
        "result_ref",
        "array",
        "version_counter",
        "saved_version",
        "is_result",
        "requires_grad",
    )

    def __init__(self, tensor: Tensor, is_result: bool = False) -> None:
        self.tensor: Tensor | None = None if is_result else tensor
        # The result only weakly: the error message names its grad_fn as it is *now*.
        self.result_ref = weakref.ref(tensor) if is_result else None
        self.array = tensor._array
        self.version_counter = tensor._version
        self.saved_version = tensor._version.value
        self.is_result = is_result
        self.requires_grad = tensor.requires_grad

    @property
    def kind(self) -> str:
        """``DoubleTensor [3]``, for the error message: made only when one is raised."""
        return _tensor.Tensor(self.array).type_description()

    def is_modified(self) -> bool:
        """Whether the tensor was changed in place since it was saved."""
        return self.version_counter.value != self.saved_version

    def unpack(self, node: Node) -> Tensor:
        if self.tensor is not None:
            return self.tensor
        return _tensor.Tensor._from_graph(self.array, node, self.version_counter)

    def modified_error(self, node: Node) -> RuntimeError:
        # PyTorch names the tensor's grad_fn after the change, e.g. "Mul" after x.mul_(2).
        result = self.result_ref() if self.result_ref is not None else None
        producer = _producer_name(result if self.is_result else self.tensor)
        if self.is_result and result is None:
            producer = _producer_name_of(node)
        where = f", which is output 0 of {producer}," if producer else ""
        return RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{self.kind}]{where} is at version "
            f"{self.version_counter.value}; expected version {self.saved_version} instead. "
            "Hint: the tensor was changed in place after it was used; use an out-of-place "
            "operation (y = y + 1 rather than y += 1) or clone it first."
        )


def _producer_name(tensor: Tensor | None) -> str:
    if tensor is None or tensor.grad_fn is None:
        return ""
    return _producer_name_of(tensor.grad_fn)


def _producer_name_of(node: Node) -> str:
    return node.name().removesuffix("Backward0").removesuffix("Backward1")


class Context:
    """What ``forward`` leaves for ``backward``: saved tensors and any plain attributes
    (``ctx.dim = dim``), plus ``needs_input_grad`` as in PyTorch.

    When the op is recorded, the context *is* its node, as in PyTorch (``ctx is
    y.grad_fn``): a plain ``Context`` is only what ``forward`` gets when nothing is recorded.
    """

    needs_input_grad: tuple[bool, ...] = ()
    # Set by ``save_for_backward``; the node turns it into ``_saved`` once the result exists.
    _to_save: tuple[Any, ...] = ()

    def save_for_backward(self, *values: Any) -> None:
        """Keep ``values`` for ``backward``. Pass the numpy arrays ``forward`` received (they
        are saved as the Tensors they came from) or the array ``forward`` returns."""
        self._to_save = values


class BackwardNode(Node, Context):
    """The node a ``Function`` leaves in the graph, and the context its ``forward`` and
    ``backward`` share: it keeps the saved tensors and runs ``backward`` on a gradient."""

    # What was saved, as SavedTensors (or wrapped numbers); None once backward freed it.
    _saved: list[SavedTensor | Tensor] | None = ()  # type: ignore[assignment]
    # The saved inputs that need no gradient, by their place in next_functions.
    _constants: dict[int, SavedTensor | Tensor] = {}  # replaced whole, never changed in place
    # Which arguments were Tensors, when some were not (a user's Function given a number):
    # numbers get no edge and no gradient. None when every argument is a Tensor.
    input_is_tensor: tuple[bool, ...] | None = None

    def __init__(self, function: type[Function], inputs: tuple[Any, ...]) -> None:
        # One pass over the inputs: where each Tensor's gradient goes, its shape and dtype
        # (plain tuples: the engine compares them with each gradient's), and whether it
        # needs a gradient. Never the inputs themselves: a graph must not keep alive
        # intermediate tensors that nobody else references.
        Tensor = _tensor.Tensor
        edges, metadata, needs_grad = [], [], []
        for value in inputs:
            if isinstance(value, Tensor):
                edges.append(value._edge())
                metadata.append((value._array.shape, value._array.dtype))
                needs_grad.append(value._requires_grad)
            else:
                needs_grad.append(False)
        super().__init__(tuple(edges))
        self.function = function
        self.input_metadata = tuple(metadata)
        self.needs_input_grad = tuple(needs_grad)
        if len(edges) != len(inputs):
            self.input_is_tensor = tuple(isinstance(value, Tensor) for value in inputs)

    @property  # type: ignore[override]
    def formula(self) -> str:
        return self.function.formula

    @property  # type: ignore[override]
    def returns_new_gradients(self) -> bool:
        return self.function.returns_new_gradients

    def name(self) -> str:
        # forward may pick a variant of its node's name: sum(x) is SumBackward0 and
        # sum(x, dim) SumBackward1 in PyTorch, with the same derivative.
        return getattr(self, "node_name", None) or self.function.node_name()

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        grads = self.function.backward(self, grad)
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) != len(self.needs_input_grad):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {len(self.needs_input_grad)}, got {len(grads)})"
            )
        # next_functions holds an edge for Tensor arguments only; numbers get no gradient.
        # (Built-in ops get numbers as wrapped Tensors: then every gradient is kept as it is.)
        if self.input_is_tensor is not None:
            kept = zip(grads, self.input_is_tensor, strict=True)
            grads = tuple(grad for grad, is_tensor in kept if is_tensor)
        return grads

    @property
    def saved_tensors(self) -> tuple[Tensor, ...]:
        if self._saved is None:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        unpacked = []
        for saved in self._saved:
            if isinstance(saved, SavedTensor):
                if saved.is_modified():
                    raise saved.modified_error(self)
                saved = saved.unpack(self)
            unpacked.append(saved)
        return tuple(unpacked)

    def _save(self, arrays: Sequence[Any], inputs: tuple[Any, ...], returned: Any, result: Tensor):
        """Turn what ``forward`` asked to save into Tensors, once the result exists:
        ``arrays`` are what forward received for ``inputs``, ``returned`` what it returned,
        ``result`` the Tensor made of it."""
        Tensor = _tensor.Tensor
        saved: list[SavedTensor | Tensor] = []
        for value in self._to_save:
            if isinstance(value, Tensor):
                saved.append(SavedTensor(value))
                continue
            if value is returned:
                saved.append(SavedTensor(result, is_result=True))
                continue
            edge = 0  # the input's place in next_functions, which lists Tensors only
            for array, tensor in zip(arrays, inputs):
                if not isinstance(tensor, Tensor):
                    continue
                if value is array:
                    # A wrapped number (the 2 of x * 2) belongs to this op alone: nothing
                    # can change it in place, so it needs no version check.
                    kept = tensor if tensor._is_wrapped_number else SavedTensor(tensor)
                    saved.append(kept)
                    if not tensor._requires_grad:
                        self._constants = {**self._constants, edge: kept}
                    break
                edge += 1
            else:  # a constant computed in forward: it has no history to protect
                saved.append(Tensor(np.asarray(value)))
        self._to_save = ()
        self._saved = saved

    def constant_inputs(self) -> dict[int, Tensor]:
        """The inputs that need no gradient and that this node saved for ``backward``, by
        their place in ``next_functions``. Read, never unpacked: nothing is computed and the
        graph is left as it was. Empty once backward has freed the saved tensors; a constant
        changed in place since it was saved is left out (its value now is not the one the op
        used).

        >>> import minigrad as mg
        >>> x = mg.tensor(2.0, requires_grad=True)
        >>> (x * 3).grad_fn.constant_inputs()
        {1: tensor(3)}
        >>> (x + 3).grad_fn.constant_inputs()  # an addition saves nothing
        {}
        """
        if self._saved is None:
            return {}
        found = {}
        for edge, kept in self._constants.items():
            if isinstance(kept, SavedTensor):
                if kept.is_modified() or kept.tensor is None:
                    continue
                kept = kept.tensor
            found[edge] = kept
        return found

    def saved_tensors_freed(self) -> bool:
        return self._saved is None

    def release_saved_tensors(self) -> bool:
        if not self._saved:
            return False
        self._saved = None
        return True

    def check_saved_tensors(self) -> None:
        if self._saved is None:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        for saved in self._saved:
            if isinstance(saved, SavedTensor) and saved.is_modified():
                raise saved.modified_error(self)


class Function:
    """Base class of every differentiable operation (see the module docstring).

    Class attributes a subclass may set:

    - ``formula``: the local derivative in a short line, shown by the backward stepper.
    - ``name``: the ``grad_fn`` name, when it is not ``<ClassName>Backward0``'s pattern.
    - ``is_view``: the result shares memory with the first input (reshape, transpose, ...).
    """

    formula: str = ""
    name: str | None = None
    is_view: bool = False
    # A user's backward may return a tensor it also keeps (in ctx, say): never adopted as
    # .grad. The built-in ops, whose backwards return new tensors, set this to True.
    returns_new_gradients: bool = False

    @staticmethod
    def forward(ctx: Context, *args: Any, **options: Any) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def backward(ctx: Context, grad: Tensor) -> Any:
        raise NotImplementedError

    @classmethod
    def node_name(cls) -> str:
        return cls.name or f"{cls.__name__}Backward"

    @classmethod
    def arrays_for_forward(cls, args: tuple[Any, ...]) -> list[Any]:
        """What ``forward`` receives: each Tensor's numpy array, other values as they are."""
        Tensor = _tensor.Tensor
        return [value._array if isinstance(value, Tensor) else value for value in args]

    @classmethod
    def apply(cls, *args: Any, **options: Any) -> Tensor:
        """Run ``forward`` on ``args`` (Tensors or numbers) and, when gradients are being
        recorded and an input requires them, attach a node that can run ``backward``.
        Keyword ``options`` (``dim=0``) are passed to ``forward`` and get no gradient."""
        Tensor = _tensor.Tensor
        arrays = cls.arrays_for_forward(args)
        base = args[0] if cls.is_view else None
        if is_grad_enabled() and _any_requires_grad(args):
            node = BackwardNode(cls, args)
            returned = cls.forward(node, *arrays, **options)
            result = Tensor._from_op(_as_array(returned), node, base)
            if node._to_save:
                node._save(arrays, args, returned, result)
            return result
        returned = cls.forward(Context(), *arrays, **options)
        return Tensor._from_op(_as_array(returned), None, base)


def _any_requires_grad(args: tuple[Any, ...]) -> bool:
    Tensor = _tensor.Tensor
    for value in args:
        if isinstance(value, Tensor) and value._requires_grad:
            return True
    return False


def _as_array(returned: Any) -> np.ndarray:
    # numpy gives scalars, not 0-d arrays, for 0-d inputs (np.tanh(np.array(1.0)))
    return returned if type(returned) is np.ndarray else np.asarray(returned)


# tensor.py imports the classes above, so the Tensor class is reached through its module,
# imported last: this works whichever of the two modules is imported first.
from . import tensor as _tensor  # noqa: E402
