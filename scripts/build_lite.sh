#!/usr/bin/env bash
# Build a JupyterLite site of the course into build/lite: the lessons, and a Python kernel
# that runs in the browser (Pyodide) with this project's wheel ready to install.
#
#   bash scripts/build_lite.sh            (or `make lite`)
#   then serve it: .venv/bin/python -m http.server -d build/lite 8000
#
# What goes in:
#   - the wheel of this project (minigrad-classroom: `minigrad` and `widgets`, with the
#     Graphviz that the drawings run in the browser), built here;
#   - the pure-Python wheels it needs that Pyodide does not ship (graphviz, ipywidgets,
#     anywidget and theirs), downloaded from PyPI; numpy and matplotlib come with Pyodide;
#   - the JupyterLab extensions installed in the venv (ipywidgets', anywidget's);
#   - the lessons, notebooks/[0-9][0-9]_*.ipynb, and notebooks/README.md; not the exercise
#     sets, which need nbgrader and so a server (docs/jupyterlite.md says so).
# In a notebook of the site, `%pip install minigrad-classroom` installs from the wheels
# above. What does not work yet: see docs/jupyterlite.md (Pyodide itself, and numpy, are
# fetched from Pyodide's CDN when the kernel starts, so the site needs the internet).
#
# JupyterLite's build tools live in a venv of their own (LITE_VENV, build/lite-venv, made
# here): their JupyterLab extension (the in-browser kernel) is for JupyterLite only and
# would otherwise be loaded by the JupyterLab of `make lab` too.
#
# Environment: VENV (.venv, builds the wheel), LITE_VENV, OUT (build/lite). Needs PyPI.
# Safe to re-run: the tools are installed once, the site is rebuilt from scratch.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="$(cd "${VENV:-.venv}" && pwd)"
OUT="${OUT:-build/lite}"
[[ "$OUT" == /* ]] || OUT="$(pwd)/$OUT"
LITE_VENV="${LITE_VENV:-build/lite-venv}"
# The build tools, and the JupyterLab extensions the site must carry (ipywidgets',
# anywidget's), in the versions this project uses.
LITE_TOOLS=(
    "jupyterlite-core>=0.8,<0.9"
    "jupyterlite-pyodide-kernel>=0.8,<0.9"
    "jupyter-server>=2"
    "ipywidgets>=8.1,<9"
    "anywidget>=0.11,<0.12"
)
stamp="$LITE_VENV/.tools"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "${LITE_TOOLS[*]}" ]]; then
    echo "build_lite: JupyterLite's build tools into $LITE_VENV"
    "$VENV/bin/python" -m venv --clear "$LITE_VENV"
    "$LITE_VENV/bin/python" -m pip install --quiet "${LITE_TOOLS[@]}"
    echo "${LITE_TOOLS[*]}" >"$stamp"
fi
LITE_VENV="$(cd "$LITE_VENV" && pwd)"
# The dependencies to ship as wheels: what `pip install minigrad-classroom` needs beyond
# numpy and matplotlib, which Pyodide provides compiled for WebAssembly.
# pylopdf-fonts-zh-cn: the plots' Chinese font, a data-only wheel (17 MB).
PURE_WHEELS=(graphviz "ipywidgets>=8.1" "anywidget>=0.11,<0.12" psygnal typing_extensions
    "pylopdf-fonts-zh-cn==0.1.1")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/wheels" "$work/contents"

echo "build_lite: the wheel of this project"
"$VENV/bin/python" -m pip wheel --quiet --no-deps . -w "$work/wheels"
echo "build_lite: pure-Python wheels from PyPI: ${PURE_WHEELS[*]}"
# --platform any: the pure-Python build of each (psygnal also has compiled ones).
"$VENV/bin/python" -m pip download --quiet --no-deps --only-binary=:all: --platform any \
    --python-version 3.12 --implementation py --dest "$work/wheels" "${PURE_WHEELS[@]}"

cp notebooks/[0-9][0-9]_*.ipynb notebooks/README.md "$work/contents/"

rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
# Run from the work folder: the build keeps its state file in the current folder.
(cd "$work" && "$LITE_VENV/bin/jupyter" lite build --contents contents \
    --piplite-wheels wheels --output-dir "$OUT") >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    exit 1
}
echo "build_lite: the site is in $OUT ($(du -sh "$OUT" | cut -f1)); serve it with"
echo "    $VENV/bin/python -m http.server -d $OUT 8000"
