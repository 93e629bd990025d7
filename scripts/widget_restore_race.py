"""Show, on demand, why an opened lesson can read "Error displaying widget: model not found".

Issue 21's lessons 4 and 7 showed that error, now and then, on a loaded machine, right after
opening. The widget manager of JupyterLab (``@jupyter-widgets/jupyterlab-manager`` 5.0,
ipywidgets 8) restores a notebook's widgets in two parts: from the kernel, then from the state
stored in the notebook, whose last step is one more request to the kernel
(``comm_info_request``) before the stored models are made. Separately, whenever the kernel
connection becomes "connected" while the *kernel* part is not running, it starts a second
restore, from the kernel alone, which marks the widgets as restored. So if the connection
drops and comes back during the notebook part (a reply lost in a reconnection: a slow or busy
machine, a sleeping laptop, a hub's proxy), the notebook part never ends, the second restore
says "restored", and every stored widget gives up on its model after 2 s, for good, until the
page is reloaded. The upstream code path is the one in jupyter-widgets/ipywidgets issue 3231
(a restore started by ``_handleKernelConnectionStatusChange`` re-renders widgets whose models
do not exist yet).

This script makes that happen on purpose: it serves a trusted copy of ``notebooks/``, opens a
lesson in headless Chromium, loses the kernel's reply to the manager's second
``comm_info_request`` and closes the page's kernel websocket instead (JupyterLab reconnects at
once; ``tests/browser/conftest.py``'s ``drop_connection_during_restore``). It prints the kernel
traffic (``tests/browser/conftest.py``'s ``KernelTraffic``) and what the widget outputs show::

    python scripts/widget_restore_race.py [LESSON] [--no-drop]

With ``--no-drop`` the same run without the dropped connection: the drawings show.

The course's JupyterLab extension (``widgets/labextension/``, which ``make lab`` and ``make
test`` install into the venv) repairs exactly this: it makes the lost models from the
notebook's saved state and shows the widgets again. This script switches it off, to show the
race itself; ``--with-extension`` leaves it on (the run then ends with no error).
``tests/browser/test_saved_drawings_lab.py`` forces the race the same way, both ways.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def browser_helpers():
    """``tests/browser/conftest.py`` as a module (its server, trust and traffic helpers)."""
    spec = importlib.util.spec_from_file_location(
        "browser_conftest", ROOT / "tests" / "browser" / "conftest.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def open_lesson(lesson: str, drop_connection: bool, with_extension: bool = False) -> list[str]:
    """Open ``lesson`` as ``make lab`` serves it; return what its widget outputs say when one
    shows an error (empty when every widget found its model)."""
    from playwright.sync_api import sync_playwright

    helpers = browser_helpers()
    root = Path(tempfile.mkdtemp(prefix="widget-restore-race-"))
    folder, env = helpers.trusted_course_copy(root)
    if not with_extension:
        # The server's private config dir (helpers.jupyter_server's JUPYTER_CONFIG_DIR).
        page_config = folder / ".jupyter-config" / "labconfig" / "page_config.json"
        page_config.parent.mkdir(parents=True)
        page_config.write_text('{"disabledExtensions": {"minigrad-widget-restore": true}}\n')
    os.environ["PATH"] = helpers.path_without_graphviz(root / "no-dot")
    with helpers.jupyter_server("lab", folder, (), env) as (base_url, token):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=helpers.CHROMIUM, args=helpers.CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 1280, "height": 1700})
            traffic = helpers.KernelTraffic().attach(page)
            if drop_connection:
                helpers.drop_connection_during_restore(page, traffic)
            page.goto(f"{base_url}/lab/tree/{lesson}?reset&token={token}")
            status = page.locator("#jp-main-statusbar").filter(has_text=re.compile("Idle"))
            status.wait_for(timeout=120_000)
            page.wait_for_timeout(10_000)  # longer than the manager's 2 s wait for a model
            outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
            browser.close()
    print(traffic)
    return [text for text in outputs if text.startswith("Error displaying widget")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lesson", nargs="?", default="04_accumulation_and_zeroing.ipynb")
    parser.add_argument("--no-drop", action="store_true", help="leave the connection alone")
    parser.add_argument(
        "--with-extension", action="store_true", help="leave the course's lab extension on"
    )
    options = parser.parse_args()
    errors = open_lesson(
        options.lesson, drop_connection=not options.no_drop, with_extension=options.with_extension
    )
    print(f"{len(errors)} widget output(s) show an error: {sorted(set(errors))}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
