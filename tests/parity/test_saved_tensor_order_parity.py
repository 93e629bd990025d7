"""What ``saved_tensors_hooks`` see, op by op, compared with torch: which tensors each op
saves for backward, in which order its pack hook is called, and in which order backward
unpacks them. Every op of the ops index (``minigrad/ops/__init__.py``) and every function
of ``nn.functional`` appears below at least once.

Each packed tensor is logged by what it is (a named input of the expression, its
``result``, or ``other`` for a tensor made inside the op: a mask, indices, a buffer), told
apart by comparing values, with its shape, dtype and ``requires_grad``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

# (label, expression): the expression's names are the tensors made in `inputs` below.
CASES = [
    # arithmetic
    ("Add", "a + b"),
    ("Add alpha", "a.add(b, alpha=2)"),
    ("Sub", "a - b"),
    ("RsubScalar", "2 - a"),
    ("Mul", "a * b"),
    ("Mul by a number", "a * 3"),
    ("Mul by a constant", "a * k"),
    ("Mul of a constant", "k * a"),
    ("Div", "a / b"),
    ("Div by a number", "a / 3"),
    ("Div by a constant", "a / k"),
    ("Div of a constant", "k / a"),
    ("Reciprocal", "a.reciprocal()"),
    ("Neg", "-a"),
    ("PowTensorScalar", "a ** 2"),
    ("PowTensorScalar 0.5", "p ** 0.5"),
    ("PowTensorTensor", "p ** b"),
    ("PowTensorTensor constant exponent", "p ** k"),
    ("PowTensorTensor constant base", "k.abs() ** b"),
    ("PowScalarTensor", "2 ** a"),
    # unary
    ("Exp", "a.exp()"),
    ("Log", "p.log()"),
    ("Sqrt", "p.sqrt()"),
    ("Abs", "a.abs()"),
    ("Sign", "a.sign()"),
    ("Sin", "a.sin()"),
    ("Cos", "a.cos()"),
    ("Tanh", "a.tanh()"),
    ("Log10", "p.log10()"),
    ("Log2", "p.log2()"),
    ("Exp in place", "a.clone().exp_()"),
    ("Tanh in place", "a.clone().tanh_()"),
    ("Clamp", "a.clamp(-0.5, 0.5)"),
    ("Clamp min", "a.clamp(min=0.1)"),
    ("ClampTensor", "a.clamp(b, c)"),
    ("ClampTensor constants", "a.clamp(k - 1, k)"),
    ("ClampTensor min only", "a.clamp(min=b)"),
    ("ClampTensor max only", "a.clamp(max=b)"),
    ("Where", "L.where(a > 0, a, b)"),
    ("Where with a number", "L.where(k > 0.5, a, 0.0)"),
    ("MaskedFill", "a.masked_fill(a > 0, 0.0)"),
    ("MaskedFillTensor", "a.masked_fill(a > 0, s)"),
    # activations
    ("Sigmoid", "a.sigmoid()"),
    ("Relu", "a.relu()"),
    ("Softmax", "a.softmax(0)"),
    ("LogSoftmax", "a.log_softmax(1)"),
    # reductions
    ("Sum", "a.sum()"),
    ("Sum dim", "a.sum(0)"),
    ("Mean", "a.mean()"),
    ("Mean dim", "a.mean(1)"),
    ("MaxAll", "a.max()"),
    ("MinAll", "a.min()"),
    ("MaxDim", "a.max(0)[0]"),
    ("MaxDim keepdim", "a.max(1, keepdim=True)[0]"),
    ("MinDim", "a.min(0)[0]"),
    ("Var", "a.var(0)"),
    ("Var all", "a.var()"),
    ("Std", "a.std(0)"),
    ("Std all", "a.std()"),
    ("Prod", "a.prod()"),
    ("Prod dim", "a.prod(0)"),
    ("Cumsum", "a.cumsum(0)"),
    ("Amax", "a.amax(0)"),
    ("Amin", "a.amin(1, keepdims=True)"),
    ("Logsumexp", "a.logsumexp(1)"),
    ("Sort", "a.sort(1)[0]"),
    ("SortStable", "a.sort(dim=0, stable=True, descending=True)[0]"),
    ("Sort by position", "a.sort(0, True)[0]"),
    # linear algebra
    ("Mm", "M.mm(N)"),
    ("Mm constant right", "M.mm(K)"),
    ("Mm constant left", "K.t().mm(N)"),
    ("Mv", "M.mv(v)"),
    ("Mv constant vector", "M.mv(u)"),
    ("Mv constant matrix", "K.t().mv(v)"),
    ("Dot", "v.dot(w)"),
    ("Dot constant", "v.dot(u)"),
    ("Dot of a constant", "u.dot(v)"),
    ("Bmm", "B @ C"),
    ("matmul vector @ matrix", "v @ N"),
    ("Addmm (linear)", "F.linear(M, W, bias)"),
    ("Addmm constant weight", "F.linear(M, W.detach(), bias)"),
    ("Addmm constant input", "F.linear(M.detach(), W, bias)"),
    ("linear without bias", "F.linear(M, W)"),
    ("linear of a batch", "F.linear(B, W, bias)"),
    ("LinalgVectorNorm", "a.norm()"),
    ("LinalgVectorNorm dim", "a.norm(dim=0)"),
    ("LinalgVectorNorm p=1", "a.norm(p=1)"),
    ("LinalgVectorNorm p=3 keepdim", "a.norm(p=3, dim=1, keepdim=True)"),
    # views
    ("View", "a.view(4)"),
    ("ReshapeAlias", "a.reshape(4)"),
    ("UnsafeView", "a.t().reshape(4)"),
    ("Transpose", "a.transpose(0, 1)"),
    ("TransposeMatrix", "a.t()"),
    ("Permute", "a.permute(1, 0)"),
    ("Unsqueeze", "a.unsqueeze(0)"),
    ("Squeeze", "a[0:1].squeeze(0)"),
    ("Expand", "a[0:1].expand(3, 2)"),
    # indexing
    ("Index select", "a[0]"),
    ("Index list", "a[[1, 0, 1]]"),
    ("Index tensor", "a[L.tensor([1, 0])]"),
    ("Index second dim", "a[:, [0, 1]]"),
    ("Index two lists", "a[[0, 1], [1, 0]]"),
    ("Index mask", "a[a > 0]"),
    # (x[0] = v is CopySlices in PyTorch: it saves nothing, as minigrad's IndexPut)
    ("IndexPut", "setitem(a, b, L.tensor([1]))"),
    ("IndexPut two lists", "setitem(a, b, ([0, 1], [1, 0]))"),
    ("CopySlices (a row written)", "setitem(a, b, 0)"),
    ("FillWithTensor", "fill_everything(a, s)"),
    ("AsStrided (a view after a write into it)", "written_view(a, b)"),
    ("FwPrimal (unpack_dual's primal)", "primal_of(L, a)"),
    ("Cat", "L.cat([a, b])"),
    ("Stack", "L.stack([a, b])"),
    ("Gather", "a.gather(1, L.tensor([[0], [1]]))"),
    ("Repeat", "a.repeat(2, 1)"),
    ("IndexAdd", "a.index_add(0, L.tensor([1, 0]), b, alpha=2)"),
    ("SplitPiece", "a.split(1)[1]"),
    ("chunk", "a.chunk(2, 1)[0]"),
    # copies
    ("ToCopy", "a.to(L.float32)"),
    ("Clone", "a.clone()"),
    ("Fill", "a.clone().fill_(2.0)"),
    ("Zero", "a.clone().zero_()"),
    ("CopyFrom", "k.clone().copy_(a)"),
    # losses and nn.functional
    ("MseLoss", "F.mse_loss(a, b)"),
    ("MseLoss sum, constant target", "F.mse_loss(a, k, reduction='sum')"),
    ("l1_loss", "F.l1_loss(a, b)"),
    ("NllLoss", "F.nll_loss(a, L.tensor([0, 1]))"),
    ("NllLoss weight", "F.nll_loss(a, L.tensor([0, 1]), weight=k[0])"),
    ("NllLoss sum", "F.nll_loss(a, L.tensor([1, 1]), reduction='sum')"),
    ("NllLoss none", "F.nll_loss(a, L.tensor([0, 1]), reduction='none')"),
    ("NllLoss ignore_index", "F.nll_loss(a, L.tensor([0, 1]), ignore_index=1)"),
    ("NllLoss one sample", "F.nll_loss(a[0], L.tensor(1))"),
    ("cross_entropy", "F.cross_entropy(a, L.tensor([1, 0]))"),
    ("cross_entropy weight", "F.cross_entropy(a, L.tensor([1, 0]), weight=k[1])"),
    ("BinaryCrossEntropy", "F.binary_cross_entropy(q, r)"),
    ("BinaryCrossEntropy weight", "F.binary_cross_entropy(q, r.detach(), weight=k[0])"),
    ("BCEWithLogits", "F.binary_cross_entropy_with_logits(a, r)"),
    ("BCEWithLogits weight", "F.binary_cross_entropy_with_logits(a, r.detach(), weight=k[0])"),
    ("BCEWithLogits pos_weight", "F.binary_cross_entropy_with_logits(a, r, pos_weight=k[1])"),
    (
        "BCEWithLogits both weights",
        "F.binary_cross_entropy_with_logits(a, r, weight=k[0], pos_weight=k[1])",
    ),
    ("LogSigmoid", "F.logsigmoid(a)"),
    ("F.relu", "F.relu(a)"),
    ("F.relu_ (its result, in place)", "F.relu_(a * 1)"),
    ("F.tanh", "F.tanh(a)"),
    ("F.sigmoid", "F.sigmoid(a)"),
    ("F.softmax", "F.softmax(a, 1)"),
    ("F.log_softmax", "F.log_softmax(a, 0)"),
    ("F.dropout", "F.dropout(a, 0.5, training=False)"),
    ("F.one_hot (no gradient: nothing saved)", "F.one_hot(L.tensor([2, 0]), 3) * a[0, 0]"),
    ("F.dropout training", "F.dropout(a, 0.5)"),  # the mask is saved (values differ)
]


def inputs(L):
    """The tensors the expressions use: float64 values, all different, so that values
    alone tell which one a hook was given."""
    rng = np.random.default_rng(25)

    def made(*shape, requires_grad=True, low=-2.0, high=2.0):
        values = rng.uniform(low, high, shape)
        return L.tensor(values, requires_grad=requires_grad)

    return {
        "a": made(2, 2),
        "b": made(2, 2),
        "c": made(2, 2),
        "k": made(2, 2, requires_grad=False, low=0.1, high=0.9),
        "s": made(),
        "p": made(2, 2, low=0.5, high=2.0),
        "q": made(2, 2, low=0.1, high=0.9),
        "r": made(2, 2, low=0.1, high=0.9),
        "M": made(2, 3),
        "N": made(3, 2),
        "K": made(3, 2, requires_grad=False),
        "W": made(4, 3),
        "bias": made(4),
        "v": made(3),
        "w": made(3),
        "u": made(3, requires_grad=False),
        "B": made(2, 2, 3),
        "C": made(2, 3, 2),
    }


def setitem(a, b, index):
    """``a[index] = b[0]`` on a copy of ``a``."""
    copy = a.clone()
    copy[index] = b[0] * 1
    return copy


def fill_everything(a, s):
    """``a[...] = s`` on a copy of ``a``, ``s`` 0-d: a fill with a tensor."""
    copy = a.clone()
    copy[...] = s * 1
    return copy


def written_view(a, b):
    """A row of a copy of ``a`` multiplied in place by a row of ``b``: the row's history is
    made again from the base."""
    row = a.clone()[0]
    row.mul_(b[0])
    return row * 1


def primal_of(library, a):
    """``unpack_dual(a).primal`` inside a dual level: a view of ``a`` (Identity)."""
    with library.autograd.forward_ad.dual_level():
        return library.autograd.forward_ad.unpack_dual(a).primal


def what(tensor, named):
    """Which of ``named`` ``tensor`` is, by value: its name, or ``other``."""
    values = np.asarray(tensor.detach())
    for name, candidate in named.items():
        known = np.asarray(candidate.detach())
        if known.shape == values.shape and known.dtype == values.dtype:
            if np.array_equal(known, values, equal_nan=True):
                return name
    return "other"


@pytest.mark.parametrize(("label", "expression"), CASES, ids=[label for label, _ in CASES])
def test_pack_and_unpack_hooks_see_what_torch_saves_in_torchs_order(label, expression, run_both):
    def scenario(L, _, log):
        F = L.nn.functional
        named = inputs(L)
        packed, unpacked = [], []

        def pack(tensor):
            packed.append((tensor.detach().clone(), tuple(tensor.shape), tensor.requires_grad))
            return (len(packed) - 1, tensor)

        def unpack(kept):
            number, tensor = kept
            unpacked.append(number)
            return tensor

        env = {
            "L": L,
            "F": F,
            "setitem": setitem,
            "fill_everything": fill_everything,
            "written_view": written_view,
            "primal_of": primal_of,
            **named,
        }
        with L.autograd.graph.saved_tensors_hooks(pack, unpack):
            result = eval(expression, env)  # noqa: S307 - the expressions above
        log.append(result.grad_fn.name() if result.grad_fn is not None else None)
        known = {**named, "result": result}
        log.append(
            [
                (what(copy, known), shape, str(copy.dtype).split(".")[-1], requires_grad)
                for copy, shape, requires_grad in packed
            ]
        )
        if result.requires_grad:
            result.sum().backward()
        log.append(("unpacked in order", unpacked))

    seen = run_both(scenario)
    assert len(seen) == 3, seen  # the expression ran: no error was logged instead


def test_every_op_of_the_index_is_covered():
    """Each class of the ops index has a case above: a label that starts with its name."""
    import minigrad.ops as ops

    labels = {label.split()[0] for label, _ in CASES}
    missing = [
        name
        for name in dir(ops)
        if isinstance(getattr(ops, name), type)
        and issubclass(getattr(ops, name), ops.Op)
        and name not in ("Op", "Elementwise", "IndexPutAccumulate", "ScatterAdd", "SqueezeInPlace")
        and name not in labels
    ]
    assert missing == []


def test_every_function_of_nn_functional_is_covered():
    import minigrad.nn.functional as F

    expressions = " ".join(expression for _, expression in CASES)
    assert [name for name in F.__all__ if f"F.{name}(" not in expressions] == []
