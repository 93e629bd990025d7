"""Differential fuzzing: random expression graphs built in minigrad and in PyTorch side by side.

Hypothesis draws a small program: leaves of broadcast-compatible shapes, then a sequence of
ops (every differentiable op minigrad has), each applied to tensors picked from a pool, so
that tensors are reused on several paths. Some ops run inside ``no_grad``, some results are
detached (and may become new leaves), some tensors retain their grad. The program is run in
both libraries in lockstep (float64); then a loss is differentiated three ways:

1. ``autograd.grad(loss, leaves, create_graph=True)``: the first derivatives,
2. ``autograd.grad`` of a weighted sum of those: the second derivatives (double backward),
3. ``loss.backward()``: every leaf's ``.grad`` and every retained ``.grad``.

Values, derivatives, ``requires_grad``, ``is_leaf`` and the forward graph (``grad_fn`` names
and the shape of ``next_functions``) must agree. Where minigrad deliberately differs (see the
top of tests/parity/test_names_and_errors.py: ``t[i] = v`` and the nodes of derivative
graphs) only the names are left uncompared, never the values.

The decisions that depend on values (is this tensor positive enough for ``log``?) are taken
from minigrad's values and applied to both, so the two programs are always the same.
Reproduce a failure with the printed blob, or rerun: the seed is fixed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 0)) or (2000 if os.environ.get("CI") else 200)
RTOL, ATOL = 1e-6, 1e-9


# ----------------------------------------------------------------------------- the pool
@dataclass(eq=False)  # entries are compared by identity, not by (elementwise) values
class Entry:
    """One tensor of the program, in both libraries."""

    m: Any  # the minigrad tensor
    t: Any  # the torch tensor
    names_match: bool = True  # False below a node where minigrad's names deliberately differ

    @property
    def values(self) -> np.ndarray:
        return self.m.detach().numpy()

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.m.shape)


@dataclass
class Program:
    draw: Any
    pool: list[Entry] = field(default_factory=list)
    leaves: list[Entry] = field(default_factory=list)  # leaves that require grad
    retained: list[Entry] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def pick(self, candidates: list[Entry], label: str) -> Entry:
        return candidates[self.draw(st.integers(0, len(candidates) - 1), label=label)]

    def add(self, m: Any, t: Any, names_match: bool, what: str) -> Entry:
        entry = Entry(m, t, names_match)
        assert tuple(m.shape) == tuple(t.shape), what
        self.pool.append(entry)
        self.log.append(f"v{len(self.pool) - 1} = {what}")
        return entry


def both(L_m: Any, L_t: Any, fn: Any, *entries: Entry) -> tuple[Any, Any]:
    return fn(L_m, *(e.m for e in entries)), fn(L_t, *(e.t for e in entries))


def constant(array: np.ndarray) -> tuple[Any, Any]:
    return mg.tensor(array, dtype=mg.float64), torch.tensor(array, dtype=torch.float64)


# ----------------------------------------------------------------------------- the ops
# Each op: (name, applies(values) -> bool, build(L, x) -> tensor). Conditions keep values in
# the op's domain and away from its kinks, so that derivatives are well defined.
def _far_from_zero(v: np.ndarray) -> bool:
    return v.size > 0 and bool(np.all(np.abs(v) > 0.2))


def _positive(v: np.ndarray) -> bool:
    return v.size > 0 and bool(np.all(v > 0.2))


def _bounded(v: np.ndarray, limit: float = 4.0) -> bool:
    return bool(np.all(np.abs(v) < limit))


def _no_ties(v: np.ndarray) -> bool:
    return v.size > 0 and len(np.unique(v)) == v.size


def _away_from(v: np.ndarray, points: tuple[float, ...]) -> bool:
    return all(bool(np.all(np.abs(v - p) > 1e-3)) for p in points)


INF = float("inf")


def _zeroable(v: np.ndarray) -> bool:
    """Small enough for prod's derivative at zeros, and away from the mask's edge."""
    return v.size <= 8 and _away_from(np.abs(v), (0.5,))


def _no_touch(a: np.ndarray, b: np.ndarray) -> bool:
    """No element of a equal to its bound (clamp has a kink there)."""
    return bool(np.all(np.abs(a - b) > 1e-3))


def _clamp_by_first(x: Any) -> Any:
    """x clamped from below by its own first column (a tensor bound, broadcast)."""
    return x.clamp(min=x[..., :1] * 0.5)


def _gather_reversed(L: Any, x: Any, dim: int) -> Any:
    """x.gather(dim, index) with the indices reversed along dim (a permutation)."""
    size = x.shape[dim]
    order = np.arange(size)[::-1].reshape([-1 if i == dim % x.ndim else 1 for i in range(x.ndim)])
    index = np.broadcast_to(order, tuple(x.shape)).copy()
    return x.gather(dim, L.tensor(index))


UNARY = [
    ("neg", lambda v: True, lambda L, x: -x),
    ("neg()", lambda v: True, lambda L, x: x.neg()),
    ("exp", _bounded, lambda L, x: x.exp()),
    ("L.exp", _bounded, lambda L, x: L.exp(x)),
    ("log", _positive, lambda L, x: x.log()),
    ("sqrt", _positive, lambda L, x: x.sqrt()),
    ("abs", _far_from_zero, lambda L, x: x.abs()),
    ("sign", lambda v: True, lambda L, x: x.sign()),
    ("sin", _bounded, lambda L, x: x.sin()),
    ("cos", _bounded, lambda L, x: L.cos(x)),
    ("tanh", lambda v: True, lambda L, x: x.tanh()),
    ("sigmoid", lambda v: True, lambda L, x: x.sigmoid()),
    ("relu", _far_from_zero, lambda L, x: x.relu()),
    ("reciprocal", _far_from_zero, lambda L, x: x.reciprocal()),
    ("x ** 2", _bounded, lambda L, x: x**2),
    ("x ** 3", _bounded, lambda L, x: x**3),
    ("x ** 0", lambda v: True, lambda L, x: x**0),
    ("x ** -1", _far_from_zero, lambda L, x: x**-1),
    ("x ** 0.5", _positive, lambda L, x: x**0.5),
    ("x.pow(1.5)", _positive, lambda L, x: x.pow(1.5)),
    ("2 ** x", _bounded, lambda L, x: 2**x),
    ("0.5 ** x", _bounded, lambda L, x: 0.5**x),
    ("x + 2", lambda v: True, lambda L, x: x + 2),
    ("2 + x", lambda v: True, lambda L, x: 2 + x),
    ("x - 1.5", lambda v: True, lambda L, x: x - 1.5),
    ("2 - x", lambda v: True, lambda L, x: 2 - x),
    ("3 * x", lambda v: True, lambda L, x: 3 * x),
    ("x * 0.5", lambda v: True, lambda L, x: x * 0.5),
    ("x / 4", lambda v: True, lambda L, x: x / 4),
    ("2 / x", _far_from_zero, lambda L, x: 2 / x),
    ("clamp(-0.5, 0.5)", lambda v: _away_from(v, (-0.5, 0.5)), lambda L, x: x.clamp(-0.5, 0.5)),
    ("clamp(min=0.1)", lambda v: _away_from(v, (0.1,)), lambda L, x: x.clamp(min=0.1)),
    ("clamp(max=0.3)", lambda v: _away_from(v, (0.3,)), lambda L, x: L.clamp(x, max=0.3)),
    ("clone", lambda v: True, lambda L, x: x.clone()),
    ("double", lambda v: True, lambda L, x: x.double()),
    ("to(float64)", lambda v: True, lambda L, x: x.to(L.float64)),
    ("max()", lambda v: v.size > 0, lambda L, x: x.max()),
    ("min()", lambda v: v.size > 0, lambda L, x: x.min()),
    ("sum()", lambda v: True, lambda L, x: x.sum()),
    ("mean()", lambda v: v.size > 0, lambda L, x: x.mean()),
    ("flatten", lambda v: True, lambda L, x: x.flatten()),
    ("reshape(-1)", lambda v: True, lambda L, x: x.reshape(-1)),
    ("squeeze()", lambda v: True, lambda L, x: x.squeeze()),
    ("unsqueeze(0)", lambda v: True, lambda L, x: x.unsqueeze(0)),
    ("unsqueeze(-1)", lambda v: True, lambda L, x: x.unsqueeze(-1)),
    ("t()", lambda v: v.ndim <= 2, lambda L, x: x.t()),
    (".T", lambda v: v.ndim == 2, lambda L, x: x.T),
    (".mT", lambda v: v.ndim >= 2, lambda L, x: x.mT),
    ("x[...]", lambda v: True, lambda L, x: x[...]),
    ("x[None]", lambda v: True, lambda L, x: x[None]),
    ("x[0]", lambda v: v.ndim >= 1 and v.shape[0] > 0, lambda L, x: x[0]),
    ("x[-1]", lambda v: v.ndim >= 1 and v.shape[0] > 0, lambda L, x: x[-1]),
    ("x[1:]", lambda v: v.ndim >= 1, lambda L, x: x[1:]),
    ("x[::2]", lambda v: v.ndim >= 1, lambda L, x: x[::2]),
    ("x[:, 0]", lambda v: v.ndim >= 2 and v.shape[1] > 0, lambda L, x: x[:, 0]),
    ("x[..., :1]", lambda v: v.ndim >= 1, lambda L, x: x[..., :1]),
    ("x[0, None, 1:]", lambda v: v.ndim >= 2 and v.shape[0] > 0, lambda L, x: x[0, None, 1:]),
    ("x[[0, 0]]", lambda v: v.ndim >= 1 and v.shape[0] > 0, lambda L, x: x[[0, 0]]),
    ("x[[-1, 0, -1]]", lambda v: v.ndim >= 1 and v.shape[0] > 0, lambda L, x: x[[-1, 0, -1]]),
    (
        "x[:, [1, 0]]",
        lambda v: v.ndim >= 2 and v.shape[1] >= 2,
        lambda L, x: x[:, [1, 0]],
    ),
    ("dot(x, x)", lambda v: v.ndim == 1, lambda L, x: x.dot(x)),
    ("x @ x.t()", lambda v: v.ndim == 2, lambda L, x: x @ x.t()),
    ("x.t() @ x", lambda v: v.ndim == 2, lambda L, x: x.t().mm(x)),
    (
        "mv(x, x[0])",
        lambda v: v.ndim == 2 and v.shape[0] == v.shape[1] > 0,
        lambda L, x: x.mv(x[0]),
    ),
    ("x.zero_() on a clone", lambda v: True, lambda L, x: x.clone().zero_()),
    ("x.fill_(2) on a clone", lambda v: True, lambda L, x: x.clone().fill_(2.0)),
    ("x.mul_(2) on a clone", lambda v: True, lambda L, x: x.clone().mul_(2)),
    ("x.add_(1, ) on a clone", lambda v: True, lambda L, x: x.clone().add_(1.0)),
    ("x.pow_(2) on a clone", _bounded, lambda L, x: x.clone().pow_(2)),
    (
        "x.clamp_(-1, 1) on a clone",
        lambda v: _away_from(v, (-1.0, 1.0)),
        lambda L, x: x.clone().clamp_(-1, 1),
    ),
    ("norm()", _far_from_zero, lambda L, x: x.norm()),
    ("norm(1)", _far_from_zero, lambda L, x: x.norm(1)),
    ("L.norm(x, 3)", _far_from_zero, lambda L, x: L.norm(x, 3)),
    ("norm(inf)", lambda v: _far_from_zero(v) and _no_ties(np.abs(v)), lambda L, x: x.norm(INF)),
    ("var()", lambda v: v.size > 1, lambda L, x: x.var()),
    ("std()", lambda v: v.size > 1 and np.std(v) > 1e-3, lambda L, x: x.std()),
    (
        "std(unbiased=False)",
        lambda v: v.size > 0 and np.std(v) > 1e-3,  # numpy warns on the std of nothing
        lambda L, x: x.std(unbiased=False),
    ),
    ("prod()", lambda v: v.size <= 8, lambda L, x: x.prod()),
    ("prod() with zeros", _zeroable, lambda L, x: (x * (x.abs() > 0.5)).prod()),
    ("L.prod()", lambda v: v.size <= 8, lambda L, x: L.prod(x)),
    ("flatten(1)", lambda v: v.ndim >= 2, lambda L, x: x.flatten(1)),
    ("flatten(0, -2)", lambda v: v.ndim >= 2, lambda L, x: x.flatten(0, -2)),
    ("unflatten(0, (1, -1))", lambda v: v.ndim >= 1, lambda L, x: x.unflatten(0, (1, -1))),
    ("repeat", lambda v: True, lambda L, x: x.repeat(2, *([1] * x.ndim))),
    ("repeat(1, 2, ...)", lambda v: v.ndim >= 1, lambda L, x: x.repeat(1, *([2] * x.ndim))),
    ("outer", lambda v: v.ndim == 1, lambda L, x: x.outer(x)),
    ("L.outer(x, x[:2])", lambda v: v.ndim == 1, lambda L, x: L.outer(x, x[:2])),
    ("masked_fill(x > 0.5, 0.)", lambda v: True, lambda L, x: x.masked_fill(x > 0.5, 0.0)),
    ("x.where(x < 0, 1.)", lambda v: True, lambda L, x: x.where(x < 0, 1.0)),
    ("x.clamp(x[..., :1], None)", lambda v: v.ndim >= 1, lambda L, x: _clamp_by_first(x)),
    ("x.expand", lambda v: True, lambda L, x: x.expand(2, *x.shape)),
    ("float().double()", lambda v: True, lambda L, x: x.float().double()),
    ("x.to(x)", lambda v: True, lambda L, x: x.to(x) * 1),
    ("x.to('cpu', float64)", lambda v: True, lambda L, x: x.to("cpu", L.float64)),
    ("x.cpu()", lambda v: True, lambda L, x: x.cpu()),
    ("x.detach()", lambda v: True, lambda L, x: x.detach()),
    ("detach().requires_grad_()", lambda v: True, lambda L, x: x.detach().requires_grad_()),
]

# Ops that take a dim: (name, applies(values, dim), build(L, x, dim, keepdim)).
WITH_DIM = [
    ("sum(dim)", lambda v, d: True, lambda L, x, d, k: x.sum(d, keepdim=k)),
    ("sum(dims)", lambda v, d: v.ndim >= 2, lambda L, x, d, k: x.sum((0, -1), keepdim=k)),
    ("mean(dim)", lambda v, d: v.shape[d] > 0, lambda L, x, d, k: x.mean(dim=d, keepdim=k)),
    (
        "max(dim)",
        lambda v, d: v.shape[d] > 0 and _no_ties(v),
        lambda L, x, d, k: x.max(d, keepdim=k)[0],
    ),
    (
        "min(dim).values",
        lambda v, d: v.shape[d] > 0 and _no_ties(v),
        lambda L, x, d, k: x.min(dim=d, keepdim=k).values,
    ),
    ("softmax", lambda v, d: True, lambda L, x, d, k: x.softmax(d)),
    ("log_softmax", lambda v, d: True, lambda L, x, d, k: x.log_softmax(dim=d)),
    ("L.softmax", lambda v, d: True, lambda L, x, d, k: L.softmax(x, d)),
    ("squeeze(dim)", lambda v, d: True, lambda L, x, d, k: x.squeeze(d)),
    ("unsqueeze(dim)", lambda v, d: True, lambda L, x, d, k: x.unsqueeze(d)),
    ("transpose(dim, 0)", lambda v, d: True, lambda L, x, d, k: x.transpose(d, 0)),
    ("select(dim, 0)", lambda v, d: v.shape[d] > 0, lambda L, x, d, k: x.select(d, 0)),
    ("var(dim)", lambda v, d: v.shape[d] > 1, lambda L, x, d, k: x.var(d, keepdim=k)),
    (
        "var(dim, correction=0)",
        lambda v, d: True,
        lambda L, x, d, k: x.var(dim=d, correction=0, keepdim=k),
    ),
    (
        "std(dim)",
        lambda v, d: v.shape[d] > 1 and v.size > 0 and bool(np.all(np.std(v, axis=d) > 1e-3)),
        lambda L, x, d, k: x.std(d, keepdim=k),
    ),
    ("prod(dim)", lambda v, d: v.shape[d] <= 4, lambda L, x, d, k: x.prod(d, keepdim=k)),
    (
        "prod(dim) with zeros",
        lambda v, d: v.shape[d] <= 4 and _zeroable(v),
        lambda L, x, d, k: (x * (x.abs() > 0.5)).prod(d, keepdim=k),
    ),
    ("cumsum(dim)", lambda v, d: True, lambda L, x, d, k: x.cumsum(d)),
    ("L.cumsum", lambda v, d: True, lambda L, x, d, k: L.cumsum(x, dim=d)),
    (
        "norm(2, dim)",
        lambda v, d: bool(np.all(np.linalg.norm(v, axis=d) > 0.2)),
        lambda L, x, d, k: x.norm(2, d, k),
    ),
    ("gather(dim, reversed)", lambda v, d: True, lambda L, x, d, k: _gather_reversed(L, x, d)),
    ("chunk(2, dim)[-1]", lambda v, d: v.shape[d] > 0, lambda L, x, d, k: x.chunk(2, d)[-1]),
    ("split(1, dim)[0]", lambda v, d: v.shape[d] > 0, lambda L, x, d, k: x.split(1, d)[0]),
    (
        "split([1, n-1], dim)[1]",
        lambda v, d: v.shape[d] > 1,
        lambda L, x, d, k: x.split([1, x.shape[d] - 1], dim=d)[1],
    ),
    ("flatten(dim)", lambda v, d: True, lambda L, x, d, k: x.flatten(d)),
    (
        "unflatten(dim, (n, 1))",
        lambda v, d: True,
        lambda L, x, d, k: x.unflatten(d, (x.shape[d], 1)),
    ),
]

# Ops of two tensors that broadcast: (name, applies(a values, b values), build(L, a, b)).
BINARY = [
    ("a + b", lambda a, b: True, lambda L, a, b: a + b),
    ("a.add(b, alpha=2)", lambda a, b: True, lambda L, a, b: a.add(b, alpha=2)),
    ("L.add", lambda a, b: True, lambda L, a, b: L.add(a, b)),
    ("a - b", lambda a, b: True, lambda L, a, b: a - b),
    ("a.sub(b, alpha=0.5)", lambda a, b: True, lambda L, a, b: a.sub(b, alpha=0.5)),
    ("a * b", lambda a, b: True, lambda L, a, b: a * b),
    ("L.mul", lambda a, b: True, lambda L, a, b: L.mul(a, b)),
    ("a / b", lambda a, b: _far_from_zero(b), lambda L, a, b: a / b),
    ("a ** b", lambda a, b: _positive(a) and _bounded(b, 3), lambda L, a, b: a**b),
    ("where(a > 0, a, b)", lambda a, b: True, lambda L, a, b: L.where(a > 0, a, b)),
    ("where(b > 0, a, 0.)", lambda a, b: True, lambda L, a, b: L.where(b > 0, a, 0.0)),
    ("a.mul_(b) on a clone", lambda a, b: True, lambda L, a, b: _inplace(a, b, "mul_")),
    ("a.add_(b) on a clone", lambda a, b: True, lambda L, a, b: _inplace(a, b, "add_")),
    ("a.sub_(b) on a clone", lambda a, b: True, lambda L, a, b: _inplace(a, b, "sub_")),
    (
        "a.div_(b) on a clone",
        lambda a, b: _far_from_zero(b),
        lambda L, a, b: _inplace(a, b, "div_"),
    ),
    ("a.copy_(b) on a clone", lambda a, b: True, lambda L, a, b: _inplace(a, b, "copy_")),
    ("a.clamp(min=b)", lambda a, b: _no_touch(a, b), lambda L, a, b: a.clamp(min=b)),
    ("a.clamp(max=b)", lambda a, b: _no_touch(a, b), lambda L, a, b: L.clamp(a, max=b)),
    (
        "a.clamp(b, b + 1)",
        lambda a, b: _no_touch(a, b) and _no_touch(a, b + 1),
        lambda L, a, b: a.clamp(b, b + 1),
    ),
    ("a.where(a > b, b)", lambda a, b: True, lambda L, a, b: a.where(a > b, b)),
    (
        "a.masked_fill(b > 0, b.sum())",
        lambda a, b: np.broadcast_shapes(a.shape, b.shape) == a.shape,
        lambda L, a, b: a.masked_fill(b > 0, b.sum()),
    ),
]


# Ops whose result is a view of their input. Made under no_grad from a tensor that requires
# grad, PyTorch gives such a view requires_grad=True with no edge to anything (a gradient
# stops there); minigrad gives it requires_grad=False. The values agree; this difference is
# reported, and no_grad islands are drawn on the other ops only.
VIEWS = {
    "flatten",
    "reshape(-1)",
    "squeeze()",
    "unsqueeze(0)",
    "unsqueeze(-1)",
    "t()",
    ".T",
    ".mT",
    "x[...]",
    "x[None]",
    "x[0]",
    "x[-1]",
    "x[1:]",
    "x[::2]",
    "x[:, 0]",
    "x[..., :1]",
    "x[0, None, 1:]",
    "double",
    "to(float64)",
    "squeeze(dim)",
    "unsqueeze(dim)",
    "transpose(dim, 0)",
    "select(dim, 0)",
    "flatten(1)",
    "flatten(0, -2)",
    "unflatten(0, (1, -1))",
    "x.expand",
    "x.to('cpu', float64)",
    "x.cpu()",
    "chunk(2, dim)[-1]",
    "split(1, dim)[0]",
    "split([1, n-1], dim)[1]",
    "flatten(dim)",
    "unflatten(dim, (n, 1))",
}


def _inplace(a: Any, b: Any, method: str) -> Any:
    """``a op= b`` on a clone of ``a`` big enough to hold the broadcast result."""
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    target = (a + 0 * b).clone() if tuple(a.shape) != shape else a.clone()
    return getattr(target, method)(b)


# ----------------------------------------------------------------------------- one step
def broadcasts(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def step(p: Program) -> None:
    kind = p.draw(
        st.sampled_from(["unary", "unary", "dim", "binary", "binary", "matmul", "join", "setitem"]),
        label="kind",
    )
    island = p.draw(st.integers(0, 9), label="no_grad island") == 0
    x = p.pick(p.pool, "operand")
    v = x.values
    names_match = x.names_match
    if kind == "unary":
        choices = [op for op in UNARY if op[1](v)]
        name, _, build = p.pick(choices, "op")
        island = island and name not in VIEWS
        with mg.set_grad_enabled(not island), torch.set_grad_enabled(not island):
            m, t = build(mg, x.m), build(torch, x.t)
        entry = p.add(m, t, names_match, f"{name}(v{p.pool.index(x)}) island={island}")
        if name.startswith("detach().requires_grad_"):
            p.leaves.append(entry)
    elif kind == "dim":
        if v.ndim == 0:
            return
        dim = p.draw(st.integers(-v.ndim, v.ndim - 1), label="dim")
        keepdim = p.draw(st.booleans(), label="keepdim")
        choices = [op for op in WITH_DIM if op[1](v, dim)]
        if not choices:
            return
        name, _, build = p.pick(choices, "op")
        island = island and name not in VIEWS
        with mg.set_grad_enabled(not island), torch.set_grad_enabled(not island):
            m, t = build(mg, x.m, dim, keepdim), build(torch, x.t, dim, keepdim)
        p.add(m, t, names_match, f"{name}(v{p.pool.index(x)}, {dim}, keepdim={keepdim})")
    elif kind == "binary":
        partners = [e for e in p.pool if broadcasts(e.shape, x.shape)]
        y = p.pick(partners, "second operand")  # x itself is always a partner
        choices = [op for op in BINARY if op[1](v, y.values)]
        name, _, build = p.pick(choices, "op")
        with mg.set_grad_enabled(not island), torch.set_grad_enabled(not island):
            m, t = build(mg, x.m, y.m), build(torch, x.t, y.t)
        p.add(
            m,
            t,
            names_match and y.names_match,
            f"{name}(v{p.pool.index(x)}, v{p.pool.index(y)})",
        )
    elif kind == "matmul":
        if v.ndim == 0:
            return
        # The second operand: a tensor of the pool that fits, or a new weight leaf.
        fits = [
            e
            for e in p.pool
            if e.values.ndim >= 1
            and e.shape[0 if e.values.ndim == 1 else -2] == v.shape[-1]
            and broadcasts(e.shape[:-2], x.shape[:-2])
        ]
        if fits and p.draw(st.booleans(), label="reuse a tensor"):
            y = p.pick(fits, "second operand")
        else:
            columns = p.draw(st.sampled_from([None, 1, 2, 3]), label="columns")
            shape = (v.shape[-1],) if columns is None else (v.shape[-1], columns)
            y = new_leaf(p, shape, requires_grad=True)
        m, t = x.m @ y.m, x.t @ y.t
        p.add(m, t, names_match and y.names_match, f"v{p.pool.index(x)} @ v{p.pool.index(y)}")
    elif kind == "join":
        if v.ndim == 0:
            return
        dim = p.draw(st.integers(-v.ndim, v.ndim - 1), label="dim")
        axis = dim % v.ndim
        stack = p.draw(st.booleans(), label="stack")
        same = [
            e
            for e in p.pool
            if e.values.ndim == v.ndim
            and all(a == b for i, (a, b) in enumerate(zip(e.shape, x.shape)) if stack or i != axis)
        ]
        others = [p.pick(same, "joined") for _ in range(p.draw(st.integers(1, 2), label="count"))]
        group = [x, *others]
        join = "stack" if stack else "cat"
        m = getattr(mg, join)([e.m for e in group], dim=dim)
        t = getattr(torch, join)([e.t for e in group], dim=dim)
        ok = all(e.names_match for e in group)
        p.add(m, t, ok, f"{join}([{', '.join(f'v{p.pool.index(e)}' for e in group)}], {dim})")
    elif kind == "setitem":
        if v.ndim == 0 or v.shape[0] == 0:
            return
        y = p.pick(p.pool, "value")
        if y.values.ndim > 0:
            y_m, y_t = y.m.sum(), y.t.sum()
        else:
            y_m, y_t = y.m, y.t
        m, t = x.m.clone(), x.t.clone()
        m[0], t[0] = y_m, y_t
        # t[i] = v: IndexPutBackward0 in minigrad, CopySlices in PyTorch (documented).
        p.add(m, t, False, f"clone(v{p.pool.index(x)})[0] = v{p.pool.index(y)}.sum()")


def new_leaf(p: Program, shape: tuple[int, ...], requires_grad: bool) -> Entry:
    number = p.draw(st.integers(0, 2**32 - 1), label="values seed")
    array = np.random.default_rng(number).uniform(-2, 2, size=shape)
    m, t = constant(array)
    m.requires_grad_(requires_grad)
    t.requires_grad_(requires_grad)
    entry = p.add(m, t, True, f"leaf{list(shape)} requires_grad={requires_grad}")
    if requires_grad:
        p.leaves.append(entry)
    return entry


def leaf_shapes(draw: Any) -> list[tuple[int, ...]]:
    """Up to three shapes that broadcast together: a full shape, and variants of it with
    leading dims dropped or sizes set to 1."""
    full = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3), label="full shape")
    shapes = [tuple(full)]
    for _ in range(draw(st.integers(0, 2), label="more leaves")):
        drop = draw(st.integers(0, len(full)), label="leading dims dropped")
        shape = [n if not draw(st.booleans(), label="size 1") else 1 for n in full[drop:]]
        shapes.append(tuple(shape))
    return shapes


# ----------------------------------------------------------------------------- comparisons
def same_values(m: Any, t: Any, what: str) -> None:
    if m is None or t is None:
        assert m is None and t is None, f"{what}: minigrad {m!r}, torch {t!r}"
        return
    assert tuple(m.shape) == tuple(t.shape), what
    np.testing.assert_allclose(
        as_numpy(m), as_numpy(t), rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=what
    )


def dag(node: Any) -> list[tuple[str, tuple[int | None, ...]]]:
    """The graph below ``node`` as a list of (name, child numbers), children numbered in the
    order a depth-first walk meets them: equal lists mean equal graphs."""
    numbers: dict[int, int] = {}
    rows: list[tuple[str, tuple[int | None, ...]]] = []

    def visit(n: Any) -> int | None:
        if n is None:
            return None
        if id(n) in numbers:
            return numbers[id(n)]
        numbers[id(n)] = len(numbers)
        rows.append(("", ()))
        index = numbers[id(n)]
        children = tuple(visit(child) for child, _ in n.next_functions)
        name = n.name().replace("torch::", "minigrad::")
        rows[index] = (name, children)
        return index

    stack_safe(visit, node)
    return rows


def stack_safe(fn: Any, arg: Any) -> Any:
    return fn(arg)  # the graphs drawn here have at most a few dozen nodes


def same_attributes(entry: Entry, what: str) -> None:
    m, t = entry.m, entry.t
    assert m.requires_grad == t.requires_grad, f"{what}: requires_grad"
    assert m.is_leaf == t.is_leaf, f"{what}: is_leaf"
    assert (m.grad_fn is None) == (t.grad_fn is None), f"{what}: grad_fn"
    if entry.names_match and m.grad_fn is not None:
        assert dag(m.grad_fn) == dag(t.grad_fn), f"{what}: the graph's node names"


# ----------------------------------------------------------------------------- the test
@seed(20261203)
@settings(
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_graphs_agree_with_torch(data):
    draw = data.draw
    p = Program(draw)
    for shape in leaf_shapes(draw):
        new_leaf(p, shape, requires_grad=draw(st.booleans(), label="requires_grad"))
    if not p.leaves:
        p.leaves.append(p.pool[0])
        p.pool[0].m.requires_grad_()
        p.pool[0].t.requires_grad_()
    for _ in range(draw(st.integers(1, 8), label="ops")):
        step(p)
    for number, entry in enumerate(p.pool):
        what = f"v{number}\n" + "\n".join(p.log)
        same_values(entry.m, entry.t, what)
        same_attributes(entry, what)
        if not entry.m.is_leaf and draw(st.integers(0, 4), label="retain_grad") == 0:
            entry.m.retain_grad()
            entry.t.retain_grad()
            p.retained.append(entry)

    # The loss: a weighted sum of some tensors of the pool (the last one always).
    chosen = {len(p.pool) - 1} | set(
        draw(st.lists(st.integers(0, len(p.pool) - 1), max_size=3), label="loss terms")
    )
    loss_m, loss_t = mg.tensor(0.0, dtype=mg.float64), torch.tensor(0.0, dtype=torch.float64)
    rng = np.random.default_rng(len(p.pool))
    for i in sorted(chosen):
        w_m, w_t = constant(rng.uniform(-1, 1, size=p.pool[i].shape))
        loss_m = loss_m + (p.pool[i].m * w_m).sum()
        loss_t = loss_t + (p.pool[i].t * w_t).sum()
    log = "\n".join(p.log)
    same_values(loss_m, loss_t, "loss\n" + log)
    assert loss_m.requires_grad == loss_t.requires_grad
    if not loss_m.requires_grad:
        return

    # 1. first derivatives, keeping their graph
    leaves_m = [e.m for e in p.leaves]
    leaves_t = [e.t for e in p.leaves]
    first_m = mg.autograd.grad(loss_m, leaves_m, create_graph=True, allow_unused=True)
    first_t = torch.autograd.grad(loss_t, leaves_t, create_graph=True, allow_unused=True)
    for i, (g_m, g_t) in enumerate(zip(first_m, first_t)):
        same_values(g_m, g_t, f"d loss / d leaf {i}\n{log}")

    # 2. second derivatives: of a weighted sum of the first ones. Which derivative tensors
    # require grad can differ (minigrad does not record a derivative that is constant), so
    # a derivative that is not differentiable counts as zero second derivatives.
    total_m, total_t = mg.tensor(0.0, dtype=mg.float64), torch.tensor(0.0, dtype=torch.float64)
    for g_m, g_t in zip(first_m, first_t):
        if g_m is not None:
            r_m, r_t = constant(rng.uniform(-1, 1, size=tuple(g_m.shape)))
            total_m = total_m + (g_m * r_m).sum()
            total_t = total_t + (g_t * r_t).sum()
    second_m = second_derivatives(mg, total_m, leaves_m)
    second_t = second_derivatives(torch, total_t, leaves_t)
    for i, (h_m, h_t) in enumerate(zip(second_m, second_t)):
        np.testing.assert_allclose(
            h_m, h_t, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=f"d2 / d leaf {i}\n{log}"
        )

    # 3. backward(): .grad of the leaves and of the tensors that retain theirs
    loss_m.backward()
    loss_t.backward()
    for i, e in enumerate(p.leaves):
        same_values(e.m.grad, e.t.grad, f"leaf {i}.grad\n{log}")
    for e in p.retained:
        same_values(e.m.grad, e.t.grad, f"v{p.pool.index(e)}.grad (retained)\n{log}")


def as_numpy(tensor: Any) -> np.ndarray:
    if isinstance(tensor, torch.Tensor):  # PyTorch may return a lazy "ZeroTensor"
        return tensor.detach().numpy(force=True).copy()
    return tensor.detach().numpy().copy()


def second_derivatives(L: Any, total: Any, leaves: list[Any]) -> list[np.ndarray]:
    if not total.requires_grad:
        return [np.zeros(tuple(leaf.shape)) for leaf in leaves]
    # retain_graph: the derivative graph runs through forward nodes, still needed by step 3.
    grads = L.autograd.grad(total, leaves, retain_graph=True, allow_unused=True)
    return [
        np.zeros(tuple(leaf.shape)) if g is None else as_numpy(g) for g, leaf in zip(grads, leaves)
    ]
