"""``vmap``: a function that works on one example, made to work on a batch.

PyTorch runs the function once on "batched tensors" that carry the batch dimension
inside every op. minigrad runs it once per example and stacks the results: the values are
the same, and because every slice and the final stack are ordinary differentiable ops,
gradients flow through as well (docs/pytorch.md says what the difference in mechanism
changes).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import random
from ..creation import stack, zeros
from ..tensor import Tensor
from ._pytree import broadcast_prefix, tree_flatten, tree_unflatten

_RANDOMNESS = ("error", "different", "same")
RANDOM_IN_ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
    "of vmap"
)


def _name(func: Callable[..., Any]) -> str:
    return getattr(func, "__name__", repr(func))


def vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable[..., Any]:
    """``func`` mapped over a dimension of its inputs: ``in_dims`` says which dimension of
    each positional argument is the batch (an int for all, or a tuple with one entry per
    argument, nested as the arguments are; None for an argument that is shared), and
    ``out_dims`` where the batch dimension goes in each output. Keyword arguments are
    shared. ``randomness`` is ``'error'`` (a random op inside raises), ``'different'``
    or ``'same'`` (every example draws the same numbers). ``chunk_size`` is accepted as in
    PyTorch; minigrad always runs one example at a time.

    >>> import minigrad as mg
    >>> from minigrad.func import vmap
    >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> vmap(mg.dot)(x, x)
    tensor([ 5., 25.])
    >>> vmap(lambda row, scale: row * scale, in_dims=(1, None))(x, mg.tensor(10.0))
    tensor([[10., 30.],
            [20., 40.]])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. "
            f"Got {randomness}"
        )
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        name = _name(func)
        slices, batch_size = _batched_inputs(name, in_dims, args)
        # Under 'same' every example starts from the random state the first one starts from.
        start = random.get_rng_state() if randomness == "same" else None
        results = []
        for leaves in slices.examples(batch_size):
            if start is not None:
                random.set_rng_state(start)
            results.append(_run_one(func, tree_unflatten(leaves, slices.spec), kwargs, randomness))
        if batch_size == 0:
            # An empty batch: one run on an example of zeros gives the outputs' shapes,
            # and none of its values are kept.
            example = tree_unflatten(slices.example_of_zeros(), slices.spec)
            results.append(_run_one(func, example, kwargs, randomness))
        return _stacked(name, out_dims, results, batch_size)

    return wrapped


class _Slices:
    """The flattened positional arguments and the batch dimension of each (None: shared)."""

    def __init__(self, leaves: list[Any], dims: list[int | None], spec: Any) -> None:
        self.leaves, self.dims, self.spec = leaves, dims, spec

    def examples(self, batch_size: int) -> Any:
        for index in range(batch_size):
            yield [
                leaf if dim is None else leaf.select(dim, index)
                for leaf, dim in zip(self.leaves, self.dims, strict=True)
            ]

    def example_of_zeros(self) -> list[Any]:
        """An example shaped as one of the batch would be, for a batch of none."""
        return [
            leaf
            if dim is None
            else zeros(*leaf.shape[:dim], *leaf.shape[dim + 1 :], dtype=leaf.dtype)
            for leaf, dim in zip(self.leaves, self.dims, strict=True)
        ]


def _batched_inputs(name: str, in_dims: Any, args: tuple[Any, ...]) -> tuple[_Slices, int]:
    """Check ``in_dims`` against ``args`` as PyTorch does, in its words."""
    if not args:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            "trying to vmap over a function with no inputs. The latter is unsupported."
        )
    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, int | tuple):
        raise ValueError(
            f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching "
            f"the structure of inputs, got: {type(in_dims)}."
        )
    leaves, spec = tree_flatten(args)
    dims = broadcast_prefix(in_dims, spec)
    if dims is None:
        raise ValueError(
            f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
            f"structure {tree_flatten(in_dims)[1]} but inputs has structure {spec}."
        )
    sizes = []
    for index, (leaf, dim) in enumerate(zip(leaves, dims, strict=True)):
        if dim is None:
            continue
        if not isinstance(dim, int):
            raise ValueError(
                f"{where}: Got in_dim={dim} for an input but in_dim must be either an integer "
                "dimension or None."
            )
        if not isinstance(leaf, Tensor):
            raise ValueError(
                f"{where}: Got in_dim={dim} for an input but the input is of type "
                f"{type(leaf)}. We cannot vmap over non-Tensor arguments, please use None as "
                "the respective in_dim"
            )
        rank = leaf.dim()
        if not -rank <= dim < rank:
            raise ValueError(
                f"{where}: Got in_dim={dim} for some input, but that input is a Tensor of "
                f"dimensionality {rank} so expected in_dim to satisfy -{rank} <= in_dim < {rank}."
            )
        dims[index] = dim % rank
        sizes.append(leaf.shape[dim])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        )
    return _Slices(leaves, dims, spec), sizes[0]


def _run_one(
    func: Callable[..., Any], example: Any, kwargs: dict[str, Any], randomness: str
) -> Any:
    """``func`` on one example; under ``'error'`` a random draw raises PyTorch's error."""
    if randomness != "error":
        return func(*example, **kwargs)
    with random.draws_refused(RANDOM_IN_ERROR_MODE):
        return func(*example, **kwargs)


def _stacked(name: str, out_dims: Any, results: list[Any], batch_size: int) -> Any:
    """One output from the per-example outputs: each leaf stacked at its ``out_dim``
    (and cut to nothing along it for an empty batch)."""
    flattened = [tree_flatten(result) for result in results]
    leaves_per_example = [leaves for leaves, _ in flattened]
    spec = flattened[0][1]
    if not isinstance(out_dims, int | tuple | list | dict) and out_dims is not None:
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
            "python collection of ints representing where in the outputs the vmapped "
            "dimension should appear."
        )
    dims = broadcast_prefix(out_dims, spec)
    if spec.is_leaf and isinstance(out_dims, tuple) and len(out_dims) == 1:
        dims = list(out_dims)  # PyTorch also reads (d,) as d for a single output
    if dims is None:
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
            f"with the structure of `outputs`. out_dims has structure "
            f"{tree_flatten(out_dims)[1]} but outputs has structure {spec}."
        )
    stacked = []
    for position, dim in enumerate(dims):
        column = [leaves[position] for leaves in leaves_per_example]
        if dim is None:
            stacked.append(_shared(name, column))
            continue
        for value in column:
            if not isinstance(value, Tensor):
                raise ValueError(
                    f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                    f"{type(value)}. Did you mean to set out_dims= to None for output?"
                )
        together = stack(column, dim=dim)
        if batch_size == 0:
            before = (slice(None),) * (dim % together.dim())
            together = together[(*before, slice(0, 0))]
        stacked.append(together)
    return tree_unflatten(stacked, spec)


def _shared(name: str, column: list[Any]) -> Any:
    """An output with ``out_dim=None`` must not depend on the example: every run returned
    the same object, or tensors holding the same values."""
    first = column[0]
    same = all(value is first for value in column) or (
        isinstance(first, Tensor)
        and all(isinstance(v, Tensor) and v.shape == first.shape for v in column)
        and all(bool((v == first).all()) for v in column)
    )
    if not same:
        raise ValueError(
            f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None"
        )
    return first
