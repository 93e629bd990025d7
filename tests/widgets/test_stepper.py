"""widgets.BackwardStepper: its states replay the engine's steps, and end where backward() does.

The stepper shows one picture for the whole pass, and frame k is a stylesheet (plus a
panel) that colours the classes of steps 1..k and shows the texts written by then. The
helpers below read that markup as the browser's CSS does (tests/browser checks that the
browser really shows it so).
"""

import html
import json
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import minigrad as mg
from minigrad.function import AccumulateGrad, short_name
from widgets import BackwardStepper
from widgets._graph import full_value, short_value
from widgets._svg import style_at, text_copies

pytestmark = [
    pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True"),
]

SVG = "{http://www.w3.org/2000/svg}"


def picture_boxes(stepper) -> dict[str, ET.Element]:
    """The picture's boxes and arrows (<g> elements) by id, as the front end makes them
    from the DOT text: Graphviz gives each group the DOT ``class`` attribute as its class,
    and static/graphviz_view.js turns each line of a label into the <text> copies of
    ``stepper.text_copies`` (tests/browser checks the browser really draws them so)."""
    groups = {}
    for attributes in re.findall(r"^\t[\w -> ]+\[(.*\bid=.*)\]$", stepper.dot, flags=re.M):
        element_id = re.search(r'\bid="([\w-]+)"', attributes)[1]
        found = re.search(r'\bclass="([^"]*)"', attributes)
        group = ET.Element(f"{SVG}g", {"id": element_id, "class": found[1] if found else ""})
        for line in stepper.text_copies.get(element_id, []):
            for classes, hidden, words in line:
                text = ET.SubElement(group, f"{SVG}text", {"class": classes})
                if hidden:
                    text.set("display", "none")
                text.text = words
        groups[element_id] = group
    return groups


def step_of(element: ET.Element, name: str) -> int | None:
    """k in the class ``name-k`` of ``element``, if it has one."""
    found = [
        int(c.rsplit("-", 1)[1])
        for c in element.get("class", "").split()
        if c.startswith(name + "-")
    ]
    assert len(found) <= 1
    return found[0] if found else None


def shown_lines(group: ET.Element, position: int) -> list[str]:
    """The words a box or arrow shows in frame ``position``: each <text> is shown from its
    ``mg-from-k`` step (0 without one) until its ``mg-until-k`` step."""
    shown = []
    for text in group.iter(f"{SVG}text"):
        start = step_of(text, "mg-from") or 0
        end = step_of(text, "mg-until")
        # Before any frame's stylesheet, the picture shows only the texts of step 0.
        assert (text.get("display") == "none") == (start > 0)
        if start <= position and (end is None or position < end):
            shown.append(text.text or "")
    return shown


def rules(stepper, position: int) -> list[tuple[str, str]]:
    """The (selector, declarations) of the stepper's stylesheet as it acts at ``position``
    (its classes for the steps reached written out: ``widgets._svg.style_at``), its scope
    taken off."""
    style = style_at(stepper.picture_style, position)
    return [
        (selector.split(" ", 1)[1], declarations.strip())
        for selector, declarations in re.findall(r"([^{}]+?)\s*\{([^}]*)\}", style)
    ]


def rules_of(stepper) -> list[tuple[str, str]]:
    """The (selector, declarations) of the stepper's one stylesheet, as written."""
    return re.findall(r"([^{}]+?)\s*\{([^}]*)\}", stepper.picture_style)


def classes_in(selector: str) -> set[str]:
    return set(re.findall(r"\.(mg-[\w-]+)", selector))


def step_classes(stepper, position: int, declarations_contain: str, name: str) -> set[str]:
    """The classes ``name-k`` named by the rules at ``position`` whose declarations contain
    a text."""
    return {
        c
        for selector, declarations in rules(stepper, position)
        if declarations_contain in declarations
        for c in classes_in(selector)
        if c.startswith(name + "-")
    }


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
    boxes = picture_boxes(stepper)
    updated = [i for i, g in boxes.items() if step_of(g, "mg-leaf") == stepper.position]
    assert len(updated) == 1
    assert shown_lines(boxes[updated[0]], stepper.position)[0] == "x (leaf)"
    # Both paths into x light up: the two arrows the gradients came by.
    arriving = [i for i, g in boxes.items() if step_of(g, "mg-arrives") == stepper.position]
    assert len(arriving) == 2
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
    derivative = {short_name(box.node) for box in second.graph.nodes.values() if box.derivative}
    assert "AccumulateGrad" not in derivative and "CopyBackwards" in derivative
    # The first step is x.grad's CopyBackwards: its input 0 is where the copy went.
    second.reset()
    second.step()
    assert short_name(second.current.node) == "CopyBackwards"
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


def test_every_frame_lights_up_the_node_of_its_step():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    boxes = picture_boxes(stepper)
    assert rules(stepper, 0) == []  # frame 0 is the picture as drawn
    for step, frame in zip(stepper.steps, stepper.frames[1:]):
        k, node_id = step.index + 1, stepper.graph.id_of[step.node]
        # The one box of step k's node, and nothing else, is lit in red in frame k.
        assert [i for i, g in boxes.items() if step_of(g, "mg-ran") == k] == [f"mg-{node_id}"]
        assert step_classes(stepper, k, "stroke-width: 4px", "mg-ran") == {f"mg-ran-{k}"}
        # The boxes of steps 1..k-1 are done (green): exactly those.
        done = step_classes(stepper, k, "stroke-width: 2.5px", "mg-ran")
        assert done == {f"mg-ran-{j}" for j in range(1, k)}
        assert f'data-node="{node_id}"' in frame
        assert 'class="minigrad-step-panel"' in frame
        assert short_name(step.node) in frame


def test_arrows_carry_the_gradients_from_the_step_that_sends_them():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    graph, boxes = stepper.graph, picture_boxes(stepper)
    # From the engine's records: the gradient step s sends to input i of its node travels
    # back along the arrow (input's box -> node's box, input i).
    expected = {}
    for step in stepper.steps:
        head = graph.id_of[step.node]
        for i, ((child, _), grad) in enumerate(zip(step.node.next_functions, step.grads_out)):
            if child is not None and grad is not None:
                (edge,) = [
                    e
                    for e in graph.edges
                    if (e.tail, e.head, e.input_index) == (graph.id_of[child], head, i)
                ]
                expected[f"mg-{edge.id}"] = (step.index + 1, short_value(grad))
    assert expected
    for edge_id, (sent_at, text) in expected.items():
        arrow = boxes[edge_id]
        assert step_of(arrow, "mg-sent") == step_of(arrow, "mg-carries") == sent_at
        for k in range(stepper.num_steps + 1):
            assert shown_lines(arrow, k) == ([text] if k >= sent_at else [""])
        # Red in the frame of its step, green in every later frame.
        for k in range(len(stepper.frames)):
            assert (
                f"mg-sent-{sent_at}" in step_classes(stepper, k, "stroke-width: 3px", "mg-sent")
            ) == (k == sent_at)
            green = step_classes(stepper, k, "stroke-width: 1.6px", "mg-carries")
            assert (f"mg-carries-{sent_at}" in green) == (k >= sent_at)


@pytest.mark.parametrize("retain_first", [False, True])
def test_a_leafs_grad_text_is_the_engines_snapshot_at_every_frame(retain_first):
    y, (x, w) = reused_leaf()
    if retain_first:  # a second backward: the leaves start with a .grad
        y.backward(retain_graph=True)
    start = {"x (leaf)": x.grad, "w (leaf)": w.grad}
    start = {name: None if g is None else g.detach().clone() for name, g in start.items()}
    stepper = BackwardStepper(y, names={"x": x, "w": w})
    boxes = picture_boxes(stepper)
    leaves = {shown_lines(g, 0)[0]: g for g in boxes.values() if "(leaf)" in shown_lines(g, 0)[0]}
    assert set(leaves) == {"x (leaf)", "w (leaf)"}
    for k in range(stepper.num_steps + 1):
        for name, leaf in (("x (leaf)", x), ("w (leaf)", w)):
            # The engine's .grad after the last accumulation into this leaf at or before k.
            updates = [s for s in stepper.steps[:k] if s.leaf is leaf]
            grad = updates[-1].grad_after if updates else start[name]
            expected = "grad None" if grad is None else "grad " + short_value(grad)
            assert shown_lines(leaves[name], k)[-1] == expected
    assert shown_lines(leaves["x (leaf)"], stepper.num_steps)[-1] == "grad " + short_value(x.grad)


def test_an_op_box_shows_its_gradient_from_its_step_on():
    y, _ = broadcast()
    stepper = BackwardStepper(y)
    boxes = picture_boxes(stepper)
    for step in stepper.steps:
        if isinstance(step.node, AccumulateGrad):
            continue
        box = boxes[f"mg-{stepper.graph.id_of[step.node]}"]
        for k in range(stepper.num_steps + 1):
            last = shown_lines(box, k)[-1]
            assert last == ("grad " + short_value(step.grad_in) if k > step.index else "grad —")


def test_no_graphviz_program_is_run(monkeypatch):
    def no_programs(command, *args, **kwargs):
        raise AssertionError(f"the stepper ran {command}")

    monkeypatch.setattr(subprocess, "Popen", no_programs)
    monkeypatch.setenv("PATH", "/nonexistent")
    y, _ = broadcast()
    stepper = BackwardStepper(y)
    # One picture, every box in its DOT text, laid out in the browser; the frames are
    # stylesheets and panels, no pictures.
    assert stepper._picture.dot == stepper.dot
    assert stepper._picture.text_copies == stepper.text_copies
    assert {f"mg-{i}" for i in stepper.graph.nodes} <= set(picture_boxes(stepper))
    assert not any("<svg" in frame or "digraph" in frame for frame in stepper.frames)


def test_frames_are_identical_across_runs():
    def frames():
        x = mg.tensor(2.0, requires_grad=True)
        stepper = BackwardStepper(x * x + x, names={"x": x})
        # Each stepper's stylesheets name its own picture, by a number of its own.
        assert stepper.scope in stepper._picture._dom_classes
        selectors = [selector.strip() for selector, _ in rules_of(stepper)]
        assert selectors and all(s.startswith(f".{stepper.scope} ") for s in selectors)
        everything = [
            stepper.dot,
            json.dumps(stepper.text_copies),
            stepper.picture_style,
            *stepper.frames,
        ]
        return [part.replace(stepper.scope, "SCOPE") for part in everything], stepper.scope

    (first, scope1), (second, scope2) = frames(), frames()
    assert first == second and scope1 != scope2


def test_text_copies_refuse_a_timeline_that_does_not_start_before_the_first_step():
    with pytest.raises(ValueError, match="start at step 0"):
        text_copies({"a": [[(1, "one")]]})


def test_widget_links_for_stepping_without_a_kernel():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    links = {(l.source[1], l.target[1]) for l in stepper._links}
    assert ("value", "selected_index") in links and ("value", "value") in links
    assert len(stepper._stack.children) == stepper.num_steps + 1
    # The picture sits above the frames, outside the Stack: it is the same in every frame.
    assert stepper.children.index(stepper._picture) == stepper.children.index(stepper._stack) - 1
    assert stepper._picture.dot == stepper.dot
    stepper.step()
    assert stepper._stack.selected_index == stepper._play.value == 1
    assert repr(stepper).startswith("BackwardStepper(")


def test_random_control_sequences_stay_consistent():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    rng = random.Random(4)
    actions = [stepper.step, stepper.back, stepper.reset, stepper.run]
    for _ in range(1000):
        choice = rng.randrange(5)
        if choice < 4:
            actions[choice]()
        else:
            stepper._slider.value = rng.randrange(stepper.num_steps + 1)  # as the browser does
        position = stepper.position
        assert 0 <= position <= stepper.num_steps
        assert stepper.current is (stepper.steps[position - 1] if position else None)
        assert stepper.html == stepper.frames[position]


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


def test_buttons_move_the_slider_in_the_browser_with_glyphs_every_font_has():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    # The buttons are drawn by the browser and move the position slider there: the page
    # needs no kernel for them (tests/browser checks them in an export and in JupyterLab).
    assert stepper._buttons.slider_id == stepper._slider.model_id
    labels = [label for _, label, _ in stepper._buttons.buttons]
    assert labels == ["◀◀ reset", "◀ back", "step ▶", "run ▶▶"]
    assert not any(ch in label for label in labels for ch in "⏮⏭")
    # The help (and legend) is a child of the stepper itself, so every view shows it; no
    # control of the stepper needs a kernel, so it does not say one is needed.
    assert stepper._note in stepper.children
    assert "kernel" not in stepper._note.value
    assert "⇠" in stepper._note.value and "backward" in stepper._note.value
    assert "minigrad-play" in stepper._play._dom_classes
    assert "i.fa-play::before" in stepper._note.value


def test_panel_names_the_value_of_a_constant_input():
    x = mg.tensor(2.0, requires_grad=True)
    stepper = BackwardStepper(x * 3, names={"x": x})
    stepper.step()  # MulBackward0
    assert "input 1: the constant <code>3</code>, no gradient needed" in stepper.html


# -- the local derivative in numbers -----------------------------------------------------
def panel_text(stepper, position: int) -> str:
    """A frame's panel as plain text (tags removed)."""
    return html.unescape(re.sub(r"<[^>]+>", "", stepper.frames[position].split("</style>", 1)[-1]))


def node_step(stepper, name: str) -> int:
    return next(s.index + 1 for s in stepper.steps if s.node.name() == name)


def test_the_panel_works_the_local_derivative_out_in_numbers():
    a = mg.tensor(2.0, requires_grad=True)
    stepper = BackwardStepper(a**2, names={"a": a})
    text = panel_text(stepper, node_step(stepper, "PowBackward0"))
    assert "∂(aⁿ)/∂a = n·aⁿ⁻¹" in text  # the formula, as the op declares it
    assert "local derivative 2·a = 2·2 = 4" in text
    assert "sends 1 × 4 = 4" in text


SCALAR_OPS = {
    "AddBackward0": lambda a, b: a + b,
    "SubBackward0": lambda a, b: a.sub(b, alpha=2),
    "MulBackward0": lambda a, b: a * b,
    "DivBackward0": lambda a, b: a / b,
    "PowBackward0": lambda a, b: a**3,
    "PowBackward1": lambda a, b: a**b,
    "PowBackward2": lambda a, b: 2**a,
    "RsubBackward1": lambda a, b: 2 - a,
    "NegBackward0": lambda a, b: -a,
    "ExpBackward0": lambda a, b: a.exp(),
    "LogBackward0": lambda a, b: a.log(),
    "TanhBackward0": lambda a, b: a.tanh(),
    "SigmoidBackward0": lambda a, b: a.sigmoid(),
    "ReluBackward0": lambda a, b: (a - 3).relu(),
    "SumBackward0": lambda a, b: (a * mg.ones(3)).sum(),
    "MeanBackward0": lambda a, b: (a * mg.ones(4)).mean(),
}


@pytest.mark.parametrize("name", sorted(SCALAR_OPS))
def test_gradient_times_the_substituted_local_derivative_is_what_the_engine_sent(name):
    from widgets import _local

    a = mg.tensor(1.5, requires_grad=True)
    b = mg.tensor(-0.75, requires_grad=True)
    y = SCALAR_OPS[name](a, b)
    if y.ndim:
        y = y.sum()
    stepper = BackwardStepper(y, gradient=mg.tensor(0.5) if name != "ReluBackward0" else None)
    step = stepper.steps[node_step(stepper, name) - 1]
    locals_ = _local.local_derivatives(step.node, stepper.saved[step.node])
    assert locals_, name
    text = panel_text(stepper, step.index + 1)
    checked = 0
    for (child, _), local, sent in zip(step.node.next_functions, locals_, step.grads_out):
        if child is None or sent is None:
            continue
        # The substituted formula must evaluate to the factor that, times the gradient that
        # arrived, gives what the engine sent: a wrong formula in the table fails here.
        product = step.grad_in.numpy() * np.asarray(local.value)
        np.testing.assert_allclose(
            np.broadcast_to(product, sent.shape) if product.size == 1 else product,
            sent.numpy(),
            rtol=1e-5,
        )
        assert f"local derivative {local.text()}" in text
        assert f"= {_local.number(sent.numpy())}".replace("-", "−") in text
        checked += 1
    assert checked >= 1


def test_the_number_shown_as_sent_is_the_engines_record_never_a_product_made_here():
    a = mg.tensor(2.0, requires_grad=True)
    stepper = BackwardStepper(a**2, names={"a": a})
    k = node_step(stepper, "PowBackward0")
    step = stepper.steps[k - 1]
    # Tamper with the record: the panel must show the tampered number, not 1 × 4 = 4.
    step.grads_out = (mg.tensor(5.0),)
    from widgets.stepper import _Frames

    panel = _Frames(stepper).panel(k)
    assert "1 × 4 = 5" in re.sub(r"<[^>]+>", "", panel)


def test_tensor_ops_show_a_compact_form():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    stepper = BackwardStepper(x**2, gradient=mg.tensor([1.0, 0.5, 0.25]), names={"x": x})
    text = panel_text(stepper, 1)
    assert "2·a = 2·[1, 2, 3] = [2, 4, 6]" in text
    assert "[1, 0.5, 0.25] × [2, 4, 6] = [2, 2, 1.5]" in text
    total = mg.tensor([1.0, 2.0], requires_grad=True)
    text = panel_text(BackwardStepper(total.sum()), 1)
    assert "1 for every element" in text and "copied to every element of" in text


def test_matrix_products_name_their_formula_and_shapes():
    A = mg.ones(2, 3, requires_grad=True)
    B = mg.ones(3, 4, requires_grad=True)
    stepper = BackwardStepper((A @ B).sum(), names={"A": A, "B": B})
    text = panel_text(stepper, node_step(stepper, "MmBackward0"))
    assert "local derivative G@Bᵀ" in text and "Bᵀ of shape (4, 3)" in text
    assert "local derivative Aᵀ@G" in text


def test_an_op_the_table_does_not_know_shows_its_formula_and_the_records_value():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    stepper = BackwardStepper((x.sin()).sum(), names={"x": x})
    text = panel_text(stepper, node_step(stepper, "SinBackward0"))
    assert "∂sin a/∂a = cos a" in text
    sent = stepper.steps[node_step(stepper, "SinBackward0") - 1].grads_out[0]
    assert full_value(sent) in text


# -- boxes show their value as of the frame ------------------------------------------------
def test_a_grad_drawn_as_a_box_reads_its_value_as_of_each_frame():
    """Lesson 7: y.backward(create_graph=True), then step through x.grad.backward(), which
    adds f'' into x.grad in place: the x.grad box must read f' = 12 until that step."""
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    mg.engine.BackwardPass([y], create_graph=True).run()
    grad = x.grad
    stepper = BackwardStepper(grad, names={"x": x, "y": y, "x.grad": grad}, originals=[y])
    boxes = picture_boxes(stepper)
    box = next(g for g in boxes.values() if shown_lines(g, 0)[0] == "x.grad")
    accumulate = next(s.index + 1 for s in stepper.steps if s.leaf is x)
    for k in range(stepper.num_steps + 1):
        expected = "value 24." if k >= accumulate else "value 12."
        assert expected in shown_lines(box, k), (k, shown_lines(box, k))
    assert x.grad is grad and x.grad.item() == 24.0  # it was changed in place, as in PyTorch


# -- gradients drawn against the forward arrows --------------------------------------------
def test_arrows_with_a_gradient_show_the_backward_arrowhead_and_hide_the_forward_one():
    y, _ = reused_leaf()
    stepper = BackwardStepper(y)
    for k in range(1, stepper.num_steps + 1):
        frame_rules = rules(stepper, k)
        back = [s for s, d in frame_rules if "polygon.mg-back-head" in s and "display: inline" in d]
        hidden = [s for s, d in frame_rules if "polygon:not(.mg-back-head)" in s]
        assert len(back) == len(hidden) == 1
        assert classes_in(back[0]) - {"mg-back-head"} == {
            f"mg-carries-{j}" for j in range(1, k + 1)
        }
        # This step's arrows: red, the backward arrowhead too.
        red = [s for s, d in frame_rules if "mg-back-head" in s and "#D55E00" in d]
        assert classes_in(red[0]) - {"mg-back-head"} == {f"mg-sent-{k}", f"mg-arrives-{k}"}
    assert rules(stepper, 0) == []  # before the first step: forward arrows only
