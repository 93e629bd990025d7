"""Typical wrong answers for every exercise, and a piece of the hint each must get.

``WRONG[set][answer cell] = [(code, hint), ...]``: ``code`` replaces the whole answer cell of
the released notebook; ``hint`` must appear in the failing grade cell's message (in the
autograded notebook and in the feedback). The first wrong answer of every exercise makes
submission "wrong-a", the second (where there is one) "wrong-b".
"""

REMEMBERING_ORDINARY = """\
def remembering(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.01)
    for _ in range(steps):
        optimizer.zero_grad()
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item(), w.grad.item()"""

REMEMBERING_NOT_CLEARED = """\
def remembering(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.01)
    for _ in range(steps):
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item(), w.grad.item()"""

REMEMBERING_SHRINKING = """\
def remembering(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.01, momentum=0.9)
    for _ in range(steps):
        optimizer.zero_grad()
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item(), w.grad.item()"""

REMEMBERING_TWICE = """\
def remembering(steps):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w], lr=0.01, momentum=1.0)
    for _ in range(steps):
        ((w - 5) ** 2).backward()
        optimizer.step()
    return w.item(), w.grad.item()"""

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

HALVES_UNSCALED = """\
def fit_in_halves(steps, lr):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    b = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w, b], lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        ((w * x[:10] + b - y[:10]) ** 2).mean().backward()
        ((w * x[10:] + b - y[10:]) ** 2).mean().backward()
        optimizer.step()
    return w.item(), b.item()"""

HALVES_NOT_CLEARED = """\
def fit_in_halves(steps, lr):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    b = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w, b], lr=lr)
    for _ in range(steps):
        (((w * x[:10] + b - y[:10]) ** 2).mean() / 2).backward()
        (((w * x[10:] + b - y[10:]) ** 2).mean() / 2).backward()
        optimizer.step()
    return w.item(), b.item()"""

HALVES_ZERO_BETWEEN = """\
def fit_in_halves(steps, lr):
    w = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    b = mg.tensor(0.0, dtype=mg.float64, requires_grad=True)
    optimizer = mg.optim.SGD([w, b], lr=lr)
    for _ in range(steps):
        for part in (slice(0, 10), slice(10, 20)):
            optimizer.zero_grad()
            (((w * x[part] + b - y[part]) ** 2).mean() / 2).backward()
        optimizer.step()
    return w.item(), b.item()"""

ROWS_NOT_CLEARED = """\
y.backward(gradient=mg.tensor([1.0, 0.0], dtype=mg.float64), retain_graph=True)
first_row = x.grad.tolist()
y.backward(gradient=mg.tensor([0.0, 1.0], dtype=mg.float64))
J = [first_row, x.grad.tolist()]"""

ROWS_ONE_TENSOR = """\
y.backward(gradient=mg.tensor([1.0, 0.0], dtype=mg.float64), retain_graph=True)
first_row = x.grad
x.grad.zero_()
y.backward(gradient=mg.tensor([0.0, 1.0], dtype=mg.float64))
J = mg.stack([first_row, x.grad])"""

ROWS_TRANSPOSED = """\
y.backward(gradient=mg.tensor([1.0, 0.0], dtype=mg.float64), retain_graph=True)
first_row = x.grad.tolist()
x.grad = None
y.backward(gradient=mg.tensor([0.0, 1.0], dtype=mg.float64))
J = [list(column) for column in zip(first_row, x.grad.tolist())]"""

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

GRADIENT_HALF_DISTANCE = """\
def numerical_gradient(f, x, eps):
    gradient = mg.zeros(x.shape, dtype=x.dtype)
    for j in range(x.numel()):
        step = mg.zeros(x.shape, dtype=x.dtype)
        step[j] = eps
        gradient[j] = (f(x + step) - f(x - step)) / eps
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
        # Exercises 1 and 4: worked with the statement's x = 3 (and x = 2, y = 3), which class
        # variants change (teacher/variants/01_gradients.py, its phrases).
        "ex1_answer": [
            ("dfdx = 3 * 3**2", "derivative of the term -2x"),
            ("dfdx = 3**3 - 2 * 3", "the value of the function"),
        ],
        "ex2_answer": [
            (
                "w = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)\n"
                "(w**2).sum().backward()",
                "divides every term",
            ),
            ("w = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])", "requires_grad=True"),
        ],
        # Written with the statement's x = 3.0, which class variants change.
        "ex3_answer": [
            ("x_grad = 2 * 3.0\nc_grad_is_none = True", "Keep the constant factor"),
            ("x_grad = 4 * 3.0\nc_grad_is_none = False", "computes gradients only for those"),
        ],
        "ex4_answer": [
            ("dz_dx = 3**2 + 3 / 2**2\ndz_dy = 2 * 2 * 3 + 1 / 2", "is negative"),
            ("dz_dx = 3**2 - 3 / 2**2\ndz_dy = 2 * 2 * 3", "depends on y too"),
            ("dz_dx = 3**2\ndz_dy = 2 * 2 * 3 + 1 / 2", "differentiate it as well"),
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
            ('parents = ("ExpBackward0", "MulBackward0")', "was anything recorded"),
            ('parents = ["MulBackward0", None]', "what exp() returned"),
        ],
    },
    # Exercises 1 to 3: worked at the statement's x = 3, y = -1, which class variants change
    # (teacher/variants/03_backward_step_by_step.py, its phrases).
    "03_backward_step_by_step": {
        "ex1_answer": [
            ("into_p = (3 - 1) * 3", "not the derivative of p²"),
            ("into_p = 2", "Evaluate the local derivative"),
            ("into_p = ((3 - 1) * 3) ** 2", "the value of z"),
        ],
        "ex2_answer": [
            ("into_s = 3.0\ninto_x = 2.0", "not by 1"),
            ("into_s = 24.0\ninto_x = 36.0", "is the other factor"),
        ],
        "ex3_answer": [
            ("x_grad = 24.0\ny_grad = 36.0", "along two paths"),
            ("x_grad = 60.0\ny_grad = 12.0", "passes on all that arrives"),
            ("x_grad = 36.0\ny_grad = 36.0", "along two paths"),
            ("x_grad = 60.0\ny_grad = 1.0", "that is not 1 here"),
        ],
        "ex4_answer": [
            ("dfdx = math.cos(1.5**2)", "derivative of the inside, too"),
            ("dfdx = math.cos(2 * 1.5) * 2 * 1.5", "evaluated at the inside"),
        ],
    },
    "04_accumulation_and_zeroing": {
        # Written with the statement's a = 1.0 and b = 3.0, which class variants change.
        "ex1_answer": [
            ("a_grad = 1\nb_grad = 2 * 3.0", "does not replace a.grad"),
            ("a_grad = 3.0 + 1\nb_grad = 1 + 2 * 3.0", "each of the three reaches b"),
            ("a_grad = 3.0\nb_grad = 1.0 + 1 + 2 * 3.0", "not the last word"),
            ("a_grad = 3.0 + 1\nb_grad = 2 * 3.0", "collects what every backward() call sent it"),
        ],
        # Written with the loop's k (1, 2, 3), which class variants change.
        "ex2_answer": [
            ("printed = [float(k) for k in [1, 2, 3]]", "the running sum"),
            ("printed = (1, 3, 'six')", "should be a number"),
        ],
        "ex3_answer": [
            (REMEMBERING_ORDINARY, "That is ordinary training"),
            (REMEMBERING_NOT_CLEARED, "this loop does not clear the gradient"),
            (REMEMBERING_SHRINKING, "older gradients shrink"),
            (REMEMBERING_TWICE, "pile up twice"),
        ],
        # Written with the statement's w = 2.0 and its (3 * w), which class variants change:
        # 2 * 2.0 is the first gradient 2w, 2 * 2.0**2 + 2.0**2 the last one, 3w².
        "ex4_answer": [
            (
                "saved_at_A = 2 * 2.0\nsaved_at_B = 3\ngrad_at_B = 2 * 2.0**2 + 2.0**2",
                "emptied the very tensor",
            ),
            (
                "saved_at_A = 3\nsaved_at_B = 3 + 2 * 2.0**2 + 2.0**2\n"
                "grad_at_B = 3 + 2 * 2.0**2 + 2.0**2",
                "still refers to the old",
            ),
            ("saved_at_A = 2 * 2.0 + 3\nsaved_at_B = 3\ngrad_at_B = 3", "what was left to add to"),
            ("saved_at_A = 0.0\nsaved_at_B = 3\ngrad_at_B = 3", "saved sees it"),
            ("saved_at_A = 3\nsaved_at_B = 0.0\ngrad_at_B = 3", "does not write zeros"),
            (
                "saved_at_A = 3\nsaved_at_B = 2 * 2.0**2 + 2.0**2\ngrad_at_B = 2 * 2.0**2 + 2.0**2",
                "still refers to the old",
            ),
            (
                "saved_at_A = 3\nsaved_at_B = 3\ngrad_at_B = 3 + 2 * 2.0**2 + 2.0**2",
                "cleared w.grad before the last",
            ),
        ],
    },
    "05_non_scalar_outputs": {
        "ex1_answer": [
            ("v = [2.0, -1.0]", "including the entries that L does not use"),
            ("v = mg.tensor([2.0, 0.0, 1.0])", "Mind the sign"),
        ],
        "ex2_answer": [
            ("x_grad = [1.0, 1.0, 1.0]", "every output that uses"),
            ("x_grad = [1.0, 2.0, 3.0]", "adds up column j"),
        ],
        "ex3_answer": [
            ("weights = [6.0, 6.0, 2.0]", "one number per entry of y"),
            ("weights = [1.0, 3.0]", "solve for the weights"),
        ],
        "ex4_answer": [
            ("vjp = [6.0, 0.0, -6.0]", "only the diagonal"),
            ("vjp = [-2.0, -2.0, -2.0]", "only the path through x.sum()"),
        ],
    },
    "06_retain_graph": {
        "ex1_answer": [
            ('second_fails = {"A": True, "B": True}', "saved nothing"),
            ('second_fails = {"A": False, "B": False}', "saved its inputs"),
            ('second_fails = {"A": False, "B": True}', "did the shared node save anything"),
        ],
        "ex2_answer": [
            (
                'fails = {"x.exp() + 1": False, "(x + 1) - x": False, '
                '"(x * x).detach() + x": False, "x.detach() * x": True}',
                "walks every node below it",
            ),
            (
                'fails = {"x.exp() + 1": True, "(x + 1) - x": False, '
                '"(x * x).detach() + x": True, "x.detach() * x": True}',
                "cut the multiplication out",
            ),
            (
                'fails = {"x.exp() + 1": True, "(x + 1) - x": False, '
                '"(x * x).detach() + x": False, "x.detach() * x": False}',
                "even when that factor does not require grad",
            ),
        ],
        "ex3_answer": [
            (ROWS_NOT_CLEARED, "clear it between the two calls"),
            (ROWS_ONE_TENSOR, "Both rows are one tensor"),
            (ROWS_TRANSPOSED, "you wrote Jᵀ"),
        ],
    },
    "07_differentiating_twice": {
        # Worked at the statement's point 0 (0.0), which class variants change: f' and f.
        "ex1_answer": [
            ("import math\nd2f = (0.0 + 1) * math.exp(0.0)", "differentiate once more"),
            ("import math\nd2f = 0.0 * math.exp(0.0)", "the value of the function"),
        ],
        "ex2_answer": [
            (SECOND_NO_CREATE_GRAPH, "needs create_graph=True"),
            (SECOND_IS_FIRST, "That is f'"),
        ],
        # Written with the statement's numbers (2.0 and 3.0), which class variants change.
        "ex3_answer": [
            ("x_grad = 2 * 3.0\ny_grad = 2.0**2", "already held ∂f/∂x"),
            ("x_grad = 2 * 2.0 * 3.0 + 2 * 3.0\ny_grad = 2.0**2", "depends on y too"),
            ("x_grad = 2 * 2.0 * 3.0\ny_grad = 2.0**2 + 2 * 2.0", "adds ∂²f/∂x² into x.grad"),
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
            (
                "def freeze_all_but_last(model):\n    model.requires_grad_(True)",
                "nothing was frozen",
            ),
        ],
        # Written with the statement's layer sizes, which class variants change.
        "ex2_answer": [
            (
                "trainable = (3 * 4 + 4) + (4 * 4 + 4) + (4 * 2 + 2)",
                "counts the frozen first layer too",
            ),
            ('trainable = len(["weight", "bias", "weight", "bias"])', "not the tensors"),
            ("trainable = 3 * 4 + 4", "That is the frozen layer"),
        ],
        # Written with the statement's x = 2.0, which class variants change.
        "ex3_answer": [
            ("x_grad = 2 * (2.0**2 - 3 * 2.0) * (2 * 2.0 - 3)", "target.detach() is a constant"),
            ("x_grad = 2 * (3 * 2.0 - 2.0**2) * (2 * 2.0)", "Check the sign"),
        ],
        "ex4_answer": [
            ("def sign_with_gradient(x):\n    return x.sign()", "the gradient is that of sign()"),
            (
                "def sign_with_gradient(x):\n    return x.detach().sign()",
                "do not detach x itself",
            ),
            ("def sign_with_gradient(x):\n    return x", "the values are those of x"),
        ],
    },
    "09_training": {
        "ex1_answer": [
            ("def mse(w, b):\n    return ((w * x + b - y) ** 2).sum()", "use .mean()"),
            ("def mse(w, b):\n    ((w * x + b - y) ** 2).mean()", "did you forget `return`"),
        ],
        "ex2_answer": [(STEP_UPHILL, "Step against the gradient")],
        "ex3_answer": [
            (HALVES_UNSCALED, "twice the full-batch one"),
            (HALVES_ZERO_BETWEEN, "throws the first half away"),
            (HALVES_NOT_CLEARED, "pile up from step to step"),
        ],
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
            (GRADIENT_HALF_DISTANCE, "Divide by that distance"),
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
