// The front end of widgets.GraphvizView (an anywidget ES module): lays a DOT graph out with
// Graphviz compiled to WebAssembly (@viz-js/viz, shipped by the GraphvizEngine widget) and
// shows the SVG. Nothing here needs a kernel: the DOT text and everything else come from
// the widget state saved in the notebook, so exported pages and the docs site draw too.
//
// Model state read here:
//   dot          the DOT source (Python builds it with the graphviz package)
//   engine       "IPY_MODEL_<id>" of the GraphvizEngine that holds Graphviz
//   text_copies  for the stepper: element id -> for each line of its label, the copies of
//                that <text> to add, [classes, hidden, words] each (see widgets/_svg.py)

// One Graphviz per page, however many drawings: keyed by the engine's version.
const ENGINES = (globalThis.__minigradGraphviz ??= new Map());

async function graphvizOf(model) {
    const engine = await model.widget_manager.get_model(model.get("engine").slice("IPY_MODEL_".length));
    const version = engine.get("version");
    if (!ENGINES.has(version)) {
        ENGINES.set(version, loadGraphviz(engine.get("bundle")));
    }
    return ENGINES.get(version);
}

// The bundle is @viz-js/viz's ES module, gzipped and base64-encoded (a third of its size in
// the notebook). Decompressed by the browser, then imported from a blob: URL.
async function loadGraphviz(bundle) {
    const bytes = Uint8Array.from(atob(bundle), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const source = await new Response(stream).text();
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try {
        const viz = await import(/* webpackIgnore: true */ url);
        return await viz.instance();
    } finally {
        URL.revokeObjectURL(url);
    }
}

// The stepper's texts: each line of a box is followed by a copy per later text, which the
// frames' stylesheets show and hide by class (the picture alone shows step 0).
function addTextCopies(svg, textCopies) {
    for (const [id, lines] of Object.entries(textCopies)) {
        const group = svg.querySelector(`g[id="${CSS.escape(id)}"]`);
        const texts = group ? [...group.querySelectorAll(":scope > text")] : [];
        if (texts.length !== lines.length) {
            throw new Error(`${id} has ${texts.length} lines of text, ${lines.length} were given`);
        }
        lines.forEach((copies, i) => {
            let after = texts[i];
            copies.forEach(([classes, hidden, words], j) => {
                const text = j === 0 ? texts[i] : texts[i].cloneNode(false);
                if (classes) text.setAttribute("class", classes);
                if (hidden) text.setAttribute("display", "none");
                text.textContent = words;
                if (j > 0) {
                    after.after(text);
                    after = text;
                }
            });
        });
    }
}

// Every arrow gets a second arrowhead, at its tail and pointing at it, hidden: the
// stepper's frames show it on the arrows gradients travel along (against the forward
// computation), and hide the forward one there. Its tip is where the path starts.
function addBackwardHeads(svg) {
    for (const group of svg.querySelectorAll("g.edge")) {
        const path = group.querySelector(":scope > path");
        const numbers = (path?.getAttribute("d") || "").match(/-?[\d.]+(e-?\d+)?/g);
        if (!numbers || numbers.length < 4) continue;
        const [x0, y0, x1, y1] = numbers.slice(0, 4).map(Number);
        const length = Math.hypot(x1 - x0, y1 - y0) || 1;
        const [ux, uy] = [(x1 - x0) / length, (y1 - y0) / length]; // along the path
        const [size, half] = [8, 3.5];
        const corners = [
            [x0, y0],
            [x0 + ux * size - uy * half, y0 + uy * size + ux * half],
            [x0 + ux * size + uy * half, y0 + uy * size - ux * half],
        ];
        const head = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
        head.setAttribute("class", "mg-back-head");
        head.setAttribute("points", corners.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "));
        head.setAttribute("display", "none");
        path.after(head);
    }
}

// Text no smaller than a lesson's (JupyterLab's markdown is 14px): Python writes the DOT with
// 12-point text, 16px when the picture is drawn at its natural size (Graphviz's units are
// points), so it may shrink to 7/8 of that and no further.
const SMALLEST_SCALE = 14 / 16;
const PX_PER_PT = 4 / 3;

function naturalWidth(svg) {
    return parseFloat(svg.getAttribute("width")) * PX_PER_PT;
}

function topToBottom(dot) {
    // Only the graph's own attribute line ("graph [... rankdir=LR ...]"), never a label.
    return dot.replace(/^(\s*graph \[[^\n]*?)rankdir=(LR|RL)/m, "$1rankdir=TB");
}

// The picture for the width there is: as Python laid it out when it fits (or fits once
// shrunk a little), else laid out top to bottom if that fits better; shrunk to the width,
// keeping its aspect, but never below SMALLEST_SCALE (the page then scrolls sideways).
function fit(el, pictures, available) {
    const fits = (svg) => Math.min(1, available / naturalWidth(svg));
    let chosen = pictures.wide;
    if (fits(chosen) < SMALLEST_SCALE && pictures.tall() !== chosen) {
        if (fits(pictures.tall()) > fits(chosen)) chosen = pictures.tall();
    }
    const scale = Math.max(SMALLEST_SCALE, fits(chosen));
    chosen.style.width = `${naturalWidth(chosen) * scale}px`;
    chosen.style.height = "auto";
    chosen.style.maxWidth = "none";
    if (el.firstChild !== chosen) el.replaceChildren(chosen);
    el.dataset.layout = chosen === pictures.wide ? "as-given" : "top-to-bottom";
    el.dataset.scale = scale.toFixed(3);
    el.dataset.room = String(Math.round(available));
}

async function draw(model, el) {
    const viz = await graphvizOf(model);
    const dot = model.get("dot");
    const textCopies = model.get("text_copies") || {};
    const picture = (source) => {
        const svg = viz.renderSVGElement(source);
        addBackwardHeads(svg);
        addTextCopies(svg, textCopies);
        return svg;
    };
    const wide = picture(dot);
    let tall = null;
    const pictures = {
        wide,
        tall: () => {
            if (tall === null) tall = topToBottom(dot) === dot ? wide : picture(topToBottom(dot));
            return tall;
        },
    };
    el.style.overflowX = "auto";
    el.style.maxWidth = "100%";
    const refit = () => fit(el, pictures, el.clientWidth || el.parentElement?.clientWidth || 800);
    refit();
    el.__minigradResize?.disconnect();
    el.__minigradResize = new ResizeObserver(() => refit());
    el.__minigradResize.observe(el);
    el.dataset.rendered = "true";
}

function render({ model, el }) {
    el.classList.add("minigrad-graphviz");
    const show = () =>
        draw(model, el).catch((error) => {
            const message = document.createElement("pre");
            message.className = "minigrad-graphviz-error";
            message.textContent = `Graphviz could not draw this graph: ${error}`;
            el.replaceChildren(message);
        });
    model.on("change:dot", show);
    model.on("change:text_copies", show);
    show();
    return () => {
        el.__minigradResize?.disconnect();
        model.off("change:dot", show);
        model.off("change:text_copies", show);
    };
}

export default { render };
