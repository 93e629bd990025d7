"""Grad mode, beyond tests/core/test_grad_mode.py: threads started inside ``no_grad``, one
decorated function running in several threads at once, exceptions raised inside generators,
and what a decorator keeps of the function it wraps. Each behaviour is PyTorch's, checked
against torch where torch is at hand."""

from __future__ import annotations

import inspect
import threading
from typing import Any

import pytest

import minigrad as mg


@pytest.fixture(autouse=True)
def _grad_mode_restored():
    assert mg.is_grad_enabled()
    yield
    mg.set_grad_enabled(True)


def _libraries() -> list[Any]:
    torch = pytest.importorskip("torch")
    return [mg, torch]


def test_a_thread_started_inside_no_grad_records_as_torch_does():
    seen = {}
    for L in _libraries():

        def body(L=L):
            seen[L.__name__] = L.is_grad_enabled()

        with L.no_grad():
            thread = threading.Thread(target=body)
            thread.start()
            thread.join(timeout=10)
    assert seen == {"minigrad": True, "torch": True}  # a new thread starts with grad on


def test_set_grad_enabled_called_in_a_thread_stays_in_that_thread():
    seen = {}

    def body():
        mg.set_grad_enabled(False)
        seen["thread"] = mg.is_grad_enabled()

    thread = threading.Thread(target=body)
    thread.start()
    thread.join(timeout=10)
    assert seen == {"thread": False} and mg.is_grad_enabled()


def test_one_decorated_function_in_several_threads_at_once():
    both_inside = threading.Barrier(2, timeout=10)

    @mg.no_grad()
    def evaluate(x: mg.Tensor) -> tuple[bool, bool]:
        both_inside.wait()  # the two calls overlap
        y = x * 2
        both_inside.wait()
        return mg.is_grad_enabled(), y.requires_grad

    x = mg.tensor(1.0, requires_grad=True)
    results: list[Any] = []
    modes_after: list[bool] = []

    def call():
        results.append(evaluate(x))
        modes_after.append(mg.is_grad_enabled())

    threads = [threading.Thread(target=call) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert results == [(False, False), (False, False)]
    assert modes_after == [True, True]
    assert (x * 2).requires_grad  # the main thread never left grad mode


@pytest.mark.parametrize(
    ("make", "inside"),
    [(lambda L: L.no_grad(), False), (lambda L: L.enable_grad(), True)],
    ids=["no_grad", "enable_grad"],
)
def test_exception_inside_nested_modes_restores_each(make, inside):
    for L in _libraries():
        outside = not inside
        L.set_grad_enabled(outside)
        with pytest.raises(ZeroDivisionError):
            with make(L):
                assert L.is_grad_enabled() is inside
                with L.set_grad_enabled(outside):
                    raise ZeroDivisionError
        assert L.is_grad_enabled() is outside, L.__name__
        L.set_grad_enabled(True)


def test_an_exception_ending_a_decorated_generator_restores_the_mode():
    for L in _libraries():

        @L.no_grad()
        def failing(L=L):
            yield L.is_grad_enabled()
            raise KeyError("boom")

        gen = failing()
        assert next(gen) is False
        assert L.is_grad_enabled()
        with pytest.raises(KeyError):
            next(gen)
        assert L.is_grad_enabled(), L.__name__


def test_decorators_keep_what_functools_wraps_keeps():
    def scale(x: mg.Tensor, factor: float = 2.0) -> mg.Tensor:
        """Multiply x by factor."""
        return x * factor

    def count(n: int):
        """Count to n."""
        yield from range(n)

    for make in (mg.no_grad, mg.enable_grad, lambda: mg.set_grad_enabled(False)):
        for function in (scale, count):
            decorated = make()(function)
            mg.set_grad_enabled(True)
            assert decorated.__wrapped__ is function
            assert decorated.__qualname__ == function.__qualname__
            assert decorated.__module__ == function.__module__
            assert decorated.__annotations__ == function.__annotations__
            assert inspect.signature(decorated) == inspect.signature(function)
            assert inspect.isgeneratorfunction(decorated) == inspect.isgeneratorfunction(function)
    assert list(mg.no_grad()(count)(3)) == [0, 1, 2]


def test_throw_and_close_reach_a_decorated_generator_in_its_mode():
    seen = []

    @mg.no_grad()
    def steps():
        try:
            while True:
                try:
                    yield mg.is_grad_enabled()
                except ValueError as error:
                    seen.append((str(error), mg.is_grad_enabled()))
        finally:
            seen.append(("closed", mg.is_grad_enabled()))

    generator = steps()
    assert next(generator) is False
    assert generator.throw(ValueError("handled inside")) is False  # caught, next value yielded
    assert mg.is_grad_enabled()
    generator.close()
    assert seen == [("handled inside", False), ("closed", False)]
    assert mg.is_grad_enabled()


def test_send_and_return_value_pass_through_a_decorated_generator():
    @mg.enable_grad()
    def echo():
        received = yield "ready"
        return received * 2

    generator = echo()
    assert next(generator) == "ready"
    with pytest.raises(StopIteration) as stop:
        generator.send(21)
    assert stop.value.value == 42
