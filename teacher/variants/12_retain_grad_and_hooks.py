"""Set 12's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/12_retain_grad_and_hooks: its numbers are the defaults.
Exercise 3's answer is an order of letters, which numbers do not change: a class gets its
six hooks with the letters in another order (``WORDS``): the solution's letters, renamed
as the given cell's are, are the class's answer, which the command computes from them.
Exercises 1 and 4 are code to write: a class gets its own x (``NUMBERS``), so the values
its checks compare with are its own, while the solution's code, public as every
code-writing exercise's is, works on any x.
"""

from itertools import permutations

SMALL = [n / 10 for n in (-3, -2, -1, 1, 2, 3)]  # 2w stays shorter than 1
LARGE = [float(n) for n in (-4, -3, -2, -1, 1, 2, 3, 4)]
TENTHS = [n / 10 for n in range(-15, 16) if n]

# The entries of exercise 1's and exercise 4's x: tenths from -2 to 2.5, but not the halves
# and whole numbers, where this repository already shows sigmoid and exp (a value in a
# public file makes the command draw again).
ENTRIES = [n / 10 for n in range(-20, 26) if n % 5]

# Per exercise: each number as the given cell, the solution and the typical wrong answers
# write it, and the values a class may get instead (two numbers of one exercise never get
# the same value).
NUMBERS = {
    "ex1": {"0.5": ENTRIES, "1.0": ENTRIES, "2.0": ENTRIES},
    "ex4": {"0.5": ENTRIES, "1.0": ENTRIES, "2.0": ENTRIES},
}

# Exercise 3: the six hooks append other letters, the same six in another order (never the
# template's), in the given cell, the statement's example and the typical wrong answers.
LETTERS = "PQRSTU"
WORDS = {
    "ex3": [
        [dict(zip(LETTERS, other)) for other in permutations(LETTERS) if "".join(other) != LETTERS]
    ],
}


def clip_points(rng):
    """A gradient already shorter than 1 (left as it is), a long one, and three entries."""
    return [
        [rng.choice(SMALL), rng.choice(SMALL)],
        [rng.choice(LARGE), rng.choice(LARGE)],
        [rng.choice(TENTHS) for _ in range(3)],
    ]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"w.grad with clip_norm as w's hook, for w": clip_points}
