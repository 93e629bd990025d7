"""Random expression graphs built identically in minigrad and in PyTorch (the oracle).

Compared: values and gradients (float64, rtol 1e-6), repr strings, requires_grad, is_leaf,
and the tree of grad_fn names along the whole graph, for the outputs and for the first
derivatives made with create_graph=True, whose own gradients (double backward) are
compared as well.

The known, documented differences are listed in test_names_and_errors.py.
"""

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RTOL, ATOL = 1e-6, 1e-12


# --------------------------------------------------------------------------- comparing
def name_tree(node):
    """(name, children) of a grad_fn and everything below it.

    PyTorch's ``node.name()`` is "torch::autograd::AccumulateGrad" for its C++ nodes,
    minigrad's "minigrad::autograd::AccumulateGrad": compared in minigrad's namespace."""
    if node is None:
        return None
    name = node.name().replace("torch::", "minigrad::")
    return (name, tuple(name_tree(child) for child, _ in node.next_functions))


def torch_repr_as_minigrad(text):
    return re.sub(r" at 0x[0-9a-f]+", "", text.replace("torch.", "minigrad."))


GRAD_FN = re.compile(r"grad_fn=<\w+>")


def assert_same_tensor(mine, theirs, derivative=False):
    """Same values, flags, repr and grad_fn tree.

    ``derivative=True`` for tensors made by a backward pass with create_graph=True: there
    PyTorch records its derivative formulas as nodes of their own (TanhBackwardBackward0,
    ...) where minigrad records the Tensor ops its backward is written with (MulBackward0,
    RsubBackward1, ...), a documented difference: the trees are not compared, and the
    grad_fn name is masked in the repr."""
    assert mine.shape == tuple(theirs.shape)
    np.testing.assert_allclose(
        mine.detach().numpy(), theirs.detach().numpy(force=True), rtol=RTOL, atol=ATOL
    )
    mine_repr, torch_repr = repr(mine), torch_repr_as_minigrad(repr(theirs))
    if derivative:
        # Documented difference: where a derivative is a constant (relu's, clamp's, ...)
        # PyTorch's derivative node may still record it (ThresholdBackwardBackward0), so
        # minigrad may say requires_grad=False where torch says True, never the reverse.
        assert theirs.requires_grad or not mine.requires_grad
        if mine.requires_grad != theirs.requires_grad:
            return
        mine_repr, torch_repr = (
            GRAD_FN.sub("grad_fn", mine_repr),
            GRAD_FN.sub("grad_fn", torch_repr),
        )
    else:
        assert name_tree(mine.grad_fn) == name_tree(theirs.grad_fn)
    assert mine.requires_grad == theirs.requires_grad
    assert mine.is_leaf == theirs.is_leaf
    # The repr shows 4 significant digits: compare it where the values are bit-identical
    # (signs of zeros included).
    if mine.detach().numpy().tobytes() == theirs.detach().numpy(force=True).tobytes():
        assert mine_repr == torch_repr


# --------------------------------------------------------------------------- the graphs
# Every op is written once, for either library L (minigrad or torch).
UNARY = {
    "exp∘tanh": lambda L, a: a.tanh().exp(),
    "log(a²+1)": lambda L, a: (a * a + 1).log(),
    "sqrt(a²+1)": lambda L, a: L.sqrt(a * a + 1),
    "abs": lambda L, a: a.abs(),
    "tanh": lambda L, a: L.tanh(a),
    "sigmoid": lambda L, a: a.sigmoid(),
    "relu": lambda L, a: a.relu(),
    "clamp": lambda L, a: a.clamp(-0.5, 1.0),
    "clamp(min)": lambda L, a: a.clamp(min=0.1),
    "softmax": lambda L, a: a.softmax(-1) if a.ndim else a,
    "log_softmax": lambda L, a: a.log_softmax(0) if a.ndim else a,
    "square": lambda L, a: a**2,
    "2**a": lambda L, a: 2**a,
    "1/a²+1": lambda L, a: 1 / (a * a + 1),
    "3-a": lambda L, a: 3 - a,
    "neg": lambda L, a: -a,
    "sum": lambda L, a: a.sum(),
    "sum(0)": lambda L, a: a.sum(0) if a.ndim else a,
    "sum(-1, keepdim)": lambda L, a: a.sum(-1, keepdim=True) if a.ndim else a,
    "mean((0,))": lambda L, a: a.mean((0,)) if a.ndim else a,
    "mean(keepdim)": lambda L, a: a.mean(0, keepdim=True) if a.ndim else a,
    "max": lambda L, a: a.max(),
    "max(0)": lambda L, a: a.max(0).values if a.ndim else a,
    "min(-1, keepdim)": lambda L, a: a.min(-1, keepdim=True)[0] if a.ndim else a,
    "[0]": lambda L, a: a[0] if a.ndim else a,
    "[..., 1:]": lambda L, a: a[..., 1:] if a.ndim else a,
    "[[0, 0]]": lambda L, a: a[[0, 0]] if a.ndim else a,
    "[:, None]": lambda L, a: a[:, None] if a.ndim else a,
    "[-1, ::2]": lambda L, a: a[-1, ::2] if a.ndim == 2 else a,
    "[mask]": lambda L, a: a[a > 0] if a.ndim else a,
    "reshape(-1)": lambda L, a: a.reshape(-1),
    "view": lambda L, a: a.view(1, *a.shape),
    "T": lambda L, a: a.T if a.ndim == 2 else a,  # torch warns for .T on other ranks
    "t": lambda L, a: a.t() if a.ndim <= 2 else a,
    "transpose": lambda L, a: a.transpose(0, -1) if a.ndim else a,
    "permute": lambda L, a: a.permute(*reversed(range(a.ndim))) if a.ndim else a,
    "unsqueeze(-1)": lambda L, a: a.unsqueeze(-1),
    "squeeze": lambda L, a: a.unsqueeze(0).squeeze(),
    "squeeze(0)": lambda L, a: a.unsqueeze(0).squeeze(0),
    "expand": lambda L, a: a.expand(2, *a.shape),
    "clone": lambda L, a: a.clone(),
}
BINARY = {
    "add": lambda L, a, b: a + b,
    "sub": lambda L, a, b: a - b,
    "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / (b * b + 1),
    "add(alpha)": lambda L, a, b: a.add(b, alpha=2),
    "pow": lambda L, a, b: (a * a + 1) ** b,
    "where": lambda L, a, b: L.where(a > 0, a, b),
    "matmul": lambda L, a, b: a @ b,
    "cat": lambda L, a, b: L.cat([a, b], dim=0),
    "cat(-1)": lambda L, a, b: L.cat([a, b], dim=-1),
    "stack": lambda L, a, b: L.stack([a, b], dim=-1),
}

SHAPES = [(2, 3), (3,), (1, 3), (2, 1), (3, 3), (3, 2), (2,), ()]


@st.composite
def graphs(draw, max_ops=7):
    count = draw(st.integers(1, 3))
    shapes = [draw(st.sampled_from(SHAPES)) for _ in range(count)]
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    arrays = [rng.uniform(-2, 2, size=shape) for shape in shapes]
    steps = []
    for step in range(draw(st.integers(1, max_ops))):
        pick = st.integers(0, count + step - 1)
        if draw(st.booleans()):
            steps.append((draw(st.sampled_from(sorted(UNARY))), draw(pick)))
        else:
            steps.append((draw(st.sampled_from(sorted(BINARY))), draw(pick), draw(pick)))
    return arrays, steps


def build(L, arrays, steps):
    """Run the recipe in library L; a step whose operands do not fit is skipped in both
    libraries (and both must refuse it)."""
    inputs = [L.tensor(a, dtype=L.float64, requires_grad=True) for a in arrays]
    values, refused = list(inputs), []
    for name, *operands in steps:
        args = [values[i] for i in operands]
        op = UNARY[name] if len(args) == 1 else BINARY[name]
        try:
            values.append(op(L, *args))
            refused.append(False)
        except (RuntimeError, IndexError):
            values.append(args[0])  # the step is skipped, in both libraries alike
            refused.append(True)
    return inputs, values, refused


def run_both(arrays, steps):
    mine_inputs, mine, mine_refused = build(mg, arrays, steps)
    torch_inputs, theirs, torch_refused = build(torch, arrays, steps)
    assert mine_refused == torch_refused, "one library refused a step the other accepted"
    return mine_inputs, mine, torch_inputs, theirs


def scalar_output(L, values):
    """A weighted sum of every value, so that each one is on a path to the output."""
    total = None
    for k, value in enumerate(values):
        term = value.sum() * (1.0 + 0.5 * k)
        total = term if total is None else total + term
    return total


@settings(max_examples=30)
@given(graphs())
def test_values_reprs_and_grad_fn_trees(graph):
    _, mine, _, theirs = run_both(*graph)
    for m, t in zip(mine, theirs):
        assert_same_tensor(m, t)


@settings(max_examples=30)
@given(graphs())
def test_gradients(graph):
    mine_inputs, mine, torch_inputs, theirs = run_both(*graph)
    mine_out, torch_out = scalar_output(mg, mine), scalar_output(torch, theirs)
    assert_same_tensor(mine_out, torch_out)
    mine_out.backward()
    torch_out.backward()
    for m, t in zip(mine_inputs, torch_inputs):
        assert (m.grad is None) == (t.grad is None)
        if m.grad is not None:
            assert_same_tensor(m.grad, t.grad)


@settings(max_examples=25)
@given(graphs(max_ops=5))
def test_double_backward(graph):
    mine_inputs, mine, torch_inputs, theirs = run_both(*graph)
    mine_out, torch_out = scalar_output(mg, mine), scalar_output(torch, theirs)
    mine_first = mg.autograd.grad(mine_out, mine_inputs, create_graph=True, allow_unused=True)
    torch_first = torch.autograd.grad(torch_out, torch_inputs, create_graph=True, allow_unused=True)
    for m, t in zip(mine_first, torch_first):
        assert (m is None) == (t is None)
        if m is not None:
            assert_same_tensor(m, t, derivative=True)
    # d/dx of sum_i w_i · (first derivative)_i: second derivatives, along a direction.
    pairs = [(m, t) for m, t in zip(mine_first, torch_first) if m is not None and m.requires_grad]
    if not pairs:
        return
    mine_second_out = sum((m * (k + 1.0)).sum() for k, (m, _) in enumerate(pairs))
    torch_second_out = sum((t * (k + 1.0)).sum() for k, (_, t) in enumerate(pairs))
    mine_second = mg.autograd.grad(mine_second_out, mine_inputs, allow_unused=True)
    torch_second = torch.autograd.grad(torch_second_out, torch_inputs, allow_unused=True)
    for m, t in zip(mine_second, torch_second):
        # allow_unused: PyTorch may also give None where the second derivative is zero
        if m is not None and t is not None:
            assert_same_tensor(m, t, derivative=True)


@pytest.mark.parametrize(
    ("shape_a", "shape_b", "names"),
    [
        ((2, 3), (3, 4), "MmBackward0"),
        ((2, 3), (3,), "MvBackward0"),
        ((3,), (3,), "DotBackward0"),
        ((3,), (3, 2), "SqueezeBackward4"),
    ],
)
def test_matmul_kinds(shape_a, shape_b, names):
    rng = np.random.default_rng(0)
    arrays = [rng.normal(size=shape_a), rng.normal(size=shape_b)]
    results = {}
    for L in (mg, torch):
        a, b = (L.tensor(x, dtype=L.float64, requires_grad=True) for x in arrays)
        out = a @ b
        (ga, gb) = L.autograd.grad(out.tanh().sum(), (a, b), create_graph=True)
        results[L.__name__] = (out, ga, gb, L.autograd.grad((ga * gb.sum()).sum(), (a, b)))
    mine, theirs = results["minigrad"], results["torch"]
    assert mine[0].grad_fn.name() == names
    assert_same_tensor(mine[0], theirs[0])
    for m, t in zip(mine[1:3] + mine[3], theirs[1:3] + theirs[3]):
        assert_same_tensor(m, t, derivative=True)


BATCHED_SHAPES = [
    ((2, 2, 3), (2, 3, 4)),  # the same batch: expand, reshape, bmm
    ((2, 2, 3), (3,)),  # a batch times a vector: folded into one mv
    ((3,), (2, 3, 4)),
    ((2, 2, 3), (3, 4)),  # a batch times a matrix: folded into one mm
    ((5, 3), (2, 3, 4)),  # a matrix times a batch: folded, transposed back and copied
    ((2, 1, 2, 3), (2, 3, 4)),  # batches that broadcast
    ((1, 2, 3), (2, 3, 4)),  # a batch of one: squeezed when it requires grad
    ((2, 2, 3), (1, 3, 4)),
]


@pytest.mark.parametrize(("shape_a", "shape_b"), BATCHED_SHAPES)
@pytest.mark.parametrize("requires_grad", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed"])
def test_batched_matmul_matches_torch(shape_a, shape_b, requires_grad, transposed):
    """PyTorch's matmul folds, squeezes or expands a batch depending on the shapes, on which
    operand requires grad and on the first operand's memory layout: the same nodes here."""
    rng = np.random.default_rng(1)
    arrays = [rng.normal(size=shape_a), rng.normal(size=shape_b)]
    results = []
    for L in (mg, torch):
        leaves = [
            L.tensor(x, dtype=L.float64, requires_grad=r) for x, r in zip(arrays, requires_grad)
        ]
        a, b = leaves
        if transposed and a.ndim >= 2:  # the same values, stored column after column
            leaves[0] = L.tensor(
                np.swapaxes(arrays[0], -1, -2).copy(), requires_grad=requires_grad[0]
            )
            a = leaves[0].transpose(-1, -2)
        out = a @ b
        (out.sin() * out).sum().backward()
        results.append((out, [leaf.grad for leaf in leaves]))
    (mine, mine_grads), (theirs, torch_grads) = results
    assert_same_tensor(mine, theirs)
    for m, t in zip(mine_grads, torch_grads):
        assert (m is None) == (t is None)
        if m is not None:
            np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=RTOL, atol=ATOL)


def test_backward_create_graph_parity():
    results = []
    for L in (mg, torch):
        x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
        y = (x.exp() * x).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y.backward(create_graph=True)
        first = x.grad
        tree = name_tree(first.grad_fn)
        first_repr = repr(first)
        x.grad.sum().backward()
        results.append((tree, first_repr, x.grad.detach().numpy().copy(), x.grad.grad_fn))
    (m_tree, m_repr, m_grad, m_fn), (t_tree, t_repr, t_grad, t_fn) = results
    assert m_tree[0] == t_tree[0] == "minigrad::autograd::CopyBackwards"
    assert m_repr == torch_repr_as_minigrad(t_repr)
    np.testing.assert_allclose(m_grad, t_grad, rtol=RTOL)
    assert name_tree(m_fn) == name_tree(t_fn)
