"""widgets.ForwardStepper: each frame shows the forward-mode records, on BackwardStepper's picture.

The numbers a frame shows are the records' (``forward_ad.record_steps``): a record changed
after the pass shows changed in the panel, so nothing in the widget computes a tangent. The
tangents themselves are checked against reverse mode (each input's gradient is the tangent
along that input's own direction), which forward mode's code does not share.
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import contextmanager

import pytest

import minigrad as mg
import widgets.forward_stepper as forward_stepper_module
from widgets import BackwardStepper, ForwardStepper
from widgets._stepping import SteppedPicture
from widgets._svg import style_at
from widgets.forward_stepper import CARRIES, RAN, READS, SENDS


def f(x, w):
    return (x * w).tanh() + x


def inputs():
    return mg.tensor(1.0, requires_grad=True), mg.tensor(0.5, requires_grad=True)


def panel_text(stepper, position: int) -> str:
    """The words of a frame's panel, tags removed."""
    panel = stepper.frames[position].split("</style>", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", panel))


def classes_of(stepper) -> dict[str, list[str]]:
    """The classes of each box and arrow in the DOT text, by element id."""
    found = {}
    for line in stepper.dot.splitlines():
        element = re.search(r'\bid="([\w-]+)"', line)
        if element:
            classes = re.search(r'\bclass="([^"]*)"', line)
            found[element[1]] = classes[1].split() if classes else []
    return found


def test_each_step_is_a_record_in_the_order_the_ops_ran():
    x, w = inputs()
    stepper = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)))
    assert [record.name for record in stepper.steps] == [
        "MulBackward0",
        "TanhBackward0",
        "AddBackward0",
    ]
    assert stepper.num_steps == 3 and stepper.position == 0 and stepper.current is None
    stepper.step()
    assert stepper.current is stepper.steps[0]
    stepper.run()
    assert stepper.position == 3 and stepper.current is stepper.steps[-1]
    stepper.back()
    assert stepper.position == 2
    stepper.reset()
    assert stepper.position == 0
    with pytest.raises(ValueError, match="position must be between 0 and 3"):
        stepper.position = 4
    assert isinstance(stepper, SteppedPicture) and isinstance(
        BackwardStepper(f(*inputs())), SteppedPicture
    )


@pytest.mark.parametrize("which", [0, 1])
def test_the_tangent_is_the_gradient_reverse_mode_finds(which):
    # Along input `which`'s own direction, the result's tangent is that input's gradient.
    x, w = inputs()
    tangents = (mg.tensor(float(which == 0)), mg.tensor(float(which == 1)))
    stepper = ForwardStepper(f, (x, w), tangents)
    y = f(x, w)
    y.backward()
    assert mg.allclose(stepper.tangent, (x, w)[which].grad)
    assert mg.allclose(stepper.value, y.detach())


def test_the_picture_is_the_backward_steppers_with_a_make_dual_box_per_input():
    x, w = inputs()
    forward = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)))
    backward = BackwardStepper(f(x, w))
    titles = sorted(box.title for box in forward.graph.nodes.values())
    backward_titles = sorted(box.title for box in backward.graph.nodes.values())
    # The same ops and leaves; forward mode adds the node make_dual records (a view).
    extra = list(titles)
    for title in backward_titles:
        extra.remove(title if title != "output" else "output")
    assert extra == ["ViewBackward0", "ViewBackward0"]
    assert forward.dot.count("make_dual") == 2


def test_each_frame_lights_its_node_and_writes_its_dual_number():
    x, w = inputs()
    stepper = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)), output_name="y")
    classes = classes_of(stepper)
    for k, record in enumerate(stepper.steps, 1):
        box = f"mg-{stepper.graph.id_of[record.node]}"
        assert RAN.format(k) in classes[box]
        # The arrows into the node are read at its step; those out of it carry its tangent.
        into = [e for e in stepper.graph.edges if f"mg-{e.head}" == box]
        assert into and all(READS.format(k) in classes[f"mg-{e.id}"] for e in into)
        out = [e for e in stepper.graph.edges if f"mg-{e.tail}" == box]
        assert out and all(SENDS.format(k) in classes[f"mg-{e.id}"] for e in out)
        assert all(CARRIES.format(k) in classes[f"mg-{e.id}"] for e in out)
        # The box's text from step k on: value + tangent·ε, from the record.
        copies = [words for line in stepper.text_copies[box] for _, _, words in line]
        assert "0.5 + 0.5·ε" in copies if k == 1 else True
        # The stylesheet as it acts at step k (widgets._svg.style_at): this step's node red.
        style = style_at(stepper.picture_style, k, first=0)
        red = [rule for rule in style.splitlines() if "stroke-width: 4px" in rule]
        assert len(red) == 1 and f".{RAN.format(k)})" in red[0], red
        assert f".{RAN.format(k + 1)}" not in style
    assert "1.462 + 1.393·ε" in [w for line in stepper.text_copies["mg-n0"] for _, _, w in line]
    output_lines = [words for line in stepper.text_copies["mg-t0"] for _, _, words in line]
    assert "tangent —" in output_lines and "tangent 1.393" in output_lines
    # The inputs' tangents are on the arrows out of their make_dual boxes from the start.
    assert style_at(stepper.picture_style, 0, first=0).count("mg-fwd-carries-0") > 0


def test_the_panel_works_each_tangent_out_in_numbers():
    x, w = inputs()
    stepper = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)), output_name="y")
    assert "Before the forward pass of y : 3 steps" in panel_text(stepper, 0)
    assert "x = 1. + 1.·ε" in panel_text(stepper, 0) and "w = 0.5 + 0.·ε" in panel_text(stepper, 0)
    first = panel_text(stepper, 1)
    assert "Step 1 of 3: MulBackward0" in first
    assert "ȧ·b + a·ḃ" in first  # the record's formula
    assert "0.5 × 1 + 1 × 0 = 0.5" in first
    assert "1 − tanh²a = 1 − 0.4621² = 0.7864" in panel_text(stepper, 2)
    assert "0.7864 × 0.5 = 0.3932" in panel_text(stepper, 2)
    last = panel_text(stepper, 3)
    assert "1 × 0.3932 + 1 × 1 = 1.393" in last and "Done" in last


@contextmanager
def _tampered(record_steps):
    """``record_steps``, with every record's output tangent replaced by 1234 afterwards."""
    with record_steps() as records:
        yield records
    records[:] = [
        dataclasses.replace(r, output_tangent=mg.full_like(r.output_tangent, 1234.0))
        for r in records
    ]


def test_the_numbers_shown_are_the_records_never_recomputed(monkeypatch):
    real = forward_stepper_module.forward_ad.record_steps
    monkeypatch.setattr(forward_stepper_module.forward_ad, "record_steps", lambda: _tampered(real))
    x, w = inputs()
    stepper = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)))
    assert "0.5 × 1 + 1 × 0 = 1234" in panel_text(stepper, 1)
    assert "0.5 + 1234.·ε" in stepper.dot
    assert "0.5 + 0.5·ε" not in stepper.dot


def test_vectors_and_a_constant_input():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    stepper = ForwardStepper(lambda x: (x * 3).sum(), x, mg.tensor([1.0, 1.0]))
    assert mg.equal(stepper.tangent, mg.tensor(6.0))
    first = panel_text(stepper, 1)
    assert "no tangent: a constant" in first
    assert "x = [1., -2.] + [1., 1.]·ε" in stepper.dot


def test_hostile_names_arrive_as_text():
    x = mg.tensor(2.0, requires_grad=True)
    stepper = ForwardStepper(
        lambda x: x * x,
        x,
        mg.tensor(1.0),
        names={"<img src=x onerror=alert(1)>": x},
        output_name="<b>y</b>",
    )
    frames = "".join(stepper.frames)
    assert "<img" not in frames and "<b>y</b>" not in frames
    assert "&lt;img src=x onerror=alert(1)&gt;" in frames and "&lt;b&gt;y&lt;/b&gt;" in frames


def test_bad_arguments_are_refused_before_anything_runs():
    x = mg.tensor(2.0, requires_grad=True)
    with pytest.raises(TypeError, match="needs a function"):
        ForwardStepper(x, x, mg.tensor(1.0))
    with pytest.raises(ValueError, match="one tangent per input: 2 inputs, 1 tangents"):
        ForwardStepper(lambda a, b: a * b, (x, x), (mg.tensor(1.0),))
    with pytest.raises(ValueError, match="input 0 needs requires_grad=True"):
        ForwardStepper(lambda a: a * a, mg.tensor(2.0), mg.tensor(1.0))
    with pytest.raises(
        ValueError, match=r"tangent 0 has shape \(2,\), but its input has shape \(\)"
    ):
        ForwardStepper(lambda a: a * a, x, mg.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="must be a Tensor or a tuple of Tensors, got float"):
        ForwardStepper(lambda a: a * a, x, 1.0)
    with pytest.raises(TypeError, match="func must return one Tensor, got tuple"):
        ForwardStepper(lambda a: (a, a), x, mg.tensor(1.0))
    # Nothing was left behind: no dual level stays open.
    assert mg.autograd.forward_ad.unpack_dual(x * x).tangent is None


def test_repr_and_the_picture_for_viewers_without_widgets():
    x, w = inputs()
    stepper = ForwardStepper(f, (x, w), (mg.tensor(1.0), mg.tensor(0.0)), output_name="y")
    assert repr(stepper) == "ForwardStepper(y: 3 steps, position 0)"
    bundle = stepper._repr_mimebundle_()
    assert "step 3: AddBackward0: 1.462 + 1.393·ε" in bundle["text/plain"]
