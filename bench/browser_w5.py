"""W5 in the browser: what a student waits for once Python has built a stepper or a drawing.

The drawings are laid out in the browser (widgets/static/graphviz_view.js running Graphviz
compiled to WebAssembly), so their cost is measured there, in headless Chromium, on the
front end itself: the page imports the real ES module and renders a picture through a
stand-in for the widget model (the same ``get``/``on`` calls anywidget's model answers),
with the stepper's one stylesheet in the page, and steps it as the jslinked slider and the
Stack do: the model's ``position`` changes (the front end marks the classes of the steps
reached) and the frame's panel is swapped in.

- ``wasm load``: Graphviz's WebAssembly decoded, compiled and instantiated, once per page
  (the front end's ``minigrad:graphviz-load`` measure);
- ``first render``: the first picture of a fresh page once Graphviz is loaded, from the
  call to the picture painted (the page's whole first render minus ``wasm load``);
- ``render``: the same picture again in that page (any later drawing);
- ``step``: one step, started at the beginning of an animation frame, until that frame
  is styled, laid out and painted (what has to fit in 16 ms for stepping at frame rate);
- ``layout``: how often one step laid the graph out (Graphviz's ``minigrad:layout``
  measures), which must be 0;
- ``draw 1000``: ``widgets.draw`` of a 1 000-node graph, rendered once Graphviz is loaded.

    python bench/browser_w5.py 100      # prints the medians for a graph of 100 nodes
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ORIGIN = "http://w5.bench"  # served from memory by Playwright: nothing listens there
LARGE = 1000  # the size of the large drawing

PAGE = """<!doctype html><meta charset="utf-8">
<style id="stepper-style"></style>
<div id="picture" class="minigrad-picture"></div><div id="frame"></div>
<script type="module">
import view from "./graphviz_view.js";
const data = JSON.parse(document.getElementById("data").textContent);
document.getElementById("stepper-style").textContent = data.style;
document.getElementById("picture").classList.add(data.scope);
const engine = { get: (name) => data.engine[name] };
let current = null; // the model of the picture rendered last
function model() {
    const state = { ...data.model, position: 0 };
    const handlers = {};
    return {
        get: (name) => state[name],
        set(name, value) {
            state[name] = value;
            for (const handler of handlers[`change:${name}`] ?? []) handler();
        },
        on(event, handler) { (handlers[event] ??= []).push(handler); },
        off(event, handler) {
            handlers[event] = (handlers[event] ?? []).filter((h) => h !== handler);
        },
        widget_manager: { get_model: async () => engine },
    };
}
// After the next frame is painted: a task queued from an animation frame callback runs once
// that frame's style, layout and paint are done.
const afterFrame = () => new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    requestAnimationFrame(() => channel.port2.postMessage(null));
});
const measured = (name) => performance.getEntriesByName(`minigrad:${name}`).length;
async function render() {
    const el = document.getElementById("picture");
    el.replaceChildren();
    delete el.dataset.rendered;
    const start = performance.now();
    current = model();
    view.render({ model: current, el });
    while (el.dataset.rendered !== "true") {
        if (el.querySelector(".minigrad-graphviz-error")) throw new Error(el.textContent);
        await new Promise((done) => setTimeout(done, 0));
    }
    const total = (await afterFrame()) - start;
    const loads = performance.getEntriesByName("minigrad:graphviz-load");
    return { total, wasm: loads.length ? loads[0].duration : null, loads: loads.length };
}
function step(k) {
    const frame = document.getElementById("frame");
    const layouts = measured("layout");
    return new Promise((done) => requestAnimationFrame(() => {
        const start = performance.now();
        current.set("position", k); // the slider, jslinked to the picture's position
        frame.innerHTML = data.frames[k]; // the Stack shows the frame's panel
        const channel = new MessageChannel();
        channel.port1.onmessage = () =>
            done({ time: performance.now() - start, layouts: measured("layout") - layouts });
        channel.port2.postMessage(null);
    }));
}
window.w5 = { render, step, frames: data.frames.length };
window.w5ready = true;
</script>
<script type="application/json" id="data">DATA</script>
"""


def page_of(dot: str, text_copies: dict, style: str, scope: str, frames: list[str]) -> str:
    """The page for one picture: its DOT, the stepper's texts, stylesheet and frames."""
    from widgets._browser import shared_engine

    engine = shared_engine()
    data = {
        "engine": {"version": engine.version, "bundle": engine.bundle},
        "model": {"dot": dot, "text_copies": text_copies, "engine": "IPY_MODEL_e"},
        "style": style,
        "scope": scope,
        "frames": frames,
    }
    # "</" cannot appear inside a <script> element: JSON allows "<\/" for it.
    return PAGE.replace("DATA", json.dumps(data).replace("</", "<\\/"))


def stepper_page(n_nodes: int) -> str:
    """The page for a stepper over ``graph_of(n_nodes)``."""
    from run import graph_of  # bench/run.py

    from widgets import BackwardStepper

    stepper = BackwardStepper(graph_of(n_nodes), max_nodes=2 * n_nodes)
    return page_of(
        stepper.dot, stepper.text_copies, stepper.picture_style, stepper.scope, stepper.frames
    )


def drawing_page(n_nodes: int) -> str:
    """The page for ``widgets.draw`` of ``graph_of(n_nodes)``, all of it (no stepping)."""
    from run import graph_of  # bench/run.py

    from widgets import draw

    return page_of(draw(graph_of(n_nodes), max_nodes=2 * n_nodes).source, {}, "", "none", [""])


def in_chromium(page_html: str, rounds: int, measure) -> None:
    """``measure(page)`` on a fresh page of ``page_html`` (with the real front end), per round."""
    from playwright.sync_api import sync_playwright

    front_end = (ROOT / "widgets" / "static" / "graphviz_view.js").read_text()

    def serve(route) -> None:
        if route.request.url.endswith("/graphviz_view.js"):
            route.fulfill(body=front_end, content_type="text/javascript")
        else:
            route.fulfill(body=page_html, content_type="text/html")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(rounds):
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.route(f"{ORIGIN}/**", serve)
                page.goto(f"{ORIGIN}/w5.html")
                page.wait_for_function("window.w5ready === true")
                measure(page)
                page.close()
        finally:
            browser.close()


def first_render(page, samples: dict[str, list[float]]) -> None:
    """A fresh page's first render: Graphviz's load apart, the rest as ``first render``."""
    first = page.evaluate("w5.render()")
    if first["loads"] != 1:
        raise AssertionError(f"Graphviz was loaded {first['loads']} times in one page")
    samples["wasm load"].append(first["wasm"] / 1e3)
    samples["first render"].append((first["total"] - first["wasm"]) / 1e3)


def browser_samples(n_nodes: int, rounds: int) -> dict[str, list[float]]:
    """Seconds per sample for a stepper of ``n_nodes``: ``wasm load``, ``first render`` and
    ``render`` once per round (each round a fresh page), ``step`` for up to ten steps per
    round; and ``layout``, how many layouts each step ran (must be 0)."""
    parts = ("wasm load", "first render", "render", "step", "layout")
    samples: dict[str, list[float]] = {part: [] for part in parts}

    def measure(page) -> None:
        first_render(page, samples)
        samples["render"].append(page.evaluate("w5.render()")["total"] / 1e3)
        frames = page.evaluate("w5.frames")
        for k in range(1, min(frames, 11)):
            stepped = page.evaluate(f"w5.step({k})")
            samples["step"].append(stepped["time"] / 1e3)
            samples["layout"].append(stepped["layouts"])
        if any(samples["layout"]):
            raise AssertionError("a step laid the graph out again")

    in_chromium(stepper_page(n_nodes), rounds, measure)
    return samples


def drawing_samples(n_nodes: int, rounds: int) -> dict[str, list[float]]:
    """Seconds per sample for ``widgets.draw`` of ``n_nodes``: ``wasm load``, then the
    drawing rendered once Graphviz is loaded (``draw N``), once per round."""
    samples: dict[str, list[float]] = {"wasm load": [], f"draw {n_nodes}": []}

    def measure(page) -> None:
        first = {"wasm load": [], "first render": []}
        first_render(page, first)
        samples["wasm load"] += first["wasm load"]
        samples[f"draw {n_nodes}"] += first["first render"]

    in_chromium(drawing_page(n_nodes), rounds, measure)
    return samples


def report(samples: dict[str, list[float]]) -> None:
    """One line per part: its median and largest sample, in ms (layouts: a count)."""
    for part, values in samples.items():
        scale, unit = (1, "layouts") if part == "layout" else (1e3, "ms")
        median, largest = statistics.median(values) * scale, max(values) * scale
        print(f"{part:>13}: {median:8.2f} {unit:<7} (max {largest:.2f}, {len(values)} samples)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    report(browser_samples(size, 5))
    report(drawing_samples(LARGE, 3))
