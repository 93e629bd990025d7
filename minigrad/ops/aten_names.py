"""What PyTorch's profiler calls each op: ``Mul`` runs as ``aten::mul``.

One table, for ``autograd.profiler``: the name is that of the ATen operator PyTorch 2.13
records first (outermost) for the same call. Where PyTorch's operator is a composite that
runs others inside it (``aten::matmul`` runs ``aten::mm``, ``aten::nll_loss`` runs
``aten::nll_loss_nd``), minigrad records only the op it runs. An in-place method runs the
op of the same name and is recorded with PyTorch's trailing underscore (``aten::add_``).

>>> from minigrad.ops import Mul
>>> aten_name(Mul)
'aten::mul'
"""

from __future__ import annotations

from typing import Any

ATEN_NAMES = {
    # arithmetic
    "Add": "aten::add",
    "Sub": "aten::sub",
    "RsubScalar": "aten::rsub",
    "Mul": "aten::mul",
    "Div": "aten::div",
    "Reciprocal": "aten::reciprocal",
    "Neg": "aten::neg",
    "PowTensorScalar": "aten::pow",
    "PowTensorTensor": "aten::pow",
    "PowScalarTensor": "aten::pow",
    # unary
    "Exp": "aten::exp",
    "Log": "aten::log",
    "Log10": "aten::log10",
    "Log2": "aten::log2",
    "Sqrt": "aten::sqrt",
    "Abs": "aten::abs",
    "Sign": "aten::sign",
    "Sin": "aten::sin",
    "Cos": "aten::cos",
    "Tanh": "aten::tanh",
    "Clamp": "aten::clamp",
    "ClampTensor": "aten::clamp",
    "Where": "aten::where",
    "MaskedFill": "aten::masked_fill",
    "MaskedFillTensor": "aten::masked_fill",
    # activations
    "Sigmoid": "aten::sigmoid",
    "Relu": "aten::relu",
    "Softmax": "aten::softmax",
    "LogSoftmax": "aten::log_softmax",
    # reduce
    "Sum": "aten::sum",
    "Mean": "aten::mean",
    "MaxAll": "aten::max",
    "MinAll": "aten::min",
    "MaxDim": "aten::max",
    "MinDim": "aten::min",
    "Var": "aten::var",
    "Std": "aten::std",
    "Prod": "aten::prod",
    "Cumsum": "aten::cumsum",
    "Amax": "aten::amax",
    "Amin": "aten::amin",
    "Logsumexp": "aten::logsumexp",
    # linalg
    "Mm": "aten::mm",
    "Mv": "aten::mv",
    "Dot": "aten::dot",
    "Bmm": "aten::bmm",
    "Addmm": "aten::addmm",
    "LinalgVectorNorm": "aten::linalg_vector_norm",
    # views
    "View": "aten::view",
    "ReshapeAlias": "aten::reshape",
    "UnsafeView": "aten::_unsafe_view",
    "Transpose": "aten::transpose",
    "TransposeMatrix": "aten::t",
    "Permute": "aten::permute",
    "Unsqueeze": "aten::unsqueeze",
    "Squeeze": "aten::squeeze",
    "SqueezeInPlace": "aten::squeeze_",
    "Expand": "aten::expand",
    "AsStrided": "aten::as_strided",
    "FwPrimal": "aten::_fw_primal",
    # index
    "Index": "aten::index",  # x[tensor]; see aten_name for x[0] and x[1:]
    "IndexPutAccumulate": "aten::index_put_",
    "IndexPut": "aten::index_put_",
    "Cat": "aten::cat",
    "Stack": "aten::stack",
    "Gather": "aten::gather",
    "ScatterAdd": "aten::scatter_add",
    "Repeat": "aten::repeat",
    "SplitPiece": "aten::split",
    "Sort": "aten::sort",
    "SortStable": "aten::sort",
    "IndexAdd": "aten::index_add",
    # copy
    "ToCopy": "aten::to",
    "Clone": "aten::clone",
    "Fill": "aten::fill_",
    "Zero": "aten::zero_",
    "FillWithTensor": "aten::fill_",
    "CopyFrom": "aten::copy_",
    # losses
    "MseLoss": "aten::mse_loss",
    "NllLoss": "aten::nll_loss",
    "BinaryCrossEntropy": "aten::binary_cross_entropy",
    "BCEWithLogits": "aten::binary_cross_entropy_with_logits",
    "LogSigmoid": "aten::log_sigmoid",
}


def aten_name(op: type, options: dict[str, Any] | None = None) -> str:
    """The profiler's name for ``op`` (a class of the ops package) run with ``options``; an
    op not in the table (one added without a row) is ``minigrad::ClassName``.

    Indexing is named as its node is: ``x[0]`` is ``aten::select``, ``x[1:]``
    ``aten::slice``, ``x[tensor]`` ``aten::index``. (PyTorch runs one op per dimension
    indexed, ``x[:, 0]`` a slice then a select; minigrad runs one op, named after the last.)

    >>> from minigrad.ops import Index
    >>> aten_name(Index, {"index": (slice(None), 0)})
    'aten::select'
    """
    if op.__name__ == "Index" and options:
        from .index import _index_node_name  # index.py imports base.py, which imports this

        node = _index_node_name(options.get("index"))
        return "aten::" + node.removesuffix("Backward0").lower()
    return ATEN_NAMES.get(op.__name__) or f"minigrad::{op.__name__}"
