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
