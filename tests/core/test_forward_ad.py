"""Forward mode's machinery (``minigrad.tangents``) beyond what torch's API shows: nested
levels for the function transforms, tangents that views share, and nothing paid or kept
without a level."""

from __future__ import annotations

import math

import pytest

import minigrad as mg
import minigrad.autograd.forward_ad as fwAD
from minigrad import tangents


def test_nested_levels_give_second_derivatives():
    """PyTorch's API allows one level; minigrad.func nests them through enter_level: the
    tangent at the inner level, itself dual at the outer one, carries f''."""
    outer = tangents.enter_level()
    try:
        x = fwAD.make_dual(mg.tensor(0.7, dtype=mg.float64), mg.tensor(1.0, dtype=mg.float64))
        inner = tangents.enter_level(nested_ok=True)
        y = fwAD.make_dual(x, mg.tensor(1.0, dtype=mg.float64), level=inner)
        first = fwAD.unpack_dual((y**3).sin(), level=inner).tangent
        fwAD.exit_dual_level(level=inner)
        second = fwAD.unpack_dual(first, level=outer).tangent
    finally:
        fwAD.exit_dual_level(level=outer)
    assert first.item() == pytest.approx(math.cos(0.7**3) * 3 * 0.7**2)
    expected = -math.sin(0.7**3) * 9 * 0.7**4 + math.cos(0.7**3) * 6 * 0.7
    assert second.item() == pytest.approx(expected)


def test_a_view_shares_its_base_tangent():
    with fwAD.dual_level():
        base = fwAD.make_dual(mg.zeros(2, 3), mg.zeros(2, 3))
        row = base[1]
        fwAD.unpack_dual(base).tangent.fill_(0.0)  # the tangent is the tensor given
        base.add_(fwAD.make_dual(mg.ones(2, 3), mg.full((2, 3), 4.0)))
        assert fwAD.unpack_dual(row).tangent.tolist() == [4.0, 4.0, 4.0]


def test_forward_of_a_function_sees_plain_values():
    seen = []

    class Spy(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(fwAD.unpack_dual(x).tangent)
            return x * 2

        @staticmethod
        def jvp(ctx, x_t):
            return x_t * 2

    with fwAD.dual_level():
        out = Spy.apply(fwAD.make_dual(mg.tensor([1.0]), mg.tensor([3.0])))
        assert fwAD.unpack_dual(out).tangent.tolist() == [6.0]
    assert len(seen) == 1 and seen[0] is None


def test_no_level_no_tangent_and_nothing_kept():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).exp()
    assert y._tangents is None and x._tangents is None  # the class default, untouched
    assert tangents.open_levels == [] and tangents.hidden_levels == []
    with fwAD.dual_level():
        dual = fwAD.make_dual(mg.tensor(1.0), mg.tensor(1.0))
        result = dual.exp()
    assert tangents.open_levels == [] and tangents.hidden_levels == []
    assert not result._tangents and not dual._tangents


def test_leaving_a_level_after_an_error_still_closes_it():
    with pytest.raises(ValueError), fwAD.dual_level():
        raise ValueError("inside")
    assert tangents.open_levels == []
    with fwAD.dual_level() as level:
        assert level == 0


def test_dual_level_as_a_decorator():
    @fwAD.dual_level()
    def tangent_of_square(value, direction):
        return fwAD.unpack_dual(fwAD.make_dual(value, direction) ** 2).tangent

    assert tangent_of_square(mg.tensor(3.0), mg.tensor(1.0)).item() == 6.0
    assert tangents.open_levels == []
