#!/usr/bin/env bash
# Fetch MathJax for the documentation site, so that its formulas render offline.
#
# Sphinx loads MathJax from a CDN by default; with no network every formula of the
# lessons would show as raw TeX. This script puts a local copy, from the npm registry,
# in DEST/mathjax/ and docs/conf.py serves it from the site's _static folder:
#
#   DEST/mathjax/tex-mml-chtml.js          the combined TeX + MathML -> HTML component
#   DEST/mathjax/output/chtml/fonts/...    its web fonts, looked for beside it
#   DEST/mathjax/input/tex/extensions/...  TeX packages it loads on first use (\color, ...)
#   DEST/mathjax/ui, DEST/mathjax/a11y     the right-click menu and what it can switch on
#
# (3.5 MB of the package's 24: the other builds and the speech engine are left out.)
#
# Usage: scripts/fetch_mathjax.sh [DEST]   (default: .venv/share/minigrad-mathjax)
# Safe to re-run: nothing is fetched when DEST already holds this version. Needs npm.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# MathJax 3: one file plus fonts. (Sphinx's default, MathJax 4, keeps its fonts in
# separate packages.)
MATHJAX_VERSION=3.2.2

DEST="${1:-${VENV:-.venv}/share/minigrad-mathjax}"
stamp="$DEST/.versions"
wanted="mathjax $MATHJAX_VERSION"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    exit 0
fi
command -v npm >/dev/null || {
    echo "fetch_mathjax: npm is needed (sudo apt-get install npm, or install Node.js)" >&2
    exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetch_mathjax: npm pack mathjax@$MATHJAX_VERSION"
npm pack --silent --pack-destination "$work" "mathjax@$MATHJAX_VERSION" >/dev/null
tar -xzf "$work/mathjax-$MATHJAX_VERSION.tgz" -C "$work"

es5="$work/package/es5"
rm -rf "$DEST"
mkdir -p "$DEST/mathjax/output/chtml/fonts" "$DEST/mathjax/input/tex"
cp "$es5/tex-mml-chtml.js" "$DEST/mathjax/"
cp -r "$es5/output/chtml/fonts/woff-v2" "$DEST/mathjax/output/chtml/fonts/"
cp -r "$es5/input/tex/extensions" "$DEST/mathjax/input/tex/"
cp -r "$es5/ui" "$es5/a11y" "$DEST/mathjax/"
cp "$work/package/LICENSE" "$DEST/mathjax/"
echo "$wanted" >"$stamp"
echo "fetch_mathjax: $wanted in $DEST"
