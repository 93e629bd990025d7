"""Set 11's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/11_custom_functions: its numbers are the defaults. Exercise
2's points (each an x and a slope) are a variable of its check cell, leaky_points, which its
two checks share: a class draws them for the first, and the second follows. The gradcheck
inputs are no key (gradcheck compares with its own estimate): they stay.
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


# Slopes of a leaky ReLU: small, and not the template's 0.1, 0.3, 0.02.
SLOPES = [0.05, 0.15, 0.2, 0.25, 0.4]


def leaky_points(rng):
    """Three (x, slope) points of 3, 2 and 4 entries, each x with a negative entry and a
    positive one (where the two slopes of the function differ), the slopes all different."""
    points = []
    for size, slope in zip((3, 2, 4), rng.sample(SLOPES, 3)):
        negative = rng.choice([t for t in TENTHS if t < 0])
        positive = rng.choice([t for t in TENTHS if t > 0])
        others = rng.sample([t for t in TENTHS if t not in (negative, positive)], size - 2)
        x = [negative, positive, *others]
        rng.shuffle(x)
        points.append((x, slope))
    return points


# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    "LeakyReLU.apply(x, slope)": leaky_points,  # and "LeakyReLU's gradient", at the same
    "Softplus's gradient": lambda rng: vectors(rng, [3, 2, 4]),
    "Hypot's gradients (a.grad, then b.grad)": hypot_points,
    "LogCosh's second derivative": lambda rng: vectors(rng, [3, 2]),
}
