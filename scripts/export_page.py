"""A lesson, or any notebook, as a web page that works with no kernel and no network.

    make page NOTEBOOK=notebooks/03_backward_step_by_step.ipynb
    # or: .venv/bin/python scripts/export_page.py NOTEBOOK [--out build/pages]

writes ``build/pages/03_backward_step_by_step.html`` from the notebook's stored outputs and
widget state (nothing is executed), with the JavaScript the widgets need copied beside it
and loaded by relative URLs:

    build/pages/03_backward_step_by_step.html
    build/pages/require.js
    build/pages/anywidget.js                          (the drawings' front end)
    build/pages/@jupyter-widgets/html-manager/dist/   (the widget manager and its icon fonts)
    build/pages/mathjax-setup.js, build/pages/mathjax/ (MathJax 3, for the formulas)

Send the folder (zipped) or put it on any web server; opened from disk (file://) the
drawings draw and the steppers step, offline: their frames are in the widget state and
Graphviz (WebAssembly) is in the drawings' state. Several pages in one folder share the
JavaScript. Formulas are typeset offline too, by the MathJax 3 the docs site uses.

The JavaScript is the copy ``scripts/fetch_widget_js.sh`` and ``scripts/fetch_mathjax.sh``
keep in the venv (pinned versions, from the npm registry, fetched once: the first by
``make lab``, both by ``make page``).

Why MathJax 3 from npm rather than the MathJax 2.7 inside a PyPI package
(``jupyter-server-mathjax``): the page needs npm for the widgets' JavaScript anyway, the docs
site already ships this very copy (one MathJax, one version, for pages and site), and its
3 MB are a quarter of the 12 MB of MathJax 2.7 in that wheel. nbconvert's page template is
written for MathJax 2, so its "MathJax URL" is ``scripts/page/mathjax-setup.js``, which
gives MathJax 3 the template's settings (``$`` delimiters, the Safe extension) and loads it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDGET_JS = Path(sys.prefix) / "share" / "minigrad-js"
MATHJAX = Path(sys.prefix) / "share" / "minigrad-mathjax"
MATHJAX_SETUP = ROOT / "scripts" / "page" / "mathjax-setup.js"
MANAGER = Path("@jupyter-widgets") / "html-manager" / "dist"
# Other builds of the same bundle and its source map: 10 MB the page never loads.
UNUSED = {"embed.js", "embed.js.map", "embed.js.LICENSE.txt", "libembed-amd.js"}


def fetch_widget_js() -> Path:
    """The folder of the widgets' JavaScript, fetched into the venv the first time."""
    subprocess.run(
        [str(ROOT / "scripts" / "fetch_widget_js.sh"), str(WIDGET_JS)],
        check=True,
        env={**os.environ, "VENV": sys.prefix},
    )
    return WIDGET_JS


def fetch_mathjax() -> Path:
    """The folder holding ``mathjax/`` (MathJax 3), fetched into the venv the first time."""
    subprocess.run(
        [str(ROOT / "scripts" / "fetch_mathjax.sh"), str(MATHJAX)],
        check=True,
        env={**os.environ, "VENV": sys.prefix},
    )
    return MATHJAX


def copy_mathjax(source: Path, folder: Path) -> None:
    """Put MathJax 3 (``mathjax/``) and the script that sets it up into ``folder``."""
    shutil.copytree(source / "mathjax", folder / "mathjax", dirs_exist_ok=True)
    shutil.copy(MATHJAX_SETUP, folder / MATHJAX_SETUP.name)


def copy_widget_js(source: Path, folder: Path) -> None:
    """Put require.js, anywidget's front end and the widget manager (with its fonts) into
    ``folder``, where the page's relative URLs point; files already there are replaced."""
    shutil.copy(source / "require.js", folder / "require.js")
    # require.js looks for the module `anywidget` beside the page (its base URL).
    shutil.copy(source / "anywidget.js", folder / "anywidget.js")
    shutil.copytree(
        source / "html-manager" / "dist",
        folder / MANAGER,
        ignore=lambda _, names: [name for name in names if name in UNUSED],
        dirs_exist_ok=True,
    )


def write_page(notebook: Path, folder: Path) -> Path:
    """Export ``notebook`` (as stored: outputs and widget state) to ``folder/NAME.html``, with
    the widgets' JavaScript copied into ``folder`` and loaded by relative URLs.

    The widget manager goes where its icon fonts are looked for, relative to the page
    (``@jupyter-widgets/html-manager/dist/``): so a Play button shows its icon offline.
    """
    folder.mkdir(parents=True, exist_ok=True)
    copy_widget_js(fetch_widget_js(), folder)
    copy_mathjax(fetch_mathjax(), folder)
    page = folder / f"{notebook.stem}.html"
    subprocess.run(
        [
            str(Path(sys.executable).parent / "jupyter"),
            "nbconvert",
            "--to",
            "html",
            str(notebook),
            f"--output-dir={folder}",
            "--HTMLExporter.require_js_url=require.js",
            f"--HTMLExporter.widget_renderer_url={(MANAGER / 'embed-amd.js').as_posix()}",
            f"--HTMLExporter.mathjax_url={MATHJAX_SETUP.name}",
        ],
        check=True,
        capture_output=True,
    )
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path, help="the lesson or notebook to export")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "build" / "pages", help="folder (build/pages)"
    )
    arguments = parser.parse_args(argv)
    if not arguments.notebook.is_file():
        parser.error(f"no such notebook: {arguments.notebook}")
    page = write_page(arguments.notebook, arguments.out)
    print(f"wrote {page} (open it in a browser; its folder holds the JavaScript it needs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
