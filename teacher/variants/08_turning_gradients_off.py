"""Set 08's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/08_turning_gradients_off: its numbers are the defaults.
"""

QUARTERS = [n / 4 for n in range(1, 13)]  # 0.25 to 3.0


def signed(rng):
    return rng.choice(QUARTERS) * rng.choice([-1, 1])


def sign_points(rng):
    """Three entries of mixed signs, then two entries with a 0, where sign() is 0 too."""
    first = [abs(signed(rng)), -abs(signed(rng)), signed(rng)]
    return [first, [signed(rng), 0.0]]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"values and x.grad": sign_points}
