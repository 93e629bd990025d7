"""Devices, as PyTorch names them: minigrad computes on the CPU only.

Code written for PyTorch says where its tensors live (``device="cpu"``, ``x.to(device)``,
``torch.cuda.is_available()``); minigrad accepts all of it and answers as a PyTorch build
without CUDA does: asking for a CUDA device raises the error such a build raises.

>>> import minigrad as mg
>>> mg.device("cpu")
device(type='cpu')
>>> mg.zeros(2).device
device(type='cpu')
>>> mg.cuda.is_available()
False
"""

from __future__ import annotations

from typing import Any

__all__ = ["device", "get_default_device", "set_default_device", "to_device"]

# Every device type PyTorch's parser knows, in the order its error message lists them.
_KNOWN_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
    "vulkan, mps, meta, hpu, mtia, privateuseone"
)
_TYPES = frozenset(_KNOWN_TYPES.split(", "))
NO_CUDA = "Torch not compiled with CUDA enabled"


class device:  # noqa: N801 - PyTorch's spelling, as in ``torch.device``
    """Where a tensor lives: ``device("cpu")``, ``device("cpu", 0)`` or ``device("cuda:0")``.

    >>> device("cpu", 0)
    device(type='cpu', index=0)
    >>> str(device("cuda:1")), device("cpu") == device("cpu")
    ('cuda:1', True)
    """

    __slots__ = ("_type", "_index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): argument 'type' must be str, not device")
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            # device(0) means accelerator 0, and a CPU-only build has none
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif not isinstance(type, str):
            kind = type.__class__.__name__
            raise TypeError(f"device() received an invalid combination of arguments - got ({kind})")
        name, _, given_index = type.partition(":")
        if name not in _TYPES:
            raise RuntimeError(
                f"Expected one of {_KNOWN_TYPES} device type at start of device string: {type}"
            )
        if given_index:
            if index is not None:
                raise RuntimeError(
                    "type (string) must not include an index because index was passed "
                    f"explicitly: {type}"
                )
            if not given_index.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(given_index)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self._type, self._index = name, index

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self) -> int | None:
        return self._index

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return NotImplemented
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))


CPU = device("cpu")
_default = CPU


def to_device(value: Any) -> device:
    """The device that ``value`` (a device, a string like ``"cpu"``, or None for the
    default) names, after checking that minigrad can hold tensors there: the CPU only.

    >>> to_device("cuda")
    Traceback (most recent call last):
    AssertionError: Torch not compiled with CUDA enabled
    """
    if value is None:
        value = _default
    place = value if isinstance(value, device) else device(value)
    if place.type == "cuda":
        raise AssertionError(NO_CUDA)
    if place.type != "cpu":
        raise NotImplementedError(
            f"Could not run an operator with arguments from the '{place.type.upper()}' "
            "backend: minigrad computes on the CPU only."
        )
    return place


def set_default_device(value: Any) -> None:
    """The device that creation functions use when none is given (the CPU, or None for it)."""
    global _default
    _default = CPU if value is None else (value if isinstance(value, device) else device(value))


def get_default_device() -> device:
    return _default
