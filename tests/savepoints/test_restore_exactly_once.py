"""A savepoint restored twice continues exactly once, on every state store provider."""

from __future__ import annotations

import collections
import json
import os
import time
from typing import Any, Dict

import pytest

from pyflink_compat.checkpoints import restore_query, verify, write_savepoint
from tests._helpers.files import digest, write_input
from tests.savepoints._queries import (CHANGELOG, HDFS, ROCKSDB, counts_table, output_batches, rows_of, run_until_idle,
                                       session_conf, start_counts, start_rows)

PROVIDERS = {
    "hdfs": {"spark.sql.streaming.stateStore.providerClass": HDFS},
    "rocksdb": {"spark.sql.streaming.stateStore.providerClass": ROCKSDB, CHANGELOG: "false"},
    # a snapshot after every change, so that zips, SSTs and changelogs all take part
    "rocksdb-changelog": {"spark.sql.streaming.stateStore.providerClass": ROCKSDB, CHANGELOG: "true",
                          "spark.sql.streaming.stateStore.minDeltasForSnapshot": "1"},
    # Spark 4's checkpoint format v2: state files carry a unique id named by the commit log
    "rocksdb-format-v2": {"spark.sql.streaming.stateStore.providerClass": ROCKSDB, CHANGELOG: "true",
                          "spark.sql.streaming.stateStore.checkpointFormatVersion": "2"},
}

#: the kinds of state file a savepoint of each provider must hold
STATE_FILE_KINDS = {"hdfs": {".delta"}, "rocksdb": {".zip", ".sst"},
                    "rocksdb-changelog": {".zip", ".sst", ".changelog"}, "rocksdb-format-v2": {".changelog"}}

ALL_KEYS = "aab" + "bc" + "e" + "cd" + "ad"


def wait_for_a_snapshot_zip(checkpoint: str) -> None:
    """Wait (bounded) until Spark's maintenance thread has uploaded a RocksDB snapshot, so that
    the savepoint needs a snapshot, its SST files and the changelogs after it."""
    deadline = time.monotonic() + 60
    partitions = [os.path.join(checkpoint, "state", "0", p) for p in ("0", "1")]
    while not any(n.endswith(".zip") for p in partitions for n in os.listdir(p)):
        assert time.monotonic() < deadline, "no RocksDB snapshot was written within a minute"
        time.sleep(0.1)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_savepoint_of_a_running_query_restored_twice_reaches_the_uninterrupted_counts(
        spark: Any, tmp_path: Any, provider: str) -> None:
    if provider == "rocksdb-format-v2" and int(spark.version.split(".")[0]) < 4:
        pytest.skip("checkpoint format v2 exists from Spark 4.0 on (Spark 3.5 ignores the setting)")
    input_dir = str(tmp_path / "input")
    original = str(tmp_path / "storage" / "job" / "counts")
    with session_conf(spark, PROVIDERS[provider]):
        write_input(input_dir, "f0.json", rows_of("aab", 0))
        query = start_counts(spark, input_dir, original, "orig_" + provider.replace("-", "_"))
        try:
            run_until_idle(query)
            write_input(input_dir, "f1.json", rows_of("bc", 10))
            run_until_idle(query)
            if provider == "rocksdb-changelog":
                wait_for_a_snapshot_zip(original)
            write_input(input_dir, "f1b.json", rows_of("e", 15))
            run_until_idle(query)
            savepoint = write_savepoint(original, str(tmp_path / "savepoints"), "job")
            saved = digest(savepoint)
            kinds = {os.path.splitext(p)[1] for p in saved
                     if "/state/" in p and not os.path.basename(p).startswith(".")}
            assert STATE_FILE_KINDS[provider] <= kinds
            # the original goes on after the savepoint; its new files must not reach the savepoint
            write_input(input_dir, "f2.json", rows_of("cd", 20))
            run_until_idle(query)
        finally:
            query.stop()
        assert digest(savepoint) == saved

        write_input(input_dir, "f3.json", rows_of("ad", 30))
        results = []
        restored = [restore_query(savepoint, str(tmp_path / "restored{}".format(i))) for i in (1, 2)]
        assert [r.batch_id for r in restored] == [2, 2]
        names = ["restored{}_{}".format(i, provider.replace("-", "_")) for i in (1, 2)]
        # both restores run at the same time: each got a query id of its own
        queries = [start_counts(spark, input_dir, r.location, n) for r, n in zip(restored, names)]
        try:
            for q in queries:
                run_until_idle(q)
            results = [counts_table(spark, n) for n in names]
        finally:
            for q in queries:
                q.stop()
    assert results[0] == results[1] == dict(collections.Counter(ALL_KEYS))
    assert digest(savepoint) == saved
    assert verify(savepoint)["ok"]


def test_a_stateless_query_restored_from_a_job_savepoint_writes_each_new_row_once(
        spark: Any, saved_job: Dict[str, str], tmp_path: Any) -> None:
    savepoint = saved_job["savepoint"]
    saved = digest(savepoint)
    # the file source remembers input files by absolute path: a restore reads the same directory
    input_dir = saved_job["input"]
    write_input(input_dir, "f2.json", rows_of("xy", 100))
    outputs = []
    for i in (1, 2):
        restored = restore_query(savepoint, str(tmp_path / "restored{}".format(i)), sink="rows")
        assert restored.batch_id == 1
        out = str(tmp_path / "out{}".format(i))
        query = start_rows(spark, input_dir, restored.location, out)
        try:
            run_until_idle(query)
        finally:
            query.stop()
        outputs.append(output_batches(out))
    every_input_row = []
    for name in os.listdir(input_dir):
        with open(os.path.join(input_dir, name)) as stream:
            every_input_row.extend([row["k"], row["v"]] for row in map(json.loads, stream))
    before = output_batches(saved_job["rows_out"])
    assert sorted(before) == [0, 1]
    assert outputs[0] == outputs[1]
    assert sorted(outputs[0]) == [2]
    assert ["x", 100] in outputs[0][2] and ["a", 0] not in outputs[0][2]
    # together with the batches written before the savepoint: every input row exactly once
    everything = sorted(row for batch in list(before.values()) + list(outputs[0].values()) for row in batch)
    assert everything == sorted(every_input_row)
    assert digest(savepoint) == saved
