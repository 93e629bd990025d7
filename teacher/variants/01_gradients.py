"""Set 01's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/01_gradients: its numbers are the defaults. Exercises 1 and
4 write their points as whole numbers of the statement's prose ($f'(3)$; $x = 2$, $y = 3$)
and their solutions work them by hand: ``phrases`` says where each is written, and how the
class's numbers write it.
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

# The worked numbers, by name: the template's value, then the values a class may get.
# Exercise 1's point is positive (f' is even: f'(-3) is the template's f'(3)); exercise 4's
# x divides y and 1 into short decimals.
WORKED = {
    "point": (3, [1, 2, 4, 5, 6]),
    "x": (2, [1, 4, 5, -1, -2]),
    "y": (3, [1, 2, 4, 5, -1, -2, -3]),
}


def code(number: int) -> str:
    """A number as it goes into a solution's arithmetic: ``(-2)``, so that ``(-2)**2`` is 4."""
    return f"({number})" if number < 0 else str(number)


def phrases(point: int, x: int, y: int) -> dict[str, dict[str, str]]:
    """Per exercise, each phrase as the template writes it (in the statement, a check's name
    or hint, the solution, a typical wrong answer) and as the class's numbers write it."""
    return {
        "ex1": {
            "f'(3)": f"f'({point})",  # the statement's $f'(3)$ and the check's name
            "f(3)": f"f({point})",  # a hint: "That is f(3), the value of the function"
            "x = 3": f"x = {point}",  # a hint: "then evaluate at x = 3"
            "3 * 3**2": f"3 * {code(point)}**2",  # f'(x) = 3x² - 2, and without the -2
            "3**3 - 2 * 3": f"{code(point)}**3 - 2 * {code(point)}",  # f itself
        },
        "ex4": {
            "$x = 2$": f"$x = {x}$",
            "$y = 3$": f"$y = {y}$",
            "3**2": f"{code(y)}**2",  # y² in ∂z/∂x = y² - y/x²
            "3 / 2**2": f"{code(y)} / {code(x)}**2",
            "2 * 2 * 3": f"2 * {code(x)} * {code(y)}",  # 2xy in ∂z/∂y = 2xy + 1/x
            "1 / 2": f"1 / {code(x)}",
        },
    }
