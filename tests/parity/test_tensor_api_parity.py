"""The Tensor API of PyTorch tutorials, against torch 2.13.0: devices, the default dtype,
the legacy ``Tensor(...)`` constructor, the creation functions, and the ops that came with
them (norm, var, std, prod, cumsum, gather, repeat, split, chunk, masked_fill, clamp with
tensors, flatten, unflatten, outer, where as a method).

Each op is built in both libraries from the same float64 numpy arrays; compared: values,
the tree of grad_fn names, first derivatives, and second derivatives (the gradient of the
sum of the first, made with ``create_graph=True``). Errors: same type, same message.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RTOL, ATOL = 1e-10, 1e-12
RNG = np.random.default_rng(13)
M = RNG.standard_normal((3, 4))  # a matrix without ties or zeros
V = RNG.standard_normal(4)
W = RNG.standard_normal(3)
WITH_ZERO = np.array([[2.0, 0.0, 3.0, -1.5], [1.0, 2.0, -0.5, 4.0], [0.0, 1.5, 0.0, 2.0]])


def name_tree(node):
    if node is None:
        return None
    name = node.name().replace("torch::", "minigrad::")
    return (name, tuple(name_tree(child) for child, _ in node.next_functions))


def leaves(L, *arrays):
    return [L.tensor(a, dtype=L.float64, requires_grad=True) for a in arrays]


def outputs(result):
    return list(result) if isinstance(result, tuple | list) else [result]


def run(L, build, arrays):
    inputs = leaves(L, *arrays)
    results = outputs(build(L, *inputs))
    differentiable = [r for r in results if r.requires_grad]
    total = sum((r * (i + 1.5)).sum() for i, r in enumerate(differentiable))
    firsts = L.autograd.grad(total, inputs, create_graph=True, allow_unused=True)
    used = [(x, g) for x, g in zip(inputs, firsts, strict=True) if g is not None]
    second_target = sum((g * g).sum() for _, g in used if g.requires_grad)
    seconds = None
    if isinstance(second_target, L.Tensor) and second_target.requires_grad:
        seconds = L.autograd.grad(second_target, inputs, allow_unused=True)
    return results, firsts, seconds


def values(t):
    if t is None:
        return None
    return t.detach().numpy(force=True) if isinstance(t, torch.Tensor) else t.detach().numpy()


def assert_close(mine, theirs):
    if theirs is None or mine is None:
        # PyTorch may return a zero gradient where minigrad returns None: the same maths.
        present = mine if theirs is None else theirs
        assert present is None or not np.any(values(present)), (mine, theirs)
        return
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(values(mine), values(theirs), rtol=RTOL, atol=ATOL)


# (build(L, *leaves), arrays): each op as a tutorial writes it.
OPS = {
    "m.norm()": (lambda L, m: m.norm(), [M]),
    "m.norm(1)": (lambda L, m: m.norm(1), [M]),
    "m.norm(3, dim=1)": (lambda L, m: m.norm(3, dim=1), [M]),
    "m.norm(p=inf, dim=0, keepdim)": (lambda L, m: m.norm(float("inf"), 0, True), [M]),
    "L.norm(m, p='fro')": (lambda L, m: L.norm(m, p="fro"), [M]),
    "m.flatten()": (lambda L, m: m.flatten(), [M]),
    "m.flatten(0, 1)": (lambda L, m: m.flatten(0, 1), [M]),
    "m.T.flatten()": (lambda L, m: m.T.flatten(), [M]),
    "m[None].flatten(1)": (lambda L, m: m[None].flatten(1), [M]),
    "m.unflatten(1, (2, -1))": (lambda L, m: m.unflatten(1, (2, -1)), [M]),
    "L.unflatten(v, 0, (2, 2))": (lambda L, v: L.unflatten(v, 0, (2, 2)), [V]),
    "m.pow(2)": (lambda L, m: m.pow(2), [M]),
    "L.pow(2, m)": (lambda L, m: L.pow(2, m), [M]),
    "L.pow(m, 3)": (lambda L, m: L.pow(m, 3), [M]),
    "m.abs().pow(v)": (lambda L, m, v: m.abs().pow(v), [M, V]),
    "L.sin(m) * m.cos()": (lambda L, m: L.sin(m) * m.cos(), [M]),
    "m.clamp(min=v)": (lambda L, m, v: m.clamp(min=v), [M, V]),
    "m.clamp(v, v + 1)": (lambda L, m, v: m.clamp(v, v + 1), [M, V]),
    "m.clamp(max=v)": (lambda L, m, v: L.clamp(m, max=v), [M, V]),
    "m.var()": (lambda L, m: m.var(), [M]),
    "m.var(1)": (lambda L, m: m.var(1), [M]),
    "m.var(0, unbiased=False, keepdim=True)": (
        lambda L, m: m.var(0, unbiased=False, keepdim=True),
        [M],
    ),
    "m.var(dim=1, correction=2)": (lambda L, m: m.var(dim=1, correction=2), [M]),
    "m.std()": (lambda L, m: m.std(), [M]),
    "m.std(1, keepdim=True)": (lambda L, m: m.std(1, keepdim=True), [M]),
    "L.std(m, dim=(0, 1), correction=0)": (lambda L, m: L.std(m, dim=(0, 1), correction=0), [M]),
    "m.prod()": (lambda L, m: m.prod(), [M]),
    "m.prod(1)": (lambda L, m: m.prod(1), [M]),
    "m.prod(0, keepdim=True)": (lambda L, m: m.prod(0, keepdim=True), [M]),
    "prod() with zeros": (lambda L, m: m.prod(), [WITH_ZERO]),
    "prod(1) with zeros": (lambda L, m: m.prod(1), [WITH_ZERO]),
    "prod(0) with zeros": (lambda L, m: m.prod(0), [WITH_ZERO]),
    "prod() with one zero": (lambda L, v: v.prod(), [np.array([2.0, 0.0, 3.0])]),
    "m.var(0, False) of no rows (nan)": (lambda L, m: m[:0].var(0, False), [M]),
    "m.norm(0) counts, no gradient": (lambda L, m: m.norm(0) * m.sum(), [M]),
    "m[:0].chunk(2): empty pieces": (lambda L, m: m[:0].chunk(2), [M]),
    "m[:0].split(2)": (lambda L, m: m[:0].split(2), [M]),
    "m.cumsum(1)": (lambda L, m: m.cumsum(1), [M]),
    "L.cumsum(m, dim=0)": (lambda L, m: L.cumsum(m, dim=0), [M]),
    "m.where(m > 0, v)": (lambda L, m, v: m.where(m > 0, v), [M, V]),
    "m.where(m > 0, 0.0)": (lambda L, m: m.where(m > 0, 0.0), [M]),
    "m.masked_fill(m > 0, 0.0)": (lambda L, m: m.masked_fill(m > 0, 0.0), [M]),
    "m.masked_fill(row mask, -1.0)": (
        lambda L, m: m.masked_fill(L.tensor([True, False, False, True]), -1.0),
        [M],
    ),
    "m.masked_fill(m < 0, w[0])": (lambda L, m, w: m.masked_fill(m < 0, w[0]), [M, W]),
    "m.gather(1, index)": (
        lambda L, m: m.gather(1, L.tensor([[0, 0], [3, 1], [2, 2]])),
        [M],
    ),
    "m.gather(0, index)": (lambda L, m: m.gather(0, L.tensor([[2, 0, 1, 1]])), [M]),
    "L.gather(v, 0, index)": (lambda L, v: L.gather(v, 0, L.tensor([3, 3, 0])), [V]),
    "v.gather(0, 0-d index)": (lambda L, v: v.gather(0, L.tensor(2)), [V]),
    "v[1].gather(0, [0, 0])": (lambda L, v: v[1].gather(0, L.tensor([0, 0])), [V]),
    "v[1].gather(0, 0-d index)": (lambda L, v: v[1].gather(0, L.tensor(0)), [V]),
    "m.repeat(2, 1)": (lambda L, m: m.repeat(2, 1), [M]),
    "v.repeat(2, 1, 3)": (lambda L, v: v.repeat(2, 1, 3), [V]),
    "v.expand(3, 4)": (lambda L, v: v.expand(3, 4), [V]),
    "m.chunk(2, 1)": (lambda L, m: m.chunk(2, 1), [M]),
    "m.chunk(2)": (lambda L, m: m.chunk(2), [M]),
    "v.split(3)": (lambda L, v: v.split(3), [V]),
    "m.split([1, 3], dim=1)": (lambda L, m: m.split([1, 3], dim=1), [M]),
    "L.split(m, 1)": (lambda L, m: L.split(m, 1), [M]),
    "v.outer(w)": (lambda L, v, w: v.outer(w), [V, W]),
    "L.outer(w, v)": (lambda L, w, v: L.outer(w, v), [W, V]),
    "m.float().double()": (lambda L, m: m.float().double(), [M]),
    "m.half().double()": (lambda L, m: m.half().double(), [M]),
    "m.to(m.long()) casts": (lambda L, m: m * m.long().to(m), [M]),
    "m.to('cpu', L.float32)": (lambda L, m: m.to("cpu", L.float32).to(L.float64), [M]),
    "m.cpu() is m": (lambda L, m: m.cpu() * 2, [M]),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_matches_torch(name):
    build, arrays = OPS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, my_firsts, my_seconds = run(mg, build, arrays)
        theirs, their_firsts, their_seconds = run(torch, build, arrays)
    assert len(mine) == len(theirs)
    for m, t in zip(mine, theirs, strict=True):
        assert m.dtype.name == str(t.dtype).removeprefix("torch.")
        assert_close(m, t)
        assert name_tree(m.grad_fn) == name_tree(t.grad_fn)
        assert m.requires_grad == t.requires_grad and m.is_leaf == t.is_leaf
    for m, t in zip(my_firsts, their_firsts, strict=True):
        assert_close(m, t)
    if their_seconds is None or my_seconds is None:
        for grads in (my_seconds, their_seconds):
            assert grads is None or all(g is None or not np.any(values(g)) for g in grads)
    else:
        for m, t in zip(my_seconds, their_seconds, strict=True):
            assert_close(m, t)


def test_prod_gradient_at_zeros_is_the_product_of_the_others():
    x = mg.tensor([2.0, 0.0, 3.0], requires_grad=True)
    x.prod().backward()
    assert x.grad.tolist() == [0.0, 6.0, 0.0]
    y = mg.tensor([0.0, 5.0, 0.0], requires_grad=True)
    y.prod().backward()
    assert y.grad.tolist() == [0.0, 0.0, 0.0]


def test_results_of_integer_and_bool_inputs_match_torch():
    for build in (
        lambda L: L.tensor([[1, 2], [3, 4]]).prod(),
        lambda L: L.tensor([[1, 2], [3, 4]]).prod(0),
        lambda L: L.tensor([True, False]).prod(),
        lambda L: L.tensor([[1, 2], [3, 4]]).cumsum(1),
        lambda L: L.tensor([True, True]).cumsum(0),
        lambda L: L.tensor([1.0, 2.0]).prod(dtype=L.float64),
        lambda L: L.tensor([[1, 2], [3, 4]]).argmax(),
        lambda L: L.tensor([[1, 5], [3, 4]]).argmax(1, keepdim=True),
        lambda L: L.tensor([[1, 5], [3, 4]]).argmin(0),
        lambda L: L.tensor([[1, 2], [3, 4]]).masked_fill(L.tensor([[True, False]] * 2), 1.5),
        lambda L: L.tensor([[1, 2], [3, 4]]).sin(),
        lambda L: L.tensor([1.0, 2.0]).bool(),
        lambda L: L.tensor([1.5, 2.5]).int(),
        lambda L: L.tensor([1.5, 2.5]).long(),
        lambda L: L.tensor([1, 2]).float(),
        lambda L: L.tensor([1, 2]).half(),
        lambda L: L.tensor([1.0, 2.0]).clamp(L.tensor(1.5)),
    ):
        mine, theirs = build(mg), build(torch)
        assert mine.dtype.name == str(theirs.dtype).removeprefix("torch.")
        # float32 sin of an integer may differ in the last bit between numpy and torch
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)


def test_var_of_one_number_is_nan_with_a_nan_gradient_as_in_torch():
    for L in (mg, torch):
        x = L.tensor(1.5, dtype=L.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x.var().backward()
        assert np.isnan(x.grad.item())


@pytest.mark.parametrize("reduction", ["var", "std"])
def test_too_few_numbers_for_var_and_std_warn_once_with_torchs_words(reduction):
    def warnings_of(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(L.tensor([[1.0, 2.0]]), reduction)(dim=0)
        return [(w.category, str(w.message).split(" (Triggered internally")[0]) for w in caught]

    assert warnings_of(mg) == warnings_of(torch)
    assert len(warnings_of(mg)) == 1


def test_norm_of_a_zero_row_has_gradient_zero_there_as_in_torch():
    # PyTorch's second derivative there is nan (0/0); first derivatives agree: 0.
    rows = np.array([[0.0, 0.0], [3.0, 4.0]])
    for L in (mg, torch):
        m = L.tensor(rows, requires_grad=True)
        m.norm(dim=1).sum().backward()
        np.testing.assert_allclose(m.grad.numpy(), [[0.0, 0.0], [0.6, 0.8]], rtol=1e-12)


# ----------------------------------------------------------------------------- errors
def error_of(L, action):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            action(L)
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    raise AssertionError("no error raised")


def f64(L, array):
    return L.tensor(array, dtype=L.float64, requires_grad=True)


ERRORS = {
    "norm of integers": lambda L: L.tensor([1, 2]).norm(),
    "norm dim out of range": lambda L: f64(L, M).norm(dim=2),
    "flatten start after end": lambda L: f64(L, M).flatten(1, 0),
    "flatten dim out of range": lambda L: f64(L, M).flatten(3),
    "unflatten sizes": lambda L: f64(L, M).unflatten(1, (3, 3)),
    "unflatten no sizes": lambda L: f64(L, M).unflatten(1, ()),
    "unflatten dim": lambda L: f64(L, M).unflatten(2, (4,)),
    "clamp with no bound": lambda L: f64(L, M).clamp(),
    "std of integers": lambda L: L.tensor([1, 2]).std(),
    "var of integers": lambda L: L.tensor([1, 2]).var(),
    "var dim out of range": lambda L: f64(L, M).var(5),
    "prod dim out of range": lambda L: f64(L, M).prod(2),
    "cumsum dim out of range": lambda L: f64(L, M).cumsum(-3),
    "argmax dim out of range": lambda L: f64(L, M).argmax(2),
    "argmax of nothing": lambda L: L.zeros(0).argmax(),
    "where with an integer condition": lambda L: f64(L, M).where(L.tensor(1), 0.0),
    "masked_fill with an integer mask": lambda L: f64(L, M).masked_fill(L.tensor(1), 0.0),
    "masked_fill with a vector value": lambda L: f64(L, M).masked_fill(
        L.tensor(True), L.tensor([1.0])
    ),
    "masked_fill mask of the wrong shape": lambda L: f64(L, M).masked_fill(
        L.tensor([True, False]), 0.0
    ),
    "gather with a float index": lambda L: f64(L, M).gather(1, L.tensor([[0.0]])),
    "gather index out of bounds": lambda L: f64(L, M).gather(1, L.tensor([[0, 4]])),
    "gather negative index": lambda L: f64(L, M).gather(1, L.tensor([[-1]])),
    "gather index of other ndim": lambda L: f64(L, M).gather(1, L.tensor([0])),
    "gather index too big": lambda L: f64(L, M).gather(1, L.tensor([[0]] * 4)),
    "gather dim out of range": lambda L: f64(L, M).gather(2, L.tensor([[0]])),
    "gather of nothing": lambda L: L.zeros(0).gather(0, L.tensor(0)),
    "gather of a number at 1": lambda L: L.tensor(2.0).gather(0, L.tensor([1])),
    "repeat with fewer dims": lambda L: f64(L, M).repeat(2),
    "repeat negative": lambda L: f64(L, M).repeat(-1, 2),
    "chunk 0": lambda L: f64(L, V).chunk(0),
    "split 0": lambda L: f64(L, V).split(0),
    "split sizes": lambda L: f64(L, M).split([1, 1], dim=1),
    "outer of a matrix": lambda L: f64(L, M).outer(f64(L, V)),
    "outer with a matrix": lambda L: f64(L, V).outer(f64(L, M)),
    "chunk of a 0-d tensor": lambda L: f64(L, 1.0).chunk(2),
    "split of a 0-d tensor": lambda L: f64(L, 1.0).split(1),
    "repeat with no repeats": lambda L: f64(L, M).repeat(),
    "argmax along an empty dim": lambda L: L.zeros(0, 2).argmax(0),
    "inf norm of nothing": lambda L: L.zeros(0).norm(float("inf")),
    "cuda device": lambda L: L.zeros(2, device="cuda"),
    "tensor on cuda": lambda L: L.tensor([1.0], device=L.device("cuda")),
    ".cuda()": lambda L: L.ones(2).cuda(),
    ".to('cuda')": lambda L: L.ones(2).to("cuda"),
    ".to('cuda', float64)": lambda L: L.ones(2).to("cuda", L.float64),
    "zeros_like on cuda": lambda L: L.zeros_like(L.ones(2), device="cuda"),
    "unknown device": lambda L: L.device("gpu"),
    ".to(unknown device)": lambda L: L.ones(2).to("foo"),
    "device index in string and argument": lambda L: L.device("cpu:0", 1),
    "device index not a number": lambda L: L.device("cpu:x"),
    "negative device index": lambda L: L.device("cpu", -1),
    "device(0)": lambda L: L.device(0),
    "default dtype int64": lambda L: L.set_default_dtype(L.int64),
    "default dtype a string": lambda L: L.set_default_dtype("float64"),
    "zeros size twice": lambda L: L.zeros(2, size=(2, 3)),
    "zeros negative size": lambda L: L.zeros(2, -1),
    "ones negative size": lambda L: L.ones(2, -1),
    "randn negative size": lambda L: L.randn(-1),
    "full negative size": lambda L: L.full((2, -1), 1.0),
    "randint negative size": lambda L: L.randint(3, (2, -1)),
    "normal negative size": lambda L: L.normal(0.0, 1.0, (-1,)),
    "zeros of a float": lambda L: L.zeros(2.5),
    "full of an int size": lambda L: L.full(2, 1.5),
    "eye negative": lambda L: L.eye(-1),
    "rand_like of integers": lambda L: L.rand_like(L.tensor([1, 2])),
    "randn_like of integers": lambda L: L.randn_like(L.tensor([1, 2])),
    "randint empty range": lambda L: L.randint(5, 5, (2,)),
    "normal with negative std": lambda L: L.normal(0.0, -1.0, (2,)),
    "normal with negative std tensor": lambda L: L.normal(L.zeros(2), -L.ones(2)),
    "normal of integers": lambda L: L.normal(L.zeros(2, dtype=L.int64), L.ones(2)),
    "from_numpy of a list": lambda L: L.from_numpy([1.0]),
    "Tensor of a float": lambda L: L.Tensor(3.5),
    "Tensor of a string": lambda L: L.Tensor("a"),
    "Tensor with a negative size": lambda L: L.Tensor(2, -1),
    "Tensor of ragged lists": lambda L: L.Tensor([[1], [1, 2]]),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    mine, theirs = error_of(mg, ERRORS[name]), error_of(torch, ERRORS[name])
    assert mine == theirs


PREFIX_ERRORS = {  # PyTorch lists every signature after the first line: the first is compared
    "clamp with a tensor and a number": lambda L: f64(L, M).clamp(f64(L, V), 4.0),
    "var with unbiased and correction": lambda L: f64(L, M).var(unbiased=True, correction=1),
    ".to(dtype, device)": lambda L: L.ones(2).to(L.float64, "cpu"),
    "Tensor with requires_grad": lambda L: L.Tensor([1.0], requires_grad=True),
}


@pytest.mark.parametrize("name", sorted(PREFIX_ERRORS))
def test_error_type_and_opening_match_torch(name):
    (my_type, mine), (their_type, theirs) = (
        error_of(mg, PREFIX_ERRORS[name]),
        error_of(torch, PREFIX_ERRORS[name]),
    )
    assert my_type == their_type
    opening = theirs.split(",")[0].split(" - got")[0]
    assert mine.startswith(opening)


def test_a_failed_call_changes_nothing():
    x = f64(mg, M)
    for bad in (
        lambda: x.gather(1, mg.tensor([[0, 9]])),
        lambda: x.masked_fill(mg.tensor([True, False]), 0.0),
        lambda: x.to("cuda"),
        lambda: x.split([1, 1], dim=1),
    ):
        with pytest.raises((RuntimeError, AssertionError)):
            bad()
    assert x.grad is None and x.is_leaf and x.dtype == mg.float64
    np.testing.assert_array_equal(x.detach().numpy(), M)
    assert mg.get_default_dtype() == mg.float32


# ----------------------------------------------------------------------------- devices
def test_devices_print_and_compare_as_in_torch():
    for args in (("cpu",), ("cpu", 0), ("cpu:0",), ("cuda",), ("cuda:1",), ("cuda", 2)):
        mine, theirs = mg.device(*args), torch.device(*args)
        assert repr(mine) == repr(theirs)
        assert str(mine) == str(theirs)
        assert (mine.type, mine.index) == (theirs.type, theirs.index)
    assert mg.device("cpu") == mg.device("cpu")
    assert (mg.device("cpu") == mg.device("cpu", 0)) == (
        torch.device("cpu") == torch.device("cpu", 0)
    )
    assert (mg.device("cpu") == "cpu") == (torch.device("cpu") == "cpu")
    assert mg.device(mg.device("cpu")) == mg.device("cpu")
    assert len({mg.device("cpu"), mg.device("cpu")}) == 1


def test_tensors_live_on_the_cpu_as_in_torch():
    for L in (mg, torch):
        x = L.ones(2, device="cpu")
        assert repr(x.device) == "device(type='cpu')"
        assert x.to("cpu") is x and x.cpu() is x and x.to(L.device("cpu")) is x
        assert x.to() is x
        assert x.to(L.float32, copy=True) is not x
        assert x.is_cuda is False
        assert L.cuda.is_available() is False and L.cuda.device_count() == 0
        device = "cuda" if L.cuda.is_available() else "cpu"
        assert L.zeros(2, device=device).device == L.device("cpu")
        assert repr(L.tensor([1.0], device=L.device("cpu"))) == "tensor([1.])"
        assert x.to(device="cpu", dtype=L.int64).dtype == L.int64
        assert x.to(L.zeros(1, dtype=L.float64)).dtype == L.float64


def test_set_default_device_cpu_and_cuda():
    for L in (mg, torch):
        L.set_default_device("cpu")
        try:
            assert L.zeros(2).device == L.device("cpu")
            assert L.get_default_device() == L.device("cpu")
            L.set_default_device("cuda")
            with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
                L.zeros(2)
        finally:
            L.set_default_device(None)
        assert L.ones(1).device == L.device("cpu")


# ----------------------------------------------------------------------------- dtypes
@pytest.fixture
def float64_default():
    yield
    mg.set_default_dtype(mg.float32)
    torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("default", ["float64", "float16", "float32"])
def test_the_default_dtype_is_followed_as_in_torch(default, float64_default):
    builders = {
        "tensor([1.0])": lambda L: L.tensor([1.0]),
        "tensor(1)": lambda L: L.tensor(1),
        "int * 2.5": lambda L: L.tensor([1, 2]) * 2.5,
        "int / 2": lambda L: L.tensor([1, 2]) / 2,
        "int.exp()": lambda L: L.tensor([1]).exp(),
        "float32 + 1.5": lambda L: L.tensor([1.0], dtype=L.float32) + 1.5,
        "arange(3.0)": lambda L: L.arange(3.0),
        "rand(2)": lambda L: L.rand(2),
        "randn(size=(2,))": lambda L: L.randn(size=(2,)),
        "zeros(2)": lambda L: L.zeros(2),
        "empty(2)": lambda L: L.empty(2),
        "full((2,), 1.5)": lambda L: L.full((2,), 1.5),
        "eye(2)": lambda L: L.eye(2),
        "linspace": lambda L: L.linspace(0, 1, 3),
        "Tensor([1, 2])": lambda L: L.Tensor([1, 2]),
        "Tensor()": lambda L: L.Tensor(),
        "normal(0., 1., (2,))": lambda L: L.normal(0.0, 1.0, (2,)),
    }
    mg.set_default_dtype(getattr(mg, default))
    torch.set_default_dtype(getattr(torch, default))
    assert repr(mg.get_default_dtype()) == repr(torch.get_default_dtype()).replace(
        "torch", "minigrad"
    )
    for name, build in builders.items():
        mine, theirs = build(mg), build(torch)
        assert mine.dtype.name == str(theirs.dtype).removeprefix("torch."), name
    # The repr names a dtype only when it is not the default, as in torch.
    for data in ([1.5, 2.0], []):
        for dtype in ("float32", "float64"):
            mine = repr(mg.tensor(data, dtype=getattr(mg, dtype)))
            theirs = repr(torch.tensor(data, dtype=getattr(torch, dtype)))
            assert mine == theirs.replace("torch.", "minigrad.")


# ----------------------------------------------------------------------------- creation
def test_legacy_constructor_as_in_torch():
    for build in (
        lambda L: L.Tensor([1.0, 2.0]),
        lambda L: L.Tensor([[1, 2], [3, 4]]),
        lambda L: L.Tensor((2, 3)),
        lambda L: L.Tensor(),
        lambda L: L.Tensor(2, 3).zero_(),
        lambda L: L.Tensor(L.Size([2, 1])).zero_(),
        lambda L: L.Tensor([1.0, 2.0]).double(),
        lambda L: L.Tensor([True]),
    ):
        mine, theirs = build(mg), build(torch)
        assert repr(mine) == repr(theirs).replace("torch.", "minigrad.")
        assert mine.dtype.name == str(theirs.dtype).removeprefix("torch.")


def test_creation_functions_make_what_torch_makes():
    x, f = np.array([[1, 2], [3, 4]]), np.array([1.0, 2.0])
    builders = [
        lambda L: L.zeros(size=(2, 3)),
        lambda L: L.ones(size=[2]),
        lambda L: L.zeros((2, 3), dtype=L.int64, device="cpu"),
        lambda L: L.empty(2, 3).zero_(),
        lambda L: L.empty(size=(2,), dtype=L.float64).zero_(),
        lambda L: L.full((2,), 3),
        lambda L: L.full((2,), True),
        lambda L: L.full([2, 1], 1.5, dtype=L.float64),
        lambda L: L.full((2,), 1.5, requires_grad=True),
        lambda L: L.eye(2, 3),
        lambda L: L.eye(3, device="cpu", requires_grad=True),
        lambda L: L.zeros_like(L.tensor(x)),
        lambda L: L.zeros_like(L.tensor(f), requires_grad=True),
        lambda L: L.ones_like(L.tensor(x), dtype=L.float64),
        lambda L: L.full_like(L.tensor(x), 2.7),
        lambda L: L.full_like(L.tensor(f), 2.7, requires_grad=True),
        lambda L: L.empty_like(L.tensor(x)).zero_(),
        lambda L: L.arange(3, device="cpu"),
        lambda L: L.linspace(0, 1, 3, device=L.device("cpu")),
        lambda L: L.as_tensor([1, 2]),
        lambda L: L.as_tensor([1.0, 2.0], dtype=L.float64),
        lambda L: L.tensor([1.0], device="cpu", requires_grad=True),
    ]
    for build in builders:
        mine, theirs = build(mg), build(torch)
        assert repr(mine) == repr(theirs).replace("torch.", "minigrad.")


def test_random_creation_has_torch_shapes_dtypes_and_ranges():
    builders = [
        lambda L: L.rand_like(L.ones(2, 3)),
        lambda L: L.randn_like(L.ones(2, dtype=L.float64)),
        lambda L: L.randint_like(L.ones(2), 10),
        lambda L: L.randint_like(L.tensor([[1, 2], [3, 4]]), 3, 10),
        lambda L: L.randint(10, (2, 3)),
        lambda L: L.randint(3, 10, (2,)),
        lambda L: L.randint(3, 10, size=(2,)),
        lambda L: L.randint(5, (2,), dtype=L.float32),
        lambda L: L.normal(0.0, 1.0, (2, 3)),
        lambda L: L.normal(0.0, 1.0, size=(2, 3)),
        lambda L: L.normal(L.zeros(3), L.ones(3)),
        lambda L: L.normal(L.zeros(3), 2.0),
        lambda L: L.normal(2.0, L.ones(3, dtype=L.float64)),
        lambda L: L.randperm(4, device="cpu"),
        lambda L: L.randn(2, requires_grad=True),
    ]
    for build in builders:
        mine, theirs = build(mg), build(torch)
        assert tuple(mine.shape) == tuple(theirs.shape)
        assert mine.dtype.name == str(theirs.dtype).removeprefix("torch.")
        assert mine.requires_grad == theirs.requires_grad
    assert 3 <= mg.randint(3, 10, (200,)).min().item() and mg.randint(3, 10, (200,)).max() < 10
    samples = mg.normal(5.0, 0.1, (2000,))
    assert abs(samples.mean().item() - 5.0) < 0.02 and abs(samples.std().item() - 0.1) < 0.01


def test_from_numpy_and_as_tensor_share_memory_where_torch_does():
    for L in (mg, torch):
        a = np.array([1.0, 2.0])
        L.from_numpy(a)[0] = 5.0
        assert a[0] == 5.0
        L.as_tensor(a)[1] = 7.0
        assert a[1] == 7.0
        copied = L.as_tensor(a, dtype=L.float32)
        copied[0] = -1.0
        assert a[0] == 5.0
        t = L.tensor([1.0])
        assert L.as_tensor(t) is t
