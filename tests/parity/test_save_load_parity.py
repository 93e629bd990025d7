"""minigrad.save / load beside torch.save / load: what a round trip keeps is what PyTorch
keeps, and a file made by torch.save is recognised and refused, not read."""

from __future__ import annotations

import io

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def round_trip(L, obj):
    buffer = io.BytesIO()
    L.save(obj, buffer)
    buffer.seek(0)
    return L.load(buffer)


def test_a_torch_file_is_refused_as_one_and_not_read(tmp_path):
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 2).state_dict(), path)
    with pytest.raises(ValueError, match=r"this is a PyTorch file \(made by torch.save\)"):
        mg.load(path)


def test_what_a_round_trip_keeps_is_what_pytorch_keeps():
    def seen(L):
        leaf = L.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
        base = L.arange(6.0).reshape(2, 3)
        loaded = round_trip(L, {"base": base, "row": base[1], "t": base.t(), "computed": leaf * 2})
        loaded["base"][1, 0] = 100.0
        computed = loaded["computed"]
        return (
            loaded["row"].tolist(),
            np.asarray(loaded["t"].detach()).tolist(),
            loaded["row"]._base is None,  # sharing memory, yet not a view of the base
            (computed.requires_grad, computed.is_leaf, computed.grad_fn is None),
            type(round_trip(L, L.nn.Linear(2, 2).state_dict())).__name__,
        )

    assert seen(mg) == seen(torch)
