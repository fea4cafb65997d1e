"""A ported job program as ``pyflink-compat run`` starts it: its code sets no checkpoint option;
they all come from the command's configuration (``-D``, ``FLINK_CONF_DIR``).

Usage: ``orders_job.py <input dir> <output dir> <job name> [bounded] [v2] [busy]``. It reads the
JSON files of the input one per micro-batch and writes each batch's rows, through
``foreachBatch``, to ``<output>/batch_id=<n>.json`` (an idempotent overwrite). ``bounded``: the
job finishes once the input is consumed. ``v2``: the changed pipeline of an upgrade, which also
writes each key in upper case. ``busy``: each batch first writes ``<output>/busy`` and then runs
a Spark job that takes minutes, so that a stop or cancel comes in the middle of a batch.
"""

from __future__ import annotations

import json
import os
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

SCHEMA = "id LONG, key STRING"


def batch_writer(directory: str, busy: bool = False):
    os.makedirs(directory, exist_ok=True)

    def write(df, batch_id: int) -> None:
        if busy:
            open(os.path.join(directory, "busy"), "w").close()
            df.sparkSession.range(0, 10 ** 12, numPartitions=2).selectExpr("sum(id)").collect()
        rows = [row.asDict() for row in df.collect()]
        target = os.path.join(directory, "batch_id={}.json".format(batch_id))
        with open(target + ".tmp", "w") as f:
            json.dump(rows, f)
        os.replace(target + ".tmp", target)

    return write


def main(argv: list) -> int:
    input_dir, output_dir, name = argv[1:4]
    options = argv[4:]
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    spark = env.spark_session
    spark.sparkContext.setLogLevel("ERROR")
    stream = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(input_dir)
    if "v2" in options:
        stream = stream.selectExpr("id", "key", "upper(key) AS key_upper")
    writer = stream.writeStream.foreachBatch(batch_writer(output_dir, "busy" in options))
    env.add_sink(writer, "rows", bounded="bounded" in options)
    print("STARTING", flush=True)
    env.execute(name)
    print("FINISHED", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
