"""tensor_repr against literal strings, each one copied from PyTorch 2.13's own repr."""

import numpy as np
import pytest

from minigrad.printing import set_printoptions, tensor_repr

f32 = np.float32
nan, inf = float("nan"), float("inf")


def f(values: object) -> np.ndarray:
    """A float32 array: minigrad's (and torch's) default dtype."""
    return np.array(values, dtype=f32)


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        # scalars
        (f(5.0), "tensor(5.)"),
        (f(0.1), "tensor(0.1000)"),
        (f(-0.0), "tensor(-0.)"),
        (np.array(3), "tensor(3)"),
        (np.array(True), "tensor(True)"),
        (np.array(3.5), "tensor(3.5000, dtype=minigrad.float64)"),
        # vectors: fixed point, whole numbers as "1.", right-aligned columns
        (f([2, 2, 1.5]), "tensor([2.0000, 2.0000, 1.5000])"),
        (f([123.456, 0.5]), "tensor([123.4560,   0.5000])"),
        (f([1, -20, 300]), "tensor([  1., -20., 300.])"),
        (np.array([1, -20, 300]), "tensor([  1, -20, 300])"),
        (np.array([-(2**63), 7]), "tensor([-9223372036854775808,                    7])"),
        (np.array([True, False]), "tensor([ True, False])"),
        # scientific notation: ratio above 1000, or a tiny / huge magnitude
        (f([1e-5, 1]), "tensor([1.0000e-05, 1.0000e+00])"),
        (f([1e9, 1]), "tensor([1.0000e+09, 1.0000e+00])"),
        # zeros, nan and inf do not take part in choosing the style
        (f([nan, inf, 1]), "tensor([nan, inf, 1.])"),
        (f([nan, -inf]), "tensor([nan, -inf])"),
        (f([-0.0, 1]), "tensor([-0., 1.])"),
        (f([0, 0]), "tensor([0., 0.])"),
        # non-default dtypes are named
        (np.arange(3, dtype=np.int32), "tensor([0, 1, 2], dtype=minigrad.int32)"),
        (np.arange(3, dtype=np.uint8), "tensor([0, 1, 2], dtype=minigrad.uint8)"),
        (np.array([0.5, 2], np.float16), "tensor([0.5000, 2.0000], dtype=minigrad.float16)"),
        # empty tensors: a shape other than (0,) and every non-float32 dtype are shown
        (f([]), "tensor([])"),
        (np.zeros((2, 0), f32), "tensor([], size=(2, 0))"),
        (np.zeros(0, np.int64), "tensor([], dtype=minigrad.int64)"),
        (np.zeros((0, 3), bool), "tensor([], size=(0, 3), dtype=minigrad.bool)"),
    ],
)
def test_one_line(array: np.ndarray, expected: str) -> None:
    assert tensor_repr(array) == expected


def test_matrix_rows_align_under_first_bracket() -> None:
    expected = "tensor([[ 1.0000,  2.5000,  3.0000],\n        [ 4.0000,  5.0000, -6.0000]])"
    assert tensor_repr(f([[1, 2.5, 3], [4, 5, -6]])) == expected


def test_3d_blocks_are_separated_by_a_blank_line() -> None:
    expected = (
        "tensor([[[ 0,  1,  2],\n"
        "         [ 3,  4,  5]],\n"
        "\n"
        "        [[ 6,  7,  8],\n"
        "         [ 9, 10, 11]]])"
    )
    assert tensor_repr(np.arange(12).reshape(2, 2, 3)) == expected


def test_summarizes_above_1000_elements() -> None:
    assert tensor_repr(np.arange(2000)) == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"


def test_summarized_matrix_elides_middle_rows_and_wraps_long_rows() -> None:
    expected = (
        "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
        "         4.9000e+01],\n"
        "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n"
        "         9.9000e+01],\n"
        "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n"
        "         1.4900e+02],\n"
        "        ...,\n"
        "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n"
        "         1.8990e+03],\n"
        "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n"
        "         1.9490e+03],\n"
        "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
        "         1.9990e+03]])"
    )
    assert tensor_repr(np.arange(2000, dtype=f32).reshape(40, 50)) == expected


def test_long_row_wraps_at_80_columns() -> None:
    expected = (
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
        "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
        "        28., 29.], grad_fn=<MulBackward0>)"
    )
    assert tensor_repr(np.arange(30, dtype=f32), grad_fn_name="MulBackward0") == expected


def test_suffix_moves_to_its_own_line_when_it_would_pass_80_columns() -> None:
    row = "tensor([1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000],\n"
    assert tensor_repr(f([1.5] * 9), grad_fn_name="MulBackward0") == (
        row + "       grad_fn=<MulBackward0>)"
    )
    assert tensor_repr(f([1.5] * 9), requires_grad=True) == row + "       requires_grad=True)"
    assert tensor_repr(np.full(9, 1.5)) == row + "       dtype=minigrad.float64)"


def test_line_breaks_fall_where_torch_puts_them_despite_longer_dtype_name() -> None:
    # "dtype=torch.int8" fits on the line in torch, so minigrad keeps it there too.
    expected = "tensor([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22], dtype=minigrad.int8)"
    assert tensor_repr(np.arange(10, 23, dtype=np.int8)) == expected


def test_grad_suffixes() -> None:
    assert tensor_repr(f(2.0), requires_grad=True) == "tensor(2., requires_grad=True)"
    assert tensor_repr(f(5.0), grad_fn_name="AddBackward0") == "tensor(5., grad_fn=<AddBackward0>)"
    # A tensor with a grad_fn requires grad, but torch shows only the grad_fn.
    both = tensor_repr(f(5.0), requires_grad=True, grad_fn_name="AddBackward0")
    assert both == "tensor(5., grad_fn=<AddBackward0>)"
    assert tensor_repr(f([]), requires_grad=True) == "tensor([], requires_grad=True)"


@pytest.fixture
def default_printoptions():
    yield
    set_printoptions(precision=4, threshold=1000, edgeitems=3, linewidth=80)


@pytest.mark.usefixtures("default_printoptions")
def test_set_printoptions() -> None:
    set_printoptions(precision=2)
    assert tensor_repr(f([1.12345])) == "tensor([1.12])"
    set_printoptions(sci_mode=True)
    assert tensor_repr(f([1.5, 2])) == "tensor([1.50e+00, 2.00e+00])"
    set_printoptions(precision=2)  # like torch, a call without sci_mode resets it to automatic
    assert tensor_repr(f([1.5, 2])) == "tensor([1.50, 2.00])"
    set_printoptions(threshold=5)
    assert tensor_repr(np.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    set_printoptions(edgeitems=0)
    assert tensor_repr(np.arange(10)) == "tensor([...], size=(10,))"
    set_printoptions(precision=4, threshold=1000, edgeitems=3, linewidth=80)
    assert tensor_repr(f([1.12345])) == "tensor([1.1235])"


def test_unsupported_dtype_is_refused() -> None:
    with pytest.raises(TypeError, match="complex128"):
        tensor_repr(np.array([1j]))
