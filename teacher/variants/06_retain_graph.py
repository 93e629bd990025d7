"""Set 06's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/06_retain_graph: its numbers are the defaults. Exercises 1
and 2 ask which backward() fails, a choice that numbers do not change: they stay.
"""

# Halves from -2.5 to 2.5, but not 0 (where J and its transpose would agree): the x of
# exercise 3's given cell.
HALVES = [n / 2 for n in range(-5, 6) if n]

# Per exercise: each number as the given cell writes it, and the values a class may get
# instead (two numbers of one exercise never get the same value).
NUMBERS = {
    "ex3": {"1.0": HALVES, "2.0": HALVES},
}

# Exercise 3's numbers change in its given cell only: the answers' one-hot weights, written
# [1.0, 0.0], are no point.
ONLY_IN = {"ex3": ["given_2"]}
