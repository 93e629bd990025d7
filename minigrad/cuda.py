"""``minigrad.cuda``: what ``torch.cuda`` answers on a machine without CUDA.

Code written for GPUs usually asks first (``device = "cuda" if
torch.cuda.is_available() else "cpu"``), and then runs unchanged on the CPU.

>>> import minigrad as mg
>>> mg.cuda.is_available(), mg.cuda.device_count()
(False, 0)
"""

from __future__ import annotations


def is_available() -> bool:
    """Whether a CUDA GPU can be used: never, minigrad computes with numpy on the CPU."""
    return False


def device_count() -> int:
    """The number of CUDA GPUs minigrad can use: none."""
    return 0
