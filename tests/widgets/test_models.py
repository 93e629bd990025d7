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
from widgets._fallback import box_count


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


class Net(nn.Module):
    """A body of two layers with their activations, and a head."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh())
        self.head = nn.Linear(16, 1)

    def forward(self, x: mg.Tensor) -> mg.Tensor:
        return self.head(self.body(x))


def arrows(drawing) -> list[str]:
    text = drawing.description.split("Arrows", 1)[1]
    return [line.strip() for line in text.splitlines()[1:]]


def test_draw_layers_draws_one_box_per_module_and_opens_one_level_at_a_time():
    mg.manual_seed(3)
    net = Net()
    inputs, targets = mg.randn(8, 2), mg.randn(8, 1)

    def loss():
        return ((net(inputs) - targets) ** 2).mean()

    top = widgets.draw_layers(net, loss)
    assert "body (Sequential) → head (Linear)" in arrows(top)
    assert "inputs (constant) → body (Sequential)" in arrows(top)
    assert "head (Linear) → SubBackward0" in arrows(top)
    shown = titles(top.source)
    assert "leaf (leaf)" not in shown and not any("AddmmBackward0" in t for t in shown)
    assert 'label="head (Linear)\\nweight (1, 16), bias (1,)"' in top.source
    # One level further: the body opens into its four layers, the head stays one box.
    opened = widgets.draw_layers(net, loss, depth=2)
    assert arrows(opened)[-6:-1] == [
        "head (Linear) → SubBackward0",
        "body.3 (Tanh) → head (Linear)",
        "body.2 (Linear) → body.3 (Tanh)",
        "body.1 (Tanh) → body.2 (Linear)",
        "body.0 (Linear) → body.1 (Tanh)",
    ]
    assert "body (Sequential)" not in opened.source
    # Each module's own forward is back in place, and the graph is the one a plain call
    # makes: the loss's gradients are as after loss().backward().
    assert all("forward" not in vars(module) for module in net.modules())
    loss().backward()
    assert net.body[0].weight.grad is not None


def test_a_training_step_of_a_small_mlp_draws_legibly_by_layers():
    net = MLP()
    drawing = widgets.draw_layers(net, lambda: batch_loss(net))
    # Some thirty boxes drawn op by op; by layers, fewer than a dozen.
    op_by_op = widgets.draw(batch_loss(net)).source
    assert box_count(op_by_op) > 25
    assert box_count(drawing.source) < 12
    assert {"fc1 (Linear)", "fc2 (Linear)", "fc3 (Linear)"} <= set(titles(drawing.source))


def test_draw_layers_refuses_bad_arguments_and_restores_the_model_when_run_fails():
    net = Net()
    with pytest.raises(ValueError, match="depth must be at least 1, got 0"):
        widgets.draw_layers(net, lambda: net(mg.ones(1, 2)).sum(), depth=0)
    with pytest.raises(TypeError, match="run\\(\\) must return a Tensor, got list"):
        widgets.draw_layers(net, lambda: [net(mg.ones(1, 2))])

    def broken():
        net(mg.ones(1, 3))  # the wrong number of features

    with pytest.raises(Exception):  # noqa: B017 (whatever the model raises)
        widgets.draw_layers(net, broken)
    assert all("forward" not in vars(module) for module in net.modules())


def boxes_when_open(layers: dict, open_modules: set[str]) -> set[str]:
    """The boxes the browser draws with ``open_modules`` open (the rule of
    ``static/graphviz_view.js``'s ``layersDot``, written again here to check it against
    ``draw_layers``): each unit as the first of its modules not open, or as itself."""
    return {
        next((module for module in modules if module not in open_modules), unit)
        for unit, modules in layers["units"]
    }


def test_draw_layers_gives_the_browser_every_level_to_open():
    mg.manual_seed(3)
    net = nn.Sequential(nn.Sequential(nn.Sequential(nn.Linear(2, 3), nn.Tanh()), nn.Linear(3, 1)))
    inputs = mg.randn(4, 2)

    def loss():
        return net(inputs).sum()

    drawings = {depth: widgets.draw_layers(net, loss, depth=depth) for depth in (1, 2, 3, 4)}
    layers = drawings[1].layers
    ids = {name: f"m{i}" for i, (name, _) in enumerate(net.named_modules()) if name}
    # Opening the modules (with children) above depth d draws what draw_layers(depth=d) draws.
    for depth, drawing in drawings.items():
        above = {ids[name] for name in ids if name.count(".") + 1 < depth}
        open_modules = above & set(layers["openable"])
        drawn = set(re.findall(r"^\t(\w+) \[label=", drawing.source, re.MULTILINE))
        assert boxes_when_open(layers, open_modules) == drawn, depth
        assert set(drawing.layers["open"]) == open_modules, depth
    # Only a module with children opens; each box's statement is the one Python wrote.
    assert layers["openable"] == sorted([ids["0"], ids["0.0"]])
    assert layers["open"] == []
    assert layers["boxes"][ids["0.0.0"]] in drawings[3].source
    assert 'label="0 (Sequential)' in layers["boxes"][ids["0"]]
    assert drawings[1].widget().layers == layers
