"""The backward engine: deep graphs, the step records, freeing, and no reference cycles."""

import warnings
import weakref

import numpy as np
import pytest

import minigrad as mg
from minigrad.engine import BackwardPass
from minigrad.function import FREED_GRAPH_MESSAGE


def test_a_chain_of_100_000_ops_backwards_without_recursion_error():
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = -y  # cheap op; an even number of negations gives back x
    y.backward()
    assert x.grad.item() == 1.0
    del y  # freeing the chain must not recurse either


def build_z():
    x = mg.tensor(2.0, requires_grad=True)
    y = mg.tensor(3.0, requires_grad=True)
    z = x * y + x**2
    return x, y, z


def test_steps_of_x_times_y_plus_x_squared():
    x, y, z = build_z()
    steps = list(BackwardPass([z], snapshot=True))
    names = [s.node.name() for s in steps]
    # PyTorch's order: the newest ready node first, leaves as soon as they are ready.
    assert (
        names
        == ["AddBackward0", "PowBackward0", "MulBackward0"]
        + ["minigrad::autograd::AccumulateGrad"] * 2
    )
    assert [s.index for s in steps] == list(range(5))
    add, power, mul, first_leaf, second_leaf = steps
    assert add.contributions[0][0] is None and add.contributions[0][1].item() == 1.0
    assert [g.item() for g in add.grads_out] == [1.0, 1.0]
    assert power.grads_out[0].item() == 4.0  # 2x
    assert [g.item() for g in mul.grads_out] == [3.0, 2.0]  # y, x
    leaves = {id(s.leaf): s for s in (first_leaf, second_leaf)}
    x_step, y_step = leaves[id(x)], leaves[id(y)]
    # x is used on two paths: two contributions that add up
    assert sorted(g.item() for _, g in x_step.contributions) == [3.0, 4.0]
    assert {sender.name() for sender, _ in x_step.contributions} == {"MulBackward0", "PowBackward0"}
    assert x_step.grad_in.item() == 7.0
    assert len(y_step.contributions) == 1 and y_step.grad_in.item() == 2.0
    assert x_step.grad_before is None and x_step.grad_after.item() == 7.0
    assert y_step.grad_after.item() == 2.0


def test_snapshots_are_copies_of_grad_before_and_after():
    x, y, z = build_z()
    x.grad = mg.tensor(10.0)
    steps = list(BackwardPass([z], snapshot=True))
    x_step = next(s for s in steps if s.leaf is x)
    assert x_step.grad_before.item() == 10.0 and x_step.grad_after.item() == 17.0
    with mg.no_grad():
        x.grad.zero_()
    assert x_step.grad_before.item() == 10.0 and x_step.grad_after.item() == 17.0


def test_backward_equals_running_the_pass():
    x1, y1, z1 = build_z()
    z1.backward()
    x2, y2, z2 = build_z()
    BackwardPass([z2]).run()
    assert (x1.grad.item(), y1.grad.item()) == (x2.grad.item(), y2.grad.item()) == (7.0, 2.0)


def test_a_pass_checks_everything_before_the_first_step():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        BackwardPass([x * 2])


def test_autograd_grad_mode_of_a_pass_touches_no_grad():
    x, y, z = build_z()
    captured = BackwardPass([z], inputs=[x]).run()
    assert captured[0].item() == 7.0
    assert x.grad is None and y.grad is None


def test_saved_tensors_are_released_after_backward():
    x = mg.tensor(2.0, requires_grad=True)
    h = x.exp()
    y = h * h
    node = y.grad_fn
    saved_h = weakref.ref(h)
    assert node._saved is not None
    del h
    assert saved_h() is not None  # the Mul node keeps its saved input alive ...
    y.backward()
    assert node._saved is None
    assert saved_h() is None  # ... and lets it go after backward
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph"):
        y.backward()
    with pytest.raises(RuntimeError) as error:
        _ = node.saved_tensors
    assert str(error.value) == FREED_GRAPH_MESSAGE


def test_retain_graph_keeps_saved_tensors(gc_disabled):
    x = mg.tensor(2.0, requires_grad=True)
    h = x.exp()
    y = h * h
    saved_h = weakref.ref(h)
    del h
    y.backward(retain_graph=True)
    assert saved_h() is not None and y.grad_fn._saved is not None
    y.backward()
    assert saved_h() is None
    assert x.grad.item() == pytest.approx(2 * 2 * x.detach().exp().item() ** 2, rel=1e-6)


def test_a_finished_graph_is_freed_without_the_garbage_collector(gc_disabled):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    v = h[0]
    y = (h * v).sum()
    refs = [weakref.ref(t) for t in (h, v, h.grad_fn, v.grad_fn, y.grad_fn)]
    y.backward()
    del h, v, y
    assert [r() for r in refs] == [None] * len(refs)


def test_an_unused_graph_is_freed_without_the_garbage_collector(gc_disabled):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x.tanh()  # saves its own result: no cycle between the node and its output
    y = (h * x).sum()
    refs = [weakref.ref(t) for t in (h, h.grad_fn, y.grad_fn)]
    del h, y
    assert [r() for r in refs] == [None] * len(refs)
    assert x._accumulator is None or x._accumulator() is None


def test_create_graph_cycle_is_broken_by_resetting_grad(gc_disabled):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    y = (h * h).sum()
    refs = [weakref.ref(h.grad_fn)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y.backward(create_graph=True)
    del h, y
    assert all(r() is not None for r in refs)  # x.grad's history holds h's node
    x.grad = None
    assert [r() for r in refs] == [None] * len(refs)


def test_autograd_grad_result_holds_the_graph_only_while_alive(gc_disabled):
    x = mg.tensor(2.0, requires_grad=True)
    h = x * x
    (g,) = mg.autograd.grad(h * x, x, create_graph=True)
    ref = weakref.ref(h.grad_fn)  # g = x·2x + x²: its graph goes through h's node
    del h
    assert ref() is not None
    del g
    assert ref() is None


# -- a leaf's first gradient: adopted when nobody else holds it, else copied -------------
@pytest.fixture
def ownership(monkeypatch):
    """Records, per leaf, the ``owned`` verdict the engine gave ``accumulate_into``."""
    from minigrad import engine

    verdicts = {}
    accumulate_into = engine.accumulate_into

    def spy(tensor, grad, create_graph, owned=False):
        verdicts[id(tensor)] = owned
        accumulate_into(tensor, grad, create_graph, owned)

    monkeypatch.setattr(engine, "accumulate_into", spy)
    return verdicts


def test_a_new_gradient_made_by_a_built_in_op_is_adopted(ownership):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    assert ownership[id(x)] is True
    assert x.grad.tolist() == [3.0, 3.0]


def test_a_gradient_sent_to_two_leaves_is_copied_for_each(ownership):
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([5.0, 6.0], requires_grad=True)
    (a + b).sum().backward()  # AddBackward0 sends one tensor to both inputs
    assert ownership == {id(a): False, id(b): False}
    a.grad.add_(10)
    assert b.grad.tolist() == [1.0, 1.0]


def test_a_gradient_a_users_function_keeps_is_copied(ownership):
    class KeepsItsGradient(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            KeepsItsGradient.kept = grad * 2
            return KeepsItsGradient.kept

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    KeepsItsGradient.apply(x).sum().backward()
    assert ownership[id(x)] is False
    KeepsItsGradient.kept.add_(100)
    assert x.grad.tolist() == [2.0, 2.0]


def test_a_gradient_a_hook_kept_is_copied(ownership):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    kept = []
    x.register_hook(kept.append)
    (x * 3).sum().backward()
    assert ownership[id(x)] is False
    kept[0].add_(100)
    assert x.grad.tolist() == [3.0, 3.0]


def test_a_gradient_a_node_hook_kept_is_copied(ownership):
    # The hook after a node sees what the node sends: a leaf must not adopt that tensor.
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    kept = []
    y.grad_fn.register_hook(lambda grads_sent, grads_received: kept.append(grads_sent))
    y.sum().backward()
    assert ownership[id(x)] is False
    kept[0][0].add_(100)
    assert x.grad.tolist() == [3.0, 3.0]


def test_a_leafs_gradients_summed_are_adopted_and_shared_with_nobody(ownership):
    # Three gradients reach w (one from w @ v, two from w * w): their sum is a new array.
    w = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = mg.tensor([[1.0], [1.0]], requires_grad=True)
    product, square = w @ v, w * w
    held = []  # what the user holds: the gradients the two nodes receive
    for node in (product.grad_fn, square.grad_fn):
        node.register_prehook(lambda grads: held.append(grads[0]))
    (product.sum() + square.sum()).backward()
    assert ownership == {id(w): True, id(v): True}  # v: one new gradient, from MmBackward0
    for grad in (w.grad, v.grad):
        others = [g for g in (w.grad, v.grad, *held) if g is not grad]
        assert not any(np.shares_memory(grad.numpy(), other.numpy()) for other in others)
    assert w.grad.tolist() == [[3.0, 5.0], [7.0, 9.0]]


def test_steps_taken_one_at_a_time_never_adopt(ownership):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    steps = list(BackwardPass([(x * 3).sum()]))
    assert ownership[id(x)] is False
    assert steps[-1].grad_after is x.grad


def test_each_step_says_whether_it_freed_saved_tensors():
    x = mg.tensor(2.0, requires_grad=True)
    released = {s.node.name(): s.released for s in BackwardPass([(x * x + 1).exp()])}
    assert released == {
        "ExpBackward0": True,
        "AddBackward0": False,  # an addition saves nothing
        "MulBackward0": True,
        "minigrad::autograd::AccumulateGrad": False,
    }
    x.grad = None
    kept = BackwardPass([(x * x).exp()], retain_graph=True)
    assert not any(step.released for step in kept)
