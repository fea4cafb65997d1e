"""A pyflink_compat job run in its own process, to be killed with SIGKILL and re-run.

Usage: ``python crash_job.py <input dir> <output dir> <checkpoint dir> stateless|stateful
[at_least_once | savepoints <dir> | stop <dir>]``: ``at_least_once`` checkpoints in
``AT_LEAST_ONCE`` mode; ``savepoints`` triggers savepoints into ``<dir>`` one after the other
while the job runs, printing ``SAVEPOINT <path>`` for each; ``stop`` stops the job with a
savepoint into ``<dir>`` once it has committed two batches, printing ``STOPPING`` before and
``STOPPED <path>`` after.

It starts its own local Spark, checkpoints every 200 ms into ``FileSystemCheckpointStorage``
(retained), reads the JSON files of the input one per micro-batch and writes:

* stateless: every record to a parquet file sink (``<output>/parquet``) and, through
  ``foreachBatch``, to ``<output>/batches/batch_id=<n>.json`` (idempotent overwrite);
* stateful: a running count per key (update mode), through ``foreachBatch``, to
  ``<output>/counts/batch_id=<n>.json``.

Each ``foreachBatch`` call is also logged to ``<output>/calls.log`` as ``<pid> <batch id>``.

All sinks are bounded: the job finishes once the input is consumed, then prints ``FINISHED``.
"""

from __future__ import annotations

import json
import os
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

JOB_NAME = "crash-job"
SCHEMA = "id LONG, key STRING"


def batch_writer(directory: str, calls: str):
    os.makedirs(directory, exist_ok=True)

    def write(df, batch_id: int) -> None:
        with open(calls, "a") as log:  # which process ran which batch: shows where runs resumed
            log.write("{} {}\n".format(os.getpid(), batch_id))
        rows = [row.asDict() for row in df.collect()]
        target = os.path.join(directory, "batch_id={}.json".format(batch_id))
        with open(target + ".tmp", "w") as f:
            json.dump(rows, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(target + ".tmp", target)  # a replayed batch overwrites its earlier output

    return write


def main(argv: list) -> int:
    input_dir, output_dir, checkpoint_dir, mode = argv[1:5]
    if mode not in ("stateless", "stateful"):
        raise SystemExit("mode must be stateless or stateful, got {!r}".format(mode))
    # "interval_mode" anywhere after them: one micro-batch per checkpoint interval, set as a
    # submitted Spark conf would set it
    trigger_mode = "CHECKPOINT_INTERVAL" if "interval_mode" in argv[5:] else "LATENCY"
    argv = [a for a in argv if a != "interval_mode"]
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]")
             .appName("pyflink_compat-crash-driver")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.ui.showConsoleProgress", "false")
             # A short-lived driver: C1-only JIT and serial GC halve the time to the first commit.
             .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
             .config("spark.local.dir", os.path.join(output_dir, "_spark_local"))
             .config("spark.flink.compat.trigger.mode", trigger_mode)
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import (CheckpointingMode, ExternalizedCheckpointRetention,
                                           FileSystemCheckpointStorage, StreamExecutionEnvironment)

    env = StreamExecutionEnvironment.get_execution_environment(
        Configuration().set_string("restart-strategy.type", "none"))
    if argv[5:6] == ["at_least_once"]:
        env.enable_checkpointing(200, CheckpointingMode.AT_LEAST_ONCE)
    else:
        env.enable_checkpointing(200)
    config = env.get_checkpoint_config()
    config.set_checkpoint_storage(FileSystemCheckpointStorage("file://" + os.path.abspath(checkpoint_dir)))
    config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)

    calls = os.path.join(output_dir, "calls.log")
    stream = (env.spark_session.readStream.schema(SCHEMA)
              .option("maxFilesPerTrigger", 1).json(input_dir))
    if mode == "stateless":
        env.add_sink(stream.writeStream.format("parquet")
                     .option("path", os.path.join(output_dir, "parquet")), "parquet", bounded=True)
        env.add_sink(stream.writeStream.foreachBatch(batch_writer(os.path.join(output_dir, "batches"), calls)),
                     "batches", bounded=True)
    else:
        counts = stream.groupBy("key").count()
        env.add_sink(counts.writeStream.outputMode("update")
                     .foreachBatch(batch_writer(os.path.join(output_dir, "counts"), calls)),
                     "counts", bounded=True)
    print("STARTING", flush=True)
    if argv[5:6] in (["savepoints"], ["stop"]):
        _with_savepoints(env, argv[5], argv[6], checkpoint_dir)
    else:
        env.execute(JOB_NAME)
    print("FINISHED", flush=True)
    spark.stop()
    return 0


def _with_savepoints(env, what: str, directory: str, checkpoint_dir: str) -> None:
    """Run the job while taking savepoints of it, as an operator would from its client."""
    import time

    client = env.execute_async(JOB_NAME)
    commits = os.path.join(checkpoint_dir, JOB_NAME, "counts", "commits")
    while len([n for n in (os.listdir(commits) if os.path.isdir(commits) else []) if n.isdigit()]) < 2:
        time.sleep(0.02)
    if what == "stop":
        print("STOPPING", flush=True)
        print("STOPPED", client.stop_with_savepoint(False, directory).result(120), flush=True)
        return
    while not client.get_job_status().result().is_globally_terminal_state():
        try:
            print("SAVEPOINT", client.trigger_savepoint(directory).result(120), flush=True)
        except Exception as e:  # the job finished meanwhile
            print("NO SAVEPOINT", e, flush=True)
    client.get_job_execution_result().result()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
