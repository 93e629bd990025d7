"""backward(gradient, retain_graph, create_graph), autograd.grad, and the lessons' examples."""

import warnings

import pytest

import minigrad as mg


@pytest.fixture(autouse=True)
def _quiet_create_graph_warning():
    # backward(create_graph=True) warns about the parameter/gradient cycle, as PyTorch does.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Using backward\\(\\) with create_graph=True")
        yield


def test_retain_graph_lets_a_second_backward_accumulate():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    y.backward(retain_graph=True)
    assert x.grad.item() == 12.0
    y.backward()
    assert x.grad.item() == 24.0


def test_create_graph_makes_the_gradient_differentiable():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    with pytest.warns(UserWarning, match="create a reference cycle"):
        y.backward(create_graph=True)
    assert x.grad.item() == 12.0
    assert x.grad.requires_grad
    assert x.grad.grad_fn.name() == "minigrad::autograd::CopyBackwards"
    assert repr(x.grad) == "tensor(12., grad_fn=<CopyBackwards>)"
    x.grad.backward()  # d(3x²)/dx = 6x = 12, added to the 12 already there
    assert x.grad.item() == 24.0


def test_autograd_grad_higher_derivatives():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    (first,) = mg.autograd.grad(y, x, create_graph=True)
    (second,) = mg.autograd.grad(first, x, create_graph=True)
    (third,) = mg.autograd.grad(second, x)
    assert (first.item(), second.item(), third.item()) == (12.0, 12.0, 6.0)
    assert first.grad_fn is not None and second.grad_fn is not None
    assert third.grad_fn is None and not third.requires_grad
    assert x.grad is None


def test_autograd_grad_with_grad_outputs_and_several_inputs():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    ga, gb = mg.autograd.grad(a * b, (a, b), grad_outputs=mg.tensor([1.0, 10.0]))
    assert ga.tolist() == [3.0, 40.0] and gb.tolist() == [1.0, 20.0]


def test_autograd_grad_of_an_intermediate():
    x = mg.tensor(3.0, requires_grad=True)
    h = x * x
    y = h * 2 + x
    (gh,) = mg.autograd.grad(y, h)
    assert gh.item() == 2.0 and x.grad is None


def test_student_example_sum_of_squares():
    t = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (t**2).sum().backward()
    assert repr(t.grad) == "tensor([2., 4., 6.])"


def test_student_example_square_plus_one():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**2 + 1
    y.backward()
    assert repr(x.grad) == "tensor(4.)"


def test_student_example_linear():
    x = mg.tensor(3)
    w = mg.tensor(2.0, requires_grad=True)
    b = mg.tensor(5.0, requires_grad=True)
    y = w * x + b
    assert repr(y) == "tensor(11., grad_fn=<AddBackward0>)"
    y.backward()
    assert x.grad is None
    assert repr(w.grad) == "tensor(3.)"
    assert repr(b.grad) == "tensor(1.)"


def test_student_example_power_of_two_tensors():
    x = mg.tensor(3.0, requires_grad=True)
    y = mg.tensor(4.0, requires_grad=True)
    z = x**y
    assert repr(z) == "tensor(81., grad_fn=<PowBackward1>)"
    z.backward()
    assert repr(x.grad) == "tensor(108.)"  # y·x^(y-1)
    assert repr(y.grad) == "tensor(88.9876)"  # x^y·ln x


def test_student_example_vector_jacobian_product():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x**2).backward(gradient=mg.tensor([1.0, 0.5, 0.25]))
    assert repr(x.grad) == "tensor([2.0000, 2.0000, 1.5000])"


def test_student_example_accumulation_loop():
    w = mg.tensor(1.5, requires_grad=True)
    for _ in range(2):
        loss = (w * 2) ** 2
        loss.backward()
    assert w.grad.item() == 2 * 8 * 1.5  # two calls of d(4w²)/dw = 8w
    w.grad.zero_()
    assert w.grad.item() == 0.0


def test_gradient_argument_is_a_tensor_or_a_sequence_of_tensors_as_in_pytorch():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).backward([mg.tensor([1.0, 2.0])])
    assert x.grad.tolist() == [3.0, 6.0]
    with pytest.raises(TypeError, match="^gradients can be either Tensors or None, but got float$"):
        (x * 3).backward([1.0, 2.0])
    with pytest.raises(TypeError, match="^'float' object is not iterable$"):
        (x * 3).sum().backward(1.0)
    assert x.grad.tolist() == [3.0, 6.0]  # the refused calls changed nothing


def test_a_seed_of_another_dtype_is_cast_to_the_output_dtype():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).backward(mg.tensor([1, 2]))
    assert x.grad.dtype == mg.float32
    assert x.grad.tolist() == [3.0, 6.0]
    (x,) = mg.autograd.grad((x * 2).sum(), x, grad_outputs=mg.tensor(1.0, dtype=mg.float64))
    assert x.dtype == mg.float32 and x.tolist() == [2.0, 2.0]


def test_the_create_graph_warning_is_given_once_per_process():
    x = mg.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            x.grad = None
            (x**3).backward(create_graph=True)
    assert [str(w.message)[:50] for w in caught] == [
        "Using backward() with create_graph=True will creat"
    ]


def test_backward_of_several_outputs_adds_their_gradients():
    x = mg.tensor(2.0, requires_grad=True)
    mg.autograd.backward([x * 3, x * x])
    assert x.grad.item() == 3.0 + 4.0


def test_tensor_used_on_several_paths():
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x + x.exp() * x
    y.backward()
    expected = 2 * 2.0 + x.detach().exp().item() * (1 + 2.0)
    assert x.grad.item() == pytest.approx(expected, rel=1e-6)


def test_custom_function():
    class Cube(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x**2

    x = mg.tensor(2.0, requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.name() == "CubeBackward"
    (g,) = mg.autograd.grad(y, x, create_graph=True)
    (gg,) = mg.autograd.grad(g, x)
    assert (g.item(), gg.item()) == (12.0, 12.0)


def test_a_recorded_context_is_the_grad_fn_as_in_pytorch():
    contexts = []

    class Scale(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor):
            contexts.append(ctx)
            ctx.factor = factor
            ctx.save_for_backward(x)
            return x * factor

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.factor, None

    x = mg.tensor(2.0, requires_grad=True)
    y = Scale.apply(x, 3.0)
    assert y.grad_fn is contexts[0]
    assert (y.grad_fn.factor, y.grad_fn.needs_input_grad) == (3.0, (True, False))
    assert y.grad_fn.saved_tensors[0] is x
    with mg.no_grad():
        z = Scale.apply(x, 3.0)
    assert z.grad_fn is None and contexts[1] is not contexts[0]
    y.backward()
    assert x.grad.item() == 3.0
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph"):
        _ = y.grad_fn.saved_tensors


def test_int_operand_never_gets_a_gradient():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3, 4])
    (w * x).sum().backward()
    assert w.grad.tolist() == [3.0, 4.0] and x.grad is None
