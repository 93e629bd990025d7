"""Set 09's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/09_training: its numbers are the defaults. Exercise 2 starts
from $w = 0$, $b = 0$, whole numbers of the statement's prose: ``phrases`` says where the
start is written, and how the class's writes it.
"""

HALVES = [n / 2 for n in range(-4, 7)]  # -2.0 to 3.0


def mse_points(rng):
    """Three different (w, b); the template's (0, 0) would give every class its public value."""
    pairs = [(w, b) for w in HALVES for b in HALVES if (w, b) != (0.0, 0.0)]
    return rng.sample(pairs, 3)


def halves_points(rng):
    """One step, where forgetting to clear makes no difference yet, then a longer run, at a
    learning rate other than the template's (whose one step is public)."""
    lr = rng.choice([0.02, 0.04, 0.05, 0.08])
    return [(1, lr), (rng.randint(5, 15), lr)]


# Per exercise: each number as the statement, the solution and the typical wrong answers
# write it, and the values a class may get instead.
NUMBERS = {
    # Exercise 2: the learning rate of the one step.
    "ex2": {"0.1": [0.05, 0.15, 0.2, 0.25, 0.3]},
}

# Exercise 2's start, by name: the template's value, then the values a class may get.
WORKED = {"w0": (0, [-1, 1, 2, 3]), "b0": (0, [-1, 1, 2])}


def phrases(w0: int, b0: int) -> dict[str, dict[str, str]]:
    """Exercise 2's phrases as the template writes them (the statement, the checks' hints,
    the solution and the typical wrong answer) and as the class's start writes them."""
    return {
        "ex2": {
            "$w = 0$": f"$w = {w0}$",
            "$b = 0$": f"$b = {b0}$",
            "w = b = 0": f"w = {w0}, b = {b0}",  # the hints
            "w = mg.tensor(0.0": f"w = mg.tensor({float(w0)}",
            "b = mg.tensor(0.0": f"b = mg.tensor({float(b0)}",
        }
    }


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {"mse(w, b)": mse_points, "fit_in_halves(steps, lr)": halves_points}
