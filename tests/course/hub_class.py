"""A real JupyterHub with one teacher and two students, for test_class_on_a_hub.py.

``start_hub`` lays out a class in a fresh folder (the hub's files, each user's home, nbgrader's
exchange and the configuration every server reads, as ``/etc/jupyter`` would hold it), starts
``jupyterhub`` with ``configurable-http-proxy``, a shared-password test authenticator and the
simple local process spawner, and gives back a ``Hub`` to log in with and to stop.

Every process it starts (the hub, the proxy, the users' servers, their terminals) carries an
environment variable with this hub's own id, so ``Hub.stop`` finds and ends each of them by
its process id even when the hub itself could not stop them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

PASSWORD = "class-password-" + secrets.token_hex(4)  # every user's, as the authenticator shares it
COURSE_ID = "minigrad"  # the course id of teacher/nbgrader_config.py
MARKER = "MINIGRAD_HUB_TEST"  # the environment variable that marks this hub's processes


def free_port() -> int:
    """A TCP port on localhost that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def proxy_program() -> str | None:
    """configurable-http-proxy: beside this Python (bootstrap.sh links it into the venv's
    bin/), or on PATH."""
    beside = Path(sys.executable).parent / "configurable-http-proxy"
    if beside.exists():
        return str(beside)
    return shutil.which("configurable-http-proxy")


HUB_CONFIG = """\
# Written by tests/course/hub_class.py: a hub for one test run, on localhost only.
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///{root}/hub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{root}/hub/cookie_secret"
# A password shared by the class: DummyAuthenticator's password, under its current name.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {password!r}
c.Authenticator.allowed_users = {users!r}
# Servers started as local processes with no system user behind them.
c.JupyterHub.spawner_class = "simple"
{own_uids}c.SimpleLocalProcessSpawner.home_dir_template = "{root}/home/{{username}}"
c.Spawner.notebook_dir = "{root}/home/{{username}}"
c.Spawner.cmd = [{python!r}, "-m", "jupyterhub.singleuser"]
c.Spawner.args = {server_args!r}
c.Spawner.default_url = "/lab"
c.Spawner.environment = {environment!r}
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
"""

# With root to start it, the hub runs each user's server as a uid of its own, which no system
# user holds: nss_wrapper gives the uids their names inside the servers (nbgrader takes a
# student's id from it), so files and the exchange's permissions separate the users as they
# do on a hub with system users. Each server starts as root in a mount namespace of its own
# (bubblewrap), where the folders Python needs are reachable, and drops to its uid (setpriv).
OWN_UIDS = """
from jupyterhub.spawner import SimpleLocalProcessSpawner

AS_USER = {as_user!r}  # name -> the command prefix that runs a program as that user


class OwnUidSpawner(SimpleLocalProcessSpawner):
    async def start(self):
        self.cmd = [*AS_USER[self.user.name], *self.cmd]
        return await super().start()


c.JupyterHub.spawner_class = OwnUidSpawner
"""
FIRST_UID = 27001  # the class's uids: FIRST_UID, FIRST_UID + 1, ...


def nss_wrapper() -> Path | None:
    """nss_wrapper's library (Debian: libnss-wrapper), wherever this system keeps it (an
    LD_PRELOAD library, not in ldconfig's cache)."""
    for pattern in ["lib*/libnss_wrapper.so", "lib/*/libnss_wrapper.so"]:
        for found in sorted(Path("/usr").glob(pattern)):
            return found
    return None


def folders_python_needs() -> list[Path]:
    """This Python, its venv, the checkout and whatever PYTHONPATH adds."""
    needed = [Path(sys.executable).resolve().parent.parent, Path(sys.prefix), Path(sys.base_prefix)]
    needed.append(Path(__file__).resolve().parents[2])
    needed += [Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return [path.resolve() for path in needed if path.exists()]


def as_user(uid: int, home: Path) -> list[str]:
    """A command prefix that runs a program as ``uid`` in ``home``, with the folders of
    ``folders_python_needs`` reachable: a folder on their way that other users may not enter
    (a pyenv under /root) is replaced, in the program's own mount namespace only, by an empty
    one holding just those folders, read-only."""
    bwrap, setpriv = shutil.which("bwrap"), shutil.which("setpriv")
    command, made = [bwrap, "--dev-bind", "/", "/"], set()
    for path in folders_python_needs():
        closed = next((a for a in reversed(path.parents) if not os.stat(a).st_mode & 0o001), None)
        if closed is None or path in made:
            continue
        if closed not in made:
            command += ["--tmpfs", str(closed)]
        for folder in [*reversed(path.parents), path]:
            if folder.is_relative_to(closed) and folder not in made:
                if folder != closed:  # the folders on the way open to all, as elsewhere
                    command += ["--perms", "0755", "--dir", str(folder)]
                made.add(folder)
        command += ["--ro-bind", str(path), str(path)]
    return [
        *command,
        "--chdir",
        str(home),
        "--die-with-parent",
        "--",
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
    ]


def runs_as(prefix: list[str], environment: dict[str, str]) -> str:
    """Why ``prefix`` cannot run this Python with nbgrader and the course ("" when it can)."""
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import jupyterhub.singleuser, nbgrader, minigrad_course"],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return "" if probe.returncode == 0 else (probe.stdout + probe.stderr)[-2000:]


# What every server reads, as /etc/jupyter/nbgrader_config.py does on a hub (docs/teachers.md).
SHARED_NBGRADER_CONFIG = """\
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.Exchange.root = {exchange!r}
# The sandbox that grades a submission hides the exchange too (it hides /srv/nbgrader, where
# the docs put it, by default).
c.GradeInIsolation.hide = {exchange!r}
"""

# One uid for every server: nbgrader takes a student's id from the OS user name, which is the
# same for all, so each student's server is told its own (docs/jupyterhub.md).
STUDENT_ID_CONFIG = """\
c = get_config()  # noqa: F821
c.CourseDirectory.student_id = {name!r}
"""


@dataclass
class User:
    """A user logged in through the hub: their API token and their server's address."""

    name: str
    token: str
    hub: Hub
    home: Path

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    @property
    def server(self) -> str:
        return f"{self.hub.url}/user/{self.name}"

    def get(self, path: str, **kwargs) -> requests.Response:
        return requests.get(self.server + path, headers=self.headers, timeout=120, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return requests.post(self.server + path, headers=self.headers, timeout=600, **kwargs)

    def put(self, path: str, **kwargs) -> requests.Response:
        return requests.put(self.server + path, headers=self.headers, timeout=120, **kwargs)

    def delete(self, path: str) -> requests.Response:
        return requests.delete(self.server + path, headers=self.headers, timeout=60)

    def start_server(self) -> None:
        answer = requests.post(
            f"{self.hub.api}/users/{self.name}/server", headers=self.headers, timeout=60
        )
        assert answer.status_code in (201, 202), answer.text

    def wait_for_server(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            model = requests.get(
                f"{self.hub.api}/users/{self.name}", headers=self.headers, timeout=30
            ).json()
            if model.get("servers", {}).get("", {}).get("ready"):
                return
            self.hub.check_running()
            time.sleep(0.5)
        raise AssertionError(f"{self.name}'s server did not start:\n{self.hub.log()[-4000:]}")

    def terminal(self, command: str, timeout: float = 600) -> tuple[int, str]:
        """Run a shell command in a terminal of this user's own server, as they would type
        it; its exit status and what it printed."""
        return asyncio.run(_run_in_terminal(self, command, timeout))


async def _run_in_terminal(user: User, command: str, timeout: float) -> tuple[int, str]:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    created = user.post("/api/terminals")
    assert created.status_code == 200, created.text
    name = created.json()["name"]
    url = f"ws://127.0.0.1:{user.hub.port}/user/{user.name}/terminals/websocket/{name}"
    socket_ = await websocket_connect(HTTPRequest(url, headers=user.headers))
    # The status is printed after the command; the echo of the typed line shows `$?` itself,
    # so only the real status matches.
    done = re.compile(r"::exit-status::(\d+)::")
    socket_.write_message(json.dumps(["stdin", f"{command}; echo ::exit-status::$?::\r"]))
    printed = ""
    deadline = time.monotonic() + timeout
    try:
        while not done.search(printed):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{command!r} did not finish:\n{printed[-4000:]}")
            message = await asyncio.wait_for(socket_.read_message(), left)
            if message is None:
                raise AssertionError(f"the terminal closed:\n{printed[-4000:]}")
            kind, *content = json.loads(message)
            if kind == "stdout":
                printed += content[0]
    finally:
        socket_.close()
        user.delete(f"/api/terminals/{name}")
    return int(done.search(printed)[1]), printed


@dataclass
class Hub:
    """A running JupyterHub, its folder and its processes."""

    root: Path
    port: int
    process: subprocess.Popen
    marker: str
    own_uids: dict[str, int] = field(default_factory=dict)  # empty: all share one uid
    why_one_uid: str = ""
    users: dict[str, User] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api(self) -> str:
        return f"{self.url}/hub/api"

    @property
    def exchange(self) -> Path:
        return self.root / "exchange"

    def home(self, name: str) -> Path:
        return self.root / "home" / name

    def log(self) -> str:
        return (self.root / "hub" / "hub.log").read_text(errors="replace")

    def check_running(self) -> None:
        if self.process.poll() is not None:
            raise AssertionError(f"the hub stopped:\n{self.log()[-4000:]}")

    def login(self, name: str, password: str = PASSWORD) -> requests.Response:
        """Log in through the hub's REST API: a token for ``name`` in exchange for the
        password, as ``POST /hub/api/users/NAME/tokens`` with an ``auth`` body does."""
        return requests.post(
            f"{self.api}/users/{name}/tokens",
            json={"auth": {"username": name, "password": password}, "note": "class test"},
            timeout=60,
        )

    def log_in(self, name: str) -> User:
        answer = self.login(name)
        assert answer.status_code in (200, 201), answer.text
        user = User(name, answer.json()["token"], self, self.home(name))
        self.users[name] = user
        return user

    def stop(self) -> None:
        """Stop the hub (which stops the servers and the proxy), then end by id every
        process of this hub that is still there."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for attempt in range(2):
            left = marked_processes(self.marker)
            for pid in left:
                try:
                    os.kill(pid, signal.SIGTERM if attempt == 0 else signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if not left:
                break
            time.sleep(3)


def marked_processes(marker: str) -> list[int]:
    """The ids of the processes whose environment holds ``MARKER=marker``."""
    wanted = f"{MARKER}={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if wanted in environment:
            found.append(int(entry.name))
    return found


def start_hub(root: Path, teacher: str, students: list[str], course_files: dict[str, Path]) -> Hub:
    """Lay out a class under ``root`` and start its hub. ``course_files`` maps a path in the
    teacher's home to a file or folder of this repository copied there (their clone).

    Started as root, the hub runs each user's server as a uid of its own when nss_wrapper is
    installed and that uid can run this Python (``Hub.own_uids`` then holds them; otherwise
    ``Hub.why_one_uid`` says why every server runs as this process's user)."""
    proxy = proxy_program()
    assert proxy is not None, "configurable-http-proxy is missing: run make bootstrap"
    names = [teacher, *students]
    marker = secrets.token_hex(8)
    python_path = os.pathsep.join(
        filter(None, [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH")])
    )
    environment = {
        MARKER: marker,
        "JUPYTER_CONFIG_PATH": str(root / "etc" / "jupyter"),
        "PYTHONPATH": python_path,
        # nbgrader runs `alembic` and the teacher types `nbgrader`: this venv's programs.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "LANGUAGE": "en",
    }

    uids = {name: FIRST_UID + number for number, name in enumerate(names)}
    prefixes: dict[str, list[str]] = {}
    why_one_uid = ""
    library = nss_wrapper()
    if os.getuid() != 0:
        why_one_uid = "the test does not run as root, so it cannot start servers as other uids"
    elif library is None:
        why_one_uid = "nss_wrapper is not installed (apt-get install libnss-wrapper)"
    elif not (shutil.which("bwrap") and shutil.which("setpriv")):
        why_one_uid = "bubblewrap (bwrap) or setpriv is not installed"
    else:
        prefixes = {name: as_user(uid, root / "home" / name) for name, uid in uids.items()}
        why_one_uid = runs_as(as_user(uids[teacher], Path("/")), environment)
    if why_one_uid:
        uids = {}
    else:
        environment |= {
            "LD_PRELOAD": str(library),
            "NSS_WRAPPER_PASSWD": str(root / "etc" / "passwd"),
            "NSS_WRAPPER_GROUP": str(root / "etc" / "group"),
        }

    os.chmod(root, 0o711)  # users reach their homes and the exchange, and list nothing here
    for folder in ["hub", "exchange", "etc/jupyter", *(f"home/{name}" for name in names)]:
        (root / folder).mkdir(parents=True, exist_ok=True)
    os.chmod(root / "hub", 0o700)
    os.chmod(root / "exchange", 0o1777)  # every user may write, only an owner may remove
    (root / "etc" / "jupyter" / "nbgrader_config.py").write_text(
        SHARED_NBGRADER_CONFIG.format(course_id=COURSE_ID, exchange=str(root / "exchange"))
    )
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\n"
        + "".join(f"{n}:x:{u}:{u}:{n}:{root / 'home' / n}:/bin/bash\n" for n, u in uids.items())
    )
    (root / "etc" / "group").write_text(
        "root:x:0:\n" + "".join(f"{n}:x:{u}:\n" for n, u in uids.items())
    )
    if not uids:
        for name in students:
            config = root / "home" / name / ".jupyter" / "nbgrader_config.py"
            config.parent.mkdir(parents=True)
            config.write_text(STUDENT_ID_CONFIG.format(name=name))
    for inside, source in course_files.items():
        target = root / "home" / teacher / inside
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
    for name, uid in uids.items():  # each home its user's alone
        home = root / "home" / name
        for folder, subfolders, files in os.walk(home):
            for entry in [folder, *(os.path.join(folder, f) for f in subfolders + files)]:
                os.chown(entry, uid, uid)
        os.chmod(home, 0o700)

    port = free_port()
    server_args = ["--ServerApp.allow_root=True"] if os.getuid() == 0 and not uids else []
    config = root / "hub" / "jupyterhub_config.py"
    config.write_text(
        HUB_CONFIG.format(
            port=port,
            hub_port=free_port(),
            proxy_api_port=free_port(),
            proxy=proxy,
            root=root,
            password=PASSWORD,
            users=set(names),
            python=sys.executable,
            server_args=server_args,
            environment=environment,
            own_uids=OWN_UIDS.format(as_user=prefixes) if uids else "",
        )
    )
    log = open(root / "hub" / "hub.log", "wb")  # noqa: SIM115 - the hub writes it until stop
    hub_environment = {k: v for k, v in environment.items() if not k.startswith(("LD_", "NSS"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(config)],
        cwd=root / "hub",
        env={**os.environ, **hub_environment},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    hub = Hub(root, port, process, marker, own_uids=uids, why_one_uid=why_one_uid)
    deadline = time.monotonic() + 120
    try:
        while True:
            hub.check_running()
            try:
                if requests.get(f"{hub.api}/", timeout=5).status_code == 200:
                    return hub
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the hub did not answer:\n{hub.log()[-4000:]}")
            time.sleep(0.5)
    except BaseException:
        hub.stop()  # the proxy may have started before the hub failed
        raise


def class_folder() -> Path:
    """A fresh folder for the class, outside pytest's private temporary folder."""
    return Path(tempfile.mkdtemp(prefix="minigrad-hub-"))
