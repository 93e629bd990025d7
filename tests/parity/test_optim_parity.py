"""minigrad.optim against torch.optim 2.13: the same parameters and gradients in, the same
parameters, state, learning rates and error messages out.

Each training test starts both libraries from the same numpy arrays, computes the same
loss with each library's own ops, and compares every parameter after every step: tightly
in float64, at float32's precision in float32 (the two libraries round in different
orders: fused multiply-adds in ATen's kernels, numpy's pairwise sums).
"""

import copy
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import optim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

# Relative and absolute tolerances per dtype. Measured worst case over CASES: 2e-13 relative in
# float64; 3.6e-7 absolute (3 ulps at 1) in float32, a fifth of the float32 bound.
TOLERANCE = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=2e-6, atol=5e-7)}
# Settings torch's parameter groups carry for its other implementations (for-each, fused,
# CUDA graphs, differentiating through the step): minigrad has one implementation.
TORCH_ONLY_KEYS = ("foreach", "fused", "differentiable", "capturable")
STEPS = 6


def starting_arrays(dtype):
    rng = np.random.default_rng(2026)
    shapes = {"weight": (3, 4), "bias": (4,), "scale": ()}
    return {name: rng.standard_normal(shape).astype(dtype) for name, shape in shapes.items()}


def data(dtype):
    rng = np.random.default_rng(13)
    return rng.standard_normal((8, 3)).astype(dtype), rng.standard_normal((8, 4)).astype(dtype)


def loss_of(library, params, x, y):
    """The same loss written in either library: every parameter gets a gradient."""
    hidden = (library.tensor(x) @ params["weight"] + params["bias"]).tanh() * params["scale"]
    return ((hidden - library.tensor(y)) ** 2).mean()


def pair_of_params(dtype):
    arrays = starting_arrays(dtype)
    ours = {k: mg.tensor(v, requires_grad=True) for k, v in arrays.items()}
    theirs = {k: torch.tensor(v, requires_grad=True) for k, v in arrays.items()}
    return ours, theirs


def assert_same(ours, theirs, dtype, what):
    for name in ours:
        np.testing.assert_allclose(
            ours[name].detach().numpy(),
            theirs[name].detach().numpy(),
            **TOLERANCE[dtype],
            err_msg=f"{what}: {name}",
        )


def train_both(name, options, dtype, steps=STEPS):
    """``steps`` steps of ``optim.<name>(**options)`` on both sides, compared after each."""
    ours, theirs = pair_of_params(dtype)
    our_optimizer = getattr(optim, name)(list(ours.values()), **options)
    their_optimizer = getattr(torch.optim, name)(list(theirs.values()), **options)
    x, y = data(dtype)
    for step in range(steps):
        our_optimizer.zero_grad()
        their_optimizer.zero_grad()
        loss_of(mg, ours, x, y).backward()
        loss_of(torch, theirs, x, y).backward()
        our_optimizer.step()
        their_optimizer.step()
        assert_same(ours, theirs, dtype, f"{name}({options}) after step {step + 1}")
    return ours, theirs, our_optimizer, their_optimizer


CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.3)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.5, weight_decay=0.1, maximize=True)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.05)),
    ("Adam", dict(lr=0.05, betas=(0.5, 0.8), eps=1e-4)),
    ("Adam", dict(lr=0.05, weight_decay=0.1)),
    ("Adam", dict(lr=0.05, amsgrad=True)),
    ("Adam", dict(lr=0.05, maximize=True, weight_decay=0.01)),
    ("Adam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("AdamW", dict()),
    ("AdamW", dict(lr=0.05, weight_decay=0.2)),
    ("AdamW", dict(lr=0.05, amsgrad=True, maximize=True)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, alpha=0.9)),
    ("RMSprop", dict(lr=0.01, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, centered=True)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01, eps=1e-3, maximize=True)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1)),
    ("Adagrad", dict(lr=0.1, initial_accumulator_value=0.5, eps=1e-6)),
    ("Adagrad", dict(lr=0.1, weight_decay=0.1, maximize=True)),
]


def case_id(case):
    name, options = case
    return name + "(" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_training_steps_match_torch(case, dtype):
    train_both(*case, dtype)


def without_torch_only_keys(groups):
    return [{k: v for k, v in g.items() if k not in TORCH_ONLY_KEYS} for g in groups]


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_state_dict_matches_torchs(case):
    *_, ours, theirs = train_both(*case, "float64", steps=3)
    our_dict, their_dict = ours.state_dict(), theirs.state_dict()
    assert our_dict["param_groups"] == without_torch_only_keys(their_dict["param_groups"])
    assert list(our_dict["state"]) == list(their_dict["state"])
    for index, their_state in their_dict["state"].items():
        our_state = our_dict["state"][index]
        assert list(our_state) == list(their_state), f"state keys of parameter {index}"
        for key, value in their_state.items():
            assert our_state[key].dtype.name == str(value.dtype).removeprefix("torch.")
            np.testing.assert_allclose(our_state[key].numpy(), value.numpy(), rtol=1e-10)


@pytest.mark.parametrize("case", CASES[1::3], ids=[case_id(c) for c in CASES[1::3]])
def test_torchs_state_dict_loads_and_training_goes_on_the_same(case):
    """A checkpoint of torch's optimizer, its tensors turned into minigrad's, resumes in
    minigrad exactly as torch resumes it: state_dict means the same on both sides."""
    name, options = case
    mine, theirs, _, their_optimizer = train_both(name, options, "float64", steps=3)
    saved = copy.deepcopy(their_optimizer.state_dict())
    converted = {
        "state": {
            index: {k: mg.tensor(v.numpy()) for k, v in state.items()}
            for index, state in saved["state"].items()
        },
        "param_groups": without_torch_only_keys(saved["param_groups"]),
    }
    resumed = {k: mg.tensor(v.detach().numpy(), requires_grad=True) for k, v in theirs.items()}
    our_optimizer = getattr(optim, name)(list(resumed.values()), **options)
    our_optimizer.load_state_dict(converted)
    x, y = data("float64")
    for step in range(3):
        our_optimizer.zero_grad()
        their_optimizer.zero_grad()
        loss_of(mg, resumed, x, y).backward()
        loss_of(torch, theirs, x, y).backward()
        our_optimizer.step()
        their_optimizer.step()
        assert_same(resumed, theirs, "float64", f"after resuming, step {step + 1}")
    assert mine  # the first run's parameters were compared step by step in train_both


def test_param_groups_with_their_own_settings_match_torch():
    ours, theirs = pair_of_params("float64")
    groups = lambda params: [  # noqa: E731 - the same layout for both libraries
        {"params": [params["weight"]]},
        {"params": [params["bias"], params["scale"]], "lr": 0.01, "betas": (0.5, 0.6)},
    ]
    our_optimizer = optim.Adam(groups(ours), lr=0.1, amsgrad=True)
    their_optimizer = torch.optim.Adam(groups(theirs), lr=0.1, amsgrad=True)
    x, y = data("float64")
    for step in range(STEPS):
        for optimizer in (our_optimizer, their_optimizer):
            optimizer.zero_grad()
        loss_of(mg, ours, x, y).backward()
        loss_of(torch, theirs, x, y).backward()
        our_optimizer.step()
        their_optimizer.step()
        assert_same(ours, theirs, "float64", f"step {step + 1}")
    assert (
        without_torch_only_keys(their_optimizer.state_dict()["param_groups"])
        == (our_optimizer.state_dict()["param_groups"])
    )


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_parameters_without_gradients_are_skipped_as_torch_skips_them(name):
    ours, theirs = pair_of_params("float64")
    options = dict(lr=0.1, weight_decay=0.1)
    our_optimizer = getattr(optim, name)(list(ours.values()), **options)
    their_optimizer = getattr(torch.optim, name)(list(theirs.values()), **options)
    x, y = data("float64")
    for _ in range(3):
        our_optimizer.zero_grad()
        their_optimizer.zero_grad()
        # Only the weight takes part in this loss: bias and scale keep grad None.
        (mg.tensor(x) @ ours["weight"]).pow(2).mean().backward()
        (torch.tensor(x) @ theirs["weight"]).pow(2).mean().backward()
        assert ours["bias"].grad is None and theirs["bias"].grad is None
        our_optimizer.step()
        their_optimizer.step()
    assert_same(ours, theirs, "float64", name)
    assert list(our_optimizer.state_dict()["state"]) == list(their_optimizer.state_dict()["state"])


def test_zero_grad_matches_torch():
    ours, theirs = pair_of_params("float64")
    our_optimizer, their_optimizer = (
        optim.SGD(list(ours.values())),
        torch.optim.SGD(list(theirs.values())),
    )
    x, y = data("float64")
    loss_of(mg, ours, x, y).backward()
    loss_of(torch, theirs, x, y).backward()
    our_optimizer.zero_grad(set_to_none=False)
    their_optimizer.zero_grad(set_to_none=False)
    for name in ours:
        assert ours[name].grad.tolist() == theirs[name].grad.tolist()
    our_optimizer.zero_grad()
    their_optimizer.zero_grad()
    assert all(p.grad is None for p in ours.values())
    assert all(p.grad is None for p in theirs.values())


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
        ("Adam", dict(lr=0.1, amsgrad=True)),
        ("AdamW", dict()),
        ("RMSprop", dict(centered=True)),
        ("Adagrad", dict(lr_decay=0.1)),
    ],
)
def test_reprs_match_torch(name, options):
    ours = getattr(optim, name)([mg.zeros(1, requires_grad=True)], **options)
    theirs = getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **options)
    torch_lines = [
        line
        for line in repr(theirs).split("\n")
        if not line.strip().startswith(tuple(k + ":" for k in TORCH_ONLY_KEYS))
    ]
    assert repr(ours).split("\n") == torch_lines


# --------------------------------------------------------------------------- errors
def message(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the message is what is compared
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    raise AssertionError("no error")


BAD_SETTINGS = [
    ("SGD", dict(lr=-0.1)),
    ("SGD", dict(lr=0.1, momentum=-0.5)),
    ("SGD", dict(lr=0.1, weight_decay=-1)),
    ("SGD", dict(lr=0.1, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
    ("Adam", dict(lr=-0.1)),
    ("Adam", dict(eps=-1e-8)),
    ("Adam", dict(betas=(1.0, 0.999))),
    ("Adam", dict(betas=(0.9, -0.5))),
    ("Adam", dict(weight_decay=-0.1)),
    ("AdamW", dict(lr=-1)),
    ("AdamW", dict(betas=(-0.1, 0.9))),
    ("AdamW", dict(weight_decay=-1e-2)),
    ("RMSprop", dict(lr=-0.01)),
    ("RMSprop", dict(eps=-1.0)),
    ("RMSprop", dict(momentum=-0.9)),
    ("RMSprop", dict(weight_decay=-1)),
    ("RMSprop", dict(alpha=-0.99)),
    ("Adagrad", dict(lr=-0.01)),
    ("Adagrad", dict(lr_decay=-1)),
    ("Adagrad", dict(weight_decay=-1)),
    ("Adagrad", dict(initial_accumulator_value=-0.5)),
    ("Adagrad", dict(eps=-1e-10)),
]


@pytest.mark.parametrize(("name", "options"), BAD_SETTINGS, ids=[case_id(c) for c in BAD_SETTINGS])
def test_bad_settings_give_torchs_messages(name, options):
    ours = message(lambda: getattr(optim, name)([mg.zeros(2, requires_grad=True)], **options))
    theirs = message(
        lambda: getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)], **options)
    )
    assert ours == theirs


def test_bad_parameters_and_groups_give_torchs_messages():
    def both(make):
        return message(lambda: make(mg)), message(lambda: make(torch))

    cases = [
        lambda lib: lib.optim.Adam([]),
        lambda lib: lib.optim.Adam(lib.zeros(2, requires_grad=True)),
        lambda lib: lib.optim.Adam([lib.zeros(2, requires_grad=True) * 2]),
        lambda lib: lib.optim.Adam([lib.zeros(2, requires_grad=True), 1.5]),
        lambda lib: lib.optim.SGD({"params": [lib.zeros(2, requires_grad=True)]}),
        lambda lib: lib.optim.SGD([{"params": {lib.zeros(2, requires_grad=True)}}]),
        lambda lib: lib.optim.Adam([lib.zeros(2, requires_grad=True)]).add_param_group([]),
    ]
    for make in cases:
        ours, theirs = both(make)
        assert ours == theirs

    def shared(lib):
        p = lib.zeros(2, requires_grad=True)
        return lib.optim.SGD([{"params": [p]}, {"params": [p]}])

    assert both(shared)[0] == both(shared)[1]

    def duplicate(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            p = lib.zeros(2, requires_grad=True)
            lib.optim.SGD([p, p])
        return [str(w.message) for w in caught]

    assert duplicate(mg) == duplicate(torch)


def test_load_state_dict_errors_match_torch():
    def both(make):
        return message(lambda: make(mg)), message(lambda: make(torch))

    def fewer_groups(lib):
        a, b = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
        saved = lib.optim.Adam([a, b]).state_dict()
        return lib.optim.Adam([{"params": [a]}, {"params": [b]}]).load_state_dict(saved)

    def other_size(lib):
        a, b = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
        saved = lib.optim.Adam([a, b]).state_dict()
        return lib.optim.Adam([a]).load_state_dict(saved)

    for make in (fewer_groups, other_size):
        ours, theirs = both(make)
        assert ours == theirs


# --------------------------------------------------------------------------- schedulers
def lr_sequence(library, scheduler_name, epochs=10, **options):
    params = [library.zeros(1, requires_grad=True), library.zeros(1, requires_grad=True)]
    optimizer = library.optim.SGD(
        [{"params": params[:1]}, {"params": params[1:], "lr": 0.3}], lr=0.1, momentum=0.9
    )
    scheduler = getattr(library.optim.lr_scheduler, scheduler_name)(optimizer, **options)
    rates = [scheduler.get_last_lr()]
    for _ in range(epochs):
        optimizer.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr())
        assert rates[-1] == [group["lr"] for group in optimizer.param_groups]
    groups = [
        {k: v for k, v in g.items() if k not in ("params", *TORCH_ONLY_KEYS)}
        for g in optimizer.param_groups
    ]
    return rates, groups, scheduler.last_epoch, scheduler.base_lrs, sorted(scheduler.state_dict())


SCHEDULES = [
    ("StepLR", dict(step_size=3)),
    ("StepLR", dict(step_size=2, gamma=0.5)),
    ("StepLR", dict(step_size=1, gamma=0.9)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("ExponentialLR", dict(gamma=0.5)),
]


@pytest.mark.parametrize(("name", "options"), SCHEDULES, ids=[case_id(c) for c in SCHEDULES])
def test_scheduler_lr_sequences_match_torch(name, options):
    # Same float operations in the same order: the rates are equal, not just close.
    assert lr_sequence(mg, name, **options) == lr_sequence(torch, name, **options)


@pytest.mark.parametrize("name", ["StepLR", "ExponentialLR"])
def test_scheduler_step_with_epoch_uses_the_closed_form_as_torch(name):
    def run(library):
        optimizer = library.optim.SGD([library.zeros(1, requires_grad=True)], lr=0.2)
        scheduler = getattr(library.optim.lr_scheduler, name)(optimizer, gamma=0.5, **(
            {"step_size": 2} if name == "StepLR" else {}
        ))  # fmt: skip
        optimizer.step()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scheduler.step(epoch=5)
        return scheduler.get_last_lr(), scheduler.last_epoch, [str(w.message) for w in caught]

    assert run(mg) == run(torch)


def test_scheduler_warnings_and_errors_match_torch():
    def stepped_first(library):
        optimizer = library.optim.SGD([library.zeros(1, requires_grad=True)], lr=0.1)
        scheduler = library.optim.lr_scheduler.StepLR(optimizer, step_size=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scheduler.step()
            scheduler.get_lr()
        return [(w.category.__name__, str(w.message)) for w in caught]

    assert stepped_first(mg) == stepped_first(torch)

    def resumed_without_initial_lr(library):
        optimizer = library.optim.SGD([library.zeros(1, requires_grad=True)], lr=0.1)
        library.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9, last_epoch=3)

    def not_an_optimizer(library):
        library.optim.lr_scheduler.StepLR("sgd", step_size=1)

    for make in (resumed_without_initial_lr, not_an_optimizer):
        assert message(lambda m=make: m(mg)) == message(lambda m=make: m(torch))
