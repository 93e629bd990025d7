#!/usr/bin/env bash
# Build widgets/static/viz.js.gz: Graphviz compiled to WebAssembly, for drawing in the browser.
#
# The drawings (widgets.draw, the stepper) are laid out by Graphviz in the browser, not by a
# `dot` program on the kernel's machine. The Graphviz they use is @viz-js/viz from the npm
# registry: its dist/viz.js is one ES module with the WebAssembly inlined. This script takes
# that file as it is, gzips it (the widget state of a notebook carries it, base64-encoded,
# once per notebook) and writes beside it the version and the file's SHA-256, which
# widgets/_browser.py reads and tests/widgets/test_browser_bundle.py checks.
#
# Usage: scripts/build_graphviz_bundle.sh          rebuild widgets/static/viz.js.gz
#        scripts/build_graphviz_bundle.sh --check  exit 1 unless the committed file is what
#                                                  this script builds now
# Needs npm. The output is the same on every run (gzip -n stores no name or time).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VIZ_VERSION=3.31.0
STATIC=widgets/static

command -v npm >/dev/null || {
    echo "build_graphviz_bundle: npm is needed (sudo apt-get install npm, or install Node.js)" >&2
    exit 1
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --silent --pack-destination "$work" "@viz-js/viz@$VIZ_VERSION" >/dev/null
tar -xzf "$work/viz-js-viz-$VIZ_VERSION.tgz" -C "$work"

gzip -9 -n -c "$work/package/dist/viz.js" >"$work/viz.js.gz"
sha="$(sha256sum "$work/package/dist/viz.js" | cut -d' ' -f1)"
printf '{"package": "@viz-js/viz", "version": "%s", "sha256": "%s"}\n' "$VIZ_VERSION" "$sha" \
    >"$work/viz.json"

if [[ "${1:-}" == --check ]]; then
    cmp -s "$work/viz.json" "$STATIC/viz.json" && cmp -s "$work/viz.js.gz" "$STATIC/viz.js.gz" || {
        echo "build_graphviz_bundle: $STATIC/viz.js.gz is not what the script builds: rerun it" >&2
        exit 1
    }
    echo "build_graphviz_bundle: $STATIC/viz.js.gz is @viz-js/viz $VIZ_VERSION"
    exit 0
fi
cp "$work/viz.js.gz" "$work/viz.json" "$STATIC/"
echo "build_graphviz_bundle: $STATIC/viz.js.gz from @viz-js/viz $VIZ_VERSION ($(wc -c <"$STATIC/viz.js.gz") bytes)"
