"""Set 11's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/11_custom_functions: its numbers are the defaults. Exercise
2's points are a variable of its check cell (leaky_points, with its slopes), and the
gradcheck inputs are no key (gradcheck compares with its own estimate): both stay.
"""

# Tenths from -3 to 3, but not the halves and whole numbers, where this repository already
# shows softplus, tanh and their derivatives (a value in a public file makes the command
# draw again).
TENTHS = [n / 10 for n in range(-30, 31) if n % 5]


def vectors(rng, sizes):
    """One point per size, of that many entries."""
    return [rng.sample(TENTHS, size) for size in sizes]


def hypot_points(rng):
    """Pairs (a, b) of equal sizes; never a = b = 0 (r = 0 there), as TENTHS has no 0."""
    return [tuple(vectors(rng, [size, size])) for size in (2, 3)]


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "Softplus's gradient": lambda rng: vectors(rng, [3, 2, 4]),
    "Hypot's gradients (a.grad, then b.grad)": hypot_points,
    "LogCosh's second derivative": lambda rng: vectors(rng, [3, 2]),
}
