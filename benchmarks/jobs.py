"""Job overhead, recovery and state: a pipeline run through pyflink_compat's ``execute`` against
the same PySpark pipeline configured by hand (``job_driver.py`` runs one side in a fresh
driver process; the sides alternate).

* overhead: stateless (JSON files to Parquet) and stateful (a sum per key over 10,000 keys)
  pipelines over 20 batches of 5,000 rows; median time per batch and end-to-end throughput.
* recovery: the driver SIGKILLs itself after two committed batches; the time from starting it
  again to its first new committed batch (JVM start included, the same on both sides).
* state: ``hashmap`` (Spark's HDFS-backed store) and ``rocksdb`` with incremental checkpoints
  (Spark's RocksDB store with changelog checkpointing) at several key counts, 1% of the keys
  updated per batch: state bytes written per checkpoint, the driver JVM's peak RSS, the median
  state commit time.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
from typing import Any, Dict, List, Sequence

from common import HERE, paired_ratios, print_table, run_json

DRIVER = os.path.join(HERE, "job_driver.py")
SIDES = ("plain", "compat")


def write_input(directory: str, keys: int, files: int, seed: int = 1) -> None:
    """File 0 holds every key once; each later file holds 1% of the keys."""
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(seed)
    for n in range(files):
        chosen = range(keys) if n == 0 else rng.sample(range(keys), max(keys // 100, 1))
        with open(os.path.join(directory, "part-%03d.json" % n), "w") as out:
            out.writelines(json.dumps({"k": k, "v": n}) + "\n" for k in chosen)


#: The job-overhead workload: batches (one input file each) and rows per batch
OVERHEAD_BATCHES, OVERHEAD_ROWS, OVERHEAD_KEYS = 20, 5_000, 10_000


def write_batches(directory: str, files: int, rows: int, keys: int, seed: int = 2) -> None:
    """``files`` files of ``rows`` rows each, keys drawn from ``keys`` distinct ones."""
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(seed)
    for n in range(files):
        with open(os.path.join(directory, "part-%03d.json" % n), "w") as out:
            out.writelines(json.dumps({"k": rng.randrange(keys), "v": n}) + "\n" for _ in range(rows))


def drive(side: str, pipeline: str, input_dir: str, files: int, *extra: str) -> Dict[str, Any]:
    work = tempfile.mkdtemp(prefix="bench-job-")
    try:
        return run_json([sys.executable, DRIVER, side, pipeline, "--input", input_dir, "--work",
                         work, "--files", str(files), *extra],
                        env={"PYSPARK_PYTHON": sys.executable})
    finally:
        shutil.rmtree(work, ignore_errors=True)


def recovery(side: str, input_dir: str, files: int) -> Dict[str, Any]:
    work = tempfile.mkdtemp(prefix="bench-recovery-")
    argv = [sys.executable, DRIVER, side, "stateful", "--input", input_dir, "--work", work,
            "--files", str(files)]
    env = {"PYSPARK_PYTHON": sys.executable}
    try:
        killed = run_json(argv + ["--kill-after", "2"], env=env)
        again = run_json(argv + ["--first-batch"], env=env)
        return {"first_new_batch_s": again["first_batch_s"],
                "resumed_after_batch": float(killed["killed_after_batch"]),
                "first_new_batch_id": float(again["batch_id"])}
    finally:
        shutil.rmtree(work, ignore_errors=True)


SUPERVISION = ("supervisor_commands_per_batch", "supervisor_cpu_ms_per_batch",
               "command_jvm_cpu_us", "command_python_cpu_us", "supervisor_cpu_share")


def print_supervision(compat: Dict[str, List[float]]) -> Dict[str, Dict[str, float]]:
    """What watching the queries costs a batch under ``execute()`` (between the first and the
    last committed batch): the supervising thread's py4j commands and CPU, one command's CPU
    on each side, and the share of a batch's CPU (both processes) that supervising takes."""
    rows: Dict[str, Dict[str, float]] = {}
    print("\nsupervision under execute(), per committed batch (median, min-max over rounds)")
    for pipeline in ("stateless", "stateful"):
        for name in SUPERVISION:
            values = compat.get(pipeline + " " + name)
            if not values:
                continue
            key = pipeline + " " + name
            rows[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
            fmt = "{:<44} {:>10.2%} {:>10.2%} {:>10.2%}" if name.endswith("share") else \
                "{:<44} {:>10.2f} {:>10.2f} {:>10.2f}"
            print(fmt.format(key, rows[key]["median"], rows[key]["min"], rows[key]["max"]))
    return rows


PARTS = ("overhead", "state", "recovery")


def run(rounds: int, full: bool, parts: Sequence[str] = PARTS) -> Dict[str, Any]:
    """Run the chosen ``parts`` for ``rounds`` rounds, print their tables, return the results."""
    root = tempfile.mkdtemp(prefix="bench-input-")
    files = 11 if full else 6
    key_counts = [10_000, 100_000, 1_000_000] if full else [10_000, 100_000]
    results: Dict[str, Any] = {"rounds": rounds, "files": files}
    try:
        inputs = {}
        for keys in key_counts if "state" in parts else key_counts[:1] if "recovery" in parts else []:
            inputs[keys] = os.path.join(root, str(keys))
            write_input(inputs[keys], keys, files)
        overhead_input = os.path.join(root, "overhead")
        if "overhead" in parts:
            write_batches(overhead_input, OVERHEAD_BATCHES, OVERHEAD_ROWS, OVERHEAD_KEYS)
            results["overhead_workload"] = {"batches": OVERHEAD_BATCHES, "rows_per_batch": OVERHEAD_ROWS,
                                            "keys": OVERHEAD_KEYS}
        overhead: Dict[str, Dict[str, List[float]]] = {s: {} for s in SIDES}
        state: Dict[str, Dict[str, Dict[str, List[float]]]] = {}
        rec: Dict[str, Dict[str, List[float]]] = {s: {} for s in SIDES}
        for round_number in range(rounds):
            # each round swaps which side runs first, so that neither always follows the other
            sides = SIDES if round_number % 2 == 0 else SIDES[::-1]
            if "overhead" in parts:
                for pipeline in ("stateless", "stateful"):
                    for side in sides:
                        for key, value in drive(side, pipeline, overhead_input, OVERHEAD_BATCHES).items():
                            overhead[side].setdefault(pipeline + " " + key, []).append(value)
            for keys in inputs if "state" in parts else []:
                for backend in ("hashmap", "rocksdb"):
                    label = "{} {} keys".format(backend, keys)
                    state.setdefault(label, {s: {} for s in SIDES})
                    for side in sides:
                        result = drive(side, "stateful", inputs[keys], files, "--backend", backend,
                                       "--state-bytes")
                        for key, value in result.items():
                            state[label][side].setdefault(key, []).append(value)
            if "recovery" in parts:
                for side in sides:
                    for key, value in recovery(side, inputs[key_counts[0]], files).items():
                        rec[side].setdefault(key, []).append(value)
        samples: Dict[str, Any] = {}
        if "overhead" in parts:
            results["overhead"] = print_table(
                "job overhead (ratio = execute() / by hand)", overhead, "compat", "plain")
            results["paired"] = paired_ratios(overhead, "compat", "plain", [
                pipeline + " " + key for pipeline in ("stateless", "stateful")
                for key in ("per_batch_ms", "rows_per_s", "jvm_cpu_ms_per_batch",
                            "steady_jvm_cpu_ms_per_batch", "start_to_first_trigger_s",
                            "first_batch_ms", "later_batches_s")])
            results["supervision"] = print_supervision(overhead["compat"])
            samples["overhead"] = overhead
        if "state" in parts:
            results["state"] = {}
            for label, by_side in state.items():
                results["state"][label] = print_table(
                    "state, " + label + " (ratio = pyflink_compat / native Spark conf)", by_side,
                    "compat", "plain")
            samples["state"] = state
        if "recovery" in parts:
            results["recovery"] = print_table(
                "recovery after SIGKILL, seconds (ratio = pyflink_compat / plain PySpark)", rec,
                "compat", "plain")
            samples["recovery"] = rec
        results["samples"] = samples
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return results
