"""The engine looks for hooks only once one has been registered (``function.hooks_registered``).

A fresh interpreter runs each check, so that no hook registered by another test has set the
flag already: the passes before the first hook take the engine's short way, and every kind of
hook registered afterwards still runs.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import minigrad as mg
from minigrad import function

x = mg.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
(y * y).sum().backward(retain_graph=True)
assert not function.hooks_registered, "no hook yet"
print(x.grad.tolist())
x.grad = None
{register}
z = y * y
z.sum().backward(retain_graph=True)
assert function.hooks_registered
print(x.grad.tolist())
"""

# Each registration, and the .grad of x it leads to (or a line it prints) after a backward.
REGISTRATIONS = {
    "tensor hook": ("y.register_hook(lambda g: g * 0)", "[0.0, 0.0]"),
    "leaf hook": ("x.register_hook(lambda g: g + 1)", "[19.0, 37.0]"),
    "node pre-hook": ("y.grad_fn.register_prehook(lambda gs: (gs[0] * 2,))", "[36.0, 72.0]"),
    "node post-hook": ("y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, gi[1]))", "[0.0, 0.0]"),
    "retain_grad": (
        "y.retain_grad(); import atexit; atexit.register(lambda: print(y.grad))",
        "tensor([ 6., 12.])",
    ),
    "post-accumulate": (
        "x.register_post_accumulate_grad_hook(lambda t: print('acc', t.grad))",
        "acc tensor([18., 36.])",
    ),
}


@pytest.mark.parametrize("kind", REGISTRATIONS)
def test_hook_registered_after_unhooked_passes_runs(kind: str) -> None:
    register, expected = REGISTRATIONS[kind]
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(register=register)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "[18.0, 36.0]"  # d/dx sum((3x)^2) = 18x, before any hook
    assert expected in lines
