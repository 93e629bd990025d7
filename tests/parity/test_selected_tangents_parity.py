"""Derivatives that choose between their inputs' tangents or gradients, against PyTorch,
bit for bit: ``clamp`` with tensor bounds, ``masked_fill`` with a tensor value and
``where`` pick one input's tangent per element, as ``torch.where`` does. A tangent multiplied
by a 0/1 mask instead would turn an inf or nan that was not chosen into nan, a negative one
into -0., and a sum of the picked pieces would turn a chosen -0. into 0. The same for
clamp's gradients with tensor bounds, the gradient through a view changed in place
(``CopySlices``), amax/amin/max/min at nan and ties, and the tangent of a tensor
overwritten by ``copy_`` or ``fill_``.

Values are compared as arrays: nan equal to nan, and the sign of every zero with
``np.signbit`` (a printout hides neither, but says less about which element differs).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
# torch 2.13 warns from inside its own forward-mode code that torch.jit.script is deprecated
pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning"),
]

nan, inf = float("nan"), float("inf")


def assert_same_bits(mine, theirs, what="the tangent"):
    """Equal values, nan where torch has nan, and -0. exactly where torch has -0."""
    assert (mine is None) == (theirs is None), (what, mine, theirs)
    if theirs is None:
        return
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape, (what, mine, theirs)
    assert np.array_equal(mine, theirs, equal_nan=True), f"{what}: minigrad {mine}, torch {theirs}"
    numbers = ~np.isnan(theirs)  # (a nan's sign bit is not printed, and not compared)
    assert (np.signbit(mine[numbers]) == np.signbit(theirs[numbers])).all(), (
        f"{what}, signs differ: minigrad {mine} {np.signbit(mine)}, "
        f"torch {theirs} {np.signbit(theirs)}"
    )


# ------------------------------------------------------------------------ forward mode
# The tangent of the k-th input of an op (0: the tensor itself, then its bounds or value),
# element after element: a distinct negative number per input shows which one was chosen;
# nan, inf and -0. show a tangent that was not chosen leaking into the result.
TANGENTS = {
    "negative": lambda k: -(k + 1.0),
    "nan": lambda k: nan,
    "inf": lambda k: inf,
    "-0.": lambda k: -0.0,
    "nan on the input, negative on the others": lambda k: nan if k == 0 else -(k + 1.0),
    "-inf on the others": lambda k: -1.0 if k == 0 else -inf,
}

# Primals with a nan in each of them (and below min with a nan max), ties with each
# bound, min > max and min == max.
X = [nan, 1.0, 0.0, -3.0, 5.0, 0.5, 2.0, 0.0, 1.0, -1.0, 3.0, -2.0]
LOW = [0.0, nan, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0]
HIGH = [1.0, 1.0, nan, 1.0, 1.0, 1.0, 2.0, 0.0, 2.0, 0.0, 0.0, nan]
MASK = [True, False, True, False, True, False, True, False, True, False, True, False]


def clamp_both(L, x, low, high):
    return x.clamp(low, high)


def clamp_min(L, x, low, high):
    return x.clamp(min=low)


def clamp_max(L, x, low, high):
    return x.clamp(max=high)


def masked_fill(L, x, value, _):
    return x.masked_fill(L.tensor(MASK), value)


def where(L, x, other, _):
    return L.where(L.tensor(MASK), x, other)


# op: (function, the primals of its tensor inputs)
SELECTING_OPS = {
    "clamp(min_t, max_t)": (clamp_both, (X, LOW, HIGH)),
    "clamp(min=min_t)": (clamp_min, (X, LOW)),
    "clamp(max=max_t)": (clamp_max, (X, None, HIGH)),
    "masked_fill(mask, value_t)": (masked_fill, (X, 3.0)),
    "where(mask, x, other)": (where, (X, HIGH)),
}


def carrier_sets(primals):
    """Every nonempty set of the inputs that are there, as tuples of their positions."""
    present = [k for k, values in enumerate(primals) if values is not None]
    return [c for n in range(1, len(present) + 1) for c in itertools.combinations(present, n)]


CASES = [
    (op, carriers, tangents)
    for op, (_, primals) in SELECTING_OPS.items()
    for carriers in carrier_sets(primals)
    for tangents in TANGENTS
]


def forward_tangent(L, op, carriers, tangents):
    """The tangent of the op's result when the inputs in ``carriers`` carry tangents."""
    function, primals = SELECTING_OPS[op]
    fwAD = L.autograd.forward_ad
    with fwAD.dual_level():
        inputs = []
        for k, values in enumerate(primals):
            if values is None:
                inputs.append(None)
                continue
            primal = L.tensor(values)
            if k in carriers:
                tangent = L.full(tuple(primal.shape), TANGENTS[tangents](k))
                primal = fwAD.make_dual(primal, tangent)
            inputs.append(primal)
        inputs += [None] * (3 - len(inputs))
        tangent = fwAD.unpack_dual(function(L, *inputs)).tangent
        return None if tangent is None else tangent.detach().numpy().copy()


@pytest.mark.parametrize(
    ("op", "carriers", "tangents"), CASES, ids=[f"{o}-{c}-{t}" for o, c, t in CASES]
)
def test_tangent_is_selected_as_torch_selects_it(op, carriers, tangents):
    assert_same_bits(
        forward_tangent(mg, op, carriers, tangents), forward_tangent(torch, op, carriers, tangents)
    )


# ------------------------------------------------------- clamp with tensor bounds, backward
# PyTorch's gradients: x gets it where min <= x <= max, min where x < min < max, max where
# x > max or max < min; so at min == max, or a nan max, x below min gives it to no one.
CLAMP_INCOMING = {
    "negative": [-(k + 1.0) for k in range(len(X))],
    "inf, nan, -0.": [inf, nan, -0.0, -inf] * (len(X) // 4),
}


def clamp_gradients(L, op, incoming):
    function, primals = SELECTING_OPS[op]
    inputs = [None if p is None else L.tensor(p, requires_grad=True) for p in primals]
    inputs += [None] * (3 - len(inputs))
    result = function(L, *inputs)
    present = [t for t in inputs if t is not None]
    grads = L.autograd.grad(result, present, L.tensor(CLAMP_INCOMING[incoming]))
    return [g.numpy().copy() for g in grads]


@pytest.mark.parametrize("incoming", CLAMP_INCOMING)
@pytest.mark.parametrize("op", [op for op in SELECTING_OPS if op.startswith("clamp")])
def test_clamp_gradients_as_torch(op, incoming):
    mine, theirs = clamp_gradients(mg, op, incoming), clamp_gradients(torch, op, incoming)
    for name, my_grad, their_grad in zip(("x", "first bound", "second bound"), mine, theirs):
        assert_same_bits(my_grad, their_grad, f"the gradient of {name}")


# ------------------------------------------------- a view changed in place: CopySlices
# The base's gradient is the incoming one outside the view and what the in-place op sends
# back inside it, put in place (PyTorch copies it there): -1 times 0 stays -0., and an inf
# or nan outside what the op sends back does not spread.
IN_PLACE_CHANGES = {
    "mul_(0)": lambda L, view: view.mul_(0),
    "mul_(2)": lambda L, view: view.mul_(2),
    "*= 0.0": lambda L, view: view.__imul__(0.0),
    "mul_(zero tensor)": lambda L, view: view.mul_(L.tensor(0.0)),
    "zero_": lambda L, view: view.zero_(),
    "fill_": lambda L, view: view.fill_(3.0),
    "copy_": lambda L, view: view.copy_(L.ones(view.shape)),
    "relu_": lambda L, view: view.relu_(),
    "clamp_(max=0.0)": lambda L, view: view.clamp_(max=0.0),
}

VIEWS = {
    "base[...]": lambda base: base[...],
    "base[0]": lambda base: base[0],
    "base[:, 0]": lambda base: base[:, 0],
    "base[1, 1]": lambda base: base[1, 1],
    "base.t()": lambda base: base.t(),
    "the tensor itself": lambda base: base,
}

INCOMING = {
    "all -1": [[-1.0, -1.0], [-1.0, -1.0]],
    "inf, nan, -0.": [[inf, nan], [-0.0, -inf]],
}


def changed_in_place(L, change, view, incoming, create_graph):
    """The values of a negative tensor whose view was changed in place, and the gradient
    of its leaf for the incoming gradient ``incoming``."""
    leaf = L.tensor([[-1.0, 2.0], [-3.0, -4.0]], requires_grad=True)
    changed = leaf * 1
    IN_PLACE_CHANGES[change](L, VIEWS[view](changed))
    (grad,) = L.autograd.grad(
        changed, leaf, L.tensor(INCOMING[incoming]), create_graph=create_graph
    )
    return changed.detach().numpy().copy(), grad.detach().numpy().copy()


@pytest.mark.parametrize("create_graph", [False, True], ids=["plain", "create_graph"])
@pytest.mark.parametrize("incoming", INCOMING)
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("change", IN_PLACE_CHANGES)
def test_gradient_through_a_view_changed_in_place(change, view, incoming, create_graph):
    mine = changed_in_place(mg, change, view, incoming, create_graph)
    theirs = changed_in_place(torch, change, view, incoming, create_graph)
    assert_same_bits(mine[0], theirs[0], "the values")
    assert_same_bits(mine[1], theirs[1], "the gradient")


# ------------------------------------------------------------- amax and amin at nan and ties
# PyTorch's amax/amin derivative is (grad / k) · mask, with mask = (x == result) and k its
# count per slice: a slice whose result is nan has k = 0, so all of it gets nan (0 · inf);
# the other places get grad / k · 0, -0. for a negative gradient. Its tangent is
# Σ where(mask, ẋ, 0) / k. max() and min() spread the gradient over the nans instead.
EXTREMES = {
    "amax(1)": lambda x: x.amax(1),
    "amin(1)": lambda x: x.amin(1),
    "amax(0)": lambda x: x.amax(0),
    "amin(-1, keepdim)": lambda x: x.amin(-1, keepdim=True),
    "amax((0, 1))": lambda x: x.amax((0, 1)),
    "amax()": lambda x: x.amax(),
    "amin()": lambda x: x.amin(),
    "max()": lambda x: x.max(),
    "min()": lambda x: x.min(),
}

EXTREME_INPUTS = {
    "nan": [[1.0, nan, 3.0, 3.0], [2.0, 2.0, 2.0, -1.0], [nan, nan, 0.0, 5.0], [-inf] * 4],
    "ties": [[1.0, 7.0, 7.0, 7.0], [2.0, 2.0, 2.0, -1.0], [-4.0, 0.5, 0.0, -4.0], [-inf] * 4],
}

# Tangents with an inf and a -0. where they are not chosen and where they are; and finite
# ones, negative or -0. at every place.
EXTREME_TANGENTS = {
    "inf and -0.": [
        [-1.0, 2.0, -0.0, inf],
        [0.3, -0.7, 1.1, 2.0],
        [1.0, 1.0, -2.0, 3.0],
        [-1.0, -0.0, 0.5, 1.0],
    ],
    "finite": [
        [-1.0, -2.0, -0.0, -0.3],
        [-0.0, -0.7, -0.0, -2.0],
        [-1.0, -0.5, -2.0, -3.0],
        [-1.0, -0.0, -0.5, -0.0],
    ],
}


def extreme_and_derivatives(L, reduction, inputs, dtype, create_graph):
    """The value, the gradient for an incoming gradient of negative numbers that do not
    divide evenly by 3, and the tangent."""
    dtype = getattr(L, dtype)
    x = L.tensor(EXTREME_INPUTS[inputs], dtype=dtype, requires_grad=True)
    y = EXTREMES[reduction](x)
    incoming = L.arange(float(y.numel()), dtype=dtype).reshape(y.shape) * 0.5 - 1.3
    (grad,) = L.autograd.grad(y, x, incoming, create_graph=create_graph)
    fwAD = L.autograd.forward_ad
    tangents = []
    for directions in EXTREME_TANGENTS.values():
        with fwAD.dual_level():
            dual = fwAD.make_dual(x.detach(), L.tensor(directions, dtype=dtype))
            tangents.append(fwAD.unpack_dual(EXTREMES[reduction](dual)).tangent)
    return [t.detach().numpy().copy() for t in (y, grad, *tangents)]


@pytest.mark.parametrize("create_graph", [False, True], ids=["plain", "create_graph"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("inputs", EXTREME_INPUTS)
@pytest.mark.parametrize("reduction", EXTREMES)
def test_amax_amin_derivatives_at_nan_and_ties(reduction, inputs, dtype, create_graph):
    mine = extreme_and_derivatives(mg, reduction, inputs, dtype, create_graph)
    theirs = extreme_and_derivatives(torch, reduction, inputs, dtype, create_graph)
    checked = ("value", "gradient", *(f"tangent ({name})" for name in EXTREME_TANGENTS))
    for what, my_values, their_values in zip(checked, mine, theirs, strict=True):
        assert_same_bits(my_values, their_values, what)


# ------------------------------------------------------ overwritten in place: the tangent
# copy_ and fill_ with a tensor give the tensor the source's tangent itself, copied (a -0.
# stays -0.), written through a view too.
OVERWRITES = {
    "copy_": lambda L, y, source, value: y.copy_(source),
    "copy_ of a source without a tangent": lambda L, y, source, value: y.copy_(source.detach()),
    "copy_ broadcast": lambda L, y, source, value: y.copy_(source[:1]),
    "fill_(tensor)": lambda L, y, source, value: y.fill_(value),
    "fill_(number)": lambda L, y, source, value: y.fill_(2.0),
    "zero_": lambda L, y, source, value: y.zero_(),
    "a view's copy_": lambda L, y, source, value: y[1:].copy_(source[1:]),
    "y[0] = value": lambda L, y, source, value: y.__setitem__(0, value),
    "y[1:] = source": lambda L, y, source, value: y.__setitem__(slice(1, None), source[1:]),
}


def overwritten_tangent(L, overwrite):
    fwAD = L.autograd.forward_ad
    with fwAD.dual_level():
        x = fwAD.make_dual(L.tensor([1.0, -2.0, 3.0]), L.tensor([-1.0, nan, inf]))
        source = fwAD.make_dual(L.tensor([5.0, 6.0, 7.0]), L.tensor([-0.0, -1.0, -0.0]))
        value = fwAD.make_dual(L.tensor(4.0), L.tensor(-0.0))
        y = x * 1
        OVERWRITES[overwrite](L, y, source, value)
        return fwAD.unpack_dual(y).tangent.numpy().copy()


@pytest.mark.parametrize("overwrite", OVERWRITES)
def test_tangent_of_a_tensor_overwritten_in_place(overwrite):
    assert_same_bits(overwritten_tangent(mg, overwrite), overwritten_tangent(torch, overwrite))
