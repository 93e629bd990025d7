"""Drawings of real models: parameters named from the model (``model=net``), and a full
training step of a small MLP on a batch that the stepper steps through to the end."""

from __future__ import annotations

import json
import re

import ipywidgets
import pytest

import minigrad as mg
import minigrad.nn as nn
import widgets
from widgets import BackwardStepper
from widgets._browser import GraphvizEngine


class MLP(nn.Module):
    """2 inputs, two hidden layers of 16, one output."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 16)
        self.fc3 = nn.Linear(16, 1)

    def forward(self, x: mg.Tensor) -> mg.Tensor:
        return self.fc3(mg.tanh(self.fc2(mg.tanh(self.fc1(x)))))


def batch_loss(net: MLP, size: int = 8) -> mg.Tensor:
    mg.manual_seed(0)
    inputs = mg.randn(size, 2)
    targets = mg.randn(size, 1)
    return ((net(inputs) - targets) ** 2).mean()


def titles(source: str) -> list[str]:
    """The first line of every box's label."""
    return re.findall(r'label="([^"\\]*)', source)


def test_draw_names_the_parameters_of_the_model_passed():
    mg.manual_seed(1)
    net = MLP()
    loss = batch_loss(net)
    plain = titles(widgets.draw(loss).source)
    named = titles(widgets.draw(loss, model=net).source)
    # Without the model every parameter is a nameless leaf; with it, each has its name.
    assert plain.count("leaf (leaf)") == 6
    assert "leaf (leaf)" not in named
    expected = [f"fc{i}.{kind} (leaf)" for i in (1, 2, 3) for kind in ("weight", "bias")]
    assert sorted(t for t in named if t.endswith("(leaf)")) == sorted(expected)


def test_names_given_by_hand_win_over_the_model_and_a_non_module_is_refused():
    net = MLP()
    loss = batch_loss(net)
    source = widgets.draw(loss, model=net, names={"W1": net.fc1.weight}).source
    assert "W1 (leaf)" in titles(source) and "fc1.weight (leaf)" not in titles(source)
    with pytest.raises(TypeError, match="model must be a module with named_parameters"):
        widgets.draw(loss, model=[net.fc1.weight])


def test_a_full_step_of_a_2_16_16_1_mlp_on_a_batch_can_be_stepped_to_the_end():
    mg.manual_seed(2)
    net = MLP()
    loss = batch_loss(net)
    stepper = BackwardStepper(loss, model=net, names={"loss": loss})
    assert repr(stepper).startswith("BackwardStepper(loss: ")
    box_titles = {box.title for box in stepper.graph.nodes.values()}
    assert {"fc1.weight", "fc3.bias"} <= box_titles
    # The picture and its frames are made; then every step is shown, to the end.
    assert stepper.dot.startswith("digraph") and len(stepper.frames) == stepper.num_steps + 1
    while stepper.position < stepper.num_steps:
        stepper.step()
    assert stepper.position == stepper.num_steps and stepper.num_steps > 15
    accumulated = [step for step in stepper.steps if step.leaf is not None]
    assert len(accumulated) == 6
    # The gradients are the engine's, as after loss.backward(): compare with a fresh pass.
    grads = {name: p.grad.numpy().copy() for name, p in net.named_parameters()}
    net.zero_grad()
    batch_loss(net).backward()
    for name, p in net.named_parameters():
        assert (p.grad.numpy() == grads[name]).all(), name
    # The panels speak of the parameters by their names.
    assert sum("<code>fc1.weight.grad += gradient</code>" in frame for frame in stepper.frames) == 1


def chain(steps: int) -> mg.Tensor:
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(steps):
        y = y * 1.001
    return y


def stored_bytes(stepper: BackwardStepper) -> int:
    """What a notebook stores for the stepper: the JSON state of every widget in it (the
    shared Graphviz engine left out: the same 620 KB for every drawing of the kernel)."""
    seen: dict[str, ipywidgets.Widget] = {}
    todo: list[ipywidgets.Widget] = [stepper]
    while todo:
        widget = todo.pop()
        if widget.model_id in seen or isinstance(widget, GraphvizEngine):
            continue
        seen[widget.model_id] = widget
        for key in widget.keys:  # the synced traits, children and layouts among them
            value = getattr(widget, key)
            values = value if isinstance(value, (list, tuple)) else [value]
            todo += [v for v in values if isinstance(v, ipywidgets.Widget)]
    states = [widget.get_state() for widget in seen.values()]
    return len(json.dumps(states, default=lambda w: f"IPY_MODEL_{w.model_id}"))


def test_the_stored_size_of_a_stepper_grows_linearly_with_its_graph():
    sizes = {n: stored_bytes(BackwardStepper(chain(n // 2), max_nodes=10_000)) for n in (200, 400)}
    # Twice the graph: twice the frames, pictures and texts; never four times.
    assert sizes[400] / sizes[200] < 2.3, sizes
    assert sizes[400] > 1.5 * sizes[200], sizes  # the measure does see the graph
