"""Failures: recovery from the checkpoints under the restart strategy, checkpoint timeouts and
tolerable checkpoint failures."""

from __future__ import annotations

import logging
import re

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.spark.rules import CheckpointFailure
from pyflink_compat.spark.supervisor import job_run, job_runs
from pyflink_compat.util.exceptions import JobExecutionError

from tests._helpers.files import all_ids, file_uri, ids_of, write_json_files
from tests._helpers.jobs import (INTERVAL_MS, ONE_BATCH_PER_INTERVAL, BatchFiles, json_stream, run_to_end,
                                 wait_for_commits)


class InjectedFailure(RuntimeError):
    pass


def add_rows_sink(env, tmp_path, sink, bounded=True):
    """Checkpoint every INTERVAL_MS under ``<tmp_path>/cp`` and add ``sink`` (a ``foreachBatch``
    function) as the sink ``rows`` over the JSON files in ``<tmp_path>/in``."""
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    return env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows", bounded=bounded)


def test_a_transient_failure_recovers_from_the_checkpoint_without_duplicates_and_the_job_finishes(
        make_env, tmp_path):
    records = write_json_files(tmp_path / "in", n_files=4, rows_per_file=3)
    flag = tmp_path / "fail-once"
    flag.write_text("armed")

    def fail_once(batch_id):
        if batch_id == 2 and flag.exists():
            flag.unlink()
            raise InjectedFailure("transient failure in batch 2")

    env = make_env({**ONE_BATCH_PER_INTERVAL, "restart-strategy.type": "fixed-delay",
                    "restart-strategy.fixed-delay.attempts": "3",
                    "restart-strategy.fixed-delay.delay": "200 ms"})
    sink = BatchFiles(tmp_path / "out", fail=fail_once)
    add_rows_sink(env, tmp_path, sink)
    client = env.execute_async("transient-job")
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert client.get_job_status().result() is JobStatus.FINISHED
    run = job_run(client)
    assert run.restarts == 1
    assert not flag.exists()
    # Batch 2 ran twice (failed, then replayed from the checkpoint with the same input).
    assert sink.calls.count(2) == 2
    assert sink.calls[:3] == [0, 1, 2]
    assert sorted(sink.batches()) == [0, 1, 2, 3]
    assert all_ids(sink.batches()) == ids_of(records)  # every record exactly once
    assert [s.batch_id for s in client.get_checkpoint_statistics()] == [0, 1, 2, 3]


def test_batches_committed_just_before_a_query_fails_are_completed_checkpoints(
        make_env, tmp_path, monkeypatch):
    import pyflink_compat.spark.polling as polling

    write_json_files(tmp_path / "in", n_files=3, rows_per_file=2)

    def fail_in_batch_2(batch_id):
        if batch_id == 2:
            raise InjectedFailure("failure in batch 2")

    # The first poll comes after batches 0 and 1 have committed and batch 2 has failed, so
    # the supervisor sees them only on the query that already ended.
    monkeypatch.setattr(polling, "FASTEST_PAUSE", 8.0)
    env = make_env({**ONE_BATCH_PER_INTERVAL, "restart-strategy.type": "none"})
    sink = BatchFiles(tmp_path / "out", fail=fail_in_batch_2)
    add_rows_sink(env, tmp_path, sink)
    client = env.execute_async("fails-between-polls")
    result = run_to_end(client)
    assert isinstance(result, Exception)
    assert sink.calls == [0, 1, 2]
    assert [s.batch_id for s in client.get_checkpoint_statistics()] == [0, 1]


def test_batches_committed_just_before_a_cancel_are_completed_checkpoints(
        make_env, tmp_path, monkeypatch):
    import pyflink_compat.spark.polling as polling

    write_json_files(tmp_path / "in", n_files=2, rows_per_file=2)
    # No poll comes between the two commits and the cancel: the supervisor sees them only
    # when it stops the query.
    monkeypatch.setattr(polling, "FASTEST_PAUSE", 30.0)
    env = make_env(ONE_BATCH_PER_INTERVAL)
    add_rows_sink(env, tmp_path, BatchFiles(tmp_path / "out"), bounded=False)
    client = env.execute_async("cancelled-between-polls")
    wait_for_commits(tmp_path / "cp" / "cancelled-between-polls" / "rows", count=2)
    client.cancel().result(60)
    assert client.get_job_status().result() is JobStatus.CANCELED
    assert [s.batch_id for s in client.get_checkpoint_statistics()] == [0, 1]


def test_failures_beyond_the_restart_strategy_fail_the_job(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)

    def always(batch_id):
        raise InjectedFailure("permanent failure in batch {}".format(batch_id))

    env = make_env({"restart-strategy.type": "fixed-delay",
                    "restart-strategy.fixed-delay.attempts": "2",
                    "restart-strategy.fixed-delay.delay": "100 ms"})
    sink = BatchFiles(tmp_path / "out", fail=always)
    add_rows_sink(env, tmp_path, sink)
    with pytest.raises(JobExecutionError) as caught:
        env.execute("failing-job")
    cause = caught.value.__cause__
    assert cause is not None
    assert "permanent failure in batch 0" in str(cause)
    assert type(cause).__name__ == "StreamingQueryException"
    run = job_runs(env)[-1]
    from pyflink_compat.common import JobClient

    assert JobClient(run).get_job_status().result() is JobStatus.FAILED
    assert run.restarts == 2
    assert sink.calls == [0, 0, 0]  # the first run and two restarts, all from the same checkpoint


def test_execute_async_client_reports_a_failed_job(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)

    def always(batch_id):
        raise InjectedFailure("boom in batch {}".format(batch_id))

    env = make_env({"restart-strategy.type": "none"})
    env.enable_checkpointing(INTERVAL_MS)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(BatchFiles(tmp_path / "out", fail=always)),
                 "rows")
    client = env.execute_async("failing-async-job")
    error = run_to_end(client)
    assert isinstance(error, JobExecutionError)
    assert "boom in batch 0" in str(error.__cause__)
    assert client.get_job_status().result() is JobStatus.FAILED


def _slow_job(make_env, tmp_path, tolerable, slow_batches, sleep_s, timeout_ms, n_files):
    write_json_files(tmp_path / "in", n_files=n_files, rows_per_file=2)
    env = make_env({"restart-strategy.type": "none"})
    env.enable_checkpointing(INTERVAL_MS)
    config = env.get_checkpoint_config()
    config.set_checkpoint_timeout(timeout_ms)
    config.set_tolerable_checkpoint_failure_number(tolerable)
    config.set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    sink = BatchFiles(tmp_path / "out", sleep=lambda b: sleep_s if b in slow_batches else 0)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows", bounded=True)
    client = env.execute_async("slow-job")
    return client, sink


def test_a_batch_running_past_the_checkpoint_timeout_fails_the_job_when_no_failure_is_tolerated(
        make_env, tmp_path):
    client, sink = _slow_job(make_env, tmp_path, tolerable=0, slow_batches={1}, sleep_s=6,
                             timeout_ms=3000, n_files=3)
    error = run_to_end(client)
    assert isinstance(error, JobExecutionError), error
    assert isinstance(error.__cause__, CheckpointFailure)
    assert "tolerable failure threshold" in str(error.__cause__)
    assert "batch 1 is still running after the checkpoint timeout" in str(error.__cause__)
    assert client.get_job_status().result() is JobStatus.FAILED
    assert 2 not in sink.calls  # the job did not go on past the slow batch
    assert 0 in sink.batches()  # batch 0 completed before the slow one


def test_slow_batches_within_the_tolerable_failure_number_let_the_job_finish(make_env, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="pyflink_compat.job")
    client, sink = _slow_job(make_env, tmp_path, tolerable=3, slow_batches={1, 2}, sleep_s=4,
                             timeout_ms=2500, n_files=4)
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    assert client.get_job_status().result() is JobStatus.FINISHED
    assert sorted(sink.batches()) == [0, 1, 2, 3]
    in_a_row = {}
    for record in caplog.records:
        match = re.search(r"failed \((\d+) in a row, 3 tolerated\): batch (\d+) is still running "
                          r"after the checkpoint timeout", record.getMessage())
        if match:
            in_a_row[int(match.group(2))] = int(match.group(1))
    # Both slow batches are failed checkpoints, counted in a row (the late end of batch 1 is no
    # successful checkpoint), and both are within the 3 tolerated.
    assert {1, 2} <= set(in_a_row), in_a_row
    assert in_a_row[2] == in_a_row[1] + 1
    completed = [s.batch_id for s in client.get_checkpoint_statistics()]
    assert 3 in completed
    # a batch that expired is a failed checkpoint, never also a completed one
    assert 1 not in completed and 2 not in completed
