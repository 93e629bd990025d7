"""The profiler against torch 2.13's: the same op names, counted the same number of times,
and the same table layout. Times differ (numpy against ATen's kernels) and are not compared.

PyTorch's kernels call helpers of their own (``aten::empty_like``, ``aten::as_strided``
inside ``aten::expand``, ``detach`` inside ``AccumulateGrad``...) that minigrad, computing
with numpy, does not run: those names, listed in HELPERS, are left out of the comparison.
Everything else a program runs (its ops, the ops its backward formulas run, every backward
node and the engine's step around it, the seed, ``record_function`` blocks, the
optimizer's step) must be counted alike.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

# ATen's own helpers, run inside the kernels of the ops below; minigrad has no such layer.
HELPERS = {
    "aten::as_strided",
    "aten::empty",
    "aten::empty_like",
    "aten::empty_strided",
    "aten::fill_",
    "aten::detach",
    "detach",
    "aten::resolve_conj",
    "aten::copy_",
    "aten::resize_",
    "aten::zeros_like",
    "aten::to",
    "aten::_to_copy",
}


def named(name):
    """A name as minigrad prints it: its C++ nodes live in minigrad::, not torch::."""
    return name.replace("torch::autograd::", "minigrad::autograd::")


def counts(events, keep=lambda event: True):
    return Counter(named(e.name) for e in events if keep(e) and e.name not in HELPERS)


def profiled(L, program):
    """Profile ``program(L)``'s second part: it makes its tensors (PyTorch's profiler would
    count ``torch.tensor``'s copy) and returns what to run."""
    run = program(L)
    with L.autograd.profiler.profile() as prof:
        run()
    return prof


def both(program):
    return profiled(torch, program), profiled(mg, program)


def product_sum(L):
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = L.tensor([4.0, 5.0, 6.0], requires_grad=True)
    return lambda: (x * y).sum().backward()


def square_sum(L):
    """``x * x``: the two gradients sent to ``x`` are added before ``x.grad`` takes them."""
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return lambda: (x * x).sum().backward()


def test_a_square_adds_the_two_gradients_of_its_leaf_once():
    theirs, ours = both(square_sum)
    expected = counts(theirs.function_events)
    # PyTorch adds the second gradient into the first's buffer in place; minigrad's engine
    # makes a new tensor (the first may be held elsewhere): the same one addition.
    expected["aten::add"] = expected.pop("aten::add_")
    assert counts(ours.function_events) == expected
    assert expected["aten::add"] == 1


def test_a_product_summed_and_differentiated_counts_every_op_and_node_alike():
    theirs, ours = both(product_sum)
    expected = counts(theirs.function_events)
    assert counts(ours.function_events) == expected
    # the structure, not only the names: the engine's step around each node's own range
    assert expected["aten::mul"] == 3 and expected["MulBackward0"] == 1
    parents = {
        (named(e.name), named(e.cpu_parent.name) if e.cpu_parent else None)
        for e in ours.function_events
    }
    assert ("MulBackward0", "autograd::engine::evaluate_function: MulBackward0") in parents
    assert ("aten::mul", "MulBackward0") in parents
    assert ("aten::expand", "SumBackward0") in parents


def record_block(L):
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def run():
        with L.autograd.profiler.record_function("my_block"):
            z = (x * 2).sum()
        z.backward()

    return run


def test_a_record_function_block_is_a_row_with_the_ops_inside_it_as_children():
    theirs, ours = both(record_block)
    assert counts(ours.function_events) == counts(theirs.function_events)
    for prof in (theirs, ours):
        inside = counts(
            prof.function_events, lambda e: e.cpu_parent and e.cpu_parent.name == "my_block"
        )
        assert inside == Counter({"aten::mul": 1, "aten::sum": 1})


def training_step(L):
    L.manual_seed(0)
    model = L.nn.Sequential(L.nn.Linear(4, 8), L.nn.Tanh(), L.nn.Linear(8, 1))
    optimizer = L.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = L.tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4))
    target = L.tensor(np.ones((5, 1), dtype=np.float32))

    def run():
        optimizer.zero_grad()
        loss = L.nn.functional.mse_loss(model(x), target)
        loss.backward()
        optimizer.step()

    return run


def test_a_training_step_of_a_small_mlp_runs_the_same_steps_and_nodes():
    """Forward, backward and step, as the program wrote them (the top-level rows: the
    layers' aten::linear, the loss, the seed, the engine's steps, the optimizer's rows),
    and every backward node. PyTorch's backward formulas are C++ kernels (aten::tanh_backward)
    where minigrad's are Tensor ops, so the ops inside the nodes are not compared here."""
    theirs, ours = both(training_step)

    def top_level(prof):
        found = counts(prof.function_events, lambda e: e.cpu_parent is None)
        # F.mse_loss in PyTorch's Python checks the broadcast first
        found.pop("aten::broadcast_tensors", None)
        return found

    def nodes(prof):
        return counts(
            prof.function_events, lambda e: "Backward" in e.name or "Accumulate" in e.name
        )

    assert top_level(ours) == top_level(theirs)
    assert nodes(ours) == nodes(theirs)
    assert top_level(theirs)["Optimizer.step#SGD.step"] == 1
    linear_children = [
        lambda prof: counts(
            prof.function_events, lambda e: e.cpu_parent and e.cpu_parent.name == "aten::linear"
        )
    ][0]
    assert (
        linear_children(ours)
        == linear_children(theirs)
        == Counter({"aten::t": 2, "aten::addmm": 2})
    )
    momentum = counts(
        ours.function_events,
        lambda e: e.cpu_parent and e.cpu_parent.name == "Optimizer.step#SGD.step",
    )
    assert momentum["aten::add_"] == 4  # each parameter updated in place


def tutorial_loop(L):
    """The loop "Fundamentals of Autograd" profiles (ten turns instead of a thousand)."""
    x = L.tensor(np.full((2, 3), 0.5, dtype=np.float32), requires_grad=True)
    y = L.tensor(np.full((2, 3), 0.25, dtype=np.float32), requires_grad=True)
    z = L.ones(2, 3, requires_grad=True)
    with L.autograd.profiler.profile(use_cuda=False) as prof:
        for _ in range(10):
            z = (z / x) * y
    return prof


def test_the_tutorial_loop_counts_ten_divisions_and_ten_products():
    theirs, ours = tutorial_loop(torch), tutorial_loop(mg)
    assert counts(ours.function_events) == counts(theirs.function_events)
    rows = {row.key: row.count for row in ours.key_averages()}
    assert rows == {"aten::div": 10, "aten::mul": 10}


def in_place_under_no_grad(L):
    w = L.tensor([1.0, 2.0])

    def run():
        with L.no_grad():
            w.add_(1.0)
            w.mul_(2.0)
            w.zero_()

    return run


def test_in_place_methods_are_named_with_pytorchs_underscore():
    theirs, ours = both(in_place_under_no_grad)
    assert counts(ours.function_events) == counts(theirs.function_events)
    assert set(counts(ours.function_events)) == {"aten::add_", "aten::mul_", "aten::zero_"}


TIME = re.compile(r"\d+\.\d{3}(us|ms|s)|\d+\.\d{2}%")


def cells(table):
    """The table's text with every time and percentage replaced by T, spaces collapsed."""
    return re.sub(" +", " ", TIME.sub("T", table))


def test_the_table_has_pytorchs_columns_widths_rules_and_footer():
    def one_product(L):
        x, y = L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0])
        return lambda: x * y

    theirs, ours = both(one_product)
    for sort_by in (None, "self_cpu_time_total", "count"):
        their_table = theirs.key_averages().table(sort_by=sort_by, row_limit=5)
        our_table = ours.key_averages().table(sort_by=sort_by, row_limit=5)
        their_lines, our_lines = their_table.split("\n"), our_table.split("\n")
        # every line but the footer, whose time is as long as its digits
        assert [len(line) for line in our_lines[:-2]] == [len(line) for line in their_lines[:-2]]
        # the same cells in the same order (their widths are checked above)
        assert cells(our_table) == cells(their_table)
        assert our_lines[-2].startswith("Self CPU time total: ")


def test_long_names_are_cut_as_pytorch_cuts_them_and_shapes_get_a_column():
    def step(L):
        x = L.tensor([[1.0, 2.0]], requires_grad=True)
        return lambda: (x * 3).sum().backward()

    for shapes in (False, True):
        tables = []
        for L in (torch, mg):
            run = step(L)
            with L.autograd.profiler.profile(record_shapes=shapes) as prof:
                run()
            averages = prof.key_averages(group_by_input_shape=shapes)
            table = averages.table(sort_by="count", row_limit=1)
            tables.append(TIME.sub("T", named(table)))
        theirs, ours = tables
        # The shapes differ: PyTorch lists every argument of the ATen operator (aten::sum's
        # dtype), minigrad the arguments of its op; the columns before them do not.
        header = theirs.split("\n")[1]
        calls = header.index("# of Calls") + len("# of Calls  ")
        assert ours.split("\n")[1][:calls] == header[:calls]
        assert ours.split("\n")[1].endswith("Input Shapes  ") == shapes
    # the AccumulateGrad step's name is longer than the column: cut with "..."
    run = step(mg)
    with mg.autograd.profiler.profile() as prof:
        run()
    assert "autograd::engine::evaluate_function: minigrad::autog..." in prof.key_averages().table()


def test_use_cuda_warns_as_pytorch_does_without_a_gpu():
    for L in (torch, mg):
        with (
            pytest.warns(FutureWarning, match="use_cuda"),
            pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"),
        ):
            L.autograd.profiler.profile(use_cuda=True)


def test_torch_profiler_entrance_and_its_activities():
    def run(L):
        P = L.profiler
        x = L.tensor([1.0, 2.0])
        with P.profile(activities=[P.ProfilerActivity.CPU], record_shapes=True) as prof:
            with P.record_function("block"):
                x * 2
        return counts(prof.events())

    assert run(mg) == run(torch)
    for L in (torch, mg):
        with (
            pytest.warns(UserWarning, match="CUDA is not available"),
            pytest.raises(AssertionError, match="No activities specified for the profiler"),
        ):
            L.profiler.profile(activities=[L.profiler.ProfilerActivity.CUDA]).start()


def indexing(L):
    x = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    rows = L.tensor([1, 0])

    def run():
        (x[0] * 2 + x[1:] + x[rows]).sum().backward()

    return run


def test_indexing_is_named_as_its_node_select_slice_or_index():
    """The program's own ops and the engine's steps (the top-level rows): what runs inside
    SelectBackward0 and the others is a C++ kernel in PyTorch (aten::select_backward)."""
    theirs, ours = both(indexing)
    expected = counts(theirs.function_events, lambda e: e.cpu_parent is None)
    assert counts(ours.function_events, lambda e: e.cpu_parent is None) == expected
    assert expected["aten::select"] == expected["aten::slice"] == expected["aten::index"] == 1
