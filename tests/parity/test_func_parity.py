"""``minigrad.func`` against ``torch.func``: values, which results carry a ``grad_fn`` (and
its name), printing and error messages, for each transform alone and composed
(``grad(grad(f))``, ``jacfwd(jacrev(f))``, ``vmap(grad(f))``), ``vmap`` over several dims
with ``in_dims``/``out_dims`` of every form, and ``functional_call`` on a small MLP."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(23)
X = RNG.normal(size=(3,))
M = RNG.normal(size=(2, 3))
B = RNG.normal(size=(4, 2, 3))


def t(L, values, requires_grad=False):
    return L.tensor(np.asarray(values, dtype=np.float64), requires_grad=requires_grad)


def node(tensor):
    """The name of ``tensor``'s grad_fn, or None: which results keep a history."""
    return None if tensor.grad_fn is None else tensor.grad_fn.name()


def printed(value):
    return repr(value).replace("torch.", "minigrad.")


def _opened(value):
    """Dicts as tuples of (key, value) pairs, which the shared ``shown`` compares, and
    ``torch.`` read as ``minigrad.`` in messages (``torch.Size``)."""
    if isinstance(value, dict):
        return ("dict", *((key, _opened(item)) for key, item in value.items()))
    if isinstance(value, tuple | list):
        return type(value)(_opened(item) for item in value)
    if isinstance(value, str):
        return value.replace("torch.", "minigrad.")
    return value


@pytest.fixture
def run_both(run_both):
    """The shared ``run_both``, with dicts in the log opened up for comparison."""

    def run(scenario):
        def opened(L, F, log):
            entries = []
            try:
                scenario(L, F, entries)
            finally:
                log.extend(_opened(entry) for entry in entries)

        return run_both(opened)

    return run


def attempt(log, action):
    """Log what ``action`` returns, or its error: several refusals in one scenario."""
    try:
        log.append(action())
    except Exception as error:
        log.append((type(error).__name__, str(error)))


# --------------------------------------------------------------------------- grad
def test_grad_values_argnums_and_aux(run_both):
    def scenario(L, F, log):
        fn = L.func
        x, y = t(L, X), t(L, M[0])
        f = lambda a, b: (a.sin() * b).sum() + (a**2).sum()  # noqa: E731
        for argnums in (0, 1, -1, (0, 1), (1,)):
            log.append(fn.grad(f, argnums=argnums)(x, y))
        g = fn.grad(f)(x, y)
        log += [printed(g), node(g)]
        aux = fn.grad(lambda a: ((a**3).sum(), {"twice": a * 2, "list": [a.cos()]}), has_aux=True)
        log.append(aux(x))
        log.append(fn.grad_and_value(f)(x, y))
        log.append(fn.grad_and_value(lambda a: ((a * a).sum(), a.exp()), has_aux=True)(x))
        tree = {"w": t(L, M), "b": (t(L, X),)}
        log.append(fn.grad(lambda p, z: (p["w"] @ z + p["b"][0].sum()).tanh().sum())(tree, x))
        log.append(fn.grad(lambda a, k=1.0: (a * k).sum())(x, k=3.0))
        log.append(fn.grad(lambda a: a.detach().sum())(x))  # no path: zeros
        log.append(fn.grad(lambda a: (a > 0).sum())(x))  # an integer result: zeros
        log.append(fn.grad.__name__)

        def named(a):
            return a.sum()

        log.append((fn.grad(named).__name__, fn.vmap(named).__name__, fn.jacrev(named).__name__))

    run_both(scenario)


def test_grad_results_keep_history_only_to_tensors_outside(run_both):
    def scenario(L, F, log):
        fn = L.func
        x = t(L, X)
        w = t(L, M[1], requires_grad=True)
        for result in (
            fn.grad(lambda a: (w * a).sum())(x),
            fn.grad(lambda a: (a * a).sum())(w),
            fn.grad(lambda a: (a**2).sum())(w),
            fn.grad_and_value(lambda a: (w * a.sin()).sum())(x)[1],
            fn.grad(lambda a: (a * a).sum())(x),
        ):
            log += [result, node(result), result.requires_grad, printed(result)]
        g = fn.grad(lambda a: (w * a * a).sum())(x)
        (back,) = L.autograd.grad(g.sum(), w)
        log.append(back)

    run_both(scenario)


def test_grad_errors(run_both):
    def scenario(L, F, log):
        fn = L.func
        x = t(L, X)
        attempt(log, lambda: fn.grad(lambda a: a**2)(x))
        attempt(log, lambda: fn.grad(lambda a: 3.0)(x))
        attempt(log, lambda: fn.grad(lambda a: (a.sum(), a))(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), has_aux=True)(x))
        attempt(log, lambda: fn.grad(lambda a: (a.sum(), 1, a), has_aux=True)(x))
        attempt(log, lambda: fn.grad(lambda a: (a.sum(), 1), has_aux=True)(x))
        attempt(log, lambda: fn.grad(lambda a: (a**2, a), has_aux=True)(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=1)(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=-2)(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=())(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=1.0)(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=(0, "a"))(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum(), argnums=(0, 0))(x))
        attempt(log, lambda: fn.grad(lambda a: a.sum())(3.0))
        attempt(log, lambda: fn.grad(lambda d: d["a"].sum())({"a": x, "n": 2}))
        attempt(log, lambda: fn.grad(lambda a: a.sum())(L.tensor([1, 2])))
        attempt(log, lambda: fn.grad(lambda: L.tensor(1.0))())

    run_both(scenario)


def test_nested_grads(run_both):
    def scenario(L, F, log):
        fn = L.func
        x = t(L, 0.7)
        f = lambda a: a.sin() * a**3  # noqa: E731
        log.append(fn.grad(f)(x))
        log.append(fn.grad(fn.grad(f))(x))
        log.append(fn.grad(fn.grad(fn.grad(f)))(x))
        # the inner function captures the outer argument: only b is its variable
        outer = lambda a: fn.grad(lambda b: (a * b**2).sum())(a).sum()  # noqa: E731
        log.append(fn.grad(outer)(t(L, X)))
        # the inner gradient depends on the outer argument through a captured tensor
        k = t(L, X)
        inner = lambda w: fn.grad(lambda z: (w * z * z).sum())(k).sum()  # noqa: E731
        result = fn.grad(inner)(t(L, M[0]))
        log += [result, node(result)]
        w = t(L, 2.0, requires_grad=True)
        second = fn.grad(fn.grad(lambda b: b * b * w))(x)
        log += [second, node(second)]
        log.append(L.autograd.grad(second, w))
        log.append(fn.grad(lambda a: fn.grad_and_value(lambda b: (b * a).exp())(a)[1])(x))

        # no_grad inside the function makes a constant; around the transform it is ignored
        def half_constant(a):
            with L.no_grad():
                c = a**2
            return a * c

        log.append(fn.grad(half_constant)(x))
        with L.no_grad():
            log.append(fn.grad(f)(x))
            log.append(fn.jacrev(lambda a: a.exp())(t(L, X)))
            log.append(fn.vjp(lambda a: a.sin(), x)[1](t(L, 2.0)))

    run_both(scenario)


# --------------------------------------------------------------------------- vjp
def test_vjp(run_both):
    def scenario(L, F, log):
        fn = L.func
        x, y = t(L, X), t(L, M[0])
        out, vjp_fn = fn.vjp(lambda a: a.sin(), x)
        log += [out, node(out), vjp_fn(t(L, M[1])), vjp_fn(t(L, M[1]))]
        out, vjp_fn = fn.vjp(lambda a, b: {"p": a * b, "s": (a - b).sum()}, x, y)
        log += [out, vjp_fn({"p": t(L, M[1]), "s": t(L, 2.0)})]
        out, vjp_fn, aux = fn.vjp(lambda a: (a.exp(), [a * 3]), x, has_aux=True)
        log += [out, aux, vjp_fn(t(L, X))]
        log.append(fn.vjp(lambda a: (a**2).sum(), x)[1](t(L, 1.0)))
        w = t(L, M[1], requires_grad=True)
        out, vjp_fn = fn.vjp(lambda a: a * w, x)
        (back,) = vjp_fn(L.ones(3, dtype=L.float64))
        log += [out, node(out), back, node(back)]
        out, vjp_fn = fn.vjp(lambda a: a.sin(), x)
        attempt(log, lambda: vjp_fn(L.ones(2, dtype=L.float64)))
        attempt(log, lambda: vjp_fn([L.ones(3, dtype=L.float64)]))
        attempt(log, lambda: vjp_fn((L.ones(3, dtype=L.float64),)))
        attempt(log, lambda: vjp_fn(1.0))
        attempt(log, lambda: fn.vjp(lambda a: (a, a), x)[1]([x, x]))
        attempt(log, lambda: fn.vjp(lambda a: {"a": a, "b": a}, x)[1]({"a": x}))
        attempt(log, lambda: fn.vjp(lambda a: a.sin(), x, has_aux=True))
        attempt(log, lambda: fn.vjp(lambda a: 3, x))
        attempt(log, lambda: fn.vjp(lambda a: (a, 3), x))
        attempt(log, lambda: fn.vjp(lambda a: a, 3.0))

    run_both(scenario)


# --------------------------------------------------------------------------- jacrev
def test_jacrev(run_both):
    def scenario(L, F, log):
        fn = L.func
        x, y = t(L, X), t(L, M[0])
        log.append(fn.jacrev(lambda a: a.sin() * a.sum())(x))
        log.append(fn.jacrev(lambda a, b: a * b, argnums=(0, 1))(x, y))
        log.append(fn.jacrev(lambda a, b: a @ b.T, argnums=1)(x, t(L, M)))
        log.append(fn.jacrev(lambda a: (a.sin(), a.sum()))(x))
        log.append(fn.jacrev(lambda a: (a.cos(), {"s": a.sum()}), has_aux=True)(x))
        log.append(fn.jacrev(lambda d: d["m"] @ d["v"])({"m": t(L, M), "v": x}))
        log.append(fn.jacrev(lambda a: a.sum())(t(L, 2.0)))
        log.append(fn.jacrev(lambda a: a * 2, chunk_size=1)(t(L, M)))
        log.append(fn.jacrev(lambda a: a.detach() * 2)(x))
        w = t(L, X, requires_grad=True)
        jac = fn.jacrev(lambda a: a * w)(x)
        log += [jac, node(jac), printed(jac)]
        log.append(fn.jacrev(fn.jacrev(lambda a: (a**3).prod()))(x))
        attempt(log, lambda: fn.jacrev(lambda a: 3)(x))
        attempt(log, lambda: fn.jacrev(lambda a: a, chunk_size=0))
        attempt(log, lambda: fn.jacrev(lambda a: a, argnums=2)(x))
        attempt(log, lambda: fn.jacrev(lambda a: a, has_aux=True)(x))

    run_both(scenario)


# --------------------------------------------------------------------------- forward mode
def test_jvp(run_both):
    def scenario(L, F, log):
        fn = L.func
        x, v = t(L, X), t(L, M[0])
        out = fn.jvp(lambda a: a.sin() * a, (x,), (v,))
        log += [out, printed(out)]
        log.append(fn.jvp(lambda a, b: {"p": a * b}, (x, v), (v, x)))
        log.append(fn.jvp(lambda a: (a.exp(), [a.sum()]), (x,), (v,), has_aux=True))
        attempt(log, lambda: fn.jvp(lambda a: a, x, v))
        attempt(log, lambda: fn.jvp(lambda a: a, (x,), [v]))
        attempt(log, lambda: fn.jvp(lambda a: a, (x,), (v, v)))
        attempt(log, lambda: fn.jvp(lambda a: a, (3.0,), (3.0,)))
        attempt(log, lambda: fn.jvp(lambda a: a, (x,), (3.0,)))
        attempt(log, lambda: fn.jvp(lambda: 3, (), ()))
        attempt(log, lambda: fn.jvp(lambda a: 3, (x,), (v,)))
        attempt(log, lambda: fn.jvp(lambda a: a.sin(), (x,), (v,), has_aux=True))
        attempt(log, lambda: fn.jvp(lambda a: (a, 1), (x,), (v,), has_aux=True))

    run_both(scenario)


def test_jacfwd_and_hessian(run_both):
    def scenario(L, F, log):
        fn = L.func
        x, y = t(L, X), t(L, M[0])
        f = lambda a, b: (a.sin() * b).sum() * a  # noqa: E731
        log.append(fn.jacfwd(f)(x, y))
        log.append(fn.jacfwd(f, argnums=(0, 1))(x, y))
        log.append(fn.jacfwd(lambda a: (a.exp(), {"s": a.sum()}), has_aux=True)(x))
        log.append(fn.jacfwd(lambda d: d["m"] @ d["v"])({"m": t(L, M), "v": x}))
        scalar = lambda a, b: (a**3 * b.sin()).sum() + (a * b).prod()  # noqa: E731
        h = fn.hessian(scalar)(x, y)
        log += [h, node(h), printed(h)]
        w = t(L, M[1], requires_grad=True)
        captured = fn.jacfwd(lambda a: a.sin() * w)(x)
        log += [captured, captured.requires_grad]
        log.append(L.autograd.grad(captured.sum(), w))
        log.append(fn.hessian(scalar, argnums=(0, 1))(x, y))
        log.append(fn.jacfwd(fn.jacrev(scalar))(x, y))
        log.append(fn.jacrev(fn.jacrev(scalar))(x, y))
        log.append(fn.jacfwd(fn.jacfwd(lambda a: a.sin() * a.sum()))(x))
        log.append(fn.hessian(fn.hessian(lambda a: (a**4).sum() * a.prod()))(x))
        inner = lambda a: fn.jvp(lambda b: b.sin() * b, (a,), (a.cos(),))[1]  # noqa: E731
        value, slope = fn.jvp(inner, (x,), (y,))
        log += [value, slope, node(value), node(slope)]
        log.append(
            fn.jvp(lambda a: fn.jvp(lambda b: (b.exp(), [b]), (a,), (a,), has_aux=True), (x,), (y,))
        )
        attempt(log, lambda: fn.jvp(lambda a: fn.jvp(lambda b: b, (a,), (a[:2],)), (x,), (y,)))
        attempt(log, lambda: fn.jacfwd(lambda a: a, randomness="maybe")(x))
        attempt(log, lambda: fn.jacfwd(lambda a: a + L.rand(3))(x))
        for randomness in ("different", "same"):
            log.append(fn.jacfwd(lambda a: a * L.rand(3).sum() ** 0, randomness=randomness)(x))
        attempt(log, lambda: fn.jacfwd(lambda a: 3)(x))
        attempt(log, lambda: fn.jacfwd(lambda a: a, has_aux=True)(x))

    run_both(scenario)


# --------------------------------------------------------------------------- vmap
def test_vmap_in_dims_and_out_dims(run_both):
    def scenario(L, F, log):
        fn = L.func
        b, m, x = t(L, B), t(L, M), t(L, X)
        log.append(fn.vmap(L.sum)(m))
        log.append(fn.vmap(L.sum, in_dims=1)(m))
        log.append(fn.vmap(lambda a: a @ x)(b))
        log.append(fn.vmap(lambda a: a @ m[:, 0], in_dims=2)(b))
        log.append(fn.vmap(lambda a: a * 2, in_dims=-1, out_dims=1)(b))
        log.append(fn.vmap(lambda a: a.sum(0), out_dims=-1)(b))
        log.append(fn.vmap(lambda a, s: a * s, in_dims=(0, None))(m, t(L, 2.0)))
        log.append(fn.vmap(lambda a, n: a * n, in_dims=(0, None))(m, 3))
        log.append(fn.vmap(lambda a, k=1.0: a * k)(m, k=x))
        log.append(
            fn.vmap(lambda p: p["a"] + p["b"][0], in_dims=({"a": 0, "b": None},))(
                {"a": m, "b": [x]}
            )
        )
        log.append(fn.vmap(lambda pair: pair[0] * pair[1], in_dims=((0, 1),))((m, m.T)))
        log.append(fn.vmap(lambda a: {"s": a.sum(), "d": a * 2}, out_dims={"s": 0, "d": 1})(m))
        log.append(fn.vmap(lambda a: (a, [a.sum()]), out_dims=(1, [0]))(m))
        log.append(fn.vmap(lambda a: (a, x), out_dims=(0, None))(m))
        log.append(fn.vmap(lambda a: (a, 3), out_dims=(0, None))(m))
        log.append(fn.vmap(fn.vmap(lambda a: a * a.sum()))(b))
        log.append(fn.vmap(fn.vmap(L.dot, in_dims=(0, None)), in_dims=(0, None))(b, x))
        log.append(fn.vmap(fn.vmap(lambda a: a.sum(), in_dims=1), in_dims=2, out_dims=1)(b))
        log.append(fn.vmap(lambda a: a, chunk_size=1)(m))
        log.append(fn.vmap(lambda a: a * 3, out_dims=(1,))(m))
        attempt(log, lambda: fn.vmap(lambda a: a, out_dims=[0])(m))
        attempt(log, lambda: fn.vmap(lambda a: (a, a), out_dims=[0, 1])(m))
        attempt(log, lambda: fn.vmap(lambda a: (a, [a]), out_dims=(0, (0,)))(m))
        empty = L.ones(0, 3, dtype=L.float64)
        for out_dims in (0, 1, -1):
            doubled, sums = fn.vmap(lambda a: (a * 2, a.sum()), out_dims=out_dims)(empty)
            log += [doubled, tuple(doubled.shape), sums, tuple(sums.shape)]
        products = fn.vmap(lambda a, c: a @ c, in_dims=(1, None))(L.ones(3, 0), m.T)
        log += [products, tuple(products.shape)]
        log.append(printed(fn.vmap(L.outer)(m, m)))
        w = t(L, X, requires_grad=True)
        mapped = fn.vmap(lambda a: (a * w).sum())(m)
        log += [mapped, mapped.requires_grad]
        log.append(L.autograd.grad(mapped.sum(), w))

    run_both(scenario)


def test_vmap_errors(run_both):
    def scenario(L, F, log):
        fn = L.func
        m = t(L, M)
        attempt(log, lambda: fn.vmap(lambda a, b: a * b, in_dims=(None, None))(m, m))
        attempt(log, lambda: fn.vmap(lambda a, b: a * b)(m, t(L, X)))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=2)(m))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=0)(t(L, 1.0)))
        attempt(log, lambda: fn.vmap(lambda a: a.sum(), out_dims=1)(m))
        attempt(log, lambda: fn.vmap(lambda a: 3.0)(m))
        attempt(log, lambda: fn.vmap(lambda a: None)(m))
        attempt(log, lambda: fn.vmap(lambda a: [a, (a, 1)])(m))
        attempt(log, lambda: fn.vmap(lambda a: (a, a.sum()), out_dims=(0, None))(m))
        attempt(log, lambda: fn.vmap(lambda a: a, out_dims=None)(m))
        attempt(log, lambda: fn.vmap(lambda a: a, out_dims=(0, 0))(m))
        attempt(log, lambda: fn.vmap(lambda a: (a, a), out_dims=(0, 0, 0))(m))
        attempt(log, lambda: fn.vmap(lambda a: a, out_dims="a")(m))
        attempt(log, lambda: fn.vmap(lambda a: a)(3.0))
        attempt(log, lambda: fn.vmap(lambda a, n: a * n)(m, 3))
        attempt(log, lambda: fn.vmap(lambda a: a)())
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=(0, 0))(m))
        attempt(log, lambda: fn.vmap(lambda a, b: a, in_dims=(0, None, 0))(m, m))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims="a")(m))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=[0])(m))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=None)(m))
        attempt(log, lambda: fn.vmap(lambda a: a, in_dims=(0.5,))(m))
        attempt(
            log,
            lambda: fn.vmap(lambda d: d["a"], in_dims=({"a": 0},))({"a": m, "b": m}),
        )
        attempt(log, lambda: fn.vmap(lambda a: a, randomness="bad"))
        attempt(log, lambda: fn.vmap(lambda a: a, chunk_size=0))
        attempt(log, lambda: fn.vmap(lambda a: L.rand(2))(m))
        attempt(log, lambda: fn.vmap(lambda a: L.nn.functional.dropout(a, 0.5))(m))
        attempt(log, lambda: fn.vmap(lambda a: L.multinomial(a.abs() + 1, 1))(m))
        log.append(fn.vmap(lambda a: a + L.rand(3), randomness="different")(m).shape)
        same = fn.vmap(lambda a: L.rand(3), randomness="same")(m)
        log += [same.shape, bool((same[0] == same[1]).all())]

    run_both(scenario)


# --------------------------------------------------------------------------- composed
def test_vmap_composed_with_gradients(run_both):
    def scenario(L, F, log):
        fn = L.func
        b, m = t(L, B), t(L, M)
        f = lambda a: (a.sin() ** 2).sum()  # noqa: E731
        log.append(fn.vmap(fn.grad(f))(m))
        log.append(fn.vmap(fn.jacrev(lambda a: a.exp() * a.sum()))(m))
        log.append(fn.vmap(fn.vmap(fn.grad(f)))(b))
        log.append(
            fn.vmap(fn.grad(lambda a, c: (a * c).sum(), argnums=1), in_dims=(None, 0))(m[0], m)
        )
        log.append(fn.grad(lambda a: fn.vmap(f)(a).sum())(m))
        log.append(fn.vmap(fn.hessian(f))(m))
        log.append(fn.vmap(fn.jacfwd(lambda a: a.tanh()))(m))

    run_both(scenario)


# --------------------------------------------------------------------------- functional_call
def _mlp(L):
    model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 1))
    weights = np.random.default_rng(5)
    params = {
        name: t(L, weights.normal(size=tuple(p.shape))) for name, p in model.named_parameters()
    }
    return model, params


def test_functional_call_and_per_example_gradients(run_both):
    def scenario(L, F, log):
        fn = L.func
        model, params = _mlp(L)
        x, y = t(L, B[:, 0, :]), t(L, B[:, 1, :1])
        out = fn.functional_call(model, params, (x,))
        log += [out, node(out)]
        log.append(fn.functional_call(model, params, x))
        log.append(fn.functional_call(model, (params,), args=(), kwargs={"input": x}))
        log.append([name for name, _ in model.named_parameters()])

        def loss(p, xi, yi):
            prediction = fn.functional_call(model, p, (xi.unsqueeze(0),))
            return ((prediction - yi.unsqueeze(0)) ** 2).mean()

        per_example = fn.vmap(fn.grad(loss), in_dims=(None, 0, 0))(params, x, y)
        log.append(per_example)
        looped = [fn.grad(loss)(params, x[i], y[i]) for i in range(4)]
        log.append({k: L.stack([g[k] for g in looped]) for k in params})
        leaves = {k: v.detach().requires_grad_() for k, v in params.items()}
        loss(leaves, x[2], y[2]).backward()
        log.append({k: v.grad for k, v in leaves.items()})
        log.append(model[0].weight.grad)  # the module's own parameters were not touched

    run_both(scenario)


def test_functional_call_errors_and_tied_weights(run_both):
    def scenario(L, F, log):
        fn = L.func
        model, params = _mlp(L)
        x = t(L, B[:, 0, :])
        one = {"0.weight": params["0.weight"]}
        attempt(log, lambda: fn.functional_call(model, one, x, strict=True))
        attempt(log, lambda: fn.functional_call(model, {**params, "extra": x}, x, strict=True))
        attempt(log, lambda: fn.functional_call(model, {**params, "extra": x}, x).shape)
        attempt(log, lambda: fn.functional_call(model, (one, one), x))
        attempt(log, lambda: fn.functional_call(model, 3, x))
        attempt(log, lambda: fn.functional_call(model, {"9.weight": x}, x))

        class Tied(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = L.nn.Linear(2, 2, bias=False)
                self.b = L.nn.Linear(2, 2, bias=False)
                self.b.weight = self.a.weight
                self.register_buffer("s", L.ones(2, dtype=L.float64))

            def forward(self, z):
                return self.b(self.a(z)) * self.s

        tied = Tied().double()
        z = t(L, [[1.0, 2.0]])
        eye = L.eye(2, dtype=L.float64)
        attempt(log, lambda: fn.functional_call(tied, {"a.weight": eye * 2}, (z,)))
        attempt(log, lambda: fn.functional_call(tied, {"a.weight": eye, "b.weight": eye}, (z,)))
        attempt(
            log,
            lambda: fn.functional_call(tied, {"a.weight": eye, "s": eye[0]}, (z,), strict=True),
        )
        attempt(log, lambda: fn.functional_call(tied, {"a.weight": eye}, (z,), strict=True))
        untied = fn.functional_call(tied, {"a.weight": eye * 0}, (z,), tie_weights=False)
        log.append(untied)

    run_both(scenario)


# --------------------------------------------------------------------------- differences
def test_vmap_runs_once_per_example_where_torch_batches(torch):
    """The documented difference (docs/pytorch.md): what needs one example's numbers
    works in minigrad's vmap, with the values a loop gives, where PyTorch refuses."""
    import minigrad as mg

    def by_value(row):
        return row * 2 if row.sum().item() > 0 else -row

    rows = np.array([[1.0, 2.0], [-3.0, 1.0], [0.5, -0.25]])
    with pytest.raises(RuntimeError, match=r"calling \.item\(\) on a Tensor"):
        torch.func.vmap(by_value)(torch.tensor(rows))
    mapped = mg.func.vmap(by_value)(mg.tensor(rows))
    looped = mg.stack([by_value(mg.tensor(row)) for row in rows])
    assert mapped.tolist() == looped.tolist() == [[2.0, 4.0], [3.0, -1.0], [1.0, -0.5]]

    # out_dims=None: PyTorch refuses an output computed from the batch even when every
    # example gives the same value; minigrad checks the values
    def same_for_all(row):
        return row * 0, (row - row).sum()

    with pytest.raises(ValueError, match="can not return a BatchedTensor"):
        torch.func.vmap(same_for_all, out_dims=(0, None))(torch.tensor(rows))
    _, shared = mg.func.vmap(same_for_all, out_dims=(0, None))(mg.tensor(rows))
    assert shared.item() == 0.0

    # the history of a result: the per-example ops and a stack, where PyTorch records the
    # batched op once
    weights = np.ones((2, 3))
    doubled = torch.func.vmap(lambda a: a * 2)(torch.tensor(weights, requires_grad=True))
    assert doubled.grad_fn.name() == "MulBackward0"
    doubled = mg.func.vmap(lambda a: a * 2)(mg.tensor(weights, requires_grad=True))
    assert doubled.grad_fn.name() == "StackBackward0"
    assert [node.name() for node, _ in doubled.grad_fn.next_functions] == ["MulBackward0"] * 2
