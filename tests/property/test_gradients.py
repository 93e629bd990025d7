"""Analytic gradients against finite differences, on random shapes and random graphs.

Each example builds a random expression from the ops (float64, broadcasting shapes, tensors
reused on several paths) and checks it twice: with ``minigrad.autograd.gradcheck`` and with
a central difference written here, independent of minigrad's own checker.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck

# Every op is smooth on all of R (or given inputs kept away from its kinks), so that finite
# differences are meaningful everywhere the random values land.
UNARY = {
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "sin": lambda a: a.sin(),
    "cos": lambda a: a.cos(),
    "exp∘tanh": lambda a: a.tanh().exp(),
    "square": lambda a: a**2,
    "cube": lambda a: a**3,
    "sqrt(a²+1)": lambda a: (a * a + 1).sqrt(),
    "log(a²+1)": lambda a: (a * a + 1).log(),
    "1/(a²+1)": lambda a: 1 / (a * a + 1),
    "neg": lambda a: -a,
    "2-a": lambda a: 2 - a,
    "softmax": lambda a: a.softmax(-1) if a.ndim else a,
    "log_softmax": lambda a: a.log_softmax(0) if a.ndim else a,
    "sum(-1, keepdim)": lambda a: a.sum(-1, keepdim=True) if a.ndim else a,
    "mean(0)": lambda a: a.mean(0) if a.ndim else a,
    "T": lambda a: a.T,
    "reshape(-1)": lambda a: a.reshape(-1),
    "unsqueeze": lambda a: a.unsqueeze(0),
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "add alpha": lambda a, b: a.add(b, alpha=-0.5),
    "pow": lambda a, b: (a * a + 1) ** b.tanh(),
    "where": lambda a, b: mg.where(a.detach() > 0, a, b),
}

# Shapes that broadcast with a (2, 3) base: a graph mixes them freely.
SHAPES = [(2, 3), (3,), (1, 3), (2, 1), ()]


@st.composite
def graphs(draw, max_ops=6):
    """Input arrays and a recipe: each step applies an op to earlier values (reuse allowed)."""
    count = draw(st.integers(1, 3))
    shapes = [draw(st.sampled_from(SHAPES)) for _ in range(count)]
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-2, 2, size=shape) for shape in shapes]
    steps = []
    for step in range(draw(st.integers(1, max_ops))):
        available = count + step
        if draw(st.booleans()):
            steps.append(
                (draw(st.sampled_from(sorted(UNARY))), draw(st.integers(0, available - 1)))
            )
        else:
            name = draw(st.sampled_from(sorted(BINARY)))
            steps.append(
                (name, draw(st.integers(0, available - 1)), draw(st.integers(0, available - 1)))
            )
    return arrays, steps


def evaluate(steps, inputs):
    values = list(inputs)
    for name, *operands in steps:
        args = [values[i] for i in operands]
        op = UNARY[name] if len(args) == 1 else BINARY[name]
        try:
            values.append(op(*args))
        except RuntimeError:  # operands whose shapes do not broadcast: skip this step
            values.append(args[0])
    # The output uses every value, so that each input is on at least one path.
    total = values[-1].sum()
    for value in values[:-1]:
        total = total + 0.1 * value.sum()
    return total


def leaves(arrays):
    return [mg.tensor(a, dtype=mg.float64, requires_grad=True) for a in arrays]


def central_difference(f, arrays, eps=1e-6):
    """d f / d arrays[i] by (f(x + eps) - f(x - eps)) / 2 eps, element by element, in numpy."""
    grads = []
    for i, array in enumerate(arrays):
        grad = np.zeros_like(array)
        for k in np.ndindex(array.shape):
            shifted = [a.copy() for a in arrays]
            shifted[i][k] = array[k] + eps
            plus = f(shifted)
            shifted[i][k] = array[k] - eps
            minus = f(shifted)
            grad[k] = (plus - minus) / (2 * eps)
        grads.append(grad)
    return grads


@settings(max_examples=60)
@given(graphs())
def test_random_graph_against_central_differences(graph):
    arrays, steps = graph
    inputs = leaves(arrays)
    evaluate(steps, inputs).backward()

    def value(shifted):
        with mg.no_grad():
            return evaluate(steps, [mg.tensor(a, dtype=mg.float64) for a in shifted]).item()

    numerical = central_difference(value, arrays)
    for tensor, expected in zip(inputs, numerical):
        assert tensor.grad is not None and tensor.grad.shape == tensor.shape
        np.testing.assert_allclose(tensor.grad.numpy(), expected, rtol=1e-5, atol=1e-7)


@settings(max_examples=60)
@given(graphs())
def test_random_graph_gradcheck(graph):
    arrays, steps = graph
    assert gradcheck(lambda *xs: evaluate(steps, xs), leaves(arrays))


@settings(max_examples=25)
@given(graphs(max_ops=4))
def test_random_graph_gradgradcheck(graph):
    arrays, steps = graph
    assert gradgradcheck(lambda *xs: evaluate(steps, xs), leaves(arrays))


@settings(max_examples=40)
@given(
    st.sampled_from([((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((4,), (4,))]),
    st.integers(0, 2**32 - 1),
)
def test_matmul_gradients(shapes, seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.normal(size=s) for s in shapes]
    a, b = leaves(arrays)
    (a @ b).tanh().sum().backward()

    def value(shifted):
        return float(np.tanh(shifted[0] @ shifted[1]).sum())

    for tensor, expected in zip((a, b), central_difference(value, arrays)):
        np.testing.assert_allclose(tensor.grad.numpy(), expected, rtol=1e-5, atol=1e-7)
    assert gradgradcheck(lambda x, y: (x @ y).tanh(), leaves(arrays))


@pytest.mark.parametrize(
    "f",
    [
        lambda m: m[0] * m[:, 1:].sum() + m[[1, 1, 0]].sum(0)[0],
        lambda m: mg.cat([m, m * 2], dim=1).max(1).values,
        lambda m: mg.stack([m[0], m[1]], dim=1).min(),
        lambda m: m.permute(1, 0).reshape(2, 3).clamp(-0.5, 0.5) * m,
        lambda m: m.transpose(0, 1).unsqueeze(0).squeeze(0).abs() + 0.1,
    ],
    ids=["indexing", "cat+max", "stack+min", "permute+clamp", "transpose+abs"],
)
@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
def test_views_and_piecewise_ops(f, seed):
    # Values spread apart and away from 0 and the clamp bounds: the kinks of max, min,
    # abs and clamp are never within eps.
    rng = np.random.default_rng(seed)
    values = rng.permutation(np.array([-1.9, -1.1, -0.3, 0.2, 0.8, 1.7]))
    m = mg.tensor(values.reshape(2, 3), dtype=mg.float64, requires_grad=True)
    assert gradcheck(f, m)
