"""Where checkpoints go: file system storage (durable, resumable), JobManager storage
(temporary, size-limited) and custom storage (a CheckpointFileManager class)."""

from __future__ import annotations

import os

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.spark.supervisor import job_run
from pyflink_compat.datastream import (CustomCheckpointStorage, ExternalizedCheckpointRetention,
                                       FileSystemCheckpointStorage, JobManagerCheckpointStorage)
from pyflink_compat.spark.rules import CheckpointFailure
from pyflink_compat.util.exceptions import JobExecutionError

from tests._helpers.files import all_ids, file_uri, ids_of, log_ids, write_json_files
from tests._helpers.jobs import (INTERVAL_MS, ONE_BATCH_PER_INTERVAL, BatchFiles, json_stream, query_checkpoint_dir,
                                 run_to_end)
from tests._helpers.waiting import wait_until

RETAIN = ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION


def _configure_storage(env, how, directory):
    uri = file_uri(directory)
    config = env.get_checkpoint_config()
    if how == "FileSystemCheckpointStorage":
        config.set_checkpoint_storage(FileSystemCheckpointStorage(uri))
    elif how == "set_checkpoint_storage_dir":
        config.set_checkpoint_storage_dir(uri)
    else:
        from pyflink_compat.common import Configuration

        env.configure(Configuration().set_string(how, uri))


@pytest.mark.parametrize("how", ["FileSystemCheckpointStorage", "set_checkpoint_storage_dir",
                                 "state.checkpoints.dir", "execution.checkpointing.dir"])
def test_file_system_storage_puts_each_query_under_dir_job_sink(make_env, tmp_path, how):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    _configure_storage(env, how, tmp_path / "cp")
    env.get_checkpoint_config().set_externalized_checkpoint_retention(RETAIN)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "the_sink", bounded=True)
    client = env.execute_async("fs-job")
    handle = wait_until(lambda: job_run(client).handles[0], what="query started")
    expected = tmp_path / "cp" / "fs-job" / "the_sink"
    assert query_checkpoint_dir(handle) == str(expected)
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert (expected / "metadata").is_file()
    assert log_ids(expected, "offsets") == [0]
    assert log_ids(expected, "commits") == [0]


def test_rerunning_a_job_with_file_system_storage_resumes_without_reprocessing(make_env, tmp_path):
    first = write_json_files(tmp_path / "in", n_files=2, rows_per_file=3)

    def run(out):
        env = make_env(ONE_BATCH_PER_INTERVAL)
        env.enable_checkpointing(INTERVAL_MS)
        env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
        env.get_checkpoint_config().set_externalized_checkpoint_retention(RETAIN)
        sink = BatchFiles(out)
        env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows",
                     bounded=True)
        client = env.execute_async("resume-job")
        result = run_to_end(client, timeout=60)
        assert not isinstance(result, Exception), result
        return sink, client.get_checkpoint_statistics()

    sink1, stats1 = run(tmp_path / "out1")
    assert [s.batch_id for s in stats1] == [0, 1]
    assert all_ids(sink1.batches()) == ids_of(first)

    second = write_json_files(tmp_path / "in", n_files=2, rows_per_file=3, start_file=2)
    sink2, stats2 = run(tmp_path / "out2")
    assert [s.batch_id for s in stats2] == [2, 3]
    assert sorted(sink2.batches()) == [2, 3]
    assert all_ids(sink2.batches()) == ids_of(second)
    assert log_ids(tmp_path / "cp" / "resume-job" / "rows", "commits")[-1] == 3

    # Nothing new: the bounded job resumes, finds its input consumed and finishes at once.
    sink3, stats3 = run(tmp_path / "out3")
    assert stats3 == [] and sink3.batches() == {}
    assert log_ids(tmp_path / "cp" / "resume-job" / "rows", "commits")[-1] == 3


def test_job_manager_storage_fails_a_job_whose_state_exceeds_max_state_size(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=30, n_keys=30)
    env = make_env({"restart-strategy.type": "none"})
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage(JobManagerCheckpointStorage(max_state_size=100))
    counts = json_stream(env, tmp_path / "in").groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").foreachBatch(BatchFiles(tmp_path / "out")),
                 "counts")
    client = env.execute_async("jm-job")
    error = run_to_end(client)
    assert isinstance(error, JobExecutionError), error
    assert isinstance(error.__cause__, CheckpointFailure)
    message = str(error.__cause__)
    assert "maxSize=100" in message
    size = int(message.split("Size=")[1].split()[0])
    assert size > 100
    assert client.get_job_status().result() is JobStatus.FAILED


def test_job_manager_storage_within_its_limit_runs_on_a_temporary_location(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=6)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage(JobManagerCheckpointStorage())
    counts = json_stream(env, tmp_path / "in").groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").foreachBatch(BatchFiles(tmp_path / "out")),
                 "counts", bounded=True)
    client = env.execute_async("jm-ok-job")
    handle = wait_until(lambda: job_run(client).handles[0], what="query started")
    owner = os.path.dirname(query_checkpoint_dir(handle))
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    stats = client.get_checkpoint_statistics()
    assert stats and all(0 < s.state_size <= JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE for s in stats)
    assert not os.path.exists(owner)


def _file_context_manager_class(spark):
    jvm = spark.sparkContext._jvm
    loader = jvm.Thread.currentThread().getContextClassLoader()
    for package in ("org.apache.spark.sql.execution.streaming.checkpointing.",
                    "org.apache.spark.sql.execution.streaming."):
        name = package + "FileContextBasedCheckpointFileManager"
        try:
            jvm.java.lang.Class.forName(name, False, loader)
            return name
        except Exception:  # not in this Spark version
            continue
    pytest.fail("No FileContextBasedCheckpointFileManager class in this Spark")


def test_custom_storage_sets_the_checkpoint_file_manager_class_and_the_query_runs_with_it(
        make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=3)
    env = make_env(ONE_BATCH_PER_INTERVAL)
    name = _file_context_manager_class(env.spark_session)
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage(CustomCheckpointStorage(name))
    assert env.spark_session.conf.get("spark.sql.streaming.checkpointFileManagerClass") == name
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "custom", bounded=True)
    client = env.execute_async("custom-job")
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert [s.batch_id for s in client.get_checkpoint_statistics()] == [0, 1]


def test_custom_storage_with_a_class_spark_cannot_load_fails_the_job_at_start(make_env, tmp_path):
    # The class is what Spark would load as its checkpoint file manager; the JVM cannot load
    # it, so the job fails before any query starts (a restart could never succeed).
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)
    env = make_env({"restart-strategy.type": "none"})
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage(CustomCheckpointStorage("no.such.FileManager"))
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "custom", bounded=True)
    assert "spark.sql.streaming.checkpointFileManagerClass = no.such.FileManager" in str(env.get_job_plan())
    with pytest.raises(JobExecutionError) as caught:
        env.execute("custom-bad-job")
    assert "'no.such.FileManager' is neither a known value" in str(caught.value)
    assert "nor a class on the JVM class path" in str(caught.value)
