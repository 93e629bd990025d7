"""Set 02's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/02_computation_graph. Its answers are names, counts and
sets, which numbers do not change: a class gets other code instead (``WORDS``), and its
key is what the solutions, which compute their answers from that code, give.
"""


def _other_function(template: str, node: str, functions: dict[str, str]) -> list[dict]:
    """One alternative per function of ``functions`` (its name: its node's name): the
    template's function ``template`` replaced by it, and its node ``node`` too, where a
    typical wrong answer writes it."""
    return [{template: name, node: their_node} for name, their_node in functions.items()]


# Functions of one tensor that lesson 2's readers know, with the names of their nodes.
FUNCTIONS = {
    "sin": "SinBackward0",
    "cos": "CosBackward0",
    "exp": "ExpBackward0",
    "tanh": "TanhBackward0",
    "sigmoid": "SigmoidBackward0",
    "log": "LogBackward0",
}

# Per exercise, groups of alternatives: a class gets one alternative of each group, a
# table {fragment of the template: what the class's code says instead}, applied to whole
# tokens of the exercise's statement, code, checks' names and hints, and typical wrong
# answers. A group never holds the template's own words, unless as {}.
WORDS = {
    # Exercise 1: the function applied last, whose node z.grad_fn is.
    "ex1": [
        _other_function("sin", "SinBackward0", {f: n for f, n in FUNCTIONS.items() if f != "sin"})
    ],
    # Exercise 2: a still appears twice (the common mistake counts 4 uses), but a detach()
    # leaves a tensor without an AccumulateGrad node, or two: 2 or 1 nodes, not 3.
    "ex2": [
        [
            {"(a * b + c) * a": "(a * b + c.detach()) * a"},
            {"(a * b + c) * a": "(a * b.detach() + c) * a"},
            {"(a * b + c) * a": "(a * c + b.detach()) * a"},
            {"(a * b + c) * a": "(a + b.detach()) * (c.detach() + a)"},
        ]
    ],
    # Exercise 3: one line of the code changes, so that the leaves are other ones: e is
    # recorded ({x, c, d}), y is not ({x, c, y, d, e}), or c is recorded ({x, d, e}).
    "ex3": [
        [
            {"e = d * 2": "e = d * x"},
            {"e = d * 2": "e = d * y"},
            {"y = x * c": "y = c * 3"},
            {"y = x * c": "y = x.detach() * c"},
            {"c = mg.tensor(2.0)": "c = x * 2.0"},
        ]
    ],
    # Exercise 4: another function than exp() on the recorded side.
    "ex4": [
        _other_function("exp", "ExpBackward0", {f: n for f, n in FUNCTIONS.items() if f != "exp"})
    ],
}
