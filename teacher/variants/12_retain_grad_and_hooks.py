"""Set 12's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/12_retain_grad_and_hooks: its numbers are the defaults.
"""

SMALL = [n / 10 for n in (-3, -2, -1, 1, 2, 3)]  # 2w stays shorter than 1
LARGE = [float(n) for n in (-4, -3, -2, -1, 1, 2, 3, 4)]
TENTHS = [n / 10 for n in range(-15, 16) if n]


def clip_points(rng):
    """A gradient already shorter than 1 (left as it is), a long one, and three entries."""
    return [
        [rng.choice(SMALL), rng.choice(SMALL)],
        [rng.choice(LARGE), rng.choice(LARGE)],
        [rng.choice(TENTHS) for _ in range(3)],
    ]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"w.grad with clip_norm as w's hook, for w": clip_points}
