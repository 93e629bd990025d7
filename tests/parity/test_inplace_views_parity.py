"""In-place changes of views, against torch 2.13.0: ``dC[1] += W * 2`` and its relatives.

Each scenario runs in both libraries (``run_both``) and logs what a student would look at:
values, the tree of ``grad_fn`` names of the base and of the view, ``_version``, first
derivatives and second ones (through ``create_graph=True``), printing, and the errors
PyTorch raises where it refuses.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(25)
M = RNG.standard_normal((3, 4))
ROW = RNG.standard_normal(4)
COLUMN = RNG.standard_normal(3)


def name_tree(node):
    """A node's name and its inputs', as a string: ``CopySlices(MulBackward0(...), None)``."""
    if node is None:
        return "None"
    name = node.name().replace("torch::autograd::", "").replace("minigrad::autograd::", "")
    children = ", ".join(name_tree(child) for child, _ in node.next_functions)
    return f"{name}({children})" if node.next_functions else name


def leaf(L, values):
    return L.tensor(np.array(values), dtype=L.float64, requires_grad=True)


def log_derivatives(L, log, loss, inputs):
    """First derivatives of ``loss``, then those of the sum of their squares."""
    firsts = L.autograd.grad(loss, inputs, create_graph=True, allow_unused=True)
    log.append(("first", [g for g in firsts]))
    used = [g for g in firsts if g is not None and g.requires_grad]
    if used:
        total = sum((g * g).sum() for g in used)
        log.append(("second", list(L.autograd.grad(total, inputs, allow_unused=True))))


def backprop_ninja(L, F, log):
    """The issue's case: an embedding's gradient written row by row into zeros."""
    W = leaf(L, ROW[:3])
    dC = L.zeros(5, 3, dtype=L.float64)
    dC[1] += W * 2
    log += [name_tree(dC.grad_fn), dC._version, type(dC.grad_fn).__name__]
    dC[1] += W * 3
    log += [name_tree(dC.grad_fn), dC._version, dC.is_leaf, dC.requires_grad, dC]
    log_derivatives(L, log, (dC * dC).sum(), [W])


def slice_of_a_product_scaled(L, F, log):
    x = leaf(L, M)
    y = x * 1
    part = y[0:2]
    log.append(name_tree(part.grad_fn))
    part.mul_(2)
    log += [name_tree(part.grad_fn), name_tree(y.grad_fn), part._version, y._version]
    log += [part.grad_fn._saved_size, part.grad_fn._saved_stride]
    log.append(part.grad_fn._saved_storage_offset)
    log += [part.is_leaf, part._base is y, y]
    log_derivatives(L, log, (y * y).sum(), [x])


def column_assigned(L, F, log):
    x, v = leaf(L, M), leaf(L, COLUMN)
    y = x * 1
    y[:, 1] = v * v
    log += [name_tree(y.grad_fn), y._version, y]
    log_derivatives(L, log, (y * y.exp()).sum(), [x, v])


def slice_of_a_reshaped_view(L, F, log):
    x, w = leaf(L, M), leaf(L, ROW[:2])
    y = x * 1
    flat = y.view(12)
    flat[2:4].add_(w * w)
    log += [name_tree(flat.grad_fn), name_tree(y.grad_fn), y._version, flat._version]
    log_derivatives(L, log, (y.sin() * flat.reshape(3, 4)).sum(), [x, w])


def view_of_a_view(L, F, log):
    x, w = leaf(L, M), leaf(L, ROW[:3])
    y = x * 2
    row = y[1]
    tail = row[1:]
    tail.mul_(w)
    log += [name_tree(tail.grad_fn), name_tree(row.grad_fn), name_tree(y.grad_fn)]
    log += [tail._base is y, row._base is y, tail._version, row._version, y._version]
    log += [tail.grad_fn._saved_storage_offset, tail.grad_fn._saved_size]
    log_derivatives(L, log, (y**2).sum() + (row * tail.sum()).sum(), [x, w])


def view_then_base_and_view_used(L, F, log):
    x, w = leaf(L, M), leaf(L, ROW)
    y = x.sin()  # sin saves its input, not y: y may change
    first = y[0]
    first.mul_(w)
    log += [name_tree(first.grad_fn), name_tree(y.grad_fn), first, y]
    loss = (y * y).sum() + (first * 3).sum() + y[0].sum()
    log_derivatives(L, log, loss, [x, w])


def base_changed_after_a_view_was_taken(L, F, log):
    x, w = leaf(L, M), leaf(L, M)
    y = x * 1
    row, other = y[2], y[0]
    y.mul_(w)  # every view of y now reads y's new history
    log += [name_tree(row.grad_fn), row.requires_grad, row._version]
    y[1].add_(w[1])  # and another view changes it again
    log += [name_tree(other.grad_fn), name_tree(y.grad_fn)]
    log_derivatives(L, log, (row * row).sum() + (other * y[1]).sum(), [x, w])


def base_changed_under_no_grad(L, F, log):
    x = leaf(L, M)
    y = x * 1
    row = y[0]
    with L.no_grad():
        y.mul_(2)
        log.append(name_tree(row.grad_fn))  # made again, from y's unchanged history
    with L.no_grad():
        row.add_(1)  # a view changed under no_grad: not recorded
    log += [name_tree(row.grad_fn), name_tree(y.grad_fn), y._version]
    log_derivatives(L, log, (row * row).sum(), [x])


def zeros_with_a_stale_view(L, F, log):
    W = leaf(L, ROW[:3])
    dC = L.zeros(5, 3, dtype=L.float64)
    row = dC[1]
    log += [row.requires_grad, row.grad_fn]
    dC[0] += W
    log += [row.requires_grad, name_tree(row.grad_fn), dC._version]
    log_derivatives(L, log, (dC * 2).sum() + (row * W).sum(), [W])


def assignments(L, F, log):
    """``y[index] = value``: a basic index writes through a view (CopySlices), a full one
    into ``y`` itself, an advanced one records IndexPutBackward0; mixed ones write the
    advanced part into the view of the basic part."""
    x, s, v = leaf(L, M), leaf(L, 0.5), leaf(L, ROW[:2])
    index = L.tensor([0, 2])
    for label, write in [
        ("number", lambda y: y.__setitem__(0, 5.0)),
        ("0-d tensor", lambda y: y.__setitem__((1, 2), s * s)),
        ("row tensor", lambda y: y.__setitem__(2, ROW_OF(L) * s)),
        ("everything", lambda y: y.__setitem__(Ellipsis, s)),
        ("full slice", lambda y: y.__setitem__(slice(None), 1.5)),
        ("None", lambda y: y.__setitem__(None, 0.0)),
        ("index tensor", lambda y: y.__setitem__(index, 0.0)),
        ("list", lambda y: y.__setitem__([1, 2], 2.0)),
        ("mask", lambda y: y.__setitem__(y > 0, 0.0)),
        ("basic then advanced", lambda y: y.__setitem__((1, L.tensor([1, 3])), v)),
        ("advanced then int", lambda y: y.__setitem__((index, 1), v)),
        ("slice then advanced", lambda y: y.__setitem__((slice(1, None), index), 0.25)),
        ("full slice then advanced", lambda y: y.__setitem__((slice(None), index), 0.25)),
        ("one row into two", lambda y: y.__setitem__(slice(0, 2), ROW_OF(L) * s)),
        ("leading ones dropped", lambda y: y.__setitem__(1, (ROW_OF(L) * s).reshape(1, 4))),
        ("a column of ones", lambda y: y.__setitem__((slice(None), 0), s.reshape(1))),
        ("0-d into 0-d", lambda y: y.__setitem__((0, 0), s * 3)),
    ]:
        y = x * 1
        write(y)
        log += [label, name_tree(y.grad_fn), y._version, y]
        log_derivatives(L, log, (y * y * y).sum(), [x, s, v])


def ROW_OF(L):  # noqa: N802 - a constant's maker
    return L.tensor(ROW, dtype=L.float64)


def into_a_tensor_that_needs_no_grad(L, F, log):
    x = leaf(L, M)
    y = L.zeros(3, 4, dtype=L.float64)
    y[0] = x[0]
    y[1:, :2] = x[1:, 2:] * 2
    log += [name_tree(y.grad_fn), y]
    log_derivatives(L, log, (y * y).sum(), [x])


def nothing_recorded(L, F, log):
    plain = L.zeros(3, 4, dtype=L.float64)
    plain[1] += 2.0
    row = plain[2]
    row.mul_(3)
    log += [plain.grad_fn, row.grad_fn, plain._version, row._version, plain.requires_grad]
    x = leaf(L, M)
    y = x * 1
    with L.no_grad():
        y[0] = 7.0
    log += [name_tree(y.grad_fn), y._version, y]
    log_derivatives(L, log, (y * y).sum(), [x])


def printing(L, F, log):
    W = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    dC = L.zeros(2, 3)
    dC[1] += W * 2
    log += [repr(dC), repr(dC[1]), repr(dC.grad_fn).split(" at ")[0].rstrip(">")]
    row = dC[0]
    row.add_(1)
    log += [repr(row), repr(row.grad_fn).split(" at ")[0].rstrip(">")]


SCENARIOS = [
    backprop_ninja,
    slice_of_a_product_scaled,
    column_assigned,
    slice_of_a_reshaped_view,
    view_of_a_view,
    view_then_base_and_view_used,
    base_changed_after_a_view_was_taken,
    base_changed_under_no_grad,
    zeros_with_a_stale_view,
    assignments,
    into_a_tensor_that_needs_no_grad,
    nothing_recorded,
    printing,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_in_place_through_a_view_matches_torch(run_both, scenario):
    log = run_both(scenario)
    assert log and not (isinstance(log[-1], tuple) and log[-1][0].endswith("Error")), log[-1]


def test_a_transposed_view_matches_torch(run_both):
    def scenario(L, F, log):
        x, w = leaf(L, M), leaf(L, M.T)
        y = x * 1
        seen = y.t()
        seen.mul_(w)
        log += [name_tree(seen.grad_fn), name_tree(y.grad_fn), seen.grad_fn._saved_stride]
        log_derivatives(L, log, (y * y).sum() + seen.sum(), [x, w])

    log = run_both(scenario)
    assert "CopySlices(MulBackward0(AccumulateGrad, None), AccumulateGrad)" in log


def test_the_node_is_named_and_typed_as_torchs():
    for L, prefix in ((torch, "torch"), (mg, "minigrad")):
        W = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        dC = L.zeros(5, 3)
        dC[1] += W * 2
        assert type(dC.grad_fn).__name__ == "CopySlices"
        assert dC.grad_fn.name() == f"{prefix}::autograd::CopySlices"
    assert repr(dC.grad_fn) == "<CopySlices object>"  # minigrad prints no address


# ------------------------------------------------------------------------------ refusals
def _refusal(write):
    """The error ``write`` raises, up to the hint that ends the version-counter error
    (PyTorch's points to its anomaly detection: a documented difference)."""

    def scenario(L, F, log):
        try:
            write(L, F)
        except RuntimeError as error:
            message = str(error).split(" Hint:")[0].replace("torch.", "minigrad.")
            log.append(("RuntimeError", message))
            return
        log.append("no error")

    return scenario


class _Identity:
    """A custom Function returning its input as it is (PyTorch hands back a view)."""

    @staticmethod
    def make(F):
        class Identity(F.Function):
            @staticmethod
            def forward(ctx, a):
                return a

            @staticmethod
            def backward(ctx, grad):
                return grad

        return Identity


class _Flatten:
    @staticmethod
    def make(F):
        class Flatten(F.Function):
            @staticmethod
            def forward(ctx, a):
                return a.view(-1)

            @staticmethod
            def backward(ctx, grad):
                return grad.view(3, 4)

        return Flatten


def _split_then_base_changed(L):
    y = leaf(L, M) * 1
    first, _, _ = y.split(1)
    y.mul_(2)
    return first * 2


def _no_grad_view_then_base_changed(L):
    y = leaf(L, M) * 1
    with L.no_grad():
        row = y[0]
    y.mul_(2)
    return row.grad_fn


def _saved_through_a_view(L):
    y = leaf(L, M) * 1
    z = y * y
    y[0].mul_(2)
    z.sum().backward()


def _saved_view_base_changed(L):
    y = leaf(L, M) * 1
    row = y[0]
    z = row * row
    y.mul_(2)
    z.sum().backward()


def _backprop_ninja_saved(L):
    W = leaf(L, ROW[:3])
    dC = L.zeros(5, 3, dtype=L.float64)
    dC[1] += W * 2
    z = dC * dC
    dC[2] += W
    z.sum().backward()


REFUSALS = {
    "view of a leaf": lambda L, F: leaf(L, M)[0].add_(1),
    "view made a leaf": lambda L, F: L.arange(6.0).view(2, 3).requires_grad_().add_(1),
    "view made a leaf, unary": lambda L, F: L.arange(6.0).reshape(2, 3).requires_grad_().exp_(),
    "setitem on a leaf": lambda L, F: leaf(L, M).__setitem__(0, 1.0),
    "setitem on a leaf, mixed": lambda L, F: leaf(L, M).__setitem__((0, L.tensor([1])), 1.0),
    "setitem on a leaf, advanced": lambda L, F: leaf(L, M).__setitem__(L.tensor([1]), 1.0),
    "view of a leaf, no_grad value": lambda L, F: leaf(L, M).t().mul_(2),
    "split piece": lambda L, F: (leaf(L, M) * 1).split(1)[2].add_(1),
    "split_with_sizes piece": lambda L, F: (leaf(L, M) * 1).split([1, 2])[1].mul_(2),
    "chunk piece": lambda L, F: (leaf(L, M) * 1).chunk(2, dim=1)[1].sub_(1),
    "view of a split piece": lambda L, F: (leaf(L, M) * 1).split(1)[0][0].add_(1),
    "split piece of a constant, grad value": lambda L, F: (
        L.zeros(3, 2, dtype=L.float64).split(1)[0].add_(leaf(L, 1.0))
    ),
    "split piece, base changed": lambda L, F: _split_then_base_changed(L),
    "view under no_grad": lambda L, F: _no_grad_view(L).add_(1),
    "view under no_grad of a constant": lambda L, F: _no_grad_view_of_constant(L).add_(
        leaf(L, 1.0)
    ),
    "view under no_grad, base changed": lambda L, F: _no_grad_view_then_base_changed(L),
    "custom Function's view": lambda L, F: _Flatten.make(F).apply(leaf(L, M) * 1).add_(1),
    "custom Function's input as it is": lambda L, F: (
        _Identity.make(F).apply(leaf(L, M) * 1).mul_(2)
    ),
    "view of a custom Function's output": lambda L, F: (
        _Identity.make(F).apply(leaf(L, M) * 1)[1].mul_(2)
    ),
    "saved base changed through a view": lambda L, F: _saved_through_a_view(L),
    "saved view changed through its base": lambda L, F: _saved_view_base_changed(L),
    "dC saved, then another row written": lambda L, F: _backprop_ninja_saved(L),
    "expanded view": lambda L, F: (leaf(L, ROW) * 1).expand(3, 4).add_(1),
    "setitem of a value that does not expand": lambda L, F: L.zeros(3, 2).__setitem__(0, L.ones(3)),
    "setitem from an overlapping slice": lambda L, F: _shifted(L, lambda y: y[1:], "setitem"),
    "add_ from an overlapping slice": lambda L, F: _shifted(L, lambda y: y[1:], "add_"),
    "copy_ from its own transpose": lambda L, F: _shifted(L, lambda y: y.t(), "copy_"),
    "copy_ of a source that clashes": lambda L, F: L.zeros(3, 2).copy_(L.ones(3)),
    "copy_ of a source that is larger": lambda L, F: L.zeros(3, 2).copy_(L.ones(4, 1, 2)),
    "add_ of an operand that is larger": lambda L, F: L.zeros(3, 2).add_(L.ones(4, 1, 2)),
    "add_ into a number": lambda L, F: L.zeros(()).add_(L.ones(1)),
    "detach_ of a view": lambda L, F: (leaf(L, M) * 1)[0].detach_(),
    "detach_ of a view of a constant": lambda L, F: L.zeros(3)[1:].detach_(),
    "expanded view of a constant": lambda L, F: L.zeros(4).expand(2, 4).add_(1),
}


def _shifted(L, source, how):
    """An in-place write whose source overlaps the memory written, not element for
    element: PyTorch refuses it (``y.add_(y)`` is fine)."""
    y = L.arange(4.0).reshape(2, 2) if how == "copy_" else L.arange(3.0)
    y.add_(y)  # the same memory, element for element: allowed
    if how == "setitem":
        y[0:2] = source(y)
    elif how == "add_":
        y[0:2].add_(source(y))
    else:
        y.copy_(source(y))


def _no_grad_view(L):
    y = leaf(L, M) * 1
    with L.no_grad():
        return y[0]


def _no_grad_view_of_constant(L):
    y = L.zeros(3, 4, dtype=L.float64)
    with L.no_grad():
        return y[0]


@pytest.mark.parametrize("write", REFUSALS.values(), ids=REFUSALS.keys())
def test_refusals_match_torch(run_both, write):
    log = run_both(_refusal(write))
    assert log[-1][0] == "RuntimeError", log


def test_version_error_names_the_view_and_the_base_as_torch_does():
    said = {}
    for L in (torch, mg):
        with pytest.raises(RuntimeError) as caught:
            _saved_view_base_changed(L)
        said[L] = str(caught.value).split(" Hint:")[0]
    assert "which is output 0 of AsStrided, is at version 1" in said[mg]
    assert said[mg] == said[torch].replace("torch.", "minigrad.")


# ---------------------------------------------------------- a custom Function's mark_dirty
def _doubling(F):
    class Double(F.Function):
        """Doubles its input in place and says so with ``mark_dirty``."""

        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    return Double


def test_a_function_that_marks_a_view_dirty_rebases_its_base_as_torch_does(run_both):
    def scenario(L, F, log):
        x = leaf(L, M)
        y = x * x
        row = y[1]
        out = _doubling(F).apply(row)
        log += [out is row, name_tree(row.grad_fn), name_tree(y.grad_fn)]
        log += [row._version, y._version, y]
        log_derivatives(L, log, (y * y).sum(), [x])
        z = x * 1
        _doubling(F).apply(z)
        log.append(z._version)  # marking dirty counts as a change, view or not

    log = run_both(scenario)
    assert "CopySlices(MulBackward0(AccumulateGrad, AccumulateGrad))" in log  # y's history


def test_a_function_that_marks_a_view_of_a_leaf_dirty_is_refused_as_by_torch(run_both):
    log = run_both(_refusal(lambda L, F: _doubling(F).apply(leaf(L, M)[0])))
    assert log[-1][0] == "RuntimeError"


# ----------------------------------------------------- every view × every in-place op
VIEWS = {
    "y[1]": lambda y: y[1],
    "y[:, 2]": lambda y: y[:, 2],
    "y[0:2, 1:3]": lambda y: y[0:2, 1:3],
    "y[::2, ::3]": lambda y: y[::2, ::3],
    "y.t()": lambda y: y.t(),
    "y.T[1:]": lambda y: y.T[1:],
    "y.view(12)[3:7]": lambda y: y.view(12)[3:7],
    "y[1][1:]": lambda y: y[1][1:],
    "y.unsqueeze(0)[0, 2]": lambda y: y.unsqueeze(0)[0, 2],
    "y.transpose(0, 1)[3]": lambda y: y.transpose(0, 1)[3],
    "y[None]": lambda y: y[None],
}
IN_PLACE = {
    "add_(w)": lambda v, w: v.add_(w),
    "add_(w, alpha=2)": lambda v, w: v.add_(w, alpha=2),
    "sub_(0.5)": lambda v, w: v.sub_(0.5),
    "mul_(w)": lambda v, w: v.mul_(w),
    "div_(w)": lambda v, w: v.div_(w),
    "pow_(2)": lambda v, w: v.pow_(2),
    "copy_(w)": lambda v, w: v.copy_(w),
    "fill_(2.0)": lambda v, w: v.fill_(2.0),
    "zero_()": lambda v, w: v.zero_(),
    "clamp_(-0.5, 0.5)": lambda v, w: v.clamp_(-0.5, 0.5),
    "+= w * w": lambda v, w: v.__iadd__(w * w),
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
@pytest.mark.parametrize("change", IN_PLACE.values(), ids=IN_PLACE.keys())
def test_each_in_place_op_through_each_view_matches_torch(run_both, view, change):
    def scenario(L, F, log):
        x = leaf(L, M)
        y = x.sin()
        seen = view(y)
        w_values = np.random.default_rng(7).standard_normal(tuple(seen.shape))
        w = leaf(L, 1.5 + np.abs(w_values))  # the same in both libraries, away from 0
        change(seen, w)
        log += [name_tree(seen.grad_fn), name_tree(y.grad_fn), seen._version, y]
        log_derivatives(L, log, (y * y * y).sum() + (seen * 2).sum(), [x, w])

    log = run_both(scenario)
    assert any(isinstance(entry, str) and "CopySlices" in entry for entry in log)


def test_retain_grad_follows_a_tensor_changed_in_place_as_in_torch(run_both):
    def scenario(L, F, log):
        for where in ("base through a view", "itself", "the view itself"):
            x = leaf(L, ROW)
            y = x.sin()
            part = y[1:3]
            kept = part if where == "the view itself" else y
            kept.retain_grad()
            (part if where != "itself" else y).mul_(3)
            (y * y).sum().backward()
            log += [where, kept.grad, kept.retains_grad, x.grad]

    log = run_both(scenario)
    assert len(log) == 12 and log[1] is not None


@pytest.mark.parametrize("op", ["exp_", "tanh_", "sigmoid_", "sqrt_", "sin_", "log10_"])
@pytest.mark.parametrize("then_changed", [False, True])
@pytest.mark.parametrize("view_kept", [False, True])
def test_an_in_place_unary_op_on_a_view_saves_what_the_view_now_holds(
    run_both, op, then_changed, view_kept
):
    """``y[0:2].exp_()``: the base becomes CopySlices; a result the op saved is the view's
    memory, so changing the base again makes backward refuse, naming the view's AsStrided
    while the view lives, else the op."""

    def scenario(L, F, log):
        x = L.tensor([0.5, 1.0, 2.0], dtype=L.float64, requires_grad=True)
        y = x * 1
        view = y[0:2]
        getattr(view, op)()
        if not view_kept:
            del view
        log.append(type(y.grad_fn).__name__)
        if then_changed:
            y.mul_(2)
        try:
            y.sum().backward()
        except RuntimeError as error:  # up to the hint, a documented difference
            log.append(str(error).split(" Hint:")[0].replace("torch.", "minigrad."))
            return
        log.append(x.grad)

    run_both(scenario)


def _empty_written_in_place(L, F, log):
    """An empty tensor has no element to write twice: in place on an empty expanded tensor,
    or on an empty clone (whose numpy strides are all 0), works as in torch."""
    expanded = L.zeros(1, 0, 1, dtype=L.float64).expand(2, 0, 1)
    log.append(("expanded", tuple(expanded.mul_(2).shape), expanded._version))
    x = L.zeros(2, 0, 1, dtype=L.float64, requires_grad=True)
    y = x.clone()
    y.mul_(L.zeros(1, 0, 1, dtype=L.float64))
    y.sum().backward()
    log.append(("clone", y.grad_fn.name(), tuple(x.grad.shape)))
    z = L.zeros(1, 3, dtype=L.float64).expand(2, 3)
    z.mul_(2)  # two elements share one memory location: refused, as by torch


def test_an_empty_tensor_is_written_in_place_as_in_torch(run_both):
    log = run_both(_empty_written_in_place)
    assert log[-1][0] == "RuntimeError", log


def _empty_view_written_in_place(L, F, log):
    """An empty view is still a view: written in place, its base's node becomes CopySlices,
    as in torch (numpy says an empty array shares no memory with anything)."""
    value = L.tensor(2.0, dtype=L.float64, requires_grad=True)
    for write in ("fill_", "mul_", "setitem"):
        base = L.zeros(2, 3, dtype=L.float64)
        view = base[0:0]
        if write == "setitem":
            view[:] = value
        else:
            getattr(view, write)(value)
        log.append((write, view._base is base, view.grad_fn.name(), base.grad_fn.name()))
        base.sum().backward()
        log.append(("grad", value.grad.item()))
    log.append(("fill_ with a tensor", L.zeros(2, 3).fill_(value).grad_fn.name()))
    L.zeros(2).fill_(L.tensor([1.0, 2.0]))  # refused: a value tensor must be 0-d


def test_an_empty_view_written_in_place_is_recorded_as_in_torch(run_both):
    log = run_both(_empty_view_written_in_place)
    assert log[-1][0] == "RuntimeError", log


def test_updates_under_no_grad_write_into_the_parameter_and_its_views_as_in_torch(run_both):
    # The optimizer's p -= lr * p.grad, through the parameter and a view of it, with operands
    # of the same dtype and shape (numpy writes straight into the memory) and of others.
    def scenario(L, F, log):
        w = leaf(L, M)
        row = w[1]
        y = (w * w).sum()
        step = L.tensor(np.full((3, 4), 0.125))
        with L.no_grad():
            w -= 0.5 * step
            row += L.tensor(ROW)
            row.mul_(L.tensor(ROW))
            w.sub_(step, alpha=2)
            w += L.tensor(COLUMN).reshape(3, 1)
            w.mul_(L.tensor(M, dtype=L.float32))
        log.extend([w, row, w._version, row._version, w.is_leaf, w.grad_fn is None])
        small = L.tensor(ROW, dtype=L.float32)
        small -= L.tensor(ROW / 3)
        small.add_(L.tensor(ROW, dtype=L.float32))
        log.extend([small, small._version])
        try:  # (the hint after the versions is minigrad's own: see docs/pytorch.md)
            y.backward()
        except RuntimeError as error:
            log.append(str(error).split("] ")[1].split(";")[0])

    run_both(scenario)
