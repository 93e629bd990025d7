"""The Tensor API of PyTorch tutorials, in minigrad alone (no torch needed): devices, the
default dtype, the legacy constructor, creation functions, and the new ops' derivatives
checked by finite differences, first and second (``gradcheck``, ``gradgradcheck``)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)


def leaf(shape, low=-2.0, high=2.0):
    return mg.tensor(RNG.uniform(low, high, size=shape), dtype=mg.float64, requires_grad=True)


# ----------------------------------------------------------------------------- devices
def test_a_device_names_its_type_and_index():
    cpu = mg.device("cpu")
    assert (cpu.type, cpu.index, str(cpu), repr(cpu)) == ("cpu", None, "cpu", "device(type='cpu')")
    first = mg.device("cpu", 0)
    assert first == mg.device("cpu:0") and first != cpu and str(first) == "cpu:0"
    assert repr(first) == "device(type='cpu', index=0)"


def test_every_tensor_is_on_the_cpu_and_cuda_is_refused():
    x = mg.randn(2, 3, device="cpu")
    assert x.device == mg.device("cpu") and not x.is_cuda
    assert x.to("cpu") is x and x.cpu() is x
    assert mg.cuda.is_available() is False and mg.cuda.device_count() == 0
    for call in (x.cuda, lambda: x.to("cuda:0"), lambda: mg.ones(1, device="cuda")):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            call()


def test_to_takes_a_dtype_a_device_or_another_tensor():
    x = mg.tensor([1.5, 2.5], requires_grad=True)
    assert x.to(mg.float64).grad_fn.name() == "ToCopyBackward0"
    assert x.to("cpu", mg.float64).dtype == mg.float64
    assert x.to(device="cpu", dtype=mg.int64).tolist() == [1, 2]
    assert x.to(mg.zeros(1, dtype=mg.float16)).dtype == mg.float16
    assert x.to(mg.float32, copy=True) is not x
    with pytest.raises(TypeError, match="to\\(\\) received an invalid combination"):
        x.to(mg.float64, "cpu")


# ----------------------------------------------------------------------------- dtypes
@pytest.fixture
def default_float64():
    mg.set_default_dtype(mg.float64)
    yield
    mg.set_default_dtype(mg.float32)


def test_python_floats_follow_the_default_dtype(default_float64):
    assert mg.get_default_dtype() == mg.float64
    assert mg.tensor([1.0]).dtype == mg.float64
    assert mg.zeros(2).dtype == mg.float64 and mg.Tensor([1]).dtype == mg.float64
    assert (mg.tensor([1, 2]) * 0.5).dtype == mg.float64
    assert (mg.tensor([1.0], dtype=mg.float32) * 0.5).dtype == mg.float32
    assert repr(mg.tensor([1.5])) == "tensor([1.5000])"
    assert repr(mg.tensor([1.5], dtype=mg.float32)) == "tensor([1.5000], dtype=minigrad.float32)"


def test_only_float_dtypes_can_be_the_default():
    with pytest.raises(TypeError, match="only floating-point types"):
        mg.set_default_dtype(mg.int32)
    assert mg.get_default_dtype() == mg.float32


# ----------------------------------------------------------------------------- creation
def test_the_legacy_constructor():
    assert repr(mg.Tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert mg.Tensor([1.0, 2.0]).double().dtype == mg.float64
    assert mg.Tensor(2, 3).shape == (2, 3) and mg.Tensor(2, 3).dtype == mg.float32
    assert mg.Tensor().shape == (0,)
    array = np.arange(3)
    assert mg.Tensor(array)._array is array  # the ops' own use: the array as it is


def test_size_keywords_and_like_functions():
    assert mg.zeros(size=(2, 3)).shape == (2, 3)
    assert mg.randn(size=[4]).shape == (4,)
    assert mg.full((2,), 7).dtype == mg.int64
    ints = mg.tensor([[1, 2], [3, 4]])
    assert mg.full_like(ints, 2.7).tolist() == [[2, 2], [2, 2]]
    assert mg.empty_like(ints).dtype == mg.int64
    assert mg.rand_like(mg.ones(3)).shape == (3,)
    drawn = mg.randint_like(ints, 5, 7)
    assert drawn.dtype == mg.int64 and set(drawn.flatten().tolist()) <= {5, 6}
    with pytest.raises(TypeError, match="multiple values for argument 'size'"):
        mg.ones(2, size=(2,))


def test_from_numpy_and_as_tensor_share_memory():
    a = np.zeros(3)
    mg.from_numpy(a)[1] = 4.0
    mg.as_tensor(a)[2] = 5.0
    assert a.tolist() == [0.0, 4.0, 5.0]
    assert mg.as_tensor(a, dtype=mg.float32)._array is not a


# ----------------------------------------------------------------------------- new ops
DERIVATIVES = {
    "norm": (lambda x: x.norm(), [(3, 4)]),
    "norm(1, dim)": (lambda x: x.norm(1, dim=1), [(3, 4)]),
    "norm(3, dim, keepdim)": (lambda x: x.norm(3, 0, True), [(3, 4)]),
    "var": (lambda x: x.var(), [(3, 4)]),
    "var(dim, correction=0)": (lambda x: x.var(1, correction=0), [(3, 4)]),
    "std(dim, keepdim)": (lambda x: x.std(0, keepdim=True), [(3, 4)]),
    "prod": (lambda x: x.prod(), [(2, 3)]),
    "prod(dim)": (lambda x: x.prod(1), [(2, 3)]),
    "cumsum": (lambda x: x.cumsum(1), [(2, 3)]),
    "gather": (lambda x: x.gather(1, mg.tensor([[2, 2], [0, 1]])), [(2, 3)]),
    "repeat": (lambda x: x.repeat(2, 1, 2), [(2, 3)]),
    "split": (lambda x: x.split([1, 2], dim=1)[1], [(2, 3)]),
    # * 1: gradcheck (minigrad/autograd/gradcheck.py) reads a contiguous view's values
    # after restoring the input, so a view must not be the output it differentiates
    "chunk": (lambda x: x.chunk(2)[0] * 1, [(3, 2)]),
    "masked_fill": (lambda x: x.masked_fill(x > 0, 0.5), [(2, 3)]),
    "masked_fill tensor": (lambda x, v: x.masked_fill(x > 0, v), [(2, 3), ()]),
    "clamp tensors": (lambda x, lo: x.clamp(lo, lo + 1), [(2, 3), (3,)]),
    "outer": (lambda x, y: x.outer(y), [(3,), (2,)]),
    "flatten/unflatten": (lambda x: x.flatten().unflatten(0, (3, 2)) * x.T, [(2, 3)]),
}


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_first_and_second_derivatives_agree_with_finite_differences(name):
    fn, shapes = DERIVATIVES[name]
    inputs = [leaf(shape) for shape in shapes]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_prod_derivative_is_exact_where_elements_are_zero():
    x = mg.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 4.0]], dtype=mg.float64, requires_grad=True)
    (g,) = mg.autograd.grad(x.prod(1).sum(), x, create_graph=True)
    assert g.tolist() == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]]
    (h,) = mg.autograd.grad(g[0, 1], x)  # ∂²/∂x₀₁∂x: the product of the two others' others
    assert h.tolist() == [[3.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
    y = mg.tensor([0.0, 5.0, 2.0], dtype=mg.float64, requires_grad=True)
    y.prod().backward()
    assert y.grad.tolist() == [10.0, 0.0, 0.0]


def test_node_names_are_pytorchs():
    x = leaf((2, 3))
    assert x.norm().grad_fn.name() == "LinalgVectorNormBackward0"
    assert x.prod().grad_fn.name() == "ProdBackward0"
    assert x.prod(0).grad_fn.name() == "ProdBackward1"
    assert x.var().grad_fn.name() == "VarBackward0"
    assert x.std(1).grad_fn.name() == "StdBackward0"
    assert x.cumsum(0).grad_fn.name() == "CumsumBackward0"
    assert x.gather(0, mg.tensor([[0]])).grad_fn.name() == "GatherBackward0"
    assert x.repeat(1, 2).grad_fn.name() == "RepeatBackward0"
    assert x.split(1)[0].grad_fn.name() == "SplitBackward0"
    assert x.split([1, 1])[1].grad_fn.name() == "SplitWithSizesBackward0"
    assert x.masked_fill(x > 0, 1.0).grad_fn.name() == "MaskedFillBackward0"
    assert x.masked_fill(x > 0, mg.tensor(1.0)).grad_fn.name() == "MaskedFillBackward1"
    assert x.clamp(min=leaf((3,))).grad_fn.name() == "ClampBackward0"
    assert x.clamp(min=0.0).grad_fn.name() == "ClampBackward1"
    assert x.flatten(1).grad_fn is None  # one dim merged with itself: the tensor itself


def test_split_pieces_are_views_of_the_input():
    x = mg.arange(6.0).reshape(2, 3)
    top, bottom = x.chunk(2)
    top[0, 0] = 9.0
    assert x[0, 0].item() == 9.0 and bottom.tolist() == [[3.0, 4.0, 5.0]]
