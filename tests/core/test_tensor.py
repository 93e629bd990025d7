"""Creation functions, Tensor attributes and in-place operations."""

import numpy as np
import pytest

import minigrad as mg


# --------------------------------------------------------------------------- creation
@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        (1.5, mg.float32),
        ([1.0, 2.0], mg.float32),
        ([1, 2.0], mg.float32),  # one float makes the whole tensor float
        (3, mg.int64),
        ([[1, 2], [3, 4]], mg.int64),
        (True, mg.bool),
        ([True, False], mg.bool),
        (np.array([1.0, 2.0]), mg.float64),  # numpy keeps its dtype
        (np.array([1, 2], dtype=np.int32), mg.int32),
        (np.array([1.0], dtype=np.float16), mg.float16),
    ],
)
def test_tensor_infers_pytorch_dtypes(data, dtype):
    assert mg.tensor(data).dtype is dtype


def test_tensor_copies_its_data():
    array = np.array([1.0, 2.0])
    t = mg.tensor(array)
    array[0] = 100.0
    assert t.tolist() == [1.0, 2.0]


def test_tensor_explicit_dtype():
    t = mg.tensor([1, 2], dtype=mg.float64)
    assert t.dtype is mg.float64
    assert t.tolist() == [1.0, 2.0]


def test_requires_grad_on_integers_raises():
    message = "Only Tensors of floating point and complex dtype can require gradients"
    with pytest.raises(RuntimeError, match=message):
        mg.tensor(3, requires_grad=True)
    # requires_grad_() has its own wording in PyTorch.
    own_wording = "^only Tensors of floating point dtype can require gradients$"
    with pytest.raises(RuntimeError, match=own_wording):
        mg.tensor([1, 2]).requires_grad_()


def test_zeros_ones_and_likes():
    z = mg.zeros(2, 3)
    o = mg.ones((2, 3), dtype=mg.float64)
    assert z.shape == (2, 3) and z.dtype is mg.float32 and not z._array.any()
    assert o.dtype is mg.float64 and (o._array == 1).all()
    like = mg.zeros_like(o)
    assert like.shape == o.shape and like.dtype is mg.float64 and not like._array.any()
    ones_like = mg.ones_like(mg.tensor([1, 2, 3]))
    assert ones_like.dtype is mg.int64 and ones_like.tolist() == [1, 1, 1]
    assert mg.zeros(2, requires_grad=True).requires_grad


def test_arange_and_linspace():
    assert mg.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert mg.arange(5).dtype is mg.int64
    assert mg.arange(1, 2, 0.5).dtype is mg.float32
    assert mg.arange(1, 2, 0.5).tolist() == [1.0, 1.5]
    lin = mg.linspace(0, 1, 5)
    assert lin.dtype is mg.float32
    assert lin.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_random_numbers_are_reproducible_with_manual_seed():
    mg.manual_seed(7)
    first = (mg.randn(3, 2), mg.rand(4))
    mg.manual_seed(7)
    second = (mg.randn(3, 2), mg.rand(4))
    assert first[0].equal(second[0]) and first[1].equal(second[1])
    assert first[0].shape == (3, 2) and first[0].dtype is mg.float32
    assert ((first[1]._array >= 0) & (first[1]._array < 1)).all()
    mg.manual_seed(8)
    assert not mg.randn(3, 2).equal(first[0])


# --------------------------------------------------------------------------- attributes
def test_shape_dtype_ndim_numel():
    t = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.shape == (2, 3)
    assert repr(t.shape) == "minigrad.Size([2, 3])"
    assert t.ndim == 2 and t.dim() == 2
    assert t.numel() == 6
    assert t.dtype is mg.float32


def test_item_numpy_tolist():
    assert mg.tensor(2.5).item() == 2.5
    assert isinstance(mg.tensor(3).item(), int)
    assert mg.tensor([[1, 2]]).tolist() == [[1, 2]]
    t = mg.tensor([1.0, 2.0])
    array = t.numpy()
    array[0] = 9.0  # numpy() shares memory, as in PyTorch
    assert t.tolist() == [9.0, 2.0]


def test_numpy_refuses_when_requires_grad():
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Use tensor.detach\(\).numpy\(\) instead"):
        x.numpy()
    assert x.detach().numpy().tolist() == [1.0]


def test_detach_shares_memory_and_leaves_the_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    with mg.no_grad():
        y.add_(1)
    assert d.tolist() == [3.0, 5.0]  # the same memory


def test_data_is_detached():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    d = x.data
    assert not d.requires_grad
    d.add_(1)  # not recorded, and allowed although x is a leaf that requires grad
    assert x.detach().tolist() == [2.0, 3.0]
    assert x.requires_grad and x.is_leaf


def test_requires_grad_grad_fn_and_is_leaf():
    x = mg.tensor(2.0)
    assert not x.requires_grad and x.is_leaf and x.grad_fn is None and x.grad is None
    assert x.requires_grad_() is x
    assert x.requires_grad
    y = x * 3
    assert y.requires_grad and not y.is_leaf and y.grad_fn.name() == "MulBackward0"
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf"):
        y.requires_grad_(False)
    c = mg.tensor(1.0) * 3  # nothing requires grad: a leaf without history
    assert c.is_leaf and c.grad_fn is None and not c.requires_grad


def test_retain_grad_keeps_a_non_leaf_gradient():
    x = mg.tensor(3.0, requires_grad=True)
    y = x * x
    z = x * x
    y.retain_grad()
    (y * 2 + z).backward()
    assert y.retains_grad and not z.retains_grad
    assert y.grad.item() == 2.0
    with pytest.warns(UserWarning, match="not a leaf Tensor is being accessed"):
        assert z.grad is None  # PyTorch warns: z.grad is a common slip for x.grad
    assert x.grad.item() == 6 * 3.0  # d(3x²)/dx


def test_retain_grad_on_a_zero_valued_scalar():
    # a tensor's truth value is its value: a retained 0. must still get its .grad
    x = mg.tensor(0.0, requires_grad=True)
    y = x * 1
    y.retain_grad()
    (y * 5).backward()
    assert y.grad.item() == 5.0


def test_retain_grad_on_a_vector():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    (y * y).sum().backward()
    assert y.grad.tolist() == [2.0, 4.0]


def test_register_hook_sees_and_replaces_the_gradient():
    x = mg.tensor(2.0, requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.item()))
    y = x * x
    handle = y.register_hook(lambda g: g * 10)
    y.backward(retain_graph=True)
    assert seen == [40.0] and x.grad.item() == 40.0
    handle.remove()
    y.backward()
    assert seen == [40.0, 4.0] and x.grad.item() == 44.0


def test_register_hook_needs_requires_grad():
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        mg.tensor(1.0).register_hook(lambda g: g)


# --------------------------------------------------------------------------- in-place
LEAF_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.zero_(),
        lambda t: t.add_(1.0),
        lambda t: t.mul_(2.0),
        lambda t: t.sub_(1.0),
        lambda t: t.__isub__(1.0),
    ],
    ids=["zero_", "add_", "mul_", "sub_", "-="],
)
def test_in_place_on_a_leaf_needs_no_grad(change):
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=LEAF_MESSAGE):
        change(w)
    assert w.tolist() == [1.0, 2.0] and w._version == 0  # nothing changed
    with mg.no_grad():
        result = change(w)
    assert result is w and w.is_leaf and w.requires_grad and w.grad_fn is None
    assert w._version == 1


def test_in_place_values_under_no_grad():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        w.mul_(3.0)
        w -= 1.0
        w.add_(mg.tensor([1.0, 1.0]), alpha=2)
    assert w.detach().tolist() == [4.0, 7.0]
    with mg.no_grad():
        w.zero_()
    assert w.detach().tolist() == [0.0, 0.0]


def test_in_place_on_a_non_leaf_is_recorded():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(3.0)
    assert y.grad_fn.name() == "MulBackward0"
    y.add_(x)
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_in_place_on_tensors_without_grad_is_free():
    t = mg.tensor([1.0, 2.0])
    t += 1
    t *= 2
    assert t.tolist() == [4.0, 6.0] and t.grad_fn is None and not t.requires_grad


def test_an_update_under_no_grad_writes_into_the_same_memory():
    # p -= lr * p.grad: numpy writes into the parameter's own array; the values are those of
    # the out-of-place op, the version counter moves, and an op that saved p notices.
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    memory = w._array
    y = (w * w).sum()
    step = mg.tensor([0.25, 0.5, 4.0])
    expected = ((w.detach() - step) * step + step).sub(step, alpha=0.5).add(step, alpha=-3)
    with mg.no_grad():
        w -= step
        w.mul_(step)
        w.add_(step)
        w.sub_(step, alpha=0.5)
        w.add_(step, alpha=-3)  # SGD's p.add_(p.grad, alpha=-lr)
    assert w._array is memory and w.tolist() == expected.tolist()
    assert w._version == 5 and w.is_leaf and w.grad_fn is None and w.requires_grad
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_an_update_of_another_dtype_or_shape_keeps_pytorchs_rules():
    # Operands of another dtype or shape take the general path: computed in the promoted
    # dtype and cast back into the tensor's, a row broadcast to a matrix.
    w = mg.tensor([1.0, 2.0], dtype=mg.float32)
    other = mg.tensor([1 / 3, 2 / 3], dtype=mg.float64)
    expected = (w.double() - other).float()
    w -= other
    assert w.dtype == mg.float32 and w.tolist() == expected.tolist()
    m = mg.zeros(2, 2)
    m += mg.tensor([1.0, 2.0])
    assert m.tolist() == [[1.0, 2.0], [1.0, 2.0]]
    with pytest.raises(RuntimeError, match=r"output with shape \[2\] doesn't match"):
        mg.zeros(2).add_(mg.zeros(2, 2))


def test_in_place_with_an_operand_that_requires_grad():
    w = mg.tensor(3.0, requires_grad=True)
    t = mg.tensor(1.0)
    t.mul_(w)  # t now depends on w
    assert t.requires_grad and t.grad_fn.name() == "MulBackward0"
    t.backward()
    assert w.grad.item() == 1.0


def test_grad_zero_resets_between_steps():
    w = mg.tensor(1.0, requires_grad=True)
    for _ in range(2):
        (w * 3).backward()
    assert w.grad.item() == 6.0
    w.grad.zero_()
    assert w.grad.item() == 0.0
    (w * 3).backward()
    assert w.grad.item() == 3.0


def test_abs_of_a_tensor_is_recorded():
    x = mg.tensor([-2.0, 3.0], requires_grad=True)
    y = abs(x)
    assert y.tolist() == [2.0, 3.0] and y.grad_fn.name() == "AbsBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [-1.0, 1.0]


def test_a_detached_tensor_may_change_in_place_and_backward_notices():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    y = a * a  # saves a
    detached = a.detach()
    detached.mul_(3)  # allowed, as in PyTorch: shares a's memory and version counter
    assert a.tolist() == [3.0, 6.0]
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_a_view_taken_under_no_grad_cannot_change_in_place_with_grad_on():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        view = a[0:1]
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode"):
        view.mul_(2)
    assert a.tolist() == [1.0, 2.0]


def test_numpy_reads_a_tensor_as_an_array_unless_it_requires_grad():
    t = mg.tensor([1.0, 2.0])
    assert np.asarray(t).tolist() == [1.0, 2.0] and np.asarray(t).dtype == np.float32
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    assert type(np.array([1.0, 1.0]) * t) is mg.Tensor  # numpy defers to the tensor's ops
    with pytest.raises(RuntimeError, match="^Can't call numpy\\(\\) on Tensor that requires grad"):
        np.asarray(mg.tensor([1.0], requires_grad=True))


# -- writing into views (tests/parity/test_inplace_views_parity.py compares with PyTorch) --
def test_rows_written_into_zeros_carry_the_gradient_back():
    W = mg.tensor([1.0, -2.0, 0.5], requires_grad=True)
    dC = mg.zeros(4, 3)
    dC[1] += W * 2
    dC[1] += W * 3
    assert dC.grad_fn.name() == "minigrad::autograd::CopySlices" and dC._version == 4
    assert dC[1].tolist() == (W.detach() * 5).tolist() and dC[0].tolist() == [0.0] * 3
    (dC * dC).sum().backward()
    # d/dW of Σ (5W)² = 50 W
    np.testing.assert_allclose(W.grad.numpy(), 50 * np.array([1.0, -2.0, 0.5]))


def test_a_written_view_reads_its_history_off_the_base():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    column = y[:, 1]
    column.mul_(3)
    assert column.grad_fn.name() == "AsStridedBackward0"
    assert column.grad_fn.next_functions[0][0] is y.grad_fn
    assert column.grad_fn._saved_size == (2,) and column.grad_fn._saved_stride == (2,)
    assert column.grad_fn._saved_storage_offset == 1
    (y.sum() + column.sum()).backward()
    assert x.grad.tolist() == [[1.0, 6.0], [1.0, 6.0]]


def test_writing_into_a_view_of_a_leaf_or_a_split_piece_is_refused():
    w = mg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        w[0:2].mul_(2)
    first, second = (w * 1).split([1, 2])
    with pytest.raises(RuntimeError, match="^Output 1 of SplitWithSizes is a view and is being"):
        second.add_(1)
    assert w.tolist() == [1.0, 1.0, 1.0] and second.tolist() == [1.0, 1.0]
