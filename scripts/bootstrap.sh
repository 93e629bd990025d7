#!/usr/bin/env bash
# Bring a machine up to what `make lab` and `make test` need. Safe to re-run: every
# step checks first and does nothing when it is already done.
#
#   1. a virtual environment in .venv (python3 -m venv);
#   2. minigrad installed into it in editable mode with its extras, redone only when
#      pyproject.toml changed since the last install: `bootstrap.sh lab` (make lab) the
#      student's set [lab], otherwise (make test, make docs) [lab,dev,course];
#   3. (nothing for the drawings: Graphviz runs in the browser, shipped in the package;
#      Graphviz's `dot` program is optional, used only to save a drawing as a file; the
#      full suite installs it, for the tests of what a student who has it sees);
#   4. Chromium for the browser tests, only when asked for;
#   5. Jupyter settings (scripts/jupyter_settings.py): widget state saved, Markdown opens as
#      its preview, no news toast, pinned script versions for "Export as HTML", and the
#      course's JupyterLab extension (widgets/labextension/, copied: no Node.js needed);
#   6. the ipywidgets JavaScript (npm registry) for pages stepped with no kernel;
#   7. with the course extra, configurable-http-proxy (npm registry) into the venv, for the
#      test of a class on a JupyterHub (and, as root, nss_wrapper from apt, with bubblewrap).
#
# Environment:
#   MINIGRAD_REQUIRE_ALL=1  everything the full suite needs: extras lab,dev,oracle,course
#                           (PyTorch, nbgrader),
#                           Chromium, and missing system tools are errors (.ci/run sets it)
#   MINIGRAD_BROWSER=1      also install Chromium
#   MINIGRAD_EXTRAS=...     override the extras (default: lab; lab,dev,course; lab,dev,oracle,course)
#   VENV, PYTHON            where the venv lives (.venv) and the Python that makes it (python3)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
REQUIRE_ALL="${MINIGRAD_REQUIRE_ALL:-0}"
BROWSER="${MINIGRAD_BROWSER:-0}"
# `bootstrap.sh lab` (make lab): a student's environment, JupyterLab and the lessons' needs
# only. Without it (make test, make docs): the same venv with the developer's and teacher's
# tools added (a superset, so `make lab` afterwards finds everything it needs).
if [[ "${1:-}" == lab ]]; then
    EXTRAS="${MINIGRAD_EXTRAS:-lab}"
elif [[ "$REQUIRE_ALL" == 1 ]]; then
    EXTRAS="${MINIGRAD_EXTRAS:-lab,dev,oracle,course}"
    BROWSER=1
else
    EXTRAS="${MINIGRAD_EXTRAS:-lab,dev,course}"
fi

say() { echo "bootstrap: $*"; }
nss_wrapper_installed() { compgen -G "/usr/lib*/libnss_wrapper.so" || compgen -G "/usr/lib/*/libnss_wrapper.so"; } >/dev/null
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
# The student's set is part of every other: after `make test`, `make lab` installs nothing.
if [[ "$EXTRAS" == lab ]]; then
    for installed in "$VENV"/.minigrad-installed-lab-*; do
        [[ -e "$installed" && ! pyproject.toml -nt "$installed" ]] && stamp="$installed"
    done
fi
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

# --- 4. system packages: Chromium for the browser tests, when asked; bubblewrap, the
# sandbox that grading runs each submission in, for the course's tests ------------------
apt_packages=()
if [[ "$BROWSER" == 1 && ! -x /usr/bin/chromium ]]; then
    apt_packages+=(chromium chromium-driver)
fi
# The Chinese lessons in the browser tests need a font with Han characters (a student's
# desktop has one; a bare server may not).
if [[ "$BROWSER" == 1 ]] && ! { command -v fc-list >/dev/null && [[ -n "$(fc-list :lang=zh)" ]]; }; then
    apt_packages+=(fonts-noto-cjk)
fi
if [[ "$EXTRAS" == *course* ]] && ! command -v bwrap >/dev/null; then
    apt_packages+=(bubblewrap)
fi
# A few tests compare with what a student who has Graphviz installed sees (tests/conftest.py,
# real_dot); the full suite needs its `dot`, which .ci/run then hides from the drawings.
if [[ "$REQUIRE_ALL" == 1 ]] && ! PATH="$PATH:/usr/bin:/usr/local/bin" command -v dot >/dev/null; then
    apt_packages+=(graphviz)
fi
# The test of a class on a JupyterHub runs each user's server as a uid of its own that no
# system user holds; nss_wrapper gives those uids their names (tests/course/hub_class.py).
if [[ "$EXTRAS" == *course* && "$(id -u)" == 0 ]] && ! nss_wrapper_installed; then
    apt_packages+=(libnss-wrapper)
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

if [[ "$EXTRAS" == *course* ]] && ! command -v bwrap >/dev/null; then
    msg="bubblewrap (bwrap) is not installed: autograde grades without a sandbox and the
    isolation tests skip (fail under MINIGRAD_REQUIRE_ALL=1).
    Install it with: sudo apt-get install bubblewrap"
    [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
    warn "$msg"
fi

if [[ "$EXTRAS" == *course* && "$(id -u)" == 0 ]] && ! nss_wrapper_installed; then
    msg="nss_wrapper (libnss-wrapper) is not installed: the JupyterHub test runs every user's
    server as one user and skips its isolation test (fails under MINIGRAD_REQUIRE_ALL=1).
    Install it with: apt-get install libnss-wrapper"
    [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
    warn "$msg"
fi

if [[ "$REQUIRE_ALL" == 1 ]] && ! PATH="$PATH:/usr/bin:/usr/local/bin" command -v dot >/dev/null; then
    die "Graphviz's dot is not installed: the tests of a student's own Graphviz skip.
    Install it with: sudo apt-get install graphviz"
fi

if [[ "$BROWSER" == 1 && ! -x /usr/bin/chromium ]]; then
    msg="Chromium is not installed: the browser tests skip (fail under MINIGRAD_REQUIRE_ALL=1).
    Install it with: sudo apt-get install chromium chromium-driver"
    [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
    warn "$msg"
fi

# --- 5. Jupyter settings: widget state saved with the notebook, Markdown opens as its -----
# preview (the landing page's links open the lessons), no news toast, pinned script versions
# for JupyterLab's "Export as HTML", and the course's JupyterLab extension that brings back
# drawings the widget manager loses (copied into $VENV/share/jupyter/labextensions).
# scripts/jupyter_settings.py says what and why; it merges into what the files already hold.
# binder/postBuild runs the same script.
"$VENV/bin/python" scripts/jupyter_settings.py "$VENV"

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

# --- 7. configurable-http-proxy, the proxy in front of a JupyterHub, for the course's test of
# a class on a hub (tests/course/test_class_on_a_hub.py). From the npm registry into the venv,
# never globally, and only when no such program is found; linked into the venv's bin/, where
# the test looks first.
CHP_VERSION=5
chp_folder="$VENV/share/configurable-http-proxy"
if [[ "$EXTRAS" == *course* && ! -x "$VENV/bin/configurable-http-proxy" ]] &&
    ! command -v configurable-http-proxy >/dev/null; then
    if command -v npm >/dev/null &&
        say "npm install configurable-http-proxy@$CHP_VERSION into $chp_folder" &&
        npm install --silent --no-audit --no-fund --prefix "$chp_folder" \
            "configurable-http-proxy@$CHP_VERSION" >/dev/null; then
        ln -sf "../share/configurable-http-proxy/node_modules/.bin/configurable-http-proxy" \
            "$VENV/bin/configurable-http-proxy"
    else
        msg="could not install configurable-http-proxy (npm, the npm registry): the JupyterHub
    test skips (fails under MINIGRAD_REQUIRE_ALL=1). Install Node.js and npm, then re-run."
        [[ "$REQUIRE_ALL" == 1 ]] && die "$msg"
        warn "$msg"
    fi
fi
