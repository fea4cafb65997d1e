"""A PyFlink job ported to Spark with pyflink_compat: the main job of this repository.

The checkpoint configuration below is PyFlink code, unchanged but for the imports. The
pipeline, which in Flink would be a DataStream program, is written in PySpark: it reads
order events (JSON files, generated here), keeps a running revenue per product (stateful),
and copies every order to a Parquet table (stateless). Both sinks are bounded, so the job
ends on its own once all input is processed; the checkpoints it completed are printed.

Run it twice with the same ``--checkpoint-dir`` and the second run resumes from the
retained checkpoints instead of processing the input again.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import sys
import tempfile

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import (
    CheckpointingMode,
    ExternalizedCheckpointCleanup,
    FileSystemCheckpointStorage,
    StreamExecutionEnvironment,
)


def write_orders(directory: str, files: int, per_file: int, seed: int = 7) -> int:
    """Generate ``files`` JSON files of order events; return how many orders there are."""
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(seed)
    products = ["apple", "bread", "cheese", "dates", "eggs"]
    for n in range(files):
        with open(os.path.join(directory, "orders-%03d.json" % n), "w") as out:
            for i in range(per_file):
                order = {"order_id": n * per_file + i, "product": rng.choice(products),
                         "amount": rng.randint(1, 20)}
                out.write(json.dumps(order) + "\n")
    return files * per_file


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint-dir", help="where checkpoints are kept (default: a temp dir)")
    parser.add_argument("--files", type=int, default=8, help="input files to generate")
    parser.add_argument("--per-file", type=int, default=250, help="orders per file")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("py4j").setLevel(logging.WARNING)
    work = tempfile.mkdtemp(prefix="ported-job-")
    checkpoint_dir = args.checkpoint_dir or os.path.join(work, "checkpoints")
    total = write_orders(os.path.join(work, "orders"), args.files, args.per_file)

    # --- PyFlink checkpoint configuration, as it was in the Flink job -------------------
    config = Configuration()
    config.set_string("restart-strategy.type", "fixed-delay")
    config.set_string("restart-strategy.fixed-delay.attempts", "3")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    # start a checkpoint every 1000 ms
    env.enable_checkpointing(1000)
    # set mode to exactly-once (this is the default)
    env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)
    # checkpoints have to complete within one minute, or are discarded
    env.get_checkpoint_config().set_checkpoint_timeout(60000)
    # only two consecutive checkpoint failures are tolerated
    env.get_checkpoint_config().set_tolerable_checkpoint_failure_number(2)
    # allow only one checkpoint to be in progress at the same time
    env.get_checkpoint_config().set_max_concurrent_checkpoints(1)
    # keep the checkpoints when the job is cancelled
    env.get_checkpoint_config().enable_externalized_checkpoints(
        ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)
    # durable checkpoints in a file system
    env.get_checkpoint_config().set_checkpoint_storage(
        FileSystemCheckpointStorage("file://" + os.path.abspath(checkpoint_dir)))
    # --- the pipeline, now in PySpark ----------------------------------------------------
    spark = env.spark_session
    spark.sparkContext.setLogLevel("ERROR")
    orders = (spark.readStream.schema("order_id LONG, product STRING, amount LONG")
              .option("maxFilesPerTrigger", 1).json(os.path.join(work, "orders")))
    revenue = orders.groupBy("product").sum("amount").withColumnRenamed("sum(amount)", "revenue")
    revenue_dir = os.path.join(work, "revenue")

    def write_revenue(batch, batch_id):
        # idempotent per batch id, so a replayed batch overwrites instead of duplicating
        batch.write.mode("overwrite").parquet(os.path.join(revenue_dir, "batch_id=%d" % batch_id))

    env.add_sink(revenue.writeStream.outputMode("update").foreachBatch(write_revenue),
                 name="revenue", bounded=True)
    env.add_sink(orders.writeStream.format("parquet").option("path", os.path.join(work, "archive")),
                 name="archive", bounded=True)

    print(env.get_job_plan("orders"))
    client = env.execute_async("orders")
    result = client.get_job_execution_result().result()

    stats = client.get_checkpoint_statistics()
    print("\nCompleted checkpoints:")
    for checkpoint in stats:
        print("  " + str(checkpoint))
    archived = spark.read.parquet(os.path.join(work, "archive")).count()
    print("\n%s" % result)
    print("orders generated: %d, archived exactly once: %s, checkpoints completed: %d"
          % (total, archived == total if stats else "resumed, nothing new", len(stats)))
    if args.checkpoint_dir is None:
        shutil.rmtree(work, ignore_errors=True)
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
