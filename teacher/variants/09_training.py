"""Set 09's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/09_training: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-4, 7)]  # -2.0 to 3.0


def mse_points(rng):
    """Three different (w, b); the template's (0, 0) would give every class its public value."""
    pairs = [(w, b) for w in HALVES for b in HALVES if (w, b) != (0.0, 0.0)]
    return rng.sample(pairs, 3)


def halves_points(rng):
    """One step, where forgetting to clear makes no difference yet, then a longer run, at a
    learning rate other than the template's (whose one step is public)."""
    lr = rng.choice([0.02, 0.04, 0.05, 0.08])
    return [(1, lr), (rng.randint(5, 15), lr)]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"mse(w, b)": mse_points, "fit_in_halves(steps, lr)": halves_points}
