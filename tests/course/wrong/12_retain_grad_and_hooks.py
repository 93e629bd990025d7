"""Typical wrong answers for exercise set 12 (format: ../wrong_answers.py)."""

NO_RETAIN_GRAD = """\
s = x.sigmoid()
loss = (x * s**2).sum()
loss.backward()"""

RETAIN_THE_SQUARE = """\
s = x.sigmoid()
square = s**2
square.retain_grad()
loss = (x * square).sum()
loss.backward()
s = square"""

LEAF_INSTEAD = """\
s = x.sigmoid()
loss = (x * s**2).sum()
loss.backward()
s = x"""

CLAMP_EACH_ENTRY = """\
def clip_norm(grad):
    return grad.clamp(-1, 1)"""

ALWAYS_NORMALIZE = """\
def clip_norm(grad):
    return grad / grad.norm()"""

HOOK_AFTER_BACKWARD = """\
total.sum().backward()
total.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (None, grad_inputs[1]))
x_grad = x.grad"""

CUT_THE_WRONG_INPUT = """\
total.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0], None))
total.sum().backward()
x_grad = x.grad"""

WRONG = {
    "ex1_answer": [
        (NO_RETAIN_GRAD, "ask for its gradient before backward() runs"),
        (RETAIN_THE_SQUARE, "That is the gradient at s**2"),
        (LEAF_INSTEAD, "the gradient of the leaf x"),
    ],
    "ex2_answer": [
        (CLAMP_EACH_ENTRY, "clips each entry on its own"),
        (ALWAYS_NORMALIZE, "already shorter than 1"),
    ],
    "ex3_answer": [
        ('order = ["P", "Q", "R", "S", "T", "U"]', "not run in the order they were registered"),
        ('order = ["P", "S", "U", "T", "R", "Q"]', "own hooks run before the hooks of the node"),
        ('order = ["S", "U", "P", "R", "Q", "T"]', "pre-hooks run before its backward step"),
    ],
    "ex4_answer": [
        (HOOK_AFTER_BACKWARD, "registered before backward() ran"),
        (CUT_THE_WRONG_INPUT, "That is what comes through a"),
    ],
}
