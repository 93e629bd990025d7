#!/usr/bin/env bash
# Bring a machine up to what `make lab` and `make test` need. Safe to re-run: every
# step checks first and does nothing when it is already done.
#
#   1. a virtual environment in .venv (python3 -m venv);
#   2. minigrad installed into it in editable mode with its extras, redone only when
#      pyproject.toml changed since the last install;
#   3. (nothing for the drawings: Graphviz runs in the browser, shipped in the package;
#      Graphviz's `dot` program is optional, used only to save a drawing as a file);
#   4. Chromium for the browser tests, only when asked for;
#   5. JupyterLab settings overrides: no news/update toast, Markdown opens as its preview;
#   6. the ipywidgets JavaScript (npm registry) for pages stepped with no kernel.
#
# Environment:
#   MINIGRAD_REQUIRE_ALL=1  everything the full suite needs: extras dev,oracle,course (PyTorch,
#                           nbgrader),
#                           Chromium, and missing system tools are errors (.ci/run sets it)
#   MINIGRAD_BROWSER=1      also install Chromium
#   MINIGRAD_EXTRAS=...     override the extras (default: dev,course, or dev,oracle,course)
#   VENV, PYTHON            where the venv lives (.venv) and the Python that makes it (python3)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
REQUIRE_ALL="${MINIGRAD_REQUIRE_ALL:-0}"
BROWSER="${MINIGRAD_BROWSER:-0}"
if [[ "$REQUIRE_ALL" == 1 ]]; then
    EXTRAS="${MINIGRAD_EXTRAS:-dev,oracle,course}"
    BROWSER=1
else
    EXTRAS="${MINIGRAD_EXTRAS:-dev,course}"
fi

say() { echo "bootstrap: $*"; }
warn() { echo "bootstrap: WARNING: $*" >&2; }
die() {
    echo "bootstrap: ERROR: $*" >&2
    exit 1
}

# --- 1. virtual environment ------------------------------------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "$PYTHON is $("$PYTHON" --version 2>&1); minigrad needs Python 3.11 or newer (set PYTHON=...)"
    say "creating $VENV with $("$PYTHON" --version 2>&1)"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi

# --- 2. editable install, only when pyproject.toml is newer than the last install -------
# One stamp per set of extras, so switching to MINIGRAD_REQUIRE_ALL=1 installs torch once.
stamp="$VENV/.minigrad-installed-${EXTRAS//,/-}"
if [[ pyproject.toml -nt "$stamp" ]]; then
    # The distribution was called `minigrad` before it became `minigrad-classroom` (that
    # name is another project's on PyPI): an older venv has both, so remove the old one.
    if "$VENV/bin/python" -m pip show --quiet minigrad >/dev/null 2>&1; then
        "$VENV/bin/python" -m pip uninstall --quiet --yes minigrad
    fi
    say "pip install -e '.[$EXTRAS]' (first time takes a minute)"
    "$VENV/bin/python" -m pip install --quiet -e ".[$EXTRAS]"
    touch "$stamp"
fi

# --- 4. system packages: Chromium for the browser tests, when asked -------------------
apt_packages=()
if [[ "$BROWSER" == 1 && ! -x /usr/bin/chromium ]]; then
    apt_packages+=(chromium chromium-driver)
fi

if ((${#apt_packages[@]})); then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        # One `apt-get update` serves every package. A failure here is reported below.
        say "apt-get install ${apt_packages[*]}"
        { apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null; } ||
            warn "apt-get failed (see above)"
    fi
fi

if [[ "$BROWSER" == 1 && ! -x /usr/bin/chromium ]]; then
    msg="Chromium is not installed: the browser tests skip (fail under MINIGRAD_REQUIRE_ALL=1).
    Install it with: sudo apt-get install chromium chromium-driver"
    [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
    warn "$msg"
fi

# --- 5. JupyterLab settings: no news or update-check toast; Markdown opens as its preview --
# `make lab` lands on notebooks/README.md, whose links open the lessons only in the preview
# (the editor would show the Markdown source). Merged into what overrides.json already holds.
settings="$VENV/share/jupyter/lab/settings"
mkdir -p "$settings"
"$VENV/bin/python" - "$settings/overrides.json" <<'PY'
import json
import sys
from pathlib import Path

path = Path(sys.argv[1])
ours = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}},
}
try:
    settings = json.loads(path.read_text())
except (FileNotFoundError, ValueError):
    settings = {}
if not isinstance(settings, dict):
    settings = {}
for plugin, values in ours.items():
    current = settings.get(plugin)
    settings[plugin] = {**current, **values} if isinstance(current, dict) else values
path.write_text(json.dumps(settings, indent=2) + "\n")
PY

# --- 6. the ipywidgets JavaScript, for pages that step through frames with no kernel ----
# (exported lessons, the docs site, the static-HTML browser test). Fetched once from the
# npm registry into the venv; a version stamp makes later runs do nothing.
if command -v npm >/dev/null; then
    VENV="$VENV" bash scripts/fetch_widget_js.sh "$VENV/share/minigrad-js" ||
        warn "could not fetch the widget JavaScript from the npm registry"
else
    msg="npm is not installed: exported lessons cannot embed the widget JavaScript.
    Install Node.js (sudo apt-get install npm, brew install node)."
    [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
    warn "$msg"
fi
