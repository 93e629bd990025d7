"""Set 07's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/07_differentiating_twice: its numbers are the defaults.
Exercise 1 asks for $f''(0)$, a whole number of the statement's prose, and its solution
works it by hand: ``phrases`` says where the point is written, and how the class's writes it.
"""

import math

# Tenths from -3 to 3, but not 0 (where f' and f'' of exercise 2 both vanish) nor the
# halves and whole numbers, where this repository already shows sin and f'' (a value in a
# public file makes the command draw again).
TENTHS = [n / 10 for n in range(-30, 31) if n % 5]

# Per exercise: each number as the statement's code, the solution and the typical wrong
# answers write it, and the values a class may get instead (two numbers of one exercise
# never get the same value).
NUMBERS = {
    # Exercise 3: the x and y of the code in the statement.
    "ex3": {
        "2.0": [0.5, 1.0, 1.5, 2.5, 3.0, 4.0],
        "3.0": [0.5, 1.0, 1.5, 2.0, 2.5, 4.0],
    },
}


def nth_derivative_points(rng):
    """The orders 0, 1 and 3 at one point and the order 4 at another, as in the template."""
    here, there = rng.sample(TENTHS, 2)
    return [(here, 0), (here, 1), (here, 3), (there, 4)]


def second_derivative_points(rng):
    """Three points with different distances from 0: f'' is even, so f''(-a) = f''(a)."""
    sizes = rng.sample([t for t in TENTHS if t > 0], 3)
    return sorted(size * rng.choice([-1, 1]) for size in sizes)


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "second_derivative": second_derivative_points,
    "nth_derivative(mg.sin, x0, n)": nth_derivative_points,
}


# Exercise 1's point, by name: the template's value, then the values a class may get (not
# -2, where f'' = (x + 2)·eˣ vanishes).
WORKED = {"point": (0, [-3, -1, 1, 2, 3])}

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def phrases(point: int) -> dict[str, dict[str, str]]:
    """Exercise 1's phrases as the template writes them (the statement, the check's name
    and hints, the solution and its comment, the typical wrong answers) and as the class's
    point writes them."""
    power = f"e{str(point).translate(SUPERSCRIPT)}"  # e¹, e⁻¹
    return {
        "ex1": {
            "f''(0)": f"f''({point})",
            "f'(0)": f"f'({point})",  # a hint: "That is f'(0): differentiate once more."
            "f(0)": f"f({point})",
            "x = 0": f"x = {point}",
            "0.0": f"{float(point)}",  # the solution's and the wrong answers' x
            "e⁰ = 1": f"{power} ≈ {math.exp(point):.4f}",  # the solution's comment
        }
    }
