"""Derivatives of whole functions, as ``torch.autograd.functional`` computes them.

Each function here takes a Python function ``func`` and the point ``inputs`` at which to
differentiate it, and is built from nothing but ``autograd.grad``:

- ``vjp``: one backward pass, ``v^T J`` (a gradient is a vjp with ``v = 1``);
- ``jacobian``: one backward pass per element of the output, one row of ``J`` each;
- ``jvp``: ``J v`` by the *double backward trick*: the gradient ``u^T J`` is linear in a
  dummy ``u``, and differentiating it with respect to ``u`` in the direction ``v`` gives ``J v``;
- ``hessian``: the Jacobian of the gradient; ``vhp`` and ``hvp``: ``v^T H`` and ``H v``.

``inputs`` is a Tensor or a tuple of Tensors, and so is what ``func`` returns; the results
follow that structure, as in PyTorch. ``func`` always sees new tensor objects that require
grad (the caller's tensors are never modified), and is called with grad mode on. Results
are detached unless ``create_graph=True``, which keeps them differentiable.

>>> import minigrad as mg
>>> from minigrad.autograd.functional import jacobian, hessian
>>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
>>> jacobian(lambda t: t**2, x)
tensor([[2., 0.],
        [0., 4.]], dtype=minigrad.float64)
>>> hessian(lambda t: (t**3).sum(), x)
tensor([[ 6.,  0.],
        [ 0., 12.]], dtype=minigrad.float64)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..creation import stack, zeros_like
from ..grad_mode import enable_grad
from ..tensor import Tensor
from . import forward_ad
from . import grad as autograd_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

TensorOrTensors = Tensor | tuple[Tensor, ...]
Func = Callable[..., TensorOrTensors]


# --------------------------------------------------------------------------- structure
def _as_tensors(value: Any, name: str, caller: str) -> tuple[bool, tuple[Tensor, ...]]:
    """``(was_a_tuple, tensors)``: one Tensor becomes a tuple of one, so that the rest of
    the code handles a single case. Anything that is not a Tensor gets PyTorch's TypeError
    (a list counts as "not a Tensor": only tuples hold several)."""
    was_a_tuple = isinstance(value, tuple)
    tensors = value if was_a_tuple else (value,)
    for index, item in enumerate(tensors):
        if not isinstance(item, Tensor):
            where = f"value at index {index}" if was_a_tuple else f"given {name}"
            raise TypeError(
                f"The {name} given to {caller} must be either a Tensor or a tuple of Tensors "
                f"but the {where} has type {type(item)}."
            )
    return was_a_tuple, tensors


def _restore(result: tuple[Any, ...], was_a_tuple: bool) -> Any:
    """Undo ``_as_tensors``: a tuple of one goes back to being the one tensor."""
    return result if was_a_tuple else result[0]


def _restore_nested(
    result: tuple[tuple[Tensor, ...], ...], outputs_were_tuple: bool, inputs_were_tuple: bool
) -> Any:
    """``result[i][j]`` belongs to output ``i`` and input ``j``; each level that was a single
    Tensor in the caller's call is unwrapped."""
    if not inputs_were_tuple:
        result = tuple(row[0] for row in result)
    return _restore(result, outputs_were_tuple)


def _fresh_copies(
    tensors: tuple[Tensor, ...], create_graph: bool, need_graph: bool
) -> tuple[Tensor, ...]:
    """New tensor objects for ``func`` to receive, so that gradients can be asked with
    respect to exactly these (``func`` may also capture the caller's tensors directly).

    With ``create_graph`` a tensor that requires grad gets a view of itself: the result stays
    differentiable with respect to the caller's tensor. Otherwise the copy is detached from
    any history and requires grad only when ``need_graph`` says so. No data is copied."""
    return tuple(
        t.view(t.shape)
        if create_graph and t.requires_grad
        else t.detach().requires_grad_(need_graph)
        for t in tensors
    )


def _detached_unless(create_graph: bool, tensors: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the caller receives: without ``create_graph`` nothing carries a history."""
    if create_graph:
        return tensors
    return tuple(
        t.detach() if isinstance(t, Tensor) else _detached_unless(False, t) for t in tensors
    )


def _check_v(v: tuple[Tensor, ...], like: tuple[Tensor, ...], like_was_tuple: bool) -> None:
    """``v`` must hold one tensor of the same shape for each tensor of ``like``."""
    if len(v) != len(like):
        if like_was_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (given, expected) in enumerate(zip(v, like, strict=True)):
        if given.shape != expected.shape:
            entry = f"Entry {index} in " if like_was_tuple else ""
            raise RuntimeError(
                f"{entry}v has invalid size: should be {expected.shape!r} but got {given.shape!r}."
            )


# --------------------------------------------------------------------------- strict mode
# What strict mode refuses, in PyTorch's words. Without strict, the same situations give
# zeros, the mathematically right answer.
_INDEPENDENT_OUTPUT = (
    "The output of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode."
)
_NOT_DIFFERENTIABLE = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
    "outputs must be computed in a differentiable manner from the input when running in "
    "strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of "
    "the user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
    "function with respect to input {i} is independent of the input. This is not allowed in "
    "strict mode. You should ensure that your function is twice differentiable and that the "
    "jacobian depends on the inputs (this would be violated by a linear function for example).",
}
_MISSING = {  # no gradient at all reached entry i, in each kind of pass
    "back": _INDEPENDENT_OUTPUT,
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. "
    "This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
    "{i} in the grad_jacobian. This is not allowed in strict mode as it prevents from using "
    "the double backward trick to replace forward mode AD.",
}
_CONSTANT_JACOBIAN = (
    "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode when create_graph=True."
)
_CONSTANT_HESSIAN = (
    "The hessian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode when create_graph=True."
)


def _require_differentiable(tensors: tuple[Tensor | None, ...], kind: str, strict: bool) -> None:
    """In strict mode, refuse a tensor that is missing (no gradient path) or constant."""
    if not strict:
        return
    for i, tensor in enumerate(tensors):
        if tensor is None:
            raise RuntimeError(_INDEPENDENT_OUTPUT.format(i=i))
        if not tensor.requires_grad:
            raise RuntimeError(_NOT_DIFFERENTIABLE[kind].format(i=i))


def _zeros_where_missing(
    grads: tuple[Tensor | None, ...],
    like: tuple[Tensor, ...],
    strict: bool,
    create_graph: bool,
    stage: str,
) -> tuple[Tensor, ...]:
    """Replace each missing gradient by zeros shaped like ``like[i]``; in strict mode refuse
    it instead, and with ``create_graph`` also refuse one that cannot be differentiated."""
    filled = []
    for i, grad in enumerate(grads):
        if grad is None:
            if strict:
                raise RuntimeError(_MISSING[stage].format(i=i))
            grad = zeros_like(like[i])
        elif strict and create_graph and not grad.requires_grad:
            message = _CONSTANT_HESSIAN if stage.startswith("double") else _CONSTANT_JACOBIAN
            raise RuntimeError(message.format(i=i))
        filled.append(grad)
    return tuple(filled)


# --------------------------------------------------------------------------- the one tool
def _grad(
    outputs: tuple[Tensor | None, ...],
    inputs: tuple[Tensor, ...],
    grad_outputs: tuple[Tensor | None, ...] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Tensor | None, ...]:
    """``autograd.grad`` that skips the outputs with no history (they contribute nothing)
    and answers None for an input no output depends on."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [
        (out, g)
        for out, g in zip(outputs, grad_outputs, strict=True)
        if out is not None and out.requires_grad
    ]
    if not pairs:
        return (None,) * len(inputs)
    return autograd_grad(
        [out for out, _ in pairs],
        inputs,
        [g for _, g in pairs],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


def _call(func: Func, inputs: tuple[Tensor, ...], caller: str) -> tuple[bool, tuple[Tensor, ...]]:
    """Call ``func`` and check that it returned a Tensor or a tuple of Tensors."""
    return _as_tensors(func(*inputs), "outputs of the user-provided function", caller)


def _prepare_v(
    v: Any, like: tuple[Tensor, ...], like_was_tuple: bool, create_graph: bool, caller: str
) -> tuple[Tensor, ...]:
    """``v`` as a tuple, detached unless its own graph is wanted, checked against ``like``."""
    _, v = _as_tensors(v, "v", caller)
    v = _fresh_copies(v, create_graph, need_graph=False)
    _check_v(v, like, like_was_tuple)
    return v


def _check_v_may_be_omitted(inputs: tuple[Tensor, ...]) -> None:
    """``v`` may be left out only where it can only be ``1``."""
    if len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )


def _check_scalar_function(
    outputs_were_tuple: bool, outputs: tuple[Tensor, ...], caller: str
) -> None:
    """hessian, hvp and vhp need a function returning one Tensor of one element."""
    if outputs_were_tuple:
        raise RuntimeError(f"The function given to {caller} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {caller} should contain a single element"
        )


# --------------------------------------------------------------------------- public API
def vjp(
    func: Func,
    inputs: TensorOrTensors,
    v: TensorOrTensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), v^T J)``: the vector ``v`` (shaped like the output) times the
    Jacobian of ``func``, one backward pass. The result is shaped like the inputs.

    ``v`` may be omitted when ``func`` returns a single element (``v = 1``: the gradient).
    ``strict=True`` raises where an input has no influence on the outputs instead of
    returning zeros for it.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import vjp
    >>> x = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64)
    >>> vjp(lambda t: t**2, x, mg.tensor([1.0, 0.0, 1.0], dtype=mg.float64))
    (tensor([1., 4., 9.], dtype=minigrad.float64), tensor([2., 0., 6.], dtype=minigrad.float64))
    >>> out, (gx, gy) = vjp(lambda a, b: (a * b).sum(), (x, 2 * x))
    >>> gx, gy
    (tensor([2., 4., 6.], dtype=minigrad.float64), tensor([1., 2., 3.], dtype=minigrad.float64))
    """
    with enable_grad():
        inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", "vjp")
        inputs = _fresh_copies(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _call(func, inputs, "vjp")
        _require_differentiable(outputs, "outputs", strict)
        if v is not None:
            v = _prepare_v(v, outputs, outputs_were_tuple, create_graph, "vjp")
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, inputs, strict, create_graph, "back")
    return (
        _restore(_detached_unless(create_graph, outputs), outputs_were_tuple),
        _restore(_detached_unless(create_graph, result), inputs_were_tuple),
    )


def jvp(
    func: Func,
    inputs: TensorOrTensors,
    v: TensorOrTensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), J v)``: the Jacobian of ``func`` times the vector ``v`` (shaped like
    the inputs). The result is shaped like the outputs.

    As in ``torch.autograd.functional``, ``J v`` comes from the double backward trick
    (``autograd.forward_ad`` computes it in one forward pass instead). For a dummy ``u``
    shaped like the output, the backward pass gives ``g(u) = u^T J``, linear in ``u``; a
    second backward pass, of ``g`` with respect to ``u`` and seeded with ``v``, gives ``v^T
    J^T = (J v)^T``. The value of ``u`` never matters (zeros here), only that it requires
    grad.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import jvp
    >>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    >>> jvp(lambda t: (t**3).sum(), x, mg.tensor([1.0, 1.0], dtype=mg.float64))
    (tensor(9., dtype=minigrad.float64), tensor(15., dtype=minigrad.float64))
    """
    with enable_grad():
        inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", "jvp")
        inputs = _fresh_copies(inputs, create_graph, need_graph=True)
        if v is not None:
            v = _prepare_v(v, inputs, inputs_were_tuple, create_graph, "jvp")
        else:
            _check_v_may_be_omitted(inputs)
        outputs_were_tuple, outputs = _call(func, inputs, "jvp")
        _require_differentiable(outputs, "outputs", strict)
        dummies = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)  # u^T J, per input
        _require_differentiable(grad_inputs, "grad_inputs", strict)
        grads = _grad(grad_inputs, dummies, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, outputs, strict, create_graph, "back_trick")
    return (
        _restore(_detached_unless(create_graph, outputs), outputs_were_tuple),
        _restore(_detached_unless(create_graph, result), outputs_were_tuple),
    )


# PyTorch's texts for the strategy and its combinations, kept word for word (the missing
# space in "isonly" included) since programs may match on them.
_BAD_STRATEGY = 'Expected strategy to be either "forward-mode" or "reverse-mode".'
_STRATEGY_HINT = (
    ' Hint: If your function has more outputs than inputs, "forward-mode" tends to be more '
    'performant. Otherwise, prefer to use "reverse-mode".'
)
_FORWARD_WITH_CREATE_GRAPH = (
    "torch.autograd.functional.jacobian: `create_graph=True` and "
    '`strategy="forward-mode"` are not supported together (yet). Please either set '
    '`create_graph=False` or `strategy="reverse-mode"`.'
)
_FORWARD_WITH_STRICT = (
    "torch.autograd.functional.jacobian: `strict=True` and "
    '`strategy="forward-mode"` are not supported together (yet). Please either set '
    '`strict=False` or `strategy="reverse-mode"`.'
)
_FORWARD_WITHOUT_VECTORIZE = (
    "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
    "only implemented for `vectorize=True`."
)
_STRICT_WITH_VECTORIZE = (
    "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
    "supported together. Please either set `strict=False` or `vectorize=False`."
)


def _forward_mode_jacobian(
    func: Func, inputs: Any, create_graph: bool, strict: bool, vectorize: bool
) -> Any:
    """The Jacobian column by column: one forward-mode pass per element of the inputs,
    with that element's tangent 1 and every other 0, as PyTorch computes it (PyTorch
    batches the passes with ``vmap``, minigrad runs them one after the other). PyTorch's
    checks come first, in its order."""
    if create_graph:
        raise NotImplementedError(_FORWARD_WITH_CREATE_GRAPH)
    if strict:
        raise RuntimeError(_FORWARD_WITH_STRICT)
    inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(_FORWARD_WITHOUT_VECTORIZE)
    columns: list[tuple[Tensor, ...]] = []  # J @ e_k, one per element k of the inputs
    outputs_were_tuple, primals = False, ()
    for j, source in enumerate(inputs):
        for k in range(source.numel()):
            with forward_ad.dual_level():
                duals = []
                for i, tensor in enumerate(inputs):
                    tangent = zeros_like(tensor)
                    if i == j:
                        tangent.view(-1)[k] = 1.0
                    duals.append(forward_ad.make_dual(tensor, tangent))
                outputs_were_tuple, outputs = _as_tensors(func(*duals), "outputs", "jacobian")
                unpacked = [forward_ad.unpack_dual(output) for output in outputs]
                primals = tuple(u.primal for u in unpacked)
                columns.append(
                    tuple(
                        zeros_like(u.primal) if u.tangent is None else u.tangent for u in unpacked
                    )
                )
    # As PyTorch lays them out: the columns stacked along a first dim, which is then
    # split per input and moved to the end (hence a list of lists for tuples of both).
    numels = [tensor.numel() for tensor in inputs]
    blocks = []
    for i, output in enumerate(primals):
        stacked = stack([column[i] for column in columns], dim=0)
        row = [
            block.permute(*range(1, block.ndim), 0).reshape((*output.shape, *tensor.shape))
            for block, tensor in zip(stacked.split(numels, dim=0), inputs)
        ]
        blocks.append(row)
    if not inputs_were_tuple:
        blocks = tuple(row[0] for row in blocks)
    return blocks if outputs_were_tuple else blocks[0]


def jacobian(
    func: Func,
    inputs: TensorOrTensors,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of ``func`` at ``inputs``: ``J[i, j] = d output[i] / d input[j]``, of
    shape ``output.shape + input.shape``, computed one row (one backward pass) per element
    of the output.

    With several inputs or outputs the result is a tuple (``J[j]`` for input ``j``, or
    ``J[i]`` for output ``i``), or a tuple of tuples ``J[i][j]`` when both are tuples.

    ``vectorize=True`` is accepted and gives the same result: minigrad has no ``vmap`` to
    batch the backward passes, so the rows are still computed one by one.
    ``strategy="forward-mode"`` (with ``vectorize=True``, as PyTorch requires) computes it
    one column (one forward-mode pass) per element of the inputs instead.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import jacobian
    >>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    >>> jacobian(lambda t: t.exp().sum(), x)
    tensor([2.7183, 7.3891], dtype=minigrad.float64)
    >>> jx, jy = jacobian(lambda a, b: a * b, (x, 3 * x))
    >>> jx
    tensor([[3., 0.],
            [0., 6.]], dtype=minigrad.float64)
    >>> jacobian(lambda t: (t**2).sum(), x, create_graph=True)
    tensor([2., 4.], dtype=minigrad.float64, grad_fn=<ViewBackward0>)
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_BAD_STRATEGY + _STRATEGY_HINT)
    if strategy == "forward-mode":
        return _forward_mode_jacobian(func, inputs, create_graph, strict, vectorize)
    with enable_grad():
        inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", "jacobian")
        inputs = _fresh_copies(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _call(func, inputs, "jacobian")
        _require_differentiable(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(_STRICT_WITH_VECTORIZE)
        jacobian_blocks = tuple(
            _jacobian_of_one_output(i, output, inputs, create_graph, strict)
            for i, output in enumerate(outputs)
        )
    jacobian_blocks = _detached_unless(create_graph, jacobian_blocks)
    return _restore_nested(jacobian_blocks, outputs_were_tuple, inputs_were_tuple)


def _jacobian_of_one_output(
    i: int, output: Tensor, inputs: tuple[Tensor, ...], create_graph: bool, strict: bool
) -> tuple[Tensor, ...]:
    """The blocks ``d output / d input_j`` for every input ``j``: row ``k`` of each is the
    gradient of the ``k``-th element of ``output``."""
    rows: list[list[Tensor]] = [[] for _ in inputs]
    flat = output.reshape(-1)
    for k in range(output.numel()):
        grads = _grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (grad, input) in enumerate(zip(grads, inputs, strict=True)):
            if grad is None:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input "
                        f"{j}. This is not allowed in strict mode."
                    )
                grad = zeros_like(input)
            elif strict and create_graph and not grad.requires_grad:
                # PyTorch's message gives the output's number here, as "input {i}".
                raise RuntimeError(_CONSTANT_JACOBIAN.format(i=i))
            rows[j].append(grad)
    return tuple(
        stack(block_rows).view(output.shape + input.shape)
        for block_rows, input in zip(rows, inputs, strict=True)
    )


def hessian(
    func: Func,
    inputs: TensorOrTensors,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a function returning one element: ``H[i, j] = d^2 f / d x_i d x_j``, of
    shape ``input.shape + input.shape``. It is the Jacobian of the gradient: the gradient
    is computed with ``create_graph=True``, then differentiated once per element.

    With a tuple of inputs the result is a tuple of tuples, ``H[i][j]`` for inputs ``i`` and
    ``j``. In strict mode every block must depend on its inputs: the function must be twice
    differentiable and no pair of inputs may be unrelated.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import hessian
    >>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    >>> hessian(lambda t: t[0] * t[1] ** 2, x)
    tensor([[0., 4.],
            [4., 2.]], dtype=minigrad.float64)
    >>> (hxx, hxy), (hyx, hyy) = hessian(lambda a, b: (a * b).sum(), (x, x))
    >>> hxy
    tensor([[1., 0.],
            [0., 1.]], dtype=minigrad.float64)
    """
    inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_BAD_STRATEGY)

    def scalar_function(*xs: Tensor) -> Tensor:
        result = func(*xs)
        was_tuple, outputs = _as_tensors(result, "outputs of the user-provided function", "hessian")
        _require_differentiable(outputs, "outputs", strict)
        _check_scalar_function(was_tuple, outputs, "hessian")
        return outputs[0].squeeze()

    def gradient(*xs: Tensor) -> tuple[Tensor, ...]:
        if outer_jacobian_strategy == "forward-mode":
            # Forward over reverse: the dual inputs must stay in the graph, as in PyTorch.
            xs = tuple(x.requires_grad_(True) for x in xs)
        # Always differentiable: the outer Jacobian differentiates it again.
        gradients = jacobian(scalar_function, xs, create_graph=True)
        _require_differentiable(gradients, "jacobian", strict)
        return gradients

    blocks = jacobian(
        gradient,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _restore_nested(blocks, inputs_were_tuple, inputs_were_tuple)


def _gradient_for_second_order(
    func: Func, inputs: Any, v: Any, create_graph: bool, strict: bool, caller: str
) -> tuple[bool, tuple[Tensor, ...], Any, tuple[Tensor, ...], tuple[Tensor | None, ...]]:
    """What vhp and hvp share: checked inputs and ``v``, the output of ``func`` (one
    element), and its gradient computed with ``create_graph=True``."""
    inputs_were_tuple, inputs = _as_tensors(inputs, "inputs", caller)
    inputs = _fresh_copies(inputs, create_graph, need_graph=True)
    if v is not None:
        v = _prepare_v(v, inputs, inputs_were_tuple, create_graph, caller)
    else:
        _check_v_may_be_omitted(inputs)
    outputs_were_tuple, outputs = _call(func, inputs, caller)
    _require_differentiable(outputs, "outputs", strict)
    _check_scalar_function(outputs_were_tuple, outputs, caller)
    gradient = _grad(outputs, inputs, create_graph=True)
    _require_differentiable(gradient, "jacobian", strict)
    return inputs_were_tuple, inputs, v, outputs, gradient


def vhp(
    func: Func,
    inputs: TensorOrTensors,
    v: TensorOrTensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensor, Any]:
    """``(func(inputs), v^T H)``: the vector ``v`` times the Hessian of a function returning
    one element. A vjp of the gradient: two backward passes, never the whole Hessian.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import vhp
    >>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    >>> vhp(lambda t: (t**3).sum(), x, mg.tensor([1.0, 0.0], dtype=mg.float64))
    (tensor(9., dtype=minigrad.float64), tensor([6., 0.], dtype=minigrad.float64))
    """
    with enable_grad():
        inputs_were_tuple, inputs, v, outputs, gradient = _gradient_for_second_order(
            func, inputs, v, create_graph, strict, "vhp"
        )
        grads = _grad(gradient, inputs, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, inputs, strict, create_graph, "double_back")
    return (
        _detached_unless(create_graph, outputs)[0],
        _restore(_detached_unless(create_graph, result), inputs_were_tuple),
    )


def hvp(
    func: Func,
    inputs: TensorOrTensors,
    v: TensorOrTensors | None = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Tensor, Any]:
    """``(func(inputs), H v)``: the Hessian of a function returning one element times the
    vector ``v``. The double backward trick applied to the gradient: ``u^T H`` is computed
    for a dummy ``u``, then differentiated with respect to ``u`` in the direction ``v``.
    Three backward passes; for a twice continuously differentiable function ``H`` is
    symmetric and ``vhp`` gives the same numbers with two.

    >>> import minigrad as mg
    >>> from minigrad.autograd.functional import hvp
    >>> x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    >>> hvp(lambda t: t[0] * t[1] ** 2, x, mg.tensor([1.0, 0.0], dtype=mg.float64))
    (tensor(4., dtype=minigrad.float64), tensor([0., 4.], dtype=minigrad.float64))
    """
    with enable_grad():
        inputs_were_tuple, inputs, v, outputs, gradient = _gradient_for_second_order(
            func, inputs, v, create_graph, strict, "hvp"
        )
        dummies = tuple(zeros_like(input, requires_grad=True) for input in inputs)
        u_times_hessian = _grad(gradient, inputs, dummies, create_graph=True)
        # (PyTorch checks the gradient again here under the name "hessian"; it has just
        # passed the same check, so that message can never appear.)
        grads = _grad(u_times_hessian, dummies, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, inputs, strict, create_graph, "double_back_trick")
    return (
        _detached_unless(create_graph, outputs)[0],
        _restore(_detached_unless(create_graph, result), inputs_were_tuple),
    )
