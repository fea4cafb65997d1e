"""How a job starts and ends as a whole: bounded sinks, cancellation, the environment."""

from __future__ import annotations

import os

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.spark.supervisor import job_run

from tests._helpers.files import write_json_files
from tests._helpers.jobs import INTERVAL_MS, json_stream, run_to_end, start_unbounded_job
from tests._helpers.waiting import wait_until


def test_a_bounded_sink_with_no_input_at_all_finishes(make_env, tmp_path):
    os.makedirs(tmp_path / "in")
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "nothing", bounded=True)
    client = env.execute_async("empty-job")
    result = run_to_end(client, timeout=60)
    assert not isinstance(result, Exception), result
    assert client.get_job_status().result() is JobStatus.FINISHED
    assert client.get_checkpoint_statistics() == []


def test_an_unbounded_sink_keeps_running_until_cancelled(make_env, tmp_path):
    client = start_unbounded_job(make_env, tmp_path, "unbounded-job", "forever")
    run = job_run(client)
    assert not run.wait(1.5)  # input exhausted, but an unbounded sink does not finish
    assert client.get_job_status().result() is JobStatus.RUNNING
    handle = run.handles[0]
    assert client.cancel().result(60) is None
    assert client.get_job_status().result() is JobStatus.CANCELED
    assert not handle.isActive


def test_closing_the_environment_cancels_its_running_job(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "forever")
    client = env.execute_async("closed-job")
    run = job_run(client)
    handle = wait_until(lambda: run.handles[0], what="query started")
    env.close()
    assert client.get_job_status().result() is JobStatus.CANCELED
    assert not handle.isActive


def test_add_sink_rejects_a_writer_of_another_spark_session(make_env, spark, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2)
    env = make_env()
    foreign = spark.readStream.schema("id LONG, key STRING").json(str(tmp_path / "in")).writeStream
    with pytest.raises(ValueError, match="another Spark session"):
        env.add_sink(foreign, "foreign")
    with pytest.raises(Exception, match="No operators defined in streaming topology"):
        env.execute_async("no-sinks")


def test_a_job_whose_checkpoint_file_system_is_unavailable_fails_to_start_and_leaves_nothing(
        make_env, tmp_path, job_temp_dir):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir("s3://no-such-bucket/checkpoints")
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "rows")
    with pytest.raises(Exception, match="s3"):
        env.execute_async("s3-job")
    assert os.listdir(job_temp_dir) == []
    assert not env.spark_session.streams.active
