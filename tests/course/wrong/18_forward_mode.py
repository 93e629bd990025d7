"""Typical wrong answers for exercise set 18, Forward mode (format: ../wrong_answers.py)."""

DIVIDE_SIGN = """\
def dual_divide(a, a_dot, b, b_dot):
    return a / b, (a_dot * b + a * b_dot) / b**2"""

DIVIDE_NOT_SQUARED = """\
def dual_divide(a, a_dot, b, b_dot):
    return a / b, (a_dot * b - a * b_dot) / b"""

DIVIDE_TANGENTS = """\
def dual_divide(a, a_dot, b, b_dot):
    return a / b, a_dot / b_dot"""

DIRECTIONAL_PRIMAL = """\
def directional_derivative(func, x, u):
    with fwAD.dual_level():
        return fwAD.unpack_dual(func(fwAD.make_dual(x, u))).primal"""

DIRECTIONAL_SWAPPED = """\
def directional_derivative(func, x, u):
    with fwAD.dual_level():
        return fwAD.unpack_dual(func(fwAD.make_dual(u, x))).tangent"""

HVP_GRADIENT = """\
def hessian_vector_product(func, x, u):
    x = x.detach().requires_grad_()
    with fwAD.dual_level():
        dual_x = fwAD.make_dual(x, u)
        (gradient,) = mg.autograd.grad(func(dual_x), dual_x, create_graph=True)
        return fwAD.unpack_dual(gradient).primal.detach()"""

HVP_SWAPPED = """\
def hessian_vector_product(func, x, u):
    u = u.detach().requires_grad_()
    with fwAD.dual_level():
        dual_u = fwAD.make_dual(u, x)
        (gradient,) = mg.autograd.grad(func(dual_u), dual_u, create_graph=True)
        return fwAD.unpack_dual(gradient).tangent.detach()"""

WRONG = {
    "ex1_answer": [
        (DIVIDE_SIGN, "Check the sign of the a·ḃ term"),
        (DIVIDE_NOT_SQUARED, "Check the power of b"),
        (DIVIDE_TANGENTS, "not the quotient of the tangents"),
    ],
    "ex2_answer": [
        (DIRECTIONAL_PRIMAL, "That is the value func(x), the primal"),
        (DIRECTIONAL_SWAPPED, "the point comes first, the direction second"),
    ],
    "ex3_answer": [
        (
            "loss_passes = (1, 1010)\nimage_passes = (2, 2500)",
            "which mode needs one pass per input",
        ),
        ("loss_passes = (1000, 1)\nimage_passes = (2, 2500)", "The bias b is an input too"),
        ("loss_passes = (110, 1)\nimage_passes = (2, 2500)", "W holds"),
        (
            "loss_passes = (1010, 1)\nimage_passes = (2500, 2)",
            "which mode needs one pass per output",
        ),
        ("loss_passes = (1010, 1)\nimage_passes = (2, 50)", "every pixel of the picture"),
    ],
    "ex4_answer": [
        (HVP_GRADIENT, "That is the gradient itself"),
        (HVP_SWAPPED, "the point comes first, the direction second"),
    ],
}
