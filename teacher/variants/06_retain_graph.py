"""Set 06's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/06_retain_graph: its numbers are the defaults. Exercises 1
and 2 ask which backward() fails, a choice that numbers do not change: a class gets other
code instead (``WORDS``), and its key is what the solutions, which run that code, give.
"""

# Halves from -2.5 to 2.5, but not 0 (where J and its transpose would agree): the x of
# exercise 3's given cell.
HALVES = [n / 2 for n in range(-5, 6) if n]

# Per exercise: each number as the given cell writes it, and the values a class may get
# instead (two numbers of one exercise never get the same value).
NUMBERS = {
    "ex3": {"1.0": HALVES, "2.0": HALVES},
}

# Exercise 3's numbers change in its given cell only: the answers' one-hot weights, written
# [1.0, 0.0], are no point.
ONLY_IN = {"ex3": ["given_2"]}

# Per exercise, groups of alternatives: a class gets one alternative of each group, a table
# {fragment of the template: what the class's code says instead}, applied to whole tokens
# of the exercise's statement, code, checks' hints and typical wrong answers. {} keeps the
# template's words; a class never gets all of them.
WORDS = {
    "ex1": [
        # The scripts' names swapped: script B is the one whose second backward fails.
        [{}, {"A": "B", "B": "A"}],
        # Script A's shared part still saves its input ...
        [{}, *({"x * x": shared} for shared in ["x.sin()", "x.cos()", "x.log()", "x**2"])],
        # ... and script B's still saves nothing.
        [{}, *({"x + 1": shared} for shared in ["x - 1", "1 - x", "x + x", "-x"])],
    ],
    # Exercise 2: every expression of the table is another one that teaches the same.
    "ex2": [
        # A function that saves, below an addition that does not.
        [{"exp": function} for function in ["sin", "cos", "tanh", "sigmoid"]],
        # Nothing saved anywhere.
        [{"(x + 1) - x": e} for e in ["(x - 1) + x", "(1 - x) + x", "(x + 2) - x", "-x + x"]],
        # A multiplication cut out of the graph by detach().
        [
            {"(x * x).detach() + x": e}
            for e in ["(x * x).detach() - x", "x + (x * x).detach()", "(x * x * x).detach() + x"]
        ],
        # A multiplication whose gradient for x needs the other factor.
        [
            {"x.detach() * x": e}
            for e in ["x * x.detach()", "(x.detach() + 1) * x", "x * (x.detach() - 1)"]
        ],
    ],
}
