"""The examples in the docstrings of PyTorch's own autograd modules (``torch/autograd/
function.py``, ``graph.py``, ``grad_mode.py`` and ``functional.py``), for every API minigrad
has, each rewritten as a small program of our own that uses the API the same way, run on
both libraries (``run_both`` in conftest.py) and compared: values, reprs and errors.

Left out: forward-mode AD (``save_for_forward``, the ``jvp`` staticmethod), tested against
torch in test_forward_ad_parity.py; and, as minigrad has no such API (docs/pytorch.md), the
``vmap`` staticmethod, ``inference_mode``, ``disable_saved_tensors_hooks``,
``region_activation_memory_budget`` and ``enforce_grad_layout_policy``. Inputs are fixed
numbers, not ``torch.rand``: the two libraries' random streams differ.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytestmark = pytest.mark.oracle


def printed(value):
    """What ``print`` shows, in minigrad's spelling (``minigrad.float64``, not ``torch.``)."""
    return str(value).replace("torch.", "minigrad.")


def without_hint(error):
    """A version-counter error up to its hint, which differs on purpose (docs/pytorch.md)."""
    return printed(error).split(" Hint")[0]


# -- torch/autograd/function.py ----------------------------------------------------------


def test_function_with_a_non_tensor_argument_and_once_differentiable(run_both):
    # FunctionCtx.save_for_backward: inputs, an intermediate and the output are saved.
    def scenario(L, F, log):
        class Blend(F.Function):
            @staticmethod
            def forward(ctx, x, y, k):
                scaled = x * k
                out = x * y + y * k + scaled * y
                ctx.save_for_backward(x, y, scaled, out)
                ctx.k = k  # not a tensor: kept as an attribute
                return out

            @staticmethod
            @F.once_differentiable
            def backward(ctx, grad_out):
                x, y, scaled, out = ctx.saved_tensors
                k = ctx.k
                return grad_out * (y + y * k), grad_out * (x + k + scaled), None

        x = L.tensor(1.5, requires_grad=True, dtype=L.double)
        y = L.tensor(-2.0, requires_grad=True, dtype=L.double)
        out = Blend.apply(x, y, 3)
        log += [printed(out), out.grad_fn.name()]
        out.backward()
        log += [printed(x.grad), printed(y.grad)]
        z = Blend.apply(x, y, 3)
        (gx,) = L.autograd.grad(z, x, create_graph=True)
        log.append(printed(gx))
        gx.backward()  # once_differentiable: its derivative cannot be differentiated

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_mark_dirty_of_an_input_changed_through_numpy(run_both):
    def scenario(L, F, log):
        class AddOne(F.Function):
            @staticmethod
            def forward(ctx, x):
                values = x.numpy()  # shares memory with x; forward runs without recording
                values += 1
                ctx.mark_dirty(x)
                return x

            @staticmethod
            @F.once_differentiable
            def backward(ctx, grad_output):
                return grad_output

        a = L.tensor(2.0, requires_grad=True, dtype=L.double).clone()
        b = a * a
        log.append(printed(AddOne.apply(a)))
        log += [printed(a), a._version, a.grad_fn.name()]
        try:
            b.backward()  # b saved a before the change: refused
        except RuntimeError as error:
            log.append(without_hint(error))
        c = L.tensor([1.0, 2.0], requires_grad=True).clone()
        d = AddOne.apply(c) * 3
        d.sum().backward()
        log.append(printed(c))

    run_both(scenario)


def test_mark_non_differentiable_indices_of_a_sort(run_both):
    """Needs ``Tensor.sort`` and ``index_add_`` (added on another branch)."""

    def scenario(L, F, log):
        class SortValues(F.Function):
            @staticmethod
            def forward(ctx, x):
                values, order = x.sort()
                ctx.mark_non_differentiable(order)
                ctx.save_for_backward(x, order)
                return values, order

            @staticmethod
            @F.once_differentiable
            def backward(ctx, grad_values, grad_order):  # grad_order: zeros, never used
                x, order = ctx.saved_tensors
                grad_input = L.zeros_like(x)
                grad_input.index_add_(0, order, grad_values)
                return grad_input

        x = L.tensor([3.0, -1.0, 2.0], requires_grad=True)
        values, order = SortValues.apply(x)
        log += [printed(values), printed(order), order.requires_grad]
        (values * L.tensor([1.0, 10.0, 100.0])).sum().backward()
        log.append(printed(x.grad))

    run_both(scenario)


def test_set_materialize_grads(run_both):
    def scenario(L, F, log):
        class TwoCopies(F.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone(), x.clone()

            @staticmethod
            @F.once_differentiable
            def backward(ctx, g1, g2):
                log.append(("materialized", printed(g1), printed(g2)))
                return g1 + g2  # an unused output's gradient arrives as zeros

        class TwoCopiesMaybeNone(F.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                ctx.save_for_backward(x)
                return x.clone(), x.clone()

            @staticmethod
            @F.once_differentiable
            def backward(ctx, g1, g2):
                log.append(("not materialized", printed(g1), printed(g2)))
                (x,) = ctx.saved_tensors
                grad_input = L.zeros_like(x)
                if g1 is not None:
                    grad_input += g1
                if g2 is not None:
                    grad_input += g2
                return grad_input

        for function in (TwoCopies, TwoCopiesMaybeNone):
            a = L.tensor(1.0, requires_grad=True)
            b, _ = function.apply(a)  # the second output is not used: g2 is undefined
            (b * 4).backward()
            log.append(printed(a.grad))

    run_both(scenario)


def test_function_saving_its_result(run_both):
    # The Function class's own example: exp, whose derivative is its result.
    def scenario(L, F, log):
        class Exp(F.Function):
            @staticmethod
            def forward(ctx, i):
                result = i.exp()
                ctx.save_for_backward(result)
                return result

            @staticmethod
            def backward(ctx, grad_output):
                (result,) = ctx.saved_tensors
                return grad_output * result

        x = L.tensor([0.0, 1.0], requires_grad=True)
        y = Exp.apply(x)
        log += [printed(y), y.grad_fn.name()]
        y.sum().backward()
        log.append(printed(x.grad))

    run_both(scenario)


# -- torch/autograd/graph.py ----------------------------------------------------------------


def test_node_name_hooks_and_prehooks(run_both):
    def scenario(L, F, log):
        a = L.tensor([0.0, 0.0, 0.0], requires_grad=True)
        b = a.clone()
        log += [isinstance(b.grad_fn, L.autograd.graph.Node), b.grad_fn.name()]
        handle = b.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_outputs[0] * 2,))
        b.sum().backward(retain_graph=True)
        log.append(printed(a.grad))
        handle.remove()
        a.grad = None
        b.sum().backward(retain_graph=True)
        log.append(printed(a.grad))
        handle = b.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 2,))
        a.grad = None
        b.sum().backward(retain_graph=True)
        log.append(printed(a.grad))
        handle.remove()
        a.grad = None
        b.sum().backward(retain_graph=True)
        log.append(printed(a.grad))

    run_both(scenario)


def test_saved_tensors_hooks_print_what_they_pack_and_unpack(run_both):
    def scenario(L, F, log):
        def pack_hook(x):
            log.append(("Packing", printed(x)))
            return x.detach()

        def unpack_hook(x):
            log.append(("Unpacking", printed(x)))
            return x

        a = L.ones(5, requires_grad=True)
        b = L.ones(5, requires_grad=True) * 2
        with L.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            y = a * b
        y.sum().backward()
        log += [printed(a.grad)]

    run_both(scenario)


def test_save_on_cpu_around_part_of_a_function(run_both):
    def scenario(L, F, log):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        b = L.tensor([3.0, -1.0], requires_grad=True)
        c = L.tensor([0.5, 4.0], requires_grad=True)

        def f(a, b, c):
            prod_1 = a * b
            with L.autograd.graph.save_on_cpu():
                prod_2 = prod_1 * c  # prod_1 and c are kept by save_on_cpu
            return prod_2 * a

        y = f(a, b, c)
        y.sum().backward()
        log += [printed(y), printed(a.grad), printed(b.grad), printed(c.grad)]

    run_both(scenario)


def test_register_multi_grad_hook_example(run_both):
    def scenario(L, F, log):
        a = L.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], requires_grad=True)
        b = L.tensor([[0.6, 0.5, 0.4], [0.3, 0.2, 0.1]], requires_grad=True)
        c = a * b
        d = a * b

        def fn(grads):
            log.append([g is not None for g in grads])

        L.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
        c.sum().backward(retain_graph=True)
        c.sum().backward(inputs=(a,), retain_graph=True)

    assert run_both(scenario) == [(True, True, True, False), (True, False, True, False)]


def test_allow_mutation_on_saved_tensors_example(run_both):
    """Needs ``Tensor.sin_`` (added on another branch)."""

    def scenario(L, F, log):
        with L.autograd.graph.allow_mutation_on_saved_tensors():
            a = L.ones(2, 3, requires_grad=True)
            b = a.clone()
            out = (b**2).sum()
            log.append(printed(b.sin_()))
            out.sum().backward()
        log.append(printed(a.grad))

    run_both(scenario)


# -- torch/autograd/grad_mode.py -------------------------------------------------------------


def test_no_grad_as_context_and_decorator(run_both):
    def scenario(L, F, log):
        x = L.tensor([1.0], requires_grad=True)
        with L.no_grad():
            y = x * 2
        log.append(y.requires_grad)

        @L.no_grad()
        def doubler(x):
            return x * 2

        log.append(doubler(x).requires_grad)

        @L.no_grad
        def tripler(x):  # the decorator without parentheses
            return x * 3

        log.append(tripler(x).requires_grad)
        with L.no_grad():  # a factory's result is the exception
            parameter = L.nn.Parameter(L.zeros(10))
        log.append(parameter.requires_grad)

    assert run_both(scenario) == [False, False, False, True]


def test_enable_grad_inside_no_grad(run_both):
    def scenario(L, F, log):
        x = L.tensor([1.0], requires_grad=True)
        with L.no_grad(), L.enable_grad():
            y = x * 2
        log.append(y.requires_grad)
        y.backward()
        log.append(printed(x.grad))

        @L.enable_grad()
        def doubler(x):
            return x * 2

        @L.enable_grad
        def tripler(x):
            return x * 3

        with L.no_grad():
            log += [doubler(x).requires_grad, tripler(x).requires_grad]

    run_both(scenario)


def test_set_grad_enabled_as_context_and_function(run_both):
    def scenario(L, F, log):
        x = L.tensor([1.0], requires_grad=True)
        is_train = False
        with L.set_grad_enabled(is_train):
            y = x * 2
        log.append(y.requires_grad)
        _ = L.set_grad_enabled(True)
        log.append((x * 2).requires_grad)
        _ = L.set_grad_enabled(False)
        log.append((x * 2).requires_grad)
        L.set_grad_enabled(True)

    assert run_both(scenario) == [False, True, False]


# -- torch/autograd/functional.py ------------------------------------------------------------


def _inputs(L, *shape, offset=0.0):
    """Fixed numbers in [0, 1), as torch.rand would give, of the given shape."""
    count = int(np.prod(shape))
    values = (np.arange(count, dtype=np.float32) * 0.37 + 0.11 + offset) % 1
    return L.tensor(values.reshape(shape))


def test_vjp_examples(run_both):
    def scenario(L, F, log):
        vjp = L.autograd.functional.vjp

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        inputs = _inputs(L, 4, 4)
        v = L.ones(4)
        log.append(printed(vjp(exp_reducer, inputs, v)))
        log.append(printed(vjp(exp_reducer, inputs, v, create_graph=True)))

        def adder(x, y):
            return 2 * x + 3 * y

        pair = (_inputs(L, 2), _inputs(L, 2, offset=0.5))
        log.append(printed(vjp(adder, pair, L.ones(2))))

    run_both(scenario)


def test_jvp_examples(run_both):
    def scenario(L, F, log):
        jvp = L.autograd.functional.jvp

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        inputs = _inputs(L, 4, 4)
        v = L.ones(4, 4)
        log.append(printed(jvp(exp_reducer, inputs, v)))
        # The jvp is the derivative of a derivative (the double-backward trick): its node is
        # named after minigrad's backward of sum, not PyTorch's (docs/pytorch.md).
        shown = printed(jvp(exp_reducer, inputs, v, create_graph=True))
        log.append(re.sub(r"grad_fn=<\w+>\)\)$", "grad_fn=<...>))", shown))

        def adder(x, y):
            return 2 * x + 3 * y

        pair = (_inputs(L, 2), _inputs(L, 2, offset=0.5))
        log.append(printed(jvp(adder, pair, (L.ones(2), L.ones(2)))))

    run_both(scenario)


def test_jacobian_examples(run_both):
    def scenario(L, F, log):
        jacobian = L.autograd.functional.jacobian

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        inputs = _inputs(L, 2, 2)
        log.append(printed(jacobian(exp_reducer, inputs)))
        log.append(printed(jacobian(exp_reducer, inputs, create_graph=True)))

        def exp_adder(x, y):
            return 2 * x.exp() + 3 * y

        log.append(printed(jacobian(exp_adder, (_inputs(L, 2), _inputs(L, 2, offset=0.5)))))

        def linear_model(x):
            W = L.tensor([[2.0, -1.0], [0.0, 1.0]])
            b = L.tensor([1.0, 0.5])
            return x @ W.T + b

        x = _inputs(L, 4, 2).requires_grad_()
        jac = jacobian(linear_model, x, vectorize=True)
        log += [printed(jac.shape), printed(jac[1, :, 1, :])]

    run_both(scenario)


def test_hessian_examples(run_both):
    def scenario(L, F, log):
        hessian = L.autograd.functional.hessian

        def pow_reducer(x):
            return x.pow(3).sum()

        inputs = _inputs(L, 2, 2)
        log.append(printed(hessian(pow_reducer, inputs)))
        log.append(printed(hessian(pow_reducer, inputs, create_graph=True)))

        def pow_adder_reducer(x, y):
            return (2 * x.pow(2) + 3 * y.pow(2)).sum()

        log.append(printed(hessian(pow_adder_reducer, (_inputs(L, 2), _inputs(L, 2, offset=0.5)))))

    run_both(scenario)


@pytest.mark.parametrize("name", ["vhp", "hvp"])
def test_vhp_and_hvp_examples(name, run_both):
    def scenario(L, F, log):
        product = getattr(L.autograd.functional, name)

        def pow_reducer(x):
            return x.pow(3).sum()

        inputs = _inputs(L, 2, 2)
        v = L.ones(2, 2)
        log.append(printed(product(pow_reducer, inputs, v)))
        log.append(printed(product(pow_reducer, inputs, v, create_graph=True)))

        def pow_adder_reducer(x, y):
            return (2 * x.pow(2) + 3 * y.pow(2)).sum()

        pair = (_inputs(L, 2), _inputs(L, 2, offset=0.5))
        log.append(printed(product(pow_adder_reducer, pair, (L.zeros(2), L.ones(2)))))

    run_both(scenario)
