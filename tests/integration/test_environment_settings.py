"""The environment's job-wide settings on real Spark: parallelism, runtime mode, restart
strategy set through the API."""

from __future__ import annotations

import os

import pytest

from pyflink_compat.common import JobStatus, RestartStrategies
from pyflink_compat.datastream import ExternalizedCheckpointRetention, RuntimeExecutionMode
from pyflink_compat.spark.start_checks import StateStoreMismatchWarning
from pyflink_compat.spark.supervisor import job_runs
from pyflink_compat.util.exceptions import JobExecutionError

from tests._helpers.files import all_ids, file_uri, ids_of, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end

RETAIN = ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION


class InjectedFailure(Exception):
    pass


def _counting_job(env, source, root, out, job):
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(RETAIN)
    counts = json_stream(env, source).groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").foreachBatch(BatchFiles(out)), "counts",
                 bounded=True)
    return run_to_end(env.execute_async(job))


def _state_partitions(checkpoint) -> list:
    operator = os.path.join(str(checkpoint), "state", "0")
    return sorted(name for name in os.listdir(operator) if name.isdigit())


def test_parallelism_is_the_number_of_state_partitions_of_a_new_checkpoint(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=4)
    env = make_env()
    env.set_parallelism(3)
    assert env.spark_session.conf.get("spark.sql.shuffle.partitions") == "3"
    result = _counting_job(env, tmp_path / "in", tmp_path / "cp", tmp_path / "out", "par-job")
    assert not isinstance(result, Exception), result
    assert _state_partitions(tmp_path / "cp" / "par-job" / "counts") == ["0", "1", "2"]


def test_resuming_with_another_parallelism_warns_and_keeps_the_checkpoints_number(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=4)
    first = make_env()
    first.set_parallelism(3)
    result = _counting_job(first, tmp_path / "in", tmp_path / "cp", tmp_path / "out1", "par-job")
    assert not isinstance(result, Exception), result
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=4, start_file=2)
    second = make_env()
    second.set_parallelism(5)
    with pytest.warns(StateStoreMismatchWarning, match="written with 3 state partitions"):
        result = _counting_job(second, tmp_path / "in", tmp_path / "cp", tmp_path / "out2", "par-job")
    assert not isinstance(result, Exception), result
    assert _state_partitions(tmp_path / "cp" / "par-job" / "counts") == ["0", "1", "2"]


@pytest.mark.parametrize("mode", [RuntimeExecutionMode.BATCH, RuntimeExecutionMode.AUTOMATIC])
def test_batch_mode_processes_the_available_input_and_finishes(make_env, tmp_path, mode):
    records = write_json_files(tmp_path / "in", n_files=3, rows_per_file=4)
    env = make_env()
    env.set_runtime_mode(mode)
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    sink = BatchFiles(tmp_path / "out")
    # Not declared bounded: the runtime mode alone makes the query finish.
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows")
    plan = str(env.get_job_plan("batch-job"))
    assert "trigger: AvailableNow" in plan
    client = env.execute_async("batch-job")
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert client.get_job_status().result() is JobStatus.FINISHED
    assert all_ids(sink.batches()) == ids_of(records)


def test_automatic_mode_with_an_unbounded_source_streams_and_says_so(make_env):
    env = make_env()
    env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)
    rate = env.spark_session.readStream.format("rate").load()
    env.add_sink(rate.writeStream.format("noop"), "rows")
    plan = str(env.get_job_plan("auto-job"))
    assert "trigger: AvailableNow" not in plan
    assert "a source is unbounded, so STREAMING" in plan


def test_a_fixed_delay_restart_strategy_set_through_the_api_restarts_then_fails(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)

    def always(batch_id):
        raise InjectedFailure("permanent failure in batch {}".format(batch_id))

    env = make_env()
    with pytest.warns(DeprecationWarning):
        env.set_restart_strategy(RestartStrategies.fixed_delay_restart(2, 100))
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    sink = BatchFiles(tmp_path / "out", fail=always)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows", bounded=True)
    with pytest.raises(JobExecutionError):
        env.execute("failing-job")
    run = job_runs(env)[-1]
    assert run.restarts == 2
    assert run.status is JobStatus.FAILED


def test_executing_twice_without_new_sinks_fails_as_in_flink(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2)
    env = make_env()
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "rows", bounded=True)
    env.execute("once")
    with pytest.raises(Exception, match="No operators defined in streaming topology. Cannot execute."):
        env.execute("twice")
