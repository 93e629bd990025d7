#!/usr/bin/env bash
# Fetch the JavaScript that renders ipywidgets in a static HTML page, for offline use.
#
# `jupyter nbconvert --to html` pages load require.js and @jupyter-widgets/html-manager
# from CDNs by default; offline (tests, CI, a docs build behind a firewall) they fail and
# no widget shows. This script puts local copies, from the npm registry, in DEST:
#
#   DEST/require.js
#   DEST/html-manager/dist/embed-amd.js    (and its icon fonts beside it)
#   DEST/anywidget.js                      (the front end of the drawings' widgets, copied
#                                           from the anywidget package installed in VENV)
#
# and nbconvert is then pointed at them:
#
#   jupyter nbconvert --to html NOTEBOOK.ipynb \
#       --HTMLExporter.require_js_url=file://DEST/require.js \
#       --HTMLExporter.widget_renderer_url=file://DEST/html-manager/dist/embed-amd.js
#
# with anywidget.js copied beside the page (require.js looks for the module `anywidget`
# there; the docs site maps it to its _static folder instead).
#
# Usage: scripts/fetch_widget_js.sh [DEST]   (default: .venv/share/minigrad-js)
# Safe to re-run: nothing is fetched when DEST already holds these versions. Needs npm.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Exact versions, so every machine renders the same. html-manager 1.x is the one for
# ipywidgets 8.
HTML_MANAGER_VERSION=1.0.15
REQUIREJS_VERSION=2.3.8

VENV="${VENV:-.venv}"
DEST="${1:-$VENV/share/minigrad-js}"
stamp="$DEST/.versions"
# anywidget's front end comes with its Python package (a dependency of this project).
anywidget_js="$("$VENV/bin/python" -c 'import anywidget, pathlib
print(pathlib.Path(anywidget.__file__).parent / "nbextension" / "index.js")')"
anywidget_version="$("$VENV/bin/python" -c 'import anywidget; print(anywidget.__version__)')"
wanted="html-manager $HTML_MANAGER_VERSION, requirejs $REQUIREJS_VERSION, anywidget $anywidget_version"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    exit 0
fi
command -v npm >/dev/null || {
    echo "fetch_widget_js: npm is needed (sudo apt-get install npm, or install Node.js)" >&2
    exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetch_widget_js: npm pack @jupyter-widgets/html-manager@$HTML_MANAGER_VERSION requirejs@$REQUIREJS_VERSION"
npm pack --silent --pack-destination "$work" \
    "@jupyter-widgets/html-manager@$HTML_MANAGER_VERSION" "requirejs@$REQUIREJS_VERSION" >/dev/null

mkdir -p "$work/html-manager" "$work/requirejs"
tar -xzf "$work/jupyter-widgets-html-manager-$HTML_MANAGER_VERSION.tgz" -C "$work/html-manager"
tar -xzf "$work/requirejs-$REQUIREJS_VERSION.tgz" -C "$work/requirejs"

rm -rf "$DEST"
mkdir -p "$DEST/html-manager"
cp "$work/requirejs/package/require.js" "$DEST/require.js"
cp -r "$work/html-manager/package/dist" "$DEST/html-manager/dist"
cp "$anywidget_js" "$DEST/anywidget.js"
echo "$wanted" >"$stamp"
echo "fetch_widget_js: $wanted in $DEST"
