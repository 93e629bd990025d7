"""Fixtures for the real-browser tests: headless Chromium, a JupyterLab server, a notebook.

The browser is Debian's ``/usr/bin/chromium`` driven by Python Playwright; Playwright's own
browser downloads (``playwright install``) are never used. The tests are marked
``@pytest.mark.browser``, so the top-level conftest skips them when Chromium is missing
(and fails them under MINIGRAD_REQUIRE_ALL=1).

Fixtures
    ``browser``         a launched headless Chromium, one per test module
    ``page``            a fresh 1280x1700 page (tall: JupyterLab scrolls inside its panels,
                        so a screenshot only shows what fits in the viewport)
    ``stepper_notebook`` path of a notebook, written into ``tmp_path``, whose last cell
                        shows a ``BackwardStepper`` for ``y = x*w + x``
    ``lab_server``      a JupyterLab serving ``tmp_path``: ``(base_url, token)``
    ``notebook7_server`` the same with Notebook 7
    ``without_dot``     (automatic) Graphviz's ``dot`` hidden from PATH for the whole test
    ``export_html``     a function: execute a notebook, export it to HTML for offline use
    ``artifacts``       ``test-artifacts/`` at the repository root, for screenshots
    ``read_stepper``    a function of the page: what the stepper shows now, as the browser
                        computed it (see ``READ_STEPPER``), plus ``lit`` (the boxes drawn
                        as the current step's), ``done`` (those drawn as done) and
                        ``leaves`` (each leaf's "grad ..." line)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from nbclient import NotebookClient
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
# Offline and quiet: no QUIC, no first-run pages, no background calls home.
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

# The notebook of both tests: a leaf (x) reached along two paths, so the last step shows
# two contributions adding up. Derivatives by hand: dy/dx = w + 1 = 4, dy/dw = x = 2.
STEPPER_CELLS = [
    "import minigrad as mg\nimport widgets",
    "x = mg.tensor(2.0, requires_grad=True)\n"
    "w = mg.tensor(3.0, requires_grad=True)\n"
    "y = x * w + x\n"
    "widgets.BackwardStepper(y)",
]


# What the stepper shows: the visible frame's position and panel, and for each box and arrow
# of the picture the texts displayed and the colour and width of its outline, as computed
# by the browser (the frame's stylesheet restyles the picture). "overlapping" flags two
# displayed texts at the same place: a text shown with the one it replaces.
READ_STEPPER = """
stepper => {
    const frame = [...stepper.querySelectorAll('.minigrad-frame')]
        .find(f => f.getClientRects().length > 0);
    const panel = frame.querySelector('.minigrad-step-panel');
    const read = group => {
        const texts = [...group.querySelectorAll('text')]
            .filter(t => getComputedStyle(t).display !== 'none');
        const places = texts.map(t => t.getAttribute('x') + ',' + t.getAttribute('y'));
        const look = getComputedStyle(group.querySelector('ellipse, polygon, path'));
        return {
            lines: texts.map(t => t.textContent.trim()),
            overlapping: new Set(places).size !== places.length,
            stroke: look.stroke,
            width: look.strokeWidth,
            dashed: look.strokeDasharray !== 'none',
        };
    };
    const picture = stepper.querySelector('.minigrad-picture svg');
    const all = selector => Object.fromEntries(
        [...picture.querySelectorAll(selector)].map(g => [g.id, read(g)]));
    return {
        position: Number(frame.dataset.position),
        panelPosition: Number(panel.dataset.position),
        panelNode: panel.dataset.node,
        text: panel.innerText,
        boxes: all('g.node'),
        arrows: all('g.edge'),
    };
}
"""
RED, GREEN, GREY = "rgb(213, 94, 0)", "rgb(0, 158, 115)", "rgb(153, 153, 153)"


def lit_up(state: dict) -> list[str]:
    """The boxes drawn as the current step's: red, 4 px."""
    return [i for i, box in state["boxes"].items() if (box["stroke"], box["width"]) == (RED, "4px")]


def leaf_grads(state: dict) -> dict[str, str]:
    """The last line ("grad ...") of each leaf's box, by its first line ("x (leaf)")."""
    return {
        box["lines"][0]: box["lines"][-1]
        for box in state["boxes"].values()
        if box["lines"] and box["lines"][0].endswith("(leaf)")
    }


def check_drawn_consistently(state: dict) -> None:
    """What holds in every frame: one text per line, and an arrow carries a number (a
    label) exactly when it is coloured (green, or red for the current step)."""
    for name, group in {**state["boxes"], **state["arrows"]}.items():
        assert not group["overlapping"], name
    for name, arrow in state["arrows"].items():
        labelled = any(arrow["lines"])
        assert (arrow["stroke"] != GREY) == labelled, (name, arrow)
        assert arrow["stroke"] in (GREY, GREEN, RED), (name, arrow)


@pytest.fixture
def panel_font_sizes():
    """``panel_font_sizes(stepper)``: the font size, in px, of every element of a stepper's
    panel and help that holds words itself."""

    def sizes(stepper) -> list[float]:
        return stepper.evaluate(
            """stepper => [...stepper.querySelectorAll(
                '.minigrad-step-panel, .minigrad-step-panel *, .minigrad-stepper-help, '
                + '.minigrad-stepper-help *')]
            .filter(e => e.getClientRects().length > 0
                && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .map(e => parseFloat(getComputedStyle(e).fontSize))"""
        )

    return sizes


@pytest.fixture
def read_stepper():
    def read(page) -> dict:
        expect(page.locator(".minigrad-frame:visible")).to_have_count(1)
        # The picture appears once Graphviz (WebAssembly) has loaded and laid it out, which
        # the page does on its own time, after the widgets are shown.
        picture = page.locator(".minigrad-stepper .minigrad-picture svg g.node").first
        expect(picture).to_be_visible(timeout=60_000)
        state = page.locator(".minigrad-stepper").evaluate(READ_STEPPER)
        check_drawn_consistently(state)
        state["lit"] = lit_up(state)
        state["done"] = [
            i
            for i, box in state["boxes"].items()
            if (box["stroke"], box["width"]) == (GREEN, "2.5px")
        ]
        state["leaves"] = leaf_grads(state)
        return state

    return read


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 1700})
    page = context.new_page()
    # MINIGRAD_CPU_THROTTLE=4 runs the page's scripts four times slower (Chromium's own CPU
    # throttling): a slow laptop, to bring out races between the page and the kernel.
    slowdown = float(os.environ.get("MINIGRAD_CPU_THROTTLE", "1"))
    if slowdown > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.set_default_timeout(20_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def artifacts() -> Path:
    folder = ROOT / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def stepper_notebook(tmp_path: Path) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in STEPPER_CELLS]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    path = tmp_path / "stepper.ipynb"
    nbformat.write(notebook, path)
    return path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def jupyter_server(
    app: str, root: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[tuple[str, str]]:
    """Start ``jupyter lab`` or ``jupyter notebook`` (Notebook 7) serving ``root``, on a
    free port with a random token: ``(base_url, token)``; stop it afterwards. ``args`` go
    after the server's own (a file to open, say); ``env`` adds environment variables."""
    port, token = _free_port(), secrets.token_hex(16)
    # The kernel runs from root; the editable install puts minigrad and widgets on its
    # path. A private config dir keeps a developer's own Jupyter config out.
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".jupyter-config"), **(env or {})}
    log_path = root / f"jupyter-{app}.log"
    log = log_path.open("wb")
    server = subprocess.Popen(
        [
            str(VENV_BIN / "jupyter"),
            app,
            *([] if "--ServerApp.open_browser=True" in args else ["--no-browser"]),
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={root}",
            *args,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,  # its own process group: the kernels it starts stop with it
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{base_url}/api/status?token={token}", server, log_path)
        yield base_url, token
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have exited already
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


@pytest.fixture
def lab_server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A JupyterLab serving ``tmp_path``: ``(base_url, token)``."""
    with jupyter_server("lab", tmp_path) as server:
        yield server


@pytest.fixture
def notebook7_server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A Notebook 7 serving ``tmp_path``: ``(base_url, token)``."""
    with jupyter_server("notebook", tmp_path) as server:
        yield server


def _wait_until_up(status_url: str, server: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log = log_path.read_text(errors="replace")
            pytest.fail(f"jupyter exited with code {server.returncode}:\n{log}")
        try:
            with urllib.request.urlopen(status_url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    pytest.fail("jupyter did not answer /api/status within 60 s")


@pytest.fixture(scope="session")
def widget_js() -> tuple[Path, Path, Path]:
    """Local require.js, html-manager's embed-amd.js and anywidget's front end:
    ``(require_js, embed_amd_js, anywidget_js)``.

    Fetched from the npm registry by ``scripts/fetch_widget_js.sh`` into the venv the first
    time (about a second, 5 MB); later runs find them there and fetch nothing.
    """
    dest = Path(sys.prefix) / "share" / "minigrad-js"
    subprocess.run(
        [str(ROOT / "scripts" / "fetch_widget_js.sh"), str(dest)],
        check=True,
        env={**os.environ, "VENV": sys.prefix},
    )
    return (
        dest / "require.js",
        dest / "html-manager" / "dist" / "embed-amd.js",
        dest / "anywidget.js",
    )


def export_notebook_html(notebook: Path, widget_js: tuple[Path, Path, Path]) -> Path:
    """Execute ``notebook`` in place with its widget state stored, export it with
    ``jupyter nbconvert --to html`` against the local widget JavaScript (no CDN: offline),
    and put anywidget's front end beside the page, where require.js looks for it."""
    require_js, embed_amd_js, anywidget_js = widget_js
    executed = nbformat.read(notebook, as_version=4)
    NotebookClient(
        executed,
        timeout=120,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    ).execute()
    nbformat.write(executed, notebook)
    subprocess.run(
        [
            str(VENV_BIN / "jupyter"),
            "nbconvert",
            "--to",
            "html",
            str(notebook),
            f"--HTMLExporter.require_js_url={require_js.as_uri()}",
            f"--HTMLExporter.widget_renderer_url={embed_amd_js.as_uri()}",
        ],
        check=True,
        capture_output=True,
    )
    shutil.copy(anywidget_js, notebook.parent / "anywidget.js")
    return notebook.with_suffix(".html")


@pytest.fixture
def export_html(widget_js):
    return lambda notebook: export_notebook_html(notebook, widget_js)


# Graphviz's programs: hidden from the servers and kernels of the browser tests, which must
# draw with the Graphviz in the browser alone.
GRAPHVIZ_PROGRAMS = {"dot", "neato", "twopi", "circo", "fdp", "sfdp", "patchwork", "osage"}


def path_without_graphviz(shadows: Path) -> str:
    """PATH with every folder that holds ``dot`` replaced by a folder of links to everything
    else in it (made under ``shadows``)."""
    folders = []
    for i, folder in enumerate(os.environ.get("PATH", "").split(os.pathsep)):
        if folder and (Path(folder) / "dot").exists():
            shadow = shadows / f"path-{i}"
            shadow.mkdir(parents=True, exist_ok=True)
            for entry in Path(folder).iterdir():
                link = shadow / entry.name
                if entry.name not in GRAPHVIZ_PROGRAMS and not link.is_symlink():
                    link.symlink_to(entry)
            folder = str(shadow)
        folders.append(folder)
    return os.pathsep.join(folders)


@pytest.fixture(autouse=True)
def without_dot(tmp_path_factory, monkeypatch) -> None:
    """Every browser test runs with Graphviz's ``dot`` absent from PATH (servers, kernels and
    nbconvert inherit it): the drawings must need nothing but the browser. Through
    ``monkeypatch``, as every other change of PATH in a test, so that they are undone in
    order (a fixture that saved and restored PATH by hand was undone before a later
    ``monkeypatch.setenv`` on top of it, which then put back the PATH without ``dot`` for
    the rest of the session)."""
    monkeypatch.setenv("PATH", path_without_graphviz(tmp_path_factory.mktemp("no-dot")))
    assert shutil.which("dot") is None


def kernels_state(base_url: str, token: str) -> tuple[bool, str]:
    """``(True, ...)`` once every kernel a page is connected to reports idle, else
    ``(False, what the server said)``.
    While a kernel is starting, the server can answer this request with an error (a 500 was
    seen in CI): that means "not yet"."""
    try:
        with urllib.request.urlopen(f"{base_url}/api/kernels?token={token}", timeout=5) as answer:
            kernels = json.load(answer)
    except (urllib.error.URLError, TimeoutError, ValueError) as error:
        return False, f"GET /api/kernels failed: {error!r}"
    # A kernel that no page is connected to says "starting" for ever (the server learns a
    # kernel's state only from a connection): one left behind by an earlier test must not
    # hold this one up.
    states = [k.get("execution_state") for k in kernels if k.get("connections")]
    said = f"connected kernels: {states} of {len(kernels)}"
    return bool(states) and all(state == "idle" for state in states), said


def kernel_idle(base_url: str, token: str) -> bool:
    """True once every kernel reports idle (see ``kernels_state``)."""
    return kernels_state(base_url, token)[0]


def trusted_course_copy(root: Path) -> tuple[Path, dict[str, str]]:
    """``notebooks/`` copied to ``root/notebooks`` (a run must not write into the repository)
    and trusted by make lab's own step (``scripts/trusted_notebooks.py trust``, whose
    manifest comes along): ``(folder, env)``, where ``env`` names the private data dir that
    holds the trust database, for the server to read it."""
    folder = root / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder, ignore=shutil.ignore_patterns(".ipynb_*"))
    env = {"JUPYTER_DATA_DIR": str(root / "data")}
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "trusted_notebooks.py"), "trust"]
        + ["--root", str(root)],
        check=True,
        capture_output=True,
        env={**os.environ, **env},
    )
    return folder, env


def shut_down_kernels(page, base_url: str, token: str) -> None:
    """End every session and kernel of the server: one kernel at a time on a 2-core machine,
    and the next notebook starts alone."""
    for session in page.request.get(f"{base_url}/api/sessions?token={token}").json():
        page.request.delete(f"{base_url}/api/sessions/{session['id']}?token={token}")
    for kernel in page.request.get(f"{base_url}/api/kernels?token={token}").json():
        page.request.delete(f"{base_url}/api/kernels/{kernel['id']}?token={token}")


def run_all(page) -> None:
    """Run → Run All Cells, from the menu (``notebook:run-all-cells`` is not in its DOM)."""
    page.locator(".lm-MenuBar-item", has_text="Run").click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()


def wait_until_idle(page, base_url: str, token: str) -> None:
    """Until the kernel is up and idle (Notebook 7 has no status bar to read)."""
    said = ""
    for _ in range(240):
        idle, said = kernels_state(base_url, token)
        if idle:
            return
        page.wait_for_timeout(500)
    pytest.fail(f"the kernel did not become idle in 120 s (last: {said})")


class KernelTraffic:
    """What the widget manager of a page did, for a failing test to say why: the page's kernel
    websocket connections opening and closing, the widget messages on them (the control comm's
    ``request_states``/``update_states``, ``comm_info_request``/``reply``, each widget's
    ``comm_open``), the kernel's status, and the console's errors and warnings, each with its
    time in ms since ``attach``. Read with ``str(traffic)``.

    How to read it (jupyterlab-manager 5.0, ipywidgets 8): on opening, the manager restores
    once, from the kernel (one ``comm_open jupyter.widget.control``; without ipywidgets
    imported the kernel closes it, then a ``comm_info_request``) and then from the notebook
    (a second ``comm_info_request``, after which the stored models exist). A second
    ``comm_open jupyter.widget.control`` is a second restore, from the kernel only, which the
    manager starts whenever the kernel connection becomes "connected" outside its first
    restore (a reconnection: "websocket ... closed", "Connection lost"): it marks the
    restore as done, and any widget whose model is not there within 2 s then shows
    "Error displaying widget: model not found" for good."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.events: list[str] = []

    def note(self, what: str) -> None:
        self.events.append(f"{(time.monotonic() - self.start) * 1000:7.0f} ms  {what}")

    def attach(self, page) -> KernelTraffic:
        page.on("websocket", self._watch)
        page.on(
            "console",
            lambda message: (
                message.type in ("error", "warning")
                and "to activate" not in message.text  # JupyterLab's slow-plugin notes
                and self.note(f"console.{message.type}: {message.text[:200]}")
            ),
        )
        return self

    def _watch(self, socket) -> None:
        if "/api/kernels/" not in socket.url:
            return
        kernel = socket.url.split("/api/kernels/")[1][:8]
        self.note(f"websocket to kernel {kernel} opened")
        socket.on("framesent", lambda frame: self._frame("sent", frame))
        socket.on("framereceived", lambda frame: self._frame("got ", frame))
        socket.on("close", lambda _: self.note(f"websocket to kernel {kernel} closed"))

    def _frame(self, direction: str, frame: str | bytes) -> None:
        message = kernel_message(frame)
        if message is None:
            return
        kind = message.get("header", {}).get("msg_type", "?")
        content = message.get("content") or {}
        if kind == "comm_open":
            kind += f" {content.get('target_name')}"
        elif kind == "comm_msg":
            kind += f" {(content.get('data') or {}).get('method')}"
        elif kind == "status":
            kind += f" {content.get('execution_state')}"
        elif kind not in ("comm_info_request", "comm_info_reply", "comm_close"):
            if not kind.startswith(("kernel_info", "execute")):
                return
        self.note(f"{direction} {kind}")

    def __str__(self) -> str:
        return "\n".join(self.events[-120:])


def kernel_message(frame: str | bytes) -> dict | None:
    """A kernel websocket frame as a message: JSON text, or the binary
    ``v1.kernel.websocket.jupyter.org`` form (a count of offsets, the offsets, then channel,
    header, parent header, metadata, content and buffers). None when it reads as neither."""
    try:
        if isinstance(frame, str):
            return json.loads(frame)
        count = int.from_bytes(frame[:8], "little")
        offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
        parts = [frame[offsets[i] : offsets[i + 1]] for i in range(min(count - 1, 5))]
        channel, header, _parent, _metadata, content = (part.decode() for part in parts)
        return {"channel": channel, "header": json.loads(header), "content": json.loads(content)}
    except (ValueError, UnicodeDecodeError, IndexError):
        return None


def drop_connection_during_restore(page, traffic: KernelTraffic | None = None) -> dict:
    """Force the widget manager's restore race (``scripts/widget_restore_race.py``): every
    kernel websocket of ``page`` goes through a route that loses the kernel's reply to the
    page's second ``comm_info_request`` (the one the notebook part of the manager's restore
    waits on) and closes the connection instead; JupyterLab reconnects at once. The reply
    itself is swallowed: closing the socket alone is not enough, as the server keeps what a
    closed connection did not get and replays it on reconnection, whenever the reply reaches
    it late enough. Returns a count of what happened, ``{"comm_info_requests": n,
    "dropped": m}``, for a test to check the race was run."""
    seen = {"comm_info_requests": 0, "dropped": 0}

    def route(socket) -> None:
        server = socket.connect_to_server()
        lose_the_reply = False

        def from_server(frame) -> None:
            nonlocal lose_the_reply
            message = kernel_message(frame) or {}
            if lose_the_reply and message.get("header", {}).get("msg_type") == "comm_info_reply":
                lose_the_reply = False
                seen["dropped"] += 1
                if traffic is not None:
                    traffic.note("comm_info_reply lost and the page's kernel websocket closed")
                socket.close(code=4000, reason="restore race forced")
                server.close(code=4000, reason="restore race forced")
                return
            socket.send(frame)

        def from_page(frame) -> None:
            nonlocal lose_the_reply
            server.send(frame)
            message = kernel_message(frame) or {}
            if message.get("header", {}).get("msg_type") == "comm_info_request":
                seen["comm_info_requests"] += 1
                if seen["comm_info_requests"] == 2:
                    lose_the_reply = True

        server.on_message(from_server)
        socket.on_message(from_page)

    page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), route)
    return seen


def show_cell(page, index: int):
    """Scroll the open notebook until cell ``index`` is attached (JupyterLab and Notebook 7
    attach only the cells near the view), and return it."""
    cell = page.locator(f'.jp-Notebook .jp-Cell[data-windowed-list-index="{index}"]')
    scroller = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer").first
    scroller.evaluate("element => { element.scrollTop = 0; }")
    for _ in range(200):
        if cell.count():
            break
        scroller.evaluate("element => { element.scrollTop += element.clientHeight / 2; }")
        page.wait_for_timeout(100)
    cell.scroll_into_view_if_needed()
    return cell


@pytest.fixture(scope="session")
def lab_tools() -> SimpleNamespace:
    """This file's helpers for test modules (imported by pytest's importlib mode, a test
    module cannot import conftest): ``jupyter_server``, ``run_all``, ``show_cell``,
    ``wait_until_idle``, ``kernel_idle``, ``path_without_graphviz``, ``READ_STEPPER``,
    ``KernelTraffic``, ``kernel_message`` and ``drop_connection_during_restore``."""
    return SimpleNamespace(
        jupyter_server=jupyter_server,
        run_all=run_all,
        show_cell=show_cell,
        wait_until_idle=wait_until_idle,
        shut_down_kernels=shut_down_kernels,
        trusted_course_copy=trusted_course_copy,
        kernel_idle=kernel_idle,
        path_without_graphviz=path_without_graphviz,
        READ_STEPPER=READ_STEPPER,
        KernelTraffic=KernelTraffic,
        kernel_message=kernel_message,
        drop_connection_during_restore=drop_connection_during_restore,
    )
