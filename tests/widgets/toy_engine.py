"""A toy scalar engine of a student's own, following ``widgets.protocol``, whose words are
chosen by the caller: the hostile-name tests give its ops (and their formulas) the names
they try. Shared by tests/widgets/test_hostile_names.py, which imports it, and
tests/browser/test_hostile_names_static.py, which runs this file's text in a notebook."""

import minigrad.graph


class Value:
    """A scalar: its value, the values it was made from, its op's name and local backward
    (the gradient arriving -> what each input receives), and its formula (the op's name
    unless given)."""

    def __init__(self, data, inputs=(), op="", local_backward=None, formula=None):
        self.data, self.grad, self.op = data, 0.0, op
        self.next_functions = tuple((value, 0) for value in inputs)
        self.local_backward = local_backward or (lambda grad: ())
        self.formula = op if formula is None else formula

    def name(self):
        return self.op

    def backward(self):
        """Every node once, output first, and the protocol's step records."""
        self.grad = 1.0
        steps = []
        for node in minigrad.graph.nodes([self]):
            grads_sent = node.local_backward(node.grad)
            for (value, _), grad in zip(node.next_functions, grads_sent):
                value.grad += grad
            steps.append((node, node.grad, grads_sent))
        return steps
