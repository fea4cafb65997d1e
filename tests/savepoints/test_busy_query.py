"""Savepoints of a query whose input keeps arriving, under every number of retained batches.

Spark purges the offset log entry before the newest committed batch as soon as it plans the
next batch when it retains one batch (Flink's default ``num-retained`` of 1), so a savepoint
of a busy query must never ask for it beside a planned batch.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Dict, List

import pytest

from pyflink_compat.checkpoints import restore_query, verify, write_savepoint
from pyflink_compat.checkpoints.layout import QueryCheckpoint
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from tests._helpers.files import Arrivals, write_input
from tests.savepoints._queries import HDFS, counts_table, rows_of, session_conf, start_counts


class CountingPlans(LocalFileAccess):
    """The local file system, counting how often a savepoint planned a query's copy (each
    attempt starts by listing the commit log)."""

    def __init__(self) -> None:
        self.plans = 0

    def listdir(self, path: str) -> List[str]:
        if path.endswith("/commits"):
            self.plans += 1
        return super().listdir(path)


def _wait_for_commits(checkpoint: str, count: int) -> None:
    deadline = time.monotonic() + 60
    fs = LocalFileAccess()
    while time.monotonic() < deadline:
        newest = QueryCheckpoint(fs, checkpoint).latest_committed() if os.path.isdir(checkpoint + "/commits") else None
        if newest is not None and newest >= count:
            return
        time.sleep(0.05)
    raise AssertionError("the query did not commit {} batches in 60 s".format(count))


@pytest.mark.parametrize("retained", [1, 2, 5])
def test_savepoints_of_a_busy_query_succeed_at_once_and_restore_exactly_once(
        spark: Any, tmp_path: Any, retained: int) -> None:
    input_dir = str(tmp_path / "input")
    checkpoint = str(tmp_path / "job" / "counts")
    name = "busy_{}".format(retained)
    savepoints: List[str] = []
    batches: List[int] = []
    conf: Dict[str, str] = {"spark.sql.streaming.stateStore.providerClass": HDFS,
                            "spark.sql.streaming.minBatchesToRetain": str(retained)}
    with session_conf(spark, conf):
        write_input(input_dir, "seed.json", rows_of("abc", -3))
        query = start_counts(spark, input_dir, checkpoint, name)
        try:
            arrivals = Arrivals(lambda n: write_input(input_dir, "f{:04d}.json".format(n), rows_of("abc", n * 3)),
                                0.02)
            with arrivals:
                _wait_for_commits(checkpoint, 3)
                fs = CountingPlans()
                for _ in range(5):
                    savepoint = write_savepoint(checkpoint, str(tmp_path / "savepoints"), "busy", fs=fs)
                    savepoints.append(savepoint)
                    report = verify(savepoint)
                    assert report["ok"], report["problems"]
                    live = verify(checkpoint)
                    assert live["ok"] and live["files"] > 0, live["problems"]
        finally:
            query.stop()
    # a copy starts again only when Spark removed a file it had planned to copy, which a copy
    # of a few milliseconds beside batches of hundreds rarely meets
    assert fs.plans <= 6, "5 savepoints took {} attempts".format(fs.plans)
    for savepoint in savepoints:
        with open(os.path.join(savepoint, "_metadata")) as stream:
            (saved,) = json.load(stream)["queries"]
        batches.append(saved["batch_id"])
        paths = {f["path"] for f in saved["files"]}
        if saved["planned_batch_id"] is not None:
            assert "offsets/{}".format(saved["batch_id"] - 1) not in paths
    assert batches == sorted(batches)
    # the last savepoint resumes exactly once: every row of the input counted once
    written = len([n for n in os.listdir(input_dir) if n.endswith(".json")])
    restored = restore_query(savepoints[-1], str(tmp_path / "restored"))
    with session_conf(spark, {"spark.sql.streaming.stateStore.providerClass": HDFS}):
        query = start_counts(spark, input_dir, restored.location, name + "_restored")
        try:
            query.processAllAvailable()
            assert query.exception() is None
            result = counts_table(spark, name + "_restored")
        finally:
            query.stop()
    assert result == {"a": written, "b": written, "c": written}
