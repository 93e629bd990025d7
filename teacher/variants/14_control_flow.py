"""Set 14's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/14_control_flow: its numbers are the defaults.
"""

COEFFICIENTS = [-3, -2, -1, 0, 1, 2, 3]
HALVES = [n / 2 for n in range(-6, 7)]
POSITIVE = [0.25, 0.5, 1.5, 2.0, 3.0, 5.0, 6.0, 7.0, 9.0, 12.0]


def polynomial_points(rng):
    """One cubic at two points, then a quadratic whose first coefficient is 0."""
    cubic = [rng.choice(COEFFICIENTS) for _ in range(3)] + [rng.choice([-3, -2, -1, 1, 2, 3])]
    here, there = rng.sample(HALVES, 2)
    quadratic = [0, rng.choice([-2, -1, 1, 2]), rng.choice([-2, -1, 1, 2])]
    return [(cubic, here), (cubic, there), (quadratic, rng.choice(HALVES))]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "[value, slope]": polynomial_points,
    "[newton_sqrt(a), a.grad]": lambda rng: rng.sample(POSITIVE, 3),
}
