"""gradcheck and gradgradcheck against PyTorch's: the same verdicts, the same messages
(Jacobian layout, dtypes, numbers), the same float32 warning."""

import warnings

import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _custom_squares(L):
    class WrongSquare(L.autograd.Function):  # forgets the factor 2
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * x

    class IgnoresGradOutput(WrongSquare):  # the same forward; right only when seeded with ones
        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 2 * x

    return WrongSquare, IgnoresGradOutput


def _checks(L):
    """What each check says, as text: the verdict or the error, then any warnings."""
    wrong, ignores = _custom_squares(L)
    x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
    y = L.tensor([4.0, 5.0, 6.0], dtype=L.float64, requires_grad=True)
    single = L.tensor([1.0, 2.0], requires_grad=True)  # float32: the warning
    cases = [
        (L.autograd.gradcheck, lambda t: wrong.apply(t).sum(), (x,)),
        (L.autograd.gradcheck, lambda t: (wrong.apply(t), t * 2), (x,)),
        (L.autograd.gradcheck, lambda t: wrong.apply(t), (single,)),
        (L.autograd.gradcheck, lambda t: ignores.apply(t), (x,)),
        (L.autograd.gradcheck, lambda t: ignores.apply(t).sum(), (x,)),
        (L.autograd.gradcheck, lambda t: (t * t * t).sum(), (x,)),
        (L.autograd.gradcheck, lambda a, b: (a * b, a + b), (x, y)),
        (L.autograd.gradgradcheck, lambda t: t.tanh() * t, (x,)),
        (L.autograd.gradgradcheck, lambda a, b: (a * b).sin(), (x, y)),
        # A number among the inputs is passed through as it is, and gets no Jacobian.
        (L.autograd.gradcheck, lambda t, n: t**n, (x, 3)),
        (L.autograd.gradcheck, lambda t, n: wrong.apply(t) * n, (x, 2.5)),
        (L.autograd.gradgradcheck, lambda t, n: (t**n).sum(), (x, 3)),
    ]
    said = []
    for check, function, inputs in cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                said.append(repr(check(function, inputs)))
            except RuntimeError as error:
                said.append(f"{type(error).__name__}: {error}".replace("torch.", "minigrad."))
        said += [str(w.message) for w in caught]
    return said


def test_gradcheck_says_what_torch_says():
    assert _checks(mg) == _checks(torch)


def test_gradcheck_needs_an_input_that_requires_grad():
    for L in (mg, torch):
        with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
            L.autograd.gradcheck(lambda t: t * 2, (L.tensor([1.0], dtype=L.float64),))
