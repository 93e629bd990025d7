"""The forward-mode transforms: ``jvp``, ``jacfwd``, and ``hessian`` (forward over reverse).

They push tangents forward through the function with ``minigrad.autograd.forward_ad``:
each input becomes a dual tensor (value and tangent), and every op carries the tangent
along beside the value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import random
from ..autograd import forward_ad
from ..creation import stack, zeros, zeros_like
from ..grad_mode import enable_grad
from ..tensor import Tensor
from ._levels import opened_level, release, track
from ._pytree import tree_flatten, tree_unflatten
from ._reverse import (
    Argnums,
    chosen_arguments,
    gradients,
    jacrev,
    release_tree,
    split_aux,
    with_chosen_replaced,
)
from ._vmap import RANDOM_IN_ERROR_MODE

_JVP = "jvp(f, primals, tangents)"

# Forward mode has one dual level at a time. Inside a forward-mode transform that is
# running (``jacfwd(jacfwd(f))``, ``jvp`` of a ``jvp``), the inner one computes the same
# derivative by reverse mode instead, whose backward ops carry the outer tangents along.
_forward_transforms_running = 0


@contextmanager
def _dual_level() -> Iterator[None]:
    global _forward_transforms_running
    with forward_ad.dual_level():
        _forward_transforms_running += 1
        try:
            yield
        finally:
            _forward_transforms_running -= 1


def _unpacked(tensor: Tensor) -> tuple[Tensor, Tensor]:
    """``(value, tangent)`` of a result, the tangent zeros where none reached it."""
    primal, tangent = forward_ad.unpack_dual(tensor)
    return primal, zeros_like(primal) if tangent is None else tangent


def _outputs_of(output: Any) -> tuple[list[Tensor], Any]:
    outputs, spec = tree_flatten(output)
    for item in outputs:
        if not isinstance(item, Tensor):
            raise RuntimeError(
                f"{_JVP}: expected f(*primals) to return only tensors, got unsupported "
                f"type {type(item)}"
            )
    return outputs, spec


def _primal_tree(tree: Any, level: int) -> Any:
    """``aux`` without its tangents, as the caller receives it."""
    leaves, spec = tree_flatten(tree)
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return tree_unflatten(
        [release(_unpacked(leaf)[0], level, primal=True) for leaf in leaves], spec
    )


def jvp(
    func: Callable[..., Any],
    primals: Any,
    tangents: Any,
    *,
    strict: bool = False,
    has_aux: bool = False,
) -> tuple[Any, ...]:
    """``(func(*primals), J @ tangents)`` in one forward pass: the directional derivative of
    ``func`` at ``primals`` along ``tangents`` (a tuple of the same structure). With
    ``has_aux``: ``(output, jvp_out, aux)``.

    >>> import minigrad as mg
    >>> from minigrad.func import jvp
    >>> jvp(lambda x: x**2, (mg.tensor([1.0, 3.0]),), (mg.tensor([1.0, 0.5]),))
    (tensor([1., 9.]), tensor([2., 3.]))
    """
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    primal_leaves, primal_spec = tree_flatten(primals)
    tangent_leaves, tangent_spec = tree_flatten(tangents)
    if primal_spec != tangent_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {primal_spec} and tangents with structure {tangent_spec}"
        )
    if not primal_leaves:
        raise RuntimeError(f"{_JVP}: Expected primals to contain at least one Tensor.")
    for name, leaves in (("primals", primal_leaves), ("tangents", tangent_leaves)):
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(
                    f"{_JVP}: Expected {name} to only contain Tensors, got {type(leaf)}"
                )
    for primal, tangent in zip(primal_leaves, tangent_leaves, strict=True):
        if primal.shape != tangent.shape:
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                "original Tensor, this is not supported. Tensor is of size "
                f"{list(primal.shape)} while the given forward gradient is of size "
                f"{list(tangent.shape)}."
            )
    if _forward_transforms_running:
        return _jvp_by_reverse_mode(func, primal_leaves, primal_spec, tangent_leaves, has_aux)
    with opened_level() as level, _dual_level():
        duals = [
            forward_ad.make_dual(p, t) for p, t in zip(primal_leaves, tangent_leaves, strict=True)
        ]
        output, aux = split_aux(func(*tree_unflatten(duals, primal_spec)), has_aux, _JVP)
        outputs, output_spec = _outputs_of(output)
        pairs = [_unpacked(o) for o in outputs]
        values = tree_unflatten([release(p, level, primal=True) for p, _ in pairs], output_spec)
        slopes = tree_unflatten([release(t, level) for _, t in pairs], output_spec)
        if has_aux:
            return values, slopes, _primal_tree(aux, level)
        return values, slopes


def _jvp_by_reverse_mode(
    func: Callable[..., Any],
    primals: list[Tensor],
    primal_spec: Any,
    tangents: list[Tensor],
    has_aux: bool,
) -> tuple[Any, ...]:
    """``J v`` by the double backward trick: ``u^T J`` is linear in a dummy ``u``, and its
    derivative with respect to ``u`` along ``v`` is ``J v``."""
    with opened_level() as level:
        received = track(primals, level)
        with enable_grad():
            output, aux = split_aux(func(*tree_unflatten(received, primal_spec)), has_aux, _JVP)
            outputs, output_spec = _outputs_of(output)
            dummies = track([zeros_like(o) for o in outputs], level)
            transposed = gradients(outputs, received, dummies)
            slopes = gradients(transposed, dummies, tangents)
        values = tree_unflatten([release(o, level) for o in outputs], output_spec)
        shown = tree_unflatten([release(t, level) for t in slopes], output_spec)
        if has_aux:
            return values, shown, release_tree(aux, level, check_tensors=True)
        return values, shown


def jacfwd(
    func: Callable[..., Any],
    argnums: Argnums = 0,
    has_aux: bool = False,
    *,
    randomness: str = "error",
) -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` with respect to argument ``argnums``,
    one forward pass per element of the input (one column each): the same result as
    ``jacrev``, cheaper when the input is smaller than the output.

    >>> import minigrad as mg
    >>> from minigrad.func import jacfwd
    >>> jacfwd(lambda x: x**2)(mg.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if randomness not in ("error", "different", "same"):
            raise RuntimeError(
                "Only allowed values for randomness are 'error', 'different', or 'same'. "
                f"Got {randomness}"
            )
        if _forward_transforms_running:
            return jacrev(func, argnums, has_aux=has_aux)(*args, **kwargs)
        chosen = chosen_arguments(args, argnums)
        leaves, input_spec = tree_flatten(chosen)
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")
        # PyTorch's jacfwd runs its passes under vmap, with vmap's rules for random ops:
        # 'error' refuses them, 'same' gives every pass the same numbers.
        start = random.get_rng_state() if randomness == "same" else None
        with opened_level() as level:
            columns: list[list[list[Tensor]]] | None = None
            output_spec = aux = None
            outputs: list[Tensor] = []
            for j, x in enumerate(leaves):
                for element in range(x.numel()):
                    direction = zeros(x.numel(), dtype=x.dtype)
                    direction[element] = 1.0
                    with _dual_level():
                        moved = list(leaves)
                        moved[j] = forward_ad.make_dual(x, direction.reshape(x.shape))
                        call = with_chosen_replaced(
                            args, argnums, tree_unflatten(moved, input_spec)
                        )
                        if start is not None:
                            random.set_rng_state(start)
                        with _refusing_draws(randomness == "error"):
                            output = func(*call, **kwargs)
                        output, aux = split_aux(output, has_aux, _JVP)
                        duals, output_spec = _outputs_of(output)
                        pairs = [_unpacked(o) for o in duals]
                        if has_aux:
                            aux = _primal_tree(aux, level)
                    outputs = [p for p, _ in pairs]
                    if columns is None:
                        columns = [[[] for _ in leaves] for _ in outputs]
                    for k, (_, tangent) in enumerate(pairs):
                        columns[k][j].append(tangent)
            assert columns is not None, "jacfwd needs an input with at least one element"
            blocks = [
                tree_unflatten(
                    [release(_block(columns[k][j], o, x), level) for j, x in enumerate(leaves)],
                    input_spec,
                )
                for k, o in enumerate(outputs)
            ]
            jacobian = tree_unflatten(blocks, output_spec)
            return (jacobian, aux) if has_aux else jacobian

    return wrapper


def _block(columns: list[Tensor], output: Tensor, input: Tensor) -> Tensor:
    """``d output / d input`` from its columns, shaped ``output.shape + input.shape``."""
    if not columns:  # an input with no elements
        return zeros(*output.shape, *input.shape, dtype=output.dtype)
    return stack(columns, dim=-1).reshape((*output.shape, *input.shape))


@contextmanager
def _refusing_draws(refuse: bool) -> Iterator[None]:
    if not refuse:
        yield
        return
    with random.draws_refused(RANDOM_IN_ERROR_MODE):
        yield


def hessian(func: Callable[..., Any], argnums: Argnums = 0) -> Callable[..., Any]:
    """A function returning the Hessian of a scalar ``func``: ``jacfwd(jacrev(func))``,
    forward mode over reverse mode, as PyTorch computes it.

    >>> import minigrad as mg
    >>> from minigrad.func import hessian
    >>> hessian(lambda x: (x**3).sum())(mg.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)
