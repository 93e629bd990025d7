"""Switching gradient recording on and off: ``no_grad``, ``enable_grad``, ``set_grad_enabled``.

Like PyTorch, the switch is thread-local: turning gradients off in one thread does not
change what another thread records. Each of the three works as a context manager and as a
decorator, and restores the previous mode even when the body raises.

>>> import minigrad as mg
>>> x = mg.tensor(1.0, requires_grad=True)
>>> with mg.no_grad():
...     y = x * 2
>>> y.requires_grad
False
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _GradState(threading.local):
    """The mode of each thread. A class attribute is the default every thread starts from:
    reading it is a plain attribute lookup, and ``is_grad_enabled`` runs for every op."""

    enabled = True


_state = _GradState()


def is_grad_enabled() -> bool:
    """Whether operations are being recorded for ``backward()`` in this thread.

    >>> import minigrad as mg
    >>> mg.is_grad_enabled()
    True
    """
    return _state.enabled


def _set_enabled(mode: bool) -> None:
    _state.enabled = bool(mode)


class _GradModeContext:
    """Shared machinery: enter sets a mode, exit restores the one before, and an instance
    used as a decorator runs the wrapped function (or each step of a generator) in that mode."""

    mode: bool  # the mode inside: a class attribute of no_grad and enable_grad

    # The state read and set directly, without is_grad_enabled and _set_enabled (``mode``
    # is a bool already): a training loop enters no_grad for every optimizer step.
    def __enter__(self) -> None:
        self._previous = _state.enabled
        _state.enabled = self.mode

    def __exit__(self, exc_type: object, exc_value: object, traceback: object) -> None:
        _state.enabled = self._previous

    def clone(self) -> _GradModeContext:
        return self.__class__()

    def __call__(self, func: F) -> F:
        if inspect.isgeneratorfunction(func):

            @functools.wraps(func)
            def generator_wrapper(*args: Any, **kwargs: Any) -> Any:
                # Each resumption of the generator runs in this mode; the caller's mode
                # is back in force whenever the generator is suspended. throw() and close()
                # reach the wrapped generator too, in the same mode.
                generator = func(*args, **kwargs)
                try:
                    with self.clone():
                        request = generator.send(None)
                    while True:
                        try:
                            response = yield request
                        except GeneratorExit:
                            with self.clone():
                                generator.close()
                            raise
                        except BaseException as error:
                            with self.clone():
                                request = generator.throw(error)
                        else:
                            with self.clone():
                                request = generator.send(response)
                except StopIteration as stop:
                    return stop.value

            return generator_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class _AlsoWithoutParentheses(_GradModeContext):
    """Lets ``@no_grad`` decorate as ``@no_grad()`` does, as PyTorch allows for the two
    modes that take no argument."""

    def __new__(cls, function: Callable[..., Any] | None = None) -> Any:
        if function is None:
            return object.__new__(cls)  # (not super(): a super object costs more than this)
        return cls()(function)


class no_grad(_AlsoWithoutParentheses):
    """Do not record operations: results have ``requires_grad=False`` and no ``grad_fn``.

    Use it to update parameters in place or to evaluate a model without building a graph.

    >>> import minigrad as mg
    >>> w = mg.tensor(1.0, requires_grad=True)
    >>> with mg.no_grad():
    ...     _ = w.sub_(0.1)
    >>> w
    tensor(0.9000, requires_grad=True)
    """

    mode = False


class enable_grad(_AlsoWithoutParentheses):
    """Record operations again, even inside a ``no_grad`` block.

    >>> import minigrad as mg
    >>> x = mg.tensor(1.0, requires_grad=True)
    >>> with mg.no_grad():
    ...     with mg.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    mode = True


class set_grad_enabled(_GradModeContext):
    """Set recording on or off by a flag: ``set_grad_enabled(is_training)``.

    Unlike the other two it takes effect at once when called, as in PyTorch, so it may also
    be used as a plain function call; as a context manager it restores the previous mode.

    >>> import minigrad as mg
    >>> with mg.set_grad_enabled(False):
    ...     mg.is_grad_enabled()
    False
    """

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._before_call = is_grad_enabled()
        _set_enabled(self.mode)

    @classmethod
    def _deferred(cls, mode: bool) -> set_grad_enabled:
        """An instance that changes nothing until it is entered (for decorated calls)."""
        instance = cls.__new__(cls)
        instance.mode = mode
        instance._before_call = is_grad_enabled()
        return instance

    def __enter__(self) -> None:
        self._previous = self._before_call
        _set_enabled(self.mode)

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled._deferred(self.mode)

    def __call__(self, func: F) -> F:
        _set_enabled(self._before_call)  # used as a decorator: undo the call-time switch
        return super().__call__(func)
