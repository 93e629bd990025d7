"""Typical wrong answers for every exercise, and a piece of the hint each must get.

``WRONG[set][answer cell] = [(code, hint), ...]``: ``code`` replaces the whole answer cell of
the released notebook; ``hint`` must appear in the failing grade cell's message (in the
autograded notebook and in the feedback). The first wrong answer of every exercise makes
submission "wrong-a", the second (where there is one) "wrong-b".
"""

TRAIN_NO_ZERO_GRAD = """\
def train(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.1)
    for _ in range(steps):
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item()"""

TRAIN_NO_RETURN = """\
def train(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.1)
    for _ in range(steps):
        optimizer.zero_grad()
        ((w - 5) ** 2).backward()
        optimizer.step()"""

SECOND_NO_CREATE_GRAPH = """\
def second_derivative(x0):
    x = mg.tensor(x0, dtype=mg.float64, requires_grad=True)
    (first,) = mg.autograd.grad(f(x), x)
    (second,) = mg.autograd.grad(first, x)
    return second.item()"""

SECOND_IS_FIRST = """\
def second_derivative(x0):
    x = mg.tensor(x0, dtype=mg.float64, requires_grad=True)
    (first,) = mg.autograd.grad(f(x), x)
    return first.item()"""

NTH_NO_CREATE_GRAPH = """\
def nth_derivative(f, x0, n):
    x = mg.tensor(x0, dtype=mg.float64, requires_grad=True)
    result = f(x)
    for _ in range(n):
        (result,) = mg.autograd.grad(result, x)
    return result.item()"""

FIT_NO_ZERO_GRAD = """\
def fit(steps, lr):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    b = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w, b], lr=lr)
    for _ in range(steps):
        ((w * x + b - y) ** 2).mean().backward()
        optimizer.step()
    return w.item(), b.item()"""

STEP_UPHILL = """\
w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
b = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
((w * x + b - y) ** 2).mean().backward()
w1 = (w + 0.1 * w.grad).item()
b1 = (b + 0.1 * b.grad).item()"""

GRADIENT_ONE_SIDED = """\
def numerical_gradient(f, x, eps):
    gradient = mg.zeros(x.shape, dtype=x.dtype)
    for j in range(x.numel()):
        step = mg.zeros(x.shape, dtype=x.dtype)
        step[j] = eps
        gradient[j] = (f(x + step) - f(x)) / eps
    return gradient"""

GRADIENT_NUDGES_X = """\
def numerical_gradient(f, x, eps):
    gradient = mg.zeros(x.shape, dtype=x.dtype)
    for j in range(x.numel()):
        x[j] += eps
        plus = f(x)
        x[j] -= 2 * eps
        gradient[j] = (plus - f(x)) / (2 * eps)
    return gradient"""

WRONG = {
    "01_gradients": {
        "ex1_answer": [
            ("dfdx = 27", "derivative of the term -2x"),
            ("dfdx = 21.0", "the value of the function"),
        ],
        "ex2_answer": [("w = mg.tensor([1.0, 2.0, 3.0])", "requires_grad=True")],
        "ex3_answer": [
            ("x_grad = 6.0\nc_grad_is_none = True", "Keep the constant factor"),
            ("x_grad = 12\nc_grad_is_none = False", "computes gradients only for those"),
        ],
        "ex4_answer": [
            ("dz_dx = 12.0\ndz_dy = 8.0", "has a factor ln a"),
            ("dz_dx = 12.0\ndz_dy = 8 * math.log(3)", "the logarithm of the base"),
        ],
    },
    "02_computation_graph": {
        "ex1_answer": [('grad_fn_name = "MulBackward0"', "belongs to the last operation")],
        "ex2_answer": [("n_accumulate = 4", "it is one leaf")],
        "ex3_answer": [
            ('leaves = {"x"}', "are leaves too"),
            ('leaves = ["x", "c"]', "What does detach() return"),
        ],
        "ex4_answer": [
            ('parents = ("MulBackward0", "AccumulateGrad")', "nothing to send it"),
            ('parents = ["AccumulateGrad", None]', "a result with its own node"),
        ],
    },
    "03_backward_step_by_step": {
        "ex1_answer": [("into_mul = 0.5\ninto_pow = 0.5", "does not split its gradient")],
        "ex2_answer": [
            ("from_mul = 2.0\nfrom_pow = 4.0", "the other factor, not x"),
            ("from_mul = 3.0\nfrom_pow = 2.0", "Evaluate the derivative of x²"),
        ],
        "ex3_answer": [
            ("x_grad = 3.0\ny_grad = 2.0", "along two paths"),
            ("x_grad = 7.0\ny_grad = 3.0", "the other factor, not y"),
        ],
        "ex4_answer": [
            ("dfdx = math.cos(1.5**2)", "derivative of the inside, too"),
            ("dfdx = math.cos(2 * 1.5) * 2 * 1.5", "evaluated at the inside"),
        ],
    },
    "04_accumulation_and_zeroing": {
        "ex1_answer": [("w_grad = 4.0", "does not replace"), ("w_grad = 3", "not the last word")],
        "ex2_answer": [
            ("printed = [1.0, 2.0, 3.0]", "the running sum"),
            ("printed = (1, 3, 'six')", "should be a number"),
        ],
        "ex3_answer": [
            (TRAIN_NO_ZERO_GRAD, "call optimizer.zero_grad() in every step"),
            (TRAIN_NO_RETURN, "did you forget `return`"),
        ],
        "ex4_answer": [("after_zero_ = 0.0\nnone_after_zero_grad = False", "set_to_none")],
    },
    "05_non_scalar_outputs": {
        "ex1_answer": [("x_grad = [3.0, 12.0, 3.0]", "by its weight in gradient")],
        "ex2_answer": [("v = mg.ones(3, 2)", "it has y's shape")],
        "ex3_answer": [
            ("J = [[3.0, 1.0, 4.0], [2.0, 1.0, 0.0]]", "you wrote Jᵀ"),
            ("J = [[3.0, 2.0], [1.0, 1.0], [4.0]]", "should be a number"),
        ],
        "ex4_answer": [("vjp = [8.0, 3.0]", "adding the rows unweighted")],
    },
    "06_retain_graph": {
        "ex1_answer": [
            (
                "def backward_twice():\n"
                "    x = mg.tensor([1.0, 2.0], requires_grad=True)\n"
                "    y = (x**2).sum()\n"
                "    y.backward(retain_graph=True)\n"
                "    y.backward()",
                "saves tensors for backward",
            )
        ],
        "ex2_answer": [
            (
                'fails = {"x + 1": True, "x.exp()": True, "x * x": True}',
                "does AddBackward0 need anything saved",
            )
        ],
        "ex3_answer": [("loss1.backward()\nx_grad = x.grad", "gradient of loss1 alone")],
    },
    "07_differentiating_twice": {
        "ex1_answer": [("d2f = 32.0", "That is f'(2)")],
        "ex2_answer": [
            (SECOND_NO_CREATE_GRAPH, "needs create_graph=True"),
            (SECOND_IS_FIRST, "That is f'"),
        ],
        "ex3_answer": [
            ("x_grad = 18.0", "already held f'(3)"),
            ("x_grad = 27.0", "adds f''(3) into x.grad"),
        ],
        "ex4_answer": [(NTH_NO_CREATE_GRAPH, "keeping each derivative differentiable")],
    },
    "08_turning_gradients_off": {
        "ex1_answer": [
            (
                "def freeze_all_but_last(model):\n    model[0].requires_grad_(False)",
                "Only the first layer is frozen",
            ),
            (
                "def freeze_all_but_last(model):\n    model.requires_grad_(False)",
                "the last layer must still learn",
            ),
        ],
        "ex2_answer": [
            ("trainable = 46", "counts the frozen first layer too"),
            ("trainable = 4", "not the tensors"),
        ],
        "ex3_answer": [("x_grad = -4.0", "target.detach() is a constant")],
        "ex4_answer": [
            ("def sign_with_gradient(x):\n    return x.sign()", "the gradient is that of sign()"),
            (
                "def sign_with_gradient(x):\n    return x.detach().sign()",
                "do not detach x itself",
            ),
        ],
    },
    "09_training": {
        "ex1_answer": [
            ("def mse(w, b):\n    return ((w * x + b - y) ** 2).sum()", "use .mean()"),
            ("def mse(w, b):\n    ((w * x + b - y) ** 2).mean()", "did you forget `return`"),
        ],
        "ex2_answer": [(STEP_UPHILL, "Step against the gradient")],
        "ex3_answer": [(FIT_NO_ZERO_GRAD, "start from a clean gradient")],
    },
    "10_checking_gradients": {
        "ex1_answer": [
            (
                "def numerical_derivative(f, x0, eps):\n    return (f(x0 + eps) - f(x0)) / eps",
                "step both ways",
            ),
            (
                "def numerical_derivative(f, x0, eps):\n"
                "    return (f(x0 + eps) - f(x0 - eps)) / eps",
                "Divide by that distance",
            ),
        ],
        "ex2_answer": [
            (GRADIENT_ONE_SIDED, "one-sided difference"),
            (GRADIENT_NUDGES_X, "it changed x"),
        ],
        "ex3_answer": [
            (
                'fails_gradcheck = {"f_b", "f_c"}\nfails_gradgradcheck = {"f_b", "f_c"}',
                "A detach() is not always wrong",
            ),
            (
                'fails_gradcheck = ["f_b"]\nfails_gradgradcheck = ["f_c"]',
                "Also run gradgradcheck on the functions that already fail",
            ),
        ],
    },
}


def _more_sets() -> None:
    """Sets added later keep their wrong answers in ``wrong/<set>.py`` (a module defining
    ``WRONG`` for that one set), so that work on different sets touches different files."""
    import importlib.util
    from pathlib import Path

    for path in sorted((Path(__file__).parent / "wrong").glob("[0-9][0-9]_*.py")):
        spec = importlib.util.spec_from_file_location(f"wrong_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if path.stem in WRONG:
            raise ValueError(f"{path.name}: wrong answers for {path.stem} are defined twice")
        WRONG[path.stem] = module.WRONG


_more_sets()
