"""Set 03's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/03_backward_step_by_step: its numbers are the defaults.
Exercises 1 to 3 walk one graph at $x = 3$, $y = -1$, whole numbers of the statement's
prose, and their solutions write each gradient as the arriving one times a local
derivative: ``phrases`` says where each number is written, and how the class's write it.
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

# The graph's point, by name: the template's value, then the values a class may get (never
# y = -x, where s = x + y is 0 and every gradient with it: the command draws again when
# two answers coincide).
WORKED = {"x": (3, [-3, -2, 2, 4, 5]), "y": (-1, [-3, -2, 1, 2, 3])}


def phrases(x: int, y: int) -> dict[str, dict[str, str]]:
    """Per exercise, each phrase as the template writes it (statement, solution and its
    comments, typical wrong answers) and as the class's numbers write it: the forward
    values s, p, z and the gradients the nodes send, as the lesson works them out."""
    s = x + y
    p = s * x
    into_p = 2 * p  # PowBackward0: the arriving 1 times 2p
    into_s, into_x = into_p * x, into_p * s  # MulBackward0: times the other factor
    sum_of = f"({x} {'-' if y < 0 else '+'} {abs(y)}) * {x}"  # p = (x + y) * x, as written

    def number(value: int) -> str:  # as the solutions write a gradient: 12.0
        return f"{float(value)}"

    return {
        "ex1": {  # the shared statement is exercise 1's cell
            "$x = 3$": f"$x = {x}$",
            "$y = -1$": f"$y = {y}$",
            "1.0 * 2 * 6.0": f"1.0 * 2 * {number(p)}",
            "(3 - 1) * 3 = 6": f"{sum_of} = {p}",  # the solution's comment
            "(3 - 1) * 3": sum_of,  # typical wrong answers: p, and z = p²
        },
        "ex2": {
            "12.0": number(into_p),  # the arriving gradient
            "12": str(into_p),  # ... in the comments
            "3.0": number(x),
            "2.0": number(s),
            "x = 3": f"x = {x}",
            "s = 2": f"s = {s}",
            "24.0": number(into_p * s),  # the other factor swapped
            "36.0": number(into_p * x),
        },
        "ex3": {
            "24.0": number(into_x),
            "36.0": number(into_s),
            "60.0": number(into_x + into_s),
            "12.0": number(into_p),
        },
    }
