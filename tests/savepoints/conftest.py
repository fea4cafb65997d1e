"""Real Spark query checkpoints for the savepoint tests.

Queries are started straight from PySpark on the session of ``tests/conftest.py``, read JSON
files written here, and checkpoint under pytest's temporary directories.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any, Dict, Iterator, List

import pytest

HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
SCHEMA = "k string, v int"


def write_input(directory: str, name: str, rows: List[Dict[str, Any]]) -> None:
    """One JSON-lines input file, renamed into place so a query never sees half of it."""
    os.makedirs(directory, exist_ok=True)
    temp = os.path.join(os.path.dirname(directory.rstrip("/")), "." + name + ".tmp")
    with open(temp, "w") as stream:
        stream.writelines(json.dumps(row) + "\n" for row in rows)
    os.replace(temp, os.path.join(directory, name))


def rows_of(keys: str, start: int) -> List[Dict[str, Any]]:
    return [{"k": k, "v": start + i} for i, k in enumerate(keys)]


def digest(directory: str) -> Dict[str, str]:
    """SHA-256 of every file under a directory, by relative path."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as stream:
                found[os.path.relpath(path, directory)] = hashlib.sha256(stream.read()).hexdigest()
    return found


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
    found = {}
    for name in os.listdir(output_dir):
        with open(os.path.join(output_dir, name)) as stream:
            found[int(name.split(".")[0])] = json.load(stream)
    return found


def run_until_idle(query: Any) -> None:
    """Process what is available, bounded: a stuck query fails the test instead of hanging."""
    query.processAllAvailable()
    assert query.exception() is None


@pytest.fixture(scope="session")
def saved_job(spark: Any, tmp_path_factory: Any) -> Dict[str, str]:
    """A stopped job of two queries (HDFS-backed counts and stateless rows), two batches each,
    with a job marker, and a savepoint of it. Tests copy what they want to damage."""
    from pyflink_compat.checkpoints import write_savepoint

    base = str(tmp_path_factory.mktemp("saved_job"))
    input_dir = os.path.join(base, "input")
    job_dir = os.path.join(base, "storage", "job-a")
    os.makedirs(job_dir)
    with open(os.path.join(job_dir, "_pyflink_compat_job.json"), "w") as stream:
        json.dump({"job_name": "job-a", "sinks": {"counts": None, "rows": None}}, stream)
    write_input(input_dir, "f0.json", rows_of("aab", 0))
    with session_conf(spark, {"spark.sql.streaming.stateStore.providerClass": HDFS}):
        counts = start_counts(spark, input_dir, os.path.join(job_dir, "counts"), "saved_job_counts")
        rows = start_rows(spark, input_dir, os.path.join(job_dir, "rows"), os.path.join(base, "rows_out"))
        try:
            run_until_idle(counts)
            run_until_idle(rows)
            write_input(input_dir, "f1.json", rows_of("bc", 10))
            run_until_idle(counts)
            run_until_idle(rows)
        finally:
            counts.stop()
            rows.stop()
    savepoint = write_savepoint(job_dir, os.path.join(base, "storage", "savepoints"), "job-a",
                                job_id="0123456789abcdef0123456789abcdef")
    return {"base": base, "input": input_dir, "job_dir": job_dir, "storage": os.path.join(base, "storage"),
            "savepoint": savepoint, "rows_out": os.path.join(base, "rows_out")}
