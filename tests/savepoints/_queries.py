"""Queries started straight from PySpark for the savepoint tests: stateful counts into a memory
table and stateless rows into one file per batch, over JSON files of ``k`` and ``v``."""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any, Dict, Iterator, List

HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
SCHEMA = "k string, v int"


def rows_of(keys: str, start: int) -> List[Dict[str, Any]]:
    """One row per character of ``keys``, with values counting up from ``start``."""
    return [{"k": k, "v": start + i} for i, k in enumerate(keys)]


@contextlib.contextmanager
def session_conf(spark: Any, values: Dict[str, str]) -> Iterator[None]:
    """Set session confs for the duration of a block, then put the old values back."""
    old = {key: spark.conf.get(key, None) for key in values}
    for key, value in values.items():
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)


def start_counts(spark: Any, input_dir: str, checkpoint: str, name: str) -> Any:
    """A stateful query: the count per key, in complete mode into a memory table."""
    events = spark.readStream.schema(SCHEMA).json(input_dir)
    return (events.groupBy("k").count().writeStream.outputMode("complete").format("memory")
            .queryName(name).option("checkpointLocation", checkpoint).start())


def counts_table(spark: Any, name: str) -> Dict[str, int]:
    return {row["k"]: row["count"] for row in spark.sql("SELECT * FROM " + name).collect()}


def start_rows(spark: Any, input_dir: str, checkpoint: str, output_dir: str) -> Any:
    """A stateless query whose sink writes each batch to ``<output_dir>/<batch id>.json``."""
    os.makedirs(output_dir, exist_ok=True)

    def write_batch(frame: Any, batch_id: int) -> None:
        rows = sorted((row["k"], row["v"]) for row in frame.collect())
        with open(os.path.join(output_dir, "{}.json".format(batch_id)), "w") as stream:
            json.dump(rows, stream)

    events = spark.readStream.schema(SCHEMA).json(input_dir)
    return events.writeStream.foreachBatch(write_batch).option("checkpointLocation", checkpoint).start()


def output_batches(output_dir: str) -> Dict[int, List[List[Any]]]:
    """What :func:`start_rows` wrote, by batch id."""
    found = {}
    for name in os.listdir(output_dir):
        with open(os.path.join(output_dir, name)) as stream:
            found[int(name.split(".")[0])] = json.load(stream)
    return found


def run_until_idle(query: Any) -> None:
    """Process what is available, bounded: a stuck query fails the test instead of hanging."""
    query.processAllAvailable()
    assert query.exception() is None
