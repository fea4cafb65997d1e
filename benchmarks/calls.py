"""Per-call cost of the configuration API and start-up: pyflink_compat against live PyFlink.

Every measurement runs in fresh processes, alternating the two implementations so that both
see the same machine load; the table gives medians over the rounds, the ratio
pyflink_compat / PyFlink, and the spread ((max - min) / median) of the noisier side. Start-up
compares the first environment with a bare ``SparkSession.builder.getOrCreate()``.
"""

from __future__ import annotations

import os
import statistics
import sys
from typing import Dict, List

from common import HERE, machine, print_table, run_json
from worker import ROUND_TRIPS

WORKER = os.path.join(HERE, "worker.py")
BARE_SESSION = (
    "import json, time; t = time.perf_counter(); from pyspark.sql import SparkSession; "
    "SparkSession.builder.getOrCreate(); print(json.dumps({'first_environment_s': "
    "time.perf_counter() - t}))")


def pyflink_interpreter(given: str) -> str:
    """A Python with apache-flink 1.20.5: the given one or the tox parity env's."""
    for candidate in (given, os.path.join(HERE, "..", ".tox", "parity", "bin", "python")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise SystemExit("no PyFlink interpreter: pass --pyflink-python (a Python with "
                     "apache-flink==1.20.5 installed)")


def run(pyflink_python: str, rounds: int, calls: int) -> Dict[str, object]:
    pythons = {"pyflink_compat": sys.executable, "pyflink": pyflink_python}
    samples: Dict[str, Dict[str, List[float]]] = {"pyflink_compat": {}, "pyflink": {}}
    start: Dict[str, Dict[str, List[float]]] = {"pyflink_compat": {}, "bare pyspark": {}}
    for what in ("import", "calls"):
        for _ in range(rounds):
            for root in ("pyflink", "pyflink_compat"):  # alternate: same load for both
                result = run_json([pythons[root], WORKER, root, what, str(calls)],
                                  env={"PYSPARK_PYTHON": pythons[root]})
                for key, value in result.items():
                    samples[root].setdefault(key, []).append(value)
    for _ in range(rounds):
        for side in ("bare pyspark", "pyflink_compat"):
            argv = ([sys.executable, "-c", BARE_SESSION] if side == "bare pyspark"
                    else [sys.executable, WORKER, "pyflink_compat", "start", "0"])
            for key, value in run_json(argv, env={"PYSPARK_PYTHON": sys.executable}).items():
                start[side].setdefault(key, []).append(value)
    round_trips: Dict[str, Dict[str, float]] = {}
    for root in ("pyflink", "pyflink_compat"):
        for key in [k for k in samples[root] if k.startswith(ROUND_TRIPS)]:
            counts = samples[root].pop(key)
            round_trips.setdefault(key[len(ROUND_TRIPS):], {})[root] = max(counts)
    imports = {k: samples["pyflink_compat"].pop(k) for k in list(samples["pyflink_compat"])
               if k.startswith("import") or k == "jvm_started"}
    for k in list(samples["pyflink"]):
        if k.startswith("import") or k == "jvm_started":
            imports["pyflink " + k] = samples["pyflink"].pop(k)
    rows = print_table("per-call cost, microseconds (ratio = pyflink_compat / PyFlink)", samples,
                       "pyflink_compat", "pyflink")
    print("\npy4j commands per call (PyFlink / pyflink_compat)")
    for name, counts in round_trips.items():
        print("{:<52} {:>6.1f} {:>6.1f}".format(name, counts.get("pyflink", float("nan")),
                                                counts.get("pyflink_compat", float("nan"))))
    start_rows = print_table("start-up, seconds (ratio = pyflink_compat / bare pyspark)", start,
                             "pyflink_compat", "bare pyspark")
    print("\nimport pyflink_compat.datastream: {:.1f} ms, with StreamExecutionEnvironment "
          "{:.1f} ms (median), a JVM started: {}; import pyflink.datastream: {:.1f} ms".format(
              statistics.median(imports["import_package_ms"]),
              statistics.median(imports["import_env_class_ms"]),
              bool(max(imports["jvm_started"])),
              statistics.median(imports["pyflink import_package_ms"])))
    return {"calls": rows, "round_trips": round_trips, "start": start_rows, "imports": imports,
            "samples": samples,
            "start_samples": start, "machine": machine(pyflink_python), "rounds": rounds,
            "calls_per_rep": calls}
