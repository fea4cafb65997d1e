"""A PyFlink job ported to Spark with pyflink_compat: the main job of this repository.

The checkpoint configuration below is PyFlink code, unchanged but for the imports. The
pipeline, which in Flink would be a DataStream program, is written in PySpark: it reads
order events (JSON files, generated here), keeps a running revenue per product (stateful),
and copies every order to a Parquet table (stateless). Both sinks are bounded, so the job
ends on its own once all input is processed; the checkpoints it completed are printed.

Without ``--checkpoint-dir`` everything lives in a temporary directory removed at the end.
With it, the checkpoints are kept there and the input and output in ``--data-dir`` (by
default ``data`` beside the checkpoint directory). Run it again with the same
``--checkpoint-dir``: the job adds new order files, resumes from the retained checkpoints and
processes only the new orders; the archive then holds every order exactly once.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import sys
import tempfile
from typing import Tuple

from pyflink_compat._logging import install_default_handler
from pyflink_compat.common import Configuration
from pyflink_compat.datastream import (
    CheckpointingMode,
    ExternalizedCheckpointCleanup,
    StreamExecutionEnvironment,
)


def add_orders(directory: str, files: int, per_file: int) -> Tuple[int, int]:
    """Add ``files`` JSON files of order events after those already in ``directory``.

    Order ids continue from the orders already there, so every order is unique across runs.
    Each file is written under a hidden name and then renamed, so the streaming source never
    reads half a file.

    :return: How many orders were added, and how many there are now in all.
    """
    os.makedirs(directory, exist_ok=True)
    existing = sorted(glob.glob(os.path.join(directory, "orders-*.json")))
    next_id = 0
    for path in existing:
        with open(path) as handle:
            next_id += sum(1 for _ in handle)
    products = ["apple", "bread", "cheese", "dates", "eggs"]
    for n in range(len(existing), len(existing) + files):
        rng = random.Random(n)
        hidden = os.path.join(directory, ".orders-%04d.json" % n)
        with open(hidden, "w") as out:
            for _ in range(per_file):
                order = {"order_id": next_id, "product": rng.choice(products),
                         "amount": rng.randint(1, 20)}
                out.write(json.dumps(order) + "\n")
                next_id += 1
        os.replace(hidden, os.path.join(directory, "orders-%04d.json" % n))
    return files * per_file, next_id


def start_spark_quietly() -> None:
    """Start the local Spark session with Spark's own log at ERROR from the first line on.

    pyflink_compat uses the active Spark session when there is one, and would otherwise start
    a local one itself with Spark's default (chatty) log settings.
    """
    from pyspark.sql import SparkSession

    log_config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
    # more driver JVM options, for example a faster start for a short run (the tests use it)
    java_options = "-Dlog4j2.configurationFile=file:{} {}".format(
        log_config, os.environ.get("PORTED_JOB_JAVA_OPTIONS", ""))
    (SparkSession.builder.master("local[*]").appName("ported-job")
     .config("spark.driver.extraJavaOptions", java_options.strip())
     .config("spark.ui.showConsoleProgress", "false")
     .config("spark.sql.shuffle.partitions", str(os.cpu_count() or 1))
     .getOrCreate())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint-dir",
                        help="where checkpoints are kept between runs (default: a temp dir, removed)")
    parser.add_argument("--data-dir",
                        help="input and output of the job (default: 'data' beside --checkpoint-dir)")
    parser.add_argument("--files", type=int, default=4, help="new input files to add")
    parser.add_argument("--per-file", type=int, default=250, help="orders per file")
    parser.add_argument("--plan", action="store_true",
                        help="print what every setting does on Spark before the job starts")
    args = parser.parse_args(argv)

    work = None
    if args.checkpoint_dir is None:
        work = tempfile.mkdtemp(prefix="ported-job-")
        checkpoint_dir = os.path.join(work, "checkpoints")
        data_dir = args.data_dir or os.path.join(work, "data")
    else:
        checkpoint_dir = os.path.abspath(args.checkpoint_dir)
        data_dir = args.data_dir or os.path.join(os.path.dirname(checkpoint_dir), "data")
    # The input must stay where it was: the checkpoints record the files already read by
    # their full paths, and Spark refuses to resume a file source from another directory.
    orders_dir = os.path.join(os.path.abspath(data_dir), "orders")
    archive_dir = os.path.join(os.path.abspath(data_dir), "archive")
    revenue_dir = os.path.join(os.path.abspath(data_dir), "revenue")
    added, total = add_orders(orders_dir, args.files, args.per_file)
    start_spark_quietly()
    # the job log (one line per checkpoint) on standard error, as the package shows it when the
    # application configures no logging; a no-op once the package installs it at job start
    install_default_handler()

    # --- PyFlink checkpoint configuration, as it was in the Flink job -------------------
    config = Configuration()
    config.set_string("restart-strategy.type", "fixed-delay")
    config.set_string("restart-strategy.fixed-delay.attempts", "3")
    config.set_string("execution.checkpointing.storage", "filesystem")
    config.set_string("execution.checkpointing.dir", "file://" + checkpoint_dir)
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

    # --- the pipeline, now in PySpark ----------------------------------------------------
    spark = env.spark_session
    orders = (spark.readStream.schema("order_id LONG, product STRING, amount LONG")
              .option("maxFilesPerTrigger", 1).json(orders_dir))
    revenue = orders.groupBy("product").sum("amount").withColumnRenamed("sum(amount)", "revenue")

    def write_revenue(batch, batch_id):
        # idempotent per batch id, so a replayed batch overwrites instead of duplicating
        batch.write.mode("overwrite").parquet(os.path.join(revenue_dir, "batch_id=%d" % batch_id))

    env.add_sink(revenue.writeStream.outputMode("update").foreachBatch(write_revenue),
                 name="revenue", bounded=True)
    env.add_sink(orders.writeStream.format("parquet").option("path", archive_dir),
                 name="archive", bounded=True)

    if args.plan:
        print(env.get_job_plan("orders") + "\n")
    print("Input: %d new orders in %s (%d in all)" % (added, orders_dir, total))
    client = env.execute_async("orders")
    result = client.get_job_execution_result().result()

    stats = client.get_checkpoint_statistics()
    print("\nCompleted checkpoints:")
    for checkpoint in stats:
        print("  " + str(checkpoint))
    processed = sum(c.num_input_rows for c in stats if c.sink == "archive")
    archive = spark.read.parquet(archive_dir)
    archived = archive.count()
    distinct = archive.select("order_id").distinct().count()
    print("\n%s" % result)
    print("orders added: %d, processed by this run: %d, archived: %d of %d, each exactly once: %s"
          % (added, processed, archived, total, archived == distinct == total))
    env.close()
    if work is not None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
