"""Screenshots of the widgets for the docs (docs/quickstart.md shows them).

Writes a notebook of the quickstart's examples, runs it with its widget state stored,
exports it to HTML against the local widget JavaScript (scripts/fetch_widget_js.sh), opens
the page in headless Chromium (Debian's /usr/bin/chromium, through Playwright) and
photographs each widget, stepping the stepper with its own buttons, as a reader would.

    .venv/bin/python scripts/widget_screenshots.py [--language ru] [OUT_DIR]
                                                        (default: docs/images)

Writes draw.png, stepper_start.png, stepper_end.png,
grad_accumulation.png, grad_accumulation_freed_graph.png and second_derivative.png; with
``--language ru`` (or ``zh_CN``) the same pictures of the widgets speaking that language
(``widgets.set_language``), as draw.ru.png, ...: the Russian and Chinese sites show them in
place of the English ones (Sphinx's ``figure_language_filename``, see docs/conf.py).
The pictures are saved with a palette of at most 256 colours (``small_png``), which keeps
a screenshot's flat colours and text and a third to a half of its size.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

# this folder is on sys.path when run as a script
from front_page_image import export_html, picture_name, small_png
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
WIDGET_JS = Path(sys.prefix) / "share" / "minigrad-js"

CELLS = [
    "import minigrad as mg\nimport widgets",
    # draw.png
    "x = mg.tensor(0.5, requires_grad=True)\n"
    "w = mg.tensor(-1.5, requires_grad=True)\n"
    "b = mg.tensor(0.25, requires_grad=True)\n"
    "y = (x * w + b).tanh() * x\n"
    "widgets.draw(y)",
    # stepper_*.png
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "w = mg.tensor(3.0, requires_grad=True)\n"
    "a = x * w\n"
    "y = a + x\n"
    "widgets.BackwardStepper(y)",
    # grad_accumulation.png: backward twice, zeroing, a new graph
    "x = mg.tensor(2.0, requires_grad=True)\n"
    'demo = widgets.GradAccumulation(lambda x: x * x, [x], names=["x"])\n'
    "demo.backward(retain_graph=True)\n"
    "demo.backward(retain_graph=True)\n"
    "demo.zero_grad()\n"
    "demo.rebuild()\n"
    "demo.backward()\n"
    "demo",
    # grad_accumulation_freed_graph.png
    "x = mg.tensor(2.0, requires_grad=True)\n"
    'freed = widgets.GradAccumulation(lambda x: x * x, [x], names=["x"])\n'
    "freed.backward()\n"
    "freed.backward()\n"
    "freed",
    # second_derivative.png
    'widgets.SecondDerivative(lambda x: x**3, 2.0, label="x**3")',
]

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def export(folder: Path, language: str = "en") -> Path:
    """The notebook, run and exported to HTML beside the widget JavaScript it needs, with its
    widgets speaking ``language``."""
    cells = [f"{CELLS[0]}\nwidgets.set_language({language!r})", *CELLS[1:]]
    return export_html(cells, folder, name="widgets")


def photograph(page_url: str, out: Path, language: str = "en") -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 980, "height": 1400}, device_scale_factor=1)
        page.goto(page_url)
        expect(page.locator(".minigrad-graphviz[data-rendered]")).to_have_count(4, timeout=60_000)
        outputs = page.locator(".jp-OutputArea-output")

        def shoot(locator, name: str) -> None:
            locator.scroll_into_view_if_needed()
            path = out / picture_name(name, language)
            locator.screenshot(path=path)
            small_png(path)
            print("wrote", path)

        shoot(outputs.nth(0), "draw.png")
        stepper = page.locator(".minigrad-stepper").first
        frame = stepper.locator(".minigrad-frame:visible")
        shoot(stepper, "stepper_start.png")
        for position in (1, 2):
            stepper.locator("button.minigrad-step-button").click()
            expect(frame).to_have_attribute("data-position", str(position))
        # stepper_step2.png is the front page's picture: scripts/front_page_image.py makes it
        # from the code printed beside it.
        stepper.locator("button.minigrad-run-button").click()
        expect(frame).to_have_attribute("data-position", "4")
        shoot(stepper, "stepper_end.png")
        demos = page.locator(".minigrad-grad-accumulation")
        shoot(demos.nth(0), "grad_accumulation.png")
        shoot(demos.nth(1), "grad_accumulation_freed_graph.png")
        shoot(page.locator(".widget-vbox.minigrad-second-derivative"), "second_derivative.png")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--language", default="en", choices=["en", "ru", "zh_CN"])
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        page = export(Path(folder), arguments.language)
        photograph(page.as_uri(), arguments.out, arguments.language)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
