"""A user's ``autograd.Function`` behaves as in PyTorch: each scenario below is run once with
torch and once with minigrad (see ``run_both`` in conftest.py), and what it reports
(values, node names, flags, messages) must be the same."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.oracle


def test_forward_gets_tensors_with_recording_off_and_a_non_tensor_argument(run_both, leaf):
    def scenario(L, F, log):
        class Scale(F.Function):
            @staticmethod
            def forward(ctx, x, k):
                log.append((type(x).__name__, L.is_grad_enabled(), ctx.needs_input_grad))
                ctx.save_for_backward(x)
                ctx.k = k
                return x * k

            @staticmethod
            def backward(ctx, grad):
                return grad * ctx.k, None

        x = leaf(L, [1.0, 2.0])
        y = Scale.apply(x, 3.0)
        log += [y, y.grad_fn.name(), type(y.grad_fn).__name__, y.requires_grad]
        y.sum().backward()
        log.append(x.grad)
        log.append(Scale.apply(L.tensor([1.0]), 2.0).grad_fn)

    assert run_both(scenario)[0] == ("Tensor", False, (True, False))


@pytest.mark.parametrize(
    "backward_returns",
    ["too_few", "gradient_for_a_number", "extra_nones"],
)
def test_what_backward_returns_is_checked(backward_returns, run_both, leaf):
    def scenario(L, F, log):
        class Scale(F.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, grad):
                if backward_returns == "too_few":
                    return grad * 2
                if backward_returns == "gradient_for_a_number":
                    return grad * 2, grad
                return grad * 2, None, None

        x = leaf(L, [1.0, 2.0])
        Scale.apply(x, 2.0).sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_only_tensors_can_be_saved(run_both, leaf):
    def scenario(L, F, log):
        class SavesANumber(F.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 3)
                return x * 2

        SavesANumber.apply(leaf(L, [1.0]))

    assert run_both(scenario)[-1][0] == "TypeError"


def test_an_input_returned_as_it_is_comes_back_as_a_view_with_new_history(run_both, leaf):
    def scenario(L, F, log):
        class Identity(F.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 5

        x = leaf(L, [1.0, 2.0])
        y = Identity.apply(x)
        log += [y is x, y._base is x, y.grad_fn.name(), y.is_leaf]
        y.sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_mark_dirty_for_a_change_in_place_and_the_leaf_error(run_both, leaf):
    def scenario(L, F, log):
        class DoubleInPlace(F.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        x = leaf(L, [1.0, 2.0])
        a = x.clone()
        b = DoubleInPlace.apply(a)
        log += [b is a, b.grad_fn.name(), a.grad_fn.name(), a]
        b.sum().backward()
        log.append(x.grad)
        DoubleInPlace.apply(x)

    assert run_both(scenario)[-1][0] == "RuntimeError"


@pytest.mark.parametrize("materialize", [True, False])
def test_several_outputs_one_node_and_the_gradients_backward_receives(materialize, run_both, leaf):
    def scenario(L, F, log):
        class TwoAndThree(F.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                log.append(("received", g1, g2))
                return g1 * 2 + (0 if g2 is None else g2 * 3)

        x = leaf(L, [1.0, 2.0])
        p, q = TwoAndThree.apply(x)
        log += [p.grad_fn is q.grad_fn, p.output_nr, q.output_nr]
        (p.sum() + 10 * q.sum()).backward()
        log.append(x.grad)
        x.grad = None
        p, q = TwoAndThree.apply(x)
        p.sum().backward()  # nothing reaches q: zeros, or None without materializing
        log.append(x.grad)
        (g,) = L.autograd.grad(q.sum(), x)
        log.append(g)

    run_both(scenario)


def test_non_differentiable_and_non_tensor_outputs(run_both, leaf):
    def scenario(L, F, log):
        class WithIndex(F.Function):
            @staticmethod
            def forward(ctx, x):
                index = x.argmax()
                ctx.mark_non_differentiable(index)
                return x * 2, index, 5

            @staticmethod
            def backward(ctx, grad, grad_index, grad_count):
                log.append(("received", grad_index, grad_count))
                return grad * 2

        x = leaf(L, [1.0, 3.0])
        values, index, count = WithIndex.apply(x)
        log += [index.requires_grad, index.grad_fn, count, values.grad_fn.name()]
        values.sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_setup_context_style_and_double_backward_through_a_saved_output(run_both, leaf):
    def scenario(L, F, log):
        class Cube(F.Function):
            @staticmethod
            def forward(x):
                return x**3

            @staticmethod
            def setup_context(ctx, inputs, output):
                (x,) = inputs
                ctx.save_for_backward(x, output)

            @staticmethod
            def backward(ctx, grad):
                x, output = ctx.saved_tensors
                log.append(("saved output's node", output.grad_fn.name()))
                return grad * 3 * output / x

        x = leaf(L, [1.0, 2.0])
        cube = Cube.apply(x)
        (first,) = L.autograd.grad(cube.sum(), x, create_graph=True)
        (second,) = L.autograd.grad(first.sum(), x)
        log += [cube, first, second]

    run_both(scenario)


def test_once_differentiable_runs_backward_unrecorded(run_both, leaf):
    def scenario(L, F, log):
        class Square(F.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x**2

            @staticmethod
            @F.once_differentiable
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                log.append(("recording", L.is_grad_enabled()))
                return 2 * x * grad

        x = leaf(L, [1.0, 2.0])
        (first,) = L.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
        log += [first, first.requires_grad]
        first.sum().backward()

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_under_no_grad_nothing_is_recorded(run_both, leaf):
    def scenario(L, F, log):
        class Double(F.Function):
            @staticmethod
            def forward(ctx, x):
                log.append(ctx.needs_input_grad)
                return x * 2

        x = leaf(L, [1.0])
        with L.no_grad():
            y = Double.apply(x)
        log += [y.requires_grad, y.grad_fn]

    run_both(scenario)
