"""Set 08's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/08_turning_gradients_off: its numbers are the defaults.
"""

# Per exercise: each number as the statement's code, the solution and the typical wrong
# answers write it, and the values a class may get instead.
NUMBERS = {
    # Exercise 2: the layers' sizes (inputs, hidden units, outputs) of the statement's model,
    # from which the solution counts. Never 1: a bias of one number would make a weight and
    # a bias indistinguishable in a count.
    "ex2": {"3": [2, 5, 6, 7], "4": [5, 6, 7, 8], "2": [3, 9]},
    # Exercise 3: the x of the code in the statement; not 1.5 nor 3.0, where a typical
    # mistake or the answer is 0.
    "ex3": {"2.0": [0.5, 1.0, 2.5, 4.0, 5.0]},
}

# Halves and tenths away from 0, where sign() steps: the entries of exercise 4's points.
ENTRIES = [n / 10 for n in range(-30, 31) if n % 5] + [n / 2 for n in range(-6, 7) if n]


def sign_points(rng):
    """Exercise 4: two vectors of four and three entries, each with a negative and a
    positive entry, the second with a 0 (where sign() is 0) too."""
    first = [rng.choice([e for e in ENTRIES if e < 0]), rng.choice([e for e in ENTRIES if e > 0])]
    first += rng.sample(ENTRIES, 2)
    second = [rng.choice([e for e in ENTRIES if e < 0]), rng.choice([e for e in ENTRIES if e > 0])]
    second.append(0.0)
    rng.shuffle(first)
    rng.shuffle(second)
    return [first, second]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    # Exercise 1: the numbers of hidden layers of the models the check trains (0 to 5).
    "which parameters moved (1) or stayed (0)": lambda rng: sorted(rng.sample(range(6), 3)),
    "values and x.grad": sign_points,
}
