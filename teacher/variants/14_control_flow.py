"""Set 14's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/14_control_flow: its numbers are the defaults.
"""

COEFFICIENTS = [-3, -2, -1, 0, 1, 2, 3]
HALVES = [n / 2 for n in range(-6, 7)]
POSITIVE = [0.25, 0.5, 1.5, 2.0, 3.0, 5.0, 6.0, 7.0, 9.0, 12.0]


def polynomial_points(rng):
    """One cubic at two points, then a quadratic whose first coefficient is 0."""
    cubic = [rng.choice(COEFFICIENTS) for _ in range(3)] + [rng.choice([-3, -2, -1, 1, 2, 3])]
    here, there = rng.sample(HALVES, 2)
    quadratic = [0, rng.choice([-2, -1, 1, 2]), rng.choice([-2, -1, 1, 2])]
    return [(cubic, here), (cubic, there), (quadratic, rng.choice(HALVES))]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "[value, slope]": polynomial_points,
    "[newton_sqrt(a), a.grad]": lambda rng: rng.sample(POSITIVE, 3),
}


def shrunk(start: float) -> tuple[int, int, float]:
    """shrink(start) step by step: how many steps divide by 4, how many steps in all, and
    the result."""
    x, divides, steps = start, 0, 0
    while x > 1:
        if x > 4:
            x, divides = x / 4, divides + 1
        else:
            x = x - 1
        steps += 1
    return divides, steps, x


# Exercise 1's starts: the number of steps that divide by 4 (the slope) and of steps that
# subtract 1 differ from one start to the next. Exercise 3's points: one left of the branch
# point 1, one right of it (whose slope 2·x0 is the class's).
STARTS = [3.0, 5.0, 7.0, 10.0, 12.0, 18.0, 24.0, 30.0, 40.0, 50.0, 70.0, 100.0, 300.0]
WORKED = {
    "starts": ((20.0, 6.0), [(a, b) for a in STARTS for b in STARTS if a != b]),
    "left": (0.0, [-2.0, -1.0, -0.5, 0.5]),
    "right": (3.0, [1.5, 2.5, 4.0, 5.0, 6.0]),
}


def phrases(starts, left, right) -> dict[str, dict[str, str]]:
    """Per exercise, each phrase as the template writes it (statement, solution, typical
    wrong answers) and as the class's numbers write it."""
    runs = [shrunk(start) for start in starts]

    def slopes(divides: int) -> str:  # (1 / 4) * (1 / 4) * 1: one factor per division
        return " * ".join(["(1 / 4)"] * divides + ["1"])

    return {
        "ex1": {
            "mg.tensor(20.0, requires_grad=True)": f"mg.tensor({starts[0]}, requires_grad=True)",
            "mg.tensor(6.0, requires_grad=True)": f"mg.tensor({starts[1]}, requires_grad=True)",
            "shrink_grads = [(1 / 4) * (1 / 4) * 1, (1 / 4) * 1]": (
                f"shrink_grads = [{slopes(runs[0][0])}, {slopes(runs[1][0])}]"
            ),
            # Typical wrong answers: the outputs, and 1/4 for every step.
            "shrink_grads = [0.25, 0.5]": f"shrink_grads = [{runs[0][2]!r}, {runs[1][2]!r}]",
            "shrink_grads = [1 / 64, 1 / 16]": (
                f"shrink_grads = [1 / {4 ** runs[0][1]}, 1 / {4 ** runs[1][1]}]"
            ),
        },
        "ex3": {
            "`x0 = 0.0`": f"`x0 = {left}`",
            "`3.0`": f"`{right}`",
            "branch_grads = [3.0, 2 * 1.0, 2 * 3.0]": f"branch_grads = [3.0, 2 * 1.0, 2 * {right}]",
            # Typical wrong answers: the slope 3 at the branch point, and the values of f.
            "branch_grads = [3.0, 3.0, 6.0]": f"branch_grads = [3.0, 3.0, {2 * right}]",
            "branch_grads = [0.0, 3.0, 11.0]": (
                f"branch_grads = [{3 * left}, 3.0, {right**2 + 2}]"
            ),
        },
    }
