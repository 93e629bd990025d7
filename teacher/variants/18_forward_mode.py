"""Set 18's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/18_forward_mode: its numbers are the defaults.
"""

HALVES = [n / 2 for n in range(-6, 7)]
NONZERO = [h for h in HALVES if h]


def quotient_points(rng):
    """(a, ȧ, b, ḃ), with b never 0."""
    return [
        (rng.choice(HALVES), rng.choice(HALVES), rng.choice(NONZERO), rng.choice(NONZERO))
        for _ in range(3)
    ]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"dual_divide": quotient_points}


def seeds(rng):
    """Three seeds of numpy's generator for the random x and u, away from the template's
    (0 to 2, and the hidden tests' 7 to 9)."""
    return rng.sample(range(100, 100_000), 3)


# Exercises 2 and 4 check the student's function at random points drawn from seeds.
POINTS["directional_derivative"] = seeds
POINTS["hessian_vector_product"] = seeds

# Exercise 3's worked numbers: the shape of the weight W (b has as many entries as W has
# columns) and the side of the square picture; the picture still depends on 2 numbers.
WORKED = {
    "rows": (100, [20, 30, 40, 60, 80, 200]),
    "columns": (10, [3, 4, 5, 6, 8, 12]),
    "side": (50, [20, 28, 32, 40, 64, 100]),
}


def phrases(rows, columns, side) -> dict[str, dict[str, str]]:
    """Exercise 3's phrases: the shapes in the statement, the counts the solution works
    out, a hint's count, and the typical wrong answers' pairs."""
    inputs, pixels = rows * columns + columns, side * side
    return {
        "ex3": {
            r"$100 \times 10$": rf"${rows} \times {columns}$",
            "$(10,)$": f"$({columns},)$",
            r"$50 \times 50$": rf"${side} \times {side}$",
            "100 * 10 + 10": f"{rows} * {columns} + {columns}",  # the solution
            "50 * 50": f"{side} * {side}",
            "100 × 10": f"{rows} × {columns}",  # a hint
            "100 + 10": f"{rows} + {columns}",
            "(1, 1010)": f"(1, {inputs})",  # typical wrong answers
            "(1000, 1)": f"({rows * columns}, 1)",
            "(110, 1)": f"({rows + columns}, 1)",
            "(1010, 1)": f"({inputs}, 1)",
            "(2500, 2)": f"({pixels}, 2)",
            "(2, 2500)": f"(2, {pixels})",
            "(2, 50)": f"(2, {side})",
        }
    }
