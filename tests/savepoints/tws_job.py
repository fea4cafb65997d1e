"""Run in a process of its own by test_transform_with_state.py, whose Spark session needs the
test's transformWithState processor on its class path: runs a transformWithState query, takes a
savepoint, moves the original checkpoint away, restores the savepoint to a new location and
runs the restored query on more input. Prints what each run emitted as one JSON document.

Usage: ``python -m tests.savepoints.tws_job JAR WORK_DIR``
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

from pyflink_compat.checkpoints import read_state, restore_query, verify, write_savepoint

from tests._helpers.files import write_input
from tests.savepoints._queries import ROCKSDB, rows_of, run_until_idle


def start(spark: Any, input_dir: str, checkpoint: str, out: List[str]) -> Any:
    """The running counts into ``out`` (a memory sink cannot resume from a checkpoint in update
    mode; ``foreachBatch`` can)."""
    from pyspark.sql import DataFrame

    def write_batch(frame: Any, batch_id: int) -> None:
        out.extend(row["out"] for row in frame.collect())

    events = spark.readStream.schema("k string, v int").json(input_dir)
    counts = DataFrame(spark._jvm.RunningCount.build(events._jdf), spark)
    return (counts.writeStream.outputMode("update").foreachBatch(write_batch)
            .option("checkpointLocation", checkpoint).start())


def main(jar: str, work: str) -> None:
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("tws-restore")
             .config("spark.jars", jar).config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2")
             .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    input_dir = os.path.join(work, "input")
    original = os.path.join(work, "original")
    result: Dict[str, Any] = {}
    try:
        write_input(input_dir, "f0.json", rows_of("aab", 0))
        first: List[str] = []
        query = start(spark, input_dir, original, first)
        try:
            run_until_idle(query)
            write_input(input_dir, "f1.json", rows_of("ac", 10))
            run_until_idle(query)
        finally:
            query.stop()
        result["original"] = sorted(first)
        savepoint = write_savepoint(original, os.path.join(work, "savepoints"), "tws", link=False)
        os.rename(original, original + "-moved-away")  # the absolute schema path now leads nowhere
        restored = restore_query(savepoint, os.path.join(work, "restored"))
        result["restored_batch"] = restored.batch_id
        with open(os.path.join(work, "restored", "state", "0", "_metadata", "v2", "0")) as stream:
            result["restored_metadata"] = stream.read()
        write_input(input_dir, "f2.json", rows_of("abd", 20))
        second: List[str] = []
        query = start(spark, input_dir, restored.location, second)
        try:
            run_until_idle(query)
        finally:
            query.stop()
        result["restored"] = sorted(second)
        state = read_state(restored.location, spark=spark)
        result["state"] = {"operators": state["operators"], "state_var": state["state_var"],
                           "rows": sorted((r["key"]["value"], r["value"]["value"]) for r in state["rows"])}
        result["savepoint_intact"] = verify(savepoint)["ok"]
    finally:
        spark.stop()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
