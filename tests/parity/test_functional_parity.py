"""minigrad.autograd.functional against torch.autograd.functional: the same structure
(Tensor, tuple, tuple of tuples), shapes, values (float64), flags (requires_grad, grad_fn
present or not), the same gradients when a result made with create_graph=True is
differentiated again, and the same errors, word for word.

Every function and input is written once for either library L and built from the same
numpy arrays.
"""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RTOL, ATOL = 1e-10, 1e-12
rng = np.random.default_rng(13)
X3 = rng.uniform(0.5, 1.5, size=3)
Y3 = rng.uniform(-1.0, 1.0, size=3)
A23 = rng.uniform(-1.0, 1.0, size=(2, 3))
B32 = rng.uniform(-1.0, 1.0, size=(3, 2))
W3 = rng.uniform(-1.0, 1.0, size=3)
SCALAR = np.array(0.7)


def tensor(L, array, requires_grad=False):
    return L.tensor(array, dtype=L.float64, requires_grad=requires_grad)


# --------------------------------------------------------------------------- functions
# name -> (function of L returning func, the arrays of its inputs, whether it is a tuple).
FUNCTIONS = {
    "cubic": (lambda L: lambda x: x**3 - 2 * x**2 + x, [X3], False),
    "poly-sum": (lambda L: lambda x: (2 * x**3 - x * x).sum(), [X3], False),
    "tanh-exp-log": (
        lambda L: lambda x: (x.tanh() * x.exp() + (x * x + 1).log()).sum(),
        [X3],
        False,
    ),
    "tanh-exp-log-vector": (lambda L: lambda x: x.tanh() * (x * x + 1).log(), [X3], False),
    "scalar-input": (lambda L: lambda s: (s * s).exp(), [SCALAR], False),
    "matmul": (lambda L: lambda a, b: a @ b, [A23, B32], True),
    "matmul-scalar": (lambda L: lambda a, b: (a @ b).tanh().sum(), [A23, B32], True),
    "two-outputs": (lambda L: lambda x, y: (x * y, (x.exp() + y**2).sum()), [X3, Y3], True),
    "mixed-scalar": (lambda L: lambda x, y: (x * y.exp()).sum() * x.sum(), [X3, Y3], True),
    "tuple-of-one": (lambda L: lambda x: (x.log() * 3).sum(), [X3], True),
    "ignores-y": (lambda L: lambda x, y: (x**3).sum(), [X3, Y3], True),
    "separable": (lambda L: lambda x, y: (x**3).sum() + (y**4).sum(), [X3, Y3], True),
    "linear": (lambda L: lambda x: 3 * x, [X3], False),
    "linear-sum": (lambda L: lambda x: (3 * x).sum(), [X3], False),
    "quadratic": (lambda L: lambda x: (x * x).sum(), [X3], False),
    "detached-output": (lambda L: lambda x: (x.detach() * 2).sum(), [X3], False),
    "square-and-linear": (lambda L: lambda x: (x * x, 3 * x), [X3], False),
}
SCALAR_FUNCTIONS = [
    "poly-sum",
    "tanh-exp-log",
    "scalar-input",
    "matmul-scalar",
    "mixed-scalar",
    "tuple-of-one",
    "ignores-y",
    "separable",
    "linear-sum",
    "quadratic",
    "detached-output",
]


def make_inputs(L, name, requires_grad):
    _, arrays, as_tuple = FUNCTIONS[name]
    tensors = tuple(tensor(L, a, requires_grad) for a in arrays)
    return tensors if as_tuple else tensors[0]


def make_outputs_like(L, name, seed):
    """A vector ``v`` shaped like the function's output (computed once with numpy seeds)."""
    make, _, _ = FUNCTIONS[name]
    outputs = make(L)(*_as_tuple(make_inputs(L, name, False)))
    local = np.random.default_rng(seed)
    if isinstance(outputs, tuple):
        return tuple(tensor(L, local.uniform(-1, 1, size=tuple(o.shape))) for o in outputs)
    return tensor(L, local.uniform(-1, 1, size=tuple(outputs.shape)))


def make_inputs_like(L, name, seed):
    local = np.random.default_rng(seed)
    inputs = make_inputs(L, name, False)
    if isinstance(inputs, tuple):
        return tuple(tensor(L, local.uniform(-1, 1, size=tuple(x.shape))) for x in inputs)
    return tensor(L, local.uniform(-1, 1, size=tuple(inputs.shape)))


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


# --------------------------------------------------------------------------- comparing
def flat(result):
    """The tensors of a nested result, in order, and its structure as text."""
    if isinstance(result, tuple | list):  # forward mode's Jacobians are lists, as torch's
        parts = [flat(item) for item in result]
        inside = ",".join(s for _, s in parts)
        text = f"({inside})" if isinstance(result, tuple) else f"[{inside}]"
        return [t for tensors, _ in parts for t in tensors], text
    kind = "T" if isinstance(result, mg.Tensor | torch.Tensor) else type(result).__name__
    return [result], kind


def assert_same(mine, theirs):
    mine_tensors, mine_structure = flat(mine)
    torch_tensors, torch_structure = flat(theirs)
    assert mine_structure == torch_structure
    for m, t in zip(mine_tensors, torch_tensors, strict=True):
        assert m.shape == tuple(t.shape)
        assert m.dtype == mg.float64 and t.dtype == torch.float64
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=RTOL, atol=ATOL)
        assert m.requires_grad == t.requires_grad
        assert (m.grad_fn is None) == (t.grad_fn is None)


def node_name(node):
    if node is None:
        return None
    return node.name() if isinstance(node, mg.function.Node) else type(node).__name__


def outcome(call):
    """What a call did: its result, or its error as text (library names made alike)."""
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - the kind of error is part of what is compared
        return f"{type(error).__name__}: {error}".replace("torch.", "minigrad.")


def assert_same_outcome(call_for):
    """``call_for(L)`` runs the call in library L; both must give the same result or the
    same error."""
    mine, theirs = outcome(lambda: call_for(mg)), outcome(lambda: call_for(torch))
    if isinstance(theirs, str) or isinstance(mine, str):
        assert mine == theirs
    else:
        assert_same(mine, theirs)
    return mine, theirs


def further_gradients(L, result, inputs):
    """Differentiate a weighted sum of a result again with respect to the caller's inputs:
    the check that create_graph=True built the right graph."""
    tensors, _ = flat(result)
    weights = np.random.default_rng(5)
    total = None
    for t in tensors:
        if t.requires_grad:
            term = (t * tensor(L, weights.uniform(0.5, 1.5, size=tuple(t.shape)))).sum()
            total = term if total is None else total + term
    if total is None:
        return None
    return L.autograd.grad(total, _as_tuple(inputs), allow_unused=True, materialize_grads=True)


# --------------------------------------------------------------------------- the calls
def call(L, which, name, create_graph=False, strict=False, requires_grad=False, **options):
    """Run ``L.autograd.functional.<which>`` on function ``name`` and return the result and
    the inputs (so the caller can differentiate the result with respect to them)."""
    func = FUNCTIONS[name][0](L)
    inputs = make_inputs(L, name, requires_grad)
    functional = L.autograd.functional
    if which in ("jacobian", "hessian"):
        result = getattr(functional, which)(
            func, inputs, create_graph=create_graph, strict=strict, **options
        )
    elif which == "vjp":
        v = make_outputs_like(L, name, 1) if options.get("with_v", True) else None
        result = functional.vjp(func, inputs, v, create_graph=create_graph, strict=strict)
    else:
        v = make_inputs_like(L, name, 2) if options.get("with_v", True) else None
        result = getattr(functional, which)(
            func, inputs, v, create_graph=create_graph, strict=strict
        )
    return result, inputs


ALL = list(FUNCTIONS)


def cases(which):
    names = SCALAR_FUNCTIONS if which in ("hessian", "hvp", "vhp") else ALL
    return [n for n in names if n != "detached-output"]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize(
    ("which", "name"),
    [(w, n) for w in ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp") for n in cases(w)],
)
def test_results_match_torch(which, name, create_graph):
    mine, theirs = assert_same_outcome(lambda L: call(L, which, name, create_graph=create_graph)[0])
    assert not isinstance(theirs, str), theirs  # every case here is valid in torch
    # The nodes on top: the function's own outputs, and the view that shapes a Jacobian or
    # a Hessian. (Inside a derivative the nodes differ: see docs/pytorch.md.)
    if which in ("jacobian", "hessian"):
        mine_top, torch_top = flat(mine)[0], flat(theirs)[0]
    else:
        mine_top, torch_top = flat(mine[0])[0], flat(theirs[0])[0]
    assert [node_name(t.grad_fn) for t in mine_top] == [node_name(t.grad_fn) for t in torch_top]


@pytest.mark.parametrize(
    ("which", "name"),
    [(w, n) for w in ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp") for n in cases(w)],
)
def test_create_graph_results_differentiate_like_torch(which, name):
    """Inputs that require grad: with create_graph=True the result is differentiable with
    respect to them, and its gradient is torch's. The inputs are left as they were."""
    results = {}
    for L in (mg, torch):
        result, inputs = call(L, which, name, create_graph=True, requires_grad=True)
        for x, array in zip(_as_tuple(inputs), FUNCTIONS[name][1], strict=True):
            assert x.grad is None and x.is_leaf and x.requires_grad
            np.testing.assert_array_equal(x.detach().numpy(), array)
        results[L] = (result, further_gradients(L, result, inputs))
    assert_same(results[mg][0], results[torch][0])
    mine_again, torch_again = results[mg][1], results[torch][1]
    assert (mine_again is None) == (torch_again is None)
    if torch_again is not None:
        assert_same(tuple(g.detach() for g in mine_again), tuple(g.detach() for g in torch_again))


@pytest.mark.parametrize("which", ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"])
def test_without_create_graph_nothing_carries_a_history(which):
    name = "mixed-scalar"
    for L in (mg, torch):
        result, _ = call(L, which, name, create_graph=False, requires_grad=True)
        tensors, _ = flat(result)
        assert all(not t.requires_grad and t.grad_fn is None for t in tensors)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize(
    ("which", "name"),
    [
        (which, name)
        for which in ("jacobian", "vjp", "jvp")
        for name in (
            "ignores-y",
            "linear",
            "linear-sum",
            "quadratic",
            "detached-output",
            "square-and-linear",
        )
    ]
    + [
        (which, name)
        for which in ("hessian", "hvp", "vhp")
        for name in ("ignores-y", "separable", "linear-sum", "quadratic", "detached-output")
    ],
)
def test_strict_mode_and_zeros_like_torch(which, name, create_graph, strict):
    """Independent inputs, constant derivatives, an output that does not require grad:
    zeros without strict, torch's error with it."""
    assert_same_outcome(lambda L: call(L, which, name, create_graph=create_graph, strict=strict)[0])


def _captured_weight(L):
    return tensor(L, W3, requires_grad=True)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("strict", [False, True])
def test_trick_messages_when_an_output_hangs_on_a_captured_tensor(strict, create_graph):
    """The double backward trick's own strict errors: an output (jvp) or a gradient (hvp,
    vhp) that requires grad only through a tensor the function captured."""
    x_y = (X3, Y3)

    def jvp_call(L):
        w = _captured_weight(L)
        inputs = tuple(tensor(L, a) for a in x_y)
        return L.autograd.functional.jvp(
            lambda x, y: (x * y, w * 3), inputs, inputs, create_graph=create_graph, strict=strict
        )

    def second_order_call(which):
        def run(L):
            w = _captured_weight(L)
            inputs = tuple(tensor(L, a) for a in x_y)
            return getattr(L.autograd.functional, which)(
                lambda x, y: (x**3).sum() + (w * y).sum(),
                inputs,
                inputs,
                create_graph=create_graph,
                strict=strict,
            )

        return run

    for call_for in (jvp_call, second_order_call("hvp"), second_order_call("vhp")):
        assert_same_outcome(call_for)


def _returns(value_for):
    return lambda L: lambda *xs: value_for(L, xs)


WELL_SHAPED = "well-shaped"  # v: ones like the inputs for jvp/hvp/vhp, None for vjp

BAD_CALLS = {
    # (function, inputs, v) for each; inputs and v are built by lambdas of L.
    "inputs is a list": (_returns(lambda L, xs: xs[0]), lambda L: [tensor(L, X3)], WELL_SHAPED),
    "inputs holds a number": (
        _returns(lambda L, xs: xs[0]),
        lambda L: (tensor(L, X3), 2.0),
        WELL_SHAPED,
    ),
    "func returns a float": (_returns(lambda L, xs: 1.0), lambda L: tensor(L, X3), WELL_SHAPED),
    "func returns a list": (
        _returns(lambda L, xs: [xs[0] * 2]),
        lambda L: tensor(L, X3),
        WELL_SHAPED,
    ),
    "func returns a tuple with None": (
        _returns(lambda L, xs: (xs[0].sum(), None)),
        lambda L: tensor(L, X3),
        WELL_SHAPED,
    ),
    "func returns a tuple of scalars": (
        _returns(lambda L, xs: (xs[0].sum(), (xs[0] ** 2).sum())),
        lambda L: tensor(L, X3),
        WELL_SHAPED,
    ),
    "func returns a vector": (
        _returns(lambda L, xs: xs[0] ** 2),
        lambda L: tensor(L, X3),
        WELL_SHAPED,
    ),
    "v of the wrong shape": (
        _returns(lambda L, xs: (xs[0] ** 2).sum() * xs[0]),
        lambda L: tensor(L, X3),
        lambda L: tensor(L, Y3[:2]),
    ),
    "v with an entry of the wrong shape": (
        _returns(lambda L, xs: ((xs[0] * xs[1]).sum(), (xs[0] * xs[1]).sum() * xs[1])),
        lambda L: (tensor(L, X3), tensor(L, Y3)),
        lambda L: (tensor(L, X3), tensor(L, Y3[:2])),
    ),
    "v is a tuple of two for one tensor": (
        _returns(lambda L, xs: (xs[0] ** 3).sum() * xs[0]),
        lambda L: tensor(L, X3),
        lambda L: (tensor(L, X3), tensor(L, Y3)),
    ),
    "v is a tuple too short": (
        _returns(lambda L, xs: ((xs[0] * xs[1]).sum(), xs[0] * xs[1])),
        lambda L: (tensor(L, X3), tensor(L, Y3)),
        lambda L: (tensor(L, X3),),
    ),
    "v is a list": (
        _returns(lambda L, xs: (xs[0] ** 3).sum()),
        lambda L: tensor(L, X3),
        lambda L: [tensor(L, X3)],
    ),
    "v missing, vector everywhere": (
        _returns(lambda L, xs: xs[0] ** 3 * (xs[0] ** 2).sum()),
        lambda L: tensor(L, X3),
        None,
    ),
    "v missing, one-element shape (1,)": (
        _returns(lambda L, xs: (xs[0] ** 3).sum().reshape(1) * xs[0]),
        lambda L: tensor(L, X3[:1]),
        None,
    ),
}


@pytest.mark.parametrize("which", ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"])
@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_calls_fail_like_torch(which, case):
    """The same error (or the same result, where torch accepts the call) for each mistake."""
    make_func, make_inputs_, make_v = BAD_CALLS[case]

    def run(L):
        inputs = make_inputs_(L)
        func = make_func(L)
        functional = L.autograd.functional
        if which in ("jacobian", "hessian"):
            return getattr(functional, which)(func, inputs)
        if make_v is WELL_SHAPED:
            ones = tensor(L, np.ones(3))  # every input of these cases has 3 elements
            v = (
                None
                if which == "vjp"
                else tuple(ones for _ in inputs)
                if isinstance(inputs, tuple)
                else ones
            )
        else:
            v = make_v(L) if make_v is not None else None
        return getattr(functional, which)(func, inputs, v)

    assert_same_outcome(run)


OPTIONS = [
    {"strategy": "sideways"},
    {"strategy": "forward-mode", "create_graph": True},
    {"strategy": "forward-mode", "strict": True},
    {"strategy": "forward-mode", "strict": True, "create_graph": True},
    {"strategy": "forward-mode"},
    {"strategy": "forward-mode", "vectorize": True},
    {"vectorize": True, "strict": True},
    {"vectorize": True},
    {"vectorize": True, "create_graph": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("name", ["two-outputs", "matmul", "ignores-y", "cubic"])
def test_jacobian_options_like_torch(name, options):
    """strategy and vectorize: torch's validation messages, and vectorize=True's values
    (minigrad computes them row by row, or column by column in forward mode)."""
    assert_same_outcome(lambda L: call(L, "jacobian", name, **options)[0])


@pytest.mark.parametrize(
    "options",
    [{"outer_jacobian_strategy": o} for o in ("sideways", "forward-mode")]
    + [
        {"outer_jacobian_strategy": "forward-mode", "create_graph": True},
        {"outer_jacobian_strategy": "forward-mode", "strict": True},
        {"outer_jacobian_strategy": "forward-mode", "vectorize": True},
        {"vectorize": True, "strict": True},
        {"vectorize": True},
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["mixed-scalar", "poly-sum", "separable"])
def test_hessian_options_like_torch(name, options):
    assert_same_outcome(lambda L: call(L, "hessian", name, **options)[0])


@pytest.mark.parametrize("which", ["vjp", "jvp", "hvp", "vhp"])
def test_v_that_requires_grad_with_create_graph(which):
    """With create_graph=True the result is differentiable with respect to ``v`` too."""
    name = "mixed-scalar" if which in ("hvp", "vhp") else "two-outputs"
    grads = {}
    for L in (mg, torch):
        func = FUNCTIONS[name][0](L)
        inputs = make_inputs(L, name, True)
        like = make_outputs_like if which == "vjp" else make_inputs_like
        v = tuple(t.requires_grad_() for t in _as_tuple(like(L, name, 3)))
        _, result = getattr(L.autograd.functional, which)(func, inputs, v, create_graph=True)
        total = sum((t * t).sum() for t in _as_tuple(result))
        grads[L] = L.autograd.grad(total, v + inputs)
    assert_same(grads[mg], grads[torch])


@pytest.mark.parametrize(
    "case",
    ["integer input", "empty input, scalar output", "empty output", "float32"],
)
def test_jacobian_edge_cases_like_torch(case):
    def run(L):
        jacobian = L.autograd.functional.jacobian
        if case == "integer input":
            return jacobian(lambda t: t * 2, L.tensor([1, 2]))
        if case == "empty input, scalar output":
            return jacobian(lambda t: t.sum(), L.ones(0, dtype=L.float64))
        if case == "empty output":
            return jacobian(lambda t: t, L.ones(0, dtype=L.float64))
        single = jacobian(lambda t: t * t, L.tensor([1.0, 2.0]))
        assert single.dtype == L.float32  # the dtype of the input
        return single.to(L.float64)

    assert_same_outcome(run)
