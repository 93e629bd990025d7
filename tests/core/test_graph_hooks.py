"""The hooks of ``autograd.graph`` and ``register_post_accumulate_grad_hook`` without torch
(their parity with torch is in tests/parity/test_hooks_parity.py): gradients worked out by
hand, and graphs freed as without hooks."""

import weakref

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd.graph import (
    allow_mutation_on_saved_tensors,
    register_multi_grad_hook,
    saved_tensors_hooks,
)


def test_a_product_packs_the_other_factor_first():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    packed = []
    with saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        a * b
    assert packed[0] is b and packed[1] is a


def test_post_accumulate_grad_hook_sees_the_summed_gradient_once():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (w * w).sum().backward()  # two contributions, w and w: one call with 2w
    assert seen == [[2.0, 4.0]]


def test_multi_grad_hook_all_gets_none_for_a_tensor_outside_the_pass():
    a = mg.tensor(2.0, requires_grad=True)
    b = mg.tensor(3.0, requires_grad=True)
    calls = []
    register_multi_grad_hook((a, b), lambda grads: calls.append(grads))
    (a * 5).backward()
    assert len(calls) == 1 and calls[0][0].item() == 5.0 and calls[0][1] is None


def test_a_saved_tensor_changed_in_place_gives_the_gradient_of_the_values_saved():
    with allow_mutation_on_saved_tensors():
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 1
        y = (h**3).sum()  # dy/dx = 3h², h as it was
        h.mul_(10)
        y.backward()
    assert x.grad.tolist() == [3.0, 12.0]
    assert h.tolist() == [10.0, 20.0]


def test_without_the_context_the_change_is_refused():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = (h**3).sum()
    h.mul_(10)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_a_graph_made_in_the_context_is_freed_without_the_garbage_collector(gc_disabled):
    with allow_mutation_on_saved_tensors():
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()  # saves its result
        refs = [weakref.ref(h), weakref.ref(h.grad_fn)]
        del h
        assert [r() for r in refs] == [None, None]


def test_numpy_of_a_tensor_that_requires_grad_under_no_grad_shares_memory():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        array = w.numpy()
    array[0] = 5.0
    assert w.tolist() == [5.0, 2.0]
    assert np.shares_memory(w.numpy(force=True), array)
