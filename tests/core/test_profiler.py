"""The profiler without torch: what it counts, how it times, what it refuses, and that it
is switched off outside its block (the parity file compares names and counts with torch)."""

from __future__ import annotations

import json

import pytest

import minigrad as mg
import minigrad.ops as ops
from minigrad import profiling
from minigrad.autograd.profiler import profile, record_function
from minigrad.ops.aten_names import ATEN_NAMES, aten_name


def chain(n):
    x = mg.tensor(1.5, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.01 + 0.1
    return x, y


def test_every_op_of_the_package_has_its_pytorch_name_and_no_name_is_stale():
    package = {
        name
        for name, value in vars(ops).items()
        if isinstance(value, type) and issubclass(value, ops.Op)
    } - {"Op", "Elementwise"}
    assert set(ATEN_NAMES) == package
    assert all(name.startswith("aten::") for name in ATEN_NAMES.values())
    assert aten_name(ops.Mul) == "aten::mul"

    class Mine(ops.Op):
        pass

    assert aten_name(Mine) == "minigrad::Mine"


def test_a_chain_counts_each_op_forward_and_each_node_backward():
    x, _ = chain(0)
    with profile() as prof:
        y = x
        for _ in range(5):
            y = y * 1.01 + 0.1
        y.backward()
    rows = {row.key: row.count for row in prof.key_averages()}
    assert rows["MulBackward0"] == rows["AddBackward0"] == 5
    assert rows["autograd::engine::evaluate_function: MulBackward0"] == 5
    # five products forward, five more in MulBackward0 (grad * 1.01)
    assert rows["aten::mul"] == 10 and rows["aten::add"] == 5
    assert rows["aten::ones_like"] == 1
    assert rows["minigrad::autograd::AccumulateGrad"] == 1


def test_self_times_add_up_to_the_footer_and_never_exceed_the_totals():
    x, _ = chain(0)
    with profile() as prof:
        (x * 2).exp().sum().backward()
    events = prof.function_events
    for event in events:
        assert 0 <= event.self_cpu_time_total <= event.cpu_time_total
        children = sum(child.cpu_time_total for child in event.cpu_children)
        assert event.self_cpu_time_total == pytest.approx(event.cpu_time_total - children)
    total = sum(event.self_cpu_time_total for event in events)
    assert prof.key_averages().self_cpu_time_total == pytest.approx(total)
    footer = prof.key_averages().table().split("\n")[-2]
    assert footer.startswith("Self CPU time total: ")


def test_the_table_sorts_largest_first_and_keeps_row_limit_rows():
    x, _ = chain(0)
    with profile() as prof:
        for _ in range(3):
            x * 2
        x + 1
    table = prof.key_averages().table(sort_by="count", row_limit=1)
    rows = table.split("\n")[3:-3]
    assert len(rows) == 1 and rows[0].split()[0] == "aten::mul" and rows[0].split()[-1] == "3"
    assert prof.key_averages().table(row_limit=0).count("aten::") == 0
    with pytest.raises(AttributeError, match="'FunctionEventAvg' object has no attribute 'nope'"):
        prof.key_averages().table(sort_by="nope")
    assert str(prof) == prof.function_events.table()


def test_in_place_methods_and_record_function_blocks_are_named_as_pytorch_names_them():
    w = mg.tensor([1.0, 2.0])

    @record_function("update")
    def update():
        with mg.no_grad():
            w.add_(1.0)
            w.clamp_(0.0, 2.0)

    with profile() as prof:
        update()
        with record_function("read") as block:
            w * 1
    assert isinstance(block, record_function)
    names = [(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in prof.function_events]
    assert names == [
        ("update", None),
        ("aten::add_", "update"),
        ("aten::clamp_", "update"),
        ("read", None),
        ("aten::mul", "read"),
    ]


def test_nothing_is_recorded_outside_a_profiler_nor_when_it_is_disabled():
    assert profiling.active is False
    with record_function("outside"):  # no profiler: nothing to record into
        mg.tensor([1.0]) * 2
    with profile(enabled=False) as prof:
        assert profiling.active is False
        mg.tensor([1.0]) * 2
    assert prof is None


def test_an_error_inside_the_block_switches_the_profiler_off_and_keeps_what_ran():
    prof = profile()
    with pytest.raises(RuntimeError, match="grad can be implicitly created"):
        with prof:
            (mg.tensor([1.0, 2.0], requires_grad=True) * 2).backward()
    assert profiling.active is False
    assert [e.name for e in prof.function_events] == ["aten::mul"]


def test_a_profiler_inside_another_is_refused_and_an_unfinished_one_has_no_events():
    outer = profile()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        outer.key_averages()
    with outer:
        with pytest.raises(RuntimeError, match="Nested profilers are not supported"):
            with profile():
                pass
    assert outer.function_events == []


def test_shapes_are_recorded_when_asked_and_group_the_rows():
    a, b = mg.ones(2, 3), mg.ones(3)
    with profile(record_shapes=True) as prof:
        a * a
        b * b
    grouped = prof.key_averages(group_by_input_shape=True)
    assert [(row.key, row.input_shapes) for row in grouped] == [
        ("aten::mul", [[2, 3], [2, 3]]),
        ("aten::mul", [[3], [3]]),
    ]
    assert "Input Shapes" in grouped.table()
    assert "Input Shapes" not in prof.key_averages().table()


def test_the_double_backward_of_create_graph_is_recorded_too():
    x = mg.tensor(2.0, requires_grad=True)
    with profile() as prof:
        (dy,) = mg.autograd.grad(x**3, x, create_graph=True)
        dy.backward()
    rows = {row.key: row.count for row in prof.key_averages()}
    # x**3's node in the first pass; in the second, that of the x**2 its derivative made
    assert rows["PowBackward0"] == 2 and rows["aten::pow"] >= 2
    assert x.grad.item() == 12.0


def test_the_chrome_trace_holds_one_complete_event_per_range(tmp_path):
    with profile() as prof:
        mg.tensor([1.0]) * 2
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(path)
    trace = json.loads(path.read_text())["traceEvents"]
    assert [(event["name"], event["ph"]) for event in trace] == [("aten::mul", "X")]


def test_the_torch_profiler_entrance_starts_and_stops_and_refuses_a_schedule():
    from minigrad.profiler import ProfilerActivity
    from minigrad.profiler import profile as new_profile

    ready = []
    prof = new_profile(activities=[ProfilerActivity.CPU], on_trace_ready=ready.append)
    prof.start()
    mg.tensor([1.0]) - 1
    prof.step()
    prof.stop()
    assert [event.name for event in prof.events()] == ["aten::sub"] and ready == [prof]
    with pytest.raises(NotImplementedError, match="no schedule"):
        new_profile(schedule=lambda step: None)
