"""Set 10's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/10_checking_gradients: its numbers are the defaults.
"""

from itertools import permutations

# Tenths from -3 to 3 for exercise 1's sin, but not the halves and whole numbers (0 among
# them), where this repository already shows sin and cos.
TENTHS = [n / 10 for n in range(-30, 31) if n % 5]
# Tenths from -1.5 to 2 for each entry of exercise 2's x: exp(t1 * t2) stays below e⁴.
ENTRIES = [n / 10 for n in range(-15, 21)]


def energy_points(rng):
    """Three points of three entries each."""
    return [[rng.choice(ENTRIES) for _ in range(3)] for _ in range(3)]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "numerical_derivative(math.sin, x0, 1e-3)": lambda rng: sorted(rng.sample(TENTHS, 3)),
    "numerical_gradient(energy, x, 1e-3)": energy_points,
}

# Exercise 3 asks which functions autograd differentiates wrongly, a choice that numbers do
# not change: a class gets other code instead (WORDS), and its key is what the solution,
# which runs gradcheck and gradgradcheck on that code, gives. Each function keeps its kind
# (right everywhere; a detached factor that the first derivative needs; a tangent, right
# once and wrong twice), with another formula, and the three names are dealt out anew.
NAMES = ["f_a", "f_b", "f_c"]
WORDS = {
    "ex3": [
        [
            dict(zip(NAMES, order))
            for order in permutations(NAMES)
            if list(order) != NAMES  # a class never keeps the template's names
        ],
        [
            {},
            {"x * x.sin()": "x * x.cos()", "x·sin(x)": "x·cos(x)"},
            {"x * x.sin()": "x.exp() * x.sin()", "x·sin(x)": "eˣ·sin(x)"},
        ],
        [
            {},
            {"x.exp() * x.detach()": "x.detach() * x.cos()", "x·eˣ": "x·cos(x)"},
            {"x.exp() * x.detach()": "x.sin() * x.detach()", "x·eˣ": "x·sin(x)"},
        ],
        [
            {},
            {
                "x0.cos() - x0.sin() * (x - x0)": "x0.sin() + x0.cos() * (x - x0)",
                "cos(x)": "sin(x)",
            },
            {"x0.cos() - x0.sin() * (x - x0)": "x0.exp() + x0.exp() * (x - x0)", "cos(x)": "eˣ"},
        ],
    ]
}
