"""What PyTorch offers on the graph itself, compared scenario by scenario with torch (see
``run_both`` in conftest.py): nodes' hooks and metadata, the ``_saved_*`` attributes,
``saved_tensors_hooks`` and ``save_on_cpu``, and ``backward(inputs=...)``."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.oracle

EXPRESSIONS = [
    ("x * 2", ["_saved_self", "_saved_other"]),
    ("x * x", ["_saved_self", "_saved_other"]),
    ("x / 3", ["_saved_self", "_saved_other"]),
    ("x ** 2", ["_saved_self", "_saved_exponent"]),
    ("x ** x", ["_saved_self", "_saved_exponent", "_saved_result"]),
    ("2 ** x", ["_saved_self", "_saved_result"]),
    ("x.exp()", ["_saved_result"]),
    ("x.tanh()", ["_saved_result"]),
    ("x.sigmoid()", ["_saved_result"]),
    ("x.log()", ["_saved_self"]),
    ("x.sin()", ["_saved_self"]),
    ("x.cos()", ["_saved_self"]),
    ("x.sqrt()", ["_saved_result"]),
    ("x.relu()", ["_saved_result"]),
    ("x.abs()", ["_saved_self"]),
    ("x - 1", ["_saved_alpha"]),
    ("1 - x", ["_saved_alpha"]),
    ("x.sum(0)", ["_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes"]),
    ("x.mean()", ["_saved_self_sym_numel", "_saved_self_sym_sizes"]),
    ("x.softmax(0)", ["_saved_dim", "_saved_result"]),
    ("x.log_softmax(0)", ["_saved_dim", "_saved_result"]),
    ("x.unsqueeze(0)", ["_saved_dim"]),
    ("x.clamp(0, 1.5)", ["_saved_min", "_saved_max", "_saved_self"]),
    ("x.max()", ["_saved_self", "_saved_result"]),
    ("x.dot(x)", ["_saved_self", "_saved_tensor"]),
    ("x.reshape(1, 2).mm(x.reshape(2, 1))", ["_saved_self", "_saved_mat2"]),
    ("L.cat([x, x])", ["_saved_dim"]),
    ("L.stack([x, x])", ["_saved_dim"]),
    ("2 ** x", ["_saved_exponent", "_saved_result"]),
    ("x.clamp(x * 0, x.detach() + 1)", ["_saved_min", "_saved_max", "_saved_self"]),
    ("x.clamp(min=x.detach() - 1)", ["_saved_min", "_saved_max", "_saved_self"]),
    ("L.where(x > 1, x, 0.0)", ["_saved_condition"]),
    ("x.masked_fill(x > 1, 0.0)", ["_saved_mask"]),
    ("x.masked_fill(x > 1, x[0])", ["_saved_mask"]),
    ("x.max(0)[0]", ["_saved_indices", "_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes"]),
    ("x.gather(0, L.tensor([1, 1]))", ["_saved_index", "_saved_self", "_saved_dim"]),
    ("L.nn.functional.logsigmoid(x)", ["_saved_self", "_saved_buffer"]),
    (
        "L.nn.functional.nll_loss(x, L.tensor(1))",
        ["_saved_self", "_saved_target", "_saved_weight", "_saved_total_weight"],
    ),
    (
        "L.nn.functional.nll_loss(x.reshape(1, 2), L.tensor([0]), weight=x.detach())",
        ["_saved_weight", "_saved_total_weight", "_saved_reduction", "_saved_ignore_index"],
    ),
    (
        "L.nn.functional.nll_loss(x.reshape(1, 2), L.tensor([0]), reduction='none')",
        ["_saved_total_weight", "_saved_reduction"],
    ),
    (
        "L.nn.functional.binary_cross_entropy(x / 3, x.detach() / 4)",
        ["_saved_self", "_saved_target", "_saved_weight", "_saved_reduction"],
    ),
    (
        "L.nn.functional.binary_cross_entropy_with_logits(x, x.detach() / 4, pos_weight=x[0])",
        ["_saved_self", "_saved_target", "_saved_weight", "_saved_pos_weight"],
    ),
]


@pytest.mark.parametrize(("expression", "attributes"), EXPRESSIONS)
def test_saved_attributes_for_educational_purposes(expression, attributes, run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])  # noqa: F841 - the expressions use it
        node = eval(expression).grad_fn  # noqa: S307 - the expressions above, in both libraries
        log.append(node.name())
        log += [(name, getattr(node, name)) for name in attributes]
        node(*[L.ones_like(eval(expression))])  # noqa: S307
        if attributes[0] in ("_saved_self", "_saved_result"):
            eval(expression).sum().backward()  # noqa: S307
            getattr(eval(expression).grad_fn, attributes[0])  # noqa: S307 - still saved

    run_both(scenario)


def test_saved_tensors_are_gone_after_backward(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = (x * x).exp()
        y.sum().backward()
        log.append(y.grad_fn._saved_result)

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_node_hooks_run_in_pytorchs_order_and_can_replace_gradients(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.pow(2)
        node = y.grad_fn
        log += [node.metadata, node.name(), [(n.name(), i) for n, i in node.next_functions]]
        node.metadata["seen"] = 1
        log.append(y.grad_fn.metadata)
        node.register_prehook(lambda grad_outputs: log.append(("pre", grad_outputs)))
        node.register_hook(lambda grads_in, grads_out: log.append(("post", grads_in, grads_out)))
        x.register_hook(lambda grad: log.append(("leaf hook", grad)))
        y.register_hook(lambda grad: log.append(("tensor hook", grad)))
        y.sum().backward(retain_graph=True)
        log.append(x.grad)
        x.grad = None
        handle = node.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        node.register_hook(lambda grads_in, grads_out: (grads_in[0] + 1,))
        y.sum().backward(retain_graph=True)
        log.append(x.grad)
        handle.remove()
        x.grad = None
        y.sum().backward()
        log.append(x.grad)
        log.append(isinstance(node, L.autograd.graph.Node))

    run_both(scenario)


def test_saved_tensors_hooks_pack_what_is_saved_and_unpack_it_for_backward(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        packed = []

        def pack(tensor):
            packed.append(tuple(tensor.shape))
            return tensor * 1  # a copy: nothing shared with the graph

        def unpack(value):
            log.append(("unpack", value))
            return value

        with L.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (x * x).exp() * 2
        log.append(packed)
        y.sum().backward()
        log.append(x.grad)
        x.grad = None
        with L.autograd.graph.save_on_cpu():
            h = x.tanh()
            z = (h * x).sum()
        (first,) = L.autograd.grad(z, x, create_graph=True)
        (second,) = L.autograd.grad(first.sum(), x)
        log += [first, second]

    run_both(scenario)


def test_a_saved_tensor_changed_in_place_is_still_caught_under_hooks(leaf):
    """A deliberate difference (docs/pytorch.md): under saved_tensors_hooks PyTorch skips
    its version check, so this silently uses the changed values; minigrad still raises."""
    import minigrad as mg

    torch = pytest.importorskip("torch")
    results = {}
    for L in (torch, mg):
        x = leaf(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            h = x * 1
            y = (h * h).sum()
        h.add_(1)
        try:
            y.backward()
            results[L.__name__] = x.grad.tolist()
        except RuntimeError as error:
            results[L.__name__] = str(error)
    assert results["torch"] == [4.0, 6.0]  # 2·(h+1), h = x: the values after the change
    assert "modified by an inplace operation" in results["minigrad"]


def test_backward_with_inputs_fills_only_their_grad(run_both, leaf):
    def scenario(L, F, log):
        a, b = leaf(L, [1.0]), leaf(L, [2.0])
        c = a * b
        (c * c).sum().backward(inputs=[a])
        log += [a.grad, b.grad]
        m = a * b
        (m * m * a).sum().backward(inputs=[m, b])
        log += [m.grad, a.grad, b.grad]
        L.autograd.backward((a * 3).sum(), inputs=a)
        log.append(a.grad)
        try:
            (a * b).sum().backward(inputs=[])
        except RuntimeError as error:
            log.append(str(error))
        (a * b).sum().backward(inputs=[L.tensor([1.0])])

    assert run_both(scenario)[-1][0] == "RuntimeError"


def test_hooks_registered_on_a_raw_saved_tensor_are_used(run_both, leaf):
    # A node keeps a saved input as the tensor and its version (no SavedTensor object);
    # _raw_saved_self makes the object, and what is registered on it must hold.
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x.pow(2)
        raw = y.grad_fn._raw_saved_self
        log.append(type(raw).__name__)

        def pack(tensor):
            log.append(("pack", tensor))
            return tensor * 10  # _saved_self must give what unpack makes of it

        raw.register_hooks(pack, lambda packed: packed / 5)
        log.append(y.grad_fn._saved_self)  # unpacked: 2 * x
        try:
            raw.register_hooks(pack, lambda packed: packed)
        except RuntimeError as error:
            log.append(str(error))

    run_both(scenario)


def test_a_saved_input_changed_in_place_is_refused_by_name(run_both, leaf):
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        h = x * 1
        y = h * x  # saves h (for x's gradient) and x (for h's)
        log.append(y.grad_fn._saved_self)
        with L.no_grad():
            h.mul_(3)
        for read in (lambda: y.grad_fn._saved_self, lambda: y.sum().backward()):
            try:
                read()
            except RuntimeError as error:  # the hint after it is minigrad's own (docs/pytorch.md)
                log.append(str(error).split(" Hint:")[0].replace(L.__name__, "L"))

    run_both(scenario)


def test_roots_given_twice_or_reached_from_another_root_run_once(run_both, leaf):
    # backward() of several outputs: a root listed twice gets both seeds and runs once, and
    # a root that another root depends on waits for that root's gradient before it runs.
    def scenario(L, F, log):
        x = leaf(L, [1.0, 2.0])
        y = x * 2
        w = y.exp()  # older than z: runs after it
        z = y * 3
        for name, tensor in (("x", x), ("y", y), ("w", w), ("z", z)):
            tensor.register_hook(lambda grad, name=name: log.append((name, grad)))
        one, three = L.ones(2, dtype=L.float64), L.ones(2, dtype=L.float64) * 3
        L.autograd.backward([y, z, w, z, y], [one, one, one, three, three])
        log.append(x.grad)
        a, b = x[0], x[1]
        a.register_hook(lambda grad: log.append(("a", grad)))
        L.autograd.backward([b, a, a * 3])
        log.append(x.grad)

    log = run_both(scenario)
    assert [name for name, _ in log[:4]] == ["z", "w", "y", "x"]  # y waits for z and w
