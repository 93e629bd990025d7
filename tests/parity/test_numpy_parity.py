"""``Tensor.numpy()`` and ``np.asarray(tensor)`` of a tensor that requires grad: refused
while gradients are recorded, allowed under ``no_grad()`` and with ``force=True``, as in
torch (see ``run_both`` in conftest.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.oracle

ATTEMPTS = {
    "numpy()": lambda t: t.numpy(),
    "np.asarray": lambda t: np.asarray(t),
    "np.array float32": lambda t: np.array(t, dtype=np.float32),
    "numpy(force=True)": lambda t: t.numpy(force=True),
}


# torch's own Tensor.__array__ takes no copy keyword, which numpy 2 warns about
@pytest.mark.filterwarnings("ignore:__array__ implementation doesn't accept a copy keyword")
@pytest.mark.parametrize("name", list(ATTEMPTS))
@pytest.mark.parametrize("mode", ["grad mode", "no_grad", "enable_grad inside no_grad"])
def test_numpy_of_a_tensor_that_requires_grad(name, mode, run_both, leaf):
    def scenario(L, F, log):
        w = leaf(L, [1.0, 2.0])
        h = w * 2
        for tensor in (w, h):
            if mode == "grad mode":
                array = ATTEMPTS[name](tensor)
            elif mode == "no_grad":
                with L.no_grad():
                    array = ATTEMPTS[name](tensor)
            else:
                with L.no_grad(), L.enable_grad():
                    array = ATTEMPTS[name](tensor)
            # The array shares memory with the tensor (unless converted to another dtype).
            log += [array.tolist(), str(array.dtype), np.shares_memory(array, tensor.detach())]

    run_both(scenario)


def test_force_must_be_a_bool_and_keyword(run_both, leaf):
    def scenario(L, F, log):
        w = leaf(L, [1.0])
        for call in (lambda: w.numpy(force=1), lambda: w.numpy(True)):
            try:
                call()
            except TypeError as error:
                log.append(str(error))

    assert len(run_both(scenario)) == 2


def test_mark_dirty_forward_may_read_its_input_as_numpy(run_both, leaf):
    """A Function's forward runs without recording: there, as in torch's ``mark_dirty``
    example, ``x.numpy()`` is allowed even for an input that requires grad."""

    def scenario(L, F, log):
        class AddOneInPlace(F.Function):
            @staticmethod
            def forward(ctx, x):
                x.numpy()[...] += 1  # in place, through numpy
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        a = leaf(L, [1.0, 2.0]).clone()
        b = a * a
        log.append(AddOneInPlace.apply(a))
        log.append(a._version)
        try:
            b.sum().backward()
        except RuntimeError as error:  # a was saved by the product and then changed
            log.append(str(error).split(" Hint")[0].replace("torch.", "minigrad."))

    run_both(scenario)
