"""What several widget tests share: a start in English, and the toy engine of one's own."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

import widgets
from minigrad_course import language_choice


@pytest.fixture
def no_language_chosen(monkeypatch):
    """The test starts with no language chosen, no notebook and no locale: English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(variable, raising=False)
    # The notebook's language is looked up at most once a second: each test looks afresh.
    monkeypatch.setattr(language_choice, "_last_check", (float("-inf"), None, None))
    widgets.set_language(None)
    yield
    widgets.set_language(None)


def load_toy_engine() -> ModuleType:
    """``tests/widgets/toy_engine.py``: an engine of one's own, shared with the browser test
    (tests/ is no package, and pytest imports test files with importlib)."""
    spec = importlib.util.spec_from_file_location(
        "toy_engine", Path(__file__).with_name("toy_engine.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def toy_value() -> type:
    """The toy engine's ``Value`` class."""
    return load_toy_engine().Value
