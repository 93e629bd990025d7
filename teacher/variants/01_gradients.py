"""Set 01's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/01_gradients: its numbers are the defaults. Exercises 1 and
4 stay: their points are whole numbers of the statement's prose ($f'(3)$, $x = 2$), which
the command leaves alone, and their solutions are worked by hand from them.
"""

# Halves from -3 to 4, but not 0: short numbers a student types, each entry of w its own.
HALVES = [n / 2 for n in range(-6, 9) if n]

# Per exercise: each number as the statement, the solution and the typical wrong answers
# write it, and the values a class may get instead (two numbers of one exercise never get
# the same value).
NUMBERS = {
    # Exercise 2: the six entries of w, written in the statement's prose.
    "ex2": {f"{n}.0": HALVES for n in range(1, 7)},
    # Exercise 3: the x of the code in the statement (c = 2 stays: a hint names it).
    "ex3": {"3.0": [1.5, 2.5, 3.5, 4.5, 5.0, -1.5, -2.5]},
}
