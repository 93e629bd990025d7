"""Set 08's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/08_turning_gradients_off: its numbers are the defaults.
"""

# Per exercise: each number as the statement's code, the solution and the typical wrong
# answers write it, and the values a class may get instead.
NUMBERS = {
    # Exercise 3: the x of the code in the statement; not 1.5 nor 3.0, where a typical
    # mistake or the answer is 0.
    "ex3": {"2.0": [0.5, 1.0, 2.5, 4.0, 5.0]},
}
