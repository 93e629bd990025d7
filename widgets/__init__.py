"""widgets: drawings and controls for minigrad graphs.

>>> import minigrad as mg
>>> import widgets
>>> x = mg.tensor(2.0, requires_grad=True)
>>> drawing = widgets.draw(x * x)           # DOT text, drawn by Graphviz in the browser
>>> stepper = widgets.BackwardStepper(x * x)  # step through its backward pass
>>> forward = widgets.ForwardStepper(lambda x: x * x, x, mg.tensor(1.0))  # forward mode
>>> stepper.num_steps
2
>>> widgets.set_language("ru")  # or "zh_CN"; None: the notebook's, else the locale's
>>> widgets.set_language(None)
"""

from .accumulation import GradAccumulation
from .draw import Drawing, GraphvizMissingError, draw
from .forward_stepper import ForwardStepper
from .i18n import language, set_language
from .layers import draw_layers
from .second_derivative import SecondDerivative
from .stepper import BackwardStepper

__all__ = [
    "BackwardStepper",
    "Drawing",
    "ForwardStepper",
    "GradAccumulation",
    "GraphvizMissingError",
    "SecondDerivative",
    "draw",
    "draw_layers",
    "language",
    "set_language",
]
