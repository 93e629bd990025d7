"""``minigrad.profiler``: the ``torch.profiler`` entrance to the same recorder as
``minigrad.autograd.profiler``.

>>> import minigrad as mg
>>> from minigrad.profiler import ProfilerActivity, profile, record_function
>>> with profile(activities=[ProfilerActivity.CPU]) as prof:
...     with record_function("double"):
...         y = mg.tensor([1.0, 2.0]) * 2
>>> [(row.key, row.count) for row in prof.key_averages()]
[('double', 1), ('aten::mul', 1)]
"""

from __future__ import annotations

import enum
import os
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import EventList, record_function

__all__ = ["profile", "record_function", "ProfilerActivity"]


class ProfilerActivity(enum.Enum):
    """What a profiler records: minigrad has only the CPU's ops."""

    CPU = 0
    CUDA = 2


class profile:  # noqa: N801 - PyTorch's name
    """Record the ops run between ``start()`` and ``stop()`` (or inside a ``with`` block).

    ``activities`` defaults to ``[ProfilerActivity.CPU]``; CUDA is warned about and left
    out, as PyTorch does on a machine without a GPU. ``schedule`` (profiling some steps of a
    loop and skipping others) is not built: passing one raises. ``on_trace_ready`` is called
    with the profiler when it stops.
    """

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], Any] | None = None,
        on_trace_ready: Callable[[profile], Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config: Any = None,
        execution_trace_observer: Any = None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback: Any = None,
    ) -> None:
        if schedule is not None:
            raise NotImplementedError(
                "minigrad.profiler.profile has no schedule: it records everything between "
                "start() and stop(); open it around the steps you want to see"
            )
        chosen = set(activities) if activities is not None else {ProfilerActivity.CPU}
        if use_cuda:
            chosen.add(ProfilerActivity.CUDA)
        if ProfilerActivity.CUDA in chosen:
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
            chosen.discard(ProfilerActivity.CUDA)
        self.activities = chosen
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.with_stack = with_stack
        self.profiler: _autograd_profiler.profile | None = None
        self.step_num = 0

    def start(self) -> None:
        if not self.activities:
            raise AssertionError("No activities specified for the profiler")
        self.profiler = _autograd_profiler.profile(record_shapes=self.record_shapes)
        self.profiler.__enter__()

    def stop(self) -> None:
        if self.profiler is None:
            return
        self.profiler.__exit__(None, None, None)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def step(self) -> None:
        """Mark the end of a step of a loop (counted; with no schedule nothing else)."""
        self.step_num += 1

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def _finished(self) -> _autograd_profiler.profile:
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting chrome trace")
        return self.profiler

    def events(self) -> EventList:
        """Every recorded event, in the order they started."""
        return self._finished()._finished_events()

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0
    ) -> EventList:
        """One row per op name (and per input shapes, if asked and recorded)."""
        return self._finished().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path: str | os.PathLike) -> None:
        self._finished().export_chrome_trace(path)
