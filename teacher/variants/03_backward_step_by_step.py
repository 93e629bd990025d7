"""Set 03's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/03_backward_step_by_step: its numbers are the defaults.
Exercises 1 to 3 stay: they walk one graph at $x = 3$, $y = -1$, whole numbers of the
statement's prose, which the command leaves alone.
"""

# Exercise 4's point: tenths from 0.3 to 2.5, but not the halves and whole numbers, where
# this repository already shows sin, cos and their products.
TENTHS = [n / 10 for n in range(3, 26) if n % 5]

# Per exercise: each number as the statement, the solution and the typical wrong answers
# write it, and the values a class may get instead.
NUMBERS = {
    # Exercise 4: the point of f'(1.5), in the statement's prose and the check's name.
    "ex4": {"1.5": TENTHS},
}
