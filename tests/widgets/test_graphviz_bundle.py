"""The Graphviz the browser runs: the shipped bundle is @viz-js/viz as the npm registry has it,
and the front end that loads it is in the package."""

import gzip
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import widgets
from widgets._browser import STATIC, GraphvizView, bundle_info

ROOT = Path(__file__).resolve().parents[2]


def test_bundle_is_the_recorded_viz_js_release():
    info = json.loads((STATIC / "viz.json").read_text())
    assert info == bundle_info() and info["package"] == "@viz-js/viz"
    module = gzip.decompress((STATIC / "viz.js.gz").read_bytes())
    assert hashlib.sha256(module).hexdigest() == info["sha256"]
    text = module.decode("utf-8")
    assert text.startswith(f"/*!\nViz.js {info['version']}")
    # One ES module (the WebAssembly is inlined in it), exporting instance().
    assert "export {" in text and "instance" in text.rsplit("export {", 1)[1]


def test_front_end_loads_graphviz_from_the_engine_and_adds_the_stepper_texts():
    source = GraphvizView._esm
    assert source == (STATIC / "graphviz_view.js").read_text()
    assert "export default { render }" in source
    assert "DecompressionStream" in source and "renderString" in source
    assert Path(widgets.__file__).parent / "static" == STATIC


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_build_script_rebuilds_the_committed_bundle():
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build_graphviz_bundle.sh"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
