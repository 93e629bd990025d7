"""Forward-mode AD (``autograd.forward_ad``) against torch 2.13.

For every op of the ops index (the expressions of ``test_saved_tensor_order_parity.py``,
which name each class at least once), the tangent minigrad computes is compared with
torch's, and with minigrad's own reverse mode: ``(J v) · u == v · (Jᵀ u)`` for random
``v`` and ``u``. Then the API's rules as torch has them: levels, errors, printing, a user's
``Function`` with ``jvp``, and Hessian-vector products computed forward over reverse.
"""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
# torch 2.13 warns from inside its own forward-mode code that torch.jit.script is deprecated
pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning"),
]

_SIBLING = pathlib.Path(__file__).with_name("test_saved_tensor_order_parity.py")
_spec = importlib.util.spec_from_file_location("_saved_tensor_cases", _SIBLING)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

# Random masks (dropout in training) and a nested level (unpack_dual's own test is below).
LEFT_OUT = ("F.dropout training", "FwPrimal")
CASES = [(label, expression) for label, expression in cases.CASES if not label.startswith(LEFT_OUT)]


def environment(L, named):
    return {
        "L": L,
        "F": L.nn.functional,
        "setitem": cases.setitem,
        "fill_everything": cases.fill_everything,
        "written_view": cases.written_view,
        **named,
    }


def tangents_for(named):
    """A tangent for every input that requires grad (the others stay constants)."""
    rng = np.random.default_rng(13)
    return {
        name: rng.standard_normal(tuple(tensor.shape))
        for name, tensor in sorted(named.items())
        if tensor.requires_grad
    }


def forward_mode(L, expression):
    """(primal, tangent) of the expression's result, every input carrying its tangent."""
    named = cases.inputs(L)
    directions = tangents_for(named)
    fwAD = L.autograd.forward_ad
    with fwAD.dual_level():
        duals = {
            name: fwAD.make_dual(tensor, L.tensor(directions[name]))
            if name in directions
            else tensor
            for name, tensor in named.items()
        }
        result = eval(expression, environment(L, duals))  # noqa: S307 - the expressions above
        primal, tangent = fwAD.unpack_dual(result)
        return (
            primal.detach().numpy().copy(),
            None if tangent is None else tangent.detach().numpy().copy(),
        )


@pytest.mark.parametrize(("label", "expression"), CASES, ids=[label for label, _ in CASES])
def test_tangent_matches_torch(label, expression):
    mine, theirs = forward_mode(mg, expression), forward_mode(torch, expression)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-12, atol=1e-12)
    assert (mine[1] is None) == (theirs[1] is None), (mine[1], theirs[1])
    if mine[1] is not None:
        np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(("label", "expression"), CASES, ids=[label for label, _ in CASES])
def test_tangent_agrees_with_reverse_mode(label, expression):
    """(J v) · u computed forward equals v · (Jᵀ u) computed backward."""
    named = cases.inputs(mg)
    directions = tangents_for(named)
    _, tangent = forward_mode(mg, expression)
    result = eval(expression, environment(mg, named))  # noqa: S307
    if tangent is None or not result.requires_grad:
        pytest.skip("the result does not depend on the inputs")  # checked against torch above
    u = np.random.default_rng(7).standard_normal(tuple(result.shape))
    differentiated = [name for name in directions]
    grads = mg.autograd.grad(
        (result * mg.tensor(u)).sum(),
        [named[name] for name in differentiated],
        allow_unused=True,
    )
    backward = sum(
        float((g.numpy() * directions[name]).sum())
        for name, g in zip(differentiated, grads)
        if g is not None
    )
    # float32 results (a.to(float32)) carry float32's precision
    rtol = 1e-9 if tangent.dtype == np.float64 else 1e-6
    np.testing.assert_allclose(float((tangent * u).sum()), backward, rtol=rtol, atol=1e-12)


def test_every_op_has_a_jvp_and_a_forward_formula():
    import minigrad.ops as ops

    for name in dir(ops):
        op = getattr(ops, name)
        if isinstance(op, type) and issubclass(op, ops.Op) and op not in (ops.Op, ops.Elementwise):
            assert op.jvp is not mg.autograd.Function.jvp, name
            assert op.jvp_formula, name


# --------------------------------------------------------------------------- the API
def test_levels_and_their_errors(run_both):
    def scenario(L, F, log):
        fwAD = L.autograd.forward_ad
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
        v = L.tensor([1.0, 0.0, -1.0], dtype=L.float64)
        for attempt in (
            lambda: fwAD.make_dual(x, v),
            lambda: fwAD.exit_dual_level(),
        ):
            try:
                attempt()
            except RuntimeError as error:
                log.append(str(error))
        log.append(fwAD.unpack_dual(x))
        with fwAD.dual_level() as level:
            log.append(level)
            dual = fwAD.make_dual(x, v)
            for attempt in (
                lambda: fwAD.dual_level().__enter__(),
                lambda: fwAD.enter_dual_level(),
                lambda: fwAD.make_dual(dual, v),
                lambda: fwAD.make_dual(x, dual),
                lambda: fwAD.make_dual(x, L.ones(2, dtype=L.float64)),
                lambda: fwAD.make_dual(x, v, level=3),
                lambda: fwAD.unpack_dual(x, level=3),
                lambda: fwAD.exit_dual_level(level=3),
                lambda: fwAD.make_dual(x, L.tensor([1, 2, 3])),
                lambda: fwAD.make_dual(L.tensor([1, 2, 3]), v),
            ):
                try:
                    attempt()
                    log.append("no error")
                except (RuntimeError, ValueError) as error:
                    log.append((type(error).__name__, str(error).replace("torch.", "minigrad.")))
            log.append(fwAD.unpack_dual(dual))
            log.append(fwAD.unpack_dual(x))
            squared = dual * dual
        log.append(fwAD.unpack_dual(squared))  # the tangent went with the level
        log.append(fwAD.enter_dual_level())  # numbered from 0 again
        fwAD.exit_dual_level()

    run_both(scenario)


def test_a_level_deletes_its_tangents_and_a_new_one_starts_clean():
    fwAD = mg.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(mg.tensor(1.0), mg.tensor(2.0))
        kept = dual.exp()
    assert fwAD.unpack_dual(kept).tangent is None
    with fwAD.dual_level():
        assert fwAD.unpack_dual(kept).tangent is None
        assert fwAD.unpack_dual(kept * 2).tangent is None


def test_printing_of_dual_tensors(run_both):
    def scenario(L, F, log):
        def printed(value):
            log.append(repr(value).replace("torch.", "minigrad."))

        fwAD = L.autograd.forward_ad
        with fwAD.dual_level():
            printed(fwAD.make_dual(L.tensor(2.0), L.tensor(1.0)))
            printed(fwAD.make_dual(L.ones(2, 3), L.arange(6.0).reshape(2, 3)))
            printed(fwAD.make_dual(L.tensor([1e-8, 1.0]), L.tensor([1.0, 1e5])))
            x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
            dual = fwAD.make_dual(x, L.tensor([1.0, 0.0, 1.0]))
            printed(dual)
            printed(dual.sin())
            printed(fwAD.unpack_dual(dual.sin()))
            printed(fwAD.make_dual(L.ones(2), L.ones(2, dtype=L.float64)))
            log.append(str(dual[0]))
        printed(dual)  # no tangent once the level is gone

    run_both(scenario)


def test_make_dual_and_unpack_dual_in_the_graph(run_both):
    """make_dual is a view (ViewBackward0 when the primal requires grad), unpack_dual's
    primal a view of it (Identity), its tangent the very tensor given; the tangent of a
    result computed from inputs that require grad is differentiable."""

    def scenario(L, F, log):
        fwAD = L.autograd.forward_ad
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        v = L.tensor([1.0, 0.0, 1.0], dtype=L.float64, requires_grad=True)
        with fwAD.dual_level():
            dual = fwAD.make_dual(x, v)
            log.append(dual.grad_fn.name())
            primal, tangent = fwAD.unpack_dual(dual)
            log.append((primal.grad_fn.name(), primal._base is x, tangent is v))
            y = dual.sin()
            tangent = fwAD.unpack_dual(y).tangent
            log.append(tangent.grad_fn.name())
            log.append(L.autograd.grad(tangent.sum(), (x, v)))
            y.sum().backward()
            log.append((x.grad, v.grad))
            plain = fwAD.make_dual(L.tensor([1.0]), L.tensor([2.0]))
            log.append((plain.requires_grad, plain.grad_fn))

    run_both(scenario)


def test_in_place_changes_carry_tangents(run_both):
    def scenario(L, F, log):
        fwAD = L.autograd.forward_ad
        with fwAD.dual_level():
            a = L.zeros(4)
            window = a[1:3]
            window.copy_(fwAD.make_dual(L.ones(2), L.full((2,), 5.0)))
            log.append(fwAD.unpack_dual(a))
            log.append(fwAD.unpack_dual(window))
            b = fwAD.make_dual(L.zeros(3), L.ones(3))
            b.mul_(3)
            log.append(fwAD.unpack_dual(b))
            c = fwAD.make_dual(L.zeros(3), L.ones(3))
            row = c[0:2]
            row.add_(fwAD.make_dual(L.ones(2), L.ones(2) * 10))
            log.append((fwAD.unpack_dual(c), fwAD.unpack_dual(row)))
            d = fwAD.make_dual(L.ones(2, 2), L.ones(2, 2))
            d[0] = 4.0
            log.append(fwAD.unpack_dual(d))
            e = fwAD.make_dual(L.ones(3, dtype=L.float64), L.ones(3, dtype=L.float64))
            e.exp_()
            log.append(fwAD.unpack_dual(e))
            # views made before their base had a tangent see their part of it
            m = L.zeros(2, 3)
            column, row = m[:, 1], m[1]
            column.copy_(fwAD.make_dual(L.ones(2), L.tensor([2.0, 3.0])))
            log.append((fwAD.unpack_dual(m), fwAD.unpack_dual(row)))
            m.mul_(2)
            log.append((fwAD.unpack_dual(column), fwAD.unpack_dual(row)))
            f = L.zeros(4)
            end = f[2:]
            f.copy_(fwAD.make_dual(L.ones(4), L.arange(4.0)))
            log.append(fwAD.unpack_dual(end))

    run_both(scenario)


def test_clip_masked_fill_and_the_in_place_functions_carry_tangents(run_both):
    """The in-place methods and functions added for issue #25 (``clip_``, ``masked_fill_``,
    ``torch.exp_(x)``, ``F.relu_``), with a tangent on the tensor written, on a bound or
    value, and through a view."""

    def scenario(L, F, log):
        fwAD = L.autograd.forward_ad
        x = L.tensor([0.5, 1.5, 2.5], dtype=L.float64)
        v = L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
        mask = L.tensor([True, False, True])
        writes = [
            lambda d: d.clone().clip_(1.0, 2.0),
            lambda d: L.clip_(d.clone(), max=2.0),
            lambda d: L.ones(3, dtype=L.float64).clamp_(min=d),
            lambda d: d.clone().masked_fill_(mask, 0.5),
            lambda d: L.zeros(3, dtype=L.float64).masked_fill_(mask, d[1]),
            lambda d: L.exp_(d.clone()),
            lambda d: L.nn.functional.relu_(d.clone() - 1),
            lambda d: _through_a_view(d.clone(), lambda w: w.clip_(max=1.0)),
            lambda d: _through_a_view(d.clone(), lambda w: w.masked_fill_(mask[1:], 9.0)),
        ]
        with fwAD.dual_level():
            for write in writes:
                log.append(fwAD.unpack_dual(write(fwAD.make_dual(x, v))))

    run_both(scenario)


def _through_a_view(tensor, write):
    write(tensor[1:])
    return tensor


# --------------------------------------------------------------------------- Function
def _functions(L):
    class Scaled(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_forward(x, y)
            ctx.k = k
            return x * y * k

        @staticmethod
        def backward(ctx, grad):
            return None, None, None

        @staticmethod
        def jvp(ctx, x_t, y_t, k_t):
            x, y = ctx.saved_tensors
            assert k_t is None
            return (x_t * y + x * y_t) * ctx.k

    class ExpSin(L.autograd.Function):
        @staticmethod
        def forward(x):
            return x.exp(), x.sin()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(inputs[0], output[0])

        @staticmethod
        def jvp(ctx, x_t):
            x, e = ctx.saved_tensors
            return x_t * e, x_t * x.cos()

    class NoJvp(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    class TwoTangents(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, x_t):
            return x_t, x_t

    class WrongShape(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, x_t):
            return x_t[:1]

    return Scaled, ExpSin, NoJvp, TwoTangents, WrongShape


def test_function_with_jvp(run_both):
    def scenario(L, F, log):
        fwAD = L.autograd.forward_ad
        Scaled, ExpSin, NoJvp, TwoTangents, WrongShape = _functions(L)
        x = L.tensor([1.0, 2.0], dtype=L.float64)
        with fwAD.dual_level():
            dual = fwAD.make_dual(x, L.ones(2, dtype=L.float64))
            log.append(fwAD.unpack_dual(Scaled.apply(dual, x, 3.0)))  # y's tangent: zeros
            other = fwAD.make_dual(x, L.full((2,), 5.0, dtype=L.float64))
            log.append(fwAD.unpack_dual(Scaled.apply(dual, other, 3.0)))
            log.append([fwAD.unpack_dual(out) for out in ExpSin.apply(dual)])
            log.append(NoJvp.apply(x))  # no tangent in sight: no jvp needed
            for function in (NoJvp, TwoTangents, WrongShape):
                try:
                    function.apply(dual)
                    log.append("no error")
                except (RuntimeError, NotImplementedError) as error:
                    log.append((type(error).__name__, str(error)))
            leaf = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
            result = Scaled.apply(fwAD.make_dual(leaf, L.ones(2, dtype=L.float64)), x, 2.0)
            log.append(
                (result.grad_fn is not None, fwAD.unpack_dual(result).tangent.grad_fn.name())
            )

    run_both(scenario)


# --------------------------------------------------------------------------- second order
def test_hvp_forward_over_reverse_matches_torch_hvp():
    """A Hessian-vector product as forward over reverse: the gradient computed (with
    create_graph) inside a dual level carries H v as its tangent."""

    def f(t):
        return (t.sin() * t.pow(3)).sum() + (t[:2] @ t[1:]).exp()

    values = np.array([0.3, -1.2, 0.8], dtype=np.float64)
    direction = np.array([1.0, 0.5, -2.0], dtype=np.float64)
    _, expected = torch.autograd.functional.hvp(f, torch.tensor(values), torch.tensor(direction))
    fwAD = mg.autograd.forward_ad
    x = mg.tensor(values, requires_grad=True)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, mg.tensor(direction))
        (gradient,) = mg.autograd.grad(f(dual), dual, create_graph=True)
        hvp = fwAD.unpack_dual(gradient).tangent
    np.testing.assert_allclose(hvp.detach().numpy(), expected.numpy(), rtol=1e-10)
    _, minigrad_hvp = mg.autograd.functional.hvp(f, mg.tensor(values), mg.tensor(direction))
    np.testing.assert_allclose(minigrad_hvp.numpy(), expected.numpy(), rtol=1e-10)


def test_backward_of_a_tangent_matches_torch():
    """Reverse over forward: the tangent is recorded, and its gradient is torch's."""
    results = {}
    for L in (mg, torch):
        fwAD = L.autograd.forward_ad
        x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
        v = L.tensor([1.0, 2.0, 0.5], dtype=L.float64, requires_grad=True)
        with fwAD.dual_level():
            dual = fwAD.make_dual(x, v)
            out = (dual.tanh() * x).sin() / (1 + dual * dual)
            tangent = fwAD.unpack_dual(out).tangent
            grads = L.autograd.grad((tangent * tangent).sum(), (x, v))
        results[L.__name__] = [g.detach().numpy() for g in grads]
    for mine, theirs in zip(results["minigrad"], results["torch"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10)


def test_functional_jvp_with_create_graph_ends_as_torch(run_both):
    """The issue's example: torch's jvp (the double backward trick) ends in
    SqueezeBackward1 for a sum along a dim."""

    def scenario(L, F, log):
        x = L.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=L.float64)
        out, jvp = L.autograd.functional.jvp(
            lambda t: t.exp().sum(dim=1), x, L.ones(2, 2, dtype=L.float64), create_graph=True
        )
        log.append((out.grad_fn.name(), jvp.grad_fn.name(), jvp))

    run_both(scenario)
