"""Draw ``docs/images/performance.png`` from ``bench/results.json`` (written by run.py).

Left: each bar is a library's time divided by minigrad's on the same workload, in one run;
above 1 minigrad is faster. The axis is logarithmic, as the ratios span five decades. A
missing bar is a library that was not run there (or failed: micrograd's RecursionError).
Right: W5, the stepper in Python and the drawing in Chromium (Graphviz in WebAssembly: the
first render of a page, a later render, one step) beside one plain ``dot -Tsvg``.

    python bench/chart.py
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PEERS = ("torch", "micrograd", "mygrad", "autograd", "limit")
COLOURS = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#999999")  # Okabe-Ito
# W5: Python's share (the stepper), the browser's (Graphviz in WebAssembly: the first render
# of a page, a later render, one step), and one native `dot -Tsvg` for scale.
W5_PARTS = (
    ("stepper", "#d55e00"),
    ("first render", "#0072b2"),
    ("render", "#56b4e9"),
    ("step", "#009e73"),
    ("dot", "#999999"),
)


def main() -> None:
    results = json.loads((ROOT / "bench" / "results.json").read_text())
    cases = [c for c in results["cases"] if c["workload"] != "W5"]
    drawings = [c for c in results["cases"] if c["workload"] == "W5"]
    figure, (axes, w5_axes) = plt.subplots(
        1, 2, figsize=(13, 5.5), gridspec_kw={"width_ratios": [4, 1]}
    )

    width = 0.16
    x = np.arange(len(cases))
    for k, (peer, colour) in enumerate(zip(PEERS, COLOURS, strict=True)):
        ratios = [
            c["medians"][peer] / c["medians"]["minigrad"] if c["medians"].get(peer) else np.nan
            for c in cases
        ]
        axes.bar(x + (k - 2) * width, ratios, width, label=peer, color=colour)
    axes.axhline(1.0, color="black", linewidth=1)
    axes.set_yscale("log")
    labels = [f"{c['workload']}\n{textwrap.fill(c['name'], 13)}" for c in cases]
    axes.set_xticks(x, labels, fontsize=7)
    axes.set_ylabel("time / minigrad's time  (above 1: minigrad is faster)")
    axes.set_title(f"minigrad beside its peers: medians of one run, {results['date']}")
    axes.legend(ncol=5, fontsize=8, loc="upper right")

    x = np.arange(len(drawings))
    for k, (part, colour) in enumerate(W5_PARTS):
        times = [c["medians"].get(part, np.nan) for c in drawings]  # ms already
        w5_axes.bar(x + (k - 2) * 0.16, times, 0.16, label=part, color=colour)
    w5_axes.set_yscale("log")
    w5_axes.set_xticks(x, [c["name"].removeprefix("graph of ") for c in drawings], fontsize=8)
    w5_axes.set_ylabel("ms")
    w5_axes.set_title("W5 drawing (Chromium)")
    w5_axes.legend(fontsize=8, loc="upper left")

    figure.tight_layout()
    out = ROOT / "docs" / "images" / "performance.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
