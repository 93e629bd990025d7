"""Set 17's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/17_backprop_by_hand: its numbers are the defaults. Each
check_function check calls the student's function on random numbers from a seed: a class
gets seeds of its own. Exercise 3 asks for the name of the tensor where a backward pass
written by hand first goes wrong: a class gets other names (WORDS).
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

# Exercise 3: the wrong line is the tanh's, which exercise 4 fixes, so the first wrong
# gradient is always that of the tanh's input, a1 in the template: a class names it (and
# the student's gradient variable for it) otherwise. Swapped with z1, the template's answer
# names a tensor whose gradient is wrong too, later: that answer loses its point. The
# solution, which writes the name, gets the class's.
WORDS = {
    "ex3": [
        [
            {"a1": "z1", "da1": "dz1", "z1": "a1", "dz1": "da1"},
            {"a1": "u1", "da1": "du1"},
            {"a1": "s1", "da1": "ds1"},
            {"a1": "pre", "da1": "dpre"},
        ]
    ]
}
