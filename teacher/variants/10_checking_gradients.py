"""Set 10's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/10_checking_gradients: its numbers are the defaults.
"""

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
