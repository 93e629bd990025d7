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

async function draw(model, el) {
    const viz = await graphvizOf(model);
    const svg = viz.renderSVGElement(model.get("dot"));
    // A wide graph shrinks to the width of the page instead of overflowing it.
    svg.style.maxWidth = "100%";
    svg.style.height = "auto";
    addTextCopies(svg, model.get("text_copies") || {});
    el.replaceChildren(svg);
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
        model.off("change:dot", show);
        model.off("change:text_copies", show);
    };
}

export default { render };
