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
//   titles       element id -> the full text of a box whose lines were cut (its tooltip)
//   layers       for widgets.draw_layers: how to open a module's box (see layersDot)
//   position     for the stepper: how many steps are shown (jslinked to its slider; see
//                showPosition)

// One Graphviz per page, however many drawings: keyed by the engine's version.
const ENGINES = (globalThis.__minigradGraphviz ??= new Map());

async function graphvizOf(model) {
    const engine = await model.widget_manager.get_model(model.get("engine").slice("IPY_MODEL_".length));
    const version = engine.get("version");
    if (!ENGINES.has(version)) {
        const start = performance.now();
        const loading = loadGraphviz(engine.get("bundle"));
        loading.then(() => performance.measure("minigrad:graphviz-load", { start }));
        ENGINES.set(version, loading);
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
    // The groups by id, found in one pass (a query per id would walk the picture each time).
    const groups = new Map();
    for (const group of svg.querySelectorAll("g[id]")) {
        if (!groups.has(group.id)) groups.set(group.id, group);
    }
    for (const [id, lines] of Object.entries(textCopies)) {
        const group = groups.get(id);
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

// A box whose lines were cut (a very long name) shows its full text as its tooltip: the
// SVG <title> of its group, which Graphviz fills with the node's DOT id. Set as text.
function addTitles(svg, titles) {
    for (const [id, text] of Object.entries(titles)) {
        const group = svg.querySelector(`g#${CSS.escape(id)}`);
        const title = group?.querySelector(":scope > title");
        if (title) title.textContent = text;
    }
}

// A drawing by layers (widgets.draw_layers): a click on a module's box opens it one level,
// here in the page, with no kernel; a click on an open module's frame closes it again.
// Python sends every box's DOT statement (escaped there) and, for each box of the full
// graph (a "unit"), the modules it belongs to, outermost first (widgets/layers.py,
// openable); a unit is drawn as the first of its modules that is not open, or as itself,
// inside a frame for each open module before that one (a Graphviz cluster, whose
// attributes Python sent too). The arrows are the full graph's, each drawn once between
// two boxes. So the DOT for any set of open modules is put together here and laid out again.
function layersDot(layers, open) {
    const frames = layers.frames || {}; // a drawing saved before frames existed has none
    const boxOf = new Map();
    const placed = new Set();
    // The nest of frames: each holds the statements of the boxes drawn directly inside it
    // and the frames inside it, in the order of the units, as Python draws them.
    const outside = { statements: [], inside: new Map() };
    for (const [unit, modules] of layers.units) {
        const closed = modules.findIndex((module) => !open.has(module));
        const box = closed === -1 ? unit : modules[closed];
        boxOf.set(unit, box);
        if (placed.has(box)) continue; // another unit of a module's box already written
        placed.add(box);
        let frame = outside;
        for (const module of closed === -1 ? modules : modules.slice(0, closed)) {
            if (!(module in frames)) continue;
            if (!frame.inside.has(module)) frame.inside.set(module, { statements: [], inside: new Map() });
            frame = frame.inside.get(module);
        }
        frame.statements.push(layers.boxes[box]);
    }
    const written = (frame) =>
        frame.statements.join("") +
        [...frame.inside]
            .map(([module, inner]) => `subgraph cluster_${module} {\n${frames[module].attributes}${written(inner)}}\n`)
            .join("");
    const arrows = new Set();
    const lines = [];
    for (const [tail, head] of layers.edges) {
        const from = boxOf.get(tail);
        const to = boxOf.get(head);
        if (from === to || arrows.has(`${from} ${to}`)) continue;
        arrows.add(`${from} ${to}`);
        lines.push(`\t${from} -> ${to} [${layers.edge} id="mg-e${lines.length}"]\n`);
    }
    return `${layers.header}${written(outside)}${lines.join("")}}\n`;
}

// The modules opened in this view (a set of box ids), first those Python opened (depth).
function openModules(el, layers) {
    return (el.__minigradOpen ??= new Set(layers.open));
}

// Closing a module closes the modules open inside it too: opened again, it shows one level
// (its children), never the deeper ones that were open before.
function closeModule(layers, open, id) {
    open.delete(id);
    for (const [, modules] of layers.units) {
        const at = modules.indexOf(id);
        if (at !== -1) for (const inner of modules.slice(at + 1)) open.delete(inner);
    }
}

// A box or frame that acts on a click is a button for the keyboard too: it takes the focus
// (Tab), says what it does (its name, then the action), and acts on Enter and Space.
function actsOnClick(group, name, action, act) {
    group.style.cursor = "pointer";
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-label", `${name}: ${action}`);
    const title = group.querySelector(":scope > title");
    if (title) title.textContent = `${name}\n${action}`;
    group.addEventListener("click", (event) => {
        event.stopPropagation();
        act(false);
    });
    group.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        event.stopPropagation();
        act(true);
    });
}

// The module boxes that open on a click, and the frames of open modules, which close on
// one: marked (data-openable, data-closable), a pointer cursor, a tooltip line saying so,
// focusable. After the picture is drawn again for a key, the focus goes to what the action
// made (the opened module's frame, the closed module's box): a keyboard closes what it opened.
function addOpeners(svg, el, model) {
    const layers = model.get("layers") || {};
    if (!layers.openable) return;
    const open = openModules(el, layers);
    const words = wordsOf(model);
    const redraw = (focus, fromKeyboard) => {
        // A mouse user's pointer is where it was; a keyboard user's focus must go somewhere.
        el.__minigradFocus = fromKeyboard ? focus : null;
        el.__minigradShow?.();
    };
    for (const id of layers.openable) {
        if (open.has(id)) {
            const frame = svg.querySelector(`g#mg-frame-${CSS.escape(id)}`);
            if (!frame || !layers.frames?.[id]) continue;
            frame.dataset.closable = "true";
            actsOnClick(frame, layers.frames[id].title, words.close_layer, (fromKeyboard) => {
                closeModule(layers, open, id);
                redraw(`mg-${id}`, fromKeyboard);
            });
            continue;
        }
        const group = svg.querySelector(`g#mg-${CSS.escape(id)}`);
        if (!group) continue;
        group.dataset.openable = "true";
        const name = layers.frames?.[id]?.title ?? group.querySelector("text")?.textContent ?? id;
        actsOnClick(group, name, words.open_layer, (fromKeyboard) => {
            open.add(id);
            redraw(`mg-frame-${id}`, fromKeyboard);
        });
    }
}

// The focus, where an action on a box or frame asked for it (see addOpeners).
function restoreFocus(el) {
    const wanted = el.__minigradFocus;
    if (!wanted) return;
    el.__minigradFocus = null;
    el.querySelector(`g#${CSS.escape(wanted)}`)?.focus();
}

// The stepper's position: a class of the picture ending in a step number k ("mg-ran-3", the
// node step 3 runs) gets "-reached" in its place once k <= position ("mg-ran-reached"),
// "-now" when k is the position and "-past" when k is before it. The stepper's one
// stylesheet styles those; so each step costs the notebook no stylesheet of its own.
const STEP_CLASS = /^(mg-[a-z-]+)-(\d+)$/;
const REACHED_CLASS = /^mg-[a-z-]+-(reached|now|past)$/;

// Marks one element's classes for the position.
function markElement(element, position) {
    const wanted = new Set();
    for (const name of element.classList) {
        const match = STEP_CLASS.exec(name);
        if (!match) continue;
        const k = Number(match[2]);
        if (k <= position) wanted.add(`${match[1]}-reached`);
        if (k === position) wanted.add(`${match[1]}-now`);
        if (k < position) wanted.add(`${match[1]}-past`);
    }
    for (const name of [...element.classList]) {
        if (REACHED_CLASS.test(name) && !wanted.has(name)) element.classList.remove(name);
    }
    for (const name of wanted) element.classList.add(name);
}

// The picture's elements by the step numbers of their classes, made once per picture: a
// step from position p to q then marks again only the elements of the steps between p and
// q (those whose marks can change), a few boxes and arrows, not the whole picture.
function elementsByStep(svg) {
    const byStep = new Map();
    for (const element of svg.querySelectorAll('[class*="mg-"]')) {
        for (const name of element.classList) {
            const match = STEP_CLASS.exec(name);
            if (!match) continue;
            const k = Number(match[2]);
            if (!byStep.has(k)) byStep.set(k, new Set());
            byStep.get(k).add(element);
        }
    }
    return byStep;
}

function showPosition(svg, position) {
    const shown = svg.__minigradPosition;
    if (shown === position) return;
    svg.__minigradSteps ??= elementsByStep(svg);
    // A new picture is unmarked, as at position 0.
    const [low, high] = [Math.min(shown ?? 0, position), Math.max(shown ?? 0, position)];
    const changing = new Set();
    for (const [k, elements] of svg.__minigradSteps) {
        if (k >= low && k <= high) for (const element of elements) changing.add(element);
    }
    for (const element of changing) markElement(element, position);
    svg.__minigradPosition = position;
}

// Every arrow of a stepper's picture gets a second arrowhead, at its tail and pointing at
// it, hidden: the stepper's frames show it on the arrows gradients travel along (against
// the forward computation), and hide the forward one there. Its tip is where the path
// starts.
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
// points), so it may shrink to 7/8 of that and no further, unless it is too large to read
// in the width at all (then it is zoomable, see zoomable).
const SMALLEST_SCALE = 14 / 16;
const PX_PER_PT = 4 / 3;

function naturalWidth(svg) {
    return parseFloat(svg.getAttribute("width")) * PX_PER_PT;
}

function topToBottom(dot) {
    // Only the graph's own attribute line ("graph [... rankdir=LR ...]"), never a label.
    return dot.replace(/^(\s*graph \[[^\n]*?)rankdir=(LR|RL)/m, "$1rankdir=TB");
}

// A picture too large to read in the width there is is shown whole, shrunk to fit the width
// and at most this tall, with zoom buttons (and ctrl + wheel, a trackpad's pinch) and
// drag-to-pan: an overview first, then the part one wants, as large as one wants.
const FITTED_HEIGHT = 640;
// A picture taller than this at the scale that fits the width is zoomable too: a page
// several screens long of one graph is as hard to read as one too wide.
const TALLEST = 2400;
const ZOOM_STEP = 1.25;
const LARGEST_SCALE = 4;

// The picture for the width there is: as Python laid it out when it fits (or fits once
// shrunk a little), else laid out top to bottom if that fits better. When neither fits at
// SMALLEST_SCALE (or the one that fits is taller than TALLEST), the one that shrinks least
// into the width and FITTED_HEIGHT is shown zoomable (see zoomable). The pictures are
// laid out (see laidOut); only the one chosen becomes an element of the page.
function fit(el, pictures, available) {
    const fits = (picture) => Math.min(1, available / picture.width);
    let chosen = pictures.wide;
    if (fits(chosen) < SMALLEST_SCALE && pictures.tall() !== chosen) {
        if (fits(pictures.tall()) > fits(chosen)) chosen = pictures.tall();
    }
    el.dataset.room = String(Math.round(available));
    if (fits(chosen) >= SMALLEST_SCALE && chosen.height * fits(chosen) <= TALLEST) {
        const scale = fits(chosen);
        const svg = chosen.element();
        setScale(svg, scale);
        if (el.firstChild !== svg || el.childNodes.length !== 1) el.replaceChildren(svg);
        el.dataset.layout = chosen === pictures.wide ? "as-given" : "top-to-bottom";
        el.dataset.scale = scale.toFixed(3);
        delete el.dataset.zoomable;
        return;
    }
    const overview = (picture) => Math.min(fits(picture), FITTED_HEIGHT / picture.height);
    chosen = pictures.wide;
    if (pictures.tall() !== chosen && overview(pictures.tall()) > overview(chosen)) {
        chosen = pictures.tall();
    }
    el.dataset.layout = chosen === pictures.wide ? "as-given" : "top-to-bottom";
    zoomable(el, chosen.element(), overview(chosen), available);
}

// One layout of a graph: its natural size (px), read from the head of the SVG text Graphviz
// wrote, and its element, parsed and made ready (``prepare``) the first time it is shown.
// fit may lay a graph out both ways to compare their sizes: the one not shown costs its
// layout and nothing more.
const SVG_SIZE = /<svg\b[^>]*?\swidth="([\d.]+)pt"[^>]*?\sheight="([\d.]+)pt"/;

function laidOut(text, prepare) {
    let svg = null;
    const picture = {
        element() {
            if (svg === null) {
                const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
                svg = parsed.documentElement;
                prepare(svg);
            }
            return svg;
        },
        shown: () => svg, // null until shown
    };
    const size = SVG_SIZE.exec(text.slice(0, 2000));
    const element = size ? null : picture.element();
    picture.width = size ? Number(size[1]) * PX_PER_PT : naturalWidth(element);
    picture.height = size ? Number(size[2]) * PX_PER_PT : naturalHeight(element);
    return picture;
}

function naturalHeight(svg) {
    return parseFloat(svg.getAttribute("height")) * PX_PER_PT;
}

function setScale(svg, scale) {
    svg.style.width = `${naturalWidth(svg) * scale}px`;
    svg.style.height = `${naturalHeight(svg) * scale}px`;
    svg.style.maxWidth = "none";
}

function centred(svg) {
    svg.style.display = "block";
    svg.style.margin = "0 auto";
}

// The zoomable view: a bar of buttons over a window onto the picture, which scrolls and
// can be dragged. It starts with the whole picture in view ("fit"); "100%" is the natural
// size, at which the text is as large as a lesson's.
function zoomable(el, svg, fitted, available) {
    let view = el.__minigradZoom;
    if (!view || view.svg !== svg) {
        view = el.__minigradZoom = zoomView(el, svg);
        view.scale = null; // not zoomed yet: follow the fitted scale
    }
    view.fitted = fitted;
    view.window.style.width = `${Math.round(available)}px`;
    view.window.style.height = `${Math.max(120, Math.ceil(naturalHeight(svg) * fitted))}px`;
    view.zoomTo(view.scale ?? fitted);
    if (el.firstChild !== view.bar) el.replaceChildren(view.bar, view.window);
}

// The words the page shows, as Python sends them in the widgets' language (the trait
// ``words``); a picture saved before the trait existed shows these English ones.
const ENGLISH = {
    zoom_out: "Zoom out",
    zoom_in: "Zoom in",
    fit: "fit",
    fit_title: "The whole graph in view",
    actual_title: "Natural size: text as large as a lesson's",
    hint: "A large graph: zoom in, then drag the picture to move around.",
    error: "Graphviz could not draw this graph: {error}",
    open_layer: "Click to open this module one level.",
    close_layer: "Click to close this module.",
};

function wordsOf(model) {
    return { ...ENGLISH, ...(model.get("words") || {}) };
}

function zoomView(el, svg) {
    const words = el.__minigradWords ?? ENGLISH;
    const bar = document.createElement("div");
    bar.className = "minigrad-zoom-bar";
    bar.style.cssText =
        "display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 2px 0 4px; " +
        "font-family: sans-serif; font-size: 14px; color: #333333";
    const button = (label, name, title) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.title = title;
        b.className = `minigrad-zoom-${name}`;
        b.style.cssText = "min-width: 2.4em; font-size: 14px; cursor: pointer";
        bar.append(b);
        return b;
    };
    const zoomOut = button("−", "out", words.zoom_out);
    const zoomIn = button("+", "in", words.zoom_in);
    const whole = button(words.fit, "fit", words.fit_title);
    const actual = button("100%", "actual", words.actual_title);
    const readout = document.createElement("span");
    readout.className = "minigrad-zoom-readout";
    const hint = document.createElement("span");
    hint.textContent = words.hint;
    bar.append(readout, hint);

    const window_ = document.createElement("div");
    window_.className = "minigrad-zoom-window";
    window_.style.cssText =
        "overflow: auto; border: 1px solid #cccccc; cursor: grab; touch-action: none; " +
        "user-select: none; " +
        "box-sizing: border-box";
    centred(svg);
    window_.append(svg);

    const view = { svg, bar, window: window_, scale: null, fitted: 1 };
    // Zoom about a point of the window (its centre by default), keeping it where it is.
    view.zoomTo = (scale, at) => {
        const before = view.current ?? scale;
        scale = Math.min(LARGEST_SCALE, Math.max(view.fitted, scale));
        const [px, py] = at ?? [window_.clientWidth / 2, window_.clientHeight / 2];
        const [cx, cy] = [(window_.scrollLeft + px) / before, (window_.scrollTop + py) / before];
        setScale(svg, scale);
        view.current = scale;
        window_.scrollLeft = cx * scale - px;
        window_.scrollTop = cy * scale - py;
        el.dataset.scale = scale.toFixed(3);
        el.dataset.zoomable = "true";
        readout.textContent = `${Math.round(scale * 100)}%`;
        zoomOut.disabled = scale <= view.fitted + 1e-9;
        whole.disabled = zoomOut.disabled;
        zoomIn.disabled = scale >= LARGEST_SCALE - 1e-9;
    };
    const zoom = (scale, at) => {
        view.scale = Math.min(LARGEST_SCALE, Math.max(view.fitted, scale));
        view.zoomTo(view.scale, at);
    };
    zoomIn.addEventListener("click", () => zoom(view.current * ZOOM_STEP));
    zoomOut.addEventListener("click", () => zoom(view.current / ZOOM_STEP));
    whole.addEventListener("click", () => zoom(view.fitted));
    actual.addEventListener("click", () => zoom(1));
    // ctrl + wheel (and a trackpad's pinch, which browsers report so) zooms; a plain
    // wheel scrolls the page, as everywhere else in a notebook.
    window_.addEventListener(
        "wheel",
        (event) => {
            if (!event.ctrlKey) return;
            event.preventDefault();
            const box = window_.getBoundingClientRect();
            const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
            zoom(view.current * factor, [event.clientX - box.left, event.clientY - box.top]);
        },
        { passive: false },
    );
    // Drag to pan.
    let drag = null;
    window_.addEventListener("pointerdown", (event) => {
        if (event.button !== 0) return;
        event.preventDefault(); // a drag moves the picture, it does not select its text
        drag = { x: event.clientX, y: event.clientY, left: window_.scrollLeft, top: window_.scrollTop };
        window_.setPointerCapture(event.pointerId);
        window_.style.cursor = "grabbing";
    });
    window_.addEventListener("pointermove", (event) => {
        if (!drag) return;
        window_.scrollLeft = drag.left - (event.clientX - drag.x);
        window_.scrollTop = drag.top - (event.clientY - drag.y);
    });
    const stop = () => {
        drag = null;
        window_.style.cursor = "grab";
    };
    window_.addEventListener("pointerup", stop);
    window_.addEventListener("pointercancel", stop);
    return view;
}

// Chromium's performance timeline gets a "minigrad:<name>" measure for each part of a drawing
// (the benchmark and the browser tests read them; the browser's profiler shows them too),
// not for steps: a page stepped all day would keep one per step.
function timed(name, work) {
    const start = performance.now();
    try {
        return work();
    } finally {
        performance.measure(`minigrad:${name}`, { start });
    }
}

async function draw(model, el) {
    el.__minigradWords = wordsOf(model);
    const viz = await graphvizOf(model);
    // A drawing by layers with a module open: its DOT put together here, with a frame
    // around each open module's boxes. With none open (as Python drew it at depth 1), the
    // DOT Python wrote.
    const layers = model.get("layers");
    const open = layers?.units ? openModules(el, layers) : null;
    const asGiven = !open || (open.size === 0 && layers.open.length === 0);
    const dot = asGiven ? model.get("dot") : layersDot(layers, open);
    const textCopies = model.get("text_copies") || {};
    const prepare = (svg) => {
        timed("texts", () => addTextCopies(svg, textCopies));
        addTitles(svg, model.get("titles") || {});
        addOpeners(svg, el, model);
        const steps = (svg.__minigradSteps = elementsByStep(svg)); // with the text copies
        timed("position", () => showPosition(svg, model.get("position") || 0));
        // Only a stepper's frames show backward arrowheads: a picture with no steps (a
        // drawing) needs none.
        if (steps.size > 0) timed("heads", () => addBackwardHeads(svg));
    };
    const picture = (source) =>
        laidOut(timed("layout", () => viz.renderString(source, { format: "svg" })), prepare);
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
    el.__minigradZoom = null; // a new drawing starts with its whole picture in view
    // The pictures shown so far (the stepper marks their classes).
    el.__minigradPictures = () => [...new Set([wide, tall])].map((p) => p?.shown()).filter(Boolean);
    timed("fit", refit);
    restoreFocus(el);
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
            message.textContent = wordsOf(model).error.replace("{error}", String(error));
            el.replaceChildren(message);
        });
    const step = () => {
        const position = model.get("position") || 0;
        for (const svg of el.__minigradPictures?.() ?? []) showPosition(svg, position);
    };
    el.__minigradShow = show;
    model.on("change:dot", show);
    model.on("change:text_copies", show);
    model.on("change:titles", show);
    model.on("change:position", step);
    show();
    return () => {
        el.__minigradResize?.disconnect();
        model.off("change:dot", show);
        model.off("change:text_copies", show);
        model.off("change:titles", show);
        model.off("change:position", step);
    };
}

export default { render };
