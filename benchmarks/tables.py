"""Print the benchmark tables of ``docs/benchmarks.rst`` (reST list-tables) from the JSON
results ``run.py`` wrote, so that the page shows exactly what a run measured.

Usage: ``python benchmarks/tables.py [--results DIR] calls|start|jobs|paired|supervision|recovery|state``

``jobs``, ``paired`` and ``supervision`` read ``overhead.json`` (``run.py --only overhead``) when
there is one, else the job overhead part of ``jobs.json``; ``recovery`` and ``state`` likewise
prefer ``recovery.json`` and ``state.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Mapping, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import DEFAULT_OUT  # noqa: E402


def _number(value: Any) -> str:
    if value is None or value == "":
        return ""
    value = float(value)
    if abs(value) >= 100:
        return "{:.0f}".format(value)
    if abs(value) >= 10:
        return "{:.1f}".format(value)
    if abs(value) >= 1:
        return "{:.2f}".format(value)
    return "{:.3f}".format(value)


def list_table(header: Sequence[str], rows: List[Sequence[str]]) -> str:
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [list(header)] + [list(r) for r in rows]:
        lines.append("   * - " + row[0])
        lines.extend("     - " + cell if cell else "     -" for cell in row[1:])
    return "\n".join(lines)


# Job measurements the overhead table leaves to the state table, or that a ratio misleads on.
_STATE_ONLY = ("batches", "rows", "commit_ms", "state_bytes_per_checkpoint")
_NO_RATIO = ("end_of_run_s",)


def comparison(rows: Mapping[str, Mapping[str, Any]], ours: str, theirs: str,
               first: str, labels: Sequence[str] = ()) -> str:
    """One row per measurement: the other side, this side, the ratio and the spread."""
    body = []
    for name in sorted(rows):
        row = rows[name]
        ratio = None if name.endswith(_NO_RATIO) else row.get("ratio")
        body.append([name, _number(row.get(theirs)), _number(row.get(ours)),
                     "" if ratio in (None, "") else "{:.2f}".format(float(ratio)),
                     "{:.0f}%".format(float(row["spread"]) * 100)])
    return list_table([first] + list(labels or (theirs, ours)) + ["ratio", "spread"], body)


def calls_table(results: Mapping[str, Any]) -> str:
    """Per call: PyFlink's time, this package's, the ratio, the spread and, where the run
    counted them, the py4j commands each side sends per call."""
    rows = results["calls"]
    counts = results.get("round_trips", {})
    body = []
    for name in sorted(rows):
        row = rows[name]
        count = counts.get(name)
        body.append([name, _number(row["pyflink"]), _number(row["pyflink_compat"]),
                     "{:.2f}".format(float(row["ratio"])),
                     "{:.0f}%".format(float(row["spread"]) * 100),
                     "" if count is None else "{:g} / {:g}".format(
                         float(count["pyflink"]), float(count["pyflink_compat"]))])
    return list_table(["call", "PyFlink (µs)", "pyflink_compat (µs)", "ratio", "spread",
                       "JVM commands (PyFlink / compat)"], body)


def state_table(rows: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """Per backend and size: bytes per checkpoint, memory, commit time and JVM CPU, native
    Spark configuration against pyflink_compat."""
    def pair(row: Mapping[str, Mapping[str, Any]], key: str) -> str:
        return "{:.0f} / {:.0f}".format(float(row[key]["plain"]), float(row[key]["compat"]))

    body = []
    for name in sorted(rows):
        row = rows[name]
        body.append([name, pair(row, "state_bytes_per_checkpoint"),
                     "{:.2f}".format(float(row["state_bytes_per_checkpoint"]["ratio"])),
                     pair(row, "driver_peak_rss_mb"), pair(row, "commit_ms"),
                     pair(row, "jvm_cpu_ms_per_batch")])
    return list_table(["backend, keys", "bytes per checkpoint (native / compat)", "ratio",
                       "peak driver RSS MB (native / compat)", "commit ms (native / compat)",
                       "JVM CPU ms per batch (native / compat)"], body)


def supervision_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """The supervisor's cost per committed batch: median, lowest and highest over rounds."""
    def cell(name: str, value: Any) -> str:
        return "{:.2%}".format(float(value)) if name.endswith("share") else _number(value)

    body = [[name, cell(name, row["median"]), cell(name, row["min"]), cell(name, row["max"])]
            for name, row in rows.items()]
    return list_table(["measurement (per batch)", "median", "lowest", "highest"], body)


def paired_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """Per measurement, each pipeline's median of the rounds' ratios and its 90% interval."""
    def cell(key: str) -> str:
        row = rows.get(key)
        if row is None:
            return ""
        return "{:.3f} [{:.3f}, {:.3f}]".format(row["median"], row["low"], row["high"])

    first = ("per_batch_ms", "rows_per_s", "jvm_cpu_ms_per_batch", "steady_jvm_cpu_ms_per_batch",
             "start_to_first_trigger_s", "first_batch_ms", "later_batches_s")
    names = sorted({key.split(" ", 1)[1] for key in rows},
                   key=lambda n: (first.index(n) if n in first else len(first), n))
    body = [[name, cell("stateless " + name), cell("stateful " + name)] for name in names]
    return list_table(["measurement", "stateless", "stateful"], body)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=DEFAULT_OUT)
    parser.add_argument("table", choices=("calls", "start", "jobs", "paired", "supervision",
                                          "recovery", "state"))
    args = parser.parse_args(argv)
    name = "calls" if args.table in ("calls", "start") else "jobs"
    if args.table in ("jobs", "paired", "supervision") and \
            os.path.exists(os.path.join(args.results, "overhead.json")):
        name = "overhead"  # an overhead-only run wins over the overhead part of a jobs run
    if args.table in ("state", "recovery") and \
            os.path.exists(os.path.join(args.results, args.table + ".json")):
        name = args.table  # a run of that part alone wins over the same part of a jobs run
    with open(os.path.join(args.results, name + ".json")) as f:
        results: Dict[str, Any] = json.load(f)
    if args.table == "calls":
        print(calls_table(results))
    elif args.table == "start":
        print(comparison(results["start"], "pyflink_compat", "bare pyspark", "measurement"))
    elif args.table == "jobs":
        overhead = {k: v for k, v in results["overhead"].items() if not k.endswith(_STATE_ONLY)}
        print(comparison(overhead, "compat", "plain", "measurement", ("by hand", "execute()")))
    elif args.table == "paired":
        print(paired_table(results["paired"]))
    elif args.table == "supervision":
        print(supervision_table(results["supervision"]))
    elif args.table == "recovery":
        recovery = {k: v for k, v in results["recovery"].items() if k == "first_new_batch_s"}
        print(comparison(recovery, "compat", "plain", "measurement",
                         ("plain PySpark (s)", "pyflink_compat (s)")))
    else:
        print(state_table(results["state"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
