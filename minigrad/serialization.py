"""``minigrad.save`` and ``minigrad.load``: tensors, state dicts and optimizer states in
a file that cannot run code when it is loaded.

The file is a zip archive holding ``minigrad.json``, a manifest that describes the saved
object as plain JSON, and one ``.npy`` array per block of memory the tensors use. Loading
reads the JSON, reads the arrays with ``numpy.load(allow_pickle=False)``, and rebuilds the
object from a fixed set of kinds: None, bools, ints, floats, strings, dtypes, tensors
(parameters too), and lists, tuples, dicts and ordered dicts of them. Nothing is
unpickled and no name in the file is ever looked up, so a crafted file can make ``load``
raise, never run code. Anything else is refused when saving, naming its type.

Tensors that share memory (a tensor and a view of it) are saved as one array and share it
again once loaded, as with ``torch.save``; a tensor saved twice comes back as one object.

>>> import io
>>> import minigrad as mg
>>> buffer = io.BytesIO()
>>> mg.save({"w": mg.tensor([1.0, 2.0], requires_grad=True), "step": 3}, buffer)
>>> _ = buffer.seek(0)
>>> mg.load(buffer)
{'w': tensor([1., 2.], requires_grad=True), 'step': 3}
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections import OrderedDict
from typing import IO, Any

import numpy as np

from . import dtypes
from .tensor import Tensor

__all__ = ["save", "load"]

MANIFEST = "minigrad.json"
FORMAT = "minigrad.save"
VERSION = 1

FileLike = str | os.PathLike | IO[bytes]


def _type_name(obj: Any) -> str:
    kind = type(obj)
    return (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )


class _Writer:
    """Turns an object into the manifest's JSON, collecting the arrays to store."""

    def __init__(self) -> None:
        self.storages: list[np.ndarray] = []
        self.storage_of: dict[int, int] = {}  # id(owning array) -> index in storages
        self.tensors: list[dict[str, Any]] = []
        self.tensor_of: dict[int, int] = {}  # id(tensor) -> index in tensors
        self.keep_alive: list[Any] = []  # ids are only unique while their objects live

    def encode(self, obj: Any) -> Any:
        if obj is None or type(obj) in (bool, str):
            return obj
        if type(obj) is int:
            return obj
        if type(obj) is float:
            return {"type": "float", "value": repr(obj)}  # exact, and nan/inf too
        if isinstance(obj, Tensor):
            return {"type": "tensor", "index": self.tensor(obj)}
        if isinstance(obj, dtypes.dtype):
            return {"type": "dtype", "name": obj.name}
        if type(obj) in (list, tuple):
            return {"type": type(obj).__name__, "items": [self.encode(item) for item in obj]}
        if type(obj) in (dict, OrderedDict):
            kind = "dict" if type(obj) is dict else "OrderedDict"
            items = [[self.encode(key), self.encode(value)] for key, value in obj.items()]
            return {"type": kind, "items": items}
        raise TypeError(
            f"minigrad.save cannot store an object of type {_type_name(obj)}: it stores "
            "tensors, None, bools, ints, floats, strings, dtypes, and lists, tuples, dicts "
            "and OrderedDicts of them"
        )

    def tensor(self, tensor: Tensor) -> int:
        if id(tensor) in self.tensor_of:
            return self.tensor_of[id(tensor)]
        array = tensor._array
        owner = array
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        if not owner.flags.c_contiguous or owner.dtype != array.dtype:
            owner = array = np.ascontiguousarray(array)  # saved alone, sharing nothing
        if id(owner) not in self.storage_of:
            self.storage_of[id(owner)] = len(self.storages)
            self.storages.append(owner)
        start = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        self.tensor_of[id(tensor)] = len(self.tensors)
        self.keep_alive += [tensor, owner]
        self.tensors.append(
            {
                "storage": self.storage_of[id(owner)],
                "offset": start,
                "shape": list(array.shape),
                "strides": list(array.strides),
                "requires_grad": tensor.requires_grad,
                "parameter": type(tensor).__name__ == "Parameter",
            }
        )
        return self.tensor_of[id(tensor)]


def save(obj: Any, f: FileLike) -> None:
    """Write ``obj`` (tensors, numbers, strings, None, dtypes, and lists, tuples, dicts of
    them: a ``state_dict()``, an optimizer's ``state_dict()``) to ``f``, a path or a binary
    file. Anything else raises ``TypeError`` naming its type, before anything is written.

    >>> import io
    >>> import minigrad as mg
    >>> mg.save({1, 2}, io.BytesIO())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: minigrad.save cannot store an object of type set: it stores tensors, ...
    """
    writer = _Writer()
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "object": writer.encode(obj),
        "tensors": writer.tensors,
    }
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest))
        for index, storage in enumerate(writer.storages):
            buffer = io.BytesIO()
            np.save(buffer, storage, allow_pickle=False)
            archive.writestr(f"storages/{index}.npy", buffer.getvalue())


class _Reader:
    """Rebuilds an object from the manifest: only the kinds ``_Writer`` writes."""

    def __init__(self, archive: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
        self.archive = archive
        self.described = _expect(manifest.get("tensors"), list, "the tensor list")
        self.storages: dict[int, np.ndarray] = {}
        self.tensors: dict[int, Tensor] = {}

    def decode(self, value: Any) -> Any:
        if value is None or type(value) in (bool, int, str):
            return value
        if type(value) is not dict:
            raise _not_minigrad(f"an entry of type {type(value).__name__}")
        kind = value.get("type")
        if kind == "float":
            return float(_expect(value.get("value"), str, "a float"))
        if kind == "tensor":
            return self.tensor(_expect(value.get("index"), int, "a tensor's index"))
        if kind == "dtype":
            name = value.get("name")
            found = [d for d in dtypes.ALL if d.name == name]
            if not found:
                raise _not_minigrad(f"an unknown dtype {name!r}")
            return found[0]
        if kind in ("list", "tuple"):
            items = [self.decode(item) for item in _expect(value.get("items"), list, kind)]
            return items if kind == "list" else tuple(items)
        if kind in ("dict", "OrderedDict"):
            result: dict[Any, Any] = {} if kind == "dict" else OrderedDict()
            for pair in _expect(value.get("items"), list, kind):
                if type(pair) is not list or len(pair) != 2:
                    raise _not_minigrad("a dict entry that is not a key and a value")
                key = self.decode(pair[0])
                try:
                    result[key] = self.decode(pair[1])
                except TypeError:
                    raise _not_minigrad(f"a dict key of type {_type_name(key)}") from None
            return result
        raise _not_minigrad(f"an object of unknown kind {kind!r}, which minigrad never loads")

    def tensor(self, index: int) -> Tensor:
        if index in self.tensors:
            return self.tensors[index]
        if not 0 <= index < len(self.described):
            raise _not_minigrad(f"a tensor index {index} out of range")
        entry = _expect(self.described[index], dict, "a tensor")
        storage = self.storage(_expect(entry.get("storage"), int, "a storage index"))
        shape = [_expect(n, int, "a size") for n in _expect(entry.get("shape"), list, "a shape")]
        strides = [
            _expect(n, int, "a stride") for n in _expect(entry.get("strides"), list, "strides")
        ]
        offset = _expect(entry.get("offset"), int, "an offset")
        if len(shape) != len(strides) or min(shape + strides + [offset], default=0) < 0:
            raise _not_minigrad("a tensor whose shape, strides or offset are impossible")
        last = offset + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0
        if all(shape) and last + storage.itemsize > storage.nbytes:
            raise _not_minigrad("a tensor that reaches past the end of its storage")
        if offset > storage.nbytes:
            raise _not_minigrad("a tensor that starts past the end of its storage")
        try:
            array = np.ndarray(shape, storage.dtype, storage, offset, strides)
        except (ValueError, TypeError, OverflowError):
            raise _not_minigrad("a tensor its storage cannot hold") from None
        requires_grad = _expect(entry.get("requires_grad"), bool, "requires_grad")
        tensor = Tensor(array, requires_grad=requires_grad)
        if _expect(entry.get("parameter", False), bool, "parameter"):
            from .nn.parameter import Parameter

            tensor = Parameter(tensor, requires_grad=requires_grad)
        self.tensors[index] = tensor
        return tensor

    def storage(self, index: int) -> np.ndarray:
        if index not in self.storages:
            try:
                data = self.archive.read(f"storages/{index}.npy")
            except KeyError:
                raise _not_minigrad(f"no storage {index}") from None
            try:
                array = np.load(io.BytesIO(data), allow_pickle=False)
            except ValueError as error:  # an object array: numpy refuses to unpickle it
                raise _not_minigrad(f"a storage numpy cannot read safely ({error})") from None
            if array.dtype not in dtypes.BY_NUMPY or not array.dtype.isnative:
                raise _not_minigrad(f"a storage of dtype {array.dtype}, not one of minigrad's")
            self.storages[index] = np.ascontiguousarray(array)
        return self.storages[index]


def _expect(value: Any, kind: type, what: str) -> Any:
    if type(value) is not kind:
        raise _not_minigrad(f"{what} that is not a {kind.__name__}")
    return value


def _not_minigrad(what: str) -> ValueError:
    return ValueError(f"minigrad.load: not a valid minigrad file: it holds {what}")


def load(
    f: FileLike, map_location: Any = None, weights_only: bool | None = True, **kwargs: Any
) -> Any:
    """Read what ``minigrad.save`` wrote to ``f`` (a path or a binary file).

    ``map_location`` may be None or the CPU, the only device minigrad has. ``weights_only``
    is always true: minigrad never unpickles, so ``weights_only=False`` is refused. A file
    made by ``torch.save``, a pickle, or anything else that is not minigrad's own raises
    ``ValueError`` without being read further.
    """
    if weights_only is False:
        raise ValueError(
            "minigrad.load never unpickles, so weights_only=False is not supported: a "
            "minigrad file holds only tensors, numbers, strings, dtypes and containers of them"
        )
    _check_cpu(map_location)
    if isinstance(f, str | os.PathLike):
        with open(f, "rb") as file:
            return _load_from(file)
    return _load_from(f)


def _check_cpu(map_location: Any) -> None:
    if map_location is None or callable(map_location) or isinstance(map_location, dict):
        return  # a function or a table of devices can only ever map to the CPU here
    if str(map_location).split(":")[0] != "cpu":
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but minigrad.cuda.is_available() "
            "is False. If you are running on a CPU-only machine, please use minigrad.load with "
            "map_location=minigrad.device('cpu') to map your storages to the CPU."
        )


def _load_from(file: IO[bytes]) -> Any:
    start = file.tell() if file.seekable() else 0
    head = file.read(4)
    file.seek(start)
    if head[:1] == b"\x80":
        raise ValueError(
            "minigrad.load: this is a pickle, not a minigrad file; minigrad never unpickles "
            "(a pickle can run code when it is loaded)"
        )
    if head != b"PK\x03\x04":
        raise ValueError("minigrad.load: not a minigrad file (it is not a zip archive)")
    with zipfile.ZipFile(file) as archive:
        names = archive.namelist()
        if MANIFEST not in names:
            if any(name.endswith("data.pkl") for name in names):
                raise ValueError(
                    "minigrad.load: this is a PyTorch file (made by torch.save), not a "
                    "minigrad file; load it with torch.load, or save it with minigrad.save"
                )
            raise ValueError(f"minigrad.load: not a minigrad file (no {MANIFEST} inside)")
        try:
            manifest = json.loads(archive.read(MANIFEST))
        except ValueError:
            raise _not_minigrad("a manifest that is not JSON") from None
        if type(manifest) is not dict or manifest.get("format") != FORMAT:
            raise ValueError("minigrad.load: not a minigrad file (its manifest is not one)")
        if manifest.get("version") != VERSION:
            raise ValueError(
                f"minigrad.load: this file has format version {manifest.get('version')!r}; "
                f"this minigrad reads version {VERSION}"
            )
        return _Reader(archive, manifest).decode(manifest.get("object"))
