"""Hooks on saved tensors, compared with torch scenario by scenario (see ``run_both`` in
conftest.py): ``register_hooks`` on a ``grad_fn._raw_saved_*`` object and the
``autograd.graph.saved_tensors_hooks`` / ``save_on_cpu`` contexts. What each hook is given
(printed as the library prints it), what backward computes with the unpacked values, where
the gradients go, and PyTorch's errors for misuse."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.oracle


def printed(L, tensor):
    """The tensor as its library prints it, with the library's name taken out (dtypes read
    torch.float64 in one, minigrad.float64 in the other)."""
    return repr(tensor).replace(L.__name__, "L")


def described(L, tensor):
    """What a hook was given: its printout, whether it is a leaf and whether it requires grad."""
    return printed(L, tensor), tensor.is_leaf, tensor.requires_grad


def scale_by_ten_then_five(L, log):
    """A pack hook that keeps 10·t and an unpack hook that gives back 2·t: backward must
    use 2·t (a hook that ignored it would give the gradient at t)."""

    def pack(tensor):
        log.append(("pack", *described(L, tensor), L.is_grad_enabled()))
        return tensor * 10

    def unpack(packed):
        log.append(("unpack", *described(L, packed)))
        return packed / 5

    return pack, unpack


def test_a_leaf_input_unpacked_by_its_hook_is_what_backward_uses(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.sin()
        y.grad_fn._raw_saved_self.register_hooks(*scale_by_ten_then_five(L, log))
        unpacked = y.grad_fn._saved_self
        log += [described(L, unpacked), unpacked is x, unpacked.grad_fn is None]
        y.sum().backward(retain_graph=True)
        log.append(x.grad)  # cos(2x), not cos(x)
        x.grad = None
        # The unpacked leaf sends its gradient to x, the leaf that was saved.
        (unpacked * 3).sum().backward()
        log += [x.grad, unpacked.grad, unpacked._version == x._version]

    run_both(scenario)


def test_a_non_leaf_input_and_a_result_unpacked_by_their_hooks(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        h = x * 1
        y = h.sin()
        y.grad_fn._raw_saved_self.register_hooks(*scale_by_ten_then_five(L, log))
        unpacked = y.grad_fn._saved_self
        log += [printed(L, unpacked), unpacked is h, unpacked.grad_fn.name()]
        y.sum().backward()
        log.append(x.grad)
        x.grad = None
        e = x.exp()
        e.grad_fn._raw_saved_result.register_hooks(*scale_by_ten_then_five(L, log))
        unpacked = e.grad_fn._saved_result
        log += [printed(L, unpacked), unpacked is e, unpacked.grad_fn is e.grad_fn]
        e.sum().backward()
        log.append(x.grad)  # 2·exp(x): the unpacked result

    run_both(scenario)


def test_a_wrapped_number_and_a_saved_none_have_raw_saved_objects_too(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x * 2
        raw = y.grad_fn._raw_saved_other
        log += [type(raw).__name__, y.grad_fn._raw_saved_other is raw]
        raw.register_hooks(*scale_by_ten_then_five(L, log))
        log.append(printed(L, y.grad_fn._saved_other))
        y.sum().backward()
        log.append(x.grad)  # the unpacked 4, not 2
        logits = leaf(L, [[1.0, 2.0]])
        loss = L.nn.functional.nll_loss(logits, L.tensor([0]))
        nothing = loss.grad_fn._raw_saved_weight  # no weight was given
        log += [type(nothing).__name__, loss.grad_fn._saved_weight]
        nothing.register_hooks(lambda t: t, lambda p: p)

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_saved_tensors_hooks_get_the_tensors_themselves_with_recording_off(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        given = []
        pack, unpack = scale_by_ten_then_five(L, log)
        with L.autograd.graph.saved_tensors_hooks(lambda t: given.append(t) or pack(t), unpack):
            h = x * 1
            s = h.sin()
            e = (s * x).exp()  # saves its result, e
            y = e * 2  # the 2 is a wrapped number: never packed
        log.append([(g is x, g is h, g is s, g is e) for g in given])
        y.sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_identity_hooks_give_new_tensors_whose_gradients_reach_the_saved_ones(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        for hooks in (
            lambda: L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p),
            lambda: L.autograd.graph.save_on_cpu(),
        ):
            with hooks():
                h = x * 1
                y = h.sin() * x
            log.append(printed(L, y.grad_fn._saved_self))
            unpacked = y.grad_fn._saved_other
            log += [printed(L, unpacked), unpacked is x, unpacked.is_leaf]
            y.sum().backward()
            log.append(x.grad)
            x.grad = None
        # register_hooks with hooks that hand the same object back: a new tensor all the same
        y = x.sin()
        kept = []
        y.grad_fn._raw_saved_self.register_hooks(lambda t: kept.append(t) or t, lambda p: p)
        unpacked = y.grad_fn._saved_self
        log += [described(L, kept[0]), kept[0] is x, unpacked is x, unpacked is kept[0]]
        log.append(described(L, unpacked))
        y.sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_the_graph_of_what_an_unpack_hook_returns_is_not_followed(run_both, leaf):
    # The unpacked tensor takes the saved tensor's place in the graph, whatever the hook
    # returned: a tensor of another graph, or one requiring grad for a constant.
    def scenario(L, F, log):
        x, other = leaf(L, [1.0, 2.0]), leaf(L, [5.0, 6.0])
        h = x * 1
        y = h.sin()
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda p: other * 1)
        unpacked = y.grad_fn._saved_self
        log += [printed(L, unpacked), unpacked.grad_fn is h.grad_fn]
        (grad,) = L.autograd.grad(y.sum(), x, create_graph=True)
        log += [grad, other.grad]
        (second,) = L.autograd.grad(grad.sum(), x)
        log.append(second)
        constant = L.tensor([3.0, 4.0], dtype=L.float64)
        y = x * constant
        y.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda p: other * 1)
        log.append(printed(L, y.grad_fn._saved_other))  # no grad_fn: the constant's place
        y.sum().backward(create_graph=True)
        log += [printed(L, x.grad), other.grad]

    run_both(scenario)


SHAPES_AND_DTYPES = [
    "L.ones(1, dtype=L.float64)",  # broadcasts
    "L.ones(2, 2, dtype=L.float64)",  # broadcasts; the gradient is summed back to x's shape
    "L.ones(3, dtype=L.float64)",  # does not fit: PyTorch's error
    "packed.float()",
    "packed.long()",  # for a leaf: it cannot require grad
]


@pytest.mark.parametrize("given_back", SHAPES_AND_DTYPES)
@pytest.mark.parametrize("saved", ["leaf", "non-leaf", "result"])
def test_an_unpack_hook_that_gives_another_shape_or_dtype(run_both, leaf, given_back, saved):
    def scenario(L, F, log):
        def unpack(packed):
            return eval(given_back, {"L": L, "packed": packed})  # noqa: S307 - the cases above

        x = leaf(L, [1.0, 2.0])
        if saved == "result":
            y = x.exp()
            raw = y.grad_fn._raw_saved_result
        else:
            # (pow's derivative is exact in float32 too, where numpy's and torch's cos differ)
            y = (x if saved == "leaf" else x * 1).pow(3)
            raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: t, unpack)
        node = y.grad_fn
        log.append(printed(L, node._saved_result if saved == "result" else node._saved_self))
        y.sum().backward()
        log.append(x.grad)

    run_both(scenario)


def test_unpacked_tensors_in_double_backward(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.sin()
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda p: p / 5)
        (grad,) = L.autograd.grad(y.sum(), x, create_graph=True)
        (second,) = L.autograd.grad(grad.sum(), x)
        log += [grad, second]  # cos(2x), then -sin(2x): the unpacked 2x stands for x
        with L.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda p: p / 5):
            h = x * x
            z = (h.sin() * x).exp().sum()
        z.backward(create_graph=True)
        grad = x.grad
        x.grad = None
        grad.sum().backward()
        log += [grad, x.grad]

    run_both(scenario)


def test_a_functions_saved_tensors_under_hooks(run_both, leaf):
    def scenario(L, F, log):
        class Cubed(L.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                out = a * a * b
                ctx.save_for_backward(a, b, None, out)
                return out

            @staticmethod
            def backward(ctx, grad):
                a, b, nothing, out = ctx.saved_tensors
                log.append(("saved", printed(L, a), printed(L, b), nothing, printed(L, out)))
                return grad * 2 * a * b, grad * a * a

        x, c = leaf(L, [1.0, 2.0]), L.tensor([3.0, 4.0], dtype=L.float64)
        with L.autograd.graph.saved_tensors_hooks(*scale_by_ten_then_five(L, log)):
            y = Cubed.apply(x * 1, c)
        y.sum().backward()
        log.append(x.grad)
        x.grad = None
        y = Cubed.apply(x, c)
        raws = y.grad_fn._raw_saved_tensors
        log += [len(raws), y.grad_fn._raw_saved_tensors[0] is raws[0]]
        raws[0].register_hooks(*scale_by_ten_then_five(L, log))
        y.sum().backward()
        log.append(x.grad)
        raws[2].register_hooks(lambda t: t, lambda p: p)

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_a_pack_hook_may_not_change_its_input_in_place(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.sin()
        try:
            y.grad_fn._raw_saved_self.register_hooks(lambda t: t.mul_(2), lambda p: p)
        except RuntimeError as error:
            log.append(str(error))
        h = x * 1
        with L.autograd.graph.saved_tensors_hooks(lambda t: t.mul_(2), lambda p: p):
            h.sin()

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_hooks_on_a_freed_saved_tensor_are_refused(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.sin()
        raw = y.grad_fn._raw_saved_self
        y.sum().backward()
        raw.register_hooks(lambda t: t, lambda p: p)

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_an_unpack_hook_must_give_a_tensor(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.sin()
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda p: p.tolist())
        y.sum().backward()

    assert run_both(scenario)[-1][0] == "TypeError"
