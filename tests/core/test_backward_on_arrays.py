"""A backward pass that records nothing runs the derivative rules on numpy arrays; the same
rules run on Tensors when the derivative's graph is recorded or the steps are read. Both
must give the same gradients, bit for bit, and users must still see Tensors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import ops
from minigrad.engine import BackwardPass


def _mlp_loss(dtype: mg.dtype) -> tuple[mg.Tensor, list[mg.Tensor]]:
    """A small graph through every op whose rule runs on arrays, with broadcasting."""
    rng = np.random.default_rng(3)
    w = mg.tensor(rng.normal(size=(3, 4)), dtype=dtype, requires_grad=True)
    b = mg.tensor(rng.normal(size=4), dtype=dtype, requires_grad=True)
    x = mg.tensor(rng.normal(size=(5, 3)), dtype=dtype)
    h = (x @ w + b).relu()
    y = (h.tanh() * 2.5 - h.exp() * 0.1).t()
    loss = (1 - y.sum(0)).mean() + (w * w).sum() * 1e-3 - b.expand(2, 4).sum()
    return loss, [w, b]


def _grads(leaves: list[mg.Tensor]) -> list[np.ndarray]:
    grads = [leaf.grad.detach().numpy().copy() for leaf in leaves]
    for leaf in leaves:
        leaf.grad = None
    return grads


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
def test_plain_backward_matches_the_tensor_rules_bit_for_bit(dtype: mg.dtype) -> None:
    loss, leaves = _mlp_loss(dtype)
    loss.backward(retain_graph=True)
    on_arrays = _grads(leaves)
    for _ in BackwardPass([loss], retain_graph=True):  # watched: the rules get Tensors
        pass
    on_tensors = _grads(leaves)
    recorded = [g.detach().numpy() for g in mg.autograd.grad(loss, leaves, create_graph=True)]
    for plain, watched, with_graph in zip(on_arrays, on_tensors, recorded, strict=True):
        assert plain.dtype == dtype.numpy
        np.testing.assert_array_equal(plain, watched)
        np.testing.assert_array_equal(plain, with_graph)


def test_a_plain_backward_runs_the_rule_on_arrays_and_a_recorded_one_on_tensors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[type] = []
    rule = ops.Mul.backward

    def spy(ctx, grad):
        seen.append(type(grad))
        return rule(ctx, grad)

    monkeypatch.setattr(ops.Mul, "backward", staticmethod(spy))
    x = mg.tensor(2.0, requires_grad=True)
    (x * 3.0).backward()
    mg.autograd.grad(x * 3.0, [x], create_graph=True)
    assert seen == [np.ndarray, mg.Tensor]


def test_hooks_and_captured_gradients_are_tensors_in_a_plain_backward() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    received: list[object] = []
    h.register_hook(lambda grad: received.append(grad))
    y = h.sum()
    y.grad_fn.register_prehook(lambda grads: received.append(grads[0]))
    (captured,) = mg.autograd.grad(y, [h], retain_graph=True)
    assert isinstance(captured, mg.Tensor)
    y.backward()
    assert all(isinstance(grad, mg.Tensor) for grad in received)
    assert isinstance(x.grad, mg.Tensor)
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_a_hook_that_replaces_the_gradient_still_counts() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    h.register_hook(lambda grad: grad * 10)
    h.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [30.0, 30.0])


def test_a_user_function_gets_tensors_in_a_plain_backward() -> None:
    kinds: list[type] = []

    class Square(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            kinds.extend([type(grad), type(x)])
            return 2 * x * grad

    x = mg.tensor(3.0, requires_grad=True)
    (Square.apply(x) * 2.0).backward()
    assert kinds == [mg.Tensor, mg.Tensor]
    assert x.grad.item() == 12.0


def test_float32_times_a_python_number_keeps_float32_in_the_gradient() -> None:
    weights = mg.tensor(np.linspace(0.1, 3.0, 50), dtype=mg.float32)
    x = mg.tensor(np.linspace(-2.0, 2.0, 50), dtype=mg.float32, requires_grad=True)
    ((x * 1.001) * weights).sum().backward()
    plain = x.grad.numpy().copy()
    x.grad = None
    for _ in BackwardPass([((x * 1.001) * weights).sum()]):
        pass
    assert plain.dtype == np.float32
    np.testing.assert_array_equal(plain, x.grad.numpy())


def test_mixed_dtypes_take_the_tensor_rule() -> None:
    # numpy would compute float32 * a 0-d float64 in float64 and round once; PyTorch rounds
    # the float64 to float32 first: the last bits differ for some of these values.
    weights = mg.tensor(np.linspace(0.1, 3.0, 50), dtype=mg.float32)
    a = mg.tensor(np.linspace(-2.0, 2.0, 50), dtype=mg.float32, requires_grad=True)
    b = mg.tensor(1.1, dtype=mg.float64)
    ((a * b) * weights).sum().backward()
    plain = a.grad.numpy().copy()
    a.grad = None
    for _ in BackwardPass([((a * b) * weights).sum()]):
        pass
    assert plain.dtype == np.float32
    np.testing.assert_array_equal(plain, a.grad.numpy())
