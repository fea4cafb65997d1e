"""A ported job for ``spark-submit`` onto a cluster: it lets pyflink_compat start the session.

Usage: ``spark-submit --master <url> ... cluster_job.py <input dir> <output dir> <checkpoint dir>
stateless|stateful|both|latency``

Unlike the local crash driver it builds no session itself: ``get_execution_environment()``
starts it from what was submitted. It checkpoints every 200 ms into
``FileSystemCheckpointStorage`` (retained), reads the JSON files of the input one per
micro-batch and writes:

* stateless: every record to a parquet file sink (``<output>/parquet``);
* stateful: a running count per key (update mode), through ``foreachBatch``, to
  ``<output>/counts/batch_id=<n>.json``;
* both: the two sinks above, as two queries of one job;
* latency: checkpointing every minute, when each input file reaches a ``foreachBatch`` sink,
  to ``<output>/seen.jsonl``, until ``<output>/STOP`` appears (``<output>/READY`` once the
  first batch ran).

The first three run one micro-batch per checkpoint interval. It prints the master, application
id and shuffle partitions its session runs with, the batch ids it completed (one checkpoint
each) and ``FINISHED`` once the (bounded) sinks have consumed the input.
"""

from __future__ import annotations

import json
import os
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

JOB_NAME = "cluster-job"
SCHEMA = "id LONG, key STRING"


def count_writer(directory: str):
    os.makedirs(directory, exist_ok=True)

    def write(df, batch_id: int) -> None:
        rows = [row.asDict() for row in df.collect()]
        target = os.path.join(directory, "batch_id={}.json".format(batch_id))
        with open(target + ".tmp", "w") as f:
            json.dump(rows, f)
        os.replace(target + ".tmp", target)  # a replayed batch overwrites its earlier output

    return write


def _latency(input_dir: str, output_dir: str, checkpoint_dir: str) -> int:
    """Checkpoint every minute (in the default trigger mode) and note when each input file
    reaches a foreachBatch sink, until ``<output>/STOP`` appears."""
    import time

    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(60000)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + os.path.abspath(checkpoint_dir))
    spark = env.spark_session
    spark.sparkContext.setLogLevel("ERROR")
    os.makedirs(output_dir, exist_ok=True)
    seen = os.path.join(output_dir, "seen.jsonl")

    def note(df, batch_id: int) -> None:
        from pyspark.sql.functions import input_file_name

        now = time.time()
        files = [os.path.basename(str(r["f"])) for r in df.select(input_file_name().alias("f")).distinct().collect()]
        with open(seen, "a") as log:
            log.writelines(json.dumps({"file": f, "at": now, "batch": batch_id}) + "\n" for f in files)
        if not os.path.exists(os.path.join(output_dir, "READY")):
            open(os.path.join(output_dir, "READY"), "w").close()

    env.add_sink(spark.readStream.schema(SCHEMA).json(input_dir).writeStream.foreachBatch(note), "events")
    print("MASTER", spark.sparkContext.master, flush=True)
    client = env.execute_async(JOB_NAME)
    while not os.path.exists(os.path.join(output_dir, "STOP")):
        time.sleep(0.1)
    client.cancel().result(120)
    print("FINISHED", flush=True)
    env.close()
    spark.stop()
    return 0


def main(argv: list) -> int:
    input_dir, output_dir, checkpoint_dir, mode = argv[1:5]
    if mode == "latency":
        return _latency(input_dir, output_dir, checkpoint_dir)
    if mode not in ("stateless", "stateful", "both"):
        raise SystemExit("mode must be stateless, stateful, both or latency, got {!r}".format(mode))

    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import (ExternalizedCheckpointRetention,
                                           FileSystemCheckpointStorage, StreamExecutionEnvironment)

    config = Configuration()
    config.set_string("compat.trigger.mode", "CHECKPOINT_INTERVAL")
    config.set_string("restart-strategy.type", "fixed-delay")
    config.set_string("restart-strategy.fixed-delay.attempts", "3")
    config.set_string("restart-strategy.fixed-delay.delay", "1 s")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.enable_checkpointing(200)
    checkpoints = env.get_checkpoint_config()
    checkpoints.set_checkpoint_storage(FileSystemCheckpointStorage("file://" + os.path.abspath(checkpoint_dir)))
    checkpoints.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)

    spark = env.spark_session
    spark.sparkContext.setLogLevel("ERROR")
    print("MASTER", spark.sparkContext.master, flush=True)
    print("APP", spark.sparkContext.applicationId, flush=True)
    print("SHUFFLE_PARTITIONS", spark.conf.get("spark.sql.shuffle.partitions"), flush=True)

    stream = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(input_dir)
    if mode != "stateful":
        env.add_sink(stream.writeStream.format("parquet")
                     .option("path", os.path.join(output_dir, "parquet")), "parquet", bounded=True)
    if mode != "stateless":
        env.add_sink(stream.groupBy("key").count().writeStream.outputMode("update")
                     .foreachBatch(count_writer(os.path.join(output_dir, "counts"))),
                     "counts", bounded=True)
    print("STARTING", flush=True)
    client = env.execute_async(JOB_NAME)
    client.get_job_execution_result().result()
    # One completed checkpoint per micro-batch this run ran (one batch per interval): shows
    # where it resumed.
    for sink in ("parquet", "counts"):
        print("BATCHES", sink, " ".join(str(s.batch_id) for s in client.get_checkpoint_statistics()
                                        if s.sink == sink), flush=True)
    print("FINISHED", flush=True)
    env.close()
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
