"""BackwardStepper(..., yours=...): a hand-written backward pass beside the engine's, node by node.

The stepper compares each of the student's gradients with the engine's step record for that
tensor. These tests check its verdicts against a direct comparison with the ``.grad`` that
``retain_grad()`` keeps, that a wrong gradient is flagged at exactly its own node (in the
panel, the box's text and the frame's fill), and that bad input is refused before any
gradient moves.
"""

import html as html_module
import re

import numpy as np
import pytest

import minigrad as mg
from minigrad.function import AccumulateGrad
from widgets import BackwardStepper
from widgets._graph import full_value
from widgets._svg import style_at
from widgets.stepper import AGREE_FILL, DIFFER_FILL, YOURS_LEGEND_CLASS

B, HIDDEN, CLASSES = 4, 3, 3


def network(seed: int):
    """A small classifier, every intermediate tensor named and retained: 2 inputs, a tanh
    layer, softmax cross-entropy over 3 classes on a batch of 4, in float64."""
    rng = np.random.default_rng(seed)
    X = mg.tensor(rng.normal(size=(B, 2)))
    labels = mg.tensor(rng.integers(0, CLASSES, size=B))
    params = {
        "W1": mg.tensor(rng.normal(size=(2, HIDDEN)), requires_grad=True),
        "b1": mg.tensor(rng.normal(size=HIDDEN), requires_grad=True),
        "W2": mg.tensor(rng.normal(size=(HIDDEN, CLASSES)), requires_grad=True),
        "b2": mg.tensor(rng.normal(size=CLASSES), requires_grad=True),
    }
    t = dict(params)
    t["z1"] = X @ t["W1"]
    t["a1"] = t["z1"] + t["b1"]
    t["h"] = t["a1"].tanh()
    t["z2"] = t["h"] @ t["W2"]
    t["logits"] = t["z2"] + t["b2"]
    t["counts"] = t["logits"].exp()
    t["total"] = t["counts"].sum(1, keepdim=True)
    t["probs"] = t["counts"] / t["total"]
    t["picked"] = t["probs"][range(B), labels]
    t["logp"] = t["picked"].log()
    t["loss"] = -t["logp"].mean()
    for name, tensor in t.items():
        if name not in params:
            tensor.retain_grad()
    return t, X.numpy(), labels.numpy()


def by_hand(t, X, labels):
    """The backward pass of ``network`` written out with numpy: the chain rule, one tensor
    at a time, as a student would (no engine involved)."""
    v = {name: tensor.detach().numpy() for name, tensor in t.items()}
    g = {"loss": np.array(1.0)}
    g["logp"] = -np.ones(B) / B
    g["picked"] = g["logp"] / v["picked"]
    g["probs"] = np.zeros((B, CLASSES))
    g["probs"][np.arange(B), labels] = g["picked"]
    g["total"] = (-v["counts"] / v["total"] ** 2 * g["probs"]).sum(1, keepdims=True)
    g["counts"] = g["probs"] / v["total"] + g["total"]
    g["logits"] = g["counts"] * v["counts"]
    g["z2"], g["b2"] = g["logits"], g["logits"].sum(0)
    g["h"], g["W2"] = g["z2"] @ v["W2"].T, v["h"].T @ g["z2"]
    g["a1"] = g["h"] * (1 - v["h"] ** 2)
    g["z1"], g["b1"] = g["a1"], g["a1"].sum(0)
    g["W1"] = X.T @ g["z1"]
    return g


def expected_verdict(yours: np.ndarray, grad: np.ndarray, rtol=1e-05, atol=1e-08) -> str:
    if np.array_equal(yours, grad):
        return "exact"
    return "close" if np.allclose(yours, grad, rtol=rtol, atol=atol) else "differs"


def box_classes(stepper) -> dict[str, set[str]]:
    """The classes of each box and arrow of the picture, read from its DOT text."""
    found = {}
    for attributes in re.findall(r"^\t[\w -> ]+\[(.*\bid=.*)\]$", stepper.dot, flags=re.M):
        element_id = re.search(r'\bid="([\w-]+)"', attributes)[1]
        classes = re.search(r'\bclass="([^"]*)"', attributes)
        found[element_id] = set(classes[1].split()) if classes else set()
    return found


def shown_lines(stepper, element_id: str, position: int) -> list[str]:
    """The words a box shows in frame ``position`` (each text copy is shown from its
    ``mg-from-k`` step until its ``mg-until-k`` step)."""
    shown = []
    for line in stepper.text_copies[element_id]:
        for classes, _, words in line:
            start = re.search(r"mg-from-(\d+)", classes)
            end = re.search(r"mg-until-(\d+)", classes)
            if (int(start[1]) if start else 0) <= position and (
                end is None or position < int(end[1])
            ):
                shown.append(words)
    return shown


def marked_box(stepper, check) -> str:
    """The id of the box that shows a check: the leaf's own box, or the node that made the
    tensor."""
    node = check.node
    if isinstance(node, AccumulateGrad):
        (box,) = [b.id for b in stepper.graph.nodes.values() if b.tensor is node.variable]
        return box
    return stepper.graph.id_of[node]


def fill_rules(stepper, position: int, fill: str) -> set[str]:
    """The classes the stepper's stylesheet fills with ``fill`` at ``position`` (its classes
    for the steps reached written out: ``widgets._svg.style_at``)."""
    style = style_at(stepper.picture_style, position)
    return {
        c
        for selector, body in re.findall(r"([^{}]+?)\s*\{([^}]*)\}", style)
        if f"fill: {fill}" in body and "polygon.mg-back-head" not in selector
        for c in re.findall(r"\.(mg-(?:agrees|differs)-\d+)", selector)
    }


# --------------------------------------------------------------------------- the verdicts
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_verdicts_match_a_direct_comparison_with_retained_grads(seed):
    t, X, labels = network(seed)
    hand = by_hand(t, X, labels)
    # One exact copy of the rounding, one far off, and the rest as the hand pass made them.
    hand["z2"] = hand["z2"] * (1 + 1e-9)
    hand["W1"] = hand["W1"] + 0.5
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    assert list(stepper.checks) == sorted(hand, key=lambda n: stepper.checks[n].position)
    assert set(stepper.checks) == set(hand)
    for name, check in stepper.checks.items():
        grad = t[name].grad.numpy()  # after the stepper's pass: retain_grad's or the leaf's
        np.testing.assert_array_equal(check.engine.numpy(), grad)
        assert check.verdict == expected_verdict(hand[name], grad), name
        assert check.largest_difference == np.abs(hand[name] - grad).max()
    assert stepper.checks["W1"].verdict == "differs"
    assert stepper.checks["z2"].verdict == "close"
    assert stepper.checks["loss"].verdict == "exact"


def test_the_tolerance_is_the_one_given():
    t, X, labels = network(3)
    hand = by_hand(t, X, labels)
    hand["h"] = hand["h"] * (1 + 1e-7)  # within rtol=1e-05, not within rtol=1e-09
    loose = BackwardStepper(t["loss"], names=t, yours={"h": hand["h"]})
    t, _, _ = network(3)
    strict = BackwardStepper(t["loss"], names=t, yours={"h": hand["h"]}, rtol=1e-9, atol=0.0)
    assert loose.checks["h"].verdict == "close"
    assert strict.checks["h"].verdict == "differs"
    assert expected_verdict(hand["h"], t["h"].grad.numpy(), rtol=1e-9, atol=0.0) == "differs"
    strict.position = strict.checks["h"].position
    assert "rtol=1e-09, atol=0" in strict.html


@pytest.mark.parametrize(
    "wrong", ["loss", "logp", "probs", "total", "logits", "b2", "W2", "h", "a1", "b1", "W1"]
)
def test_a_wrong_gradient_is_flagged_at_exactly_its_node(wrong):
    t, X, labels = network(4)
    hand = by_hand(t, X, labels)
    hand[wrong] = hand[wrong].copy()
    index = (0,) * hand[wrong].ndim
    hand[wrong][index] += 0.25
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    differing = [name for name, check in stepper.checks.items() if check.verdict == "differs"]
    assert differing == [wrong]
    check = stepper.checks[wrong]
    assert check.where == index
    assert check.largest_difference == pytest.approx(0.25)
    # Its step is the one that receives the tensor's gradient.
    step = stepper.steps[check.position - 1]
    if t[wrong].grad_fn is not None:
        assert step.node is t[wrong].grad_fn
    else:
        assert isinstance(step.node, AccumulateGrad) and step.node.variable is t[wrong]
    box = marked_box(stepper, check)
    classes = box_classes(stepper)
    assert f"mg-differs-{check.position}" in classes[f"mg-{box}"]
    assert [b for b, c in classes.items() if any(x.startswith("mg-differs-") for x in c)] == [
        f"mg-{box}"
    ]
    # The box says so from its step on, not before; the frame fills it vermillion.
    assert shown_lines(stepper, f"mg-{box}", check.position - 1)[-1] == "yours —"
    assert shown_lines(stepper, f"mg-{box}", check.position)[-1] == "yours ✘ differs"
    assert shown_lines(stepper, f"mg-{box}", stepper.num_steps)[-1] == "yours ✘ differs"
    before, at = check.position - 1, check.position
    assert f"mg-differs-{check.position}" not in fill_rules(stepper, before, DIFFER_FILL)
    assert f"mg-differs-{check.position}" in fill_rules(stepper, at, DIFFER_FILL)
    # The panel of that step, and only that one, shows the two side by side and says ✘.
    stepper.position = check.position
    # The key is shown as typed; in the HTML its quotes are escaped like any other text.
    shown_key = html_module.escape(f"yours[{wrong!r}]")
    assert "✘ different" in stepper.html and shown_key in stepper.html
    assert "Every gradient of yours compared before this one agrees" in stepper.html or (
        check.position == min(c.position for c in stepper.checks.values())
    )
    others = [k for k in range(stepper.num_steps + 1) if k != check.position]
    assert all("✘ different" not in stepper.frames[k] for k in others)


def test_agreeing_boxes_are_filled_green_from_their_step_on():
    t, X, labels = network(5)
    hand = by_hand(t, X, labels)
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    assert all(check.agrees for check in stepper.checks.values())
    for check in stepper.checks.values():
        mark = f"mg-agrees-{check.position}"
        box = f"mg-{marked_box(stepper, check)}"
        assert mark in box_classes(stepper)[box]
        assert mark not in fill_rules(stepper, check.position - 1, AGREE_FILL)
        assert all(
            mark in fill_rules(stepper, k, AGREE_FILL)
            for k in range(check.position, stepper.num_steps + 1)
        )
        symbol = {"exact": "✔ same", "close": "≈ close"}[check.verdict]
        assert shown_lines(stepper, box, check.position)[-1] == f"yours {symbol}"
    stepper.run()
    assert f"{len(hand)} of {len(hand)} agree" in stepper.html


def test_a_mistake_upstream_is_named_at_the_nodes_it_spoils():
    """A wrong gradient for h spoils a1, z1, b1 and W1 computed from it: the first ✘ in step
    order is the mistake, and the later ones point back at it."""
    t, X, labels = network(6)
    v = {name: tensor.detach().numpy() for name, tensor in t.items()}
    hand = by_hand(t, X, labels)
    hand["h"] = hand["h"] * 2
    hand["a1"] = hand["h"] * (1 - v["h"] ** 2)
    hand["b1"], hand["W1"] = hand["a1"].sum(0), X.T @ hand["a1"]
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    differing = [n for n, c in stepper.checks.items() if c.verdict == "differs"]
    assert differing == ["h", "a1", "b1", "W1"]
    stepper.position = stepper.checks["h"].position
    assert "Every gradient of yours compared before this one agrees" in stepper.html
    stepper.position = stepper.checks["b1"].position
    assert "Your gradient for h, compared earlier, differs too" in stepper.html


# --------------------------------------------------------------------------- what it shows
def test_the_panel_shows_both_gradients_and_the_legend_explains_the_marks():
    t, X, labels = network(7)
    hand = by_hand(t, X, labels)
    stepper = BackwardStepper(t["loss"], names=t, yours={"b2": hand["b2"]})
    check = stepper.checks["b2"]
    stepper.position = check.position
    html = stepper.html
    assert "Your gradient for <code>b2</code> beside the engine's" in html
    engine_text = html_module.escape(full_value(check.engine), quote=False)
    assert html.count(engine_text) >= 2  # the gradient that arrived, and beside yours
    assert html_module.escape(full_value(check.yours), quote=False) in html
    note = stepper._note.value
    assert YOURS_LEGEND_CLASS in note and "✔ same" in note and "✘ differs" in note
    assert "rtol=1e-05, atol=1e-08" in note
    plain = BackwardStepper(network(7)[0]["loss"])
    assert YOURS_LEGEND_CLASS not in plain._note.value and plain.checks == {}


def test_viewers_without_widgets_read_the_verdicts_too():
    t, X, labels = network(8)
    hand = by_hand(t, X, labels)
    hand["b1"] = hand["b1"] / B
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    summary, end_dot = stepper._fallback
    assert "yours ✘ differs for b1 (largest difference" in summary
    assert summary.count("yours ✘") == 1
    assert f'fillcolor="{DIFFER_FILL}"' in end_dot and "yours ✘ differs" in end_dot


def test_names_reach_the_panel_escaped():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (h**2).sum()
    tricky = "<i>h</i>&"
    stepper = BackwardStepper(y, names={tricky: h}, yours={tricky: 2 * h.detach()})
    stepper.run()
    everything = "".join(stepper.frames)
    assert "<i>h</i>" not in everything
    assert "&lt;i&gt;h&lt;/i&gt;&amp;" in everything


def test_yours_may_be_numpy_arrays_and_leaves_the_pass_as_backward():
    t, X, labels = network(9)
    hand = by_hand(t, X, labels)
    twin, _, _ = network(9)
    twin["loss"].backward()
    stepper = BackwardStepper(t["loss"], names=t, yours=hand)
    for name in ("W1", "b1", "W2", "b2"):
        np.testing.assert_array_equal(t[name].grad.numpy(), twin[name].grad.numpy())
    assert stepper.checks["W1"].yours.dtype == mg.float64


# --------------------------------------------------------------------------- bad input
def untouched(t) -> bool:
    return all(t[name].grad is None for name in ("W1", "b1", "W2", "b2"))


def test_a_gradient_of_the_wrong_shape_is_refused_before_the_pass():
    t, X, labels = network(10)
    hand = by_hand(t, X, labels)
    hand["b1"] = hand["a1"]  # forgot to sum over the batch
    with pytest.raises(ValueError) as error:
        BackwardStepper(t["loss"], names=t, yours=hand)
    assert str(error.value) == (
        "yours['b1'] has shape (4, 3), but b1 has shape (3,): a gradient has the shape of "
        "its tensor"
    )
    assert untouched(t)
    t["loss"].backward()  # the graph was not freed either


def test_a_name_the_graph_does_not_know_is_refused():
    t, X, labels = network(11)
    with pytest.raises(ValueError, match="no tensor of this graph goes by that name") as error:
        BackwardStepper(t["loss"], names=t, yours={"hidden": np.zeros((B, HIDDEN))})
    message = str(error.value)
    assert "'hidden'" in message and "W1, W2, a1, b1" in message
    assert untouched(t)


def test_a_name_for_a_tensor_without_gradient_or_outside_the_graph_is_refused():
    t, X, labels = network(12)
    inputs = mg.tensor(X)
    other = mg.tensor([1.0], requires_grad=True) * 2
    names = {**t, "X": inputs, "other": other}
    with pytest.raises(ValueError, match="X does not require grad"):
        BackwardStepper(t["loss"], names=names, yours={"X": X})
    with pytest.raises(ValueError, match="other is not in the graph"):
        BackwardStepper(t["loss"], names=names, yours={"other": np.zeros(1)})
    assert untouched(t)


@pytest.mark.parametrize("value", ["0.5", [[1.0]], None])
def test_a_gradient_that_is_not_numbers_is_refused(value):
    t, _, _ = network(13)
    with pytest.raises(TypeError, match=r"yours\['b2'\] must be a Tensor"):
        BackwardStepper(t["loss"], names=t, yours={"b2": value})


def test_yours_must_be_a_mapping_by_name():
    t, _, _ = network(14)
    with pytest.raises(TypeError, match="yours must map a tensor's name"):
        BackwardStepper(t["loss"], names=t, yours=[np.zeros(3)])
    with pytest.raises(TypeError, match="keyed by the tensors' names"):
        BackwardStepper(t["loss"], names=t, yours={t["b2"]: np.zeros(3)})


def test_an_engine_of_ones_own_takes_no_yours():
    class Leaf:
        next_functions = ()
        data, grad = 1.0, 0.0

        def name(self):
            return "leaf"

        def backward(self):
            self.grad = 1.0
            return [(self, 1.0, ())]

    with pytest.raises(ValueError, match="yours and model are for minigrad tensors"):
        BackwardStepper(Leaf(), yours={"x": 1.0})
