"""The checkpointing mode picks how each query commits its progress."""

from __future__ import annotations

import pytest

from pyflink_compat.datastream import CheckpointingMode
from pyflink_compat.spark.supervisor import job_run

from tests._helpers.files import write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, execution_class, json_stream, run_to_end
from tests._helpers.waiting import wait_until

SYNC = "MicroBatchExecution"
ASYNC = "AsyncProgressTrackingMicroBatchExecution"


@pytest.fixture(scope="module")
def mode_input(tmp_path_factory):
    directory = tmp_path_factory.mktemp("mode_in")
    records = write_json_files(directory, n_files=2, rows_per_file=4)
    return directory, records


def _run(env, name):
    client = env.execute_async(name)
    run = job_run(client)
    handle = wait_until(lambda: run.handles[0], what="query started")
    kind = execution_class(handle)
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    return kind, client


def test_exactly_once_runs_synchronous_micro_batches(make_env, mode_input):
    directory, records = mode_input
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS, CheckpointingMode.EXACTLY_ONCE)
    env.add_sink(json_stream(env, directory).writeStream.format("memory"), "eo_rows", bounded=True)
    plan = env.get_job_plan("eo-job")
    assert not plan.queries[0].async_progress
    assert "exactly-once (synchronous micro-batches)" in plan.queries[0].guarantee
    kind, client = _run(env, "eo-job")
    assert kind == SYNC
    assert env.spark_session.table("eo_rows").count() == len(records)


def test_at_least_once_stateless_query_to_memory_sink_uses_async_progress_tracking(make_env, mode_input):
    directory, records = mode_input
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS, CheckpointingMode.AT_LEAST_ONCE)
    env.add_sink(json_stream(env, directory).writeStream.format("memory"), "alo_rows", bounded=True)
    plan = env.get_job_plan("alo-job")
    assert plan.queries[0].async_progress
    assert "asynchronous progress tracking" in str(plan)
    kind, client = _run(env, "alo-job")
    assert kind == ASYNC
    assert env.spark_session.table("alo_rows").count() == len(records)
    assert client.get_checkpoint_statistics()


@pytest.mark.parametrize("query", ["stateful", "file-sink"])
def test_at_least_once_falls_back_to_micro_batches_and_the_plan_says_why(make_env, mode_input, tmp_path, query):
    directory, _ = mode_input
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS, CheckpointingMode.AT_LEAST_ONCE)
    stream = json_stream(env, directory)
    if query == "stateful":
        writer = stream.groupBy("key").count().writeStream.outputMode("update").format("memory")
        reason = "does not support stateful queries"
    else:
        writer = stream.writeStream.format("parquet").option("path", str(tmp_path / "parquet"))
        reason = "sink 'parquet' does not support asynchronous progress tracking"
    env.add_sink(writer, "fallback", bounded=True)
    plan = env.get_job_plan("fallback-job")
    assert not plan.queries[0].async_progress
    assert reason in plan.queries[0].guarantee
    assert reason in str(plan)
    kind, _ = _run(env, "fallback-job")
    assert kind == SYNC


def test_at_least_once_foreach_batch_sink_falls_back_to_micro_batches(make_env, mode_input, tmp_path):
    directory, records = mode_input
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS, CheckpointingMode.AT_LEAST_ONCE)
    sink = BatchFiles(tmp_path / "out")
    env.add_sink(json_stream(env, directory).writeStream.foreachBatch(sink), "fb", bounded=True)
    assert not env.get_job_plan("fb-job").queries[0].async_progress
    kind, _ = _run(env, "fb-job")
    assert kind == SYNC
    assert sum(len(rows) for rows in sink.batches().values()) == len(records)
