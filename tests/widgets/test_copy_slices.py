"""The stepper through a write into a view: ``dC[1] += W * 2``, the backprop-ninja way of
building an embedding's gradient, whose base's node is ``CopySlices``."""

import html
import re

import numpy as np

import minigrad as mg
from widgets import BackwardStepper, draw
from widgets._graph import full_value


def embedding_gradient():
    """dC is made of zeros, then rows are written through views: W reaches it twice."""
    W = mg.tensor([1.0, -2.0, 0.5], requires_grad=True)
    dC = mg.zeros(4, 3)
    dC[1] += W * 2
    dC[3] += W * W
    loss = (dC * mg.tensor([[1.0], [2.0], [3.0], [4.0]])).sum()
    return loss, W


def panel_text(stepper, position: int) -> str:
    """A frame's panel as plain text (tags removed)."""
    return html.unescape(re.sub(r"<[^>]+>", "", stepper.frames[position].split("</style>", 1)[-1]))


def test_stepping_through_copy_slices_ends_where_backward_does():
    loss, W = embedding_gradient()
    again, W_again = embedding_gradient()
    again.backward()
    stepper = BackwardStepper(loss, names={"W": W, "loss": loss})
    for _ in range(stepper.num_steps):
        stepper.step()
        assert stepper.html  # every frame renders
    assert stepper.position == stepper.num_steps
    np.testing.assert_array_equal(W.grad.numpy(), W_again.grad.numpy())
    # dloss/dW = 2·2 (row 1, weight 2) + 2·W·4 (row 3, weight 4)
    np.testing.assert_allclose(W.grad.numpy(), 4 + 8 * np.array([1.0, -2.0, 0.5]))
    names = [step.node.name() for step in stepper.steps]
    assert names.count("minigrad::autograd::CopySlices") == 4  # two writes, two copies back


def test_each_copy_slices_step_sends_what_the_engine_recorded():
    loss, W = embedding_gradient()
    stepper = BackwardStepper(loss, names={"W": W})
    copy_steps = [s for s in stepper.steps if s.node.name().endswith("CopySlices")]
    assert copy_steps
    for step in copy_steps:
        text = panel_text(stepper, step.index + 1)
        assert "copy slices: outside the view the gradient goes to the base unchanged" in text
        # What the step sent on to the written value is the engine's record, shown as it is.
        for (child, _), grad in zip(step.node.next_functions[1:], step.grads_out[1:]):
            if child is not None and grad is not None:
                assert "the in-place op's derivative, inside the view" in text
                assert full_value(grad) in text
        # Outside the written row, the gradient that arrived is what goes to the base.
        base_grad, arrived = step.grads_out[0], step.grad_in
        if base_grad is not None:
            assert full_value(base_grad) in text
            written = np.zeros(arrived.shape, dtype=bool)
            written[np.unravel_index(step.node.positions.ravel(), arrived.shape)] = True
            np.testing.assert_array_equal(
                base_grad.numpy()[~written], arrived.detach().numpy()[~written]
            )
    first = copy_steps[-1]  # the earliest write runs last: its base needed no gradient
    assert "the base as it was before the write, a constant" in panel_text(stepper, first.index + 1)


def test_the_drawing_names_copy_slices():
    loss, W = embedding_gradient()
    picture = draw(loss, names={"W": W})
    assert "CopySlices" in picture.source and "AsStridedBackward0" in picture.source
