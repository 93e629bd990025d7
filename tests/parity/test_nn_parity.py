"""minigrad.nn and minigrad.optim against PyTorch 2.13: same weights in, same numbers out.

Each training test copies identical float64 weights into a torch model and a minigrad
model, runs the same SGD steps on both, and compares the loss and every parameter at every
step.
"""

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn, optim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RTOL = 1e-6


def to_torch(tensor, requires_grad=False):
    return torch.tensor(tensor.detach().numpy(), requires_grad=requires_grad)


def to_minigrad(tensor, requires_grad=False):
    return mg.tensor(tensor.detach().numpy(), requires_grad=requires_grad)


def same_repr(torch_text):
    return torch_text.replace("torch.", "minigrad.")


def copy_weights(torch_model, minigrad_model):
    """Put torch's initial weights into the minigrad model (names must agree)."""
    state = {name: to_minigrad(value) for name, value in torch_model.state_dict().items()}
    minigrad_model.load_state_dict(state)


def assert_same_parameters(torch_model, minigrad_model):
    theirs = dict(torch_model.named_parameters())
    ours = dict(minigrad_model.named_parameters())
    assert list(theirs) == list(ours)
    for name, param in ours.items():
        np.testing.assert_allclose(
            param.detach().numpy(), theirs[name].detach().numpy(), rtol=RTOL, err_msg=name
        )


def mlp(library, activation="ReLU"):
    nn_ = library.nn
    act = getattr(nn_, activation)
    return nn_.Sequential(nn_.Linear(2, 16), act(), nn_.Linear(16, 16), act(), nn_.Linear(16, 1))


# --------------------------------------------------------------------------- structure
def test_reprs_match_torch():
    assert repr(mlp(mg)) == repr(mlp(torch))
    assert repr(nn.Linear(2, 3, bias=False)) == repr(torch.nn.Linear(2, 3, bias=False))
    for name in ("ReLU", "Tanh", "Sigmoid", "MSELoss", "CrossEntropyLoss", "Identity"):
        assert repr(getattr(nn, name)()) == repr(getattr(torch.nn, name)())
    assert repr(nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())[1:]) == repr(
        torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Tanh(), torch.nn.Sigmoid())[1:]
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_parameter_repr_matches_torch(dtype, requires_grad):
    values = np.array([[1.5, -2.0], [0.25, 3.0]], dtype=dtype)
    ours = nn.Parameter(mg.tensor(values), requires_grad=requires_grad)
    theirs = torch.nn.Parameter(torch.tensor(values), requires_grad=requires_grad)
    assert repr(ours) == same_repr(repr(theirs))


def test_names_of_parameters_and_state_dict_match_torch():
    ours, theirs = mlp(mg), mlp(torch)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]


def test_initial_weights_have_torchs_shapes_dtypes_and_range():
    """Same shapes and dtype as torch, drawn from the same interval ±1/√in_features."""
    ours_layers = [m for m in mlp(mg).modules() if isinstance(m, nn.Linear)]
    torch_layers = [m for m in mlp(torch).modules() if isinstance(m, torch.nn.Linear)]
    for ours, theirs in zip(ours_layers, torch_layers):
        bound = 1 / np.sqrt(theirs.in_features)
        for mine, reference in ((ours.weight, theirs.weight), (ours.bias, theirs.bias)):
            assert tuple(mine.shape) == tuple(reference.shape)
            assert str(mine.dtype) == same_repr(str(reference.dtype))
            assert np.abs(reference.detach().numpy()).max() <= bound  # the oracle's interval
            assert np.abs(mine.detach().numpy()).max() <= bound


def graph_names(node):
    """The backward graph below ``node`` as nested (name, children) tuples."""
    if node is None:
        return None
    name = node.name().replace("torch::", "minigrad::")
    return name, tuple(graph_names(child) for child, _ in node.next_functions)


@pytest.mark.parametrize("shape", [(4, 2), (2,), (3, 4, 2)])
@pytest.mark.parametrize("input_requires_grad", [True, False])
def test_linear_graph_matches_torch(shape, input_requires_grad):
    theirs = torch.nn.Linear(2, 3)
    ours = nn.Linear(2, 3)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    torch_out = theirs(torch.tensor(x, requires_grad=input_requires_grad))
    ours_out = ours(mg.tensor(x, requires_grad=input_requires_grad))
    assert graph_names(ours_out.grad_fn) == graph_names(torch_out.grad_fn)


@pytest.mark.parametrize("shape", [(4, 2), (2,)])
def test_linear_without_bias_graph_matches_torch(shape):
    x = np.ones(shape, dtype=np.float32)
    theirs = torch.nn.Linear(2, 3, bias=False)(torch.tensor(x))
    ours = nn.Linear(2, 3, bias=False)(mg.tensor(x))
    assert graph_names(ours.grad_fn) == graph_names(theirs.grad_fn)


@pytest.mark.parametrize("shape", [(4, 2), (2,), (3, 4, 2)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_values_and_gradients_match_torch(shape, bias):
    theirs = torch.nn.Linear(2, 3, bias=bias).double()
    ours = nn.Linear(2, 3, bias=bias, dtype=mg.float64)
    copy_weights(theirs, ours)
    x = np.random.default_rng(1).standard_normal(shape)
    tx, mx = torch.tensor(x, requires_grad=True), mg.tensor(x, requires_grad=True)
    t_out, m_out = theirs(tx), ours(mx)
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=RTOL)
    seed = np.random.default_rng(2).standard_normal(t_out.shape)
    t_out.backward(torch.tensor(seed))
    m_out.backward(mg.tensor(seed))
    np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=RTOL)
    assert_same_parameters(theirs, ours)
    for name, param in ours.named_parameters():
        torch_grad = dict(theirs.named_parameters())[name].grad
        np.testing.assert_allclose(param.grad.numpy(), torch_grad.numpy(), rtol=RTOL)


# --------------------------------------------------------------------------- functional
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shapes", [((4, 3), (4, 3)), ((3, 1), (3,)), ((5,), (2, 5))])
def test_mse_loss_matches_torch(reduction, shapes):
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(s) for s in shapes)
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ma, mb = mg.tensor(a, requires_grad=True), mg.tensor(b, requires_grad=True)
    with warnings.catch_warnings(record=True) as torch_warnings:
        warnings.simplefilter("always")
        t_loss = torch.nn.functional.mse_loss(ta, tb, reduction=reduction)
    with warnings.catch_warnings(record=True) as our_warnings:
        warnings.simplefilter("always")
        m_loss = F.mse_loss(ma, mb, reduction=reduction)
    assert [same_repr(str(w.message)) for w in torch_warnings] == [
        str(w.message) for w in our_warnings
    ]
    assert m_loss.grad_fn.name() == t_loss.grad_fn.name()
    np.testing.assert_allclose(m_loss.detach().numpy(), t_loss.detach().numpy(), rtol=RTOL)
    seed = np.random.default_rng(4).standard_normal(t_loss.shape)
    t_loss.backward(torch.tensor(seed))
    m_loss.backward(mg.tensor(seed))
    np.testing.assert_allclose(ma.grad.numpy(), ta.grad.numpy(), rtol=RTOL)
    np.testing.assert_allclose(mb.grad.numpy(), tb.grad.numpy(), rtol=RTOL)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("batched", [True, False])
def test_cross_entropy_matches_torch(reduction, batched):
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((6, 4) if batched else (4,))
    target = rng.integers(0, 4, size=6) if batched else np.int64(2)
    tx, mx = torch.tensor(logits, requires_grad=True), mg.tensor(logits, requires_grad=True)
    t_loss = torch.nn.functional.cross_entropy(tx, torch.tensor(target), reduction=reduction)
    m_loss = F.cross_entropy(mx, mg.tensor(target), reduction=reduction)
    assert graph_names(m_loss.grad_fn) == graph_names(t_loss.grad_fn)
    np.testing.assert_allclose(m_loss.detach().numpy(), t_loss.detach().numpy(), rtol=RTOL)
    seed = rng.standard_normal(t_loss.shape)
    t_loss.backward(torch.tensor(seed))
    m_loss.backward(mg.tensor(seed))
    np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=RTOL)


@pytest.mark.parametrize("name", ["relu", "tanh", "sigmoid", "softmax", "log_softmax"])
def test_functional_activations_match_torch(name):
    x = np.random.default_rng(6).standard_normal((3, 4))
    options = {"dim": 1} if "softmax" in name else {}
    theirs = getattr(torch.nn.functional, name)(torch.tensor(x, requires_grad=True), **options)
    ours = getattr(F, name)(mg.tensor(x, requires_grad=True), **options)
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=RTOL)


def test_error_messages_match_torch():
    def message(call):
        try:
            call()
        except Exception as error:  # noqa: BLE001 - the message is what is compared
            return type(error).__name__, same_repr(str(error))
        raise AssertionError("no error")

    params = {
        "torch": [torch.zeros(2, requires_grad=True)],
        "mg": [mg.zeros(2, requires_grad=True)],
    }
    for options in (
        dict(lr=-1),
        dict(lr=0.1, momentum=-0.5),
        dict(lr=0.1, weight_decay=-1),
        dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
    ):
        assert message(lambda o=options: optim.SGD(params["mg"], **o)) == message(
            lambda o=options: torch.optim.SGD(params["torch"], **o)
        )
    assert message(lambda: optim.SGD([], lr=1)) == message(lambda: torch.optim.SGD([], lr=1))
    assert message(lambda: nn.Linear(2, 3)(mg.zeros(4, 3))) == message(
        lambda: torch.nn.Linear(2, 3)(torch.zeros(4, 3))
    )
    assert message(lambda: F.mse_loss(mg.zeros(2), mg.zeros(2), reduction="avg")) == message(
        lambda: torch.nn.functional.mse_loss(torch.zeros(2), torch.zeros(2), reduction="avg")
    )
    # load_state_dict: missing and unexpected keys (strict), then a size mismatch
    for bad in ({"0.weight": np.zeros((2, 2)), "x": np.zeros(1)}, {"0.weight": np.zeros((3, 2))}):
        strict = "x" in bad

        def ours(b=bad, strict=strict):
            state = {k: mg.tensor(v, dtype=mg.float32) for k, v in b.items()}
            return nn.Sequential(nn.Linear(2, 2)).load_state_dict(state, strict=strict)

        def theirs(b=bad, strict=strict):
            state = {k: torch.tensor(v, dtype=torch.float32) for k, v in b.items()}
            return torch.nn.Sequential(torch.nn.Linear(2, 2)).load_state_dict(state, strict=strict)

        assert message(ours) == message(theirs)


def test_optimizer_repr_shows_torchs_settings():
    ours = optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    theirs = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    # torch's groups also carry foreach/fused/differentiable, which minigrad has no use for.
    torch_lines = [
        line
        for line in repr(theirs).split("\n")
        if not line.strip().startswith(("foreach", "fused", "differentiable"))
    ]
    assert repr(ours).split("\n") == torch_lines


# --------------------------------------------------------------------------- training
SGD_SETTINGS = [
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, momentum=0.8, dampening=0.2, weight_decay=0.01),
    dict(lr=0.1),
    dict(lr=0.05, momentum=0.5, maximize=True),
]


def train_both(torch_model, minigrad_model, x, y, settings, steps=20, loss="mse"):
    """Run ``steps`` SGD steps on both models, comparing loss and parameters each step."""
    copy_weights(torch_model, minigrad_model)
    t_opt = torch.optim.SGD(torch_model.parameters(), **settings)
    m_opt = optim.SGD(minigrad_model.parameters(), **settings)
    t_loss_fn = torch.nn.MSELoss() if loss == "mse" else torch.nn.CrossEntropyLoss()
    m_loss_fn = nn.MSELoss() if loss == "mse" else nn.CrossEntropyLoss()
    tx, ty, mx, my = torch.tensor(x), torch.tensor(y), mg.tensor(x), mg.tensor(y)
    params = list(minigrad_model.parameters())
    for step in range(steps):
        t_opt.zero_grad()
        m_opt.zero_grad()
        t_loss = t_loss_fn(torch_model(tx), ty)
        m_loss = m_loss_fn(minigrad_model(mx), my)
        np.testing.assert_allclose(m_loss.item(), t_loss.item(), rtol=RTOL, err_msg=f"step {step}")
        t_loss.backward()
        m_loss.backward()
        t_opt.step()
        m_opt.step()
        assert_same_parameters(torch_model, minigrad_model)
    # The parameters were updated in place: the very same leaves throughout.
    assert all(a is b and a.is_leaf for a, b in zip(params, minigrad_model.parameters()))
    return t_loss.item(), m_loss.item()


@pytest.mark.parametrize("settings", SGD_SETTINGS)
def test_sgd_on_linear_regression_matches_torch(settings):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((32, 3))
    y = x @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * rng.standard_normal((32, 1))
    train_both(torch.nn.Linear(3, 1).double(), nn.Linear(3, 1, dtype=mg.float64), x, y, settings)


@pytest.mark.parametrize("activation", ["ReLU", "Tanh", "Sigmoid"])
@pytest.mark.parametrize("settings", SGD_SETTINGS[:3])
def test_sgd_on_an_mlp_matches_torch(activation, settings):
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, (64, 2))
    y = np.sin(3 * x[:, :1]) * x[:, 1:]
    first, last = train_both(
        mlp(torch, activation).double(), mlp(mg, activation).double(), x, y, settings
    )
    assert first == pytest.approx(last, rel=RTOL)


def test_sgd_on_a_classifier_matches_torch():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((40, 2))
    y = (x[:, 0] * x[:, 1] > 0).astype(np.int64)
    theirs = torch.nn.Sequential(
        torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)
    ).double()
    ours = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2)).double()
    train_both(theirs, ours, x, y, dict(lr=0.2, momentum=0.9), loss="cross_entropy")


def test_zero_grad_without_set_to_none_matches_torch():
    """Accumulating into zeroed gradients gives the same training as dropping them."""
    rng = np.random.default_rng(10)
    x, y = rng.standard_normal((16, 2)), rng.standard_normal((16, 1))
    theirs, ours = mlp(torch).double(), mlp(mg).double()
    copy_weights(theirs, ours)
    t_opt = torch.optim.SGD(theirs.parameters(), lr=0.05, momentum=0.9)
    m_opt = optim.SGD(ours.parameters(), lr=0.05, momentum=0.9)
    for _ in range(5):
        t_opt.zero_grad(set_to_none=False)
        ours.zero_grad(set_to_none=False)
        torch.nn.functional.mse_loss(theirs(torch.tensor(x)), torch.tensor(y)).backward()
        F.mse_loss(ours(mg.tensor(x)), mg.tensor(y)).backward()
        t_opt.step()
        m_opt.step()
    assert_same_parameters(theirs, ours)


@pytest.mark.parametrize("name", ["a.b", "", 3, "training", "forward", "ok"])
def test_names_a_module_refuses_are_torchs(name):
    """A dot joins names in state_dict, so a child, parameter or buffer whose name holds one
    (or is empty, or not a string) is refused, with torch's messages and in torch's order."""

    def registering(library, Parameter):
        def run():
            module = library.nn.Module()
            results = []
            for register, value in (
                (module.add_module, library.nn.Linear(1, 1)),
                (module.register_parameter, Parameter(library.ones(1))),
                (module.register_buffer, library.ones(1)),
            ):
                try:
                    register(name, value)
                    results.append("registered")
                except Exception as error:  # noqa: BLE001 - the message is what is compared
                    results.append((type(error).__name__, same_repr(str(error))))
            return results

        return run

    ours = registering(mg, nn.Parameter)()
    assert ours == registering(torch, torch.nn.Parameter)()
    if name == "a.b":
        assert all(result[0] == "KeyError" for result in ours)
