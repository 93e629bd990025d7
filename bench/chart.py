"""Draw ``docs/images/performance.png`` from ``bench/results.json`` (written by run.py).

Each bar is a library's time divided by minigrad's on the same workload, in one run:
above 1 minigrad is faster. The axis is logarithmic, as the ratios span five decades.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PEERS = ("torch", "micrograd", "mygrad", "autograd", "limit")
COLOURS = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#999999")  # Okabe-Ito


def main() -> None:
    results = json.loads((ROOT / "bench" / "results.json").read_text())
    cases = [c for c in results["cases"] if c["workload"] != "W5"]
    labels = [f"{c['workload']}\n{c['name']}" for c in cases]
    figure, axes = plt.subplots(figsize=(11, 5))
    width = 0.16
    x = np.arange(len(cases))
    for k, (peer, colour) in enumerate(zip(PEERS, COLOURS)):
        ratios = [
            c["medians"][peer] / c["medians"]["minigrad"] if c["medians"].get(peer) else np.nan
            for c in cases
        ]
        axes.bar(x + (k - 2) * width, ratios, width, label=peer, color=colour)
    axes.axhline(1.0, color="black", linewidth=1)
    axes.set_yscale("log")
    axes.set_xticks(x, labels, fontsize=8)
    axes.set_ylabel("time / minigrad's time  (above 1: minigrad is faster)")
    axes.set_title("minigrad beside its peers (medians of one run; missing bar = not run)")
    axes.legend(ncol=5, fontsize=8, loc="upper right")
    figure.tight_layout()
    out = ROOT / "docs" / "images" / "performance.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
