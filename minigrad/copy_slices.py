"""In-place changes of a view, recorded as PyTorch records them.

A view (``dC[1]``, ``y[:, 0]``, ``y.t()``) shares its memory with its *base*. Writing into
the view changes the base too, so the base's history must change with it. PyTorch's answer,
which minigrad follows:

- The in-place op is recorded as usual, as a node ``fn`` with the view as its first input.
- The base's ``grad_fn`` becomes a ``CopySlices`` node: its first input is the base's old
  history, the others are ``fn``'s other inputs (``W * 2`` in ``dC[1] += W * 2``).
- The view's ``grad_fn`` is made again from the base: an ``AsStridedBackward0`` that reads
  the view's places off the base. Every other view of the same base gets one too, the next
  time it is used, because the version counter they share has moved on.

>>> import minigrad as mg
>>> W = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> dC = mg.zeros(5, 3)
>>> dC[1] += W * 2
>>> dC.grad_fn, dC[1].grad_fn.name()
(<CopySlices object>, 'SelectBackward0')
>>> dC.sum().backward()
>>> W.grad
tensor([2., 2., 2.])
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from .function import Node, recorded_node

if TYPE_CHECKING:
    from .tensor import Tensor

# How a view was made, when that forbids writing into it with gradients recorded
# (PyTorch's CreationMeta). A view made any other way has none (None).
MADE_IN_NO_GRAD = "no_grad"
MADE_BY_MULTI_OUTPUT = "multi_output"  # a piece of split, chunk or unbind
MADE_IN_CUSTOM_FUNCTION = "custom_function"  # an output of a Function that is a view


class CopySlices(Node):
    """The base's node after one of its views was changed in place.

    Backward receives the gradient of the whole base. Outside the view's places it goes on
    unchanged to the base's old history: those values were not touched. Inside them it is
    the gradient of the in-place op's result, so it runs through that op's own backward
    (``fn``): what ``fn`` sends to its first input (the view's values before the change)
    is put back into those places, and what it sends to its other inputs goes to them.

    ``positions`` holds, for each element of the view, its place in the flattened base.
    """

    formula = (
        "copy slices: outside the view the gradient goes to the base unchanged; "
        "inside it goes through the in-place op"
    )

    def __init__(self, base: Tensor, positions: np.ndarray, fn: Node) -> None:
        super().__init__((base._edge(), *fn.next_functions[1:]))
        self.fn = fn
        self.positions = positions
        self.base_shape, self.base_dtype = base._array.shape, base._array.dtype
        inputs = fn.input_metadata
        if inputs is not None:
            self.input_metadata = ((self.base_shape, self.base_dtype), *inputs[1:])

    def name(self) -> str:
        # PyTorch's C++ name, with minigrad's namespace (as AccumulateGrad's).
        return "minigrad::autograd::CopySlices"

    def __call__(self, grad: Tensor) -> tuple[Tensor | None, ...]:
        from .ops import Index, IndexPut

        flat = grad.reshape(-1)
        grads = self.fn(Index.apply(flat, index=self.positions))
        to_view = grads[0]
        if to_view is None:  # the op overwrote the view (zero_, fill_): nothing goes back
            to_view = np.zeros((), dtype=self.base_dtype)
        elif to_view.shape != self.positions.shape:
            to_view = to_view.sum_to_size(self.positions.shape)
        if to_view.dtype != self.base_dtype:
            to_view = to_view.to(self.base_dtype)
        # Written over the view's places, as PyTorch copies it there: masking the incoming
        # gradient out and adding would turn an inf or nan there into nan, and -0. into 0.
        put_back = IndexPut.apply(flat, to_view, index=self.positions)
        return (put_back.reshape(self.base_shape), *grads[1:])

    # What the in-place op saved is what this node needs: its checks are fn's.
    @property  # type: ignore[override]
    def _saved(self) -> Any:
        return self.fn._saved

    def saved_tensors_freed(self) -> bool:
        return self.fn.saved_tensors_freed()

    def release_saved_tensors(self) -> bool:
        return self.fn.release_saved_tensors()

    def check_saved_tensors(self) -> None:
        self.fn.check_saved_tensors()

    def constant_inputs(self) -> dict[int, Tensor]:
        # fn's inputs after the first are this node's, at the same places.
        return {i: t for i, t in self.fn.constant_inputs().items() if i > 0}


def view_modified_error(view: Tensor, how: str, directly: bool) -> RuntimeError:
    """PyTorch's error for writing into a view made in a way that forbids it (``how``), or,
    not ``directly``, for using such a view after its base or another view of it changed."""
    changed = "is being" if directly else "its base or another view of its base has been"
    node = view._grad_fn
    op = re.sub(r"Backward\d*$", "", node.name()) if node is not None else ""
    if how == MADE_IN_NO_GRAD or node is None:
        if node is None:
            head = "A view was created in"
        else:
            head = f"Output {view._output_nr} of {op} is a view of a view which was created in"
        message = f"{head} no_grad mode and {changed} modified inplace with grad mode enabled."
    else:
        number = getattr(view, "_piece_number", view._output_nr)
        message = f"Output {number} of {op} is a view and {changed} modified inplace."
    if how == MADE_IN_NO_GRAD:
        message += (
            " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
            "clarify your code by moving both the view and the inplace either both inside the "
            "no_grad block (if you don't want the inplace to be tracked) or both outside (if "
            "you want the inplace to be tracked)."
        )
    elif how == MADE_BY_MULTI_OUTPUT:
        message += (
            " This view is the output of a function that returns multiple views. Such "
            "functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one."
        )
    else:
        message += (
            " This view was created inside a custom Function (or because an input was "
            "returned as-is) and the autograd logic to handle view+inplace would override "
            "the custom backward associated with the custom Function, leading to incorrect "
            "gradients. This behavior is forbidden. You can fix this by cloning the output "
            "of the custom Function."
        )
    return RuntimeError(message)


def regenerated_history(view: Tensor) -> Node:
    """The view's new ``grad_fn``: ``AsStridedBackward0``, reading the view off its base's
    present history (made without running anything: the view's values are already there)."""
    from .ops import AsStrided

    base = view._base
    node = recorded_node(AsStrided._node_class, (base,), always=True)
    AsStrided.forward(node, base._array, view._array)
    return node
