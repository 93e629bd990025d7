"""tensor_repr must match torch's own repr, character for character (torch. -> minigrad.)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad.printing import set_printoptions, tensor_repr

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

SETTINGS = settings(max_examples=300, deadline=None)

# Values that steer torch's formatter: whole numbers (int mode), tiny and huge magnitudes
# (sci mode), and the values left out of its decisions (zeros, nan, inf).
SPECIAL = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, 1e-5, 1e-4, 1e8, 1e9]


def float_elements(dtype: type) -> st.SearchStrategy[float]:
    info = np.finfo(dtype)
    exact_ints = 2 ** (info.nmant + 1)  # every integer up to this is exactly representable
    return st.one_of(
        st.floats(width=info.bits),  # anything, including nan, inf and subnormals
        st.floats(-1e4, 1e4, width=info.bits),
        st.integers(-min(exact_ints, 10**6), min(exact_ints, 10**6)).map(float),
        st.sampled_from([v for v in SPECIAL if not math.isfinite(v) or abs(v) <= float(info.max)]),
    )


ELEMENTS = {
    np.float16: float_elements(np.float16),
    np.float32: float_elements(np.float32),
    np.float64: float_elements(np.float64),
    np.int8: st.integers(-128, 127),
    np.int16: st.integers(-(2**15), 2**15 - 1),
    np.int32: st.integers(-(2**31), 2**31 - 1),
    np.int64: st.one_of(st.integers(-100, 100), st.integers(-(2**63), 2**63 - 1)),
    np.uint8: st.integers(0, 255),
    np.bool_: st.booleans(),
}


@st.composite
def small_arrays(draw: st.DrawFn, dtypes: tuple[type, ...] = tuple(ELEMENTS)) -> np.ndarray:
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=12))
    return draw(hnp.arrays(dtype, shape, elements=ELEMENTS[dtype]))


@st.composite
def large_arrays(draw: st.DrawFn) -> np.ndarray:
    """Arrays above the 1000-element threshold, so that torch summarizes them with '...'."""
    shape = draw(st.sampled_from([(2000,), (1001,), (40, 30), (3, 400), (11, 10, 10), (2, 3, 200)]))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int64, np.bool_]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([1.0, 1e-6, 1e6, 1e10]))
    values = rng.standard_normal(shape) * scale
    if draw(st.booleans()):
        values = np.round(values)
    if draw(st.booleans()):
        values.flat[rng.integers(0, values.size, 5)] = [math.nan, math.inf, -math.inf, 0.0, -0.0]
    if dtype == np.bool_:
        return values > 0
    if dtype == np.int64:
        return np.nan_to_num(values, posinf=7, neginf=-7).astype(np.int64)
    return values.astype(dtype)


def torch_repr(tensor: "torch.Tensor") -> str:
    return repr(tensor).replace("torch.", "minigrad.")


@SETTINGS
@given(small_arrays())
def test_matches_torch(array: np.ndarray) -> None:
    assert tensor_repr(array) == torch_repr(torch.from_numpy(array.copy()))


@settings(max_examples=60, deadline=None)
@given(large_arrays())
def test_summarized_matches_torch(array: np.ndarray) -> None:
    assert tensor_repr(array) == torch_repr(torch.from_numpy(array.copy()))


@SETTINGS
@given(small_arrays(dtypes=(np.float16, np.float32, np.float64)))
def test_requires_grad_suffix_matches_torch(array: np.ndarray) -> None:
    leaf = torch.from_numpy(array.copy()).requires_grad_(True)
    assert tensor_repr(array, requires_grad=True) == torch_repr(leaf)


@SETTINGS
@given(small_arrays(dtypes=(np.float16, np.float32, np.float64)))
def test_grad_fn_suffix_matches_torch(array: np.ndarray) -> None:
    product = torch.from_numpy(array.copy()).requires_grad_(True) * 1
    assert type(product.grad_fn).__name__ == "MulBackward0"
    # grad_fn wins over requires_grad, exactly as in torch.
    expected = torch_repr(product)
    assert tensor_repr(array, grad_fn_name="MulBackward0") == expected
    assert tensor_repr(array, requires_grad=True, grad_fn_name="MulBackward0") == expected


DEFAULT_OPTIONS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80}
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 5, 20, 1000]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "sci_mode": st.sampled_from([True, False]),
    },
)


@SETTINGS
@given(array=small_arrays(), options=OPTIONS)
def test_printoptions_match_torch(array: np.ndarray, options: dict) -> None:
    requires_grad = array.dtype.kind == "f"
    try:
        torch.set_printoptions(profile="default", **options)
        set_printoptions(**{**DEFAULT_OPTIONS, **options})
        expected = torch_repr(torch.from_numpy(array.copy()).requires_grad_(requires_grad))
        assert tensor_repr(array, requires_grad=requires_grad) == expected
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(**DEFAULT_OPTIONS)
