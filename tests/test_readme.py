"""The README's quick start runs, and prints what its comments promise."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def quick_start_code() -> str:
    text = README.read_text()
    section = text.split("## Quick start", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's Quick start has no python code block"
    return match.group(1)


def test_quick_start_prints_what_its_comments_say():
    code = quick_start_code()
    promised = [line.split("#", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), {})
    assert printed.getvalue().splitlines() == promised


def test_quick_start_is_ten_lines():
    assert len(quick_start_code().strip().splitlines()) == 10


def test_set_up_is_exactly_two_commands():
    section = README.read_text().split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^- \*\*`([^`]+)`\*\*", section, re.M)
    assert commands == ["make lab", "make test"]
