"""minigrad.autograd.functional on its own: results against formulas worked out with numpy,
the shapes and nesting of the results, consistency between the six functions, what happens
to the caller's tensors and to grad mode, and minigrad's own refusals (forward mode).
Agreement with torch.autograd.functional is in tests/parity/test_functional_parity.py."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

TOL = {"rtol": 1e-12, "atol": 1e-12}
rng = np.random.default_rng(7)
X = rng.uniform(0.5, 1.5, size=3)
V = rng.uniform(-1.0, 1.0, size=3)
A = rng.uniform(-1.0, 1.0, size=(3, 3))  # not symmetric


def t64(array, requires_grad=False):
    return mg.tensor(array, dtype=mg.float64, requires_grad=requires_grad)


def close(tensor, expected):
    np.testing.assert_allclose(tensor.detach().numpy(), expected, **TOL)


def smooth(x):  # a scalar function mixing tanh, exp and log
    return (x.tanh() * x.exp()).sum() + (x * x + 1).log().sum() * x[0]


# --------------------------------------------------------------------------- values
def test_jacobian_of_elementwise_tanh_is_diagonal():
    close(jacobian(lambda x: x.tanh(), t64(X)), np.diag(1 - np.tanh(X) ** 2))


def test_jacobian_of_a_matrix_product_has_shape_output_plus_input():
    a, b = rng.uniform(-1, 1, size=(2, 3)), rng.uniform(-1, 1, size=(3, 4))
    ja, jb = jacobian(lambda p, q: p @ q, (t64(a), t64(b)))
    assert ja.shape == (2, 4, 2, 3) and jb.shape == (2, 4, 3, 4)
    # d(ab)[i, k] / d a[j, l] = [i == j] b[l, k]; d(ab)[i, k] / d b[l, m] = a[i, l] [k == m]
    close(ja, np.einsum("ij,lk->ikjl", np.eye(2), b))
    close(jb, np.einsum("il,km->iklm", a, np.eye(4)))


def test_hessian_of_a_quadratic_form_is_a_plus_a_transpose():
    close(hessian(lambda x: x @ t64(A) @ x, t64(X)), A + A.T)


def test_hessian_of_a_cubic_sum():
    close(hessian(lambda x: (x**3).sum(), t64(X)), np.diag(6 * X))


def test_products_agree_with_the_full_matrices():
    x, v = t64(X), t64(V)
    J = jacobian(lambda t: t.tanh() * t.exp(), x).numpy()
    H = hessian(smooth, x).numpy()
    close(vjp(lambda t: t.tanh() * t.exp(), x, v)[1], V @ J)
    close(jvp(lambda t: t.tanh() * t.exp(), x, v)[1], J @ V)
    close(vhp(smooth, x, v)[1], V @ H)
    close(hvp(smooth, x, v)[1], H @ V)
    np.testing.assert_allclose(H, H.T, **TOL)


def test_each_pair_returns_the_function_value_first():
    x, v = t64(X), t64(V)
    expected = smooth(x).item()
    for product in (vjp, vhp, hvp):
        assert product(smooth, x, None if product is vjp else v)[0].item() == expected
    close(jvp(lambda t: t * 2, x, v)[0], 2 * X)


def test_v_may_be_omitted_for_one_element():
    s = t64(0.3)
    close(vjp(lambda t: t.exp(), s)[1], np.exp(0.3))
    close(jvp(lambda t: t.exp(), s)[1], np.exp(0.3))
    close(hvp(lambda t: t.exp(), s)[1], np.exp(0.3))
    close(vhp(lambda t: t**3, s)[1], 6 * 0.3)


# --------------------------------------------------------------------------- structure
def test_jacobian_nesting_follows_inputs_and_outputs():
    x, y = t64(X), t64(V)
    assert isinstance(jacobian(lambda a: a * 2, x), mg.Tensor)
    one_output = jacobian(lambda a, b: a * b, (x, y))
    assert isinstance(one_output, tuple) and len(one_output) == 2
    two_outputs = jacobian(lambda a: (a * 2, a.sum()), x)
    assert isinstance(two_outputs, tuple) and [j.shape for j in two_outputs] == [(3, 3), (3,)]
    both = jacobian(lambda a, b: (a * b, (a + b).sum()), (x, y))
    assert [[j.shape for j in row] for row in both] == [[(3, 3), (3, 3)], [(3,), (3,)]]
    single_tuple = jacobian(lambda a: a * 2, (x,))
    assert isinstance(single_tuple, tuple) and len(single_tuple) == 1


def test_hessian_of_two_inputs_is_a_tuple_of_tuples():
    x, y = t64(X), t64(V[:2])
    blocks = hessian(lambda a, b: (a.sum() * b**2).sum(), (x, y))
    assert [[h.shape for h in row] for row in blocks] == [[(3, 3), (3, 2)], [(2, 3), (2, 2)]]
    close(blocks[0][1], np.outer(np.ones(3), 2 * V[:2]))
    close(blocks[1][0], blocks[0][1].numpy().T)


def test_independent_inputs_get_zeros_unless_strict():
    x, y = t64(X), t64(V)
    jx, jy = jacobian(lambda a, b: a * 2, (x, y))
    close(jy, np.zeros((3, 3)))
    _, (gx, gy) = vjp(lambda a, b: a.sum(), (x, y))
    close(gy, np.zeros(3))
    with pytest.raises(RuntimeError, match="independent of input 1"):
        vjp(lambda a, b: a.sum(), (x, y), strict=True)


# --------------------------------------------------------------------------- graphs and modes
def test_inputs_are_left_as_they_were():
    x = t64(X, requires_grad=True)
    for create_graph in (False, True):
        jacobian(lambda t: t**2, x, create_graph=create_graph)
        hvp(smooth, x, t64(V), create_graph=create_graph)
    assert x.grad is None and x.is_leaf and x.requires_grad
    np.testing.assert_array_equal(x.detach().numpy(), X)
    plain = t64(X)
    jacobian(lambda t: t**2, plain)
    assert not plain.requires_grad


def test_the_function_sees_new_tensors_that_require_grad_even_under_no_grad():
    x = t64(X)
    seen = []

    def record(t):
        seen.append((t is x, t.requires_grad, mg.is_grad_enabled()))
        return t * 2

    with mg.no_grad():
        result = jacobian(record, x)
    assert seen == [(False, True, True)]
    assert not result.requires_grad


def test_create_graph_keeps_a_differentiable_result():
    x = t64(X, requires_grad=True)
    h = hessian(lambda t: (t**4).sum(), x, create_graph=True)
    assert h.grad_fn is not None
    close(h, np.diag(12 * X**2))
    (third,) = mg.autograd.grad(h.sum(), x)
    close(third, 24 * X)
    plain = hessian(lambda t: (t**4).sum(), x)
    assert plain.grad_fn is None and not plain.requires_grad


def test_create_graph_through_v():
    x, v = t64(X, requires_grad=True), t64(V, requires_grad=True)
    _, product = jvp(lambda t: t**2, x, v, create_graph=True)  # 2 x v
    gx, gv = mg.autograd.grad(product.sum(), (x, v))
    close(gx, 2 * V)
    close(gv, 2 * X)


def test_a_failed_call_changes_nothing():
    x = t64(X, requires_grad=True)
    with pytest.raises(RuntimeError, match="does not require gradients"):
        jacobian(lambda t: t.detach() * 2, x, strict=True)
    with pytest.raises(RuntimeError, match="invalid size"):
        vjp(lambda t: t * 2, x, t64(V[:2]))
    assert x.grad is None and x.is_leaf
    np.testing.assert_array_equal(x.detach().numpy(), X)


# --------------------------------------------------------------------------- options
def test_vectorize_gives_the_same_jacobian_and_hessian():
    x, y = t64(X), t64(V)
    plain = jacobian(lambda a, b: (a * b.exp(), a.sum()), (x, y))
    vectorized = jacobian(lambda a, b: (a * b.exp(), a.sum()), (x, y), vectorize=True)
    for row, vrow in zip(plain, vectorized, strict=True):
        for p, q in zip(row, vrow, strict=True):
            np.testing.assert_array_equal(p.numpy(), q.numpy())
    np.testing.assert_array_equal(
        hessian(smooth, x).numpy(), hessian(smooth, x, vectorize=True).numpy()
    )


def test_forward_mode_gives_what_reverse_mode_gives():
    """One forward-mode pass per input element against one backward pass per output
    element: the same Jacobian, and forward over reverse the same Hessian."""
    x = t64(X)
    forward = jacobian(lambda t: t.sin() * t.sum(), x, strategy="forward-mode", vectorize=True)
    reverse = jacobian(lambda t: t.sin() * t.sum(), x)
    np.testing.assert_allclose(forward.numpy(), reverse.numpy(), rtol=1e-12)
    forward = hessian(smooth, x, outer_jacobian_strategy="forward-mode", vectorize=True)
    np.testing.assert_allclose(forward.detach().numpy(), hessian(smooth, x).numpy(), rtol=1e-12)


def test_forward_mode_is_refused_as_torch_refuses_it():
    x = t64(X)
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        jacobian(lambda t: t * 2, x, strategy="forward-mode")
    with pytest.raises(AssertionError, match='either "forward-mode" or "reverse-mode"'):
        jacobian(lambda t: t * 2, x, strategy="backward")


def test_reachable_as_torch_names_it():
    assert mg.autograd.functional.jacobian is jacobian
    assert set(mg.autograd.functional.__all__) == {
        "vjp",
        "jvp",
        "jacobian",
        "hessian",
        "hvp",
        "vhp",
    }
