"""The switch and the clock behind ``autograd.profiler``: what the ops and the engine check.

When no profiler is open, ``active`` is False and every op pays one check of it, nothing
more. While one is open, each op, each backward node and each ``record_function`` block
opens a *range* when it starts and closes it when it ends; ranges opened inside another
become its children, so that a parent's time can be split into its own and theirs.

>>> from minigrad import profiling
>>> profiling.active
False
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

# Read by Op.apply and the engine before each op and each node: nothing else is paid when
# it is False. Set only by ``start`` and ``stop``.
active = False


class FunctionEvent:
    """One timed range: an op (``aten::mul``), a backward node (``MulBackward0``), the
    engine's step around it, or a ``record_function`` block. Times are in microseconds."""

    def __init__(
        self, id: int, name: str, start_us: float, parent: FunctionEvent | None, shapes: list
    ) -> None:
        self.id = id
        self.name = name
        self.start_us = start_us
        self.end_us = start_us
        self.cpu_parent = parent
        self.cpu_children: list[FunctionEvent] = []
        self.input_shapes = shapes
        self.count = 1

    @property
    def key(self) -> str:
        return self.name

    @property
    def cpu_time_total(self) -> float:
        """From start to end, children included."""
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        """The time not spent in a child range: the op's own work."""
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} "
            f"cpu_time_total={self.cpu_time_total:.3f}us "
            f"self_cpu_time_total={self.self_cpu_time_total:.3f}us "
            f"input_shapes={self.input_shapes} cpu_children={[c.id for c in self.cpu_children]}>"
        )


class Recording:
    """The events of one profiler run, and the ranges now open (innermost last)."""

    def __init__(self, record_shapes: bool) -> None:
        self.record_shapes = record_shapes
        self.events: list[FunctionEvent] = []
        self.open: list[FunctionEvent] = []
        self.origin_ns = time.perf_counter_ns()
        # Set by an in-place method (x.add_): the op it runs is named aten::add_.
        self.next_op_in_place = False


_recording: Recording | None = None


def start(record_shapes: bool = False) -> Recording:
    """Begin recording; refused while another profiler is open, as in PyTorch."""
    global _recording, active
    if _recording is not None:
        raise RuntimeError(
            "Profiler is already enabled on this thread. Nested profilers are not supported."
        )
    _recording = Recording(record_shapes)
    active = True
    return _recording


def stop() -> Recording:
    """End recording and hand back what was recorded."""
    global _recording, active
    recording, _recording, active = _recording, None, False
    assert recording is not None
    while recording.open:  # a range left open by an exception ends now
        close_range(recording.open[-1], recording)
    return recording


def open_range(name: str, shapes: list | None = None) -> FunctionEvent | None:
    """Start timing ``name`` (inside whatever range is open). None when not recording."""
    recording = _recording
    if recording is None:
        return None
    now_us = (time.perf_counter_ns() - recording.origin_ns) / 1000
    parent = recording.open[-1] if recording.open else None
    event = FunctionEvent(
        len(recording.events), name, now_us, parent, shapes if recording.record_shapes else []
    )
    if parent is not None:
        parent.cpu_children.append(event)
    recording.events.append(event)
    recording.open.append(event)
    return event


def close_range(event: FunctionEvent | None, recording: Recording | None = None) -> None:
    """Stop timing ``event`` (and any range left open inside it)."""
    recording = recording or _recording
    if event is None or recording is None or event not in recording.open:
        return
    now_us = (time.perf_counter_ns() - recording.origin_ns) / 1000
    while recording.open:
        inner = recording.open.pop()
        inner.end_us = now_us
        if inner is event:
            return


def shapes_of(values: Any) -> list[list[int]]:
    """PyTorch's ``input_shapes``: a tensor's shape as a list, ``[]`` for anything else."""
    return [list(v.shape) if hasattr(v, "_array") else [] for v in values]


def run_op(run: Callable[..., Any], cls: Any, name: str, args: tuple, options: dict) -> Any:
    """Run a built-in op (``run(cls, args, options)``) inside a range named as PyTorch
    names it."""
    recording = _recording
    if recording is not None and recording.next_op_in_place:
        recording.next_op_in_place = False
        name = name if name.endswith("_") else name + "_"
    event = open_range(name, shapes_of(args) if recording and recording.record_shapes else [])
    try:
        return run(cls, args, options)
    finally:
        close_range(event)


def in_place(op: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``op`` (the out-of-place op an in-place method runs), named as in place when timed."""

    def named_in_place(tensor: Any) -> Any:
        if _recording is not None:
            _recording.next_op_in_place = True
        try:
            return op(tensor)
        finally:
            if _recording is not None:
                _recording.next_op_in_place = False

    return named_in_place


def timed(name: str, run: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``run(*args, **kwargs)`` inside a range named ``name``. The engine times each step of a
    backward pass twice, as PyTorch does: ``autograd::engine::evaluate_function:
    MulBackward0`` around all the step does (adding up what arrived, hooks), and
    ``MulBackward0`` around the node's own computation."""
    event = open_range(name)
    try:
        return run(*args, **kwargs)
    finally:
        close_range(event)
