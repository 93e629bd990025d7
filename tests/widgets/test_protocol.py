"""widgets.protocol: an engine of one's own, drawn by widgets.draw and stepped by
widgets.BackwardStepper, which show the numbers that engine reports and compute none."""

import math
import re

import pytest

import minigrad as mg
import minigrad.graph
import widgets
from widgets.protocol import build_graph, is_node


class Value:
    """A toy scalar engine following the protocol: each op returns what it sends to each of
    its inputs, and backward() reports a (node, grad, grads_sent) triple per node."""

    # Ops make values of the class they are called on, so that subclasses below (broken on
    # purpose) build whole graphs of themselves.
    def __init__(self, data, inputs=(), op="", local_backward=None):
        self.data, self.grad, self.op = data, 0.0, op
        self.next_functions = tuple((value, 0) for value in inputs)
        self.local_backward = local_backward or (lambda grad: ())
        self.backward_calls = 0

    def name(self):
        return self.op

    def __add__(self, other):
        return type(self)(self.data + other.data, (self, other), "add", lambda g: (g, g))

    def __mul__(self, other):
        a, b = self.data, other.data
        return type(self)(a * b, (self, other), "mul", lambda g: (g * b, g * a))

    def tanh(self):
        t = math.tanh(self.data)
        return type(self)(t, (self,), "tanh", lambda g: (g * (1 - t * t),))

    def order(self):
        """Outputs first, by a depth-first search of our own (not minigrad's walk)."""
        seen, order = set(), []

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child, _ in node.next_functions:
                    visit(child)
                order.append(node)

        visit(self)
        return order[::-1]

    def backward(self):
        self.backward_calls += 1
        self.grad = 1.0
        steps = []
        for node in self.order():
            grads_sent = node.local_backward(node.grad)
            for (child, _), grad in zip(node.next_functions, grads_sent):
                child.grad += grad
            steps.append((node, node.grad, grads_sent))
        return steps


def example():
    x, w, b = Value(2.0), Value(-3.0), Value(1.0)
    a = x * w
    y = (a + b) * x
    return x, w, b, a, y


def labels(source: str) -> dict[str, str]:
    return dict(re.findall(r'^\t(\w+) \[label="?(.*?)"? color', source, flags=re.M))


def test_a_value_of_ones_own_engine_is_a_node_and_a_tensor_is_not():
    assert is_node(Value(1.0))
    assert not is_node(mg.tensor(1.0, requires_grad=True))
    assert not is_node(1.0)


def test_draw_shows_leaves_ops_and_output_named_after_the_callers_variables():
    x, w, b, a, y = example()
    source = widgets.draw(y).source
    boxes = labels(source)
    assert boxes["t0"] == "y (output)\\nscalar\\nvalue -10."
    assert "mul\\nmakes a = -6." in boxes.values()
    assert "x (leaf)\\nscalar\\nvalue 2.\\ngrad 0." in boxes.values()
    assert "b (leaf)\\nscalar\\nvalue 1.\\ngrad 0." in boxes.values()
    # One arrow per (input, use): x feeds two multiplications; plus the one into y.
    assert source.count("->") == 7
    # names= wins over the caller's variables.
    assert "bias (leaf)" in widgets.draw(y, names={"bias": b}).source


def test_the_graph_follows_next_functions_in_minigrads_walk_order():
    x, w, b, a, y = example()
    graph = build_graph([y], {}, max_nodes=200)
    assert list(graph.id_of) == minigrad.graph.nodes([y])
    arrows = {(e.tail, e.head, e.input_index) for e in graph.edges}
    for node, head in graph.id_of.items():
        for index, (child, _) in enumerate(node.next_functions):
            assert (graph.id_of[child], head, index) in arrows


def test_draw_elides_above_max_nodes():
    x = Value(0.5)
    y = x
    for _ in range(10):
        y = y.tanh()
    source = widgets.draw(y, max_nodes=4).source
    assert "7 more graph nodes not drawn (max_nodes=4)" in source


def test_the_stepper_runs_backward_once_and_keeps_the_engines_own_records():
    x, w, b, a, y = example()
    stepper = widgets.BackwardStepper(y)
    assert y.backward_calls == 1
    assert (x.grad, w.grad, b.grad) == (-3.0 * 2.0 + (-6.0 + 1.0), 4.0, 2.0)
    assert stepper.num_steps == 6  # one per node: 3 ops, 3 leaves
    assert [step.node for step in stepper.steps] == y.order()
    for step in stepper.steps:
        assert step.grad_in == step.node.grad  # what the engine reported, as it left it
    stepper.run()
    assert stepper.current.node is x and stepper.current.grad_in == x.grad


def test_contributions_are_what_earlier_steps_sent():
    x, w, b, a, y = example()
    stepper = widgets.BackwardStepper(y)
    first, *_, last = stepper.steps
    assert first.contributions == ((None, 1.0),)  # the seed
    assert last.node is x
    # x is used twice: by both multiplications, which each sent it a gradient.
    assert [sender.op for sender, _ in last.contributions] == ["mul", "mul"]
    assert sorted(grad for _, grad in last.contributions) == [-6.0, -5.0]
    assert last.leaf is x and last.grad_before == 0.0 and last.grad_after == -11.0


def test_the_widgets_show_what_a_wrong_engine_reports():
    """A multiplication that sends each input its own value (a classic slip): the stepper
    shows exactly the wrong numbers, since it computes none of its own."""

    class Wrong(Value):
        def __mul__(self, other):
            a, b = self.data, other.data
            return Wrong(a * b, (self, other), "mul", lambda g: (g * a, g * b))

    x, w = Wrong(2.0), Wrong(-3.0)
    y = x * w
    stepper = widgets.BackwardStepper(y)
    assert x.grad == 2.0 and w.grad == -3.0
    stepper.step()
    assert stepper.current.grads_out == (2.0, -3.0)
    assert "<code>2.0</code>" in stepper.html and "<code>-3.0</code>" in stepper.html


def test_frames_show_the_reported_numbers_on_boxes_arrows_and_panels():
    x, w, b, a, y = example()
    stepper = widgets.BackwardStepper(y)
    leaf_x = f"mg-{stepper.graph.id_of[x]}"
    texts = [words for line in stepper.text_copies[leaf_x] for _, _, words in line]
    assert "grad 0." in texts and "grad -11." in texts
    assert " -6. " in stepper.dot  # the gradient mul sends to x, on its arrow
    stepper.run()
    assert "A leaf: its grad is now <code>-11.0</code>" in stepper.html
    assert "the leaf x" in stepper.html
    stepper.position = 1
    assert "Step 1 of 6: mul, which made y" in stepper.html
    assert "Local derivative" not in stepper.html  # this engine gives no formula


def test_a_formula_when_the_engine_gives_one_and_a_generator_of_steps():
    class WithFormula(Value):
        formula = "grad * other, grad * self"

        def backward(self):
            yield from super().backward()

    y = WithFormula(2.0) * WithFormula(5.0)
    stepper = widgets.BackwardStepper(y)
    stepper.step()
    assert "Local derivative: <code>grad * other, grad * self</code>" in stepper.html


# ----------------------------------------------------------------------------- clear errors
class NoSteps(Value):
    def backward(self):
        super().backward()  # forgets to return the steps


def test_errors_when_backward_reports_no_steps():
    y = NoSteps(1.0) * NoSteps(2.0)
    with pytest.raises(
        TypeError, match=r"returned None: to be stepped it must return \(or yield\)"
    ):
        widgets.BackwardStepper(y)


@pytest.mark.parametrize(
    "change, error, message",
    [
        (lambda steps: [(n, g) for n, g, _ in steps], TypeError, "must be a triple"),
        (lambda steps: [(n, g, 1.0) for n, g, _ in steps], TypeError, "must be a triple"),
        (lambda steps: steps + steps[-1:], ValueError, "runs the leaf x a second time"),
        (lambda steps: [s for s in steps if s[0].op], ValueError, "no step for the leaf w"),
        (lambda steps: steps[::-1], ValueError, "must be the output's own node"),
        (
            lambda steps: [(n, g, s[:1]) for n, g, s in steps],
            ValueError,
            "has 2 inputs but sent 1 gradients",
        ),
        (
            lambda steps: [(Value(0.0), 1.0, ())] + steps,
            ValueError,
            "not in the output's graph",
        ),
    ],
)
def test_errors_when_the_steps_break_the_protocol(change, error, message):
    class Broken(Value):
        def backward(self):
            return change(super().backward())

    x, w = Broken(2.0), Broken(3.0)
    y = x * w
    with pytest.raises(error, match=message):
        widgets.BackwardStepper(y)


def test_errors_when_nodes_break_the_protocol():
    class Pairless(Value):
        def __init__(self, data, inputs=(), *args):
            super().__init__(data, inputs, *args)
            self.next_functions = tuple(inputs)  # the inputs themselves, not pairs

    y = Pairless(1.0) * Pairless(2.0)
    with pytest.raises(TypeError, match=r"each must be a pair \(input node or None"):
        widgets.draw(y)

    class Unhashable(Value):
        def __eq__(self, other):
            return self.data == other.data

    with pytest.raises(TypeError, match="not hashable"):
        widgets.draw(Unhashable(1.0) * Unhashable(2.0))

    class Nameless(Value):
        name = None

    with pytest.raises(TypeError, match="name must be a method"):
        widgets.draw(Nameless(1.0) * Nameless(2.0))

    y = Value(1.0) * Value(2.0)
    del y.next_functions[0][0].data
    with pytest.raises(TypeError, match="a Value in this graph has no 'data'"):
        widgets.draw(y)


def test_errors_for_what_is_neither_a_tensor_nor_a_node():
    with pytest.raises(TypeError, match="BackwardStepper needs a Tensor, got float"):
        widgets.BackwardStepper(1.0)
    with pytest.raises(TypeError, match="argument 0 is float, which has no next_functions"):
        widgets.draw(1.0)
    with pytest.raises(TypeError, match="argument 1 is Tensor"):
        widgets.draw(Value(1.0) * Value(2.0), mg.tensor(1.0, requires_grad=True))
    with pytest.raises(TypeError, match="a float is not a graph node"):
        minigrad.graph.nodes([Value(1.0, inputs=(2.0,))])
    y = Value(1.0) * Value(2.0)
    with pytest.raises(ValueError, match="are for minigrad tensors"):
        widgets.BackwardStepper(y, retain_graph=True)
    assert y.backward_calls == 0  # refused before running anything
