"""The newer parts of minigrad.nn on their own (no torch needed): the derivatives of the
new loss ops checked numerically to second order, dropout's randomness, nn.init's formulas,
ModuleList, buffers, and that a failed call changes nothing.

tests/parity/test_nn_layers_parity.py compares the same things against a live torch.
"""

import math

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.autograd import gradcheck


def second_derivatives_check(func, inputs):
    """gradcheck of func's first derivatives, taken with create_graph=True."""

    def first_derivatives(*args):
        with mg.enable_grad():
            wanted = [a for a in args if a.requires_grad]
            return mg.autograd.grad(func(*args).sum(), wanted, create_graph=True)

    return gradcheck(first_derivatives, inputs)


def f64(array, requires_grad=False):
    return mg.tensor(np.asarray(array, dtype=np.float64), requires_grad=requires_grad)


RNG = np.random.default_rng(0)
PROBABILITIES = RNG.uniform(0.1, 0.9, (3, 4))
TARGETS = RNG.uniform(0, 1, (3, 4))
LOGITS = RNG.uniform(-3, 3, (3, 4))
WEIGHT = RNG.uniform(0.5, 2, 4)


# --------------------------------------------------------------------------- loss derivatives
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy_derivatives(reduction, weighted):
    weight = f64(WEIGHT) if weighted else None

    def loss(p, t):
        return F.binary_cross_entropy(p, t, weight=weight, reduction=reduction)

    inputs = (f64(PROBABILITIES, True), f64(TARGETS, True))
    assert loss(*inputs).grad_fn.name() == "BinaryCrossEntropyBackward0"
    assert gradcheck(loss, inputs)
    assert second_derivatives_check(loss, inputs)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("options", [{}, {"pos_weight": WEIGHT}, {"weight": WEIGHT[:1]}])
def test_binary_cross_entropy_with_logits_derivatives(reduction, options):
    extra = {k: f64(v) for k, v in options.items()}

    def loss(x, t):
        return F.binary_cross_entropy_with_logits(x, t, reduction=reduction, **extra)

    inputs = (f64(LOGITS, True), f64(TARGETS, True))
    assert loss(*inputs).grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    assert gradcheck(loss, inputs)
    assert second_derivatives_check(loss, inputs)


def test_logsigmoid_derivatives_and_extremes():
    x = f64([-30.0, -2.0, 0.0, 0.5, 30.0], True)
    assert gradcheck(F.logsigmoid, (x,))
    assert second_derivatives_check(F.logsigmoid, (x,))
    extreme = F.logsigmoid(f64([-800.0, 800.0])).numpy()
    np.testing.assert_array_equal(extreme, [-800.0, 0.0])  # no log of an underflowed 0


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_weighted_nll_loss_with_ignored_targets_derivatives(reduction):
    target = mg.tensor([0, 3, 1, 3])

    def loss(logp):
        return F.nll_loss(logp, target, weight=f64(WEIGHT), ignore_index=1, reduction=reduction)

    logp = f64(RNG.standard_normal((4, 4)), True)
    assert gradcheck(loss, (logp,))
    # the weighted mean: Σ w_t·(−log p_t) over the samples not ignored, ÷ Σ w_t
    kept = [0, 1, 3]
    classes = [0, 3, 3]
    expected = -sum(WEIGHT[c] * logp.detach().numpy()[i, c] for i, c in zip(kept, classes))
    if reduction == "mean":
        expected /= sum(WEIGHT[c] for c in classes)
    if reduction != "none":
        np.testing.assert_allclose(loss(logp).item(), expected, rtol=1e-12)


def test_l1_loss_is_mean_of_absolute_differences_with_torchs_nodes():
    a, b = f64([0.0, 3.0, -1.0], True), f64([1.0, 1.0, 1.0])
    loss = F.l1_loss(a, b)
    assert loss.item() == pytest.approx(5 / 3)
    assert loss.grad_fn.name() == "MeanBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "AbsBackward0"
    assert gradcheck(lambda x: F.l1_loss(x, b, reduction="sum"), (a,))


# --------------------------------------------------------------------------- dropout
def test_dropout_is_reproducible_under_manual_seed_and_scales_the_kept():
    x = mg.ones(1000)
    mg.manual_seed(7)
    first = F.dropout(x, 0.3).numpy()
    mg.manual_seed(7)
    second = nn.Dropout(0.3)(x).numpy()
    np.testing.assert_array_equal(first, second)
    assert set(np.unique(first)) == {0.0, np.float32(1 / 0.7)}
    assert first.dtype == np.float32


def test_dropout_gradient_is_the_mask():
    mg.manual_seed(1)
    x = f64(np.arange(1.0, 11.0), True)
    out = F.dropout(x, 0.4)
    out.sum().backward()
    kept = out.detach().numpy() != 0
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, 1 / 0.6, 0.0))


def test_dropout_in_eval_mode_and_at_p_0_returns_the_input_and_draws_nothing():
    x = mg.ones(5, requires_grad=True)
    layer = nn.Dropout(0.5)
    generator = mg.manual_seed(3)
    state = generator.get_state()
    assert layer.eval()(x) is x
    assert F.dropout(x, 0.0) is x
    assert generator.get_state().equal(state)
    assert layer.train()(x) is not x


def test_dropout_at_p_1_zeroes_everything():
    x = f64([1.0, -2.0, 3.0], True)
    out = F.dropout(x, 1.0)
    np.testing.assert_array_equal(out.detach().numpy(), [0.0, 0.0, 0.0])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("p", [-0.01, 1.01])
def test_bad_dropout_probability_is_refused_and_draws_nothing(p):
    message = f"dropout probability has to be between 0 and 1, but got {p}"
    generator = mg.manual_seed(5)
    state = generator.get_state()
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        nn.Dropout(p)
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        F.dropout(mg.ones(3), p)
    assert generator.get_state().equal(state)


def test_in_place_dropout_of_a_leaf_is_refused_before_drawing():
    leaf = mg.ones(4, requires_grad=True)
    generator = mg.manual_seed(5)
    state = generator.get_state()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.dropout(leaf, 0.5, inplace=True)
    assert generator.get_state().equal(state)
    assert leaf.detach().numpy().tolist() == [1.0, 1.0, 1.0, 1.0]
    with mg.no_grad():  # allowed without recording, as in PyTorch
        F.dropout(leaf, 0.5, inplace=True)


# --------------------------------------------------------------------------- init
def test_kaiming_uniform_uses_fan_in_and_gain():
    """fan_in = 3·(2·2) = 12; gain of leaky_relu with slope √5 = √(2/6); bound = gain·√(3/12).
    The draws are minigrad's uniform ones, rescaled to ±bound."""
    weight = mg.zeros(5, 3, 2, 2, dtype=mg.float64)
    mg.manual_seed(11)
    nn.init.kaiming_uniform_(weight, a=math.sqrt(5))
    bound = math.sqrt(2 / 6) * math.sqrt(3 / 12)
    mg.manual_seed(11)
    expected = mg.rand(5, 3, 2, 2, dtype=mg.float64).numpy() * 2 * bound - bound
    np.testing.assert_allclose(weight.numpy(), expected, rtol=1e-12)


def test_xavier_normal_uses_both_fans():
    weight = mg.zeros(4, 6, dtype=mg.float64)
    mg.manual_seed(2)
    nn.init.xavier_normal_(weight, gain=3.0)
    mg.manual_seed(2)
    expected = mg.randn(4, 6, dtype=mg.float64).numpy() * 3.0 * math.sqrt(2 / (4 + 6))
    np.testing.assert_allclose(weight.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize(
    "name, args",
    [
        ("uniform_", ()),
        ("normal_", ()),
        ("xavier_uniform_", ()),
        ("kaiming_normal_", ()),
        ("constant_", (0.5,)),
        ("ones_", ()),
        ("zeros_", ()),
    ],
)
def test_initialisers_work_in_place_on_parameters_without_recording(name, args):
    layer = nn.Linear(3, 2)
    result = getattr(nn.init, name)(layer.weight, *args)
    assert result is layer.weight
    assert result.is_leaf and result.grad_fn is None and result.requires_grad
    assert [p is q for p, q in zip(layer.parameters(), [result, layer.bias])] == [True, True]


def test_failed_initialisation_changes_nothing():
    weight = f64([[1.0, 2.0]])
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        nn.init.kaiming_uniform_(weight, mode="fan_avg")
    with pytest.raises(RuntimeError, match="uniform_ expects"):
        nn.init.uniform_(weight, 1.0, 0.0)
    np.testing.assert_array_equal(weight.numpy(), [[1.0, 2.0]])


# --------------------------------------------------------------------------- containers
def test_module_list_registers_its_modules_parameters():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
            self.blocks.append(nn.Linear(2, 1))

    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "blocks.0.weight",
        "blocks.0.bias",
        "blocks.2.weight",
        "blocks.2.bias",
    ]
    assert net.blocks[-1] is net.blocks[2]
    assert isinstance(net.blocks[:2], nn.ModuleList) and len(net.blocks[:2]) == 2


def test_failed_module_list_calls_change_nothing():
    layers = nn.ModuleList([nn.ReLU()])
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        layers.extend([nn.Tanh(), 3])
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        layers.insert(0, 3)  # PyTorch inserts the int; minigrad refuses it
    with pytest.raises(IndexError, match="index 1 is out of range"):
        layers[1] = nn.Tanh()
    assert repr(layers) == "ModuleList(\n  (0): ReLU()\n)"


def test_flatten_and_unflatten_round_trip():
    x = mg.arange(24.0).reshape(2, 3, 4)
    flat = nn.Flatten()(x)
    assert flat.shape == (2, 12)
    back = nn.Unflatten(1, (3, 4))(flat)
    np.testing.assert_array_equal(back.numpy(), x.numpy())
    assert nn.Flatten(1, 1)(x) is x


# --------------------------------------------------------------------------- state
def test_buffers_are_saved_converted_and_not_trained():
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=mg.tensor([2.0]))
    model = nn.Sequential(nn.Linear(1, 1), loss_fn)
    assert list(model.state_dict()) == ["0.weight", "0.bias", "1.pos_weight"]
    assert [n for n, _ in model.named_buffers()] == ["1.pos_weight"]
    assert len(list(model.parameters())) == 2
    model.double()
    assert loss_fn.pos_weight.dtype == mg.float64
    loss_fn.register_buffer("scratch", mg.zeros(1), persistent=False)
    assert "1.scratch" not in model.state_dict()
    assert [n for n, _ in model.named_buffers()] == ["1.pos_weight", "1.scratch"]
    del loss_fn.scratch
    assert [n for n, _ in model.named_buffers()] == ["1.pos_weight"]
    with pytest.raises(TypeError, match="cannot assign 'int' as buffer 'pos_weight'"):
        loss_fn.pos_weight = 3


def test_a_failed_load_state_dict_changes_nothing():
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    good = {k: mg.ones(*v.shape) for k, v in before.items()}
    mismatched = {**good, "1.weight": mg.ones(3, 2)}
    with pytest.raises(RuntimeError, match="size mismatch for 1.weight"):
        model.load_state_dict(mismatched, strict=False)
    missing = {k: v for k, v in good.items() if k != "1.bias"}
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "1.bias"'):
        model.load_state_dict(missing)
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), before[key].numpy())
    model.load_state_dict(missing, strict=False)  # the keys given are loaded
    assert model[1].weight.detach().numpy().tolist() == [[1.0, 1.0]]


def test_freezing_a_layer_keeps_its_gradients_none():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    assert model[0].requires_grad_(False) is model[0]
    model(mg.ones(4, 2)).sum().backward()
    assert model[0].weight.grad is None and model[0].bias.grad is None
    assert model[2].weight.grad is not None
    model.zero_grad()
    assert model[2].weight.grad is None
