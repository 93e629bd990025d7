// Buttons drawn in the browser, for widgets/_controls.py (an anywidget ES module). Two kinds:
//
// - moves of a slider (the stepper's reset, back, step and run): made here, in the page, so
//   they work with no kernel (an exported page, the docs site). Each button is enabled
//   exactly when its move would change the slider's value, checked again whenever the value
//   changes, whoever changed it (these buttons, the slider's keys, Play, Python).
// - actions that Python runs (the accumulation widget's backward(), ...): a click is sent to
//   the kernel. A page knows whether a kernel is behind a widget: its model's comm is live
//   (ipywidgets' WidgetModel.comm_live, updated with a "comm_live_update" event). When it is
//   not (an exported page, a notebook whose kernel is not running) the buttons are disabled
//   and a note says that they need a running kernel.
//
// anywidget hands render() a proxy of the model without comm_live, so the real models are
// fetched by id from the widget manager: the slider's, and for actions this widget's own.

// Python sends the note in the widgets' language (KernelButtons.kernel_note); this English
// one is for a state saved before it did.
const NOTE =
    "These buttons run Python: they need a running kernel (open the notebook in Jupyter " +
    "and run its cells).";

function button(label, tooltip, name) {
    const b = document.createElement("button");
    b.className = `jupyter-widgets jupyter-button widget-button minigrad-${name}-button`;
    b.textContent = label;
    b.title = tooltip;
    b.style.width = "auto";
    b.style.padding = "0 12px";
    return b;
}

// A row of buttons that wraps on a narrow page.
function row(el) {
    el.style.display = "flex";
    el.style.flexWrap = "wrap";
    el.style.alignItems = "center";
    el.style.gap = "2px";
}

async function renderMoves(model, el) {
    const slider = await model.widget_manager.get_model(model.get("slider_id"));
    const moves = {
        reset: () => slider.get("min"),
        back: (v) => Math.max(v - 1, slider.get("min")),
        step: (v) => Math.min(v + 1, slider.get("max")),
        run: () => slider.get("max"),
    };
    const buttons = model.get("buttons").map(([name, label, tooltip]) => {
        const b = button(label, tooltip, name);
        b.addEventListener("click", () => {
            slider.set("value", moves[name](slider.get("value")));
            slider.save_changes(); // sends it to Python when a kernel is there, else nothing
        });
        return [name, b];
    });
    const update = () => {
        const value = slider.get("value");
        for (const [name, b] of buttons) b.disabled = moves[name](value) === value;
        el.dataset.position = String(value);
    };
    row(el);
    el.replaceChildren(...buttons.map(([, b]) => b));
    slider.on("change:value change:min change:max", update);
    update();
    return () => slider.off("change:value change:min change:max", update);
}

async function renderActions(model, el) {
    const self = await model.widget_manager.get_model(model.get("self_id"));
    const note = document.createElement("div");
    note.className = "minigrad-kernel-note";
    note.textContent = model.get("kernel_note") || NOTE;
    note.style.cssText = "font-family: sans-serif; font-size: 14px; color: #D55E00; margin: 2px 0";
    const actions = document.createElement("div");
    actions.className = "minigrad-action-row";
    row(actions);
    const buttons = model.get("buttons").map(([name, label, tooltip]) => {
        const b = button(label, tooltip, name);
        b.addEventListener("click", () => model.send({ click: name }));
        actions.append(b);
        return b;
    });
    const update = () => {
        const live = Boolean(self.comm_live);
        for (const b of buttons) b.disabled = !live;
        note.hidden = live;
        el.dataset.kernel = live ? "live" : "none";
    };
    el.replaceChildren(actions, note);
    self.on("comm_live_update", update);
    update();
    return () => self.off("comm_live_update", update);
}

function render({ model, el }) {
    el.classList.add("minigrad-buttons");
    let cleanup = () => {};
    const shown = model.get("slider_id") ? renderMoves(model, el) : renderActions(model, el);
    shown.then((stop) => (cleanup = stop));
    return () => cleanup();
}

export default { render };
