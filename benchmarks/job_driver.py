"""One streaming job in a fresh driver process, run through pyflink_compat or by hand.

``compat``: the checkpointing is configured with PyFlink's API and the job runs through
``env.execute_async()``. ``plain``: the same PySpark pipeline started by hand, with the Spark
settings that configuration maps to (trigger, checkpoint location, state store provider,
changelog checkpointing, batches retained). Both modes read the same input files, one file per
batch, and follow the query the same way: a thread watches its commit log for the next batch,
and its progress reports are read once the run is over. Prints one JSON object.

``--plan-walk`` makes the plain mode read the query's operators from its analyzed plan before
starting it, as ``execute()`` does (to measure what that walk costs on its own).

Run by ``jobs.py``; ``--kill-after N`` makes the driver SIGKILL itself after N committed
batches, ``--first-batch`` makes it exit at its first committed batch (for recovery timing).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import signal
import statistics
import sys
import threading
import time
from typing import Any, Dict, List

from common import count_commands

JOB_NAME = "bench"
SINK = "sink"
SCHEMA = "k LONG, v LONG"
PROVIDERS = {
    "hashmap": "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider",
    "rocksdb": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
}


class StateFiles:
    """Every file ever seen under the query's ``state`` directory, with its size (a thread
    looks every 50 ms, so files that maintenance deletes later are still counted)."""

    def __init__(self, root: str):
        self.root = root
        self.seen: Dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _scan(self) -> None:
        for folder, _, files in os.walk(self.root):
            for name in files:
                path = os.path.join(folder, name)
                if path not in self.seen and not name.startswith(".") and not name.endswith(".tmp"):
                    try:
                        self.seen[path] = os.path.getsize(path)
                    except OSError:
                        pass

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self._scan()

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        self._scan()
        return sum(self.seen.values())


class CommitWatcher:
    """Follows a query through the files of its commit log: a thread looks for the next
    batch's commit every few milliseconds (plain file checks, no JVM call), so that watching
    costs both sides the same and next to nothing. A listener in Python would not: PySpark
    turns every progress event into Python objects with hundreds of py4j commands.

    The progress reports (durations, rows, state) are read from the query once the run is
    over; the query is found among the session's active ones at its first commit.
    """

    PAUSE = 0.005

    def __init__(self, commits: str, spark: Any, args: Any, started: float, steady: "SteadyState"):
        self.commits = commits
        self.spark = spark
        self.args = args
        self.steady = steady
        self.done = threading.Event()
        #: the commits of this run (a restart finds those of the run before it)
        self.seen: List[int] = []
        self.query: Any = None
        self.started = started
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _committed(self) -> List[int]:
        try:
            return sorted(int(name) for name in os.listdir(self.commits) if name.isdigit())
        except OSError:
            return []

    def _run(self) -> None:
        before = self._committed()
        following = before[-1] + 1 if before else 0
        while not self.done.is_set():
            if not os.path.exists(os.path.join(self.commits, str(following))):
                time.sleep(self.PAUSE)
                continue
            self.seen.append(following)
            following += 1
            self._committed_batch()

    def _committed_batch(self) -> None:
        args, count = self.args, len(self.seen)
        self.steady.mark(count)
        if args.first_batch:
            print(json.dumps({"first_batch_s": time.time() - self.started,
                              "batch_id": self.seen[-1]}), flush=True)
            os._exit(0)
        if args.kill_after and count >= args.kill_after:
            print(json.dumps({"killed_after_batch": self.seen[-1]}), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        if self.query is None:
            self.query = self.spark.streams.active[0]
        if count >= args.files:
            self.done.set()

    def progress(self) -> List[Dict[str, Any]]:
        """The query's progress reports, oldest first (read after the run)."""
        return [json.loads(p.json()) for p in self.query._jsq.recentProgress()] if self.query else []


def jvm_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux ``/proc``)."""
    with open("/proc/{}/stat".format(pid)) as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class SteadyState:
    """CPU between the first and the last committed batch, so that starting the JVM and the
    query is left out: the JVM's and this process's, and (``compat`` mode) the supervising
    thread's CPU and the py4j commands it sends (py4j's memory releases, sent by its
    finalizer, are left out)."""

    THREAD = "pyflink_compat-job"

    def __init__(self, gateway_client: Any, jvm_pid: int, supervised: bool):
        self.jvm_pid = jvm_pid
        #: (commands, supervisor CPU s, JVM CPU s, process CPU s, batches) at the first and
        #: the latest committed batch
        self.first: Any = None
        self.last: Any = None
        self.sent = [0]
        if supervised:
            self.sent = count_commands(gateway_client, lambda command: (
                threading.current_thread().name == self.THREAD and not command.startswith("m\n")))

    def mark(self, batches: int) -> None:
        point = (self.sent[0], self.thread_cpu_s(), jvm_cpu_seconds(self.jvm_pid),
                 time.process_time(), batches)
        if self.first is None:
            self.first = point
        self.last = point

    def per_batch(self) -> Dict[str, float]:
        names = ("commands", "supervisor_cpu_ms", "jvm_cpu_ms", "python_cpu_ms")
        if self.first is None or self.last[4] <= self.first[4]:
            return dict.fromkeys(names, 0.0)
        batches = self.last[4] - self.first[4]
        scale = (1.0, 1e3, 1e3, 1e3)
        return {name: k * (b - a) / batches
                for name, k, a, b in zip(names, scale, self.first, self.last)}

    def thread_cpu_s(self) -> float:
        for thread in threading.enumerate():
            if thread.name == self.THREAD and thread.ident is not None:
                try:
                    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
                except OSError:
                    return 0.0
        return 0.0


def command_cost_ms(spark: Any, jvm_pid: int, calls: int = 3000) -> Dict[str, float]:
    """CPU of one cheap py4j command on each side, in ms (averaged over ``calls``)."""
    j_context = spark.sparkContext._jsc.sc()
    jvm0, py0 = jvm_cpu_seconds(jvm_pid), time.process_time()
    for _ in range(calls):
        j_context.isStopped()
    return {"jvm": 1e3 * (jvm_cpu_seconds(jvm_pid) - jvm0) / calls,
            "python": 1e3 * (time.process_time() - py0) / calls}


def main() -> Dict[str, Any]:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("compat", "plain"))
    parser.add_argument("pipeline", choices=("stateless", "stateful"))
    parser.add_argument("--input", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--files", type=int, required=True, help="input files (one per batch)")
    parser.add_argument("--backend", choices=("hashmap", "rocksdb"), default="hashmap")
    parser.add_argument("--interval", type=int, default=10, help="checkpoint interval, ms")
    parser.add_argument("--kill-after", type=int, default=0)
    parser.add_argument("--first-batch", action="store_true")
    parser.add_argument("--plan-walk", action="store_true",
                        help="plain mode: read the query's operators as execute() does before it starts")
    parser.add_argument("--state-bytes", action="store_true",
                        help="count the state bytes written (a thread scans the state folder every 50 ms)")
    args = parser.parse_args()
    started = time.time()

    from pyspark.sql import SparkSession

    base = (SparkSession.builder.master("local[2]").appName("bench")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    base.sparkContext.setLogLevel("ERROR")
    root = "file://" + os.path.join(args.work, "checkpoints")
    location = os.path.join(args.work, "checkpoints", JOB_NAME, SINK)

    if args.mode == "compat":
        from pyflink_compat.common import Configuration
        from pyflink_compat.datastream import StreamExecutionEnvironment

        config = Configuration()
        config.set_string("execution.checkpointing.dir", root)
        config.set_string("state.backend.type", args.backend)
        config.set_string("execution.checkpointing.incremental", "true")
        env = StreamExecutionEnvironment.get_execution_environment(config)
        env.enable_checkpointing(args.interval)
        spark = env.spark_session
    else:
        spark = base.newSession()
        spark.conf.set("spark.sql.streaming.stateStore.providerClass", PROVIDERS[args.backend])
        spark.conf.set("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled",
                       "true" if args.backend == "rocksdb" else "false")
        spark.conf.set("spark.sql.streaming.minBatchesToRetain", "1")

    source = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(args.input)
    if args.pipeline == "stateless":
        writer = source.writeStream.format("parquet").option(
            "path", os.path.join(args.work, "out"))
    else:
        writer = source.groupBy("k").sum("v").writeStream.outputMode("update").format("noop")
    state_files = StateFiles(os.path.join(location, "state")) if args.state_bytes else None
    jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    jvm_cpu0, py_cpu0 = jvm_cpu_seconds(jvm_pid), time.process_time()
    steady = SteadyState(spark.sparkContext._gateway._gateway_client, jvm_pid,
                         supervised=args.mode == "compat")
    watcher = CommitWatcher(os.path.join(location, "commits"), spark, args, started, steady)
    watcher.start()
    t0, t0_wall = time.perf_counter(), time.time()
    if args.mode == "compat":
        env.add_sink(writer, name=SINK, bounded=True)
        client = env.execute_async(JOB_NAME)
        watcher.done.wait()
        committed_all = time.perf_counter()
        cpu_at_commit = jvm_cpu_seconds(jvm_pid), time.process_time()
        client.get_job_execution_result().result()
    else:
        if args.plan_walk:
            from pyflink_compat.spark.query_introspection import plan_nodes

            plan_nodes(writer)
        query = (writer.trigger(processingTime="{} milliseconds".format(args.interval))
                 .option("checkpointLocation", "file://" + location).start())
        watcher.done.wait()
        committed_all = time.perf_counter()
        cpu_at_commit = jvm_cpu_seconds(jvm_pid), time.process_time()
        query.stop()
    # Wall and CPU time end when the last input is committed; the end of the run (a bounded
    # job noticing its input is exhausted and deleting its checkpoints, or a query stopped by
    # hand) is reported apart.
    ended = time.perf_counter()
    wall = committed_all - t0
    jvm_cpu, py_cpu = cpu_at_commit[0] - jvm_cpu0, cpu_at_commit[1] - py_cpu0
    state_bytes = state_files.stop() if state_files is not None else None
    progress = watcher.progress()
    batches = [p for p in progress if p["numInputRows"] > 0]
    if len(batches) != args.files or len(batches) != len(watcher.seen):
        raise SystemExit("expected {} batches with input, one per commit; the query reported {} "
                         "and committed {}".format(args.files, len(batches), len(watcher.seen)))
    durations = [p["durationMs"]["triggerExecution"] for p in batches]
    rows = sum(p["numInputRows"] for p in batches)
    busy_s = sum(durations) / 1e3
    commits = [p["stateOperators"][0]["commitTimeMs"] for p in batches if p.get("stateOperators")]
    peak_rss = 0
    with open("/proc/{}/status".format(jvm_pid)) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak_rss = int(line.split()[1]) * 1024
    # from asking for the query (execute_async, or start by hand) to its first trigger
    first_trigger = datetime.datetime.strptime(progress[0]["timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ") \
        .replace(tzinfo=datetime.timezone.utc).timestamp() if progress else t0_wall
    watched = steady.per_batch()
    extra = {"steady_jvm_cpu_ms_per_batch": watched["jvm_cpu_ms"],
             "steady_python_cpu_ms_per_batch": watched["python_cpu_ms"]}
    if args.mode == "compat":
        cost = command_cost_ms(spark, jvm_pid)
        batch_cpu = watched["jvm_cpu_ms"] + watched["python_cpu_ms"]
        extra.update({
            "supervisor_commands_per_batch": watched["commands"],
            "supervisor_cpu_ms_per_batch": watched["supervisor_cpu_ms"],
            "command_jvm_cpu_us": 1e3 * cost["jvm"],
            "command_python_cpu_us": 1e3 * cost["python"],
            # what supervising costs a batch (its thread's CPU and the JVM's side of its
            # commands) as a share of the CPU a batch costs in both processes
            "supervisor_cpu_share": (watched["supervisor_cpu_ms"] + watched["commands"] * cost["jvm"])
            / batch_cpu if batch_cpu else 0.0,
        })
    if state_bytes is not None:
        extra["state_bytes_per_checkpoint"] = state_bytes / max(len(batches), 1)
    return {
        **extra,
        "start_to_first_trigger_s": first_trigger - t0_wall,
        "batches": len(batches),
        "rows": rows,
        "per_batch_ms": statistics.median(durations) if durations else 0.0,
        # the first batch (JIT compilation, state store set-up) apart from the others
        "first_batch_ms": float(durations[0]) if durations else 0.0,
        "later_batches_s": sum(durations[1:]) / 1e3,
        "rows_per_s": rows / wall if wall else 0.0,
        "rows_per_busy_s": rows / busy_s if busy_s else 0.0,
        "wall_s": wall,
        "end_of_run_s": ended - committed_all,
        "commit_ms": statistics.median(commits) if commits else 0.0,
        "driver_peak_rss_mb": peak_rss / 2**20,
        # CPU time is far less disturbed by other work on the machine than wall time
        "jvm_cpu_ms_per_batch": 1e3 * jvm_cpu / max(len(batches), 1),
        "python_cpu_ms_per_batch": 1e3 * py_cpu / max(len(batches), 1),
    }


if __name__ == "__main__":
    print(json.dumps(main()), flush=True)
    sys.stdout.flush()
    os._exit(0)
