"""Function transforms, as ``torch.func`` has them: each takes a Python function and returns
a new function that computes something about it.

- ``grad``, ``grad_and_value``: the gradient of a function with a scalar result;
- ``vjp`` and ``jacrev`` (reverse mode, one backward pass per output element), ``jvp`` and
  ``jacfwd`` (forward mode, one forward pass per input element), ``hessian``;
- ``vmap``: a function of one example made to work on a batch;
- ``functional_call``: a module run with parameters given in a dict.

They compose: ``grad(grad(f))``, ``jacfwd(jacrev(f))``, ``vmap(grad(loss))`` for one
gradient per example.

>>> import minigrad as mg
>>> from minigrad.func import grad, vmap
>>> f = lambda x: (x**3).sum()
>>> grad(f)(mg.tensor([1.0, 2.0]))
tensor([ 3., 12.])
>>> vmap(grad(f))(mg.tensor([[1.0], [2.0]]))
tensor([[ 3.],
        [12.]])
"""

from __future__ import annotations

from ._forward import hessian, jacfwd, jvp
from ._functional_call import functional_call
from ._reverse import grad, grad_and_value, jacrev, vjp
from ._vmap import vmap

__all__ = [
    "grad",
    "grad_and_value",
    "vjp",
    "jvp",
    "jacrev",
    "jacfwd",
    "hessian",
    "vmap",
    "functional_call",
]
