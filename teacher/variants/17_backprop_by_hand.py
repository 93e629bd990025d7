"""Set 17's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/17_backprop_by_hand: its numbers are the defaults. Each
check_function check calls the student's function on random numbers from a seed: a class
gets seeds of its own. Exercise 3 (which line is wrong) asks for a name, and stays.
"""


def seeds(rng):
    """Three seeds of numpy's generator, away from the template's own (0 to 7)."""
    return rng.sample(range(100, 100_000), 3)


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "linear_backward": seeds,
    "cross_entropy_backward": seeds,
    "tanh_backward": seeds,
}
