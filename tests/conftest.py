"""Shared pytest setup for minigrad's tests.

Fixtures
    ``torch``           the PyTorch module, the oracle for parity tests
                        (``def test_add(torch): ...``); skips when torch is missing.
    ``requires_torch``  the same, for ``@pytest.mark.usefixtures("requires_torch")``.
    ``requires_dot``    path of Graphviz's ``dot`` program; skips when it is not on PATH.
    ``real_dot``        Graphviz's ``dot`` put on PATH for the test (a folder holding only
                        a link to it), also where PATH hides it as .ci/run does; skips when
                        the machine has no ``dot`` at all.
    ``gc_disabled``     the garbage collector off for the test: whatever is freed must be
                        freed by reference counting alone (no reference cycles left).
    ``lite_site``       the JupyterLite site (``make lite``), built once per session into a
                        temporary folder (tests/test_lite.py checks it, and the answer-key
                        leak test searches it).

Markers (registered in pyproject.toml) do the same for a test, class or module:
``oracle`` (needs torch), ``graphviz`` (needs dot), ``browser`` (needs /usr/bin/chromium).

MINIGRAD_REQUIRE_ALL=1 (set by .ci/run) turns every skip, and every xfail, into a
failure that keeps the skip reason: in CI all tests must run.

Hypothesis profiles: "dev" (100 random examples) by default, "ci" (500 examples, the same
on every run) when CI is set; HYPOTHESIS_PROFILE=name overrides both.
"""

import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def _env_on(name):
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


# --------------------------------------------------------------------------- hypothesis
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=500,
    deadline=None,
    print_blob=True,
    # The same examples on every CI run: its verdict depends on the code alone. The dev
    # profile stays random, so the examples explored keep changing while developing.
    derandomize=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _env_on("CI") else "dev"))


# --------------------------------------------------------------------------- optional tools
def _need_torch():
    return pytest.importorskip(
        "torch", reason="PyTorch oracle not installed: pip install -e '.[oracle]'"
    )


def _need_dot():
    dot = shutil.which("dot")
    if dot is None:
        pytest.skip(
            "Graphviz's `dot` is not on PATH: sudo apt-get install graphviz, "
            "brew install graphviz, or conda install -c conda-forge graphviz"
        )
    return dot


def _need_chromium():
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed: sudo apt-get install chromium chromium-driver")
    return CHROMIUM


@pytest.fixture
def torch():
    return _need_torch()


@pytest.fixture
def requires_torch():
    return _need_torch()


@pytest.fixture
def requires_dot():
    return _need_dot()


@pytest.fixture
def real_dot(tmp_path, monkeypatch):
    """.ci/run hides Graphviz from PATH (the drawings must need nothing but pip); a test of
    what a student with Graphviz installed sees finds the machine's own ``dot`` anyway."""
    where = os.pathsep.join([os.environ.get("PATH", ""), os.defpath, "/usr/local/bin"])
    dot = shutil.which("dot", path=where)
    if dot is None:
        pytest.skip("Graphviz's `dot` is not installed: sudo apt-get install graphviz")
    folder = tmp_path / "graphviz-bin"
    folder.mkdir()
    (folder / "dot").symlink_to(dot)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return folder / "dot"


@pytest.fixture
def gc_disabled():
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lite") / "site"
    # The build tools' venv is kept in build/ (gitignored) between runs, as `make lite` does.
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build_lite.sh")],
        env={**os.environ, "VENV": sys.prefix, "OUT": str(out)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out


_MARKERS = {"oracle": _need_torch, "graphviz": _need_dot, "browser": _need_chromium}


def pytest_runtest_setup(item):
    for name, need in _MARKERS.items():
        if item.get_closest_marker(name):
            need()


# --------------------------------------------------------------------------- nothing skipped in CI
def _no_skips(report):
    """Under MINIGRAD_REQUIRE_ALL=1 turn a skipped (or xfail/xpass) report into a failure."""
    if not _env_on("MINIGRAD_REQUIRE_ALL"):
        return report
    if hasattr(report, "wasxfail"):
        reason = f"xfail: {report.wasxfail}"
        del report.wasxfail
    elif report.skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    else:
        return report
    report.outcome = "failed"
    report.longrepr = f"{reason} -- not allowed: MINIGRAD_REQUIRE_ALL=1, nothing may be skipped"
    return report


def pytest_configure(config):
    # A skip at import time (module-level importorskip) becomes a collection error below;
    # keep running the rest so one CI log shows everything that is missing.
    if _env_on("MINIGRAD_REQUIRE_ALL"):
        config.option.continue_on_collection_errors = True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    return _no_skips((yield))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    return _no_skips((yield))


# --------------------------------------------------------------------------- warnings
@pytest.fixture(autouse=True)
def _create_graph_warning_not_yet_given(monkeypatch):
    """backward(create_graph=True) warns once per process, as PyTorch does; each test starts
    as a fresh process would, so whether it sees the warning does not depend on test order."""
    import minigrad.autograd

    monkeypatch.setattr(minigrad.autograd, "_warned_about_create_graph", False)
