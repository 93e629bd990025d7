"""Set 15's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/15_jacobians_and_hessians: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-4, 5)]


def directions(rng):
    """Three different directions u, none of them 0."""
    found = []
    while len(found) < 3:
        u = [rng.choice(HALVES), rng.choice(HALVES)]
        if u != [0.0, 0.0] and u not in found:
            found.append(u)
    return found


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"hessian_times(g, (1, 0), u)": directions}


# --------------------------------------------------------------------------- exercise 1
def _shapes_words(length: int, rows: int, columns: int) -> dict[str, str]:
    """A class's a (``length`` numbers) and M (rows × columns): the statement's code, the
    solution's shapes and the typical wrong answers' shapes."""
    a = ", ".join(f"{float(i + 1)}" for i in range(length))
    M = f"({rows}, {columns})"
    return {
        "mg.tensor([1.0, 2.0, 3.0])": f"mg.tensor([{a}])",
        "mg.ones(2, 3)": f"mg.ones({rows}, {columns})",
        "shapes = [(3,), (2, 3, 2, 3), (2, 2, 3), (3, 3)]": (
            f"shapes = [({length},), ({rows}, {columns}, {rows}, {columns}), "
            f"({rows}, {rows}, {columns}), ({length}, {length})]"
        ),
        # Typical wrong answers: the output's shape only, and the Jacobian as M's shape.
        "shapes = [(), (2, 3), (2,), ()]": f"shapes = [(), {M}, ({rows},), ()]",
        "shapes = [(3,), (2, 3), (2, 3), (3, 3)]": (
            f"shapes = [({length},), {M}, {M}, ({length}, {length})]"
        ),
    }


# --------------------------------------------------------------------------- exercise 3
def _newton_words(a: int, b: int, c: int) -> dict[str, str]:
    """A class's g(x, y) = (x - a)² + x·y + b·(y + c)²: its Hessian [[2, 1], [1, 2b]] is
    positive definite for b ≥ 1, so one Newton step from (0, 0) lands on its minimum. The
    typical wrong answers: p minus the gradient, and p + d."""
    plus_c = f"(y + {c})" if c > 0 else f"(y - {-c})"
    gradient = (-2 * a, 2 * b * c)  # at p = (0, 0)
    determinant = 4 * b - 1
    d = (2 * b * gradient[0] - gradient[1], -gradient[0] + 2 * gradient[1])  # times det
    return {
        "(x - 1) ** 2 + x * y + 2 * (y + 1) ** 2": f"(x - {a}) ** 2 + x * y + {b} * {plus_c} ** 2",
        "newton_point = [0.0 - (-2.0), 0.0 - 4.0]": (
            f"newton_point = [0.0 - ({float(gradient[0])}), 0.0 - ({float(gradient[1])})]"
        ),
        "newton_point = [-12 / 7, 10 / 7]": (
            f"newton_point = [{d[0]} / {determinant}, {d[1]} / {determinant}]"
        ),
    }


WORDS = {
    # Exercise 1: another length of a, another shape of M (never square: the order of its
    # two sizes in the answer must show).
    "ex1": [
        [
            _shapes_words(length, rows, columns)
            for length in (2, 3, 4, 5)
            for rows, columns in ((2, 4), (3, 2), (4, 3), (3, 5), (5, 2), (2, 3))
            if (length, rows, columns) != (3, 2, 3)
        ]
    ],
    # Exercise 3: other constants in g.
    "ex3": [
        [
            _newton_words(a, b, c)
            for a in (1, 2, 3)
            for b in (1, 2, 3)
            for c in (1, 2, -1, -2)
            if (a, b, c) != (1, 2, 1)
        ]
    ],
}

# Exercise 2's worked numbers: the point x, the direction u and the weight of f0 in v.
WORKED = {
    "x": ((1, 2, 3), [(2, 1, 3), (1, 3, 2), (2, 3, 1), (3, 1, 2), (1, -2, 2), (-1, 2, 1)]),
    "u": ((1, 0, -1), [(1, -1, 0), (0, 1, 1), (2, 0, 1), (1, 1, -1), (-1, 2, 0)]),
    "v0": (2, [3, 4, -2, -3]),
}


def phrases(x, u, v0) -> dict[str, dict[str, str]]:
    """Exercise 2: f = (x0·x1, x1 + x2²), J = [[x1, x0, 0], [0, 1, 2·x2]]; the statement's
    numbers, the solution's arithmetic and the typical wrong answers."""
    x0, x1, x2 = x
    u0, u1, u2 = u
    ju = [x1 * u0 + x0 * u1, u1 + 2 * x2 * u2]
    columns = [x1, x0 + 1, 2 * x2]  # J's columns summed: the weights (1, 1)
    return {
        "ex2": {
            "$x = (1, 2, 3)$": f"$x = ({x0}, {x1}, {x2})$",
            "$u = (1, 0, -1)$": f"$u = ({u0}, {u1}, {u2})$",
            "$2 f_0 + f_1$": f"${v0} f_0 + f_1$",
            "$v = (2, 1)$": f"$v = ({v0}, 1)$",
            "ju = [2.0 * 1 + 1.0 * 0, 1 * 0 + 6.0 * -1]": (
                f"ju = [{float(x1)} * {u0} + {float(x0)} * {u1}, 1 * {u1} + {float(2 * x2)} * {u2}]"
            ),
            "vj = [2 * 2.0, 2 * 1.0 + 1 * 1.0, 1 * 6.0]": (
                f"vj = [{v0} * {float(x1)}, {v0} * {float(x0)} + 1 * 1.0, 1 * {float(2 * x2)}]"
            ),
            # Typical wrong answers: v's weight 2 forgotten, and one entry per input.
            "ju = [2.0, -6.0]": f"ju = {[float(j) for j in ju]}",
            "vj = [2.0, 2.0, 6.0]": f"vj = {[float(c) for c in columns]}",
            "ju = [2.0, 0.0, -6.0]": f"ju = {[float(c * w) for c, w in zip(columns, u)]}",
            "vj = [4.0, 3.0, 6.0]": f"vj = {[float(v0 * x1), float(v0 * x0 + 1), float(2 * x2)]}",
        }
    }
