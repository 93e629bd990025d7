// minigrad's JupyterLab extension: a saved lesson's drawings come back.
//
// A lesson is stored with its widgets' state (the notebook's metadata `widgets`) and, beside
// each widget view, a picture for viewers without widgets (image/png, see
// widgets/_fallback.py). JupyterLab's widget manager (@jupyter-widgets/jupyterlab-manager
// 5.0.16) makes the widgets from that state when the notebook opens, but it can lose a race:
// it restores in two parts, from the kernel and then from the notebook, and the notebook
// part ends with one more request to the kernel (comm_info_request, in
// ManagerBase.set_state). If the kernel connection drops and comes back during that part
// (a reply lost in a reconnection: a loaded machine, a laptop waking up, a hub's proxy),
// WidgetManager._handleKernelConnectionStatusChange starts a second restore "from the
// kernel only", which sets `restoredStatus` and emits `restored`; the notebook part never
// ends, and every stored view that asks for its model afterwards gives up after 2 s with
// "Error displaying widget: model not found", for good (ipywidgets issue 3231 is the same
// code path; scripts/widget_restore_race.py makes it happen on demand).
//
// What this extension does, for each open notebook:
//   1. A widget view that gave up on its model: put the notebook's saved widget state into
//      that notebook's widget manager (ManagerBase.set_state, the public way to make models
//      from a saved state) and render the view again. It is then the live widget, steppable.
//   2. Where that cannot work (no saved state, no kernel, a manager that never came, or a
//      repair that has not finished within a few seconds): show the output's stored picture
//      (image/png, else text/html, else text/plain of the same output bundle), rendered by
//      the notebook's own rendermime and marked untrusted, so it is sanitized like any
//      output, with a short note in the lab's language. The picture goes away as soon as the
//      widget view shows (the repair finished, or the cell ran again).
//
// The hook: the extension watches the notebook's outputs (a MutationObserver) and reads the
// state of each widget-view renderer from what it shows, rather than patching the manager's
// classes: a view that shows a widget has a child widget; one that gave up shows the
// manager's error text. The one private thing it touches is WidgetRenderer._manager, the
// promise of the renderer's manager (the manager is not reachable otherwise: the plugin keeps
// it in a private map keyed by kernel id); when that is missing (another manager version),
// step 1 is skipped and step 2 still shows the picture.
//
// What would make step 1 unnecessary upstream: a restore started by a reconnection should
// not mark the manager restored while the first restore's notebook part is still pending
// (await it, or load the notebook's state again), and WidgetRenderer should try again on a
// later `restored` signal instead of giving up once `restoredStatus` is true.

import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { Panel, Widget } from '@lumino/widgets';

import { N_, translate } from './words';

const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
const WIDGET_STATE = 'application/vnd.jupyter.widget-state+json';
// What a viewer without widgets would show, best first (widgets/_fallback.py stores the PNG).
const STORED_PICTURE_TYPES = ['image/png', 'text/html'];
// The manager's words when a view gave up (renderer.js of jupyterlab-manager 5.0.16, not
// translated there).
const GAVE_UP = 'Error displaying widget';
// A view still "Loading widget..." this long, with a kernel coming, shows its stored picture
// meanwhile (the manager exists only once the kernel is ready).
const WAIT_FOR_MANAGER_MS = 15000;
// A repair not finished within this long shows the stored picture meanwhile.
const REPAIR_PATIENCE_MS = 3000;
// The kernel's answer to set_state's comm_info_request, at most.
const SET_STATE_TIMEOUT_MS = 30000;

const STORED_CLASS = 'minigrad-stored-picture';
// The note under a stored picture, in the lab's language (see words.js).
const STORED_NOTE = N_('stored picture; run the cell to step it');
const NOTHING_STORED_NOTE = N_('no stored picture; run the cell to draw it');

/** Resolve with `promise`, or reject after `ms`. */
function within(promise, ms, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    promise.then(
      value => {
        clearTimeout(timer);
        resolve(value);
      },
      error => {
        clearTimeout(timer);
        reject(error);
      }
    );
  });
}

/** The widget-view renderers of a notebook, each with the output it renders. */
function* widgetViews(notebook) {
  for (const cell of notebook.widgets) {
    const area = cell.model.type === 'code' ? cell.outputArea : null;
    if (!area || !area.model) {
      continue;
    }
    for (let index = 0; index < area.widgets.length; index++) {
      const item = area.widgets[index];
      const output = area.model.get(index);
      if (!output || !output.data || !(WIDGET_VIEW in output.data)) {
        continue;
      }
      for (const renderer of Array.from(item.children())) {
        if (renderer.mimeType === WIDGET_VIEW && typeof renderer.renderModel === 'function') {
          yield { item, renderer, output };
        }
      }
    }
  }
}

/** The saved drawings of one open notebook, kept showing. */
class SavedDrawings {
  constructor(panel, languageCode) {
    this.panel = panel;
    this.languageCode = languageCode;
    this.pictures = new WeakMap(); // renderer -> the stored picture shown in its place
    this.waitingSince = new WeakMap(); // renderer -> when it was first seen waiting
    this.repairing = new Set(); // renderers being repaired now
    this.repaired = new WeakSet(); // renderers repaired once (never twice: no loop)
    this.restoring = new WeakMap(); // manager -> its set_state of the saved state
    this.scheduled = null; // the next check, on a change
    this.deadline = null; // the next check, when a view has waited long enough
    this.observer = new MutationObserver(() => this.schedule(200));
    this.observer.observe(panel.content.node, {
      childList: true,
      subtree: true,
      characterData: true
    });
    const session = panel.sessionContext;
    session.statusChanged.connect(() => this.schedule(200));
    session.kernelChanged.connect(() => this.schedule(200));
    session.ready.then(() => this.schedule(0)).catch(() => this.schedule(0));
    panel.disposed.connect(() => this.dispose());
    this.schedule(0);
  }

  dispose() {
    this.observer.disconnect();
    clearTimeout(this.scheduled);
    clearTimeout(this.deadline);
  }

  /** Check within `ms`; at most one check is pending, so a stream of changes (a stepper
   * playing) cannot put it off for ever. */
  schedule(ms) {
    if (this.scheduled === null) {
      this.scheduled = setTimeout(() => {
        this.scheduled = null;
        this.check();
      }, ms);
    }
  }

  /** Check again in `ms`, when a waiting view's wait is over. */
  scheduleDeadline(ms) {
    if (this.deadline === null) {
      this.deadline = setTimeout(() => {
        this.deadline = null;
        this.check();
      }, ms);
    }
  }

  /** Look at every widget view of the notebook and act on what it shows. */
  check() {
    if (this.panel.isDisposed) {
      return;
    }
    const now = Date.now();
    for (const { item, renderer, output } of widgetViews(this.panel.content)) {
      if (this.repairing.has(renderer)) {
        continue;
      }
      if (renderer.widgets.length > 0) {
        this.hidePicture(renderer); // the widget shows: nothing to stand in for
      } else if (renderer.node.textContent.startsWith(GAVE_UP)) {
        this.repaired.has(renderer)
          ? this.showPicture(item, renderer, output)
          : this.repair(item, renderer, output);
      } else {
        // "Loading widget...": no manager yet (it comes once the kernel is ready), or one
        // still restoring. Show the picture when no manager is coming, or not soon.
        if (!this.waitingSince.has(renderer)) {
          this.waitingSince.set(renderer, now);
        }
        const waited = now - this.waitingSince.get(renderer);
        if (this.noKernel() || waited >= WAIT_FOR_MANAGER_MS) {
          this.showPicture(item, renderer, output);
        } else {
          this.scheduleDeadline(WAIT_FOR_MANAGER_MS - waited + 100);
        }
      }
    }
  }

  /** True once the notebook's session is settled without a kernel ("No Kernel", or none
   * could start). */
  noKernel() {
    const session = this.panel.sessionContext;
    return session.isReady && !(session.session && session.session.kernel);
  }

  /** Make the view's model from the saved state and render the view again. */
  async repair(item, renderer, output) {
    this.repaired.add(renderer);
    this.repairing.add(renderer);
    const meanwhile = setTimeout(
      () => this.showPicture(item, renderer, output),
      REPAIR_PATIENCE_MS
    );
    try {
      const manager = await within(managerOf(renderer), 5000, 'the widget manager');
      const modelId = output.data[WIDGET_VIEW].model_id;
      if (!manager.has_model(modelId)) {
        await this.restoreSavedState(manager);
      }
      if (manager.has_model(modelId)) {
        renderer.removeClass('jupyter-widgets');
        await renderer.renderModel(output);
      }
    } catch (error) {
      console.warn('minigrad: a saved widget could not be restored:', error);
    } finally {
      clearTimeout(meanwhile);
      this.repairing.delete(renderer);
    }
    if (renderer.widgets.length > 0) {
      const modelId = output.data[WIDGET_VIEW].model_id;
      console.info(`minigrad: widget ${modelId} made again from the saved state`);
      this.hidePicture(renderer);
    } else {
      this.showPicture(item, renderer, output);
    }
  }

  /** The notebook's saved widget state, into `manager` (once per manager). */
  restoreSavedState(manager) {
    let restoring = this.restoring.get(manager);
    if (!restoring) {
      const widgets = this.panel.context.model.getMetadata('widgets');
      const saved = widgets && widgets[WIDGET_STATE];
      restoring = saved
        ? within(
            Promise.resolve().then(() =>
              manager.set_state(manager.filterExistingModelState(saved))
            ),
            SET_STATE_TIMEOUT_MS,
            'set_state'
          )
        : Promise.reject(new Error('the notebook has no saved widget state'));
      // A failure may pass (the kernel was away): the next repair tries again.
      restoring.catch(() => this.restoring.delete(manager));
      this.restoring.set(manager, restoring);
    }
    return restoring;
  }

  /** Show the output's stored picture in place of the view, with a note. */
  showPicture(item, renderer, output) {
    if (this.pictures.has(renderer) || item.isDisposed || renderer.widgets.length > 0) {
      return;
    }
    const type = STORED_PICTURE_TYPES.find(t => typeof output.data[t] === 'string');
    const shown = type || 'text/plain';
    // Not a jp-OutputArea-output: the output is still the (hidden) widget view.
    const box = new Panel();
    box.addClass(STORED_CLASS);
    box.node.style.overflow = 'auto';
    const picture = this.panel.content.rendermime.createRenderer(shown);
    // Untrusted: stored HTML is sanitized, whatever the notebook's trust.
    picture.renderModel({
      data: { [shown]: output.data[shown] || '' },
      metadata: output.metadata || {},
      trusted: false,
      setData: () => undefined
    });
    const note = new Widget();
    note.addClass(`${STORED_CLASS}-note`);
    // Text, never markup: the note is set as textContent.
    const sentence = type ? STORED_NOTE : NOTHING_STORED_NOTE;
    note.node.textContent = translate(sentence, this.languageCode);
    note.node.style.cssText = 'font-size: var(--jp-ui-font-size0); font-style: italic; ' +
      'color: var(--jp-ui-font-color2); padding-top: 2px;';
    box.addWidget(picture);
    box.addWidget(note);
    renderer.hide();
    item.insertWidget(item.widgets.indexOf(renderer) + 1, box);
    this.pictures.set(renderer, box);
  }

  hidePicture(renderer) {
    const box = this.pictures.get(renderer);
    if (box) {
      this.pictures.delete(renderer);
      box.dispose();
      renderer.show();
    }
  }
}

/** The widget manager a renderer renders with: a private field of WidgetRenderer (see the top
 * of this file), so anything unexpected is "no manager". */
function managerOf(renderer) {
  const delegate = renderer._manager;
  return delegate && delegate.promise
    ? delegate.promise
    : Promise.reject(new Error('this widget manager does not say which manager it is'));
}

const plugin = {
  id: 'minigrad-widget-restore:plugin',
  description: "A saved lesson's drawings come back, or show their stored picture.",
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ITranslator],
  activate: (app, notebooks, translator) => {
    const languageCode = () => (translator ? translator.languageCode : 'en');
    const watch = panel => {
      panel.context.ready.then(() => new SavedDrawings(panel, languageCode()));
    };
    notebooks.forEach(watch);
    notebooks.widgetAdded.connect((_, panel) => watch(panel));
  }
};

export default plugin;
