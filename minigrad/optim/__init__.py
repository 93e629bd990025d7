"""Optimizers and learning-rate schedules, as in ``torch.optim``.

===================  ====================  =============================================
Optimizer            File                  Update of a parameter ``p`` with gradient ``g``
===================  ====================  =============================================
``SGD``              ``sgd.py``            ``p −= lr·g``; with momentum ``μ``:
                                           ``b = μ·b + (1 − dampening)·g``, ``p −= lr·b``
``Adam``             ``adam.py``           ``m``, ``v``: running means of ``g`` and
                                           ``g²``; ``p −= lr·m̂ / (√v̂ + eps)`` with
                                           ``m̂``, ``v̂`` corrected for starting at 0
``AdamW``            ``adam.py``           Adam, with the weight decay taken apart:
                                           ``p = p·(1 − lr·weight_decay)`` first
``RMSprop``          ``rmsprop.py``        ``v = α·v + (1 − α)·g²``;
                                           ``p −= lr·g / (√v + eps)``
``Adagrad``          ``adagrad.py``        ``s += g²``; ``p −= lr·g / (√s + eps)``
``Optimizer``        ``optimizer.py``      the base class: ``param_groups``, ``state``,
                                           ``zero_grad``, ``state_dict``,
                                           ``load_state_dict``, ``add_param_group``
``StepLR``           ``lr_scheduler.py``   ``lr ×= gamma`` every ``step_size`` epochs
``ExponentialLR``    ``lr_scheduler.py``   ``lr ×= gamma`` every epoch
===================  ====================  =============================================

The training loop is PyTorch's:

>>> import minigrad as mg
>>> from minigrad import nn, optim
>>> w = nn.Parameter(mg.tensor([1.0]))
>>> optimizer = optim.SGD([w], lr=0.1)
>>> loss = (w**2).sum()
>>> optimizer.zero_grad()
>>> loss.backward()
>>> optimizer.step()
>>> w
Parameter containing:
tensor([0.8000], requires_grad=True)

Each ``step()`` changes the parameters in place under ``no_grad``: they stay the same leaf
tensors, so the model, the optimizer and any drawing of the graph keep them. A parameter
whose ``.grad`` is ``None`` (it took no part in the loss, or ``zero_grad()`` just ran) is
left alone, state and all.
"""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
