"""The reverse-mode transforms: ``grad``, ``grad_and_value``, ``vjp`` and ``jacrev``.

Each runs the function once on tensors made for it (see ``_levels``) and asks
``autograd.grad`` for the derivatives with ``create_graph=True``, so that the result can
be differentiated again by an enclosing transform.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..autograd import grad as autograd_grad
from ..creation import ones_like, stack, zeros, zeros_like
from ..grad_mode import enable_grad
from ..tensor import Tensor
from ._levels import opened_level, release, track
from ._pytree import TreeSpec, tree_flatten, tree_unflatten

Argnums = int | tuple[int, ...]


# --------------------------------------------------------------------------- arguments
def check_argnums(argnums: Any, count: int) -> tuple[int, ...]:
    """``argnums`` as a tuple of non-negative positions, refused in PyTorch's words."""
    if isinstance(argnums, int):
        positions: tuple[Any, ...] = (argnums,)
    elif isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        positions = argnums
    else:
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    normalized = []
    for position in positions:
        if not isinstance(position, int):
            raise RuntimeError(f"argnum must be int, got: {type(position)}")
        if not -count <= position < count:
            raise RuntimeError(f"Got argnum={position}, but only {count} positional inputs")
        normalized.append(position % count)
    if len(set(normalized)) != len(normalized):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(normalized)


def chosen_arguments(args: tuple[Any, ...], argnums: Any) -> Any:
    """The argument ``argnums`` names, or the tuple of those it names."""
    positions = check_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return args[positions[0]]
    return tuple(args[i] for i in positions)


def with_chosen_replaced(args: tuple[Any, ...], argnums: Any, chosen: Any) -> tuple[Any, ...]:
    """``args`` with the arguments ``argnums`` names replaced by ``chosen``."""
    positions = check_argnums(argnums, len(args))
    replaced = list(args)
    values = (chosen,) if isinstance(argnums, int) else chosen
    for position, value in zip(positions, values, strict=True):
        replaced[position] = value
    return tuple(replaced)


def split_aux(output: Any, has_aux: bool, caller: str) -> tuple[Any, Any]:
    """``(output, aux)``: with ``has_aux`` the function must return a pair."""
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(
            f"{caller}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return output


def release_tree(tree: Any, level: int, check_tensors: bool = False) -> Any:
    """``release`` each leaf of ``tree`` (an ``aux``, which must hold only tensors)."""
    leaves, spec = tree_flatten(tree)
    if check_tensors:
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return tree_unflatten([release(leaf, level) for leaf in leaves], spec)


def gradients(
    outputs: list[Tensor],
    inputs: list[Tensor],
    cotangents: list[Tensor],
) -> list[Tensor]:
    """``sum_k cotangent_k^T d output_k / d input`` for each input, zeros where an input
    has no path to the outputs; kept differentiable for an enclosing transform."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents, strict=True) if o.requires_grad]
    if not pairs:
        return [zeros_like(x) for x in inputs]
    found = autograd_grad(
        [o for o, _ in pairs],
        inputs,
        [c for _, c in pairs],
        retain_graph=True,
        create_graph=True,
        allow_unused=True,
    )
    return [zeros_like(x) if g is None else g for g, x in zip(found, inputs, strict=True)]


# --------------------------------------------------------------------------- grad
def grad_and_value(
    func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """A function returning ``(gradient, value)`` of ``func`` (which must return a scalar
    tensor) with respect to argument ``argnums``; with ``has_aux`` it returns
    ``(gradient, (value, aux))``.

    >>> import minigrad as mg
    >>> from minigrad.func import grad_and_value
    >>> grad_and_value(lambda x: (x**2).sum())(mg.tensor([1.0, 2.0]))
    (tensor([2., 4.]), tensor(5.))
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        caller = "grad_and_value(f)(*args)"
        chosen = chosen_arguments(args, argnums)
        with opened_level() as level:
            leaves, spec = tree_flatten(chosen)
            received = track(leaves, level)
            call_args = with_chosen_replaced(args, argnums, tree_unflatten(received, spec))
            with enable_grad():
                output, aux = split_aux(func(*call_args, **kwargs), has_aux, caller)
                if not isinstance(output, Tensor):
                    raise RuntimeError(
                        f"{caller}: Expected f(*args) to return a Tensor, got {type(output)}"
                    )
                if output.dim() != 0:
                    raise RuntimeError(
                        f"{caller}: Expected f(*args) to return a scalar Tensor, got tensor "
                        f"with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                        "APIs instead?"
                    )
                found = gradients([output], received, [ones_like(output)])
            gradient = tree_unflatten([release(g, level) for g in found], spec)
            value = release(output, level)
            if has_aux:
                return gradient, (value, release_tree(aux, level, check_tensors=True))
            return gradient, value

    return wrapper


def grad(
    func: Callable[..., Any], argnums: Argnums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """A function returning the gradient of ``func`` (which must return a scalar tensor)
    with respect to argument ``argnums`` (an int, or a tuple of them for a tuple of
    gradients); an argument may be a dict, list or tuple of tensors, and its gradient has
    the same structure. With ``has_aux`` ``func`` returns ``(value, aux)`` and the result is
    ``(gradient, aux)``. Transforms nest: ``grad(grad(f))`` is a second derivative.

    >>> import minigrad as mg
    >>> from minigrad.func import grad
    >>> grad(lambda x: x.sin())(mg.tensor(0.0))
    tensor(1.)
    >>> grad(grad(lambda x: x**3))(mg.tensor(2.0))
    tensor(12.)
    """
    with_value = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gradient, value = with_value(*args, **kwargs)
        if has_aux:
            return gradient, value[1]
        return gradient

    return wrapper


# --------------------------------------------------------------------------- vjp
def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` is the tuple of
    ``cotangents^T J`` for each primal, where ``cotangents`` has the structure of
    ``func``'s output. With ``has_aux``: ``(output, vjp_fn, aux)``.

    >>> import minigrad as mg
    >>> from minigrad.func import vjp
    >>> output, vjp_fn = vjp(lambda x: x**2, mg.tensor([1.0, 3.0]))
    >>> vjp_fn(mg.tensor([1.0, 0.5]))
    (tensor([2., 3.]),)
    """
    caller = "vjp(f, *primals)"
    with opened_level() as level:
        leaves, primal_spec = tree_flatten(primals)
        received = track(leaves, level)
        with enable_grad():
            output, aux = split_aux(func(*tree_unflatten(received, primal_spec)), has_aux, caller)
        outputs, output_spec = _only_tensors(output, caller)

    def vjp_fn(cotangents: Any, retain_graph: bool = True, create_graph: bool | None = None) -> Any:
        given, given_spec = tree_flatten(cotangents)
        if given_spec != output_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {given_spec.brief()}, primal "
                f"output: {output_spec.brief()}"
            )
        for index, (cotangent, out) in enumerate(zip(given, outputs, strict=True)):
            if not isinstance(cotangent, Tensor):
                raise TypeError(
                    f"gradients can be either Tensors or None, but got {type(cotangent).__name__}"
                )
            if cotangent.shape != out.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{index}] has a shape of "
                    f"{cotangent.shape} and output[{index}] has a shape of {out.shape}."
                )
        with enable_grad():
            found = gradients(outputs, received, given)
        return tree_unflatten([release(g, level) for g in found], primal_spec)

    shown = tree_unflatten([release(o, level) for o in outputs], output_spec)
    if has_aux:
        return shown, vjp_fn, release_tree(aux, level, check_tensors=True)
    return shown, vjp_fn


def _only_tensors(output: Any, caller: str) -> tuple[list[Tensor], TreeSpec]:
    outputs, spec = tree_flatten(output)
    for item in outputs:
        if not isinstance(item, Tensor):
            raise RuntimeError(
                f"{caller}: expected f(*primals) to return only tensors, got unsupported "
                f"type {type(item)}"
            )
    return outputs, spec


# --------------------------------------------------------------------------- jacrev
def jacrev(
    func: Callable[..., Any],
    argnums: Argnums = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    _preallocate_and_copy: bool = False,
) -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` with respect to argument ``argnums``,
    one backward pass per element of the output: entry ``[i..., j...]`` is
    ``d output[i...] / d input[j...]``, so its shape is ``output.shape + input.shape``.
    Outputs and inputs may be pytrees; the result nests the input's structure inside the
    output's. ``chunk_size`` is accepted (and checked) as PyTorch's is; minigrad always
    runs one backward pass per row.

    >>> import minigrad as mg
    >>> from minigrad.func import jacrev
    >>> jacrev(lambda x: x**2)(mg.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        caller = "vjp(f, *primals)"
        chosen = chosen_arguments(args, argnums)
        with opened_level() as level:
            leaves, input_spec = tree_flatten(chosen)
            received = track(leaves, level)
            call_args = with_chosen_replaced(args, argnums, tree_unflatten(received, input_spec))
            with enable_grad():
                output, aux = split_aux(func(*call_args, **kwargs), has_aux, caller)
                outputs, output_spec = _only_tensors(output, caller)
                blocks = [
                    tree_unflatten(
                        [release(b, level) for b in _jacobian_rows(out, received)], input_spec
                    )
                    for out in outputs
                ]
            jacobian = tree_unflatten(blocks, output_spec)
            if has_aux:
                return jacobian, release_tree(aux, level, check_tensors=True)
            return jacobian

    return wrapper


def _jacobian_rows(output: Tensor, inputs: list[Tensor]) -> list[Tensor]:
    """``d output / d input`` for each input, shaped ``output.shape + input.shape``: one
    vjp per element of ``output``, with the cotangent that picks that element."""
    count = output.numel()
    if count == 0:
        return [zeros(*output.shape, *x.shape, dtype=x.dtype) for x in inputs]
    rows: list[list[Tensor]] = [[] for _ in inputs]
    for element in range(count):
        pick = zeros(count, dtype=output.dtype)
        pick[element] = 1.0
        for row, found in zip(
            rows, gradients([output], inputs, [pick.reshape(output.shape)]), strict=True
        ):
            row.append(found)
    return [
        stack(row).reshape((*output.shape, *x.shape)) for row, x in zip(rows, inputs, strict=True)
    ]
