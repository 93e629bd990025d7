"""Make the front page's picture from the code printed beside it.

``docs/index.md`` shows a block of Python and, under it, the picture that code draws:
``docs/images/stepper_step2.png``. This script takes that very block (the last ``python``
block before the picture), runs it in a fresh kernel as a one-cell notebook, exports the
notebook to HTML with the widgets' JavaScript from the venv (no CDN), opens the page in
headless Chromium and photographs the stepper. Run it after changing the block or the
widgets' look::

    .venv/bin/python scripts/front_page_image.py
    .venv/bin/python scripts/front_page_image.py --language ru     (and --language zh_CN)

With ``--language`` the same code runs with the widgets speaking that language
(``widgets.set_language``) and the picture is ``images/stepper_step2.ru.png``, which the
Russian site shows in its place (Sphinx's ``figure_language_filename``, docs/conf.py).

It needs what the browser tests need: Chromium at /usr/bin/chromium and the widget
JavaScript that ``scripts/export_page.py`` fetches once (``scripts/fetch_widget_js.sh``).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "index.md"
PICTURE = "images/stepper_step2.png"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def front_page_code(text: str) -> str:
    """The last ``python`` code block before the picture in the page's Markdown.

    >>> blocks = "```python\\na = 1\\n```\\n```python\\nb = 2\\n```\\n"
    >>> front_page_code(blocks + "![p](images/stepper_step2.png)")
    'b = 2\\n'
    """
    before = text[: text.index(f"]({PICTURE})")]
    blocks = re.findall(r"```python\n(.*?)```", before, re.S)
    if not blocks:
        raise SystemExit(f"error: no python block before {PICTURE} in {PAGE}")
    return blocks[-1]


def picture_name(name: str, language: str) -> str:
    """``draw.png`` for English, ``draw.ru.png`` for Russian: Sphinx's
    ``figure_language_filename`` ("{root}.{language}{ext}").

    >>> picture_name("draw.png", "zh_CN")
    'draw.zh_CN.png'
    """
    return name if language == "en" else name.replace(".png", f".{language}.png")


def small_png(path: Path) -> None:
    """Rewrite the screenshot at ``path`` with a palette of at most 256 colours: a widget's
    flat colours and anti-aliased text survive, at a third to a half of the size. (Octree
    keeps the text's grey ramps best of Pillow's built-in quantizers; no dithering, which
    would speckle the flat backgrounds and cost bytes.)"""
    from PIL import Image

    with Image.open(path) as picture:
        paletted = picture.convert("RGB").quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    paletted.save(path, optimize=True)


def export_html(cells: list[str], folder: Path, name: str = "page") -> Path:
    """Run ``cells`` as a notebook in ``folder``, with its widget state stored, and export
    it as ``make page`` does (``scripts/export_page.py``: the widgets' JavaScript beside the
    page, no CDN). ``scripts/widget_screenshots.py`` uses it too."""
    from export_page import write_page  # this folder is on sys.path when run as a script

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)"}
    NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(folder)}},
    ).execute()
    path = folder / f"{name}.ipynb"
    nbformat.write(notebook, path)
    return write_page(path, folder)


def photograph(page_path: Path, picture: Path) -> None:
    """Open the exported page and save a picture of its stepper."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.goto(page_path.as_uri())
            stepper = page.locator(".minigrad-stepper").first
            # Graphviz (WebAssembly) lays the picture out once the page has loaded.
            expect(stepper.locator(".minigrad-picture svg g.node").first).to_be_visible(
                timeout=60_000
            )
            page.wait_for_timeout(500)
            stepper.screenshot(path=str(picture))
        finally:
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", default="en", choices=["en", "ru", "zh_CN"])
    language = parser.parse_args().language
    code = front_page_code(PAGE.read_text())
    picture = PAGE.parent / picture_name(PICTURE, language)
    # The page's code as it is printed; the language is said in a cell of its own before it.
    speaking = f"import widgets\nwidgets.set_language({language!r})"
    with tempfile.TemporaryDirectory() as folder:
        exported = export_html([speaking, code], Path(folder), name="front_page")
        photograph(exported, picture)
    small_png(picture)
    print(f"wrote {picture} from the code block of {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
