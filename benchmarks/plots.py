"""Draw the benchmark plots (PNG) from the JSON results ``run.py`` wrote.

Usage: ``python benchmarks/plots.py [--results DIR] [--out DIR]``; by default it reads the
results from ``run.py``'s default directory and writes to ``docs/_static/benchmarks``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import DEFAULT_OUT, ROOT  # noqa: E402


def _load(directory: str, name: str) -> Dict[str, Any]:
    with open(os.path.join(directory, name + ".json")) as f:
        return dict(json.load(f))


def per_call(results: Dict[str, Any], out: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = results["calls"]
    names = list(rows)
    theirs = [rows[n]["pyflink"] for n in names]
    ours = [rows[n]["pyflink_compat"] for n in names]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(names) + 1.5))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], theirs, height=0.4, label="PyFlink 1.20.5")
    ax.barh([y - 0.2 for y in ys], ours, height=0.4, label="pyflink_compat")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("time per call, microseconds (median over rounds of the fastest loop; log scale)")
    ax.set_title("Per-call cost of the configuration API")
    ax.legend(loc="lower right")
    fig.tight_layout()
    path = os.path.join(out, "per_call.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def state_bytes(results: Dict[str, Any], out: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for backend in ("hashmap", "rocksdb"):
        for side, style in (("compat", "-o"), ("plain", "--x")):
            points = []
            for label, rows in results["state"].items():
                kind, keys = label.split()[0], int(label.split()[1])
                if kind == backend:
                    points.append((keys, rows["state_bytes_per_checkpoint"][side]))
            points.sort()
            ax.plot([p[0] for p in points], [p[1] for p in points], style,
                    label="{} ({})".format(backend, "pyflink_compat" if side == "compat"
                                           else "native Spark conf"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("keys in state (1% updated per batch)")
    ax.set_ylabel("state bytes written per checkpoint")
    ax.set_title("Bytes per checkpoint against keys")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "state_bytes.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=DEFAULT_OUT)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "_static", "benchmarks"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if os.path.exists(os.path.join(args.results, "calls.json")):
        print(per_call(_load(args.results, "calls"), args.out))
    for name in ("state", "jobs"):  # a state-only run wins over the state part of a jobs run
        if os.path.exists(os.path.join(args.results, name + ".json")):
            print(state_bytes(_load(args.results, name), args.out))
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
