"""widgets.BackwardStepper: its states replay the engine's steps, and end where backward() does."""

import random
import re

import numpy as np
import pytest
from graphviz.backend import execute

import minigrad as mg
from minigrad.function import AccumulateGrad
from widgets import BackwardStepper
from widgets._svg import node_positions

pytestmark = [
    pytest.mark.graphviz,
    pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True"),
]


def reused_leaf():
    """y = x*w + x: the leaf x is reached along two paths."""
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    return (x * w + x), (x, w)


def broadcast():
    """A (3,) vector plus a scalar bias: the bias's gradient is summed back to shape ()."""
    v = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor(0.5, requires_grad=True)
    return ((v * b + b) ** 2).sum(), (v, b)


def graph_nodes(output):
    """The graph nodes in a fixed order (breadth first through next_functions)."""
    order, queue, seen = [], [output.grad_fn], set()
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions)
    return order


@pytest.mark.parametrize("make", [reused_leaf, broadcast])
@pytest.mark.parametrize("retain_graph", [False, True])
def test_run_leaves_everything_as_backward(make, retain_graph):
    y1, leaves1 = make()
    y2, leaves2 = make()
    stepper = BackwardStepper(y1, retain_graph=retain_graph)
    y2.backward(retain_graph=retain_graph)
    stepper.run()
    for a, b in zip(leaves1, leaves2):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())
    freed1 = [n.saved_tensors_freed() for n in graph_nodes(y1)]
    freed2 = [n.saved_tensors_freed() for n in graph_nodes(y2)]
    assert freed1 == freed2
    assert any(freed1) != retain_graph
    assert stepper.current.grad_after is not None


def test_reused_leaf_receives_two_contributions():
    y, (x, w) = reused_leaf()
    stepper = BackwardStepper(y, names={"x": x, "w": w, "y": y})
    positions = [i + 1 for i, s in enumerate(stepper.steps) if s.leaf is x]
    assert len(positions) == 1
    stepper.position = positions[0]
    step = stepper.current
    assert isinstance(step.node, AccumulateGrad) and step.leaf is x
    assert len(step.contributions) == 2
    total = sum(float(grad.item()) for _, grad in step.contributions)
    assert total == pytest.approx(float(step.grad_in.item()))
    assert step.grad_before is None and float(step.grad_after.item()) == float(x.grad.item())
    html = stepper.html
    assert "2 gradients arrive" in html and "They add up" in html
    assert 'class="node minigrad-updated-leaf"' in html
    assert html.count("minigrad-arriving-edge") == 2  # both paths into x light up
    assert "x.grad was None" in html


def test_broadcast_gradient_is_summed_to_the_bias_shape():
    y, (v, b) = broadcast()
    stepper = BackwardStepper(y, names={"v": v, "b": b})
    step_of_b = next(s for s in stepper.steps if s.leaf is b)
    assert step_of_b.grad_in.shape == b.shape == ()
    stepper.position = step_of_b.index + 1
    assert "AccumulateGrad for the leaf b" in stepper.html
    step_of_v = next(s for s in stepper.steps if s.leaf is v)
    assert step_of_v.grad_in.shape == (3,)


def test_double_backward_states():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    stepper = BackwardStepper(y, create_graph=True, names={"x": x, "y": y})
    assert stepper.retain_graph and stepper.create_graph
    assert x.grad.grad_fn is not None and float(x.grad.item()) == 12.0
    second = BackwardStepper(x.grad, names={"x": x}, originals=[y])
    assert second.num_steps >= 2
    second.run()
    assert float(second.current.grad_before.item()) == 12.0
    assert float(second.current.grad_in.item()) == 12.0
    assert float(x.grad.item()) == 24.0
    assert "<code>12.</code> + <code>12.</code>" in second.html
    assert second.graph.nodes["t0"].title == "x.grad"
    # Only the nodes backward made are derivative-coloured: not x's AccumulateGrad.
    derivative = {box.node.name() for box in second.graph.nodes.values() if box.derivative}
    assert "AccumulateGrad" not in derivative and "CopyBackwards" in derivative
    # The first step is x.grad's CopyBackwards: its input 0 is where the copy went.
    second.reset()
    second.step()
    assert second.current.node.name() == "CopyBackwards"
    assert "input 0: the tensor copied into, no gradient needed" in second.html


def test_positions_and_current():
    y, (x, w) = reused_leaf()
    stepper = BackwardStepper(y)
    assert (stepper.position, stepper.current) == (0, None)
    stepper.step()
    assert stepper.current is stepper.steps[0]
    assert stepper.current.node is y.grad_fn
    stepper.run()
    assert stepper.position == stepper.num_steps == len(stepper.steps)
    stepper.step()
    assert stepper.position == stepper.num_steps
    stepper.reset()
    stepper.back()
    assert stepper.position == 0
    with pytest.raises(ValueError):
        stepper.position = stepper.num_steps + 1


def test_back_after_step_restores_the_frame():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    for k in range(stepper.num_steps):
        stepper.position = k
        before = stepper.html
        stepper.step()
        assert stepper.html != before
        stepper.back()
        assert stepper.html == before


def test_every_frame_highlights_the_node_of_its_step():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    assert "minigrad-current-node" not in stepper.frames[0]
    for step, frame in zip(stepper.steps, stepper.frames[1:]):
        node_id = stepper.graph.id_of[step.node]
        assert f'id="mg-{node_id}" class="node minigrad-current-node"' in frame
        assert frame.count("minigrad-current-node") == 1
        assert f'data-node="{node_id}"' in frame
        assert 'class="minigrad-step-panel"' in frame
        assert step.node.name() in frame


def test_layout_is_computed_once(monkeypatch):
    calls = []
    real_run_check = execute.run_check

    def counting_run_check(cmd, *args, **kwargs):
        calls.append(cmd)
        return real_run_check(cmd, *args, **kwargs)

    monkeypatch.setattr(execute, "run_check", counting_run_check)
    y, _ = broadcast()
    stepper = BackwardStepper(y)
    assert len(calls) == 1 and "dot" in str(calls[0][0])
    positions = [node_positions(re.search(r"<svg.*</svg>", f, re.S)[0]) for f in stepper.frames]
    assert len(positions[0]) == len(stepper.graph.nodes)
    assert all(p == positions[0] for p in positions)


def test_frames_are_identical_across_runs():
    def frames():
        x = mg.tensor(2.0, requires_grad=True)
        return BackwardStepper(x * x + x, names={"x": x}).frames

    assert frames() == frames()


def test_widget_links_for_stepping_without_a_kernel():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    links = {(l.source[1], l.target[1]) for l in stepper._links}
    assert ("value", "selected_index") in links and ("value", "value") in links
    assert len(stepper._stack.children) == stepper.num_steps + 1
    stepper.step()
    assert stepper._stack.selected_index == stepper._play.value == 1
    assert repr(stepper).startswith("BackwardStepper(")


def test_random_control_sequences_stay_consistent():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    rng = random.Random(4)
    actions = [stepper.step, stepper.back, stepper.reset, stepper.run]
    for _ in range(1000):
        choice = rng.randrange(6)
        if choice < 4:
            actions[choice]()
        elif choice == 4:
            stepper._buttons[rng.choice(["reset", "back", "step", "run"])].click()
        else:
            stepper._slider.value = rng.randrange(stepper.num_steps + 1)  # as the browser does
        position = stepper.position
        assert 0 <= position <= stepper.num_steps
        assert stepper.current is (stepper.steps[position - 1] if position else None)
        assert stepper.html == stepper.frames[position]
        assert stepper._buttons["back"].disabled == (position == 0)
        assert stepper._buttons["step"].disabled == (position == stepper.num_steps)


def test_refuses_non_tensors_and_big_graphs():
    with pytest.raises(TypeError):
        BackwardStepper(3.0)
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100):
        y = y * 1.0
    with pytest.raises(ValueError, match="too many to step through"):
        BackwardStepper(y)
    assert x.grad is None  # refused before any gradient moved


def test_buttons_use_glyphs_every_font_has_and_the_page_says_they_need_a_kernel():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    labels = [button.description for button in stepper._buttons.values()]
    assert labels == ["◀◀ reset", "◀ back", "step ▶", "run ▶▶"]
    assert not any(ch in label for label in labels for ch in "⏮⏭")
    # The note is a child of the stepper itself, so every view shows it.
    assert stepper._note in stepper.children
    assert "need a running kernel" in stepper._note.value
    assert "minigrad-play" in stepper._play._dom_classes
    assert "i.fa-play::before" in stepper._note.value


def test_panel_names_the_value_of_a_constant_input():
    x = mg.tensor(2.0, requires_grad=True)
    stepper = BackwardStepper(x * 3, names={"x": x})
    stepper.step()  # MulBackward0
    assert "input 1: the constant <code>3</code>, no gradient needed" in stepper.html
