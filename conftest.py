"""pytest's hook file for the whole checkout.

minigrad is imported before pytest collects anything. With ``--import-mode=importlib``
(pyproject.toml), collecting one module of the package on its own (``pytest
--doctest-modules minigrad/tensor.py``) made pytest import the package, then load a second
copy of that module and set it as the package's attribute: ``minigrad.tensor``, the
function, became the module, and the doctests that call it failed. With the package
imported first, pytest finds the module in ``sys.modules`` and uses it.
"""

import minigrad  # noqa: F401
