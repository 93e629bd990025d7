"""minigrad.nn on its own: registration, names, gradients (the optimizers: test_optim.py).

Expected reprs and messages below are PyTorch 2.13's output (with torch. → minigrad.);
tests/parity/test_nn_parity.py checks the same against a live torch.
"""

import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn
from minigrad.autograd import gradcheck


class TwoLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
        self.scale = nn.Parameter(mg.tensor(1.0))
        self.note = "not registered"

    def forward(self, x):
        return self.layers(x) * self.scale


def double64(*shape, requires_grad=False):
    return mg.randn(*shape, dtype=mg.float64, requires_grad=requires_grad)


def second_derivatives_check(func, inputs):
    """gradcheck of func's first derivatives (taken with create_graph=True): checks that the
    backward of each op is itself differentiable correctly."""

    def first_derivatives(*args):
        # gradcheck evaluates its function under no_grad for the finite differences; the
        # derivatives must be recorded all the same.
        with mg.enable_grad():
            return mg.autograd.grad(func(*args).sum(), args, create_graph=True)

    return gradcheck(first_derivatives, inputs)


# --------------------------------------------------------------------------- Parameter
def test_parameter_is_a_leaf_that_requires_grad_and_shares_memory():
    data = mg.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, mg.Tensor) and p.is_leaf and p.requires_grad
    data.numpy()[0] = 5.0
    assert p.detach().numpy()[0] == 5.0
    assert not nn.Parameter(data, requires_grad=False).requires_grad


def test_parameter_cuts_off_the_history_of_its_data():
    x = mg.tensor([1.0], requires_grad=True)
    p = nn.Parameter(x * 2)
    assert p.is_leaf and p.grad_fn is None


def test_ops_on_a_parameter_give_plain_tensors():
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    result = p * 2
    assert type(result) is mg.Tensor and result.grad_fn.name() == "MulBackward0"


def test_parameter_repr_is_torchs():
    assert repr(nn.Parameter(mg.tensor([1.0, 2.0]))) == (
        "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    )
    assert repr(nn.Parameter(mg.tensor(1.0, dtype=mg.float64), requires_grad=False)) == (
        "Parameter containing:\ntensor(1., dtype=minigrad.float64)"
    )


def test_parameter_refuses_non_tensors_and_integer_gradients():
    with pytest.raises(TypeError, match="must be Tensor"):
        nn.Parameter([1.0])
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        nn.Parameter(mg.tensor([1, 2]))


# --------------------------------------------------------------------------- Module registration
def test_parameters_and_submodules_are_registered_by_assignment():
    model = TwoLayers()
    assert list(model._parameters) == ["scale"]
    assert list(model._modules) == ["layers"]
    assert model.note == "not registered"
    assert model.scale is model._parameters["scale"]


def test_named_parameters_have_torchs_dotted_names():
    names = [name for name, _ in TwoLayers().named_parameters()]
    assert names == [
        "scale",
        "layers.0.weight",
        "layers.0.bias",
        "layers.2.weight",
        "layers.2.bias",
    ]
    seq = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert [n for n, _ in seq.named_parameters(prefix="net")][0] == "net.0.weight"
    assert list(seq.named_parameters(recurse=False)) == []


def test_parameters_are_the_registered_objects():
    model = TwoLayers()
    params = list(model.parameters())
    assert params[0] is model.scale
    assert params[1] is model.layers[0].weight
    assert len(params) == 5


def test_a_shared_parameter_is_listed_once():
    layer = nn.Linear(2, 2)
    model = nn.Sequential(layer, nn.ReLU(), layer)
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(model.modules())) == 3  # Sequential, the Linear once, ReLU


def test_children_and_modules_in_order():
    model = TwoLayers()
    assert list(model.children()) == [model.layers]
    modules = list(model.modules())
    assert modules[0] is model and modules[1] is model.layers
    assert [type(m).__name__ for m in modules[2:]] == ["Linear", "Tanh", "Linear"]
    assert [name for name, _ in model.named_modules()] == [
        "",
        "layers",
        "layers.0",
        "layers.1",
        "layers.2",
    ]


def test_assigning_a_tensor_over_a_parameter_is_refused():
    layer = nn.Linear(2, 2)
    with pytest.raises(TypeError) as error:
        layer.weight = mg.zeros(2, 2)
    assert str(error.value) == (
        "cannot assign 'minigrad.FloatTensor' as parameter 'weight' "
        "(minigrad.nn.Parameter or None expected)"
    )
    layer.bias = None
    assert layer.bias is None
    assert [n for n, _ in layer.named_parameters()] == ["weight"]


def test_registering_before_init_is_refused():
    class Forgetful(nn.Module):
        def __init__(self, value):
            self.value = value

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Forgetful(nn.Parameter(mg.zeros(1)))
    with pytest.raises(AttributeError, match=r"cannot assign module before Module.__init__"):
        Forgetful(nn.ReLU())


def test_a_missing_attribute_and_a_missing_forward_say_so():
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'foo'"):
        nn.Linear(1, 1).foo  # noqa: B018
    with pytest.raises(NotImplementedError) as error:
        nn.Module()(mg.zeros(1))
    assert str(error.value) == 'Module [Module] is missing the required "forward" function'


def test_delattr_unregisters():
    model = TwoLayers()
    del model.scale
    assert "scale" not in dict(model.named_parameters())


def test_call_runs_forward():
    model = TwoLayers()
    x = mg.randn(4, 2)
    assert model(x).equal(model.forward(x))


# --------------------------------------------------------------------------- zero_grad, train/eval
def _with_gradients(model):
    model(mg.randn(4, 2)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    return model


def test_zero_grad_sets_gradients_to_none_by_default():
    model = _with_gradients(TwoLayers())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_zero_grad_without_set_to_none_zeroes_the_same_tensors():
    model = _with_gradients(TwoLayers())
    grads = [p.grad for p in model.parameters()]
    model.zero_grad(set_to_none=False)
    for param, grad in zip(model.parameters(), grads):
        assert param.grad is grad
        assert not grad.detach().numpy().any()


def test_zero_grad_after_create_graph_detaches_the_gradient():
    w = nn.Parameter(mg.tensor([2.0]))
    model = nn.Module()
    model.w = w
    with pytest.warns(UserWarning, match="create_graph=True"):
        (w**3).sum().backward(create_graph=True)
    assert w.grad.grad_fn is not None
    model.zero_grad(set_to_none=False)
    assert w.grad.grad_fn is None and not w.grad.requires_grad
    assert w.grad.item() == 0.0


def test_train_and_eval_reach_every_submodule():
    model = TwoLayers()
    assert all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        model.train("yes")


def test_requires_grad_freezes_parameters():
    model = TwoLayers().requires_grad_(False)
    assert not any(p.requires_grad for p in model.parameters())


# --------------------------------------------------------------------------- repr
def test_module_reprs_are_torchs():
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=2, out_features=16, bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Linear(in_features=16, out_features=1, bias=True)\n"
        ")"
    )
    assert repr(nn.Linear(2, 3, bias=False)) == "Linear(in_features=2, out_features=3, bias=False)"
    assert [repr(m) for m in (nn.Tanh(), nn.Sigmoid(), nn.MSELoss(), nn.Sequential())] == [
        "Tanh()",
        "Sigmoid()",
        "MSELoss()",
        "Sequential()",
    ]


def test_nested_repr_indents_children():
    assert repr(TwoLayers()) == (
        "TwoLayers(\n"
        "  (layers): Sequential(\n"
        "    (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "    (1): Tanh()\n"
        "    (2): Linear(in_features=3, out_features=1, bias=True)\n"
        "  )\n"
        ")"
    )


# --------------------------------------------------------------------------- Sequential
def test_sequential_indexing_length_and_slices():
    layers = [nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)]
    model = nn.Sequential(*layers)
    assert len(model) == 3
    assert model[0] is layers[0] and model[-1] is layers[2]
    assert list(model) == layers
    tail = model[1:]
    assert list(tail) == layers[1:] and list(tail._modules) == ["1", "2"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        model[3]


def test_sequential_applies_in_order_and_takes_named_modules():
    first, second = nn.Linear(2, 3), nn.Sigmoid()
    model = nn.Sequential(OrderedDict([("hidden", first), ("act", second)]))
    x = mg.randn(4, 2)
    assert model(x).equal(second(first(x)))
    assert [n for n, _ in model.named_parameters()] == ["hidden.weight", "hidden.bias"]
    model.append(nn.Linear(3, 1))
    assert len(model) == 3 and model(x).shape == mg.Size([4, 1])


# --------------------------------------------------------------------------- Linear
def test_linear_shapes_and_initial_range():
    # Seeded: 40 uniform draws all miss the outer fifths of the interval ~1.5% of the time,
    # so without a seed the last assertion would depend on the tests run before.
    mg.manual_seed(0)
    layer = nn.Linear(25, 40)
    assert layer.weight.shape == mg.Size([40, 25]) and layer.bias.shape == mg.Size([40])
    assert layer.weight.dtype == mg.float32
    bound = 1 / math.sqrt(25)
    for param in (layer.weight, layer.bias):
        values = param.detach().numpy()
        assert np.all(np.abs(values) <= bound)
        # Uniform over the whole interval, not a narrow part of it.
        assert values.max() > 0.8 * bound and values.min() < -0.8 * bound


def test_linear_initialisation_is_reproducible_with_manual_seed():
    mg.manual_seed(7)
    first = nn.Linear(3, 4)
    mg.manual_seed(7)
    second = nn.Linear(3, 4)
    assert first.weight.equal(second.weight) and first.bias.equal(second.bias)
    assert not first.weight.equal(nn.Linear(3, 4).weight)


def test_linear_dtype_option():
    layer = nn.Linear(2, 3, dtype=mg.float64)
    assert layer.weight.dtype == mg.float64 and layer.bias.dtype == mg.float64


@pytest.mark.parametrize("shape", [(4, 2), (2,), (3, 4, 2)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_is_x_times_w_transposed_plus_b(shape, bias):
    layer = nn.Linear(2, 3, bias=bias, dtype=mg.float64)
    x = double64(*shape)
    w = layer.weight.detach().numpy()
    expected = x.numpy() @ w.T + (layer.bias.detach().numpy() if bias else 0)
    np.testing.assert_allclose(layer(x).detach().numpy(), expected, rtol=1e-12)


def test_linear_nodes_are_torchs():
    layer = nn.Linear(2, 3)
    batch = layer(mg.randn(4, 2, requires_grad=True))
    assert batch.grad_fn.name() == "AddmmBackward0"
    bias_edge, input_edge, weight_edge = batch.grad_fn.next_functions
    assert bias_edge[0].variable is layer.bias
    assert input_edge[0].name() == "minigrad::autograd::AccumulateGrad"
    assert weight_edge[0].name() == "TBackward0"
    assert weight_edge[0].next_functions[0][0].variable is layer.weight
    assert layer(mg.randn(4, 2)).grad_fn.next_functions[1] == (None, 0)
    single = layer(mg.randn(2))
    assert single.grad_fn.name() == "ViewBackward0"
    assert single.grad_fn.next_functions[0][0].name() == "AddmmBackward0"
    assert nn.Linear(2, 3, bias=False)(mg.randn(4, 2)).grad_fn.name() == "MmBackward0"


@pytest.mark.parametrize("shape", [(4, 2), (2,), (3, 4, 2)])
def test_linear_gradients_pass_gradcheck(shape):
    x, w = double64(*shape, requires_grad=True), double64(3, 2, requires_grad=True)
    b = double64(3, requires_grad=True)
    assert gradcheck(F.linear, (x, w, b))


def test_addmm_second_derivatives():
    args = (double64(3, requires_grad=True), double64(4, 2, requires_grad=True))
    args += (double64(2, 3, requires_grad=True),)
    assert second_derivatives_check(F.Addmm.apply, args)


def test_linear_shape_and_dtype_errors_are_torchs():
    with pytest.raises(RuntimeError) as error:
        nn.Linear(2, 3)(mg.randn(4, 3))
    assert str(error.value) == "mat1 and mat2 shapes cannot be multiplied (4x3 and 2x3)"
    with pytest.raises(RuntimeError) as error:
        nn.Linear(2, 3).double()(mg.randn(4, 2))
    assert str(error.value) == "mat1 and mat2 must have the same dtype, but got Float and Double"


def test_module_to_double_keeps_the_parameter_objects():
    model = nn.Sequential(nn.Linear(2, 3))
    weight = model[0].weight
    values = weight.detach().numpy().copy()
    assert model.double() is model
    assert model[0].weight is weight and weight.dtype == mg.float64
    np.testing.assert_array_equal(weight.detach().numpy(), values.astype(np.float64))
    assert model.float()[0].bias.dtype == mg.float32


# --------------------------------------------------------------------------- activations
@pytest.mark.parametrize(
    "module, numpy_function",
    [
        (nn.ReLU(), lambda a: np.maximum(a, 0)),
        (nn.Tanh(), np.tanh),
        (nn.Sigmoid(), lambda a: 1 / (1 + np.exp(-a))),
        (nn.Identity(), lambda a: a),
    ],
)
def test_activation_modules(module, numpy_function):
    x = double64(3, 4)
    np.testing.assert_allclose(module(x).numpy(), numpy_function(x.numpy()), rtol=1e-12)


def test_functional_activations_record_torchs_nodes():
    x = double64(3, requires_grad=True)
    names = [f(x).grad_fn.name() for f in (F.relu, F.tanh, F.sigmoid)]
    assert names == ["ReluBackward0", "TanhBackward0", "SigmoidBackward0"]
    assert F.softmax(x, dim=0).grad_fn.name() == "SoftmaxBackward0"
    assert F.log_softmax(x, dim=0).grad_fn.name() == "LogSoftmaxBackward0"


def test_softmax_without_dim_warns_and_picks_torchs_dim():
    x = double64(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        implicit = F.softmax(x)
    assert implicit.equal(F.softmax(x, dim=1))
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        assert F.log_softmax(x[0]).equal(F.log_softmax(x[0], dim=0))


# --------------------------------------------------------------------------- losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_values_and_node(reduction):
    a, b = double64(4, 3, requires_grad=True), double64(4, 3)
    squared = (a.detach().numpy() - b.numpy()) ** 2
    expected = {"mean": squared.mean(), "sum": squared.sum(), "none": squared}[reduction]
    loss = nn.MSELoss(reduction=reduction)(a, b)
    np.testing.assert_allclose(loss.detach().numpy(), expected, rtol=1e-12)
    assert loss.grad_fn.name() == "MseLossBackward0"
    assert loss.grad_fn.next_functions[1] == (None, 0)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_gradients(reduction):
    a, b = double64(4, 3, requires_grad=True), double64(4, 3, requires_grad=True)
    assert gradcheck(lambda x, y: F.mse_loss(x, y, reduction=reduction), (a, b))
    assert second_derivatives_check(lambda x, y: F.mse_loss(x, y, reduction=reduction), (a, b))


def test_mse_loss_warns_about_broadcasting_and_averages_over_the_broadcast():
    a, b = double64(3, 1, requires_grad=True), double64(3)
    with pytest.warns(UserWarning) as record:
        loss = F.mse_loss(a, b)
    assert str(record[0].message) == (
        "Using a target size (minigrad.Size([3])) that is different to the input size "
        "(minigrad.Size([3, 1])). This will likely lead to incorrect results due to "
        "broadcasting. Please ensure they have the same size."
    )
    expected = ((a.detach().numpy() - b.numpy()) ** 2).mean()  # over a (3, 3) grid
    np.testing.assert_allclose(loss.item(), expected, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(lambda x: F.mse_loss(x, b), (a,))


def test_mse_loss_refuses_an_unknown_reduction():
    with pytest.raises(ValueError, match="^avg is not a valid value for reduction$"):
        F.mse_loss(mg.zeros(2), mg.zeros(2), reduction="avg")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_values_and_gradients(reduction):
    logits, target = double64(5, 3, requires_grad=True), mg.tensor([0, 2, 1, 2, 0])
    scores = logits.detach().numpy()
    log_p = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    losses = -log_p[np.arange(5), target.numpy()]
    expected = {"mean": losses.mean(), "sum": losses.sum(), "none": losses}[reduction]
    loss = nn.CrossEntropyLoss(reduction=reduction)(logits, target)
    np.testing.assert_allclose(loss.detach().numpy(), expected, rtol=1e-12)
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    assert gradcheck(lambda x: F.cross_entropy(x, target, reduction=reduction), (logits,))


def test_cross_entropy_of_a_single_sample():
    logits = double64(4, requires_grad=True)
    batch = F.cross_entropy(logits.unsqueeze(0), mg.tensor([3]))
    assert F.cross_entropy(logits, mg.tensor(3)).allclose(batch)
    assert gradcheck(lambda x: F.cross_entropy(x, mg.tensor(3)), (logits,))


def test_cross_entropy_errors_are_torchs():
    logits = mg.randn(3, 4)
    with pytest.raises(IndexError, match="^Target 5 is out of bounds.$"):
        F.cross_entropy(logits, mg.tensor([0, 1, 5]))
    with pytest.raises(ValueError) as error:
        F.cross_entropy(logits, mg.tensor([0, 1]))
    assert str(error.value) == "Expected input batch_size (3) to match target batch_size (2)."
    with pytest.raises(
        RuntimeError, match="expected target dtype to be Long or Byte, but got Float"
    ):
        F.cross_entropy(logits, mg.tensor([0.0, 1.0, 2.0]))


# --------------------------------------------------------------------------- state_dict
def test_state_dict_round_trip():
    source, target = TwoLayers(), TwoLayers()
    state = source.state_dict()
    assert list(state) == [n for n, _ in source.named_parameters()]
    assert all(not value.requires_grad for value in state.values())
    weight = target.layers[0].weight
    result = target.load_state_dict(state)
    assert repr(result) == "<All keys matched successfully>"
    assert target.layers[0].weight is weight and weight.is_leaf and weight.requires_grad
    for name, param in target.named_parameters():
        assert param.equal(state[name])


def test_state_dict_shares_memory_with_the_model():
    layer = nn.Linear(1, 1)
    state = layer.state_dict()
    with mg.no_grad():
        layer.weight.fill_(3.0)
    assert state["weight"].item() == 3.0


def test_load_state_dict_reports_missing_unexpected_and_mismatched_keys():
    model = nn.Sequential(nn.Linear(2, 2))
    with pytest.raises(RuntimeError) as error:
        model.load_state_dict({"0.weight": mg.zeros(2, 2), "x": mg.zeros(1)})
    assert str(error.value) == (
        "Error(s) in loading state_dict for Sequential:\n"
        '\tMissing key(s) in state_dict: "0.bias". \n'
        '\tUnexpected key(s) in state_dict: "x". '
    )
    with pytest.raises(RuntimeError) as error:
        model.load_state_dict({"0.weight": mg.zeros(3, 2), "0.bias": mg.zeros(2)})
    assert str(error.value) == (
        "Error(s) in loading state_dict for Sequential:\n"
        "\tsize mismatch for 0.weight: copying a param with shape minigrad.Size([3, 2]) from "
        "checkpoint, the shape in current model is minigrad.Size([2, 2])."
    )
    result = model.load_state_dict({"0.weight": mg.ones(2, 2)}, strict=False)
    assert result.missing_keys == ["0.bias"] and result.unexpected_keys == []
    assert model[0].weight.equal(mg.ones(2, 2))
