"""W5 in the browser: what a student waits for once Python has built a stepper.

The drawings are laid out in the browser (widgets/static/graphviz_view.js running Graphviz
compiled to WebAssembly), so their cost is measured there, in headless Chromium, on the
front end itself: the page imports the real ES module and renders a stepper's picture
through a stand-in for the widget model (the same ``get``/``on`` calls anywidget's model
answers), then applies frames as the Stack does, by putting a frame's stylesheet in the
page.

- ``first render``: a fresh page, from nothing to the picture on screen, Graphviz's
  WebAssembly loaded and the graph laid out (what the first drawing of a notebook costs);
- ``render``: the same picture again in that page, Graphviz already loaded (any later one);
- ``step``: one frame's stylesheet swapped in, until the browser has styled, laid out and
  is ready to paint the next frame (two animation frames).

    python bench/browser_w5.py 100      # prints the medians for a graph of 100 nodes
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ORIGIN = "http://w5.bench"  # served from memory by Playwright: nothing listens there

PAGE = """<!doctype html><meta charset="utf-8">
<div id="picture" class="minigrad-picture SCOPE"></div><div id="frame"></div>
<script type="module">
import view from "./graphviz_view.js";
const data = JSON.parse(document.getElementById("data").textContent);
const engine = { get: (name) => data.engine[name] };
function model() {
    return {
        get: (name) => data.model[name],
        on() {}, off() {},
        widget_manager: { get_model: async () => engine },
    };
}
const nextPaint = () =>
    new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
async function render() {
    const el = document.getElementById("picture");
    el.replaceChildren();
    delete el.dataset.rendered;
    const start = performance.now();
    view.render({ model: model(), el });
    while (el.dataset.rendered !== "true") {
        if (el.querySelector(".minigrad-graphviz-error")) throw new Error(el.textContent);
        await new Promise((done) => setTimeout(done, 0));
    }
    el.getBoundingClientRect();
    await nextPaint();
    return performance.now() - start;
}
async function step(k) {
    const frame = document.getElementById("frame");
    const start = performance.now();
    frame.innerHTML = data.frames[k];
    document.getElementById("picture").getBoundingClientRect();  // style and layout now
    await nextPaint();
    return performance.now() - start;
}
window.w5 = { render, step, frames: data.frames.length };
window.w5ready = true;
</script>
<script type="application/json" id="data">DATA</script>
"""


def stepper_page(n_nodes: int) -> str:
    """The page for a stepper over ``graph_of(n_nodes)``, with its DOT, texts and frames."""
    from run import graph_of  # bench/run.py

    from widgets import BackwardStepper
    from widgets._browser import shared_engine

    stepper = BackwardStepper(graph_of(n_nodes), max_nodes=2 * n_nodes)
    engine = shared_engine()
    data = {
        "engine": {"version": engine.version, "bundle": engine.bundle},
        "model": {"dot": stepper.dot, "text_copies": stepper.text_copies, "engine": "IPY_MODEL_e"},
        "frames": stepper.frames,
    }
    # "</" cannot appear inside a <script> element: JSON allows "<\/" for it.
    text = json.dumps(data).replace("</", "<\\/")
    return PAGE.replace("SCOPE", stepper.scope).replace("DATA", text)


def browser_samples(n_nodes: int, rounds: int) -> dict[str, list[float]]:
    """Seconds per sample: ``first render`` and ``render`` once per round (each round a
    fresh page), ``step`` for up to ten steps per round."""
    from playwright.sync_api import sync_playwright

    page_html = stepper_page(n_nodes)
    front_end = (ROOT / "widgets" / "static" / "graphviz_view.js").read_text()
    samples: dict[str, list[float]] = {"first render": [], "render": [], "step": []}

    def serve(route) -> None:
        if route.request.url.endswith("/graphviz_view.js"):
            route.fulfill(body=front_end, content_type="text/javascript")
        else:
            route.fulfill(body=page_html, content_type="text/html")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(rounds):
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.route(f"{ORIGIN}/**", serve)
                page.goto(f"{ORIGIN}/w5.html")
                page.wait_for_function("window.w5ready === true")
                samples["first render"].append(page.evaluate("w5.render()") / 1e3)
                samples["render"].append(page.evaluate("w5.render()") / 1e3)
                frames = page.evaluate("w5.frames")
                for k in range(1, min(frames, 11)):
                    samples["step"].append(page.evaluate(f"w5.step({k})") / 1e3)
                page.close()
        finally:
            browser.close()
    return samples


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for part, times in browser_samples(size, 5).items():
        print(f"{part:>13}: {statistics.median(times) * 1e3:8.2f} ms  ({len(times)} samples)")
