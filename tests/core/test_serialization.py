"""minigrad.save / minigrad.load: round trips of everything a training script saves, and
files that must be refused, never run, when loaded."""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim


def round_trip(obj):
    buffer = io.BytesIO()
    mg.save(obj, buffer)
    buffer.seek(0)
    return mg.load(buffer)


@pytest.mark.parametrize("dtype", [d for d in mg.dtypes.ALL])
def test_tensors_of_every_dtype_and_shape_come_back_equal(dtype):
    for shape in [(), (0,), (3,), (2, 3, 4)]:
        values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 2
        tensor = mg.tensor(values).to(dtype)
        loaded = round_trip(tensor)
        assert loaded.dtype == dtype and loaded.shape == tensor.shape
        assert np.array_equal(loaded.numpy(), tensor.numpy())
        assert not loaded.requires_grad


def test_requires_grad_and_parameters_are_kept_and_a_computed_tensor_loads_as_a_leaf():
    leaf = mg.tensor([1.0, 2.0], requires_grad=True)
    loaded = round_trip({"leaf": leaf, "computed": leaf * 2, "weight": nn.Parameter(mg.ones(2))})
    assert loaded["leaf"].requires_grad and loaded["leaf"].is_leaf
    assert loaded["computed"].requires_grad and loaded["computed"].grad_fn is None
    assert type(loaded["weight"]) is nn.Parameter and loaded["weight"].requires_grad


def test_views_share_memory_again_and_a_tensor_saved_twice_is_one_object():
    base = mg.arange(6.0).reshape(2, 3)
    row, transposed = base[1], base.t()
    loaded = round_trip({"base": base, "row": row, "t": transposed, "again": base})
    assert loaded["again"] is loaded["base"]
    assert loaded["t"].numpy().strides == transposed.numpy().strides  # still transposed
    loaded["base"][1, 0] = 100.0
    assert loaded["row"].tolist() == [100.0, 4.0, 5.0]
    assert loaded["t"][0, 1].item() == 100.0
    assert base[1, 0].item() == 3.0  # nothing shared with what was saved


def test_containers_numbers_strings_and_dtypes_keep_their_types():
    obj = {
        "list": [1, 2.5, True, None, "text"],
        "tuple": (0.9, 0.999),
        "ordered": OrderedDict([("b", 1), ("a", 2)]),
        3: {"nested": [float("inf"), -0.0]},
        "dtype": mg.float64,
        "big": 2**70,
    }
    loaded = round_trip(obj)
    assert loaded == obj
    assert type(loaded["tuple"]) is tuple and type(loaded["ordered"]) is OrderedDict
    assert list(loaded["ordered"]) == ["b", "a"] and loaded["dtype"] is mg.float64
    assert type(loaded["list"][0]) is int and type(loaded["list"][2]) is bool
    assert str(loaded[3]["nested"][1]) == "-0.0"
    assert np.isnan(round_trip(float("nan")))


def test_a_path_works_as_well_as_a_file_object(tmp_path):
    path = tmp_path / "weights.mg"
    mg.save([mg.tensor([1.0])], path)
    assert mg.load(str(path))[0].tolist() == [1.0]
    assert mg.load(path, map_location="cpu")[0].tolist() == [1.0]


def test_a_state_dict_loads_into_a_fresh_module_that_then_computes_the_same():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    saved = round_trip(model.state_dict())
    assert type(saved) is OrderedDict and list(saved) == list(model.state_dict())
    mg.manual_seed(1)
    fresh = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    fresh.load_state_dict(saved)
    x = mg.randn(5, 3)
    assert np.array_equal(fresh(x).detach().numpy(), model(x).detach().numpy())


def make_optimizer(kind, params):
    if kind == "sgd":
        return optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True)
    return optim.Adam(params, lr=0.01, betas=(0.8, 0.9))


def train(model, optimizer, steps):
    x, target = mg.linspace(-1, 1, 12).reshape(4, 3), mg.ones(4, 2)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), target).backward()
        optimizer.step()


@pytest.mark.parametrize("kind", ["sgd", "adam"])
def test_training_resumed_from_a_saved_checkpoint_continues_identically(kind):
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    optimizer = make_optimizer(kind, model.parameters())
    train(model, optimizer, 3)
    checkpoint = round_trip({"model": model.state_dict(), "optimizer": optimizer.state_dict()})
    train(model, optimizer, 3)

    mg.manual_seed(5)
    resumed = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    resumed.load_state_dict(checkpoint["model"])
    resumed_optimizer = make_optimizer(kind, resumed.parameters())
    resumed_optimizer.load_state_dict(checkpoint["optimizer"])
    train(resumed, resumed_optimizer, 3)
    for a, b in zip(model.parameters(), resumed.parameters()):
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())


@pytest.mark.parametrize(
    "obj, named",
    [
        ({1, 2}, "set"),
        (np.zeros(2), "numpy.ndarray"),
        (print, "builtin_function_or_method"),
        ({"inner": [object()]}, "object"),
        (np.float32(1.0), "numpy.float32"),
        ({"x": frozenset()}, "frozenset"),
    ],
)
def test_anything_else_is_refused_when_saving_naming_its_type(obj, named):
    buffer = io.BytesIO()
    with pytest.raises(TypeError, match=rf"cannot store an object of type {named}:"):
        mg.save(obj, buffer)
    assert buffer.getvalue() == b""  # refused before anything was written


class WritesAMarker:
    """A payload that, if it were ever unpickled, would write a file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (_write_marker, (self.path,))


def _write_marker(path):
    with open(path, "w") as file:
        file.write("executed")


def test_a_pickle_that_would_run_code_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "marker"
    payload = pickle.dumps(WritesAMarker(str(marker)))
    pickle.loads(payload)  # the payload works: unpickling it does write the marker
    assert marker.exists()
    marker.unlink()
    with pytest.raises(ValueError, match="this is a pickle, not a minigrad file"):
        mg.load(io.BytesIO(payload))
    with pytest.raises(ValueError, match="never unpickles"):
        mg.load(io.BytesIO(payload), weights_only=False)
    assert not marker.exists()


def crafted(manifest, members=()):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("minigrad.json", json.dumps(manifest))
        for name, data in members:
            archive.writestr(name, data)
    buffer.seek(0)
    return buffer


def good_manifest(obj, tensors=()):
    return {"format": "minigrad.save", "version": 1, "object": obj, "tensors": list(tensors)}


def test_a_manifest_naming_a_class_or_function_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "marker"
    for evil in [
        {"type": "builtins.eval", "items": [f"open({str(marker)!r}, 'w')"]},
        {"type": "tests.core.test_serialization._write_marker", "args": [str(marker)]},
        {"type": "list", "items": [{"type": "os.system", "items": ["touch " + str(marker)]}]},
    ]:
        with pytest.raises(ValueError, match="unknown kind"):
            mg.load(crafted(good_manifest(evil)))
    assert not marker.exists()


def test_an_npy_holding_pickled_objects_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "marker"
    array = np.empty(1, dtype=object)
    array[0] = WritesAMarker(str(marker))
    npy = io.BytesIO()
    np.save(npy, array, allow_pickle=True)
    tensor = {"storage": 0, "offset": 0, "shape": [1], "strides": [8], "requires_grad": False}
    file = crafted(
        good_manifest({"type": "tensor", "index": 0}, [tensor]),
        [("storages/0.npy", npy.getvalue())],
    )
    with pytest.raises(ValueError, match="numpy cannot read safely"):
        mg.load(file)
    assert not marker.exists()


def test_a_tensor_reaching_outside_its_storage_is_refused():
    npy = io.BytesIO()
    np.save(npy, np.zeros(4, dtype=np.float32))
    for shape, strides, offset in [([5], [4], 0), ([2], [4], 12), ([2], [-4], 4), ([2], [4], -4)]:
        tensor = {"storage": 0, "offset": offset, "shape": shape, "strides": strides}
        tensor["requires_grad"] = False
        file = crafted(
            good_manifest({"type": "tensor", "index": 0}, [tensor]),
            [("storages/0.npy", npy.getvalue())],
        )
        with pytest.raises(ValueError, match="not a valid minigrad file"):
            mg.load(file)


def test_other_files_are_refused_with_what_they_are():
    torch_like = io.BytesIO()
    with zipfile.ZipFile(torch_like, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02.")
        archive.writestr("archive/version", b"3\n")
    torch_like.seek(0)
    with pytest.raises(ValueError, match=r"this is a PyTorch file \(made by torch.save\)"):
        mg.load(torch_like)
    with pytest.raises(ValueError, match="not a minigrad file"):
        mg.load(io.BytesIO(b"hello"))
    with pytest.raises(ValueError, match="format version 2"):
        mg.load(crafted({"format": "minigrad.save", "version": 2}))
    with pytest.raises(RuntimeError, match="map_location=minigrad.device"):
        mg.load(io.BytesIO(b""), map_location="cuda:0")
