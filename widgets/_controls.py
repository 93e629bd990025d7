"""Buttons drawn by the browser (``static/controls.js``): which of them need a kernel.

- ``SliderButtons``: reset, back, step and run for a slider, moved in the page itself, so
  they work with no kernel (an exported lesson, the docs site); each is enabled exactly when
  it would move the slider, whoever moved it last.
- ``KernelButtons``: buttons whose clicks Python handles. The page knows whether a kernel is
  behind the widget (its model's comm is live); when none is, the buttons are disabled and
  a note says they need a running kernel.

>>> import ipywidgets
>>> slider = ipywidgets.IntSlider(min=0, max=3)
>>> SliderButtons(slider).buttons[2]
['step', 'step ▶', 'one step forward']
>>> clicks = []
>>> buttons = KernelButtons({"go": "go!"}, lambda name: clicks.append(name))
>>> buttons.click("go"); clicks
['go']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ._browser import STATIC
from .i18n import _

_ESM = (STATIC / "controls.js").read_text(encoding="utf-8")


def moves() -> list[list[str]]:
    """The slider's buttons, in the widgets' language: [name, label, tooltip] each."""
    # Only glyphs that common fonts have: ⏮ and ⏭ show as empty boxes on many systems.
    return [
        ["reset", _("◀◀ reset"), _("back to the start")],
        ["back", _("◀ back"), _("one step back")],
        ["step", _("step ▶"), _("one step forward")],
        ["run", _("run ▶▶"), _("to the end")],
    ]


class SliderButtons(anywidget.AnyWidget):
    """Reset, back, step and run for ``slider``, done in the browser."""

    _esm = _ESM
    slider_id = traitlets.Unicode().tag(sync=True)
    buttons = traitlets.List().tag(sync=True)

    def __init__(self, slider: ipywidgets.IntSlider, **kwargs: Any) -> None:
        super().__init__(slider_id=slider.model_id, buttons=moves(), **kwargs)

    def __repr__(self) -> str:
        return "SliderButtons(reset, back, step, run)"


class KernelButtons(anywidget.AnyWidget):
    """Buttons that run ``on_click(name)`` in Python; disabled, with a note, when the page
    has no kernel behind it. ``labels`` maps each button's name to its label."""

    _esm = _ESM
    self_id = traitlets.Unicode().tag(sync=True)
    buttons = traitlets.List().tag(sync=True)
    # The note shown when no kernel is behind the buttons (the page shows it; Python says it,
    # so that it is in the widgets' language).
    kernel_note = traitlets.Unicode().tag(sync=True)

    def __init__(
        self, labels: Mapping[str, str], on_click: Callable[[str], None], **kwargs: Any
    ) -> None:
        buttons = [
            [name, label, _("{label} (runs Python)").format(label=label)]
            for name, label in labels.items()
        ]
        note = _(
            "These buttons run Python: they need a running kernel (open the notebook in "
            "Jupyter and run its cells)."
        )
        super().__init__(buttons=buttons, kernel_note=note, **kwargs)
        self.self_id = self.model_id
        self._on_click = on_click
        self.on_msg(self._handle)

    def click(self, name: str) -> None:
        """What a click on the button ``name`` does (for scripts and tests)."""
        if name not in {button[0] for button in self.buttons}:
            raise ValueError(f"no button named {name!r}")
        self._on_click(name)

    def _handle(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and "click" in content:
            self.click(content["click"])

    def __repr__(self) -> str:
        return f"KernelButtons({', '.join(button[0] for button in self.buttons)})"
