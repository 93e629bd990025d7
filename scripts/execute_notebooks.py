"""Execute lesson notebooks in place, so every stored output comes from a real run.

The lessons are stored *with* their outputs (students read them before running anything, and
``pytest --nbval`` compares a fresh run against them). Never type or edit an output by hand:
change the code, then run this script to execute the notebook top to bottom in a fresh kernel
and write it back.

Usage, from the repository root::

    .venv/bin/python scripts/execute_notebooks.py notebooks/01_gradients.ipynb
    .venv/bin/python scripts/execute_notebooks.py notebooks          # every lesson

Each notebook runs in its own folder (as nbval and JupyterLab run it), with the ``python3``
kernel, which is this venv's Python. A notebook whose cell raises an error is not written back
(cells tagged ``raises-exception`` may raise); the script then exits with status 1.
"""

import argparse
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent


def notebook_paths(paths: list[Path]) -> list[Path]:
    """The notebooks named by ``paths``: files as given, folders searched (not checkpoints).

    Example: ``notebook_paths([Path("notebooks")])`` gives
    ``[PosixPath('notebooks/01_gradients.ipynb'), ...]``.
    """
    found = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif path.suffix == ".ipynb" and path.is_file():
            found.append(path)
        else:
            raise SystemExit(f"error: {path} is neither a notebook nor a folder")
    return found


def without_machine_paths(nb: nbformat.NotebookNode, folder: Path) -> None:
    """Write the repository's absolute path as a path relative to ``folder`` in the stored
    tracebacks and streams, which name the files of the frames they show.

    The stored lesson then reads the same on every machine, and does not show where the
    person who ran it keeps their files. Example: in a notebook run from ``notebooks/``,
    ``File /home/ada/minigrad/minigrad/engine.py:100`` is stored as
    ``File ../minigrad/engine.py:100``.
    """
    absolute = str(ROOT) + os.sep
    relative = os.path.relpath(ROOT, folder.resolve()) + os.sep
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                output["traceback"] = [
                    line.replace(absolute, relative) for line in output["traceback"]
                ]
            elif output["output_type"] == "stream":
                output["text"] = output["text"].replace(absolute, relative)


def execute_in_place(path: Path, timeout: int = 120) -> None:
    """Run the notebook at ``path`` top to bottom in a fresh kernel and save it with its outputs.

    Example: ``execute_in_place(Path("notebooks/01_gradients.ipynb"))``.
    """
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,  # so saved widgets still render before the kernel runs
        resources={"metadata": {"path": str(path.parent)}},  # run from the notebook's folder
    )
    client.execute()  # raises CellExecutionError before anything is written
    for cell in nb.cells:
        # nbclient records when each cell ran; dropped so that a re-run changes only what
        # the code printed, and a diff shows nothing when nothing changed.
        cell.metadata.pop("execution", None)
    without_machine_paths(nb, path.parent)
    nbformat.validate(nb)
    nbformat.write(nb, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="notebooks or folders of notebooks")
    parser.add_argument("--timeout", type=int, default=120, help="seconds allowed per cell")
    args = parser.parse_args(argv)

    failed = []
    for path in notebook_paths(args.paths):
        print(f"executing {path} ...", flush=True)
        try:
            execute_in_place(path, timeout=args.timeout)
        except CellExecutionError as error:
            print(f"FAILED, not saved: {path}\n{error}", file=sys.stderr)
            failed.append(path)
    shipped = ROOT / "notebooks"
    if any(shipped in path.resolve().parents for path in notebook_paths(args.paths)):
        # make lab trusts a lesson only while its SHA-256 is the one recorded.
        refresh = ".venv/bin/python scripts/trusted_notebooks.py refresh"
        print(f"then refresh what make lab trusts: {refresh}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
