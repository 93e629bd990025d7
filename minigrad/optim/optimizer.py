"""``Optimizer``: the base class every optimizer in ``minigrad.optim`` is built on.

It keeps what all of them share, as ``torch.optim.Optimizer`` does:

- ``param_groups``: a list of dicts, each with its ``"params"`` and its own settings
  (``lr``, ``momentum``, ...); settings a group leaves out come from ``defaults``;
- ``state``: per-parameter memory (a momentum buffer, Adam's running averages), keyed by
  the parameter tensor itself;
- ``zero_grad()``, ``state_dict()`` / ``load_state_dict()``, ``add_param_group()``.

A subclass only writes ``__init__`` (checking its settings) and ``step()`` (the update rule).

>>> import minigrad as mg
>>> from minigrad import optim
>>> w = mg.tensor([1.0], requires_grad=True)
>>> optimizer = optim.SGD([w], lr=0.1, momentum=0.9)
>>> w.grad = mg.tensor([1.0])
>>> optimizer.step()
>>> optimizer.state_dict()["state"]  # parameters are named by their position
{0: {'momentum_buffer': tensor([1.])}}
>>> optimizer.state_dict()["param_groups"][0]["params"], optimizer.param_groups[0]["lr"]
([0], 0.1)
"""

from __future__ import annotations

import functools
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from copy import deepcopy
from itertools import chain
from typing import Any

import minigrad as mg

__all__ = ["Optimizer"]


def _type_name(value: Any) -> str:
    """How PyTorch names a type in the optimizer's messages: ``minigrad.FloatTensor``, ``int``."""
    if isinstance(value, mg.Tensor):
        return value.type_description().split(" [")[0]
    return type(value).__name__


class Optimizer:
    """Base class of optimizers: holds ``param_groups`` and per-parameter ``state``.

    ``params`` is an iterable of tensors, or of dicts (parameter groups) each with a
    ``"params"`` entry and, optionally, its own settings, such as ``{"params": ..., "lr": 0.01}``.
    Settings a group leaves out come from ``defaults``.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step" in vars(cls):  # a profiler shows each step as "Optimizer.step#SGD.step"
            cls.step = _timed_step(cls.step, f"Optimizer.step#{cls.__name__}.step")

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        # Per-parameter memory, such as SGD's momentum buffer; tensors hash by identity.
        # Looking a parameter up gives it an empty dict, as in PyTorch.
        self.state: defaultdict[mg.Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, mg.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_type_name(params)}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    # -- parameter groups ------------------------------------------------------------------
    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters, with its own settings, to be optimized too.

        Useful to train layers unfrozen part way through, or to give one part of a model
        its own learning rate. A failed call leaves the optimizer as it was.
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        params = [params] if isinstance(params, mg.Tensor) else list(params)
        for param in params:
            if not isinstance(param, mg.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _type_name(param)
                )
            if not (param.is_leaf or param.retains_grad):
                # Updating a computed tensor would not change the leaves it came from.
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in params}) != len(params):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                "more information",
                UserWarning,
                stacklevel=3,
            )
        already = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in already for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        group = {**param_group, "params": params}
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        self.param_groups.append(group)

    # -- gradients -------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient before the next ``backward()``.

        ``set_to_none=True`` (PyTorch's default) makes each ``.grad`` ``None``, so a
        parameter that gets no gradient in the next backward is skipped by ``step()``.
        ``set_to_none=False`` keeps the tensors and fills them with zeros in place, cut off
        from any graph they were part of (after ``backward(create_graph=True)``).

        >>> import minigrad as mg
        >>> from minigrad import optim
        >>> w = mg.tensor([1.0], requires_grad=True)
        >>> w.grad = mg.tensor([3.0])
        >>> optim.SGD([w]).zero_grad(set_to_none=False)
        >>> w.grad
        tensor([0.])
        """
        # Shown by a profiler as PyTorch's is (a record_function does nothing outside one).
        with mg.autograd.profiler.record_function(
            f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"
        ):
            for group in self.param_groups:
                for param in group["params"]:
                    grad = param.grad
                    if grad is None:
                        continue
                    if set_to_none:
                        param.grad = None
                        continue
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    @staticmethod
    def _parameters_with_grad(group: dict[str, Any]) -> Iterator[mg.Tensor]:
        """The group's parameters that received a gradient: ``step()`` leaves the others."""
        return (param for param in group["params"] if param.grad is not None)

    @staticmethod
    def _evaluate(closure: Callable[[], Any] | None) -> Any:
        """Run ``step(closure)``'s closure (with gradients on) and return its loss."""
        if closure is None:
            return None
        with mg.enable_grad():
            return closure()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update the parameters from their gradients (each optimizer writes its own)."""
        raise NotImplementedError

    # -- saving and restoring --------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's memory, as PyTorch lays it out, ready to save.

        ``{"state": {index: {...}}, "param_groups": [{..., "params": [index, ...]}]}``:
        parameters are named by their position across the groups, not stored. The state
        tensors are the optimizer's own (not copies), as in PyTorch: copy the dict
        (``copy.deepcopy``) to keep a snapshot while training goes on.
        """
        index_of: dict[int, int] = {}
        for param in chain.from_iterable(g["params"] for g in self.param_groups):
            index_of.setdefault(id(param), len(index_of))
        groups = [
            {
                **{key: value for key, value in group.items() if key != "params"},
                "params": [index_of[id(p)] for p in group["params"]],
            }
            for group in self.param_groups
        ]
        state = {
            (index_of[id(key)] if isinstance(key, mg.Tensor) else key): value
            for key, value in self.state.items()
        }
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take back a ``state_dict()``: the settings of each group and each parameter's state.

        The optimizer must hold the same number of groups and parameters per group; the
        parameters stay this optimizer's own, matched by position.
        """
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(
            len(saved["params"]) != len(group["params"])
            for saved, group in zip(saved_groups, self.param_groups)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        param_of = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in self.param_groups),
            )
        )
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in param_of:
                param = param_of[key]
                state[param] = _matched_to(param, value)
            else:
                state[key] = value
        for saved, group in zip(saved_groups, self.param_groups):
            saved["params"] = group["params"]
        self.state = state
        self.param_groups = saved_groups

    def __getstate__(self) -> dict[str, Any]:
        # What copy.deepcopy and pickle keep: the settings, groups and state, not the step
        # a scheduler may have wrapped (it refers to this very optimizer), as in PyTorch.
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _timed_step(step: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``step``, timed under ``name`` when a profiler is open."""

    @functools.wraps(step)
    def timed_step(self: Optimizer, *args: Any, **kwargs: Any) -> Any:
        with mg.autograd.profiler.record_function(name):
            return step(self, *args, **kwargs)

    return timed_step


def _lerp_(start: mg.Tensor, end: mg.Tensor, weight: float) -> mg.Tensor:
    """``start += weight·(end − start)`` in place (a running average moving towards ``end``),
    rounded as PyTorch's ``lerp_`` rounds: from the nearer end, so that a weight near 1 does
    not lose ``end``'s low bits."""
    if abs(weight) < 0.5:
        return start.add_(end - start, alpha=weight)
    return start.copy_(end - (end - start) * (1 - weight))


def _matched_to(param: mg.Tensor, value: Any, key: str | None = None) -> Any:
    """A loaded state value in the parameter's dtype (the step counter keeps its own)."""
    if isinstance(value, mg.Tensor):
        if key != "step" and param.is_floating_point():
            return value.to(param.dtype)
        return value
    if isinstance(value, dict):
        return {k: _matched_to(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_matched_to(param, v) for v in value)
    return value
