"""Set 05's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/05_non_scalar_outputs: its numbers are the defaults. Every
exercise writes its numbers as the statement's whole numbers or lists, and its solution
works them by hand: ``phrases`` says where each is written, and how the class's write it.
"""

from itertools import permutations

# The worked numbers, by name: the template's value, then the values a class may get.
WORKED = {
    # Exercise 1: L = a·y0 - b·y2 (its sign pattern stays: a typical mistake drops it).
    "a": (2, [3, 4, 5]),
    "b": (1, [2, 3, 4]),
    # Exercise 2: the order in which the running totals take the inputs.
    "order": ((0, 1, 2), [p for p in permutations(range(3)) if p != (0, 1, 2)]),
    # Exercise 3: the point x and the weights whose x.grad the statement states.
    "point": ((1, 2, 3), [(2, 1, 3), (1, 3, 2), (2, 3, 4), (3, 1, 2), (1, 4, 3), (4, 2, 1)]),
    "weights": ((3, 1), [(1, 2), (2, 3), (4, 1), (1, -2), (-1, 3), (2, -1), (3, 2)]),
    # Exercise 4: the x of the statement's code (its weights [1, 0, -1] stay).
    "x": ((1, 2, 3), [(2, 1, 4), (3, 1, 2), (1, 3, 5), (2, -1, 4), (-1, 2, 3), (4, 2, 1)]),
}


def floats(values) -> str:
    """A list as the solutions and the statements' code write it: ``[6.0, 6.0, 2.0]``."""
    return "[" + ", ".join(f"{float(v)}" for v in values) + "]"


def minus(value: int) -> str:
    """``- 2`` or ``+ 1``: a term added to what comes before it."""
    return f"- {-value}" if value < 0 else f"+ {value}"


def phrases(a, b, order, point, weights, x) -> dict[str, dict[str, str]]:
    """Per exercise, each phrase as the template writes it (statement, solution and its
    comment, typical wrong answers) and as the class's numbers write it."""
    # Exercise 2: y = running totals of x[order[0]], x[order[1]], x[order[2]]; J's row i has
    # a 1 for each input the i-th total takes, and x.grad[j] counts the totals that take x_j.
    first, second, third = (f"x[{i}]" for i in order)
    rows = [[1 if j in order[: i + 1] else 0 for j in range(3)] for i in range(3)]
    columns = [sum(row[j] for row in rows) for j in range(3)]
    # Exercise 3: y = (x0·x1, x1·x2), J = [[x1, x0, 0], [0, x2, x1]], x.grad = v·J.
    x0, x1, x2 = point
    v0, v1 = weights
    wanted = [v0 * x1, v0 * x0 + v1 * x2, v1 * x1]
    # Exercise 4: (vJ)_j = S·v_j + Σ v_i·x_i with S = Σ x_i and v = [1, 0, -1].
    total, along_the_sum = sum(x), x[0] - x[2]
    return {
        "ex1": {
            r"$L = 2\,y_0 - y_2$": rf"$L = {a}\,y_0 - {b}\,y_2$",
            "[2.0, 0.0, -1.0]": floats([a, 0, -b]),  # the solution
            "[2.0, -1.0]": floats([a, -b]),  # typical wrong answers
            "[2.0, 0.0, 1.0]": floats([a, 0, b]),
        },
        "ex2": {
            "mg.stack([x[0], x[0] + x[1], x[0] + x[1] + x[2]])": (
                f"mg.stack([{first}, {first} + {second}, {first} + {second} + {third}])"
            ),
            "[[1, 0, 0], [1, 1, 0], [1, 1, 1]]": str(rows),  # the solution's comment
            "x_grad = [3.0, 2.0, 1.0]": f"x_grad = {floats(columns)}",
        },
        "ex3": {
            "$x = (1, 2, 3)$": f"$x = ({x0}, {x1}, {x2})$",
            "[6.0, 6.0, 2.0]": floats(wanted),  # in the statement, and a wrong answer
            "[[2, 1, 0], [0, 3, 2]]": str([[x1, x0, 0], [0, x2, x1]]),  # the comment
            "2·v0 = 6": f"{x1}·v0 = {wanted[0]}",
            "2·v1 = 2": f"{x1}·v1 = {wanted[2]}",
            "weights = [3.0, 1.0]": (
                f"weights = [{float(wanted[0])} / {x1}, {float(wanted[2])} / {x1}]"
            ),
            "[1.0, 3.0]": floats([v1, v0]),  # a wrong answer: the weights swapped
        },
        "ex4": {
            "mg.tensor([1.0, 2.0, 3.0], requires_grad=True)": (
                f"mg.tensor({floats(x)}, requires_grad=True)"
            ),
            "S = 6": f"S = {total}",  # the solution's comment
            "6·vⱼ - 2": f"{total}·vⱼ {minus(along_the_sum)}",
            "6·vⱼ − 2": f"{total}·vⱼ {minus(along_the_sum)}".replace("-", "−"),  # Russian
            "6·vⱼ": f"{total}·vⱼ",
            "[6 * 1.0 - 2, 6 * 0.0 - 2, 6 * -1.0 - 2]": (
                "["
                + ", ".join(f"{total} * {v} {minus(along_the_sum)}" for v in (1.0, 0.0, -1.0))
                + "]"
            ),
            "[6.0, 0.0, -6.0]": floats([total, 0, -total]),  # only the diagonal
            "[-2.0, -2.0, -2.0]": floats([along_the_sum] * 3),  # only the path through the sum
        },
    }
