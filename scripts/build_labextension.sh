#!/usr/bin/env bash
# Build the course's JupyterLab extension (widgets/labextension/): a saved lesson's drawings
# come back, or show their stored picture (see widgets/labextension/src/index.js).
#
# The built extension is committed (widgets/labextension/minigrad-widget-restore/, some
# kilobytes of JavaScript), so that `make lab`, the Binder image and `make test` install it
# by copying a folder (scripts/jupyter_settings.py), with no Node.js on a student's machine.
# This script is how it is rebuilt after a change of its sources, by `make labextension`:
#
#   scripts/build_labextension.sh          write src/words.json from the widgets' catalogs
#                                           (scripts/labextension_words.py), rebuild, and write
#                                           widgets/labextension/build.json (the SHA-256 of the
#                                           sources and of each built file)
#   scripts/build_labextension.sh --check  exit 1 unless the committed build is what this
#                                           script builds now
#
# Needs npm (the npm registry) and the venv's JupyterLab, whose package metadata
# (jupyterlab/staging/package.json) @jupyterlab/builder reads to know which packages the
# lab shares. Nothing is installed globally: npm installs @jupyterlab/builder, at the version
# package-lock.json pins, into build/labextension/, where the build runs. The output is the
# same on every run (webpack's production ids and file names are hashes of the content);
# tests/widgets/test_labextension.py checks build.json against the sources.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${VENV:-.venv}"
SOURCE=widgets/labextension
NAME=minigrad-widget-restore
WORK=build/labextension

command -v npm >/dev/null || {
    echo "build_labextension: npm is needed (sudo apt-get install npm, or install Node.js)" >&2
    exit 1
}
core="$("$VENV/bin/python" -c 'import jupyterlab, pathlib; print(pathlib.Path(jupyterlab.__file__).parent / "staging")')"

# The extension's words, from the widgets' catalogs (src/words.json; see src/words.js).
if [[ "${1:-}" == --check ]]; then
    "$VENV/bin/python" scripts/labextension_words.py --check
else
    "$VENV/bin/python" scripts/labextension_words.py
fi

rm -rf "$WORK/src" "$WORK/$NAME"
mkdir -p "$WORK"
cp "$SOURCE/package.json" "$SOURCE/package-lock.json" "$WORK/"
cp -r "$SOURCE/src" "$WORK/src"
(cd "$WORK" && npm ci --silent --no-audit --no-fund --ignore-scripts)
(cd "$WORK" && node node_modules/@jupyterlab/builder/lib/build-labextension.js --core-path "$core" .) \
    >"$WORK/build.log" 2>&1 || {
    cat "$WORK/build.log" >&2
    exit 1
}

"$VENV/bin/python" - "$SOURCE" "$WORK/$NAME" "$WORK/build.json" <<'PY'
import sys
from pathlib import Path

sys.path.insert(0, "scripts")
from jupyter_settings import labextension_record

source, built, record = map(Path, sys.argv[1:])
record.write_text(labextension_record(source, built))
PY

if [[ "${1:-}" == --check ]]; then
    if diff -r "$WORK/$NAME" "$SOURCE/$NAME" >/dev/null && cmp -s "$WORK/build.json" "$SOURCE/build.json"; then
        echo "build_labextension: $SOURCE/$NAME is what its sources build"
        exit 0
    fi
    echo "build_labextension: $SOURCE/$NAME is not what its sources build: run make labextension" >&2
    exit 1
fi
rm -rf "${SOURCE:?}/$NAME"
cp -r "$WORK/$NAME" "$SOURCE/$NAME"
cp "$WORK/build.json" "$SOURCE/build.json"
echo "build_labextension: $SOURCE/$NAME ($(du -sk "$SOURCE/$NAME" | cut -f1) KB)"
