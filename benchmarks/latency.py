"""Latency and checkpoints: the two trigger modes side by side on the same pipeline.

The job reads JSON files that arrive every half second (``--rate`` rows a second in all) and
feeds two sinks: a ``foreachBatch`` sink that notes when each file's rows reach it, and a
keyed count kept in state (``update`` mode, ``noop`` sink). It checkpoints durably every
``--interval-ms``. Per side (the default trigger mode ``LATENCY``; ``LATENCY_1S``, the same
with a buffer timeout of one second; and ``CHECKPOINT_INTERVAL``) it measures, in fresh driver
processes:

* the delivery delay of each file (from its rename into the input directory to its rows
  reaching the ``foreachBatch`` sink): p50 and p99;
* the bytes written under the checkpoint directory per minute (files found by frequent scans);
* the CPU time of the driver's Python process and its JVM per input row, from the first
  arrival until every file was delivered (the whole cost of the same input in both modes);
* recovery after a SIGKILL of the driver in the middle of the run: the time from the new
  driver's start to its first committed batch, and the input rows the new run processed again.

Usage: ``python benchmarks/latency.py [--interval-ms N] [--seconds S] [--rate R] [--rounds N]``
(or through ``run.py --only latency``); ``drive`` is the driver process it starts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import run_json  # noqa: E402

#: The sides: the default trigger mode, the same with a 1 s buffer timeout (fewer, larger
#: batches), and one micro-batch per checkpoint interval.
MODES = ("LATENCY", "LATENCY_1S", "CHECKPOINT_INTERVAL")
#: Seconds between input files.
PAUSE = 0.5
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int) -> float:
    with open("/proc/{}/stat".format(pid)) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def _write(directory: str, n: int, rows: int) -> None:
    hidden = os.path.join(directory, ".f{:06d}.tmp".format(n))
    with open(hidden, "w") as out:
        for i in range(rows):
            out.write('{{"k": "k{}", "v": {}}}\n'.format((n * rows + i) % 1000, n * rows + i))
    os.replace(hidden, os.path.join(directory, "f{:06d}.json".format(n)))


class _Scanner:
    """Counts the bytes of every file that appears under a directory (scanned every 0.2 s)."""

    def __init__(self, root: str):
        self.root = root
        self.sizes: Dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            for folder, _, names in os.walk(self.root):
                for name in names:
                    path = os.path.join(folder, name)
                    if path not in self.sizes:
                        try:
                            self.sizes[path] = os.path.getsize(path)
                        except OSError:
                            pass

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return sum(self.sizes.values())


def drive(args: argparse.Namespace) -> Dict[str, Any]:
    """One driver process: run the job for ``--seconds`` (or until ``--kill-at``)."""
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyspark.sql.functions import input_file_name

    started = time.time()
    source, seen_log = os.path.join(args.work, "in"), os.path.join(args.work, "seen.jsonl")
    os.makedirs(source, exist_ok=True)
    conf = Configuration()
    conf.set_string("compat.trigger.mode", "CHECKPOINT_INTERVAL" if args.mode == "CHECKPOINT_INTERVAL" else "LATENCY")
    if args.mode == "LATENCY_1S":
        conf.set_string("execution.buffer-timeout.interval", "1 s")
    conf.set_string("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")
    env = StreamExecutionEnvironment.get_execution_environment(conf)
    env.enable_checkpointing(args.interval_ms)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + os.path.join(args.work, "cp"))
    spark = env.spark_session
    rows_in: Dict[int, int] = {}
    first_batch: List[float] = []

    def note(df: Any, batch_id: int) -> None:
        now = time.time()
        if not first_batch:
            first_batch.append(now - started)
        counts = df.select(input_file_name().alias("f")).groupBy("f").count().collect()
        rows_in[batch_id] = sum(int(r["count"]) for r in counts)
        with open(seen_log, "a") as log:
            for r in counts:
                log.write(json.dumps({"file": os.path.basename(str(r["f"])), "at": now, "batch": batch_id,
                                      "rows": int(r["count"]), "run": args.run}) + "\n")

    # a seed file, so that the first batch (which compiles the queries) runs before the input arrives
    if not os.listdir(source):
        _write(source, -1, 10)
    frame = spark.readStream.schema("k string, v long").json(source)
    env.add_sink(frame.writeStream.foreachBatch(note), "delivered")
    env.add_sink(frame.groupBy("k").count().writeStream.outputMode("update").format("noop"), "counts")
    scanner = _Scanner(os.path.join(args.work, "cp"))
    client = env.execute_async("latency-bench")
    jvm_pid = int(spark.sparkContext._gateway.jvm.ProcessHandle.current().pid())
    written: Dict[str, float] = {}
    stop = threading.Event()
    per_file = max(1, int(args.rate * PAUSE))

    def feed() -> None:
        n = args.first_file
        while not stop.is_set():
            _write(source, n, per_file)
            written["f{:06d}.json".format(n)] = time.time()
            n += 1
            stop.wait(PAUSE)

    while not first_batch and time.time() - started < 120:
        time.sleep(0.05)
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    if args.kill_at:
        while len(rows_in) < 2:  # a batch of the arriving input ran
            time.sleep(0.05)
        time.sleep(args.kill_at)
        open(os.path.join(args.work, "killed"), "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    # CPU from the first arrival until every file was delivered: the cost of this input
    cpu0, t0 = _cpu_seconds(os.getpid()) + _cpu_seconds(jvm_pid), time.time()
    time.sleep(args.seconds)
    stop.set()
    feeder.join()
    deadline = time.time() + args.interval_ms / 1000 + 60
    seen = _seen(seen_log, args.run)
    while not set(written) <= set(seen) and time.time() < deadline:
        time.sleep(0.1)
        seen = _seen(seen_log, args.run)
    cpu = _cpu_seconds(os.getpid()) + _cpu_seconds(jvm_pid) - cpu0
    rows, elapsed = sum(rows_in.values()), time.time() - t0
    client.cancel().result(120)
    checkpoint_bytes = scanner.stop()
    delays = sorted(seen[name] - at for name, at in written.items() if name in seen)
    return {"mode": args.mode, "first_batch_s": first_batch[0] if first_batch else None,
            "delays": delays, "files": len(written), "delivered": len(delays),
            "cpu_s": cpu, "rows": rows, "seconds": elapsed,
            "checkpoint_bytes_per_min": checkpoint_bytes / (time.time() - started) * 60,
            "checkpoints": len(client.get_checkpoint_statistics())}


def _seen(log: str, run: int) -> Dict[str, float]:
    found: Dict[str, float] = {}
    if os.path.exists(log):
        with open(log) as lines:
            for line in lines:
                entry = json.loads(line)
                if entry["run"] == run:
                    found.setdefault(entry["file"], entry["at"])
    return found


def _percentile(values: List[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def _recovery(mode: str, args: argparse.Namespace) -> Dict[str, float]:
    """Kill a driver mid-run, start it again, and measure what the new run does first."""
    work = tempfile.mkdtemp(prefix="bench-latency-kill-")
    base = [sys.executable, os.path.abspath(__file__), "drive", mode, "--work", work,
            "--interval-ms", str(args.interval_ms), "--rate", str(args.rate)]
    env = {"PYSPARK_PYTHON": sys.executable}
    try:
        try:
            run_json(base + ["--seconds", str(args.seconds), "--kill-at", str(args.seconds / 2), "--run", "1"],
                     env=env)
        except RuntimeError as error:  # the driver killed itself: no result line
            if not os.path.exists(os.path.join(work, "killed")):
                raise RuntimeError("the {} driver ended before its kill: {}".format(mode, error)) from None
        before = {}
        with open(os.path.join(work, "seen.jsonl")) as lines:
            for line in lines:
                entry = json.loads(line)
                before[entry["file"]] = entry["rows"]
        before.pop("f-00001.json", None)  # the seed file
        files = len(os.listdir(os.path.join(work, "in")))
        again = run_json(base + ["--seconds", "4", "--run", "2", "--first-file", str(files + 1000)],
                         env=env)
        replayed = 0
        with open(os.path.join(work, "seen.jsonl")) as lines:
            for line in lines:
                entry = json.loads(line)
                if entry["run"] == 2 and entry["file"] in before:
                    replayed += entry["rows"]
        return {"first_new_batch_s": float(again["first_batch_s"]), "replayed_rows": float(replayed)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(rounds: int, args: argparse.Namespace) -> Dict[str, Any]:
    """Every measurement per mode, ``rounds`` fresh drivers each, alternating the modes."""
    samples: Dict[str, Dict[str, List[float]]] = {mode: {} for mode in MODES}
    for _ in range(rounds):
        for mode in MODES:
            work = tempfile.mkdtemp(prefix="bench-latency-")
            try:
                result = run_json([sys.executable, os.path.abspath(__file__), "drive", mode, "--work", work,
                                   "--interval-ms", str(args.interval_ms), "--seconds", str(args.seconds),
                                   "--rate", str(args.rate)], env={"PYSPARK_PYTHON": sys.executable})
            finally:
                shutil.rmtree(work, ignore_errors=True)
            delays = result["delays"]
            by_key = samples[mode]
            for key, value in (("delay_p50_s", statistics.median(delays)), ("delay_p99_s", _percentile(delays, 0.99)),
                               ("delivered_within_2s", sum(1 for d in delays if d <= 2) / len(delays)),
                               ("checkpoint_mb_per_min", result["checkpoint_bytes_per_min"] / 2**20),
                               ("cpu_us_per_row", result["cpu_s"] / max(1, result["rows"]) * 1e6),
                               ("rows_per_s", result["rows"] / result["seconds"]),
                               ("reported_checkpoints", float(result["checkpoints"]))):
                by_key.setdefault(key, []).append(value)
            for key, value in _recovery(mode, args).items():
                by_key.setdefault(key, []).append(value)
    table: Dict[str, Dict[str, float]] = {}
    print("\nlatency and checkpoints: interval {} ms, {} rows/s, {} s per run, {} round(s); medians; "
          "ratio = LATENCY / CHECKPOINT_INTERVAL, ratio_1s = LATENCY_1S / CHECKPOINT_INTERVAL".format(
        args.interval_ms, args.rate, args.seconds, rounds))
    print("{:<24} {:>10} {:>10} {:>20} {:>8} {:>8}".format(
        "measurement", "LATENCY", "LATENCY_1S", "CHECKPOINT_INTERVAL", "ratio", "ratio_1s"))
    for key in samples[MODES[0]]:
        fast, slower, interval = (statistics.median(samples[m][key]) for m in MODES)
        table[key] = {"LATENCY": fast, "LATENCY_1S": slower, "CHECKPOINT_INTERVAL": interval,
                      "ratio": fast / interval if interval else float("nan"),
                      "ratio_1s": slower / interval if interval else float("nan")}
        print("{:<24} {:>10.3f} {:>10.3f} {:>20.3f} {:>8.2f} {:>8.2f}".format(
            key, fast, slower, interval, table[key]["ratio"], table[key]["ratio_1s"]), flush=True)
    return {"interval_ms": args.interval_ms, "rate": args.rate, "seconds": args.seconds, "rounds": rounds,
            "table": table, "samples": samples}


def options(**given: Any) -> argparse.Namespace:
    """The default options, with ``given`` ones changed (for ``run.py``)."""
    args = _parser().parse_args([])
    for key, value in given.items():
        setattr(args, key, value)
    return args


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval-ms", type=int, default=60000)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--rate", type=int, default=5000, help="input rows per second")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", default=None, help="directory to write latency.json to")
    sub = parser.add_subparsers(dest="command")
    one = sub.add_parser("drive")
    one.add_argument("mode", choices=MODES)
    one.add_argument("--work", required=True)
    one.add_argument("--interval-ms", type=int, default=60000)
    one.add_argument("--seconds", type=float, default=40.0)
    one.add_argument("--rate", type=int, default=5000)
    one.add_argument("--kill-at", type=float, default=0.0)
    one.add_argument("--run", type=int, default=1)
    one.add_argument("--first-file", type=int, default=0)
    return parser


def main(argv: Optional[List[str]] = None) -> Tuple[int, Dict[str, Any]]:
    args = _parser().parse_args(argv)
    if args.command == "drive":
        print(json.dumps(drive(args)), flush=True)
        return 0, {}
    results = run(args.rounds, args)
    if args.out:
        from common import write_results

        write_results(args.out, "latency", results)
    return 0, results


if __name__ == "__main__":
    sys.exit(main()[0])
