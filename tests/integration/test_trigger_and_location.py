"""Every query of a job runs with the trigger its settings call for, in the right place: by
default the buffer timeout, whatever the checkpoint interval; one micro-batch per checkpoint
interval in the ``CHECKPOINT_INTERVAL`` trigger mode, or when the buffer timeout is disabled."""

from __future__ import annotations

import os

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.datastream import JobManagerCheckpointStorage
from pyflink_compat.settings.registry import StorageKind
from pyflink_compat.spark.supervisor import job_run

from tests._helpers.files import file_uri, log_ids, write_json_files
from tests._helpers.jobs import (INTERVAL_MS, json_stream, query_checkpoint_dir, query_trigger, run_to_end,
                                 wait_for_commits)
from tests._helpers.waiting import wait_until

#: Flink's default buffer timeout, the default trigger interval of a checkpointed job.
BUFFER_TIMEOUT_MS = 100


@pytest.fixture(scope="module")
def small_input(tmp_path_factory):
    directory = tmp_path_factory.mktemp("input")
    write_json_files(directory, n_files=2, rows_per_file=4)
    return directory


def _triggers_of_running_job(env, small_input, job_name):
    env.add_sink(json_stream(env, small_input).writeStream.format("noop"), "to_noop")
    env.add_sink(json_stream(env, small_input).writeStream.format("memory"), "to_memory")
    client = env.execute_async(job_name)
    run = job_run(client)
    try:
        handles = wait_until(lambda: all(h is not None for h in run.handles) and
                             list(run.handles), what="both queries started")
        assert sorted(h.name for h in handles) == ["to_memory", "to_noop"]
        triggers = [query_trigger(handle) for handle in handles]
        assert {t.getClass().getSimpleName() for t in triggers} == {"ProcessingTimeTrigger"}
        return {t.intervalMs() for t in triggers}
    finally:
        client.cancel().result(60)
        assert client.get_job_status().result() is JobStatus.CANCELED


def test_by_default_every_query_gets_the_buffer_timeout_as_trigger_whatever_the_checkpoint_interval(
        make_env, small_input):
    env = make_env()
    env.enable_checkpointing(60000)
    assert _triggers_of_running_job(env, small_input, "latency-job") == {BUFFER_TIMEOUT_MS}


@pytest.mark.parametrize("timeout, expected", [(40, 40), (0, 0), (-1, INTERVAL_MS), (5000, INTERVAL_MS)])
def test_the_buffer_timeout_sets_the_trigger_capped_at_the_interval_and_disabled_means_one_batch_per_interval(
        make_env, timeout, expected):
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS).set_buffer_timeout(timeout)
    env.add_sink(env.spark_session.readStream.format("rate").load().writeStream.format("noop"), "rows")
    query = env.get_job_plan("timeout-job").queries[0]
    assert query.trigger_name == ("ProcessingTime(0)" if expected == 0 else "ProcessingTime({} ms)".format(expected))


def test_in_checkpoint_interval_mode_every_query_gets_the_checkpoint_interval_as_trigger(make_env, small_input):
    env = make_env({"compat.trigger.mode": "checkpoint_interval"})
    env.enable_checkpointing(INTERVAL_MS)
    assert _triggers_of_running_job(env, small_input, "interval-job") == {INTERVAL_MS}


@pytest.mark.parametrize("setup", ["checkpointing-disabled", "enabled-without-storage",
                                   "jobmanager-storage"])
def test_queries_without_durable_storage_checkpoint_in_a_job_owned_temporary_dir_removed_at_the_end(
        make_env, small_input, job_temp_dir, setup):
    env = make_env()
    if setup != "checkpointing-disabled":
        env.enable_checkpointing(INTERVAL_MS)
    if setup == "jobmanager-storage":
        env.get_checkpoint_config().set_checkpoint_storage(JobManagerCheckpointStorage())
    env.add_sink(json_stream(env, small_input).writeStream.format("noop"), "only", bounded=True)
    plan = env.get_job_plan("temp-job")
    assert plan.storage.kind is StorageKind.JOBMANAGER
    assert plan.queries[0].location_kind == "temporary"

    client = env.execute_async("temp-job")
    run = job_run(client)
    handle = wait_until(lambda: run.handles[0], what="query started")
    location = query_checkpoint_dir(handle)
    owner = os.path.dirname(location)
    assert os.path.basename(owner).startswith("pyflink_compat-")
    assert os.path.dirname(owner) == job_temp_dir
    assert os.path.basename(location) == "only"
    wait_for_commits(location)  # the query really runs and checkpoints there
    trigger = query_trigger(handle)
    expected_interval = 0 if setup == "checkpointing-disabled" else BUFFER_TIMEOUT_MS
    assert trigger.intervalMs() == expected_interval

    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert client.get_job_status().result() is JobStatus.FINISHED
    assert not os.path.exists(owner)
    assert os.listdir(job_temp_dir) == []


def test_job_plan_lists_trigger_location_and_the_status_of_each_flink_setting(make_env, small_input, tmp_path):
    env = make_env()
    env.enable_checkpointing(400)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    env.get_checkpoint_config().enable_unaligned_checkpoints()
    env.add_sink(json_stream(env, small_input).writeStream.format("noop"), "a")
    env.add_sink(json_stream(env, small_input).writeStream.format("memory"), "b")
    text = str(env.get_job_plan("plan-job"))
    for sink in ("a", "b"):
        block = text.split("query '{}':".format(sink), 1)[1].split("\n  query", 1)[0].split("\n  Flink")[0]
        assert "latency: up to 100 ms plus the batch" in block
        assert "trigger: ProcessingTime(100 ms) (the buffer timeout)" in block
        assert "checkpoint location: {}/plan-job/{} (durable)".format(
            file_uri(tmp_path / "cp").replace("file://", "file:"), sink) in block
    lines = {line.strip().split(" = ")[0]: line for line in text.splitlines() if " = " in line}
    assert "[applied]" in lines["execution.checkpointing.interval"]
    assert lines["spark.sql.streaming.stateStore.minDeltasForSnapshot"].strip().endswith("= 4")
    assert "[emulated]" in lines["execution.checkpointing.timeout"]
    assert "[no Spark effect]" in lines["execution.checkpointing.unaligned.enabled"]
    assert "(default)" not in lines["execution.checkpointing.unaligned.enabled"]


def test_configure_writer_sets_trigger_location_and_query_name_on_a_writer_started_by_the_user(
        make_env, small_input, tmp_path, job_temp_dir):
    env = make_env()
    env.enable_checkpointing(300)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    writer = json_stream(env, small_input).writeStream.format("noop")
    assert env.configure_writer(writer, "mine", job_name="own-job") is writer
    query = writer.start()
    try:
        assert query.name == "mine"
        trigger = query_trigger(query)
        assert trigger.getClass().getSimpleName() == "ProcessingTimeTrigger"
        assert trigger.intervalMs() == BUFFER_TIMEOUT_MS
        expected = tmp_path / "cp" / "own-job" / "mine"
        assert query_checkpoint_dir(query) == str(expected)
        wait_for_commits(expected)
        assert log_ids(expected, "offsets")
    finally:
        query.stop()
    assert os.listdir(job_temp_dir) == []  # a durable location needs no temporary directory


def test_configure_writer_without_durable_storage_gives_a_temporary_location(
        make_env, small_input, job_temp_dir):
    env = make_env()
    writer = env.configure_writer(json_stream(env, small_input).writeStream.format("noop"), "tmpq")
    query = writer.start()
    try:
        location = query_checkpoint_dir(query)
        assert os.path.basename(location) == "tmpq"
        assert os.path.dirname(os.path.dirname(location)) == job_temp_dir
        assert os.path.basename(os.path.dirname(location)).startswith("pyflink_compat-")
        assert query_trigger(query).intervalMs() == 0  # checkpointing disabled: Spark's default
        wait_for_commits(location)
    finally:
        query.stop()
