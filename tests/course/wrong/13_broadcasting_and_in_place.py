"""Typical wrong answers for exercise set 13 (format: ../wrong_answers.py)."""

MEAN_NOT_SUM = """\
def sum_to_shape(grad, shape):
    while grad.dim() > len(shape):
        grad = grad.mean(dim=0)
    for dim, size in enumerate(shape):
        if size == 1 and grad.shape[dim] != 1:
            grad = grad.mean(dim=dim, keepdim=True)
    return grad"""

ONLY_LEADING_DIMS = """\
def sum_to_shape(grad, shape):
    while grad.dim() > len(shape):
        grad = grad.sum(dim=0)
    return grad"""

SIGMOID_SAVES_INPUT = """\
breaks = {
    "b = a.sigmoid(); a.mul_(2)": True,
    "b = a.sigmoid(); b.mul_(2)": False,
    "b = a.log(); a.add_(1)": True,
    "b = a * 3; a.mul_(2)": False,
    "b = a ** 2; b.add_(1)": False,
    "b = a.tanh(); b.add_(1)": False,
}"""

STILL_IN_PLACE = """\
def fixed(x):
    h = x.sigmoid()
    h.mul_(2)
    h = h - 1
    return (h * x).sum()"""

DETACHED = """\
def fixed(x):
    h = x.sigmoid().detach()
    h.mul_(2)
    h.sub_(1)
    return (h * x).sum()"""

# Right values, but with the ready-made function that the exercise says not to use.
READY_MADE_SUM_TO_SIZE = """\
def sum_to_shape(grad, shape):
    return grad.sum_to_size(shape)"""

WRONG = {
    "ex1_answer": [
        (MEAN_NOT_SUM, "sum, do not average"),
        (ONLY_LEADING_DIMS, "Dimensions of size 1 in shape were stretched too"),
        (READY_MADE_SUM_TO_SIZE, "uses Tensor.sum_to_size, which this exercise rules out"),
    ],
    "ex2_answer": [
        (SIGMOID_SAVES_INPUT, "the input, or the output?"),
        (
            "breaks = {c: True for c in "
            '["b = a.sigmoid(); a.mul_(2)", "b = a.sigmoid(); b.mul_(2)", '
            '"b = a.log(); a.add_(1)", "b = a * 3; a.mul_(2)", "b = a ** 2; b.add_(1)", '
            '"b = a.tanh(); b.add_(1)"]}',
            "Not every in-place change breaks backward",
        ),
    ],
    "ex3_answer": [
        (STILL_IN_PLACE, "backward() still fails"),
        (DETACHED, "is part of the graph detached?"),
    ],
}
