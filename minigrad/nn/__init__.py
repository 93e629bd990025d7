"""Neural-network building blocks with PyTorch's names: ``Module``, ``Parameter``, layers,
losses, and ``minigrad.nn.functional``.

>>> import minigrad as mg
>>> from minigrad import nn
>>> _ = mg.manual_seed(0)
>>> model = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
>>> loss = nn.MSELoss()(model(mg.ones(4, 1)), mg.zeros(4, 1))
>>> loss.backward()
>>> model[0].weight.grad.shape
minigrad.Size([8, 1])
"""

from . import functional, init
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .modules import (
    Dropout,
    Flatten,
    Identity,
    Linear,
    LogSigmoid,
    LogSoftmax,
    Module,
    ModuleList,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
    Unflatten,
)
from .parameter import Parameter

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Flatten",
    "Identity",
    "L1Loss",
    "Linear",
    "LogSigmoid",
    "LogSoftmax",
    "MSELoss",
    "Module",
    "ModuleList",
    "NLLLoss",
    "Parameter",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "Unflatten",
    "functional",
    "init",
]
