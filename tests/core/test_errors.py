"""Every error a student meets, with PyTorch's message; and a failed call changes nothing."""

import re

import numpy as np
import pytest

import minigrad as mg
from minigrad.function import FREED_GRAPH_MESSAGE


def grads(*tensors):
    return [None if t.grad is None else t.grad.tolist() for t in tensors]


def test_backward_of_a_non_scalar_needs_a_gradient():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        (x * 2).backward()
    assert x.grad is None


def test_backward_of_a_tensor_without_history():
    with pytest.raises(
        RuntimeError,
        match="^element 0 of tensors does not require grad and does not have a grad_fn$",
    ):
        mg.tensor(2.0).backward()
    x = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="^element 1 of tensors does not require grad"):
        mg.autograd.backward([x * 2, mg.tensor(1.0)])
    assert x.grad is None


def test_backward_twice_through_a_freed_graph():
    assert FREED_GRAPH_MESSAGE.startswith(
        "Trying to backward through the graph a second time (or directly access saved tensors "
        "after they have already been freed)."
    )
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    y.backward()
    with pytest.raises(RuntimeError, match="^" + re.escape(FREED_GRAPH_MESSAGE) + "$"):
        y.backward()
    assert x.grad.item() == 12.0  # the failed second call added nothing


def test_freed_graph_error_comes_before_any_gradient_moves():
    # One path is fresh, the other was freed: nothing may reach the leaves.
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    used = x * x
    used.backward()
    x.grad = None
    total = used + x * w
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        total.backward()
    assert grads(x, w) == [None, None]


def test_saved_tensor_modified_in_place():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    h = x.exp()
    y = (h * w).sum()
    h.mul_(2)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [minigrad.FloatTensor [2]], which is output 0 of Mul, is at "
            "version 1; expected version 0 instead."
        ),
    ):
        y.backward()
    assert grads(x, w) == [None, None]


def test_saved_leaf_modified_under_no_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with mg.no_grad():
        x.add_(1)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "modified by an inplace operation: [minigrad.FloatTensor [2]] is at version 1; "
            "expected version 0 instead."
        ),
    ):
        y.backward()
    assert x.grad is None


def test_saved_result_modified_names_the_node_that_saved_it():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x.tanh()  # tanh saves its result
    h.add_(1)  # h's grad_fn is now AddBackward0, but PyTorch names TanhBackward0's output
    with pytest.raises(RuntimeError, match="which is output 0 of Tanh, is at version 1"):
        h.sum().backward()
    assert x.grad is None


def test_matmul_shape_mismatch():
    with pytest.raises(
        RuntimeError, match=re.escape("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
    ):
        mg.ones(2, 3) @ mg.ones(2, 3)


def test_broadcast_mismatch():
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 1"
        ),
    ):
        mg.ones(2, 3) + mg.ones(2, 2)


def test_autograd_grad_unused_input():
    x = mg.tensor(1.0, requires_grad=True)
    y = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "The differentiated Tensor at index 1 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior."
        ),
    ):
        mg.autograd.grad(x * 2, [x, y])
    gx, gy = mg.autograd.grad(x * 2, [x, y], allow_unused=True)
    assert gx.item() == 2.0 and gy is None
    assert x.grad is None and y.grad is None  # grad() never touches .grad


def test_autograd_grad_of_an_input_that_does_not_require_grad():
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require"):
        mg.autograd.grad(mg.tensor(1.0, requires_grad=True) * 2, mg.tensor(1.0))


def test_item_of_many_elements():
    with pytest.raises(
        RuntimeError, match="^a Tensor with 3 elements cannot be converted to Scalar$"
    ):
        mg.ones(3).item()


def test_ragged_lists():
    with pytest.raises(
        ValueError, match=re.escape("expected sequence of length 2 at dim 1 (got 1)")
    ):
        mg.tensor([[1, 2], [3]])
    with pytest.raises(
        ValueError, match=re.escape("expected sequence of length 1 at dim 2 (got 2)")
    ):
        mg.tensor([[[1], [2, 3]]])


def test_gradient_of_the_wrong_shape():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=re.escape(
            "Mismatch in shape: grad_output[0] has a shape of minigrad.Size([2]) and output[0] "
            "has a shape of minigrad.Size([3])."
        ),
    ):
        (x * 2).backward(mg.ones(2))
    assert x.grad is None


def test_failed_backward_with_several_outputs_leaves_grads_alone():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor(3.0, requires_grad=True)
    a.grad = mg.tensor([10.0, 10.0])
    with pytest.raises(RuntimeError, match=r"grad_output\[1\] has a shape"):
        mg.autograd.backward([(a * b).sum(), a * 2], [None, mg.ones(3)])
    assert grads(a, b) == [[10.0, 10.0], None]


def test_in_place_on_a_leaf_that_requires_grad():
    w = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match="^a leaf Variable that requires grad is being used in an in-place operation.$",
    ):
        w += 1
    assert w.detach().tolist() == [1.0]


def test_index_out_of_range():
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 2"):
        mg.ones(2, 3)[5]
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 1 with size 3"):
        mg.ones(2, 3)[0, 7]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        mg.ones(2, 3)[0, 0, 0]


def test_assigned_grad_must_match():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    wrong_size = r"attempting to assign a gradient of size '\[3\]' to a tensor of size '\[2\]'"
    with pytest.raises(RuntimeError, match=wrong_size):
        x.grad = mg.ones(3)
    wrong_dtype = (
        "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'"
    )
    with pytest.raises(RuntimeError, match=wrong_dtype):
        x.grad = mg.tensor(np.ones(2))
    assert x.grad is None
