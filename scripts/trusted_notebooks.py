"""Trust only what the course shipped: the manifest of the notebooks' SHA-256 hashes.

JupyterLab shows a notebook's stored drawings and widgets only when the notebook is trusted
(signed in the user's signature database). ``make lab`` and the Binder image trust the
course's notebooks before JupyterLab starts, but only while each one's content is exactly
what the project shipped: its SHA-256 must be the one recorded in ``notebooks/trusted.sha256``
(the format of ``sha256sum``, so ``sha256sum -c notebooks/trusted.sha256`` checks it too). A
notebook is never trusted because of its name: a downloaded ``99_anything.ipynb``, or a
lesson whose content someone changed, stays untrusted (JupyterLab then shows its text
outputs, and its drawings once its cells run).

The manifest lists every notebook under ``notebooks/`` that git tracks. After changing,
re-executing or adding a notebook there (``git add`` a new one first), refresh it with
one command and commit the result:

    .venv/bin/python scripts/trusted_notebooks.py refresh

Commands:

    refresh   rewrite notebooks/trusted.sha256 from the notebooks as they are now
    check     exit 1, naming what differs, if the manifest is not up to date
    trust     sign each notebook of the manifest whose content has the recorded hash;
              takes ``jupyter trust``'s options (--NotebookNotary.db_file=..., ...) and
              reads the same configuration (the data dir, jupyter_notebook_config)

``--root DIR`` works on another copy of the repository (the tests use one).
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.sign import NotebookNotary, TrustNotebookApp

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path("notebooks") / "trusted.sha256"
REFRESH = ".venv/bin/python scripts/trusted_notebooks.py refresh"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shipped_notebooks(root: Path) -> list[str]:
    """The notebooks the project ships: every ``.ipynb`` under ``notebooks/`` that git tracks
    (a file merely lying there is not the project's), as paths relative to ``root``. Outside a
    git checkout (an unpacked archive), every notebook there but editors' checkpoints."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--", "notebooks/*.ipynb"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode("utf-8")
        paths = [path for path in listed.split("\0") if path and (root / path).is_file()]
    except (OSError, subprocess.CalledProcessError):
        paths = [
            path.relative_to(root).as_posix()
            for path in (root / "notebooks").rglob("*.ipynb")
            if ".ipynb_checkpoints" not in path.parts
        ]
    return sorted(paths)


def manifest_text(root: Path) -> str:
    """What ``notebooks/trusted.sha256`` must hold: ``<sha256>  <path>`` per shipped notebook."""
    return "".join(
        f"{sha256((root / path).read_bytes())}  {path}\n" for path in shipped_notebooks(root)
    )


def read_manifest(root: Path) -> dict[str, str]:
    """The manifest as ``{path: sha256}``; empty if there is none."""
    manifest = root / MANIFEST
    if not manifest.exists():
        return {}
    entries = {}
    for line in manifest.read_text(encoding="utf-8").splitlines():
        digest, _, path = line.partition("  ")
        if len(digest) != 64 or not path:
            raise ValueError(f"{MANIFEST}: not a '<sha256>  <path>' line: {line!r}")
        entries[path] = digest
    return entries


def stale_entries(root: Path) -> list[str]:
    """How the manifest differs from the shipped notebooks, one line each; empty when it is
    up to date."""
    recorded = read_manifest(root)
    now = {path: sha256((root / path).read_bytes()) for path in shipped_notebooks(root)}
    problems = [f"not in the manifest: {path}" for path in sorted(now.keys() - recorded.keys())]
    problems += [f"no longer shipped: {path}" for path in sorted(recorded.keys() - now.keys())]
    problems += [
        f"changed since the manifest was written: {path}"
        for path in sorted(now.keys() & recorded.keys())
        if now[path] != recorded[path]
    ]
    return problems


def trust(root: Path, jupyter_options: list[str]) -> tuple[list[str], list[str]]:
    """Sign every notebook of the manifest whose bytes have the recorded hash, in the
    signature database ``jupyter trust`` would use with ``jupyter_options``. The bytes
    checked are the bytes signed (read once). Returns ``(trusted, refused)`` paths, refused
    ones being those changed since shipped and not signed already (a notebook the user ran
    and saved is signed by JupyterLab itself, and stays so)."""
    app = TrustNotebookApp()
    app.initialize(jupyter_options)
    if app.extra_args:
        raise SystemExit(f"trust takes no notebook names, only options: {app.extra_args}")
    trusted, refused = [], []
    with app.notary:
        for path, digest in read_manifest(root).items():
            file = root / path
            data = file.read_bytes() if file.is_file() else b""
            if sha256(data) != digest:
                if not _signed(app.notary, data):
                    refused.append(path)
                continue
            notebook = nbformat.reads(data.decode("utf-8"), nbformat.NO_CONVERT)
            if not app.notary.check_signature(notebook):
                app.notary.sign(notebook)
            trusted.append(path)
    return trusted, refused


def _signed(notary: NotebookNotary, data: bytes) -> bool:
    """Whether ``data`` is a notebook already signed in the notary's database."""
    try:
        return notary.check_signature(nbformat.reads(data.decode("utf-8"), nbformat.NO_CONVERT))
    except Exception:  # whatever nbformat cannot read is no signed notebook
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["refresh", "check", "trust"])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this)")
    args, jupyter_options = parser.parse_known_args(argv)
    root = args.root.resolve()
    if args.command != "trust" and jupyter_options:
        parser.error(f"unrecognized arguments: {' '.join(jupyter_options)}")
    if args.command == "refresh":
        (root / MANIFEST).write_text(manifest_text(root), encoding="utf-8")
        print(f"{MANIFEST}: {len(shipped_notebooks(root))} notebooks")
        return 0
    if args.command == "check":
        problems = stale_entries(root)
        for problem in problems:
            print(f"{MANIFEST}: {problem}", file=sys.stderr)
        if problems:
            print(f"refresh it with: {REFRESH}", file=sys.stderr)
        return 1 if problems else 0
    trusted, refused = trust(root, jupyter_options)
    print(f"trusted {len(trusted)} course notebooks, each as the course shipped it")
    for path in refused:
        print(f"not trusted: {path} differs from the shipped one (its drawings show once it runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
