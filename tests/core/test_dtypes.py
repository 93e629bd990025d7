"""PyTorch's dtype names and type promotion."""

import numpy as np
import pytest

import minigrad as mg


def test_names_and_aliases():
    assert repr(mg.float32) == "minigrad.float32"
    assert mg.float is mg.float32 and mg.double is mg.float64 and mg.long is mg.int64
    assert mg.get_default_dtype() is mg.float32
    assert mg.float64.is_floating_point and not mg.int64.is_floating_point
    assert mg.dtypes.to_dtype("float64") is mg.float64 and mg.dtypes.to_dtype(np.int32) is mg.int32


@pytest.mark.parametrize(
    ("make", "dtype"),
    [
        (lambda: mg.tensor([1, 2]) * 2.5, mg.float32),  # numpy would say float64
        (lambda: mg.tensor([1, 2]) * 2, mg.int64),
        (lambda: mg.tensor([1, 2]) / 2, mg.float32),  # true division of ints
        (lambda: mg.tensor([1.0], dtype=mg.float64) * 2.5, mg.float64),
        (lambda: mg.tensor([1.0]) + mg.tensor(2.0, dtype=mg.float64), mg.float32),  # 0-d loses
        (lambda: mg.tensor([1]) + mg.tensor(2.0, dtype=mg.float64), mg.float64),  # higher kind
        (lambda: mg.tensor([1.0]) + mg.tensor([2.0], dtype=mg.float64), mg.float64),
        (lambda: mg.tensor([True]) + 1, mg.int64),
        (lambda: mg.tensor([1], dtype=mg.int32) + 1, mg.int32),
        (lambda: mg.tensor([1], dtype=mg.int32) + mg.tensor([1]), mg.int64),
        (lambda: mg.tensor([1]).exp(), mg.float32),
        (lambda: 2 ** mg.tensor([1.0]), mg.float32),
        (lambda: mg.tensor([1, 2]).sum(), mg.int64),
    ],
)
def test_promotion(make, dtype):
    assert make().dtype is dtype


def test_gradient_is_cast_to_the_leaf_dtype():
    x = mg.tensor([1.0, 2.0], requires_grad=True)  # float32
    y = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    (x * y).sum().backward()
    assert x.grad.dtype is mg.float32 and y.grad.dtype is mg.float64


def test_to_and_casts():
    x = mg.tensor([1.5, 2.5], requires_grad=True)
    d = x.double()
    assert d.dtype is mg.float64 and d.grad_fn.name() == "ToCopyBackward0"
    d.sum().backward()
    assert x.grad.dtype is mg.float32
    assert x.to(mg.float32) is x
    assert x.long().tolist() == [1, 2] and not x.long().requires_grad
