"""Set 04's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/04_accumulation_and_zeroing: its numbers are the defaults.
"""

# Per exercise: each number as the statement's code, the solution and the typical wrong
# answers write it, and the values a class may get instead (two numbers of one exercise
# never get the same value).
NUMBERS = {
    # Exercise 1: the a and b of the code in the statement.
    "ex1": {"1.0": [0.5, 1.5, 2.0, 2.5, 4.0], "3.0": [1.5, 2.0, 2.5, 4.0, 5.0]},
    # Exercise 2: the three k of the loop (the printed running sums move with them).
    "ex2": {"1": [1, 2, 3, 4, 5, 6], "2": [1, 2, 3, 4, 5, 6], "3": [1, 2, 3, 4, 5, 6]},
    # Exercise 4: w, and the factor of the backward() that adds into the emptied tensor (not
    # w = -2, whose 3w² is the template's, nor 0, where most mistakes would give the answer).
    "ex4": {"2.0": [1.0, 1.5, 2.5, 3.0, -1.0, -1.5, 0.5], "3": [2, 4, 5, 6, 7]},
}

# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    # One step, where every way of training agrees, then two longer runs.
    "remembering(steps)": lambda rng: [1, *sorted(rng.sample(range(2, 16), 2))],
}
