"""The newest committed batch keeps the state it restarts from while the next batch is between
its state write and its commit, with Flink's default of one retained checkpoint.

A micro-batch's state store writes the batch's state version as its tasks end, and the query
logs the batch's commit only after its sink is done. In between, Spark's RocksDB store keeps
``minBatchesToRetain`` versions at its maintenance: keeping one would remove the version the
newest committed batch restarts from, so that a stop (or a crash) there leaves a checkpoint
that neither Spark nor a savepoint can restart from.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from pyflink_compat.checkpoints.layout import PROVIDER_CLASS, ROCKSDB_PROVIDER, QueryCheckpoint
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.spark.translation import MIN_BATCHES_TO_RETAIN
from tests._helpers.waiting import wait_until
from tests.savepoints._queries import session_conf

#: How long the sink of the second batch takes: longer than a few maintenance rounds of the test
#: session (every 2 s).
SLOW_SINK_SECONDS = 7.0


def _restart_files_while_the_next_batch_waits(spark: Any, tmp_path: Any, retained: str) -> Any:
    """Run a keyed count on RocksDB keeping ``retained`` batches; while batch 1's sink runs
    (its state written, its commit not), plan a restart from batch 0, as a savepoint does.

    :return: The restart files of batch 0, or the error planning them.
    """
    source, checkpoint = tmp_path / "in", str(tmp_path / "cp")
    source.mkdir()
    slow = tmp_path / "slow"

    def sink(frame: Any, batch_id: int) -> None:
        frame.collect()  # runs the batch: its state version is written as its tasks end
        if batch_id == 1:
            slow.write_text("")
            time.sleep(SLOW_SINK_SECONDS)

    (source / "0.json").write_text(json.dumps({"k": "a"}) + "\n")
    with session_conf(spark, {PROVIDER_CLASS: ROCKSDB_PROVIDER, MIN_BATCHES_TO_RETAIN: retained}):
        query = spark.readStream.schema("k string").option("maxFilesPerTrigger", 1).json(str(source)) \
            .groupBy("k").count().writeStream.outputMode("update").foreachBatch(sink) \
            .option("checkpointLocation", checkpoint).start()
        try:
            wait_until(lambda: os.path.exists(os.path.join(checkpoint, "commits", "0")), timeout=120,
                       what="batch 0 committed")
            (source / "1.json").write_text(json.dumps({"k": "a"}) + "\n")
            wait_until(slow.exists, timeout=120, what="batch 1 in its sink")
            time.sleep(SLOW_SINK_SECONDS - 2)  # maintenance runs meanwhile
            plan = QueryCheckpoint(LocalFileAccess(), checkpoint)
            assert plan.latest_committed() == 0
            try:
                return plan.files_for_restart(0)
            except CheckpointFileError as error:
                return error
        finally:
            query.stop()


def test_with_one_retained_checkpoint_the_newest_committed_batch_keeps_its_state_until_the_next_commits(
        spark: Any, tmp_path: Any) -> None:
    env = StreamExecutionEnvironment.get_execution_environment()
    retained = env.spark_session.conf.get(MIN_BATCHES_TO_RETAIN)
    assert retained == "2"  # Flink's one retained checkpoint, and the batch that runs
    files = _restart_files_while_the_next_batch_waits(spark, tmp_path, retained)
    assert not isinstance(files, Exception), files
    assert any(f.startswith("state/0/") and f.endswith(".zip") for f in files), files


@pytest.mark.slow
def test_keeping_one_batch_would_lose_the_state_the_newest_committed_batch_restarts_from(
        spark: Any, tmp_path: Any) -> None:
    error = _restart_files_while_the_next_batch_waits(spark, tmp_path, "1")
    assert isinstance(error, CheckpointFileError), error
    assert "needed to restart after batch 0 but missing" in str(error)
