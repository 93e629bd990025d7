"""no_grad, enable_grad, set_grad_enabled: context managers, decorators, per thread."""

import inspect
import threading

import pytest

import minigrad as mg


@pytest.fixture(autouse=True)
def _grad_mode_restored():
    assert mg.is_grad_enabled()
    yield
    mg.set_grad_enabled(True)


def test_no_grad_records_nothing():
    x = mg.tensor(1.0, requires_grad=True)
    with mg.no_grad():
        assert not mg.is_grad_enabled()
        y = x * 2
    assert mg.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None


def test_enable_grad_inside_no_grad():
    x = mg.tensor(1.0, requires_grad=True)
    with mg.no_grad():
        with mg.enable_grad():
            assert mg.is_grad_enabled()
            y = x * 2
        assert not mg.is_grad_enabled()
    assert y.grad_fn.name() == "MulBackward0"


def test_set_grad_enabled_as_context_and_as_call():
    with mg.set_grad_enabled(False):
        assert not mg.is_grad_enabled()
        with mg.set_grad_enabled(True):
            assert mg.is_grad_enabled()
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()
    mg.set_grad_enabled(False)  # a plain call switches at once, as in PyTorch
    assert not mg.is_grad_enabled()
    mg.set_grad_enabled(True)
    assert mg.is_grad_enabled()


@pytest.mark.parametrize(
    ("make", "inside"),
    [
        (lambda: mg.no_grad(), False),
        (lambda: mg.enable_grad(), True),
        (lambda: mg.set_grad_enabled(False), False),
        (lambda: mg.set_grad_enabled(True), True),
    ],
    ids=["no_grad", "enable_grad", "set_grad_enabled(False)", "set_grad_enabled(True)"],
)
@pytest.mark.parametrize("outside", [True, False])
def test_decorators_keep_the_signature_and_docstring(make, inside, outside):
    def scale(x: mg.Tensor, factor: float = 2.0) -> mg.Tensor:
        """Multiply x by factor."""
        return x * factor, mg.is_grad_enabled()

    mg.set_grad_enabled(outside)
    decorated = make()(scale)
    assert mg.is_grad_enabled() is outside  # decorating switches nothing
    assert decorated.__name__ == "scale"
    assert decorated.__doc__ == "Multiply x by factor."
    assert inspect.signature(decorated) == inspect.signature(scale)
    x = mg.tensor(1.0, requires_grad=True)
    y, mode = decorated(x)
    assert mode is inside and y.requires_grad is inside
    assert mg.is_grad_enabled() is outside


@pytest.mark.parametrize(
    "make",
    [lambda: mg.no_grad(), lambda: mg.set_grad_enabled(False)],
    ids=["no_grad", "set_grad_enabled"],
)
def test_mode_is_restored_when_the_body_raises(make):
    with pytest.raises(ValueError):
        with make():
            raise ValueError("boom")
    assert mg.is_grad_enabled()

    @make()
    def failing():
        raise KeyError("boom")

    with pytest.raises(KeyError):
        failing()
    assert mg.is_grad_enabled()


def test_generator_runs_in_its_mode_and_the_caller_keeps_its_own():
    @mg.no_grad()
    def modes():
        """Yield the mode seen at each step."""
        received = yield mg.is_grad_enabled()
        yield (received, mg.is_grad_enabled())
        return "done"

    assert (
        inspect.isgeneratorfunction(modes) and modes.__doc__ == "Yield the mode seen at each step."
    )
    gen = modes()
    assert next(gen) is False
    assert mg.is_grad_enabled()  # suspended: the caller's mode is back
    assert gen.send("hello") == ("hello", False)
    assert mg.is_grad_enabled()
    with pytest.raises(StopIteration) as stop:
        next(gen)
    assert stop.value.value == "done"
    assert mg.is_grad_enabled()


def test_mode_is_per_thread():
    seen = {}
    inside_no_grad = threading.Event()
    checked = threading.Event()

    def other_thread():
        inside_no_grad.wait()
        seen["other"] = mg.is_grad_enabled()  # the main thread's no_grad is not ours
        with mg.no_grad():
            seen["other_inside"] = mg.is_grad_enabled()
        checked.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with mg.no_grad():
        inside_no_grad.set()
        checked.wait(timeout=10)
        seen["main"] = mg.is_grad_enabled()
    thread.join(timeout=10)
    assert seen == {"other": True, "other_inside": False, "main": False}
    assert mg.is_grad_enabled()


def test_backward_inside_no_grad_still_works():
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x
    with mg.no_grad():
        y.backward()
    assert x.grad.item() == 4.0


def test_no_grad_and_enable_grad_decorate_without_parentheses_too():
    @mg.no_grad
    def doubled(x: mg.Tensor) -> mg.Tensor:
        """Twice x."""
        return x * 2

    @mg.enable_grad
    def tripled(x):
        return x * 3

    x = mg.tensor(1.0, requires_grad=True)
    assert not doubled(x).requires_grad
    assert doubled.__doc__ == "Twice x." and doubled.__name__ == "doubled"
    with mg.no_grad():
        assert tripled(x).requires_grad
    assert mg.is_grad_enabled()
