"""Opening a lesson never modifies it: every notebook names its kernel as ipykernel does.

JupyterLab compares a notebook's ``metadata.kernelspec`` with the installed kernel's; when
the display name differs (``"Python 3"`` where ipykernel installs ``"Python 3 (ipykernel)"``)
it rewrites the metadata on open, and autosave then changes the student's file. So every
notebook the project ships carries exactly the kernelspec ipykernel installs.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict

ROOT = Path(__file__).resolve().parent.parent


# Folders that hold no notebook of the project's: environments, builds, test output.
NOT_SHIPPED = {"build", "dist", "test-artifacts", "_build", ".ipynb_checkpoints", "node_modules"}


def shipped_notebooks() -> list[Path]:
    """Every notebook in the repository (lessons, exercise sets, teacher sources, any other)."""
    found = []
    for top in ROOT.iterdir():
        if top.is_dir() and not top.name.startswith(".") and top.name not in NOT_SHIPPED:
            found += [
                path
                for path in top.rglob("*.ipynb")
                if not NOT_SHIPPED & set(path.relative_to(ROOT).parts)
            ]
    return sorted(found)


NOTEBOOKS = shipped_notebooks()


def test_ipykernel_installs_the_kernelspec_the_lessons_name():
    installed = get_kernel_dict()
    assert (KERNEL_NAME, installed["display_name"], installed["language"]) == (
        "python3",
        "Python 3 (ipykernel)",
        "python",
    )


def test_there_are_notebooks_to_check():
    assert any(path.parent.name == "notebooks" for path in NOTEBOOKS)
    assert any("exercises" in path.parts for path in NOTEBOOKS)
    assert any("teacher" in path.parts for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_kernelspec_is_exactly_what_ipykernel_installs(path):
    installed = get_kernel_dict()
    kernelspec = nbformat.read(path, as_version=4).metadata.get("kernelspec")
    assert kernelspec == {
        "display_name": installed["display_name"],
        "language": installed["language"],
        "name": KERNEL_NAME,
    }, (
        f"{path.relative_to(ROOT)}: JupyterLab would rewrite this kernelspec on open; edit the "
        'metadata to {"display_name": "Python 3 (ipykernel)", "language": "python", '
        '"name": "python3"}'
    )
