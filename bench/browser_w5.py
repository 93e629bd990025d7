"""W5 in the browser: what a student waits for once Python has built a stepper or a drawing.

The drawings are laid out in the browser (widgets/static/graphviz_view.js running Graphviz
compiled to WebAssembly), so their cost is measured there, in headless Chromium, on the
front end itself: the page imports the real ES module and renders a picture through a
stand-in for the widget model (the same ``get``/``on`` calls anywidget's model answers),
with the stepper's one stylesheet in the page, and steps it as the jslinked slider and the
Stack do: the model's ``position`` changes (the front end marks the classes of the steps
reached) and the frame's panel is swapped in.

- ``wasm load``: a fresh page draws one box, which loads Graphviz (its WebAssembly
  decoded, compiled and instantiated: once per page, checked);
- ``first render``: then the picture, from the call to the picture painted: the first
  picture once Graphviz is loaded;
- ``render``: the same picture again in that page (any later drawing);
- ``step``: one step, started at the beginning of an animation frame, until that frame
  is styled, laid out and painted (what has to fit in 16 ms for stepping at frame rate);
  a step that lays the graph out again (a ``minigrad:layout`` measure) stops the benchmark;
- the drawing of 1 000 nodes: ``widgets.draw`` of a 1 000-node graph in a fresh page, its
  ``wasm load`` and ``first render`` as above.

Each part is timed twice: by the wall clock (what a student waits for) and as the CPU
time of the page's main thread (``... cpu``, Chromium's ``ThreadTime``), which tells what
the wall clock would be on an idle machine: on a shared one, the wall clock also counts
the time other programs took the cores.

    python bench/browser_w5.py 100      # medians for a stepper of 100 nodes, then the
                                        # drawing of 1 000 nodes
"""

from __future__ import annotations

import json
import os
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
<div id="loader" style="width: 200px"></div>
<div id="picture" class="minigrad-picture"></div><div id="frame"></div>
<script type="module">
import view from "./graphviz_view.js";
const data = JSON.parse(document.getElementById("data").textContent);
document.getElementById("stepper-style").textContent = data.style;
document.getElementById("picture").classList.add(data.scope);
const engine = { get: (name) => data.engine[name] };
let current = null; // the model of the picture rendered last
function model(dot, textCopies) {
    const state = { ...data.model, dot, text_copies: textCopies, position: 0 };
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
async function draw(el, dot, textCopies) {
    el.replaceChildren();
    delete el.dataset.rendered;
    const start = performance.now();
    current = model(dot, textCopies);
    view.render({ model: current, el });
    while (el.dataset.rendered !== "true") {
        if (el.querySelector(".minigrad-graphviz-error")) throw new Error(el.textContent);
        await new Promise((done) => setTimeout(done, 0));
    }
    return (await afterFrame()) - start;
}
// Graphviz loaded by drawing one box (as a lesson's first small drawing would).
const load = () => draw(document.getElementById("loader"), "digraph { a }", {});
const render = () =>
    draw(document.getElementById("picture"), data.model.dot, data.model.text_copies);
const loads = () => measured("graphviz-load");
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
window.w5 = { load, render, step, loads, frames: data.frames.length };
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


class Timer:
    """Times expressions evaluated in a page: wall-clock ms, as the page measures them, and
    the CPU time of the page's main thread (Chromium's ``ThreadTime`` metric), which a busy
    machine inflates far less than the wall clock."""

    def __init__(self, page) -> None:
        self.page = page
        self.session = page.context.new_cdp_session(page)
        self.session.send("Performance.enable", {"timeDomain": "threadTicks"})

    def thread_time(self) -> float:
        metrics = self.session.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "ThreadTime")

    def __call__(self, expression: str) -> tuple[dict | float, float]:
        """(what ``expression`` returned, the main thread's CPU seconds meanwhile)."""
        before = self.thread_time()
        result = self.page.evaluate(expression)
        return result, self.thread_time() - before


def first_render(page, samples: dict[str, list[float]]) -> Timer:
    """A fresh page: Graphviz loaded (``wasm load``, by drawing one box), then the page's
    picture drawn for the first time (``first render``), wall clock and main thread's CPU."""
    timer = Timer(page)
    wall, cpu = timer("w5.load()")
    samples["wasm load"].append(wall / 1e3)
    samples["wasm load cpu"].append(cpu)
    wall, cpu = timer("w5.render()")
    samples["first render"].append(wall / 1e3)
    samples["first render cpu"].append(cpu)
    if page.evaluate("w5.loads()") != 1:
        raise AssertionError(f"Graphviz was loaded {page.evaluate('w5.loads()')} times")
    return timer


def browser_samples(n_nodes: int, rounds: int) -> dict[str, list[float]]:
    """Seconds per sample for a stepper of ``n_nodes``: ``wasm load``, ``first render`` and
    ``render`` once per round (each round a fresh page), ``step`` for up to ten steps per
    round; the ``... cpu`` parts are the main thread's CPU time for the same. Raises if a
    step laid the graph out again."""
    parts = ("wasm load", "first render", "render", "step")
    samples: dict[str, list[float]] = {p: [] for p in (*parts, *(f"{p} cpu" for p in parts))}

    def measure(page) -> None:
        timer = first_render(page, samples)
        wall, cpu = timer("w5.render()")
        samples["render"].append(wall / 1e3)
        samples["render cpu"].append(cpu)
        frames = page.evaluate("w5.frames")
        for k in range(1, min(frames, 11)):
            stepped, cpu = timer(f"w5.step({k})")
            if stepped["layouts"]:
                raise AssertionError(f"step {k} laid the graph out {stepped['layouts']} times")
            samples["step"].append(stepped["time"] / 1e3)
            samples["step cpu"].append(cpu)

    in_chromium(stepper_page(n_nodes), rounds, measure)
    return samples


def drawing_samples(n_nodes: int, rounds: int) -> dict[str, list[float]]:
    """Seconds per sample for ``widgets.draw`` of ``n_nodes``, once per round (a fresh
    page): ``wasm load``, then ``first render``, the drawing once Graphviz is loaded."""
    parts = ("wasm load", "first render")
    samples: dict[str, list[float]] = {p: [] for p in (*parts, *(f"{p} cpu" for p in parts))}
    in_chromium(drawing_page(n_nodes), rounds, lambda page: first_render(page, samples))
    return samples


# The targets for the browser (ms): (what, case name, part, bound).
TARGETS = (
    ("W5 first render (100), wasm apart ≤ 300 ms", "graph of 100 nodes", "first render", 300),
    ("W5 one step (100) ≤ 16 ms", "graph of 100 nodes", "step", 16),
    (
        f"W5 drawing of {LARGE:,} nodes ≤ 2000 ms",
        f"drawing of {LARGE:,} nodes",
        "first render",
        2000,
    ),
)


def targets(cases: list) -> list[tuple[str, float | None, float, bool]]:
    """The browser's targets for bench/run.py's table: (label, measured ms, bound, at most),
    from its W5 cases (whose medians are in ms)."""
    found = []
    for label, name, part, bound in TARGETS:
        value = next((c.median(part) for c in cases if c.workload == "W5" and c.name == name), None)
        found.append((label, value, bound, True))
    return found


def report(what: str, samples: dict[str, list[float]]) -> None:
    """One line per part: its median and largest sample, in ms."""
    print(what)
    for part, values in samples.items():
        median, largest = statistics.median(values) * 1e3, max(values) * 1e3
        print(f"{part:>14}: {median:8.1f} ms  (max {largest:.1f}, {len(values)} samples)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    report(f"stepper of {size} nodes", browser_samples(size, 5))
    report(f"drawing of {LARGE:,} nodes", drawing_samples(LARGE, 3))
