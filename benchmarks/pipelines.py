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

Each job also has a plain PySpark version, what a team writing for Spark directly would write
(engine ``pyspark``): the same input from files, Spark's built-in functions where the job's
Python functions only split, count or filter, ``transformWithState`` for the keyed function,
and Spark's ``noop`` sink, on a local Spark with one shuffle partition.

Each run times ``execute()`` (``wait()`` for SQL; the query for plain PySpark), from the call to the job's end, at two
input sizes; the records per second reported is the marginal rate between the two sizes (the
records added over the time added; also over the CPU seconds added, of the job's process and
every process under it, read from ``/proc``, which other load on the machine disturbs less),
so that the start of each engine (its JVM, its Python workers, Spark's first micro-batch) is
not counted as processing. The DataStream jobs also
measure latency: the first operator stamps each record with the wall clock and the last
turns the stamp into a delay, printed by the job's ``print()`` sink; the report gives its
median and 95th percentile.

Usage: ``python benchmarks/pipelines.py [--rounds N] [--pyflink-python PATH] [--only JOB,...]
[--datastream-sizes A,B] [--sql-sizes A,B] [--out FILE]``;
``--job NAME --engine pyflink|pyflink_compat|pyspark --n N`` runs one job and prints one ``RESULT``
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
ENGINES = ("pyflink", "pyflink_compat", "pyspark")
#: The input sizes (records) of the DataStream jobs, and of the SQL jobs: large enough that
#: the time between them is processing, not the noise of each engine's start.
DEFAULT_SIZES = {"datastream": (4000, 32000), "sql": (200000, 1000000)}
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

    class Counts(functions.KeyedProcessFunction):  # type: ignore[name-defined]
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


def _csv_input(n: int) -> str:
    """The same CSV input for every engine: ids one ms apart, ten keys."""
    import tempfile

    directory = tempfile.mkdtemp(prefix="pipelines-sql-")
    with open(os.path.join(directory, "part-0.csv"), "w") as stream:
        for i in range(n):
            stream.write("%d,%d,2024-01-01 00:%02d:%02d.%03d\n"
                         % (i, i % 10, i // 60000 % 60, i // 1000 % 60, i % 1000))
    return directory


def _sql(engine: str, n: int, query: str) -> Dict[str, Any]:
    table = _m(engine, "table")
    t_env = table.TableEnvironment.create(table.EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    if engine == "pyflink":  # PyFlink's Python workers run this interpreter
        t_env.get_config().set("python.executable", sys.executable)
    directory = _csv_input(n)
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


# -- the same jobs in plain PySpark --------------------------------------------------------------
def _pyspark_session() -> Any:
    from pyspark.sql import SparkSession

    return (SparkSession.builder.master("local[*]").appName("pipelines-pyspark")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.streaming.stateStore.providerClass",
                    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
            .getOrCreate())


def _pyspark_run(query: Any) -> Dict[str, Any]:
    """Runs a bounded streaming DataFrame to its end (``availableNow``) into the ``noop`` sink."""
    import tempfile

    def run() -> None:
        (query.writeStream.format("noop").outputMode("update" if query.isStreaming else "append")
         .option("checkpointLocation", tempfile.mkdtemp(prefix="pipelines-cp-"))
         .trigger(availableNow=True).start().awaitTermination())
    return _timed(run)


def _pyspark_lines(spark: Any, rows: List[str]) -> Any:
    import tempfile

    directory = tempfile.mkdtemp(prefix="pipelines-in-")
    with open(os.path.join(directory, "part-0.txt"), "w") as stream:
        stream.write("\n".join(rows) + "\n")
    return spark.readStream.text(directory)


def pyspark_wordcount(n: int) -> Dict[str, Any]:
    """The word count with Spark's built-ins: split, explode, a running count per word."""
    from pyspark.sql import functions as F

    spark = _pyspark_session()
    lines = [" ".join(WORDS[(i * 10 + j * 7) % len(WORDS)] for j in range(10)) for i in range(n // 10)]
    words = _pyspark_lines(spark, lines).select(F.explode(F.split("value", " ")).alias("word"))
    return _pyspark_run(words.groupBy("word").count())


def pyspark_keyed_timers(n: int) -> Dict[str, Any]:
    """The keyed function as a ``transformWithState`` processor: a count per key and an
    event-time timer 100 ms after each record; rows out per record and per timer."""
    from pyspark.sql import Row
    from pyspark.sql import functions as F
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    class Counts(StatefulProcessor):
        def init(self, handle: Any) -> None:
            self.handle = handle
            self.count = handle.getValueState("count", StructType([StructField("c", LongType())]))

        def handleInputRows(self, key: Any, rows: Any, timerValues: Any) -> Any:
            current = self.count.get()
            total = current[0] if current else 0
            for row in rows:
                total += 1
                self.handle.registerTimer(row.ms + 100)
                yield Row(kind="D", key=key[0], n=total)
            self.count.update((total,))

        def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Any:
            current = self.count.get()
            yield Row(kind="T", key=key[0], n=current[0] if current else 0)

    spark = _pyspark_session()
    rows = ["k%d,%d" % (i % 100, 1000000 + i) for i in range(n)]
    parsed = _pyspark_lines(spark, rows).select(
        F.split("value", ",")[0].alias("k"), F.split("value", ",")[1].cast("long").alias("ms"))
    timed = parsed.withColumn("ts", F.timestamp_millis("ms")).withWatermark("ts", "50 milliseconds")
    out = StructType([StructField("kind", StringType()), StructField("key", StringType()),
                      StructField("n", LongType())])
    return _pyspark_run(timed.groupBy("k").transformWithState(
        Counts(), out, "Append", "EventTime"))


def _pyspark_sql(n: int) -> Any:
    spark = _pyspark_session()
    directory = _csv_input(n)
    return spark.readStream.schema("id BIGINT, k BIGINT, ts TIMESTAMP").csv(directory)


def pyspark_sql_window(n: int) -> Dict[str, Any]:
    from pyspark.sql import functions as F

    source = _pyspark_sql(n).withWatermark("ts", "1 second")
    counts = source.groupBy("k", F.window("ts", "1 second")).count()
    counts = counts.select("k", F.col("window.start").alias("w"), "count")
    return _pyspark_run(counts.where(F.lit(True)))


def pyspark_sql_filter(n: int) -> Dict[str, Any]:
    from pyspark.sql import functions as F

    return _pyspark_run(_pyspark_sql(n).where(F.col("id") % 7 == 3).select("id", "k"))


def process_tree_cpu(root: int) -> float:
    """CPU seconds (user and system) of ``root`` and its living descendants (the JVM, the
    Python workers), with the children they have already reaped, read from Linux's ``/proc``;
    0.0 elsewhere. Less disturbed by other load on the machine than the wall clock."""
    children: Dict[int, List[int]] = {}
    times: Dict[int, float] = {}
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except (OSError, ValueError):
        return 0.0
    for pid in pids:
        try:
            with open("/proc/{}/stat".format(pid)) as stream:
                fields = stream.read().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(pid)
        times[pid] = sum(int(f) for f in fields[11:15]) / ticks
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo.extend(children.get(pid, []))
    return total


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
    pythons = {"pyflink": pyflink_python, "pyflink_compat": sys.executable, "pyspark": sys.executable}
    samples: Dict[str, Any] = {}
    for job in jobs:
        small, large = sizes["sql" if job.startswith("sql") else "datastream"]
        for round_ in range(rounds):
            order = ENGINES if round_ % 2 == 0 else ENGINES[::-1]
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
        for engine in ENGINES:
            mine = [r for r in results if r["engine"] == engine]
            errors = [r["error"] for r in mine if "error" in r]
            rates, cpu_rates, small_s, large_s, p50, p95 = [], [], [], [], [], []
            for round_ in sorted({r["round"] for r in mine}):
                pair = sorted((r for r in mine if r["round"] == round_ and "error" not in r), key=lambda r: r["n"])
                if len(pair) == 2 and pair[1]["seconds"] > pair[0]["seconds"]:
                    rates.append((pair[1]["n"] - pair[0]["n"]) / (pair[1]["seconds"] - pair[0]["seconds"]))
                if len(pair) == 2 and pair[1].get("cpu_s", 0) > pair[0].get("cpu_s", 0):
                    cpu_rates.append((pair[1]["n"] - pair[0]["n"]) / (pair[1]["cpu_s"] - pair[0]["cpu_s"]))
                if len(pair) == 2:
                    small_s.append(pair[0]["seconds"])
                    large_s.append(pair[1]["seconds"])
                    if "latency_p50_ms" in pair[1]:
                        p50.append(pair[1]["latency_p50_ms"])
                        p95.append(pair[1]["latency_p95_ms"])
            per[engine] = {"records_per_s": statistics.median(rates) if rates else None,
                           "rates": rates, "records_per_cpu_s": _med(cpu_rates),
                           "small_s": _med(small_s), "large_s": _med(large_s),
                           "latency_p50_ms": _med(p50), "latency_p95_ms": _med(p95), "errors": errors[:1]}
        ours = per["pyflink_compat"]
        for other, suffix in (("pyflink", ""), ("pyspark", "_pyspark")):
            theirs = per[other]
            per["throughput_ratio" + suffix] = (ours["records_per_s"] / theirs["records_per_s"]
                                                if ours["records_per_s"] and theirs["records_per_s"] else None)
            per["large_time_ratio" + suffix] = (ours["large_s"] / theirs["large_s"]
                                                if ours["large_s"] and theirs["large_s"] else None)
        found[job] = per
    return found


def _med(values: List[float]) -> Optional[float]:
    return statistics.median(values) if values else None


def print_summary(result: Dict[str, Any]) -> None:
    print("\nPipelines (pyflink_compat / PyFlink 1.20.5 and / plain PySpark), medians of {} rounds, sizes {}".format(
        result["rounds"], result["sizes"]))
    for job, per in result["summary"].items():
        for engine in ENGINES:
            row = per[engine]
            print("  {:13s} {:15s} rec/s {:>10} (per CPU s {:>10})  small {:>7}  large {:>7}  "
                  "latency p50 {:>8} p95 {:>8}  {}".format(
                job, engine, _fmt(row["records_per_s"], "%.0f"), _fmt(row["records_per_cpu_s"], "%.0f"),
                _fmt(row["small_s"], "%.1fs"),
                _fmt(row["large_s"], "%.1fs"), _fmt(row["latency_p50_ms"], "%.0fms"),
                _fmt(row["latency_p95_ms"], "%.0fms"), row["errors"][0] if row["errors"] else ""))
        for other, suffix in (("PyFlink", ""), ("PySpark", "_pyspark")):
            print("  {:13s} against {}: throughput ratio {}  time ratio at the large size {}".format(
                job, other, _fmt(per["throughput_ratio" + suffix], "%.2f"),
                _fmt(per["large_time_ratio" + suffix], "%.2f")))


def _fmt(value: Optional[float], pattern: str) -> str:
    return "-" if value is None else pattern % value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", choices=JOBS)
    parser.add_argument("--engine", choices=ENGINES)
    parser.add_argument("--n", type=int)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", help="comma-separated jobs to run")
    parser.add_argument("--pyflink-python", default=os.environ.get("PYFLINK_PYTHON", ""))
    parser.add_argument("--datastream-sizes", default=None, help="the two input sizes of the DataStream jobs")
    parser.add_argument("--sql-sizes", default=None, help="the two input sizes of the SQL jobs")
    parser.add_argument("--out", default=None, help="write the JSON result here")
    args = parser.parse_args()
    if args.job:
        if args.engine == "pyspark":
            result = globals()["pyspark_" + args.job](args.n)
        else:
            result = globals()[args.job](args.engine, args.n)
        result["cpu_s"] = process_tree_cpu(os.getpid())
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    if not args.pyflink_python:
        raise SystemExit("pass --pyflink-python (a Python with apache-flink==1.20.5)")
    jobs = tuple(args.only.split(",")) if args.only else JOBS
    sizes: Dict[str, Any] = dict(DEFAULT_SIZES)
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
