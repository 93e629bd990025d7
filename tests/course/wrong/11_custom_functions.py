"""Typical wrong answers for exercise set 11_custom_functions (format: ../wrong_answers.py)."""

SOFTPLUS = """\
class Softplus(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {}"""

LEAKY_RELU = """\
class LeakyReLU(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        return mg.where(x > 0, x, slope * x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {}"""

HYPOT = """\
class Hypot(mg.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        r = (a * a + b * b).sqrt()
        ctx.save_for_backward(a, b, r)
        return r

    @staticmethod
    def backward(ctx, grad_output):
        a, b, r = ctx.saved_tensors
        return {}"""

LOG_COSH_WITH_NUMPY = """\
class LogCosh(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x.exp() + (-x).exp()).log() - math.log(2)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * mg.tensor(np.tanh(x.detach().numpy()))"""

WRONG = {
    "ex1_answer": [
        (SOFTPLUS.format("1 / (1 + (-x).exp())"), "must be multiplied by grad_output"),
        (SOFTPLUS.format("grad_output / (1 + x.exp())"), "The chain rule inside the log"),
    ],
    "ex2_answer": [
        (LEAKY_RELU.format("grad_output * mg.where(x > 0, 1.0, ctx.slope)"), "None for slope"),
        (LEAKY_RELU.format("grad_output * (x > 0).double(), None"), "keep slope on ctx"),
        (LEAKY_RELU.format("mg.where(x > 0, 1.0, ctx.slope), None"), "multiplied by grad_output"),
    ],
    "ex3_answer": [
        (HYPOT.format("grad_output * b / r, grad_output * a / r"), "swapped"),
        (HYPOT.format("grad_output * a / (2 * r), grad_output * b / (2 * r)"), "Half of the"),
        (HYPOT.format("a / r, b / r"), "each must be multiplied by grad_output"),
    ],
    "ex4_answer": [(LOG_COSH_WITH_NUMPY, "has no history")],
}
