"""``forward_ad.record_steps()``: one ``ForwardStep`` per op that computed a tangent, in the
order the ops ran, with what the forward stepper draws (the contract of ``ForwardStep``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import minigrad as mg
import minigrad.autograd.forward_ad as fwAD
import minigrad.ops as ops
from minigrad.engine import ForwardStep


def test_one_step_per_op_in_order_with_values_and_tangents():
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        x = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 0.5]))
        w = mg.tensor([3.0, -1.0])
        y = (x * w).exp().sum()
    assert [step.index for step in steps] == [0, 1, 2]
    assert [step.name for step in steps] == ["MulBackward0", "ExpBackward0", "SumBackward0"]
    assert [step.formula for step in steps] == [
        ops.Mul.jvp_formula,
        ops.Exp.jvp_formula,
        ops.Sum.jvp_formula,
    ]
    mul, exp, total = steps
    assert mul.inputs[0].tolist() == [1.0, 2.0] and mul.inputs[1].tolist() == [3.0, -1.0]
    assert mul.input_tangents[0].tolist() == [1.0, 0.5]
    assert mul.input_tangents[1] is None  # w is a constant: no tangent
    assert mul.output_tangent.tolist() == [3.0, -0.5]
    assert exp.inputs[0].tolist() == mul.output.tolist()
    np.testing.assert_allclose(exp.output_tangent.numpy(), np.exp([3.0, -2.0]) * [3.0, -0.5])
    np.testing.assert_allclose(total.output.numpy(), y.detach().numpy())
    assert total.output_tangent.item() == pytest.approx(exp.output_tangent.sum().item())


def test_records_are_frozen_and_detached():
    x = mg.tensor(2.0, requires_grad=True)
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        dual = fwAD.make_dual(x, mg.tensor(1.0))
        y = dual * dual
    (step,) = steps
    assert step.node is y.grad_fn  # recorded: the node backward would run
    assert step.name == y.grad_fn.name()
    assert not step.output.requires_grad and not step.inputs[0].requires_grad
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.index = 5
    assert isinstance(step, ForwardStep)
    assert [field.name for field in dataclasses.fields(ForwardStep)] == [
        "index",
        "name",
        "formula",
        "inputs",
        "input_tangents",
        "output",
        "output_tangent",
        "node",
    ]


def test_name_without_a_backward_graph():
    """The name is the node's, even when nothing requires grad and no node is made."""
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        x = fwAD.make_dual(mg.ones(2, 3), mg.ones(2, 3))
        x.sum(dim=1)
        x.max()
        x[0]
        x.permute(1, 0)
    assert [step.name for step in steps] == [
        "SumBackward1",
        "MaxBackward1",
        "SelectBackward0",
        "PermuteBackward0",
    ]
    assert all(step.node is None for step in steps)


def test_only_ops_that_computed_a_tangent_are_recorded():
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        constant = mg.tensor([1.0, 2.0]) * 3  # no tangent anywhere: not a step
        x = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 1.0]))
        (x + constant).tanh()
    assert [step.name for step in steps] == ["AddBackward0", "TanhBackward0"]


def test_nothing_is_recorded_outside_the_block():
    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor(1.0), mg.tensor(1.0))
        with fwAD.record_steps() as steps:
            y = x.sin()
        y.cos()  # after the block
    assert [step.name for step in steps] == ["SinBackward0"]


def test_nested_recorders_each_see_the_steps_numbered_from_zero():
    with fwAD.dual_level(), fwAD.record_steps() as outer:
        x = fwAD.make_dual(mg.tensor(1.0), mg.tensor(1.0))
        x.exp()
        with fwAD.record_steps() as inner:
            x.log()
    assert [(s.index, s.name) for s in outer] == [(0, "ExpBackward0"), (1, "LogBackward0")]
    assert [(s.index, s.name) for s in inner] == [(0, "LogBackward0")]


def test_the_tangents_computed_by_a_jvp_are_not_steps():
    """A jvp computes with Tensor ops (tangent × cos a): those are not the user's ops."""
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        fwAD.make_dual(mg.tensor([0.5]), mg.tensor([1.0])).sin()
    assert [step.name for step in steps] == ["SinBackward0"]


def test_in_place_ops_are_steps():
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        x = fwAD.make_dual(mg.zeros(3), mg.ones(3))
        x.mul_(2)
    assert [step.name for step in steps] == ["MulBackward0"]
    assert steps[0].output_tangent.tolist() == [2.0, 2.0, 2.0]


def test_no_cost_and_no_tangent_without_a_level():
    assert not mg.tangents.open_levels and not mg.tangents.step_recorders
    with fwAD.record_steps() as steps:
        (mg.tensor([1.0]) * 2).exp()
    assert steps == []


def test_a_user_function_is_a_step():
    class Double(mg.autograd.Function):
        jvp_formula = "2·ẋ"

        @staticmethod
        def forward(ctx, x, y):
            return x * 2, y * 1

        @staticmethod
        def backward(ctx, grad_x, grad_y):
            return grad_x * 2, grad_y

        @staticmethod
        def jvp(ctx, x_t, y_t):
            return x_t * 2, y_t

    x = mg.tensor([1.0], requires_grad=True)
    with fwAD.dual_level(), fwAD.record_steps() as steps:
        doubled, same = Double.apply(fwAD.make_dual(x, mg.tensor([3.0])), mg.tensor([5.0]))
    # forward's own x * 2 sees no tangent, so it is no step; the Function's outputs are
    assert [(s.name, s.formula) for s in steps] == [("DoubleBackward", "2·ẋ")] * 2
    assert steps[0].input_tangents[0].tolist() == [3.0] and steps[0].input_tangents[1] is None
    assert steps[0].output_tangent.tolist() == [6.0] and steps[1].output_tangent.tolist() == [0.0]
    assert steps[0].node is doubled.grad_fn
