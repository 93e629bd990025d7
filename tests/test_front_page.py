"""The documentation's front page: its picture is what the code beside it shows.

``scripts/front_page_image.py`` makes ``docs/images/stepper_step2.png`` by running the last
``python`` block before the picture and photographing the stepper it displays. Here that
block is run as the script runs it, and what the picture's caption says is checked against
it: a stepper at step 2 of 4, the step of ``MulBackward0``, which sends 3 to ``x`` and 2 to
``w``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "front_page_image.py"


def load_script():
    spec = importlib.util.spec_from_file_location("front_page_image", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_picture_is_made_from_the_block_beside_it_and_shows_what_its_caption_says():
    script = load_script()
    page = script.PAGE.read_text()
    code = script.front_page_code(page)
    namespace: dict = {}
    exec(compile(code, str(script.PAGE), "exec"), namespace)
    shown = eval(code.strip().splitlines()[-1], namespace)  # the cell's displayed value
    stepper = namespace["stepper"]
    assert shown is stepper
    assert (stepper.position, stepper.num_steps) == (2, 4)
    step = stepper.current
    assert step.node.name() == "MulBackward0"
    assert [grad.item() for grad in step.grads_out] == [3.0, 2.0]
    caption = re.search(r"!\[([^\]]*)\]\(" + re.escape(script.PICTURE) + r"\)", page)
    assert caption and "step 2 of 4" in caption.group(1)
    assert "MulBackward0 sends 3 to x and 2 to w" in caption.group(1)
    assert (script.PAGE.parent / script.PICTURE).stat().st_size > 10_000
