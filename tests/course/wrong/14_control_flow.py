"""Typical wrong answers for set 14, control flow (format: ../wrong_answers.py)."""

HORNER_HIGHEST_FIRST = """\
def polynomial(coefficients, x):
    result = 0.0
    for coefficient in coefficients:
        result = result * x + coefficient
    return result"""

POLYNOMIAL_OF_NUMBERS = """\
def polynomial(coefficients, x):
    return sum(c * x.item() ** i for i, c in enumerate(coefficients))"""

NEWTON_UNRECORDED = """\
def newton_sqrt(a):
    x = a
    with mg.no_grad():
        while (x * x - a).abs() > 1e-10:
            x = (x + a / x) / 2
    return x"""

NEWTON_ON_FLOATS = """\
def newton_sqrt(a):
    x = a.item()
    while abs(x * x - a.item()) > 1e-10:
        x = (x + a.item() / x) / 2
    return x"""

WRONG = {
    "ex1_answer": [
        ("shrink_grads = [0.25, 0.5]", "Those are the outputs of shrink"),
        ("shrink_grads = [1 / 64, 1 / 16]", "x - 1 has slope 1"),
    ],
    "ex2_answer": [
        (HORNER_HIGHEST_FIRST, "the first one goes with x⁰"),
        (POLYNOMIAL_OF_NUMBERS, "backward() can follow every step"),
    ],
    "ex3_answer": [
        ("branch_grads = [3.0, 3.0, 6.0]", "differentiates the branch that ran"),
        ("branch_grads = [0.0, 3.0, 11.0]", "values of f, not its slopes"),
    ],
    "ex4_answer": [
        (NEWTON_UNRECORDED, "The steps of the loop must be recorded"),
        (NEWTON_ON_FLOATS, "Keep x a tensor computed from a"),
    ],
}
