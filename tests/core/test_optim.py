"""minigrad.optim on its own: settings and their errors, each update rule against the same
rule written in numpy, parameter groups, zero_grad, state dicts and the LR schedulers.

Expected messages below are PyTorch 2.13's; tests/parity/test_optim_parity.py checks the
optimizers against a live torch.
"""

import ast
import copy
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import nn, optim
from minigrad.optim.lr_scheduler import ExponentialLR, StepLR


# --------------------------------------------------------------------------- SGD
def test_sgd_errors_are_torchs():
    params = list(nn.Linear(2, 2).parameters())
    cases = [
        (dict(lr=-1), "Invalid learning rate: -1"),
        (dict(lr=0.1, momentum=-1), "Invalid momentum value: -1"),
        (dict(lr=0.1, weight_decay=-1), "Invalid weight_decay value: -1"),
        (dict(lr=0.1, nesterov=True), "Nesterov momentum requires a momentum and zero dampening"),
    ]
    for options, message in cases:
        with pytest.raises(ValueError) as error:
            optim.SGD(params, **options)
        assert str(error.value) == message
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        optim.SGD([], lr=1)
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts"):
        optim.SGD(params[0], lr=1)
    with pytest.raises(ValueError, match="^can't optimize a non-leaf Tensor$"):
        optim.SGD([params[0] * 2], lr=1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        optim.SGD([{"params": params}, {"params": params[:1]}], lr=1)


def test_sgd_param_groups_take_defaults_and_their_own_settings():
    a, b = nn.Parameter(mg.zeros(1)), nn.Parameter(mg.zeros(1))
    optimizer = optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    first, second = optimizer.param_groups
    assert first["params"] == [a] and first["lr"] == 0.1 and first["momentum"] == 0.9
    assert second["params"] == [b] and second["lr"] == 0.5
    a.grad, b.grad = mg.ones(1), mg.ones(1)
    optimizer.step()
    assert a.item() == pytest.approx(-0.1) and b.item() == pytest.approx(-0.5)


def test_sgd_repr_lists_each_group():
    optimizer = optim.SGD([nn.Parameter(mg.zeros(1))], lr=0.1, momentum=0.9)
    assert repr(optimizer) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    lr: 0.1\n    maximize: False\n"
        "    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)"
    )


def _sgd_reference(p, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    """PyTorch's documented update rule, in numpy, for a sequence of gradients."""
    p, buffer, history = p.copy(), None, []
    for g in grads:
        g = g + weight_decay * p
        if momentum:
            buffer = g.copy() if buffer is None else momentum * buffer + (1 - dampening) * g
            g = g + momentum * buffer if nesterov else buffer
        p = p - lr * g
        history.append(p)
    return history


@pytest.mark.parametrize(
    "options",
    [
        dict(lr=0.1),
        dict(lr=0.05, momentum=0.9),
        dict(lr=0.05, momentum=0.9, nesterov=True),
        dict(lr=0.05, momentum=0.5, dampening=0.3, weight_decay=0.01),
    ],
)
def test_sgd_follows_torchs_update_rule(options):
    start = np.array([1.0, -2.0, 0.5])
    grads = [np.array([0.3, -0.1, 2.0]), np.array([-1.0, 0.5, 0.25]), np.array([0.1, 0.1, 0.1])]
    p = nn.Parameter(mg.tensor(start))
    optimizer = optim.SGD([p], **options)
    for g, expected in zip(grads, _sgd_reference(start, grads, **options)):
        p.grad = mg.tensor(g)
        optimizer.step()
        np.testing.assert_allclose(p.detach().numpy(), expected, rtol=1e-12)


def test_sgd_maximize_climbs():
    p = nn.Parameter(mg.tensor([1.0], dtype=mg.float64))
    optimizer = optim.SGD([p], lr=0.1, maximize=True)
    p.grad = mg.tensor([2.0], dtype=mg.float64)
    optimizer.step()
    assert p.item() == pytest.approx(1.2)


def test_sgd_momentum_buffer_starts_at_the_first_gradient():
    p = nn.Parameter(mg.tensor([0.0, 0.0]))
    optimizer = optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = mg.tensor([1.0, 2.0])
    optimizer.step()
    buffer = optimizer.state[p]["momentum_buffer"]
    assert buffer.equal(mg.tensor([1.0, 2.0])) and buffer is not p.grad


def test_sgd_updates_in_place_and_keeps_leaves():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    params = list(model.parameters())
    before = [p.detach().numpy().copy() for p in params]
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(mg.randn(4, 2)).pow(2).mean().backward()
    optimizer.step()
    for param, old, now in zip(params, before, model.parameters()):
        assert param is now and param.is_leaf and param.requires_grad and param.grad_fn is None
        assert isinstance(param, nn.Parameter)
        assert not np.array_equal(param.detach().numpy(), old)


def test_sgd_skips_parameters_without_gradients():
    used, unused = nn.Parameter(mg.tensor([1.0])), nn.Parameter(mg.tensor([1.0]))
    optimizer = optim.SGD([used, unused], lr=0.1, momentum=0.9)
    (used * 2).sum().backward()
    optimizer.step()
    assert used.item() != 1.0 and unused.item() == 1.0
    assert unused not in optimizer.state


def test_sgd_step_records_nothing_and_returns_the_closures_loss():
    p = nn.Parameter(mg.tensor([3.0]))
    optimizer = optim.SGD([p], lr=0.1)

    def closure():
        optimizer.zero_grad()
        loss = (p**2).sum()
        loss.backward()
        return loss

    with mg.no_grad():  # the closure still records: step turns gradients on for it
        loss = optimizer.step(closure)
    assert loss.item() == 9.0 and p.item() == pytest.approx(3.0 - 0.1 * 6.0)
    assert p.grad_fn is None


def test_optimizer_zero_grad():
    p = nn.Parameter(mg.tensor([1.0]))
    optimizer = optim.SGD([p], lr=0.1)
    (p * 3).sum().backward()
    grad = p.grad
    optimizer.zero_grad(set_to_none=False)
    assert p.grad is grad and p.grad.item() == 0.0
    optimizer.zero_grad()
    assert p.grad is None


def test_sgd_learns_a_straight_line():
    """200 steps of SGD on y = 3x + 2 land within 1e-2 of the true slope and intercept."""
    mg.manual_seed(0)
    x = mg.linspace(-1, 1, 50, dtype=mg.float64).reshape(-1, 1)
    y = 3 * x + 2
    model = nn.Linear(1, 1, dtype=mg.float64)
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    loss_function = nn.MSELoss()
    for _ in range(200):
        optimizer.zero_grad()
        loss = loss_function(model(x), y)
        loss.backward()
        optimizer.step()
    assert abs(model.weight.item() - 3) < 1e-2
    assert abs(model.bias.item() - 2) < 1e-2
    assert loss.item() < 1e-4


# --------------------------------------------------------------------------- the other optimizers
START = np.array([1.0, -2.0, 0.5])
GRADS = [
    np.array([0.3, -0.1, 2.0]),
    np.array([-1.0, 0.5, 0.25]),
    np.array([0.1, 0.1, 0.1]),
    np.array([2.0, -3.0, 0.0]),
]


def _adam_reference(p, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                    amsgrad=False, maximize=False, decoupled=False):  # fmt: skip
    """Adam as the paper writes it (and PyTorch's documentation), in float64 numpy."""
    (b1, b2), p = betas, p.copy()
    m, v, v_max, history = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p), []
    for t, g in enumerate(grads, start=1):
        g = -g if maximize else g
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        v_max = np.maximum(v_max, v)
        m_hat = m / (1 - b1**t)
        v_hat = (v_max if amsgrad else v) / (1 - b2**t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
        history.append(p)
    return history


def _rmsprop_reference(p, grads, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0,
                       momentum=0.0, centered=False, maximize=False):  # fmt: skip
    p, v, mean, buffer, history = p.copy(), 0.0 * p, 0.0 * p, 0.0 * p, []
    for g in grads:
        g = (-g if maximize else g) + weight_decay * p
        v = alpha * v + (1 - alpha) * g * g
        mean = alpha * mean + (1 - alpha) * g
        d = g / (np.sqrt(v - mean * mean if centered else v) + eps)
        buffer = momentum * buffer + d
        p = p - lr * (buffer if momentum else d)
        history.append(p)
    return history


def _adagrad_reference(p, grads, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                       initial_accumulator_value=0.0, eps=1e-10, maximize=False):  # fmt: skip
    p, s, history = p.copy(), np.full_like(p, initial_accumulator_value), []
    for t, g in enumerate(grads, start=1):
        g = (-g if maximize else g) + weight_decay * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s) + eps)
        history.append(p)
    return history


def _adamw_reference(p, grads, weight_decay=1e-2, **options):
    return _adam_reference(p, grads, weight_decay=weight_decay, decoupled=True, **options)


RULES = {
    "Adam": _adam_reference,
    "AdamW": _adamw_reference,
    "RMSprop": _rmsprop_reference,
    "Adagrad": _adagrad_reference,
}
CASES = [
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.05, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1)),
    ("Adam", dict(lr=0.05, amsgrad=True, maximize=True)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.05, weight_decay=0.3, amsgrad=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.8, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5, maximize=True)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.5, weight_decay=0.1, initial_accumulator_value=0.2)),
    ("Adagrad", dict(lr=0.1, eps=1e-3, maximize=True)),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=lambda c: str(c))
def test_update_rules_follow_the_formula(name, options):
    p = nn.Parameter(mg.tensor(START))
    optimizer = getattr(optim, name)([p], **options)
    for g, expected in zip(GRADS, RULES[name](START, GRADS, **options)):
        p.grad = mg.tensor(g)
        optimizer.step()
        np.testing.assert_allclose(p.detach().numpy(), expected, rtol=1e-12, atol=1e-15)


def test_adamw_is_adam_with_decoupled_weight_decay():
    optimizer = optim.AdamW([mg.zeros(1, requires_grad=True)])
    group = optimizer.param_groups[0]
    assert group["weight_decay"] == 1e-2 and group["decoupled_weight_decay"] is True
    assert isinstance(optimizer, optim.Adam)
    assert optim.Adam([mg.zeros(1, requires_grad=True)]).defaults["weight_decay"] == 0


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("Adam", dict(lr=-0.1), "Invalid learning rate: -0.1"),
        ("Adam", dict(eps=-1), "Invalid epsilon value: -1"),
        ("Adam", dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
        ("AdamW", dict(betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
        ("AdamW", dict(weight_decay=-1e-2), "Invalid weight_decay value: -0.01"),
        ("RMSprop", dict(alpha=-1), "Invalid alpha value: -1"),
        ("RMSprop", dict(momentum=-1), "Invalid momentum value: -1"),
        ("Adagrad", dict(lr_decay=-1), "Invalid lr_decay value: -1"),
        (
            "Adagrad",
            dict(initial_accumulator_value=-1),
            "Invalid initial_accumulator_value value: -1",
        ),
        (
            "SGD",
            dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
            "Nesterov momentum requires a momentum and zero dampening",
        ),
    ],
)
def test_bad_settings_raise_torchs_messages(name, options, message):
    with pytest.raises(ValueError) as error:
        getattr(optim, name)([mg.zeros(1, requires_grad=True)], **options)
    assert str(error.value) == message


def test_state_is_made_at_the_first_step_with_torchs_keys():
    p = mg.zeros(2, requires_grad=True)
    expected = {
        optim.Adam([p], amsgrad=True): ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"],
        optim.RMSprop([p], momentum=0.9, centered=True): [
            "step",
            "square_avg",
            "momentum_buffer",
            "grad_avg",
        ],
        optim.SGD([p], lr=0.1, momentum=0.9): ["momentum_buffer"],
    }
    for optimizer, keys in expected.items():
        assert dict(optimizer.state) == {}
        p.grad = mg.ones(2)
        optimizer.step()
        assert list(optimizer.state[p]) == keys
        step = optimizer.state[p].get("step")
        assert step is None or (step.dtype == mg.float32 and step.item() == 1.0)
    # Adagrad's state exists from the start, gradient or not, as in PyTorch.
    adagrad = optim.Adagrad([p], initial_accumulator_value=0.5)
    assert list(adagrad.state[p]) == ["step", "sum"]
    assert adagrad.state[p]["sum"].tolist() == [0.5, 0.5]


# --------------------------------------------------------------------------- no gradient, no step
OPTIMIZERS = [
    lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.1),
    lambda ps: optim.Adam(ps, lr=0.1, weight_decay=0.1, amsgrad=True),
    lambda ps: optim.AdamW(ps, lr=0.1),
    lambda ps: optim.RMSprop(ps, lr=0.1, momentum=0.9, centered=True),
    lambda ps: optim.Adagrad(ps, lr=0.1, weight_decay=0.1),
]


@given(
    which=st.sampled_from(range(len(OPTIMIZERS))),
    has_grad=st.lists(st.booleans(), min_size=1, max_size=5),
    steps=st.integers(1, 4),
    values=st.lists(st.floats(-10, 10), min_size=5, max_size=5),
)
def test_a_parameter_without_gradient_is_left_alone(which, has_grad, steps, values):
    """Whatever the optimizer, a parameter whose ``.grad`` is None keeps its value (even under
    weight decay) and its state, while the others move; as in PyTorch."""
    params = [nn.Parameter(mg.tensor([v, 1.0], dtype=mg.float64)) for v in values]
    params = params[: len(has_grad)]
    optimizer = OPTIMIZERS[which](params)
    before_state = {p: copy.deepcopy(optimizer.state.get(p)) for p in params}
    for _ in range(steps):
        for param, gets_one in zip(params, has_grad):
            param.grad = mg.ones(2, dtype=mg.float64) if gets_one else None
        optimizer.step()
    for param, gets_one, value in zip(params, has_grad, values):
        if gets_one:
            assert param.detach().numpy()[1] != 1.0
        else:
            assert param.detach().numpy().tolist() == [value, 1.0]
            saved, now = before_state[param], optimizer.state.get(param)
            if saved is None:
                assert param not in optimizer.state
            else:
                assert {k: v.tolist() for k, v in saved.items()} == {
                    k: v.tolist() for k, v in now.items()
                }


def test_zero_grad_set_to_none_is_the_default_and_false_zeroes_in_place():
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    optimizer = optim.Adam([p])
    with pytest.warns(UserWarning, match="create_graph=True"):
        (p * p).sum().backward(create_graph=True)
    grad = p.grad
    assert grad.requires_grad  # part of a graph after create_graph=True
    optimizer.zero_grad(set_to_none=False)
    assert p.grad is grad and grad.tolist() == [0.0, 0.0]
    assert grad.grad_fn is None and not grad.requires_grad
    optimizer.zero_grad()
    assert p.grad is None


# --------------------------------------------------------------------------- groups and state dicts
def test_add_param_group_checks_and_fills_defaults():
    a, b = nn.Parameter(mg.zeros(1)), nn.Parameter(mg.zeros(1))
    optimizer = optim.Adam([a], lr=0.1)
    with pytest.raises(TypeError, match="^param_group must be a dict, but got <class 'list'>$"):
        optimizer.add_param_group([b])
    with pytest.raises(TypeError, match="ordering of tensors in sets will change"):
        optimizer.add_param_group({"params": {b}})
    with pytest.raises(TypeError, match="^optimizer can only optimize Tensors, but one of the "):
        optimizer.add_param_group({"params": [b, 3]})
    with pytest.raises(ValueError, match="more than one parameter group"):
        optimizer.add_param_group({"params": [b, a]})
    assert len(optimizer.param_groups) == 1  # the failed calls added nothing
    optimizer.add_param_group({"params": b, "betas": (0.5, 0.5)})
    group = optimizer.param_groups[1]
    assert group["params"] == [b] and group["betas"] == (0.5, 0.5) and group["lr"] == 0.1
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([a, a], lr=0.1)


def test_a_non_leaf_that_retains_its_grad_can_be_optimized():
    x = mg.tensor([1.0], requires_grad=True) * 2
    x.retain_grad()
    optim.SGD([x], lr=0.1)  # as torch allows


def _trained(optimizer_factory, steps):
    params = [nn.Parameter(mg.tensor(START)), nn.Parameter(mg.tensor([[0.5, -0.5]]))]
    optimizer = optimizer_factory(params)
    for step in range(steps):
        for p in params:
            p.grad = mg.tensor(np.cos(p.detach().numpy() + step))
        optimizer.step()
    return params, optimizer


@pytest.mark.parametrize("factory", OPTIMIZERS)
def test_state_dict_round_trip_continues_the_same_training(factory):
    params, optimizer = _trained(factory, 3)
    saved = copy.deepcopy(optimizer.state_dict())
    assert sorted(saved["state"]) == [0, 1] and saved["param_groups"][0]["params"] == [0, 1]

    # A fresh optimizer on copies of the parameters, loaded from the saved dict...
    copies = [nn.Parameter(mg.tensor(p.detach().numpy().copy())) for p in params]
    restored = factory(copies)
    restored.load_state_dict(saved)
    assert restored.state_dict()["param_groups"] == saved["param_groups"]
    # ... takes the next steps exactly as the original does.
    for step in range(3, 6):
        for a, b in zip(params, copies):
            a.grad = mg.tensor(np.cos(a.detach().numpy() + step))
            b.grad = mg.tensor(np.cos(b.detach().numpy() + step))
        optimizer.step()
        restored.step()
        for a, b in zip(params, copies):
            assert a.detach().numpy().tolist() == b.detach().numpy().tolist()


def test_load_state_dict_refuses_a_different_layout_and_changes_nothing():
    params, optimizer = _trained(lambda ps: optim.Adam(ps, lr=0.1), 2)
    saved = optimizer.state_dict()
    one_group = optim.Adam([nn.Parameter(mg.zeros(3))], lr=0.5)
    with pytest.raises(ValueError, match="^loaded state dict contains a parameter group that "):
        one_group.load_state_dict(saved)
    two_groups = optim.Adam([{"params": [params[0]]}, {"params": [params[1]]}], lr=0.5)
    with pytest.raises(ValueError, match="^loaded state dict has a different number of "):
        two_groups.load_state_dict(saved)
    assert one_group.param_groups[0]["lr"] == 0.5 and dict(one_group.state) == {}


def test_loaded_state_takes_the_parameters_dtype():
    params, optimizer = _trained(lambda ps: optim.Adam(ps, lr=0.1), 2)
    saved = optimizer.state_dict()
    floats = [nn.Parameter(mg.tensor(p.detach().numpy(), dtype=mg.float32)) for p in params]
    restored = optim.Adam(floats, lr=0.1)
    restored.load_state_dict(saved)
    state = restored.state[floats[0]]
    assert state["exp_avg"].dtype == mg.float32 and state["step"].dtype == mg.float32


# --------------------------------------------------------------------------- schedulers
def test_step_lr_multiplies_every_step_size_epochs_and_sets_initial_lr():
    optimizer = optim.SGD([{"params": [mg.zeros(1, requires_grad=True)]}], lr=0.5)
    scheduler = StepLR(optimizer, step_size=3, gamma=0.1)
    assert optimizer.param_groups[0]["initial_lr"] == 0.5 and scheduler.base_lrs == [0.5]
    rates = [scheduler.get_last_lr()[0]]
    for _ in range(7):
        optimizer.step()
        scheduler.step()
        rates.append(optimizer.param_groups[0]["lr"])
    assert rates == pytest.approx([0.5] * 3 + [0.05] * 3 + [0.005] * 2, rel=1e-12)
    assert scheduler.last_epoch == 7


def test_exponential_lr_multiplies_every_epoch_per_group():
    a, b = mg.zeros(1, requires_grad=True), mg.zeros(1, requires_grad=True)
    optimizer = optim.Adam([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    scheduler = ExponentialLR(optimizer, gamma=0.5)
    for epoch in range(1, 4):
        optimizer.step()
        scheduler.step()
        assert scheduler.get_last_lr() == pytest.approx([0.1 * 0.5**epoch, 0.5**epoch])


def test_scheduler_warns_when_stepped_before_the_optimizer():
    optimizer = optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.1)
    scheduler = StepLR(optimizer, step_size=1)
    with pytest.warns(UserWarning, match=r"^Detected call of `lr_scheduler.step\(\)` before"):
        scheduler.step()
    optimizer = optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.1)
    scheduler = StepLR(optimizer, step_size=1)
    optimizer.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scheduler.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        scheduler.get_lr()


def test_resuming_a_schedule_needs_initial_lr():
    optimizer = optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.1)
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups"):
        StepLR(optimizer, step_size=2, last_epoch=4)
    assert "initial_lr" not in optimizer.param_groups[0]


def test_scheduler_state_dict_round_trip():
    optimizer = optim.SGD([mg.zeros(1, requires_grad=True)], lr=1.0)
    scheduler = ExponentialLR(optimizer, gamma=0.9)
    for _ in range(3):
        optimizer.step()
        scheduler.step()
    saved = scheduler.state_dict()
    assert "optimizer" not in saved and saved["last_epoch"] == 3
    other = ExponentialLR(optim.SGD([mg.zeros(1, requires_grad=True)], lr=1.0), gamma=0.5)
    other.load_state_dict(saved)
    assert other.gamma == 0.9 and other.last_epoch == 3
    assert other.get_last_lr() == scheduler.get_last_lr()


def test_copies_and_pickles_keep_state_but_not_a_schedulers_wrapped_step():
    params, optimizer = _trained(lambda ps: optim.Adam(ps, lr=0.1), 2)
    StepLR(optimizer, step_size=1)  # wraps optimizer.step to notice when it runs
    for clone in (copy.deepcopy(optimizer), pickle.loads(pickle.dumps(optimizer))):
        own = clone.param_groups[0]["params"][0]
        assert own is not params[0] and own in clone.state
        assert (
            clone.state[own]["exp_avg"].tolist() == optimizer.state[params[0]]["exp_avg"].tolist()
        )
        own.grad = mg.ones_like(own)
        clone.step()  # its own step, on its own parameters
        assert own.tolist() != params[0].tolist()


# --------------------------------------------------------------------------- layering
def test_optim_uses_only_the_public_api_of_the_core():
    """Issue #12: optim is written against what users import (``minigrad``'s public names),
    never against private helpers of other modules, so the core can move underneath it."""
    package = Path(optim.__file__).parent
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                inside_optim = node.level == 1
                assert inside_optim or (
                    node.level == 0 and node.module.split(".")[0] != "minigrad"
                ), f"{source.name} imports from {'.' * node.level}{node.module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name == "minigrad" or not alias.name.startswith("minigrad")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "mg":
                    assert not node.attr.startswith("_"), f"{source.name} uses mg.{node.attr}"
