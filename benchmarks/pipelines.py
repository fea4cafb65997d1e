"""Pipelines side by side: the same job under PyFlink 1.20.5 and under pyflink_compat, in fresh
processes on the same machine, alternating the two.

Four jobs, each written once with its imports taken from ``pyflink`` or ``pyflink_compat``:

* ``wordcount``: lines from a collection, ``map`` then ``flat_map`` into ``(word, 1)``,
  ``key_by`` the word and a running ``reduce`` (Python functions throughout);
* ``keyed_timers``: a ``KeyedProcessFunction`` with a ``ValueState`` count and an event-time
  timer per record, over records with timestamps and a bounded out-of-orderness watermark;
* ``sql_window``: a one-second tumbling window counting rows per key (Flink SQL over a CSV
  file of rows one millisecond apart, with a watermark) into a ``blackhole`` table;
* ``sql_filter``: a stateless ``WHERE`` over the same source into a ``blackhole`` table.

Each run times ``execute()`` (``wait()`` for SQL), from the call to the job's end, at two
input sizes; the records per second reported is the marginal rate between the two sizes (the
records added over the time added), so that the start of each engine (its JVM, its Python
workers, Spark's first micro-batch) is not counted as processing. The DataStream jobs also
measure latency: the first operator stamps each record with the wall clock and the last
turns the stamp into a delay, printed by the job's ``print()`` sink; the report gives its
median and 95th percentile.

Usage: ``python benchmarks/pipelines.py [--rounds N] [--pyflink-python PATH] [--only JOB,...]
[--datastream-sizes A,B] [--sql-sizes A,B] [--out FILE]``;
``--job NAME --engine pyflink|pyflink_compat --n N`` runs one job and prints one ``RESULT``
JSON line (what the runner starts).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
JOBS = ("wordcount", "keyed_timers", "sql_window", "sql_filter")
#: The input sizes (records) of the DataStream jobs, and of the SQL jobs.
DEFAULT_SIZES = {"datastream": (1000, 4000), "sql": (20000, 200000)}
WORDS = ["w{}".format(i) for i in range(100)]


def _m(engine: str, name: str) -> Any:
    return importlib.import_module(engine + "." + name)


def _environment(engine: str) -> Any:
    env = _m(engine, "datastream").StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    if engine == "pyflink":  # PyFlink's Python workers run this interpreter
        env.set_python_executable(sys.executable)
    return env


# -- the jobs (one code, two import roots) -------------------------------------------------------
def wordcount(engine: str, n: int) -> Dict[str, Any]:
    """``n`` words in lines of ten: map (stamp), flat_map, key_by, reduce, map (delay)."""
    env = _environment(engine)
    lines = [" ".join(WORDS[(i * 10 + j * 7) % len(WORDS)] for j in range(10)) for i in range(n // 10)]

    def split(stamped: Any) -> Any:
        stamp, line = stamped
        for word in line.split():
            yield word, 1, stamp

    env.from_collection(lines) \
        .map(lambda line: (time.time(), line)) \
        .flat_map(split) \
        .key_by(lambda v: v[0]) \
        .reduce(lambda a, b: (a[0], a[1] + b[1], b[2])) \
        .map(lambda v: "D %.3f" % ((time.time() - v[2]) * 1000)) \
        .print()
    return _timed(lambda: env.execute("wordcount"))


def keyed_timers(engine: str, n: int) -> Dict[str, Any]:
    """``n`` records of 100 keys one ms apart: per record a ValueState count and an event-time
    timer 100 ms later; process_element emits the delay, on_timer the count."""
    common = _m(engine, "common")
    functions = _m(engine, "datastream.functions")
    state = _m(engine, "datastream.state")
    assigner_base = _m(engine, "common.watermark_strategy").TimestampAssigner

    class Millis(assigner_base):  # type: ignore[misc, valid-type]
        def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
            return int(value[1])

    class Counts(functions.KeyedProcessFunction):  # type: ignore[misc, name-defined]
        def open(self, runtime_context: Any) -> None:
            self.count = runtime_context.get_state(state.ValueStateDescriptor("count", common.Types.LONG()))

        def process_element(self, value: Any, ctx: Any) -> Any:
            self.count.update((self.count.value() or 0) + 1)
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 100)
            yield "D %.3f" % ((time.time() - value[2]) * 1000)

        def on_timer(self, timestamp: int, ctx: Any) -> Any:
            yield "T %s %d" % (ctx.get_current_key(), self.count.value())

    env = _environment(engine)
    records = [("k%d" % (i % 100), 1000000 + i) for i in range(n)]
    env.from_collection(records) \
        .map(lambda v: (v[0], v[1], time.time())) \
        .assign_timestamps_and_watermarks(
            common.WatermarkStrategy.for_bounded_out_of_orderness(common.Duration.of_millis(50))
            .with_timestamp_assigner(Millis())) \
        .key_by(lambda v: v[0]) \
        .process(Counts()) \
        .print()
    return _timed(lambda: env.execute("keyed_timers"))


def _sql(engine: str, n: int, query: str) -> Dict[str, Any]:
    import tempfile

    table = _m(engine, "table")
    t_env = table.TableEnvironment.create(table.EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    if engine == "pyflink":  # PyFlink's Python workers run this interpreter
        t_env.get_config().set("python.executable", sys.executable)
    # the same CSV input for both engines: ids one ms apart, ten keys
    directory = tempfile.mkdtemp(prefix="pipelines-sql-")
    with open(os.path.join(directory, "part-0.csv"), "w") as stream:
        for i in range(n):
            stream.write("%d,%d,2024-01-01 00:%02d:%02d.%03d\n"
                         % (i, i % 10, i // 60000 % 60, i // 1000 % 60, i % 1000))
    t_env.execute_sql("""
        CREATE TABLE src (
            id BIGINT,
            k BIGINT,
            ts TIMESTAMP(3),
            WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
        ) WITH ('connector' = 'filesystem', 'path' = '{}', 'format' = 'csv')""".format(directory))
    t_env.execute_sql("CREATE TABLE out_window (k BIGINT, w TIMESTAMP(3), c BIGINT) "
                      "WITH ('connector' = 'blackhole')")
    t_env.execute_sql("CREATE TABLE out_filter (id BIGINT, k BIGINT) WITH ('connector' = 'blackhole')")
    return _timed(lambda: t_env.execute_sql(query).wait())


def sql_window(engine: str, n: int) -> Dict[str, Any]:
    return _sql(engine, n, "INSERT INTO out_window SELECT k, TUMBLE_START(ts, INTERVAL '1' SECOND), COUNT(*) "
                           "FROM src GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND)")


def sql_filter(engine: str, n: int) -> Dict[str, Any]:
    return _sql(engine, n, "INSERT INTO out_filter SELECT id, k FROM src WHERE MOD(id, 7) = 3")


def _timed(run: Any) -> Dict[str, Any]:
    start = time.perf_counter()
    run()
    return {"seconds": time.perf_counter() - start}


# -- one run in a fresh process ------------------------------------------------------------------
def run_one(python: str, engine: str, job: str, n: int, timeout: int = 900) -> Dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env["PYSPARK_PYTHON"] = python
    env["PYFLINK_CLIENT_EXECUTABLE"] = python
    env["PYTHONWARNINGS"] = "ignore"
    started = time.perf_counter()
    done = subprocess.run([python, os.path.abspath(__file__), "--job", job, "--engine", engine, "--n", str(n)],
                          env=env, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - started
    lines = done.stdout.splitlines()
    result = next((json.loads(line[len("RESULT "):]) for line in lines if line.startswith("RESULT ")), None)
    if done.returncode != 0 or result is None:
        error = (done.stderr.strip().splitlines() or ["exit code {}".format(done.returncode)])[-1]
        return {"error": error[:300], "wall": wall}
    delays = sorted(float(line.rsplit(" ", 1)[1]) for line in lines if line.lstrip("0123456789> ").startswith("D "))
    result["wall"] = wall
    if delays:
        result["latency_p50_ms"] = statistics.median(delays)
        result["latency_p95_ms"] = delays[int(0.95 * (len(delays) - 1))]
        result["outputs"] = len(delays)
    return result


def run(pyflink_python: str, rounds: int, sizes: Optional[Dict[str, Any]] = None,
        jobs: Any = JOBS) -> Dict[str, Any]:
    """Every job at both sizes under both engines, ``rounds`` times, alternating the engines."""
    sizes = sizes or DEFAULT_SIZES
    pythons = {"pyflink": pyflink_python, "pyflink_compat": sys.executable}
    samples: Dict[str, Any] = {}
    for job in jobs:
        small, large = sizes["sql" if job.startswith("sql") else "datastream"]
        for round_ in range(rounds):
            order = ("pyflink", "pyflink_compat") if round_ % 2 == 0 else ("pyflink_compat", "pyflink")
            for engine in order:
                for n in (small, large):
                    result = run_one(pythons[engine], engine, job, n)
                    result.update({"job": job, "engine": engine, "n": n, "round": round_})
                    samples.setdefault(job, []).append(result)
                    print(json.dumps(result), flush=True)
    return {"sizes": sizes, "rounds": rounds, "samples": samples, "summary": summary(samples)}


def summary(samples: Dict[str, List[Dict[str, Any]]]) -> Dict[str, Any]:
    """Per job and engine: the median marginal records per second (pairing the two sizes of
    each round), the median times, the latencies at the large size; and the ratios."""
    found: Dict[str, Any] = {}
    for job, results in samples.items():
        per: Dict[str, Any] = {}
        for engine in ("pyflink", "pyflink_compat"):
            mine = [r for r in results if r["engine"] == engine]
            errors = [r["error"] for r in mine if "error" in r]
            rates, small_s, large_s, p50, p95 = [], [], [], [], []
            for round_ in sorted({r["round"] for r in mine}):
                pair = sorted((r for r in mine if r["round"] == round_ and "error" not in r), key=lambda r: r["n"])
                if len(pair) == 2 and pair[1]["seconds"] > pair[0]["seconds"]:
                    rates.append((pair[1]["n"] - pair[0]["n"]) / (pair[1]["seconds"] - pair[0]["seconds"]))
                if len(pair) == 2:
                    small_s.append(pair[0]["seconds"])
                    large_s.append(pair[1]["seconds"])
                    if "latency_p50_ms" in pair[1]:
                        p50.append(pair[1]["latency_p50_ms"])
                        p95.append(pair[1]["latency_p95_ms"])
            per[engine] = {"records_per_s": statistics.median(rates) if rates else None,
                           "rates": rates, "small_s": _med(small_s), "large_s": _med(large_s),
                           "latency_p50_ms": _med(p50), "latency_p95_ms": _med(p95), "errors": errors[:1]}
        ours, theirs = per["pyflink_compat"], per["pyflink"]
        per["throughput_ratio"] = (ours["records_per_s"] / theirs["records_per_s"]
                                   if ours["records_per_s"] and theirs["records_per_s"] else None)
        per["large_time_ratio"] = (ours["large_s"] / theirs["large_s"]
                                   if ours["large_s"] and theirs["large_s"] else None)
        found[job] = per
    return found


def _med(values: List[float]) -> Optional[float]:
    return statistics.median(values) if values else None


def print_summary(result: Dict[str, Any]) -> None:
    print("\nPipelines (pyflink_compat / PyFlink 1.20.5), medians of {} rounds, sizes {}".format(
        result["rounds"], result["sizes"]))
    for job, per in result["summary"].items():
        for engine in ("pyflink", "pyflink_compat"):
            row = per[engine]
            print("  {:13s} {:15s} rec/s {:>10}  small {:>7}  large {:>7}  latency p50 {:>8} p95 {:>8}  {}".format(
                job, engine, _fmt(row["records_per_s"], "%.0f"), _fmt(row["small_s"], "%.1fs"),
                _fmt(row["large_s"], "%.1fs"), _fmt(row["latency_p50_ms"], "%.0fms"),
                _fmt(row["latency_p95_ms"], "%.0fms"), row["errors"][0] if row["errors"] else ""))
        print("  {:13s} throughput ratio {}  time ratio at the large size {}".format(
            job, _fmt(per["throughput_ratio"], "%.2f"), _fmt(per["large_time_ratio"], "%.2f")))


def _fmt(value: Optional[float], pattern: str) -> str:
    return "-" if value is None else pattern % value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", choices=JOBS)
    parser.add_argument("--engine", choices=("pyflink", "pyflink_compat"))
    parser.add_argument("--n", type=int)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", help="comma-separated jobs to run")
    parser.add_argument("--pyflink-python", default=os.environ.get("PYFLINK_PYTHON", ""))
    parser.add_argument("--datastream-sizes", default=None, help="the two input sizes of the DataStream jobs")
    parser.add_argument("--sql-sizes", default=None, help="the two input sizes of the SQL jobs")
    parser.add_argument("--out", default=None, help="write the JSON result here")
    args = parser.parse_args()
    if args.job:
        result = globals()[args.job](args.engine, args.n)
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    if not args.pyflink_python:
        raise SystemExit("pass --pyflink-python (a Python with apache-flink==1.20.5)")
    jobs = tuple(args.only.split(",")) if args.only else JOBS
    sizes = dict(DEFAULT_SIZES)
    for kind, given in (("datastream", args.datastream_sizes), ("sql", args.sql_sizes)):
        if given:
            sizes[kind] = tuple(int(n) for n in given.split(","))
    result = run(args.pyflink_python, args.rounds, sizes, jobs=jobs)
    print_summary(result)
    if args.out:
        with open(args.out, "w") as stream:
            json.dump(result, stream, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
