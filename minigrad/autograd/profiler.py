"""``minigrad.autograd.profiler``: which ops a program runs, how often, and for how long.

Inside ``with profile() as prof:`` every op minigrad runs is timed under PyTorch's name for
it (``aten::mul``), and so is every step of a backward pass (the engine's
``autograd::engine::evaluate_function: MulBackward0`` around the node's own
``MulBackward0``), and every ``record_function`` block. ``prof.key_averages().table()``
prints one row per name in PyTorch's layout. The counts are the lesson: how many ops a
training step really runs. The times are numpy's, not PyTorch's kernels'. Below, the
two gradients ``x * x`` sends to ``x`` are added (``aten::add``) before ``x.grad`` takes them.

>>> import minigrad as mg
>>> x = mg.tensor([1.0, 2.0], requires_grad=True)
>>> with profile() as prof:
...     (x * x).sum().backward()
>>> for row in prof.key_averages():
...     print(row.count, row.key)
3 aten::mul
1 aten::sum
1 aten::ones_like
1 autograd::engine::evaluate_function: SumBackward0
1 SumBackward0
1 aten::expand
1 autograd::engine::evaluate_function: MulBackward0
1 MulBackward0
1 autograd::engine::evaluate_function: minigrad::autograd::AccumulateGrad
1 aten::add
1 minigrad::autograd::AccumulateGrad
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Iterable
from typing import Any

from .. import profiling
from ..profiling import FunctionEvent

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]

# PyTorch's table: long names are cut to this width, the other columns are this wide.
MAX_NAME_COLUMN_WIDTH = 55
MAX_SHAPES_COLUMN_WIDTH = 80
COLUMN_WIDTH = 12


class FunctionEventAvg:
    """The events of one name (and, grouped by shape, one list of input shapes) added up:
    a row of ``key_averages()``."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes: Any = None
        self.cpu_parent: FunctionEvent | None = None

    def add(self, other: FunctionEvent | FunctionEventAvg) -> FunctionEventAvg:
        """Count ``other`` in: its calls and its times."""
        if self.key is None:  # the first event names the row
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.cpu_parent = other.cpu_parent
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    __iadd__ = add

    @property
    def cpu_time(self) -> float:
        """The average time of one call, children included (microseconds)."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} "
            f"self_cpu_time={_format_time(self.self_cpu_time_total)} "
            f"cpu_time={_format_time(self.cpu_time)} count={self.count} "
            f"input_shapes={self.input_shapes}>"
        )


class EventList(list):
    """A list of events (or of their averages) that can print itself as PyTorch's table."""

    @property
    def self_cpu_time_total(self) -> float:
        return sum(event.self_cpu_time_total for event in self)

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0
    ) -> EventList:
        """One row per op name, in the order the names first ran; with
        ``group_by_input_shape`` (and ``record_shapes=True``), one per name and shapes."""
        rows: dict[Any, FunctionEventAvg] = {}
        for event in self:
            key = (event.key, str(event.input_shapes)) if group_by_input_shape else event.key
            rows.setdefault(key, FunctionEventAvg()).add(event)
        averages = EventList(rows.values())
        if not group_by_input_shape:
            for row in averages:
                row.input_shapes = ""
        return averages

    def total_average(self) -> FunctionEventAvg:
        """Every event added into one."""
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = MAX_NAME_COLUMN_WIDTH,
        max_shapes_column_width: int = MAX_SHAPES_COLUMN_WIDTH,
        header: str | None = None,
        top_level_events_only: bool = False,
    ) -> str:
        """PyTorch's table: a row per event, sorted by ``sort_by`` (largest first: any
        attribute of a row, such as ``"self_cpu_time_total"``, ``"cpu_time_total"``,
        ``"count"``), at most ``row_limit`` rows, and the total of the self times."""
        return _table(
            self,
            sort_by,
            row_limit,
            max_name_column_width,
            max_shapes_column_width,
            header,
            top_level_events_only,
        )

    def export_chrome_trace(self, path: str | os.PathLike) -> None:
        """Write the events as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        trace = [
            {
                "ph": "X",
                "cat": "cpu_op",
                "name": event.name,
                "pid": os.getpid(),
                "tid": 0,
                "ts": event.start_us,
                "dur": event.cpu_time_total,
                "args": {"Input Dims": event.input_shapes} if event.input_shapes else {},
            }
            for event in self
        ]
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"traceEvents": trace}, file, indent=1)

    def __str__(self) -> str:
        return self.table()


def _format_time(time_us: float) -> str:
    """Microseconds as PyTorch prints them: ``89.864us``, ``3.184ms``, ``1.250s``."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _table(
    events: Iterable[Any],
    sort_by: str | None,
    row_limit: int,
    max_name_column_width: int,
    max_shapes_column_width: int,
    header: str | None,
    top_level_events_only: bool,
) -> str:
    events = list(events)
    if not events:
        return ""
    # The percentages and the footer count every event, shown or not.
    self_total = sum(event.self_cpu_time_total for event in events)
    # The columns are as wide as every event needs, shown or not.
    name_width = min(max(len(e.key) for e in events) + 4, max_name_column_width)
    with_shapes = any(event.input_shapes for event in events)
    shapes_width = max(len(str(event.input_shapes)) for event in events) + 4
    if sort_by is not None:
        events = sorted(events, key=lambda event: getattr(event, sort_by), reverse=True)
    if top_level_events_only:
        events = [event for event in events if event.cpu_parent is None]
    events = events[:row_limit]
    columns = [
        ("Name", name_width),
        ("Self CPU %", COLUMN_WIDTH),
        ("Self CPU", COLUMN_WIDTH),
        ("CPU total %", COLUMN_WIDTH),
        ("CPU total", COLUMN_WIDTH),
        ("CPU time avg", COLUMN_WIDTH),
        ("# of Calls", COLUMN_WIDTH),
    ]
    if with_shapes:
        columns.append(("Input Shapes", min(shapes_width, max_shapes_column_width)))

    def line(cells: list[str]) -> str:
        return "".join(f"{cell:>{width}}  " for cell, (_, width) in zip(cells, columns))

    def percent(time_us: float) -> str:
        return f"{100 * time_us / self_total:.2f}%" if self_total else "0.00%"

    rule = "".join("-" * width + "  " for _, width in columns)
    lines = [] if header is None else ["=" * len(rule), header]
    lines += [rule, line([title for title, _ in columns]), rule]
    for event in events:
        name = event.key
        if len(name) > name_width:
            name = name[: name_width - 3] + "..."
        cells = [
            name,
            percent(event.self_cpu_time_total),
            _format_time(event.self_cpu_time_total),
            percent(event.cpu_time_total),
            _format_time(event.cpu_time_total),
            _format_time(event.cpu_time_total / event.count),
            str(event.count),
        ]
        if with_shapes:
            shapes = str(event.input_shapes)
            width = columns[-1][1]
            cells.append(shapes if len(shapes) <= width else shapes[: width - 3] + "...")
        lines.append(line(cells))
    lines += [rule, f"Self CPU time total: {_format_time(self_total)}", ""]
    return "\n".join(lines)


class profile:  # noqa: N801 - PyTorch's name
    """Record the ops run inside a ``with`` block, as ``torch.autograd.profiler.profile``.

    ``enabled=False`` records nothing (and ``with ... as prof`` gives None, as in PyTorch).
    ``record_shapes=True`` keeps each op's input shapes, for
    ``key_averages(group_by_input_shape=True)``. ``use_cuda``/``use_device="cuda"`` are
    accepted and warned about, as PyTorch does on a machine without CUDA; ``with_stack``,
    ``with_flops``, ``profile_memory`` and ``with_modules`` are accepted and record nothing
    more.

    >>> import minigrad as mg
    >>> with profile(use_cuda=False) as prof:
    ...     y = mg.tensor([1.0, 2.0]) * 2
    >>> [event.name for event in prof.function_events]
    ['aten::mul']
    """

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device: str | None = None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config: Any = None,
        acc_events: bool = False,
        custom_trace_id_callback: Any = None,
    ) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.with_stack = with_stack
        self.function_events: EventList | None = None
        self.entered = False
        if use_cuda:
            warnings.warn(
                "The attribute `use_cuda` will be deprecated soon, please use "
                "``use_device = 'cuda'`` instead.",
                FutureWarning,
                stacklevel=2,
            )
            use_device = "cuda"
        if use_device is not None and use_device != "cpu":
            if use_device != "cuda":
                raise ValueError(
                    f"minigrad runs on the CPU only: there is no {use_device!r} to profile"
                )
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)

    def __enter__(self) -> profile | None:
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        profiling.start(self.record_shapes)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if not self.enabled:
            return
        recording = profiling.stop()
        self.function_events = EventList(recording.events)

    def _finished_events(self) -> EventList:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0
    ) -> EventList:
        """One row per op name (see ``EventList.key_averages``)."""
        return self._finished_events().key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by: str | None = None, row_limit: int = 100, **options: Any) -> str:
        """The table of every event, one row each (``key_averages().table()`` groups them)."""
        return self._finished_events().table(sort_by, row_limit, **options)

    def total_average(self) -> FunctionEventAvg:
        return self._finished_events().total_average()

    def export_chrome_trace(self, path: str | os.PathLike) -> None:
        """Write the events as a Chrome trace (chrome://tracing, Perfetto)."""
        self._finished_events().export_chrome_trace(path)

    @property
    def self_cpu_time_total(self) -> float:
        return self._finished_events().self_cpu_time_total

    def __str__(self) -> str:
        return str(self._finished_events())

    def __repr__(self) -> str:
        return repr(self._finished_events())


class record_function(contextlib.ContextDecorator):  # noqa: N801 - PyTorch's name
    """Time a block of your own under ``name``, as a row of the profiler's table: as a
    ``with`` block or as a decorator. Outside a profiler it costs next to nothing.

    >>> import minigrad as mg
    >>> with profile() as prof:
    ...     with record_function("scale"):
    ...         y = mg.tensor([1.0]) * 3
    >>> [(event.name, event.cpu_parent and event.cpu_parent.name) for event in prof.function_events]
    [('scale', None), ('aten::mul', 'scale')]
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._event: FunctionEvent | None = None

    def __enter__(self) -> record_function:
        self._event = profiling.open_range(self.name)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        profiling.close_range(self._event)
        self._event = None
