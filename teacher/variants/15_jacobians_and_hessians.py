"""Set 15's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/15_jacobians_and_hessians: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-4, 5)]


def directions(rng):
    """Three different directions u, none of them 0."""
    found = []
    while len(found) < 3:
        u = [rng.choice(HALVES), rng.choice(HALVES)]
        if u != [0.0, 0.0] and u not in found:
            found.append(u)
    return found


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"hessian_times(g, (1, 0), u)": directions}
