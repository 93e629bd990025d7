"""Fixtures of the parity tests: ``run_both(scenario)`` runs ``scenario(L, F, log)`` once
with torch and once with minigrad (``L`` the library, ``F`` its ``autograd.function``
module, ``log`` a list the scenario appends what it sees to) and asserts that both logs
are the same; ``leaf(L, values)`` makes a float64 leaf that requires grad."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.autograd.function as mg_function


def _libraries():
    torch = pytest.importorskip("torch")
    import torch.autograd.function as torch_function

    return {"torch": (torch, torch_function), "minigrad": (mg, mg_function)}


def shown(value):
    """A library-neutral account of a value: tensors as nested lists with their dtype."""
    if hasattr(value, "detach") and hasattr(value, "grad_fn"):  # a tensor of either library
        values = np.asarray(value.detach())
        return (
            "tensor",
            (values.round(10) if values.dtype.kind in "fc" else values).tolist(),
            str(value.dtype).split(".")[-1],
        )
    if isinstance(value, tuple | list):
        return tuple(shown(v) for v in value)
    if isinstance(value, str):  # C++ node names: torch::autograd::... in torch
        return value.replace("torch::", "minigrad::")
    return value


def _run_both(scenario):
    results = {}
    for name, (L, F) in _libraries().items():
        log = []
        try:
            scenario(L, F, log)
        except Exception as error:  # the error itself is part of the behaviour compared
            log.append((type(error).__name__, str(error)))
        results[name] = [shown(entry) for entry in log]
    assert results["minigrad"] == results["torch"]
    return results["torch"]


def _leaf(L, values):
    return L.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


@pytest.fixture
def run_both():
    return _run_both


@pytest.fixture
def leaf():
    return _leaf
