"""``functional_call``: run a module with parameters and buffers given in a dict instead of
its own, so that a loss can be written as a function of the parameters and handed to
``grad`` or ``vmap``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..nn import Module
from ..tensor import Tensor


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: dict[str, Any] | list[dict[str, Any]] | tuple[dict[str, Any], ...],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """``module(*args, **kwargs)`` with each tensor named in ``parameter_and_buffer_dicts``
    (``'0.weight'``, ``'bn.running_mean'``, ...) standing in for the module's own, which are
    put back afterwards. A single non-tuple ``args`` is one positional argument. With
    ``tie_weights`` a tensor the module shares under two names is replaced under both;
    with ``strict`` every parameter and buffer must be given, and nothing else.

    >>> import minigrad as mg
    >>> from minigrad.func import functional_call
    >>> layer = mg.nn.Linear(2, 1)
    >>> given = {"weight": mg.tensor([[1.0, 2.0]]), "bias": mg.tensor([0.5])}
    >>> functional_call(layer, given, (mg.tensor([[3.0, 4.0]]),))
    tensor([[11.5000]])
    """
    values = _merged(parameter_and_buffer_dicts)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    tied = _tied_names(module) if tie_weights else {}
    values = _with_tied(values, tied)
    if strict:
        _check_keys(module, values)
    with _reparametrized(module, values):
        return module(*args, **(kwargs or {}))


def _merged(given: Any) -> dict[str, Any]:
    if isinstance(given, dict):
        return dict(given)
    if not (isinstance(given, list | tuple) and all(isinstance(d, dict) for d in given)):
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, "
            f"but got {type(given)}"
        )
    merged: dict[str, Any] = {}
    repeated: list[str] = []
    for values in given:
        repeated += [key for key in values if key in merged]
        merged.update(values)
    if repeated:
        raise ValueError(
            f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
            "ambiguous"
        )
    return merged


def _own_tensors(module: Module) -> list[tuple[str, Tensor]]:
    """Every parameter and buffer under each name it has (a shared one under each)."""
    return [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]


def _tied_names(module: Module) -> dict[str, list[str]]:
    """For each name of a tensor the module holds under several names, all those names."""
    names_of: dict[int, list[str]] = {}
    for name, tensor in _own_tensors(module):
        names_of.setdefault(id(tensor), []).append(name)
    return {name: names for names in names_of.values() if len(names) > 1 for name in names}


def _with_tied(values: dict[str, Any], tied: dict[str, list[str]]) -> dict[str, Any]:
    """``values`` with each tied name filled in from the one given among its group."""
    completed = dict(values)
    for name in values:
        group = tied.get(name, [])
        given = [other for other in group if other in values]
        if len({id(values[other]) for other in given}) > 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(given)}, which are "
                "tied. Consider using tie_weights=False"
            )
        for other in group:
            completed.setdefault(other, values[name])
    return completed


def _check_keys(module: Module, values: dict[str, Any]) -> None:
    own = {name for name, _ in _own_tensors(module)}
    unexpected = sorted(set(values) - own)
    missing = sorted(own - set(values))
    problems = []
    if unexpected:
        problems.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        problems.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if problems:
        raise RuntimeError(
            f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(problems)
        )


def _owner(module: Module, dotted: str) -> tuple[Module, str]:
    """The submodule that holds ``dotted`` (``'0.weight'``) and the attribute's own name."""
    *path, attribute = dotted.split(".")
    owner = module
    for part in path:
        if part not in owner._modules:
            raise AttributeError(f"{type(owner).__name__} has no attribute `{part}`")
        owner = owner._modules[part]
    return owner, attribute


@contextmanager
def _reparametrized(module: Module, values: dict[str, Any]) -> Iterator[None]:
    """Swap the given tensors into their modules' registries for the block, then restore."""
    restore: list[tuple[dict[str, Any], str, Any, bool]] = []
    try:
        for dotted, value in values.items():
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"{value!r} is not an instance of minigrad.Tensor")
            owner, name = _owner(module, dotted)
            registry = next(
                (r for r in (owner._parameters, owner._buffers) if name in r), owner.__dict__
            )
            restore.append((registry, name, registry.get(name), name in registry))
            registry[name] = value
        yield
    finally:
        for registry, name, old, existed in reversed(restore):
            if existed:
                registry[name] = old
            else:
                del registry[name]
