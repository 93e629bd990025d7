"""Typical wrong answers for exercise set 17, Backprop by hand (format: ../wrong_answers.py)."""

LINEAR_NO_TRANSPOSE = """\
def linear_backward(x, W, dout):
    return dout @ W, x.T @ dout, dout.sum(0)"""

LINEAR_DW_TRANSPOSED = """\
def linear_backward(x, W, dout):
    return dout @ W.T, dout.T @ x, dout.sum(0)"""

LINEAR_DB_MEAN = """\
def linear_backward(x, W, dout):
    return dout @ W.T, x.T @ dout, dout.mean(0)"""

LINEAR_DB_NOT_SUMMED = """\
def linear_backward(x, W, dout):
    return dout @ W.T, x.T @ dout, dout"""

CROSS_ENTROPY_NOT_AVERAGED = """\
def cross_entropy_backward(logits, labels):
    probs = logits.exp() / logits.exp().sum(1, keepdim=True)
    chosen = mg.zeros(logits.shape, dtype=logits.dtype)
    chosen[range(logits.shape[0]), labels] = 1.0
    return probs - chosen"""

CROSS_ENTROPY_SIGN = """\
def cross_entropy_backward(logits, labels):
    probs = logits.exp() / logits.exp().sum(1, keepdim=True)
    chosen = mg.zeros(logits.shape, dtype=logits.dtype)
    chosen[range(logits.shape[0]), labels] = 1.0
    return (chosen - probs) / logits.shape[0]"""

CROSS_ENTROPY_LOGITS = """\
def cross_entropy_backward(logits, labels):
    chosen = mg.zeros(logits.shape, dtype=logits.dtype)
    chosen[range(logits.shape[0]), labels] = 1.0
    return (logits - chosen) / logits.shape[0]"""

TANH_NO_CHAIN = """\
def tanh_backward(dout, out):
    return 1 - out**2"""

TANH_SQUARE_OUTSIDE = """\
def tanh_backward(dout, out):
    return dout * (1 - out) ** 2"""

TANH_SIGMOID = """\
def tanh_backward(dout, out):
    return dout * out * (1 - out)"""

WRONG = {
    "ex1_answer": [
        (LINEAR_NO_TRANSPOSE, "Which matrix, W or its transpose"),
        (LINEAR_DW_TRANSPOSED, "dW is the transpose of what it should be"),
        (LINEAR_DB_MEAN, "the gradients of its uses add up"),
        (LINEAR_DB_NOT_SUMMED, "db has shape (3, 2), but a gradient has the shape of its tensor"),
    ],
    "ex2_answer": [
        (CROSS_ENTROPY_NOT_AVERAGED, "The loss is a mean over the rows of the batch"),
        (CROSS_ENTROPY_SIGN, "The sign is flipped"),
        (CROSS_ENTROPY_LOGITS, "Use the probabilities"),
    ],
    "ex3_answer": [
        ('first_wrong = "W1"', "W1 is where the mistake ends up"),
        ('first_wrong = "h"', "The gradient of h agrees with the engine's"),
        ('first_wrong = "da1"', "not the name of the student's gradient variable"),
        ('first_wrong = "b1"', "stop at the first one marked ✘"),
    ],
    "ex4_answer": [
        (TANH_NO_CHAIN, "multiply it by the gradient that arrived"),
        (TANH_SQUARE_OUTSIDE, "Square out first"),
        (TANH_SIGMOID, "derivative of the sigmoid"),
    ],
}
