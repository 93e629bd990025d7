"""Bad input: one table of mistakes, each with its exception, its message, and proof that the
failed call changed nothing.

Each row is a scenario written once for a library ``L`` (``minigrad`` or ``torch``): it builds
what it needs and returns the failing call and a check that runs after the failure (no
half-accumulated ``.grad``, the graph still usable where PyTorch keeps it usable). Rows with
a PyTorch column run against torch 2.13.0 as well, with the same exception type and the same
message regex: minigrad's wording is PyTorch's. Rows about minigrad only (its widgets, dtypes
PyTorch has and minigrad has not) have no torch column.

Below the table: ``nan`` and ``inf`` go through ops and derivatives as in PyTorch, and the
drawings explain an empty, freed or oversized graph instead of failing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import minigrad as mg
import widgets

FREED = re.escape("Trying to backward through the graph a second time")
Check = Callable[[], None]


@dataclass(frozen=True)
class Row:
    id: str
    scenario: Callable[[Any], tuple[Callable[[], Any], Check]]
    error: type[BaseException]
    match: str
    torch: bool = True  # False: minigrad only (no PyTorch counterpart)


def nothing() -> None:
    """The check of a row whose failed call had nothing it could have changed."""


def f64(L: Any, data: Any, requires_grad: bool = False) -> Any:
    return L.tensor(data, dtype=L.float64, requires_grad=requires_grad)


def values(t: Any) -> list[Any]:
    return t.detach().tolist()


# ----------------------------------------------------------------------------- scenarios
def gradient_of_wrong_shape(L):
    x = f64(L, [1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2

    def check():
        assert x.grad is None
        y.backward(L.ones(3, dtype=L.float64))  # the graph is intact
        assert values(x.grad) == [2.0, 2.0, 2.0]

    return lambda: y.backward(L.ones(2, dtype=L.float64)), check


def gradient_of_wrong_type(L):
    x = f64(L, [1.0, 2.0], requires_grad=True)
    y = x * 2

    def check():
        assert x.grad is None
        y.backward(L.ones(2, dtype=L.float64))
        assert values(x.grad) == [2.0, 2.0]

    return lambda: y.backward("ones"), check


def backward_twice(L):
    x = f64(L, 3.0, requires_grad=True)
    y = x * x
    y.backward()

    def check():
        assert values(x.grad) == 6.0  # the first pass's gradient, nothing added

    return y.backward, check


def non_scalar_backward(L):
    x = f64(L, [1.0, 2.0], requires_grad=True)
    y = x * 3

    def check():
        assert x.grad is None
        y.sum().backward()
        assert values(x.grad) == [3.0, 3.0]

    return y.backward, check


def backward_without_grad(L):
    x = f64(L, [1.0, 2.0])
    return (x * 2).sum().backward, nothing


def requires_grad_on_integers(L):
    return lambda: L.tensor([1, 2], requires_grad=True), nothing


def requires_grad_method_on_integers(L):
    t = L.tensor([1, 2])

    def check():
        assert not t.requires_grad

    return t.requires_grad_, check


def requires_grad_attribute_on_integers(L):
    t = L.tensor([1, 2])

    def check():
        assert not t.requires_grad

    return lambda: setattr(t, "requires_grad", True), check


def inplace_on_leaf(L):
    w = f64(L, [1.0, 2.0], requires_grad=True)

    def check():
        assert values(w) == [1.0, 2.0] and w.is_leaf and w.grad_fn is None
        with L.no_grad():  # the supported way still works
            w.add_(1)
        assert values(w) == [2.0, 3.0]

    return lambda: w.add_(1), check


def saved_tensor_modified(L):
    x = f64(L, [0.5, 1.0], requires_grad=True)
    y = (x * 1).exp()  # exp saves its result
    y.mul_(2)

    def check():
        assert x.grad is None

    return y.sum().backward, check


def matmul_mismatch(L):
    a = L.ones(2, 3, dtype=L.float64, requires_grad=True)
    b = L.ones(2, 3, dtype=L.float64)

    def check():
        assert a.grad is None
        (a @ b.t()).sum().backward()  # a is still usable
        assert values(a.grad) == [[2.0] * 3] * 2

    return lambda: a @ b, check


def broadcast_mismatch(L):
    return lambda: L.ones(2, 3) + L.ones(4), nothing


def unused_input(L):
    x = f64(L, 2.0, requires_grad=True)
    unused = f64(L, 1.0, requires_grad=True)

    def check():
        assert x.grad is None and unused.grad is None

    return lambda: L.autograd.grad(x * x, [x, unused]), check


def grad_of_input_without_grad(L):
    x = f64(L, 2.0, requires_grad=True)
    other = f64(L, 1.0)
    y = x * x

    def check():
        assert x.grad is None
        assert values(L.autograd.grad(y, x)[0]) == 4.0  # not freed by the failed call

    return lambda: L.autograd.grad(y, [x, other]), check


def item_of_many(L):
    return L.ones(3).item, nothing


def ragged_lists(L):
    return lambda: L.tensor([[1, 2], [3]]), nothing


def object_array(L):
    return lambda: L.tensor(np.array([1, "a"], dtype=object)), nothing


def complex_array(L):
    return lambda: L.tensor(np.array([1 + 2j])), nothing


def string_data(L):
    return lambda: L.tensor("abc"), nothing


def none_data(L):
    return lambda: L.tensor(None), nothing


def dict_data(L):
    return lambda: L.tensor({"a": 1.0}), nothing


def none_in_list(L):
    return lambda: L.tensor([1.0, None]), nothing


def reshape_invalid(L):
    x = L.ones(2, 3)

    def check():
        assert tuple(x.shape) == (2, 3)

    return lambda: x.reshape(4), check


def view_invalid_inferred(L):
    return lambda: L.ones(2, 3).view(-1, 4), nothing


def index_out_of_range(L):
    return lambda: L.ones(3)[5], nothing


def index_out_of_range_in_dim_1(L):
    return lambda: L.ones(3, 2)[:, 2], nothing


def list_index_out_of_range(L):
    return lambda: L.ones(3)[[0, 5]], nothing


def dim_out_of_range(L):
    return lambda: L.ones(3).sum(3), nothing


def softmax_dim_out_of_range(L):
    return lambda: L.ones(3).softmax(2), nothing


def cat_mismatched_sizes(L):
    return lambda: L.cat([L.ones(2, 3), L.ones(3, 3), L.ones(2, 1)], dim=1), nothing


def cat_mismatched_dims(L):
    return lambda: L.cat([L.ones(2, 3), L.ones(3)]), nothing


def cat_nothing(L):
    return lambda: L.cat([]), nothing


def stack_mismatched(L):
    return lambda: L.stack([L.ones(2, 3), L.ones(2, 2)]), nothing


def numpy_of_requires_grad(L):
    x = f64(L, [1.0], requires_grad=True)

    def check():
        assert x.detach().numpy().tolist() == [1.0]

    return x.numpy, check


def grad_of_wrong_shape_assigned(L):
    w = L.ones(3, requires_grad=True)

    def check():
        assert w.grad is None

    return lambda: setattr(w, "grad", L.ones(2)), check


def grad_of_wrong_dtype_assigned(L):
    w = L.ones(3, requires_grad=True)

    def check():
        assert w.grad is None

    return lambda: setattr(w, "grad", L.ones(3, dtype=L.float64)), check


def grad_not_a_tensor(L):
    w = L.ones(3, requires_grad=True)

    def check():
        assert w.grad is None

    return lambda: setattr(w, "grad", 3), check


def requires_grad_off_on_non_leaf(L):
    x = f64(L, [1.0, 2.0], requires_grad=True)
    y = x * 2

    def check():
        assert y.requires_grad and y.grad_fn is not None
        y.sum().backward()
        assert values(x.grad) == [2.0, 2.0]

    return lambda: y.requires_grad_(False), check


def t_of_3d(L):
    return lambda: L.ones(2, 2, 2).t(), nothing


def mean_of_integers(L):
    return lambda: L.ones(3, dtype=L.int64).mean(), nothing


def inplace_float_into_int(L):
    t = L.ones(2, dtype=L.int64)

    def check():
        assert values(t) == [1, 1]

    return lambda: t.mul_(1.5), check


def mixed_dtype_matmul(L):
    return lambda: L.ones(2, 2, dtype=L.float64) @ L.ones(2, 2), nothing


def ambiguous_truth(L):
    return lambda: bool(L.ones(3)), nothing


def expand_invalid(L):
    return lambda: L.ones(3).expand(2, 4), nothing


def matmul_of_0d(L):
    return lambda: L.ones(()) @ L.ones(3), nothing


def dot_mismatch(L):
    return lambda: L.ones(3).dot(L.ones(2)), nothing


def max_of_empty(L):
    return L.ones(0).max, nothing


def hook_without_grad(L):
    return lambda: L.ones(2).register_hook(lambda g: g), nothing


def retain_grad_without_grad(L):
    return L.ones(2).retain_grad, nothing


def len_of_0d(L):
    return lambda: len(L.ones(())), nothing


# The widgets: minigrad only.
def stepper_with_no_graph(L):
    return lambda: widgets.BackwardStepper(mg.tensor([1.0, 2.0]).sum()), nothing


def stepper_of_an_empty_tensor(L):
    return lambda: widgets.BackwardStepper(mg.tensor([])), nothing


def stepper_of_a_freed_graph(L):
    w = mg.tensor(3.0, requires_grad=True)
    y = w * w
    y.backward()

    def check():
        assert w.grad.item() == 6.0

    return lambda: widgets.BackwardStepper(y), check


def stepper_of_a_huge_graph(L):
    w = mg.tensor(1.0, requires_grad=True)
    y = w
    for _ in range(100):
        y = y * 1.01

    def check():
        assert w.grad is None  # refused before any step ran
        y.backward()
        assert w.grad is not None

    return lambda: widgets.BackwardStepper(y), check


def stepper_of_a_non_tensor(L):
    return lambda: widgets.BackwardStepper([1.0]), nothing


def draw_of_nothing(L):
    return widgets.draw, nothing


def draw_of_a_non_tensor(L):
    return lambda: widgets.draw(mg.tensor(1.0), 2.0), nothing


def draw_with_no_room(L):
    return lambda: widgets.draw(mg.tensor(1.0), max_nodes=0), nothing


# -- the Tensor API of PyTorch tutorials: devices, default dtype, new ops ----------------
def _unchanged_leaf(L):
    x = f64(L, [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)

    def check():
        assert x.grad is None and x.is_leaf
        assert values(x) == [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
        x.sum().backward()  # still usable
        assert values(x.grad) == [[1.0] * 3] * 2

    return x, check


def gather_out_of_bounds(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.gather(1, L.tensor([[0, 3]])), check


def gather_float_index(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.gather(0, L.tensor([[0.0]])), check


def masked_fill_integer_mask(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.masked_fill(L.tensor([1, 0, 1]), 0.0), check


def split_sizes_not_summing(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.split([1, 1], dim=1), check


def flatten_start_after_end(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.flatten(1, 0), check


def unflatten_wrong_sizes(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.unflatten(1, (2, 2)), check


def repeat_fewer_dims(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.repeat(2), check


def var_of_integers(L):
    return lambda: L.tensor([1, 2, 3]).var(), nothing


def tensor_to_cuda(L):
    x, check = _unchanged_leaf(L)

    def check_device():
        check()
        assert repr(x.device) == "device(type='cpu')"

    return lambda: x.to("cuda"), check_device


def zeros_on_cuda(L):
    return lambda: L.zeros(2, 3, device="cuda"), nothing


def integer_default_dtype(L):
    def check():
        assert L.get_default_dtype() == L.float32
        assert L.tensor([1.0]).dtype == L.float32

    return lambda: L.set_default_dtype(L.int64), check


def clamp_tensor_and_number(L):
    x, check = _unchanged_leaf(L)
    return lambda: x.clamp(L.zeros(3, dtype=L.float64), 1.0), check


def unknown_device(L):
    return lambda: L.ones(2, device="gpu"), nothing


def _e(text: str) -> str:
    return re.escape(text)


SIZE = r"\w+\.Size"  # torch.Size / minigrad.Size
ROWS = [
    Row(
        "gradient of the wrong shape",
        gradient_of_wrong_shape,
        RuntimeError,
        rf"Mismatch in shape: grad_output\[0\] has a shape of {SIZE}\(\[2\]\) and output\[0\] "
        rf"has a shape of {SIZE}\(\[3\]\)\.",
    ),
    Row(
        "gradient of the wrong type (a string)",
        gradient_of_wrong_type,
        TypeError,
        _e("gradients can be either Tensors or None, but got str"),
    ),
    Row("backward twice", backward_twice, RuntimeError, FREED),
    Row(
        "non-scalar backward without gradient",
        non_scalar_backward,
        RuntimeError,
        _e("grad can be implicitly created only for scalar outputs"),
    ),
    Row(
        "backward of a tensor that does not require grad",
        backward_without_grad,
        RuntimeError,
        _e("element 0 of tensors does not require grad and does not have a grad_fn"),
    ),
    Row(
        "requires_grad=True on integers",
        requires_grad_on_integers,
        RuntimeError,
        _e("Only Tensors of floating point and complex dtype can require gradients"),
    ),
    Row(
        "requires_grad_() on integers",
        requires_grad_method_on_integers,
        RuntimeError,
        _e("only Tensors of floating point dtype can require gradients"),
    ),
    Row(
        ".requires_grad = True on integers",
        requires_grad_attribute_on_integers,
        RuntimeError,
        _e("only Tensors of floating point and complex dtype can require gradients"),
    ),
    Row(
        "in-place op on a leaf that requires grad",
        inplace_on_leaf,
        RuntimeError,
        _e("a leaf Variable that requires grad is being used in an in-place operation."),
    ),
    Row(
        "a tensor saved for backward modified in place",
        saved_tensor_modified,
        RuntimeError,
        _e(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: ["
        )
        + r"\w+\.DoubleTensor \[2\]\], which is output 0 of Exp, is at version 1; "
        r"expected version 0 instead\.",
    ),
    Row(
        "matmul shape mismatch",
        matmul_mismatch,
        RuntimeError,
        _e("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    ),
    Row(
        "shapes that do not broadcast",
        broadcast_mismatch,
        RuntimeError,
        _e(
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 1"
        ),
    ),
    Row(
        "autograd.grad of an unused input",
        unused_input,
        RuntimeError,
        _e(
            "The differentiated Tensor at index 1 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior."
        ),
    ),
    Row(
        "autograd.grad of an input that does not require grad",
        grad_of_input_without_grad,
        RuntimeError,
        _e("One of the differentiated Tensors does not require grad"),
    ),
    Row(
        ".item() of many elements",
        item_of_many,
        RuntimeError,
        _e("a Tensor with 3 elements cannot be converted to Scalar"),
    ),
    Row(
        "ragged nested lists",
        ragged_lists,
        ValueError,
        _e("expected sequence of length 2 at dim 1 (got 1)"),
    ),
    Row(
        "an object array",
        object_array,
        TypeError,
        _e("can't convert np.ndarray of type numpy.object_. The only supported types are: "),
    ),
    Row(
        "a complex array (a dtype minigrad does not have)",
        complex_array,
        TypeError,
        _e("can't convert np.ndarray of type numpy.complex128. The only supported types are: "),
        torch=False,
    ),
    Row("a string", string_data, TypeError, _e("new(): invalid data type 'str'")),
    Row("None", none_data, RuntimeError, _e("Could not infer dtype of NoneType")),
    Row("a dict", dict_data, RuntimeError, _e("Could not infer dtype of dict")),
    Row("None inside a list", none_in_list, RuntimeError, _e("Could not infer dtype of NoneType")),
    Row(
        "reshape to an invalid shape",
        reshape_invalid,
        RuntimeError,
        _e("shape '[4]' is invalid for input of size 6"),
    ),
    Row(
        "view with an impossible -1",
        view_invalid_inferred,
        RuntimeError,
        _e("shape '[-1, 4]' is invalid for input of size 6"),
    ),
    Row(
        "index out of range",
        index_out_of_range,
        IndexError,
        _e("index 5 is out of bounds for dimension 0 with size 3"),
    ),
    Row(
        "index out of range in dimension 1",
        index_out_of_range_in_dim_1,
        IndexError,
        _e("index 2 is out of bounds for dimension 1 with size 2"),
    ),
    Row(
        "list index out of range",
        list_index_out_of_range,
        IndexError,
        _e("index 5 is out of bounds for dimension 0 with size 3"),
    ),
    Row(
        "dim out of range",
        dim_out_of_range,
        IndexError,
        _e("Dimension out of range (expected to be in range of [-1, 0], but got 3)"),
    ),
    Row(
        "softmax dim out of range",
        softmax_dim_out_of_range,
        IndexError,
        _e("Dimension out of range (expected to be in range of [-1, 0], but got 2)"),
    ),
    Row(
        "cat with mismatched sizes",
        cat_mismatched_sizes,
        RuntimeError,
        _e(
            "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 "
            "for tensor number 1 in the list."
        ),
    ),
    Row(
        "cat with mismatched dims",
        cat_mismatched_dims,
        RuntimeError,
        _e("Tensors must have same number of dimensions: got 2 and 1"),
    ),
    Row(
        "cat of nothing",
        cat_nothing,
        ValueError,
        _e("torch.cat(): expected a non-empty list of Tensors"),
    ),
    Row(
        "stack of unequal shapes",
        stack_mismatched,
        RuntimeError,
        _e("stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 2] at"),
    ),
    Row(
        ".numpy() of a tensor that requires grad",
        numpy_of_requires_grad,
        RuntimeError,
        _e("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
    ),
    Row(
        ".grad of the wrong shape assigned",
        grad_of_wrong_shape_assigned,
        RuntimeError,
        _e(
            "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'. Please "
            "ensure that the gradient and the tensor are the same size"
        ),
    ),
    Row(
        ".grad of the wrong dtype assigned",
        grad_of_wrong_dtype_assigned,
        RuntimeError,
        _e(
            "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype "
            "'Float'. The gradient must match the tensor's grad_dtype"
        ),
    ),
    Row(
        ".grad = a number",
        grad_not_a_tensor,
        TypeError,
        _e("assigned grad expected to be a Tensor or None but got grad of type int"),
    ),
    Row(
        "requires_grad_(False) on a non-leaf",
        requires_grad_off_on_non_leaf,
        RuntimeError,
        _e(
            "you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach()."
        ),
    ),
    Row(
        "t() of a 3-d tensor",
        t_of_3d,
        RuntimeError,
        _e("t() expects a tensor with <= 2 dimensions, but self is 3D"),
    ),
    Row(
        "mean of integers",
        mean_of_integers,
        RuntimeError,
        _e(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            "or complex dtype. Got: Long"
        ),
    ),
    Row(
        "a float result written into an integer tensor",
        inplace_float_into_int,
        RuntimeError,
        _e("result type Float can't be cast to the desired output type Long"),
    ),
    Row(
        "matmul of mixed dtypes",
        mixed_dtype_matmul,
        RuntimeError,
        _e("expected m1 and m2 to have the same dtype, but got: double != float"),
    ),
    Row(
        "truth value of many elements",
        ambiguous_truth,
        RuntimeError,
        _e("Boolean value of Tensor with more than one value is ambiguous"),
    ),
    Row(
        "expand to an incompatible size",
        expand_invalid,
        RuntimeError,
        _e(
            "The expanded size of the tensor (4) must match the existing size (3) at "
            "non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [3]"
        ),
    ),
    Row(
        "matmul of a 0-d tensor",
        matmul_of_0d,
        RuntimeError,
        _e("both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    ),
    Row(
        "dot of different lengths",
        dot_mismatch,
        RuntimeError,
        _e("inconsistent tensor size, expected tensor [3] and src [2] to have the same number"),
    ),
    Row(
        "max() of an empty tensor",
        max_of_empty,
        RuntimeError,
        _e("max(): Expected reduction dim to be specified for input.numel() == 0."),
    ),
    Row(
        "a hook on a tensor without grad",
        hook_without_grad,
        RuntimeError,
        _e("cannot register a hook on a tensor that doesn't require gradient"),
    ),
    Row(
        "retain_grad without grad",
        retain_grad_without_grad,
        RuntimeError,
        _e("can't retain_grad on Tensor that has requires_grad=False"),
    ),
    Row("len() of a 0-d tensor", len_of_0d, TypeError, _e("len() of a 0-d tensor")),
    # --- the widgets (minigrad only)
    Row(
        "BackwardStepper of a tensor with no graph",
        stepper_with_no_graph,
        RuntimeError,
        _e("element 0 of tensors does not require grad and does not have a grad_fn"),
        torch=False,
    ),
    Row(
        "BackwardStepper of an empty tensor",
        stepper_of_an_empty_tensor,
        RuntimeError,
        _e("element 0 of tensors does not require grad and does not have a grad_fn"),
        torch=False,
    ),
    Row(
        "BackwardStepper of a freed graph",
        stepper_of_a_freed_graph,
        RuntimeError,
        FREED,
        torch=False,
    ),
    Row(
        "BackwardStepper of a graph too large to show",
        stepper_of_a_huge_graph,
        ValueError,
        _e("this graph has 101 nodes, too many to step through one by one (max_nodes=60)"),
        torch=False,
    ),
    Row(
        "BackwardStepper of a list",
        stepper_of_a_non_tensor,
        TypeError,
        _e("BackwardStepper needs a Tensor, got list"),
        torch=False,
    ),
    Row(
        "draw() of nothing",
        draw_of_nothing,
        TypeError,
        _e("draw() needs at least one tensor to draw"),
        torch=False,
    ),
    Row(
        "draw() of a number",
        draw_of_a_non_tensor,
        TypeError,
        _e("draw() takes Tensors, but argument 1 is float"),
        torch=False,
    ),
    Row(
        "draw() with max_nodes=0",
        draw_with_no_room,
        ValueError,
        _e("max_nodes must be at least 1, got 0"),
        torch=False,
    ),
    Row(
        "gather with an index out of bounds",
        gather_out_of_bounds,
        RuntimeError,
        _e("index 3 is out of bounds for dimension 1 with size 3"),
    ),
    Row(
        "gather with a float index",
        gather_float_index,
        RuntimeError,
        _e("gather(): Expected dtype int32/int64 for index"),
    ),
    Row(
        "masked_fill with an integer mask",
        masked_fill_integer_mask,
        RuntimeError,
        _e("masked_fill_ only supports boolean masks, but got mask with dtype long int"),
    ),
    Row(
        "split sizes that do not sum to the dim",
        split_sizes_not_summing,
        RuntimeError,
        _e("split_with_sizes expects split_sizes to sum exactly to 3"),
    ),
    Row(
        "flatten with start_dim after end_dim",
        flatten_start_after_end,
        RuntimeError,
        _e("flatten() has invalid args: start_dim cannot come after end_dim"),
    ),
    Row(
        "unflatten into sizes of another product",
        unflatten_wrong_sizes,
        RuntimeError,
        _e("unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3)"),
    ),
    Row(
        "repeat with fewer repeats than dims",
        repeat_fewer_dims,
        RuntimeError,
        _e("Number of dimensions of repeat dims can not be smaller than number of dimensions"),
    ),
    Row(
        "var of integers",
        var_of_integers,
        RuntimeError,
        _e("std and var only support floating point and complex dtypes"),
    ),
    Row(
        "a tensor moved to CUDA",
        tensor_to_cuda,
        AssertionError,
        _e("Torch not compiled with CUDA enabled"),
    ),
    Row(
        "zeros on CUDA",
        zeros_on_cuda,
        AssertionError,
        _e("Torch not compiled with CUDA enabled"),
    ),
    Row(
        "an integer default dtype",
        integer_default_dtype,
        TypeError,
        _e("only floating-point types are supported as the default type"),
    ),
    Row(
        "clamp with a tensor and a number",
        clamp_tensor_and_number,
        TypeError,
        _e("clamp() received an invalid combination of arguments - got (Tensor, float)"),
    ),
    Row(
        "an unknown device",
        unknown_device,
        RuntimeError,
        _e("Expected one of cpu, cuda, ipu, xpu, mkldnn") + ".* device string: gpu",
    ),
]

CASES = [pytest.param(row, "minigrad", id=f"{row.id} [minigrad]") for row in ROWS] + [
    pytest.param(row, "torch", id=f"{row.id} [torch]", marks=pytest.mark.oracle)
    for row in ROWS
    if row.torch
]


@pytest.mark.parametrize(("row", "library"), CASES)
def test_bad_input(row: Row, library: str) -> None:
    L = mg if library == "minigrad" else pytest.importorskip("torch")
    call, check = row.scenario(L)
    with pytest.raises(row.error, match=row.match) as raised:
        call()
    assert type(raised.value) is row.error  # the type itself, not a subclass
    check()


def test_the_table_is_big_enough():
    assert len(ROWS) >= 25 and sum(row.torch for row in ROWS) >= 25
    assert len({row.id for row in ROWS}) == len(ROWS)


# ----------------------------------------------------------------------------- nan and inf
NAN, INF = float("nan"), float("inf")
SPECIAL = [0.0, -1.0, NAN, INF, -INF, 2.0, 1e308]

EXPRESSIONS = {
    "log": lambda L, x: x.log(),
    "sqrt": lambda L, x: x.sqrt(),
    "1 / x": lambda L, x: 1 / x,
    "x / x": lambda L, x: x / x,
    "exp": lambda L, x: x.exp(),
    "x - x": lambda L, x: x - x,
    "x * 0": lambda L, x: x * 0,
    "tanh": lambda L, x: x.tanh(),
    "sigmoid": lambda L, x: x.sigmoid(),
    "relu": lambda L, x: x.relu(),
    "abs": lambda L, x: x.abs(),
    "x ** 2": lambda L, x: x**2,
    "x ** 0.5": lambda L, x: x**0.5,
    "x ** -1": lambda L, x: x**-1,
    "2 ** x": lambda L, x: 2**x,
    "x ** x": lambda L, x: x**x,
    "sin": lambda L, x: x.sin(),
    "clamp(-1, 1)": lambda L, x: x.clamp(-1, 1),
    "max()": lambda L, x: x.max(),
    "sum": lambda L, x: x.sum(),
    "mean": lambda L, x: x.mean(),
    "softmax": lambda L, x: x.softmax(0),
    "log_softmax": lambda L, x: x.log_softmax(0),
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", EXPRESSIONS)
def test_nan_and_inf_propagate_as_in_torch(name: str) -> None:
    torch = pytest.importorskip("torch")
    results = {}
    for L in (mg, torch):
        x = f64(L, SPECIAL, requires_grad=True)
        with np.errstate(all="ignore"):
            y = EXPRESSIONS[name](L, x)
            y.backward(L.ones_like(y))
        results[L.__name__] = (y.detach().numpy(), x.grad.numpy())
    (value_m, grad_m), (value_t, grad_t) = results["minigrad"], results["torch"]
    # assert_array_equal: nan where torch has nan, the same infinities, the same numbers.
    np.testing.assert_allclose(value_m, value_t, rtol=1e-12, equal_nan=True, err_msg="value")
    np.testing.assert_allclose(grad_m, grad_t, rtol=1e-12, equal_nan=True, err_msg="gradient")
    assert np.array_equal(np.isnan(grad_m), np.isnan(grad_t))


# ----------------------------------------------------------------------------- drawings
def _freed():
    w = mg.tensor(3.0, requires_grad=True)
    y = w * w
    y.backward()
    return y, {}


def _huge():
    w = mg.tensor(1.0, requires_grad=True)
    y = w
    for _ in range(300):
        y = y * 1.01
    return y, {"max_nodes": 50}


DRAWINGS = {
    "no graph": (lambda: (mg.tensor(2.0), {}), "requires_grad=False: no graph"),
    "an empty tensor": (lambda: (mg.tensor([]), {}), r"shape \(0,\)"),
    "a freed graph": (_freed, "saved tensors freed"),
    "a graph too large": (_huge, re.escape("251 more graph nodes not drawn (max_nodes=50)")),
}


@pytest.mark.parametrize("case", DRAWINGS)
def test_draw_explains_what_it_cannot_show(case: str) -> None:
    make, expected = DRAWINGS[case]
    tensor, options = make()
    source = widgets.draw(tensor, **options).source
    assert re.search(expected, source), source
