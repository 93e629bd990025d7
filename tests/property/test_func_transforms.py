"""``minigrad.func`` against ``minigrad.autograd`` on random functions: each transform must
give what the plain autograd API gives by another road (forward mode against reverse mode,
forward over reverse against reverse over reverse, ``vmap`` against a loop)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd.functional import hessian as autograd_hessian
from minigrad.autograd.functional import jacobian as autograd_jacobian
from minigrad.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

ROTATION = mg.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], dtype=mg.float64)
UNARY = {
    "tanh": lambda a: a.tanh(),
    "sin": lambda a: a.sin(),
    "square": lambda a: a**2,
    "log(a²+1)": lambda a: (a * a + 1).log(),
    "softmax": lambda a: a.softmax(-1),
    "cumsum": lambda a: a.cumsum(0),
    "rotate by matmul": lambda a: ROTATION @ a,
}
BINARY = {
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "outer sum": lambda a, b: mg.outer(a, b).sum(0),
    "pow": lambda a, b: (a * a + 1) ** b.tanh(),
}


@st.composite
def functions(draw):
    """A random function of two vectors of 3 and its inputs: a chain of unary ops on the
    first, mixed with the second by a binary op."""
    chain = draw(st.lists(st.sampled_from(sorted(UNARY)), min_size=1, max_size=4))
    mix = draw(st.sampled_from(sorted(BINARY)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def f(a, b):
        for name in chain:
            a = UNARY[name](a)
        return BINARY[mix](a, b)

    points = [mg.tensor(rng.uniform(-1.5, 1.5, size=shape)) for shape in ((3,), (3,), (4, 3))]
    return f, points


def close(left, right):
    return np.allclose(left.detach().numpy(), right.detach().numpy(), rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(functions())
def test_reverse_transforms_agree_with_autograd(case):
    f, (x, y, batch) = case
    jacobians = autograd_jacobian(f, (x, y))
    assert all(close(a, b) for a, b in zip(jacrev(f, argnums=(0, 1))(x, y), jacobians))
    _, vjp_fn = vjp(f, x, y)
    ones = mg.ones(3, dtype=mg.float64)
    assert all(close(a, ones @ j) for a, j in zip(vjp_fn(ones), jacobians))
    scalar = lambda a, b: f(a, b).sum()  # noqa: E731
    assert all(close(a, ones @ j) for a, j in zip(grad(scalar, (0, 1))(x, y), jacobians))


@settings(max_examples=30, deadline=None)
@given(functions())
def test_vmap_agrees_with_a_loop(case):
    f, (x, y, batch) = case
    looped = mg.stack([jacrev(f)(row, y) for row in batch])
    assert close(vmap(jacrev(f), in_dims=(0, None))(batch, y), looped)
    transposed = vmap(lambda row: f(row, y), in_dims=1, out_dims=1)(batch.T)
    assert close(transposed, mg.stack([f(row, y) for row in batch], dim=1))


@settings(max_examples=30, deadline=None)
@given(functions())
def test_forward_mode_agrees_with_reverse_mode(case):
    f, (x, y, batch) = case
    direction = batch[0]
    _, slope = jvp(lambda a: f(a, y), (x,), (direction,))
    reverse = jacrev(f)(x, y)
    assert close(slope, reverse @ direction)
    assert close(jacfwd(f, argnums=1)(x, y), jacrev(f, argnums=1)(x, y))
    scalar = lambda a: f(a, y).sum()  # noqa: E731
    assert close(hessian(scalar)(x), autograd_hessian(scalar, x))
