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

# Exercise 3's chains of 3, 30 and 2000 layers stay (a long one is the exercise's point: the
# lesson's recursive order fails on it), each at the class's x: past some thirty layers
# dy/dx no longer changes with the length, but it does with x.
STARTS = [n / 10 for n in range(-9, 10) if n not in (0, 3)]


def chains(rng):
    """The three chains at one x of the class."""
    x0 = rng.choice(STARTS)
    return [(3, x0), (30, x0), (2000, x0)]


POINTS["iterative_order"] = chains
