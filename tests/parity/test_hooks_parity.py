"""``Tensor.register_post_accumulate_grad_hook``, ``autograd.graph.register_multi_grad_hook``
and ``autograd.graph.allow_mutation_on_saved_tensors``, compared with torch scenario by
scenario (see ``run_both`` in conftest.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.oracle


# -- register_post_accumulate_grad_hook ------------------------------------------------------


def test_post_accumulate_grad_hooks_run_after_the_grad_is_added(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        accumulate = (x * 1).grad_fn.next_functions[0][0]
        accumulate.register_hook(lambda grads_in, grads_out: log.append(("node", grads_out)))
        x.register_hook(lambda grad: log.append(("tensor hook", grad, x.grad)))

        def after(tensor):
            log.append(("after", tensor is x, tensor.grad))

        handle = x.register_post_accumulate_grad_hook(after)
        x.register_post_accumulate_grad_hook(lambda tensor: log.append("second"))
        (x * 3).sum().backward()
        (x * x).sum().backward()  # two contributions, summed first: one call
        handle.remove()
        handle.remove()  # a second remove does nothing
        (x * 3).sum().backward()
        L.autograd.grad((x * 3).sum(), x)  # no .grad is written: no call
        log.append("inputs")
        (x * x * 2).sum().backward(inputs=[x])

    run_both(scenario)


def test_an_optimizer_step_inside_the_hook(run_both, leaf):
    def scenario(L, F, log):
        w = leaf(L, [1.0, -2.0])
        b = leaf(L, [0.5])

        def step(parameter):
            with L.no_grad():
                parameter -= 0.1 * parameter.grad
            parameter.grad = None

        for parameter in (w, b):
            parameter.register_post_accumulate_grad_hook(step)
        for _ in range(3):
            ((w * 2 + b) ** 2).sum().backward()
            log += [w, b, w.grad, b.grad]

    run_both(scenario)


@pytest.mark.parametrize(
    "case",
    [
        "non-leaf",
        "no grad",
        "returns a tensor",
        "returns a number",
    ],
)
def test_post_accumulate_grad_hook_errors(case, run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        if case == "non-leaf":
            (x * 2).register_post_accumulate_grad_hook(lambda t: None)
        elif case == "no grad":
            L.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)
        elif case == "returns a tensor":
            x.register_post_accumulate_grad_hook(lambda t: t * 2)
            try:
                (x * 3).sum().backward()
            finally:
                log.append(x.grad)  # added before the hook ran
        else:
            x.register_post_accumulate_grad_hook(lambda t: 5)
            (x * 3).sum().backward()

    assert run_both(scenario)[-1][0] in ("RuntimeError", "TypeError")


# -- register_multi_grad_hook -----------------------------------------------------------------


def test_multi_grad_hook_all_waits_for_every_gradient_of_the_pass(run_both, leaf):
    def scenario(L, F, log):
        a, b = leaf(L, [1.0, 2.0]), leaf(L, [3.0, 4.0])
        c = a * b
        d = a * b

        def seen(grads):
            log.append(("all", grads))

        handle = L.autograd.graph.register_multi_grad_hook((a, b, c, d), seen)
        c.sum().backward(retain_graph=True)
        c.sum().backward(inputs=(a,), retain_graph=True)
        (c + d).sum().backward(retain_graph=True)
        (a * 5).sum().backward()
        handle.remove()
        (c * d).sum().backward()
        log.append("removed")

    run_both(scenario)


def test_multi_grad_hook_all_in_autograd_grad(run_both, leaf):
    def scenario(L, F, log):
        a = leaf(L, [1.0, 2.0])
        c, d = a * 2, a * 3
        graph = L.autograd.graph
        graph.register_multi_grad_hook((c, d), lambda grads: log.append(("all", grads)))
        log.append(L.autograd.grad((c * d).sum(), [c], retain_graph=True))
        log.append(L.autograd.grad((c + d).sum(), [c, d], retain_graph=True))
        graph.register_multi_grad_hook((a, d), lambda grads: log.append(("leaf", grads)))
        log.append(L.autograd.grad(d.sum(), [d], retain_graph=True))
        # A leaf whose gradient autograd.grad computes: PyTorch cannot tell yet whether
        # its hook will run, and refuses.
        L.autograd.grad(d.sum(), [a])

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_multi_grad_hook_any_sees_the_first_gradient_once_per_pass(run_both, leaf):
    def scenario(L, F, log):
        a, b = leaf(L, [1.0, 2.0]), leaf(L, [3.0, 4.0])
        constant = L.tensor([5.0, 6.0])
        h = a * b

        def first(grad):
            log.append(("any", grad))

        handle = L.autograd.graph.register_multi_grad_hook((a, h, constant), first, mode="any")
        (h * 2).sum().backward(retain_graph=True)
        (h * 3).sum().backward(retain_graph=True)
        (b * 4).sum().backward()
        handle.remove()
        (a * 2).sum().backward()
        log.append(a.grad)

    run_both(scenario)


def test_multi_grad_hook_mode_must_be_known(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0])
        L.autograd.graph.register_multi_grad_hook((x,), print, mode="every")

    assert run_both(scenario)[-1][0] == "ValueError"


@pytest.mark.parametrize("mode", ["all", "any"])
def test_multi_grad_hook_of_a_tensor_without_grad_leaves_no_hook_behind(run_both, leaf, mode):
    """ "all" refuses (PyTorch's AssertionError) before registering anything; "any" leaves
    the tensor out. Either way a later pass calls nothing that was not registered."""

    def scenario(L, F, log):
        a = leaf(L, [1.0, 2.0])
        try:
            L.autograd.graph.register_multi_grad_hook((a, L.ones(1)), log.append, mode=mode)
        except AssertionError as error:
            log.append(("AssertionError", str(error)))
        (a * 3).sum().backward()
        log.append(a.grad)

    log = run_both(scenario)
    assert len(log) == 2


# -- allow_mutation_on_saved_tensors ------------------------------------------------------


def test_saved_tensors_changed_in_place_keep_their_old_values_for_backward(run_both, leaf):
    def scenario(L, F, log):
        graph = L.autograd.graph
        with graph.allow_mutation_on_saved_tensors():
            a = leaf(L, [1.0, 2.0, 3.0])
            b = a.clone()
            out = (b**2).sum()
            b.mul_(10)
            b.add_(1)  # changed twice: the first copy is the one kept
            constant = L.tensor([2.0, 3.0, 4.0])
            other = (a * constant).sum()
            constant.zero_()
            log.append(other.grad_fn.next_functions[0][0]._saved_other)
            out.backward()
            other.backward()
            log += [a.grad, b, constant]
            w = leaf(L, [1.0, -1.0])
            loss = (w * w * w).sum()
            with L.no_grad():
                w.mul_(2)  # an optimizer step between forward and backward
            loss.backward()
            log += [w, w.grad]

    run_both(scenario)


def test_backward_outside_the_context_is_refused(run_both, leaf):
    def scenario(L, F, log):
        with L.autograd.graph.allow_mutation_on_saved_tensors():
            a = leaf(L, [1.0, 2.0])
            out = (a.exp() * 2).sum()
        out.backward()

    assert run_both(scenario)[-1][0] == "AssertionError"


def test_contexts_do_not_nest_and_outside_them_the_usual_error(run_both, leaf):
    def scenario(L, F, log):
        graph = L.autograd.graph
        with graph.allow_mutation_on_saved_tensors():
            try:
                with graph.allow_mutation_on_saved_tensors():
                    pass
            except RuntimeError as error:
                log.append(str(error))
        b = leaf(L, [1.0, 2.0]).clone()
        out = (b**2).sum()
        b.mul_(2)
        try:
            out.backward()
        except RuntimeError as error:  # the hint differs (docs/pytorch.md)
            log.append(str(error).split(" Hint")[0].replace("torch.", "minigrad."))

    assert "modified by an inplace operation" in run_both(scenario)[-1]
