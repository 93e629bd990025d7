"""Set 18's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/18_forward_mode: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-6, 7)]
NONZERO = [h for h in HALVES if h]


def quotient_points(rng):
    """(a, ȧ, b, ḃ), with b never 0."""
    return [
        (rng.choice(HALVES), rng.choice(HALVES), rng.choice(NONZERO), rng.choice(NONZERO))
        for _ in range(3)
    ]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"dual_divide": quotient_points}
