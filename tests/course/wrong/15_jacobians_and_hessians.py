"""Typical wrong answers for set 15, Jacobians and Hessians (format: ../wrong_answers.py)."""

GRADIENT_STEP = """\
newton_point = [0.0 - (-2.0), 0.0 - 4.0]"""

HESSIAN_TIMES_GRADIENT_ONLY = """\
def hessian_times(g, p, u):
    p = p.detach().requires_grad_()
    (gradient,) = mg.autograd.grad(g(p), p)
    return gradient"""

HESSIAN_TIMES_NO_CREATE_GRAPH = """\
def hessian_times(g, p, u):
    p = p.detach().requires_grad_()
    (gradient,) = mg.autograd.grad(g(p), p)
    (result,) = mg.autograd.grad((gradient * u).sum(), p)
    return result"""

# Right values, from the ready-made function instead of two calls to autograd.grad.
HESSIAN_TIMES_READY_MADE = """\
from minigrad.autograd.functional import hvp as hessian_vector


def hessian_times(g, p, u):
    return hessian_vector(g, p, u)[1]"""

WRONG = {
    "ex1_answer": [
        ("shapes = [(), (2, 3), (2,), ()]", "the Jacobian adds the input's shape"),
        ("shapes = [(3,), (2, 3), (2, 3), (3, 3)]", "output's shape followed by the input's"),
    ],
    "ex2_answer": [
        ("ju = [2.0, -6.0]\nvj = [2.0, 2.0, 6.0]", "Weight row 0 of J by 2"),
        ("ju = [2.0, 0.0, -6.0]\nvj = [4.0, 3.0, 6.0]", "one entry per output"),
    ],
    "ex3_answer": [
        (GRADIENT_STEP, "That is a plain gradient step"),
        ("newton_point = [-12 / 7, 10 / 7]", "Step to p - d, not p + d."),
    ],
    "ex4_answer": [
        (HESSIAN_TIMES_GRADIENT_ONLY, "That is the gradient of g"),
        (HESSIAN_TIMES_NO_CREATE_GRAPH, "needs create_graph=True"),
        (HESSIAN_TIMES_READY_MADE, "uses hvp, which this exercise rules out"),
    ],
}
