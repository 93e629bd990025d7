"""Set 16's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/16_build_your_own_engine: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-4, 6)]  # -2.0 to 2.5
NONZERO = [h for h in HALVES if h]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "exp": lambda rng: sorted(rng.sample(HALVES, 3)),
    # b is never 0: the check divides by it.
    "div": lambda rng: [(rng.choice(NONZERO), rng.choice(NONZERO)) for _ in range(3)],
}
