"""Random numbers: ``Generator`` objects, the default one that ``manual_seed`` seeds, and
``multinomial``.

Every random function (``randn``, ``rand``, ``randint``, ``randperm``, ``normal``,
``multinomial``, ``nn.init``'s fills, dropout) takes PyTorch's ``generator=`` keyword and
draws from that generator, or from ``default_generator`` when none is given. A generator
is reproducible per seed: two generators given the same seed draw the same numbers, and
drawing from one leaves every other (the default one included) where it was.

The numbers are minigrad's own, not PyTorch's: a generator is numpy's PCG64 bit generator
(``numpy.random.default_rng(seed)``), so ``minigrad.manual_seed(0)`` and
``torch.manual_seed(0)`` give different samples of the same distributions. Each function
draws with one numpy call, in float64 (cast to the tensor's dtype after): ``randn`` with
``standard_normal``, ``rand`` with ``random``, ``randint`` with ``integers``, ``randperm``
with ``permutation``, ``normal`` with ``normal``, ``multinomial`` with ``choice`` per row
(then ``permutation`` of the categories of weight 0, when those are drawn too).

>>> import minigrad as mg
>>> g = mg.Generator().manual_seed(2147483647)
>>> a = mg.randn(3, generator=g)
>>> b = mg.randn(3, generator=mg.Generator().manual_seed(2147483647))
>>> bool((a == b).all()), g.initial_seed()
(True, 2147483647)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from . import dtypes
from .device import CPU, device, to_device
from .tensor import Tensor

_SEED_RANGE = 2**64  # seeds are unsigned 64-bit numbers, as in PyTorch; -1 is 2**64 - 1
_STATE_BYTES = 16 * 2 + 1 + 4 + 8  # PCG64's state and increment, its spare 32 bits, the seed


class Generator:
    """A source of random numbers with a state of its own: ``generator=g`` in ``randn``,
    ``randint``, ``multinomial``, ... draws from ``g`` and from nothing else.

    A new generator starts from seed 0, as minigrad's default generator does (PyTorch's
    start from 67280421310721); ``manual_seed`` reseeds it and returns it, so that
    ``g = minigrad.Generator().manual_seed(42)`` makes and seeds one in a line.

    >>> import minigrad as mg
    >>> g = mg.Generator()
    >>> g.manual_seed(7) is g, g.initial_seed(), g.device
    (True, 7, device(type='cpu'))
    """

    def __init__(self, device: Any = "cpu") -> None:
        to_device(device)  # the CPU only, with PyTorch's errors for anything else
        self._reseed(0)

    def __repr__(self) -> str:  # as PyTorch prints its generators, address included
        return f"<minigrad.Generator object at {id(self):#x}>"

    @property
    def device(self) -> device:
        """Where the generator's numbers are made: the CPU."""
        return CPU

    def _reseed(self, seed: int) -> None:
        self._seed = seed
        self._numbers = np.random.default_rng(seed)

    def manual_seed(self, seed: Any) -> Generator:
        """Start the generator again from ``seed`` (an int; a negative one wraps round
        2⁶⁴, as in PyTorch) and return the generator."""
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            kind = "Tensor" if isinstance(seed, Tensor) else type(seed).__name__
            raise RuntimeError(f"manual_seed expected a long, but got {kind}")
        seed = int(seed)
        if not -(2**63) <= seed < _SEED_RANGE:
            raise ValueError("Overflow when unpacking long long")
        self._reseed(seed % _SEED_RANGE)
        return self

    def seed(self) -> int:
        """Seed the generator from the operating system's entropy, and return that seed
        (to write down, to repeat an interesting run)."""
        seed = int.from_bytes(os.urandom(8), "little")
        self._reseed(seed)
        return seed

    def initial_seed(self) -> int:
        """The seed the generator was last started from."""
        return self._seed

    def get_state(self) -> Tensor:
        """The generator's whole state as a ``uint8`` tensor, for ``set_state`` to go back
        to: the draws after ``set_state(state)`` repeat those after ``get_state()``.

        >>> import minigrad as mg
        >>> g = mg.Generator().manual_seed(3)
        >>> state = g.get_state()
        >>> first = mg.rand(2, generator=g)
        >>> bool((mg.rand(2, generator=g.set_state(state)) == first).all())
        True
        """
        bits = self._numbers.bit_generator.state
        fields = (
            (bits["state"]["state"], 16),
            (bits["state"]["inc"], 16),
            (bits["has_uint32"], 1),
            (bits["uinteger"], 4),
            (self._seed, 8),
        )
        raw = b"".join(int(value).to_bytes(size, "little") for value, size in fields)
        return Tensor(np.frombuffer(raw, dtype=np.uint8).copy())

    def set_state(self, new_state: Tensor) -> Generator:
        """Go back to a state that ``get_state`` returned; returns the generator."""
        if not isinstance(new_state, Tensor):
            kind = type(new_state).__name__
            raise TypeError(f"expected a minigrad.ByteTensor, but got {kind}")
        if new_state.dtype != dtypes.uint8:  # PyTorch words a tensor of another type so
            raise TypeError("RNG state must be a minigrad.ByteTensor")
        raw = new_state._array.tobytes()
        if len(raw) != _STATE_BYTES:
            raise RuntimeError(
                f"Expected a minigrad generator state of size {_STATE_BYTES} but found the "
                f"input RNG state size to be {len(raw)}"
            )
        fields, start = [], 0
        for size in (16, 16, 1, 4, 8):
            fields.append(int.from_bytes(raw[start : start + size], "little"))
            start += size
        state, increment, has_spare, spare, seed = fields
        self._reseed(seed)
        self._numbers.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": increment},
            "has_uint32": has_spare,
            "uinteger": spare,
        }
        return self


# The generator that every random function uses when it is given none.
default_generator = Generator()


# Why draws are refused right now, innermost last: ``minigrad.func.vmap`` with
# ``randomness='error'`` refuses every random op run by the function it maps.
_refusals: list[str] = []


@contextmanager
def draws_refused(message: str) -> Iterator[None]:
    """Inside this block every random op raises ``RuntimeError(message)`` instead of drawing.

    >>> with draws_refused("no random numbers here"):
    ...     numbers_of(None, "rand")
    Traceback (most recent call last):
    RuntimeError: no random numbers here
    """
    _refusals.append(message)
    try:
        yield
    finally:
        _refusals.pop()


def numbers_of(generator: Any, function: str, *args: Any) -> np.random.Generator:
    """The numpy generator to draw from: ``generator``'s, or the default one's. Anything
    else is refused with the opening of PyTorch's message for ``function(*args, ...)``."""
    if _refusals:
        raise RuntimeError(_refusals[-1])
    if generator is None:
        return default_generator._numbers
    if not isinstance(generator, Generator):
        given = "".join(f"{type(arg).__name__}, " for arg in args)
        raise TypeError(
            f"{function}() received an invalid combination of arguments - got ({given}"
            f"generator={type(generator).__name__}), but expected a minigrad.Generator "
            "for generator"
        )
    return generator._numbers


def checked_generator(generator: Any, function: str) -> np.random.Generator:
    """As ``numbers_of``, with the message PyTorch gives where ``generator`` is the one
    keyword that may be wrong (``multinomial``, ``normal_``)."""
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(
            f"{function}(): argument 'generator' must be minigrad.Generator, not "
            f"{type(generator).__name__}"
        )
    return numbers_of(generator, function)


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator, so that a notebook draws the same numbers every run;
    returns it (``minigrad.default_generator``).

    >>> import minigrad as mg
    >>> _ = mg.manual_seed(1)
    >>> first = mg.rand(2)
    >>> _ = mg.manual_seed(1)
    >>> bool((mg.rand(2) == first).all())
    True
    """
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the operating system's entropy; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last started from."""
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state (``Generator.get_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    """Put the default generator back in a state ``get_rng_state`` returned."""
    default_generator.set_state(new_state)


def multinomial(
    input: Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Generator | None = None,
) -> Tensor:
    """Draw ``num_samples`` category indices (int64) from the weights in each row of
    ``input`` (1-D, or 2-D for one draw per row); the weights need not sum to 1. Without
    ``replacement`` a category is drawn at most once per row. Nothing is recorded: indices
    have no gradient.

    >>> import minigrad as mg
    >>> g = mg.Generator().manual_seed(0)
    >>> mg.multinomial(mg.tensor([0.0, 1.0, 0.0]), 2, replacement=True, generator=g)
    tensor([1, 1])
    """
    numbers = checked_generator(generator, "multinomial")
    weights = input._array
    if weights.dtype.kind != "f":
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            f"{dtypes.from_numpy_dtype(weights.dtype).scalar_type}"
        )
    if weights.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    categories = weights.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    rows = weights.reshape(-1, categories).astype(np.float64)
    if not np.all(np.isfinite(rows)) or np.any(rows < 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    totals = rows.sum(axis=1)
    if np.any(totals <= 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    drawn = np.stack(
        [
            _draw(numbers, row / total, num_samples, replacement)
            for row, total in zip(rows, totals, strict=True)
        ]
    )
    return Tensor(drawn.reshape(*weights.shape[:-1], num_samples))


def _draw(numbers: np.random.Generator, p: np.ndarray, count: int, replacement: bool) -> np.ndarray:
    """``count`` indices drawn with probabilities ``p``. Without replacement, categories of
    probability 0 come last, after every other one was drawn, as in PyTorch (numpy's
    ``choice`` would refuse them)."""
    if replacement:
        return numbers.choice(len(p), size=count, p=p).astype(np.int64)
    possible = np.flatnonzero(p)
    first = numbers.choice(possible, size=min(count, len(possible)), replace=False, p=p[possible])
    rest = numbers.permutation(np.flatnonzero(p == 0))[: count - len(first)]
    return np.concatenate([first, rest]).astype(np.int64)
