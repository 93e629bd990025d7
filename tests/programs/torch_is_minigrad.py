"""Make ``import torch`` (and ``import torch.nn.functional``, ...) give minigrad's modules.

The programs in ``scripts/`` are written as a student writes PyTorch code: ``import torch``.
To run one on minigrad, this finder answers every import of ``torch`` or ``torch.<sub>`` with
the module ``minigrad`` or ``minigrad.<sub>`` itself: the same objects, no wrapper and no
behaviour of its own. A submodule minigrad does not have fails to import, naming the
minigrad module that is missing.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType

TORCH = "torch"
MINIGRAD = "minigrad"


class TorchIsMinigrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A finder and loader that hands out minigrad's module for each torch module name."""

    def find_spec(self, fullname: str, path=None, target=None):  # noqa: ANN001 - importlib's
        if fullname == TORCH or fullname.startswith(TORCH + "."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec) -> ModuleType:  # noqa: ANN001 - importlib's signature
        return importlib.import_module(MINIGRAD + spec.name[len(TORCH) :])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: minigrad's module was fully imported by create_module."""


def install() -> None:
    """From now on, in this process, ``import torch`` imports minigrad."""
    if TORCH in sys.modules and sys.modules[TORCH].__name__ != MINIGRAD:
        raise RuntimeError("the real torch is already imported in this process")
    # Every module minigrad has already imported is registered under its torch name, so that
    # importing it does what importing an already imported module does: nothing. Loading it
    # afresh through the finder would also rebind the parent's attribute to the module, e.g.
    # turn the function minigrad.autograd.gradcheck into the module of the same name.
    importlib.import_module(MINIGRAD)
    for name, module in list(sys.modules.items()):
        if name == MINIGRAD or name.startswith(MINIGRAD + "."):
            sys.modules[TORCH + name[len(MINIGRAD) :]] = module
    sys.meta_path.insert(0, TorchIsMinigrad())
