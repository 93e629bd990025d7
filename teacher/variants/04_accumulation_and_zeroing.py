"""Set 04's class variants: what a class's secret may change (scripts/class_variant.py).

The template is teacher/source/04_accumulation_and_zeroing: its numbers are the defaults.
"""

# Per check_function check (by its name): how to draw the points of a class.
POINTS = {
    # One step, where every way of training agrees, then two longer runs.
    "remembering(steps)": lambda rng: [1, *sorted(rng.sample(range(2, 16), 2))],
}
