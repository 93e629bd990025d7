"""Graph nodes, and ``Function``: a differentiable function with two static methods side by
side, exactly as ``torch.autograd.Function``:

- ``forward(ctx, *args)`` receives Tensors (and any other arguments), runs with recording
  off and returns a Tensor or a tuple of them; ``ctx.save_for_backward(...)`` keeps the
  Tensors the derivative needs.
- ``backward(ctx, *grads)`` receives the gradient of each output and returns one gradient
  per argument of ``forward`` (``None`` for non-Tensors and for inputs that need none). It
  is written with Tensor operations, so that with ``create_graph=True`` the derivative is
  itself recorded and can be differentiated again.

The built-in ops (``minigrad.ops``) have the same shape, but their ``forward`` computes on
the numpy arrays of their arguments (``Op.apply``): faster, and plainer to read beside the
maths.

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
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

# ndarray by its own name: numpy's module has a __getattr__, which keeps Python 3.11 from
# caching np.<name> reads, and each costs as much as a small call (tested on every op).
from numpy import ndarray

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

# object.__new__, read once: Python 3.11 looks a method of a class up in full at every
# read, and every op makes a tensor without its __init__ (see ops.base._apply_of).
new_object = object.__new__

# Whether a backward hook (a tensor's or a node's, retain_grad, post-accumulate) has ever
# been registered in this process. Until one is, no node or tensor has any, and the engine
# does not look for them on every node it runs. Never reset: a removed hook leaves it set.
hooks_registered = False


def note_hook_registered() -> None:
    """Say that a backward hook has been registered: the engine looks for hooks from now on.

    >>> import minigrad as mg
    >>> x = mg.tensor(1.0, requires_grad=True)
    >>> _ = (x * 2).register_hook(lambda grad: None)
    >>> mg.function.hooks_registered
    True
    """
    global hooks_registered
    hooks_registered = True


Edge = tuple["Node | None", int]
NO_EDGE: Edge = (None, 0)  # where the gradient of an input that needs none goes


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
    # shape and casts it to the dtype. None where the node needs no such check. (A list
    # where recorded_node made it: only read, and a tuple of it would cost a call per op.)
    input_metadata: Sequence[tuple[tuple[int, ...], np.dtype]] | None = None
    # Whether the gradients this node returns are new tensors that it keeps no reference
    # to: then the engine may make one a leaf's .grad without copying it.
    returns_new_gradients: bool = False
    # Whether the node runs on numpy arrays when the engine passes it arrays (a backward
    # pass that records nothing): its gradients then stay plain arrays. A node that takes
    # only Tensors gets its gradients wrapped, and what it returns unwrapped.
    takes_arrays: bool = False
    num_outputs = 1  # a user's Function may have several

    def __init__(self, next_functions: tuple[Edge, ...]) -> None:
        self.next_functions = next_functions
        self.sequence_nr = next(_sequence_numbers)

    # Hooks on the node itself (register_prehook, register_hook): lists from the first one.
    pre_hooks: Sequence[Callable[[tuple], tuple | None]] = ()
    post_hooks: Sequence[Callable[[tuple, tuple], tuple | None]] = ()
    _metadata: dict[Any, Any] | None = None
    # What the node saved for backward (None once freed). Most nodes keep this default, ():
    # the engine does not ask them to check or free saved tensors, a call per node spared.
    _saved: Any = ()

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{short_name(self)} object>"

    @property
    def metadata(self) -> dict[Any, Any]:
        """A dict of your own, kept with the node (as ``torch.autograd.graph.Node``'s)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_prehook(self, hook: Callable[[tuple], tuple | None]) -> Any:
        """Call ``hook(grad_outputs)`` before the node runs, with the gradients of its
        outputs; a tuple it returns replaces them. ``handle.remove()`` takes it away."""
        note_hook_registered()
        if not self.pre_hooks:
            self.pre_hooks = []
        self.pre_hooks.append(hook)
        return _tensor.RemovableHandle(self.pre_hooks, hook)

    def register_hook(self, hook: Callable[[tuple, tuple], tuple | None]) -> Any:
        """Call ``hook(grad_inputs, grad_outputs)`` after the node ran: what it sends to
        its inputs, and what it received; a tuple it returns replaces what it sends."""
        note_hook_registered()
        if not self.post_hooks:
            self.post_hooks = []
        self.post_hooks.append(hook)
        return _tensor.RemovableHandle(self.post_hooks, hook)

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


def short_name(node: Node) -> str:
    """A node's name as tensors and drawings show it: ``AccumulateGrad`` for
    ``minigrad::autograd::AccumulateGrad`` (PyTorch's reprs drop the namespace too)."""
    return node.name().rsplit("::", 1)[-1]


class AccumulateGrad(Node):
    """The node at the end of every path: adds the gradient that arrives into ``variable.grad``."""

    formula = "leaf.grad += grad"

    def __init__(self, variable: Tensor) -> None:
        # Node.__init__'s two lines, written out (no super() call): a leaf gets a new one
        # for every graph it is used in.
        self.next_functions = ()
        self.sequence_nr = next(_sequence_numbers)
        self.variable = variable

    def name(self) -> str:
        # PyTorch's C++ name, with minigrad's namespace (as dtypes read minigrad.float32).
        return "minigrad::autograd::AccumulateGrad"

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        # The engine runs a leaf's step itself: accumulate_into(node.variable, grad, ...).
        return ()


def new_accumulator(leaf: Tensor) -> AccumulateGrad:
    """A new ``AccumulateGrad`` node for ``leaf``, which the leaf keeps weakly: it lives as
    long as a graph holds it, and a graph made after that one died gets a new one, as in
    PyTorch."""
    accumulator = AccumulateGrad(leaf)
    leaf._accumulator = weakref.ref(accumulator)
    return accumulator


def accumulate_into(tensor: Tensor, grad: Tensor, create_graph: bool, owned: bool = False) -> None:
    """``tensor.grad += grad``, as PyTorch's AccumulateGrad does it (``retain_grad`` too).

    The first gradient becomes ``.grad``: as it is when ``owned`` says that nobody else can
    see it (PyTorch steals such a gradient too, saving a copy the size of the tensor), else
    as a copy, so that ``.grad`` never shares memory with a gradient that went elsewhere.
    Later ones are added in place, unless the graph of the derivative is being built: then
    the sum is a new, recorded tensor.
    """
    Tensor = _tensor.Tensor
    # A backward pass that records nothing sends plain arrays (see minigrad.alike).
    array = grad if grad.__class__ is ndarray else grad._array
    # ._grad, not .grad: reading a non-leaf's .grad warns, and backward(inputs=[h]) fills it.
    if tensor._grad is None:
        if owned and not create_graph:
            tensor._grad = Tensor(array)
        elif create_graph and grad.requires_grad:
            copy = Tensor._from_op(array.copy(), CopyBackwards(grad._edge()))
            copy.grad_fn.input_metadata = ((grad.shape, array.dtype),) * 2
            tensor._grad = copy
        else:
            tensor._grad = Tensor(array.copy())
    elif create_graph:
        tensor._grad = tensor._grad + grad
    else:
        with no_grad():
            tensor._grad.add_(grad if isinstance(grad, Tensor) else Tensor(array))


class CopyBackwards(Node):
    """What ``x.grad`` points to after ``backward(create_graph=True)``: ``.grad`` is a copy of
    the incoming gradient, and its history continues through that gradient's graph."""

    formula = "copy: the gradient passes through"
    takes_arrays = True

    def __init__(self, source: Edge) -> None:
        super().__init__(((None, 0), source))

    def name(self) -> str:
        return "minigrad::autograd::CopyBackwards"

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        return (None, grad)


# The (pack, unpack, checks_versions) of the saved_tensors_hooks contexts now open in this
# thread, innermost last: the innermost one packs every tensor saved for backward.
_saved_tensor_hooks = threading.local()
# Whether any thread has opened saved_tensors_hooks yet: until one has, no tensor saved
# for backward is asked about them (reading a thread-local costs as much as a small call,
# and every op saves one or two tensors). Never reset.
saved_tensor_hooks_used = False

# The allow_mutation_on_saved_tensors context now open, if any: told of every in-place
# write before it happens, so that it can copy the values a backward still needs.
keepers_of_saved_values: list[Any] = []


def saved_tensor_hooks_in_force() -> list[tuple[Callable, Callable, bool]]:
    """This thread's stack of open ``saved_tensors_hooks`` (made when first asked for)."""
    global saved_tensor_hooks_used
    saved_tensor_hooks_used = True
    stack = getattr(_saved_tensor_hooks, "stack", None)
    if stack is None:
        stack = _saved_tensor_hooks.stack = []
    return stack


class SavedTensor:
    """A tensor kept for ``backward``, with the version it had when it was saved: what
    ``grad_fn._raw_saved_self`` shows.

    A node keeps most saved tensors as the pair (tensor, version) instead (see ``_kept``):
    an op saves one or two tensors, and an object for each cost more than the op's
    arithmetic on small arrays. A ``SavedTensor`` is made where more is needed: for a saved
    *result* of the op, stored without its ``grad_fn``, which is this very node (keeping it
    would make a reference cycle between a node and its output); for a tensor saved under
    ``autograd.graph.saved_tensors_hooks``, kept as its pack hook's result instead and
    given back by the unpack hook; and when ``_raw_saved_*`` asks for the object itself.
    """

    __slots__ = (
        "tensor",
        "array",
        "version_counter",
        "saved_version",
        "is_result",
        "requires_grad",
        "output_nr",
        "packed",
        "unpack_hook",
        "source_edge",
        "checks_versions",
        "written_into_view",
        "tangents",
        # A weak reference to the node that holds this object, set when _raw_saved_* hands
        # it out (the one way to reach register_hooks): left unset for every other saved
        # tensor, which is never asked.
        "owner",
    )

    def __init__(self, tensor: Tensor, is_result: bool = False, version: int | None = None) -> None:
        self.tensor: Tensor | None = None if is_result else tensor
        self.array = tensor._array
        self.version_counter = counter = tensor._version_counter
        # version: given when a node's (tensor, version when saved) pair becomes a SavedTensor
        self.saved_version = counter.value if version is None else version
        self.is_result = is_result
        # (the property only for a view: whether it requires grad may come from its base)
        self.requires_grad = tensor._requires_grad if tensor._base is None else tensor.requires_grad
        self.output_nr = tensor._output_nr
        self.unpack_hook: Callable[[Any], Tensor] | None = None
        self.checks_versions = True
        self.written_into_view: Callable[[], Any] | None = None  # a weak reference
        # Forward mode: a saved result's tangents (set inside a dual level).
        self.tangents: dict[int, Tensor] | None = None

    @classmethod
    def holding_none(cls) -> SavedTensor:
        """What ``_raw_saved_weight`` shows when no weight was given: a saved ``None``."""
        saved = cls.__new__(cls)
        saved.tensor = saved.array = saved.version_counter = saved.unpack_hook = None
        return saved

    @classmethod
    def under_hooks(
        cls,
        tensor: Tensor,
        is_result: bool,
        hooks: list[tuple[Callable, Callable, bool]],
        node: Node | None,
    ) -> SavedTensor:
        """``tensor`` saved as the innermost ``saved_tensors_hooks`` in force packs it
        (PyTorch hands such a hook the tensor itself)."""
        saved = cls(tensor, is_result)
        pack_hook, unpack_hook, checks_versions = hooks[-1]
        saved._pack(pack_hook, unpack_hook, tensor, tensor, checks_versions)
        if node is not None:
            # An unpack hook may give back another shape or dtype: the rule then runs on
            # Tensors, which broadcast, promote and refuse as PyTorch's do (numpy would not).
            node.takes_arrays = False
        return saved

    def register_hooks(
        self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]
    ) -> None:
        """Keep ``pack_hook(tensor)`` instead of the tensor; ``unpack_hook`` gives it back
        when backward (or ``_saved_*``) needs it. The pack hook gets the values cut off
        from the graph (``tensor.detach()``), as in PyTorch; what the unpack hook returns
        joins the graph where the saved tensor was.

        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.sin()
        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda p: p / 5)
        >>> y.grad_fn._saved_self  # 2x, a leaf whose gradient goes to x
        tensor([2., 4.], requires_grad=True)
        >>> y.sum().backward()
        >>> x.grad  # cos(2x): backward used what the unpack hook gave
        tensor([-0.4161, -0.6536])
        """
        if self.version_counter is None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor with value None is forbidden"
            )
        owner = getattr(self, "owner", None)  # (set by _raw_saved_*, which hands this out)
        node = owner() if owner is not None else None
        if node is None or node.saved_tensors_freed():
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through "
                "the graph a second time or if you need to access saved variables after "
                "calling backward."
            )
        if self.unpack_hook is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            )
        if self.tensor is not None:
            tensor, detached = self.tensor, self.tensor.detach()
        else:  # a saved result, kept as its array: the same values and version counter
            tensor = detached = _tensor.Tensor(self.array)
            detached._version_counter = self.version_counter
        self._pack(pack_hook, unpack_hook, tensor, detached)
        node.takes_arrays = False  # see under_hooks

    def _pack(
        self,
        pack_hook: Callable,
        unpack_hook: Callable,
        tensor: Tensor,
        given: Tensor,
        checks_versions: bool = True,
    ) -> None:
        """Keep ``pack_hook(given)`` in place of ``tensor`` (``given`` is the tensor itself
        or its detached twin, as PyTorch hands it to each kind of hook)."""
        version = tensor._version_counter.value
        with no_grad():  # as in PyTorch: what the hook computes is not part of the graph
            self.packed = pack_hook(given)
        if tensor._version_counter.value != version:
            raise RuntimeError(
                "A saved tensor pack hook is modifying its input in place. Tensors provided "
                "as input to pack hook cannot be modified by in-place operations as this can "
                "lead to unexpected side-effects. Please open an issue if you need to perform "
                "in-place operations on the input to a pack hook."
            )
        self.unpack_hook = unpack_hook
        # False for hooks that keep the values from before any change themselves.
        self.checks_versions = checks_versions
        # Where the tensor's gradient went, so that what is unpacked joins the same graph.
        self.source_edge = tensor._edge() if tensor.requires_grad and not self.is_result else None
        self.tensor, self.array = None, None  # only the packed form is kept

    @property
    def kind(self) -> str:
        """``DoubleTensor [3]``, for the error message: made only when one is raised."""
        array = self.array if self.array is not None else self.unpack_hook(self.packed)._array
        return _tensor.Tensor(array).type_description()

    def is_modified(self) -> bool:
        """Whether the tensor was changed in place since it was saved (and that matters)."""
        return self.checks_versions and self.version_counter.value != self.saved_version

    def unpacked_array(self, node: Node) -> np.ndarray:
        """The saved values as a numpy array, for a derivative run on arrays: what
        ``unpack`` gives, without making a Tensor unless an unpack hook gives one."""
        if self.unpack_hook is not None:
            return self.unpack(node)._array
        return self.tensor._array if self.tensor is not None else self.array

    def unpack(self, node: Node) -> Tensor:
        """The saved tensor as backward (and ``_saved_*``) sees it: the input itself, the
        result with ``node`` as its ``grad_fn`` again, or what the unpack hook gives back,
        put in the saved tensor's place in the graph."""
        if self.unpack_hook is None:
            if self.tensor is not None:
                return self.tensor
            array = self.array
        else:
            array = self._array_from_unpack_hook()
            if not self.is_result:
                return self._in_place_of_input(array)
        unpacked = _tensor.Tensor._from_graph(array, node, self.version_counter)
        if self.output_nr:
            unpacked._output_nr = self.output_nr
        # Forward mode: a saved result keeps its tangents (the result's own dict, so that
        # leaving a level takes them away here too; set only inside a dual level).
        saved_tangents = self.tangents
        if saved_tangents:  # a backward inside a dual level: the result is dual again
            for level, tangent in saved_tangents.items():
                tangents.set_tangent(unpacked, level, tangent)
        return unpacked

    def _array_from_unpack_hook(self) -> np.ndarray:
        unpacked = self.unpack_hook(self.packed)
        if not isinstance(unpacked, _tensor.Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got "
                f"result of type {type(unpacked).__name__}"
            )
        return unpacked._array

    def _in_place_of_input(self, array: np.ndarray) -> Tensor:
        """A new tensor of ``array`` where the saved input was in the graph, as PyTorch
        makes it: never the tensor the hook returned (its own history, if any, is not
        followed) and never the input itself (backward must use the unpacked values)."""
        Tensor = _tensor.Tensor
        source, output_nr = self.source_edge or NO_EDGE
        if source is not None and not isinstance(source, AccumulateGrad):
            unpacked = Tensor._from_graph(array, source, self.version_counter)
            unpacked._output_nr = output_nr
            return unpacked
        unpacked = Tensor(array)
        unpacked._version_counter = self.version_counter
        if source is not None:  # a leaf again, whose gradients go to the saved leaf's node
            if array.dtype.kind not in "fc":
                raise RuntimeError(
                    "Only Tensors of floating point and complex dtype can require gradients"
                )
            unpacked._requires_grad = True
            unpacked._accumulator = weakref.ref(source)
        return unpacked

    def modified_error(self, node: Node) -> RuntimeError:
        # PyTorch names a saved input's grad_fn after the change ("Mul" after x.mul_(2)),
        # and a saved output by the node that saved it ("Exp" for b = a.exp(); b.add_(1)).
        if self.written_into_view is not None and self.written_into_view() is not None:
            # v = y[0:2]; v.exp_(): the result is v's memory, and v (with its AsStrided
            # history) is still alive; PyTorch names the op when the view is gone
            producer = "AsStrided"
        elif self.is_result:
            producer = _producer_name_of(node)
        else:
            producer = _producer_name(self.tensor)
        where = f", which is output 0 of {producer}," if producer else ""
        return RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{self.kind}]{where} is at version "
            f"{self.version_counter.value}; expected version {self.saved_version} instead. "
            "Hint: the tensor was changed in place after it was used; use an out-of-place "
            "operation (y = y + 1 rather than y += 1) or clone it first."
        )


# How a node keeps each tensor saved for backward (BackwardNode._saved, made by _kept).
Kept = "tuple[Tensor, int] | Tensor | SavedTensor | None"


def _kept(tensor: Tensor, is_result: bool, node: Node | None = None) -> Kept:
    """How a node keeps ``tensor``, saved for backward: most often as the pair (tensor,
    its version now), so that backward can tell whether it was changed in place since
    (an object per saved tensor cost more than the op's arithmetic on small arrays); a
    wrapped number (the 2 of x * 2) as itself, since nothing else can change it in place;
    and as a ``SavedTensor`` where more is needed: the op's result (kept without its
    ``grad_fn``), or a tensor that the ``saved_tensors_hooks`` in force pack (``node``, the
    node that keeps it, then runs its rule on Tensors: see ``SavedTensor.under_hooks``)."""
    # (getattr with a default costs more than the dict's get)
    hooks = _saved_tensor_hooks.__dict__.get("stack") if saved_tensor_hooks_used else None
    if hooks and not tensor._is_wrapped_number:
        return SavedTensor.under_hooks(tensor, is_result, hooks, node)
    if is_result:
        return SavedTensor(tensor, True)  # is_result (positional: a keyword costs more)
    if tensor._is_wrapped_number:
        return tensor
    return (tensor, tensor._version_counter.value)


def _producer_name(tensor: Tensor | None) -> str:
    if tensor is None or tensor.grad_fn is None:
        return ""
    return _producer_name_of(tensor.grad_fn)


def _producer_name_of(node: Node) -> str:
    # MulBackward0 is "Mul"; a user's Function's node, CubeBackward, is "Cube".
    name = node.name().removesuffix("Backward0").removesuffix("Backward1")
    return name.removesuffix("Backward")


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
    ``backward`` share: it keeps the saved tensors and runs ``backward`` on a gradient.

    Each Function has its own subclass, made once with the Function (``MulBackward0`` for
    ``Mul``, ``CubeBackward`` for a user's ``Cube``, as PyTorch names the node types): what
    is the same for every node of an op (which Function it runs, whether its gradients are
    new tensors) is a class attribute of it, decided once rather than set for each node."""

    function: type[Function]  # the Function whose backward this node runs
    # What was saved, in the order it was saved (see _kept); None once backward freed it.
    _saved: list[Kept] | None = ()  # type: ignore[assignment]
    # The saved inputs that need no gradient: (place in next_functions, place in _saved).
    _constants: tuple[tuple[int, int], ...] = ()
    # Which arguments were Tensors, when some were not (a user's Function given a number):
    # numbers get no edge and no gradient. None when every argument is a Tensor.
    input_is_tensor: tuple[bool, ...] | None = None
    # True while backward runs on arrays: saved_tensors then gives arrays too.
    _saved_as_arrays = False

    # recorded_node makes every node and sets what Node.__init__ would. Called with no
    # argument, a class whose __init__ is object's runs none in Python, and costs less than
    # object.__new__(cls) (a builtin that checks its argument: about 400 instructions more).
    __init__ = object.__init__  # type: ignore[assignment]

    @property  # type: ignore[override]
    def formula(self) -> str:
        return self.function.formula

    def name(self) -> str:
        # forward may pick a variant of its node's name: sum(x) is SumBackward0 and
        # sum(x, dim) SumBackward1 in PyTorch, with the same derivative.
        return getattr(self, "node_name", None) or self.function.node_name()

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        # A pass on arrays: the saved tensors are arrays too (said to a node that saved any).
        if grad.__class__ is ndarray and self._saved:
            self._saved_as_arrays = True
            try:
                grads = self.function.backward(self, grad)
            finally:
                del self._saved_as_arrays
        else:
            grads = self.function.backward(self, grad)
        if not isinstance(grads, tuple):
            grads = (grads,)
        # next_functions holds an edge for Tensor arguments only; numbers get no gradient.
        # (Built-in ops get numbers as wrapped Tensors: then every gradient is kept as it
        # is, and the engine checks that there is one per edge, as it does for any node.)
        if self.input_is_tensor is not None:
            if len(grads) != len(self.needs_input_grad):
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {len(self.needs_input_grad)}, got {len(grads)})"
                )
            kept = zip(grads, self.input_is_tensor, strict=True)
            grads = tuple(grad for grad, is_tensor in kept if is_tensor)
        return grads

    @property
    def saved_tensors(self) -> tuple[Tensor, ...]:
        if self._saved is None:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        as_arrays = self._saved_as_arrays
        unpacked = []
        for saved in self._saved:
            if saved.__class__ is tuple:  # a tensor kept as itself, and its version then
                saved, version = saved
                if saved._version_counter.value != version:
                    raise SavedTensor(saved, version=version).modified_error(self)
                if as_arrays:
                    saved = saved._array
            elif saved.__class__ is SavedTensor:
                if saved.checks_versions and saved.version_counter.value != saved.saved_version:
                    raise saved.modified_error(self)  # is_modified(), written out
                if not as_arrays:
                    saved = saved.unpack(self)
                elif saved.unpack_hook is None:  # unpacked_array(), written out
                    saved = saved.tensor._array if saved.tensor is not None else saved.array
                else:
                    saved = saved.unpacked_array(self)
            elif as_arrays and saved is not None:  # a wrapped number, kept as its Tensor:
                saved = saved._array.item()  # as a Python number, float32 * 2.5 is float32
            unpacked.append(saved)
        return tuple(unpacked)

    def _save(self, arrays: Sequence[Any], inputs: tuple[Any, ...], returned: Any, result: Tensor):
        """Keep what ``forward`` asked to save (see ``_saved``), once the result exists:
        ``arrays`` are what forward received for ``inputs``, ``returned`` what it returned,
        ``result`` the Tensor made of it."""
        Tensor = _tensor.Tensor
        saved: list[Kept] = []
        for value in self._to_save:
            if value is None:  # not needed this time
                saved.append(None)
                continue
            if value is returned:
                saved.append(_kept(result, True, self))
                continue
            if isinstance(value, Tensor):
                saved.append(_kept(value, False, self))
                continue
            edge = 0  # the input's place in next_functions, which lists Tensors only
            place = 0  # its place in inputs and arrays (counted: a zip cost more than this)
            for tensor in inputs:
                if isinstance(tensor, Tensor):
                    if value is arrays[place]:
                        if not tensor._requires_grad:
                            self._constants += ((edge, len(saved)),)
                        # _kept, written out for the two common cases: a call per saved
                        # input cost more than the rest of keeping it.
                        if tensor._is_wrapped_number:  # (every x * 0.5 saves one)
                            saved.append(tensor)
                        elif saved_tensor_hooks_used and _saved_tensor_hooks.__dict__.get("stack"):
                            saved.append(_kept(tensor, False, self))  # hooks pack it
                        else:
                            saved.append((tensor, tensor._version_counter.value))
                        break
                    edge += 1
                place += 1
            else:  # made in forward or given as an option (a mask, indices, class weights)
                saved.append(_kept(Tensor(np.asarray(value)), False, self))
        self._to_save = ()
        self._saved = saved

    def _saved_attribute(self, key: str, raw: bool) -> Any:
        """PyTorch's attributes "for educational purposes": ``_saved_self``,
        ``_saved_other``, ``_saved_result``, ``_saved_exponent``, ... (the names the op
        declares in ``saved_as`` and ``options_as``), and ``_raw_saved_*`` for the saved
        tensor objects themselves. Each is a property of the node class that calls this
        (see ``_declare_saved_attributes``).

        >>> import minigrad as mg
        >>> x = mg.tensor(3.0, requires_grad=True)
        >>> y = x**2
        >>> y.grad_fn._saved_self, y.grad_fn._saved_exponent
        (tensor(3., requires_grad=True), 2)
        """
        saved_as = getattr(self.function, "saved_as", ())
        if key in saved_as:
            return self._saved_entry(saved_as.index(key), raw)
        option = getattr(self.function, "options_as", {}).get(key)
        if option is not None and not raw:
            return option(self) if callable(option) else getattr(self, option)
        name = f"{'_raw_saved_' if raw else '_saved_'}{key}"
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _saved_entry(self, index: int, raw: bool) -> Any:
        if self._saved is None:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        entry = self._saved[index] if index < len(self._saved) else None
        if raw:
            return self._raw_saved(index, entry)
        if entry.__class__ is tuple:  # a tensor kept as itself, and its version then
            tensor, version = entry
            if tensor._version_counter.value != version:
                raise SavedTensor(tensor, version=version).modified_error(self)
            return tensor
        if not isinstance(entry, SavedTensor):
            return entry
        if entry.is_modified():
            raise entry.modified_error(self)
        return entry.unpack(self)

    def _raw_saved(self, index: int, entry: Kept) -> SavedTensor:
        """The ``SavedTensor`` object of a saved value, as ``_raw_saved_*`` gives it: made
        now where the node kept the tensor itself, and put in its place, so that hooks
        registered on it are the ones backward uses."""
        if entry is None:  # nothing saved (no weight given, say): hooks are refused
            return SavedTensor.holding_none()
        if entry.__class__ is tuple:  # a tensor, and its version when it was saved
            tensor, version = entry
            entry = self._saved[index] = SavedTensor(tensor, version=version)
        elif entry.__class__ is not SavedTensor:  # a wrapped number (the 2 of x * 2)
            entry = self._saved[index] = SavedTensor(entry)
            # On arrays the rule would get a 0-d array, not a number: see saved_tensors.
            self.takes_arrays = False
        entry.owner = weakref.ref(self)  # register_hooks asks whether the node freed it
        return entry

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
        for edge, index in self._constants:
            kept = self._saved[index]
            if kept.__class__ is tuple:  # a tensor kept as itself, and its version then
                kept, version = kept
                if kept._version_counter.value != version:
                    continue
            elif isinstance(kept, SavedTensor):
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
            if saved.__class__ is tuple:  # a tensor kept as itself, and its version then
                tensor, version = saved
                if tensor._version_counter.value != version:
                    raise SavedTensor(tensor, version=version).modified_error(self)
            elif saved.__class__ is SavedTensor and saved.checks_versions:
                if saved.version_counter.value != saved.saved_version:  # is_modified()
                    raise saved.modified_error(self)


def recorded_node(
    node_class: type[BackwardNode], inputs: tuple[Any, ...], *, always: bool = False
) -> BackwardNode | None:
    """The node that records an op on ``inputs``: a new ``node_class``, or None when no
    input requires grad (nothing to record; ``always`` makes it even then).

    One pass over the inputs finds both, as every op run with grad mode on asks: where
    each Tensor's gradient goes, its shape and dtype (plain tuples: the engine compares
    them with each gradient's), and whether it needs a gradient. Never the inputs
    themselves: a graph must not keep alive intermediate tensors that nobody else
    references. (A pass of its own asking only whether any input requires grad cost
    about 1.5 % of a recorded op.) The node is made once it is known to be needed.
    """
    Tensor = _tensor.Tensor
    edges, metadata, needs_grad = [], [], []
    dtype, mixed, recorded = None, False, always
    for value in inputs:
        if isinstance(value, Tensor):
            array = value._array
            array_dtype = array.dtype  # (a property of numpy's: read once)
            metadata.append((array.shape, array_dtype))
            if dtype is None:
                dtype = array_dtype
            elif array_dtype is not dtype and not value._is_wrapped_number:
                mixed = True
            if value._base is not None:
                value.grad_fn  # noqa: B018 - a view changed in place gets its history again
            if value._requires_grad:
                node = value._grad_fn
                if node is None:  # a leaf: its AccumulateGrad, made as _edge() does if none
                    accumulator = value._accumulator
                    node = accumulator() if accumulator is not None else None
                    if node is None:  # (the last graph that held it has died)
                        node = new_accumulator(value)
                    edges.append((node, 0))
                else:
                    edges.append((node, value._output_nr))
                needs_grad.append(True)
                recorded = True
            else:  # a constant: what _edge() gives, without asking
                edges.append(NO_EDGE)
                needs_grad.append(False)
        else:
            needs_grad.append(False)
    if not recorded:
        return None
    node = node_class()
    # Node.__init__'s two lines, written out.
    node.next_functions = tuple(edges)
    node.sequence_nr = next(_sequence_numbers)
    node.input_metadata = metadata
    node.needs_input_grad = tuple(needs_grad)
    if len(edges) != len(inputs):
        node.input_is_tensor = tuple(isinstance(value, Tensor) for value in inputs)
    if mixed:
        # Tensors of several dtypes: on arrays, numpy would promote them otherwise than
        # PyTorch (float32 * a 0-d float64 is float64 in numpy), so the rule gets Tensors.
        # (A wrapped number is given to it as a Python number, which both promote alike.)
        node.takes_arrays = False
    return node


def _declare_saved_attributes(function: type[Function]) -> None:
    """Give nodes the ``_saved_<key>`` and ``_raw_saved_<key>`` attributes for each key that
    ``function`` declares in ``saved_as`` and ``options_as`` (a node whose op has no such
    key raises AttributeError, as PyTorch's does).

    Properties on the node class, made once per key, rather than a ``__getattr__``: CPython
    cannot specialise attribute reads on objects whose class has ``__getattr__``, which made
    every read of a node's attributes several times slower, and the engine and the
    derivatives read them many times per node."""
    keys = (*getattr(function, "saved_as", ()), *getattr(function, "options_as", {}))
    for key in keys:
        for raw in (False, True):
            name = f"{'_raw_saved_' if raw else '_saved_'}{key}"
            if name not in vars(BackwardNode):
                setattr(BackwardNode, name, _saved_property(key, raw))


def _saved_property(key: str, raw: bool) -> property:
    def read(node: BackwardNode) -> Any:
        return node._saved_attribute(key, raw)

    return property(read, doc=f"What the op saved or was given as ``{key}``.")


class FunctionContext(Context):
    """What a user's ``forward`` gets as ``ctx`` when nothing is recorded: the methods of a
    recorded node (``FunctionNode``), which then have nothing to do but save."""

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` (inputs, outputs or intermediate Tensors; ``None`` allowed) for
        ``backward``, which reads them back from ``ctx.saved_tensors``."""
        _check_saveable(tensors)
        self._to_save = tensors

    def mark_dirty(self, *tensors: Tensor) -> None:
        _count_as_changed(tensors)

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        pass

    # Forward mode: what jvp reads back from ctx.saved_tensors while it runs.
    _for_forward: tuple[Any, ...] = ()
    _in_jvp = False

    def save_for_forward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for ``jvp``, which reads them back from ``ctx.saved_tensors``."""
        _check_saveable(tensors)
        self._for_forward = tensors

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """What ``save_for_backward`` kept (in ``jvp``: what ``save_for_forward`` kept)."""
        if self._in_jvp:
            return tuple(self._for_forward)
        if isinstance(self, BackwardNode):
            return BackwardNode.saved_tensors.fget(self)
        return tuple(self._to_save)


class FunctionNode(FunctionContext, BackwardNode):
    """The node of a user's ``Function`` (what PyTorch calls a ``BackwardCFunction``): on top
    of a built-in op's node it has several outputs, the context methods of PyTorch's
    ``FunctionCtx``, and PyTorch's checks on what ``backward`` returns."""

    # Set by apply: (shape, dtype) of each output, to make zeros for an unused output.
    output_metadata: tuple[tuple[tuple[int, ...], np.dtype] | None, ...] = ()
    _materialize_grads = True
    _dirty: tuple[Tensor, ...] = ()
    _non_differentiable: tuple[Tensor, ...] = ()

    @property
    def _raw_saved_tensors(self) -> tuple[SavedTensor, ...]:
        """The ``SavedTensor`` objects of what ``save_for_backward`` kept, in order: hooks
        registered on one (``register_hooks``) are used when backward unpacks it."""
        if self._saved is None:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        return tuple(self._saved_entry(index, raw=True) for index in range(len(self._saved)))

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Say that ``forward`` changed these inputs in place (and returns them)."""
        _count_as_changed(tensors)
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """Say that these outputs get no gradient (indices, masks): they will not require
        grad, and backward receives zeros (or None) for them."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With ``False``, backward receives ``None`` rather than zeros for an output whose
        gradient was never computed."""
        self._materialize_grads = value

    def __call__(self, *grads: Tensor | None) -> tuple[Tensor | None, ...]:
        if self._materialize_grads:
            Tensor = _tensor.Tensor
            grads = tuple(
                Tensor(np.zeros(*metadata)) if grad is None and metadata is not None else grad
                for grad, metadata in zip(grads, self.output_metadata, strict=True)
            )
        returned = self.function.backward(self, *grads)
        returned = returned if isinstance(returned, tuple) else (returned,)
        expected = len(self.needs_input_grad)
        if len(returned) > expected and all(g is None for g in returned[expected:]):
            returned = returned[:expected]  # extra Nones are allowed, as in PyTorch
        if len(returned) != expected:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(returned)})"
            )
        is_tensor = self.input_is_tensor or (True,) * expected
        for position, (grad, tensor_input) in enumerate(zip(returned, is_tensor), start=1):
            if grad is not None and not tensor_input:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at "
                    f"position {position}, but the corresponding forward input was not a "
                    "Variable"
                )
        return tuple(g for g, tensor_input in zip(returned, is_tensor) if tensor_input)


def _count_as_changed(tensors: tuple[Tensor, ...]) -> None:
    """``mark_dirty``: one more version for each tensor, as PyTorch counts it (forward may
    have changed it through numpy, where no version is counted)."""
    for tensor in tensors:
        tensor._version_counter.bump()


def _check_saveable(values: tuple[Any, ...]) -> None:
    Tensor = _tensor.Tensor
    for i, value in enumerate(values):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(
                "save_for_backward can only save variables, but argument "
                f"{i} is of type {type(value).__name__}"
            )


class Function:
    """Base class of a differentiable function, with ``torch.autograd.Function``'s contract.

    ``forward(ctx, *args)`` receives Tensors (and any other arguments as they are), runs
    with gradient recording off, and returns a Tensor or a tuple of Tensors.
    ``backward(ctx, *grads)`` receives one gradient per output and returns one per
    argument of ``forward`` (``None`` for non-Tensors and for inputs that need none); it
    is written with Tensor operations, so that with ``create_graph=True`` it is recorded
    and can be differentiated again. PyTorch 2's style works too: ``forward(*args)``
    without ``ctx``, and ``setup_context(ctx, inputs, output)`` to fill the context.

    ``ctx`` offers ``save_for_backward`` / ``saved_tensors``, ``needs_input_grad``,
    ``mark_dirty``, ``mark_non_differentiable`` and ``set_materialize_grads``; when the
    call is recorded, ``ctx`` is the result's ``grad_fn``, as in PyTorch.

    Class attributes a subclass may set: ``formula``, the local derivative in a short line,
    which the backward stepper shows.
    """

    formula: str = ""
    name: str | None = None
    is_view: bool = False
    # A user's backward may return a tensor it also keeps (in ctx, say): never adopted as
    # .grad. The built-in ops, whose backwards return new tensors, set this to True.
    returns_new_gradients: bool = False
    # The type of this Function's nodes, made with the class and named as PyTorch names it
    # (CubeBackward; MulBackward0 for a built-in op), on top of _node_base.
    _node_class: type[BackwardNode]
    _node_base: type[BackwardNode] = FunctionNode

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _declare_saved_attributes(cls)  # its nodes' _saved_* attributes
        what_every_node_shares = {
            "__module__": cls.__module__,
            "function": cls,
            "returns_new_gradients": cls.returns_new_gradients,
            # A built-in op's rule may run on arrays (Op.backward_on_arrays); a user's never.
            "takes_arrays": getattr(cls, "backward_on_arrays", False),
        }
        cls._node_class = type(cls.node_name(), (cls._node_base,), what_every_node_shares)

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        """Forward mode's derivative: one tangent per argument of ``forward`` (zeros for a
        Tensor without one, None for anything else) in, one per output out."""
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    @classmethod
    def node_name(cls) -> str:
        return cls.name or f"{cls.__name__}Backward"

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` with recording off and, when gradients are being recorded and a
        Tensor argument requires them, make the outputs' ``grad_fn`` a node that runs
        ``backward``."""
        Tensor = _tensor.Tensor
        node = recorded_node(cls._node_class, args) if is_grad_enabled() else None
        recorded = node is not None
        ctx: Any = node if recorded else FunctionContext()
        if not recorded:
            ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        new_style = "setup_context" in _overridden(cls)
        # Forward mode: forward sees plain values (jvp gives the tangents), as in PyTorch.
        dual = bool(tangents.open_levels) and tangents.has_tangent(args)
        hidden = tangents.hidden_levels
        if dual:
            hidden.extend(tangents.open_levels)
        try:
            with no_grad():
                if new_style:
                    outputs = cls.forward(*args, **kwargs)
                    cls.setup_context(ctx, args, outputs)
                else:
                    outputs = cls.forward(ctx, *args, **kwargs)
        finally:
            if dual:
                del hidden[len(hidden) - len(tangents.open_levels) :]
        if recorded:
            outputs = _connect_outputs(ctx, args, outputs)
        if dual:
            _forward_mode(cls, ctx, args, outputs)
        return outputs


def _forward_mode(cls: type[Function], ctx: Any, args: tuple[Any, ...], outputs: Any) -> None:
    """Give a user's Function's outputs their tangents, from its ``jvp``, as PyTorch does:
    the tangent of a Tensor input without one is zeros, that of anything else None."""
    Tensor = _tensor.Tensor
    listed = list(outputs) if isinstance(outputs, tuple) else [outputs]
    for level in tangents.open_levels:
        if level in tangents.hidden_levels:
            continue
        given = [tangents.tangent_of(a, level) if isinstance(a, Tensor) else None for a in args]
        if all(t is None for t in given):
            continue
        found = given
        given = [
            Tensor(np.zeros_like(a._array)) if isinstance(a, Tensor) and t is None else t
            for a, t in zip(args, given)
        ]
        tangents.hidden_levels.append(level)
        ctx._in_jvp = True
        try:
            returned = cls.jvp(ctx, *given)
        finally:
            ctx._in_jvp = False
            tangents.hidden_levels.pop()
        returned = returned if isinstance(returned, tuple) else (returned,)
        if len(returned) != len(listed):
            raise RuntimeError(
                "Function's jvp returned an invalid number of forward gradients (expected "
                f"{len(listed)} but got {len(returned)})"
            )
        for output, tangent in zip(listed, returned):
            if not isinstance(output, Tensor) or tangent is None:
                continue
            if tangent.shape != output.shape:
                raise RuntimeError(
                    "Trying to set a forward gradient that has a different size than that of "
                    "the original Tensor, this is not supported. Tensor is of size "
                    f"{list(output.shape)} while the given forward gradient is of size "
                    f"{list(tangent.shape)}."
                )
            tangents.set_tangent(output, level, tangent)
            if tangents.step_recorders:  # one step per output that has a tangent
                tangents.record(cls, ctx, args, found, output, tangent)
            for saved in getattr(ctx, "_saved", None) or ():  # forward over reverse
                if getattr(saved, "is_result", False) and saved.output_nr == output._output_nr:
                    saved.tangents = output._tangents


def _overridden(cls: type) -> set[str]:
    """Names of Function's methods that ``cls`` or a base below Function defines."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is Function:
            break
        names.update(vars(klass))
    return names


def _connect_outputs(node: FunctionNode, args: tuple[Any, ...], outputs: Any) -> Any:
    """Make ``node`` the ``grad_fn`` of each differentiable output; return the outputs."""
    Tensor = _tensor.Tensor
    is_tuple = isinstance(outputs, tuple)
    listed = list(outputs) if is_tuple else [outputs]
    node.num_outputs = len(listed)
    # An output that is not a Tensor (a count, say) is returned as it is; backward gets
    # None for it.
    node.output_metadata = tuple(
        (o._array.shape, o._array.dtype) if isinstance(o, Tensor) else None for o in listed
    )
    for i, output in enumerate(listed):
        if not isinstance(output, Tensor) or _is_in(output, node._non_differentiable):
            continue
        dirty = _is_in(output, node._dirty)
        if dirty:
            base = output._base
            if base is not None and base._requires_grad and base._grad_fn is None:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )
            if output.grad_fn is None and output._requires_grad:
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
        elif _is_in(output, args):
            # An input returned as it is: PyTorch gives back a view of it with new history.
            listed[i] = view = Tensor._from_op(output._array.view(), None)
            view._share_memory_with(output)
            output = view
        output.grad_fn = node
        output._requires_grad = True
        output._output_nr = i
        if output._base is not None and not dirty:
            # PyTorch forbids writing into it: the view's history would hide this backward.
            output._creation_meta = copy_slices.MADE_IN_CUSTOM_FUNCTION
        elif output._base is not None and node.num_outputs == 1:
            output._rebase_view_history(node)  # changed in place: its base's history too
    if node._to_save:
        node._saved = [
            None if value is None else _kept(value, _is_in(value, listed) and value.grad_fn is node)
            for value in node._to_save
        ]
        node._to_save = ()
    node._dirty = node._non_differentiable = ()
    return tuple(listed) if is_tuple else listed[0]


def _is_in(tensor: Any, tensors: Sequence[Any]) -> bool:
    return any(tensor is other for other in tensors)


# tensor.py imports the classes above, so the Tensor class is reached through its module,
# imported last: this works whichever of the two modules is imported first.
from . import copy_slices, tangents  # noqa: E402
from . import tensor as _tensor  # noqa: E402
