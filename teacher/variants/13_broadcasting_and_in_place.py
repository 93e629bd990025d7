"""Set 13's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/13_broadcasting_and_in_place: its numbers are the defaults.
"""

WHOLE = [float(n) for n in range(-9, 10) if n]
TENTHS = [n / 10 for n in range(-30, 31) if n]


def entries(rng, rows, columns):
    return [[rng.choice(WHOLE) for _ in range(columns)] for _ in range(rows)]


def sum_to_shape_points(rng):
    """The template's shapes, each of a kind of broadcasting, with other gradients."""
    two_by_three = entries(rng, 2, 3)
    cube = [entries(rng, 2, 2) for _ in range(2)]
    return [
        (two_by_three, (3,)),
        (two_by_three, (2, 1)),
        (two_by_three, (1, 3)),
        (two_by_three, ()),
        (cube, (2, 1)),
        (entries(rng, 2, 2), (2, 2)),
    ]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "sum_to_shape(grad, shape), for (grad, shape)": sum_to_shape_points,
    "the gradient of fixed(x), for x": lambda rng: [
        [rng.choice(TENTHS) for _ in range(2)],
        [rng.choice(TENTHS) for _ in range(3)],
    ],
}

# Exercise 2 asks which in-place changes break backward(), a choice that numbers do not
# change: a class gets other lines instead (WORDS), and its key is what the solution, which
# runs each line, gives. Every line keeps its kind (the function saves its output or its
# input or nothing; the change is to its input or its output), with another function of
# that kind or another in-place change: the typical wrong answers stay the same mistakes.
WORDS = {
    "ex2": [
        # The output is saved, the input changes: backward() runs.
        [
            {"b = a.sigmoid(); a.mul_(2)": line}
            for line in [
                "b = a.tanh(); a.mul_(2)",
                "b = a.sigmoid(); a.add_(1)",
                "b = a.tanh(); a.sub_(1)",
                "b = a.sigmoid(); a.div_(2)",
            ]
        ],
        # The output is saved and changes: backward() fails.
        [
            {"b = a.sigmoid(); b.mul_(2)": line}
            for line in ["b = a.sigmoid(); b.add_(1)", "b = a.sigmoid(); b.sub_(1)"]
        ],
        # The input is saved and changes: backward() fails.
        [
            {"b = a.log(); a.add_(1)": line}
            for line in [
                "b = a.sin(); a.add_(1)",
                "b = a.cos(); a.mul_(2)",
                "b = a.log(); a.sub_(1)",
                "b = a ** 3; a.mul_(2)",
            ]
        ],
        # Nothing is saved: backward() runs.
        [
            {"b = a * 3; a.mul_(2)": line}
            for line in ["b = a + 3; a.mul_(2)", "b = a * 3; a.add_(1)", "b = a - 1; a.mul_(3)"]
        ],
        # The input is saved, the output changes: backward() runs.
        [
            {"b = a ** 2; b.add_(1)": line}
            for line in [
                "b = a.log(); b.mul_(2)",
                "b = a.sin(); b.add_(1)",
                "b = a ** 3; b.sub_(1)",
            ]
        ],
        # The output is saved and changes: backward() fails.
        [
            {"b = a.tanh(); b.add_(1)": line}
            for line in [
                "b = a.tanh(); b.mul_(2)",
                "b = a.tanh(); b.sub_(1)",
                "b = a.tanh(); b.div_(2)",
            ]
        ],
    ]
}
