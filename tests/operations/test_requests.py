"""Control requests to jobs running in this process, sent as another process sends them: each is
served once, while a batch runs or the job restarts, and two jobs in one storage are never
confused."""

from __future__ import annotations

import collections
import json
import os
import threading
import time

import pytest

from pyflink_compat.checkpoints.layout import MARKER_NAME
from pyflink_compat.checkpoints.manifest import read_manifest
from pyflink_compat.cli import main
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from pyflink_compat.common import JobStatus
from pyflink_compat.spark.control_channel import Action, Request, send_request
from pyflink_compat.spark.job_registry import JobRegistry
from pyflink_compat.util.exceptions import JobExecutionError
from tests._helpers.files import file_uri, read_batch_files, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end, wait_for_commits
from tests._helpers.waiting import wait_until

#: How long each batch of the slow sink takes, in seconds.
BATCH_SECONDS = 1.5


def _start(make_env, tmp_path, name, sink, options=None):
    env = make_env(dict({"execution.checkpointing.dir": file_uri(tmp_path / "cp"),
                         "execution.checkpointing.interval": "{} ms".format(INTERVAL_MS)}, **(options or {})))
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.foreachBatch(sink), "rows")
    client = env.execute_async(name)
    wait_for_commits(tmp_path / "cp" / name / "rows")
    return client


def _savepoints(directory):
    return sorted(n for n in os.listdir(directory) if not n.startswith(".")) if os.path.isdir(directory) else []


def test_requests_sent_while_a_batch_runs_are_each_served_once_within_the_batch_and_savepoint_time(
        make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=12, rows_per_file=2)
    sink = BatchFiles(tmp_path / "out", sleep=lambda batch: BATCH_SECONDS)
    client = _start(make_env, tmp_path, "slow", sink)
    job_id = client.get_job_id().to_hex_string()
    registry = JobRegistry(file_uri(tmp_path / "cp"))
    wait_until(lambda: len(sink.calls) > len(os.listdir(tmp_path / "out")), what="a batch running")
    answers, took = [], []

    def request():
        sent = time.monotonic()
        answers.append(send_request(registry, job_id, Request.new(Action.SAVEPOINT, str(tmp_path / "sp")), 60))
        took.append(time.monotonic() - sent)

    threads = [threading.Thread(target=request) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    paths = sorted(ack.result for ack in answers)
    assert len(set(paths)) == 3 and [os.path.basename(p) for p in paths] == _savepoints(tmp_path / "sp")
    for path in paths:
        assert read_manifest(LocalFileAccess(), path)["job_id"] == job_id
    # a request is taken within a poll and the savepoint copies committed files: no batch is waited for
    assert max(took) < INTERVAL_MS / 1000 + BATCH_SECONDS + 5, took
    wait_until(lambda: registry.read(job_id).savepoint in paths, what="the savepoint in the record")

    cancelled = send_request(registry, job_id, Request.new(Action.CANCEL), 60)
    assert cancelled.job_status == "CANCELED" and client.get_job_status().result() is JobStatus.CANCELED
    record = registry.read(job_id)
    assert record.status == "CANCELED" and record.ended is not None
    assert [change.status for change in record.history] == ["CREATED", "RUNNING", "CANCELLING", "CANCELED"]
    assert record.completed >= 1 and record.checkpoints[-1]["sink"] == "rows"
    # each request is removed once its answer is written (the answer is what the sender waits for)
    wait_until(lambda: os.listdir(registry.path(job_id, "requests")) == [], timeout=10,
               what="the answered requests removed")
    acks = [json.loads(open(registry.path(job_id, "acks", name)).read()) for name in
            os.listdir(registry.path(job_id, "acks"))]
    assert sorted(a["outcome"] for a in acks) == ["SUCCEEDED"] * 4
    assert sink.calls == sorted(set(sink.calls))  # cancelled between batches of its own, none twice


def test_a_savepoint_requested_while_the_job_restarts_is_served(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=4, rows_per_file=2)
    failed = []

    def fail_once(batch):
        if batch == 1 and not failed:
            failed.append(batch)
            raise RuntimeError("injected failure")

    client = _start(make_env, tmp_path, "restarting", BatchFiles(tmp_path / "out", fail=fail_once),
                    {"restart-strategy.type": "fixed-delay", "restart-strategy.fixed-delay.attempts": "1",
                     "restart-strategy.fixed-delay.delay": "4 s"})
    job_id = client.get_job_id().to_hex_string()
    registry = JobRegistry(file_uri(tmp_path / "cp"))
    wait_until(lambda: client.get_job_status().result() is JobStatus.RESTARTING, what="the restart")
    sent = time.monotonic()
    ack = send_request(registry, job_id, Request.new(Action.SAVEPOINT, str(tmp_path / "sp")), 60)
    assert time.monotonic() - sent < 4  # served while the restart waits out its delay
    assert read_manifest(LocalFileAccess(), ack.result)["queries"][0]["batch_id"] == 0
    assert "RESTARTING" in [change.status for change in registry.read(job_id).history]
    client.cancel().result(60)


def test_two_jobs_in_one_storage_are_never_confused(make_env, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    write_json_files(tmp_path / "in", n_files=30, rows_per_file=1)
    first = _start(make_env, tmp_path, "first", BatchFiles(tmp_path / "out1", sleep=lambda b: 0.2))
    second = _start(make_env, tmp_path, "second", BatchFiles(tmp_path / "out2", sleep=lambda b: 0.2))
    registry = JobRegistry(file_uri(tmp_path / "cp"))
    ids = {"first": first.get_job_id().to_hex_string(), "second": second.get_job_id().to_hex_string()}
    assert sorted((r.name, r.job_id) for r in registry.records()) == sorted(ids.items())
    for name, job_id in ids.items():
        ack = send_request(registry, job_id, Request.new(Action.SAVEPOINT, str(tmp_path / "sp" / name)), 60)
        manifest = read_manifest(LocalFileAccess(), ack.result)
        assert (manifest["job_name"], manifest["job_id"]) == (name, job_id)
    # the command, by name, as another process runs it (here in this one, through the same files)
    assert main(["cancel", "first", "-D", "execution.checkpointing.dir=" + file_uri(tmp_path / "cp")]) == 0
    assert capsys.readouterr().out.splitlines() == ["Cancelling job {}.".format(ids["first"]),
                                                    "Cancelled job {}.".format(ids["first"])]
    assert first.get_job_status().result() is JobStatus.CANCELED
    assert second.get_job_status().result() is JobStatus.RUNNING
    assert registry.read(ids["second"]).status == "RUNNING"
    stopped = send_request(registry, ids["second"], Request.new(Action.STOP, str(tmp_path / "sp" / "stop")), 60)
    assert run_to_end(second).get_job_id().to_hex_string() == ids["second"]
    assert registry.read(ids["second"]).savepoint == stopped.result
    assert [r.status for r in registry.records()] == ["CANCELED", "FINISHED"]


def _latest_counts(out):
    """Each key's count in the newest batch that updated it (an update-mode sink's result)."""
    counts = {}
    for _, rows in sorted(read_batch_files(out).items()):
        counts.update({row["key"]: row["count"] for row in rows})
    return counts


def test_a_second_run_of_a_running_job_name_is_refused_before_it_touches_the_first_ones_checkpoints(
        make_env, tmp_path):
    written = write_json_files(tmp_path / "in", n_files=3, rows_per_file=2)
    options = {"execution.checkpointing.dir": file_uri(tmp_path / "cp"),
               "execution.checkpointing.interval": "{} ms".format(INTERVAL_MS)}

    def counting(env, out):
        frame = json_stream(env, tmp_path / "in").groupBy("key").count()
        env.add_sink(frame.writeStream.outputMode("update").foreachBatch(BatchFiles(out)), "rows")
        return env

    first = counting(make_env(options), tmp_path / "out1").execute_async("orders")
    job_dir = tmp_path / "cp" / "orders"
    wait_for_commits(job_dir / "rows")
    first_id = first.get_job_id().to_hex_string()
    runs_before = json.loads((job_dir / MARKER_NAME).read_text())["runs"]

    with pytest.raises(JobExecutionError) as refused:
        counting(make_env(options), tmp_path / "out2").execute_async("orders")
    message = str(refused.value)
    assert "Job 'orders' could not start: a job of this name is already running on its checkpoint directory" \
        in message and "(job id {}".format(first_id) in message and "no file was touched" in message, message
    # the second run wrote nothing: no run of its own in the marker, no batch, no registry record
    assert json.loads((job_dir / MARKER_NAME).read_text())["runs"] == runs_before
    assert os.listdir(tmp_path / "out2") == []
    assert [r.job_id for r in JobRegistry(file_uri(tmp_path / "cp")).records()] == [first_id]
    # the first runs on from its own state: later input is counted onto the counts it kept
    assert first.get_job_status().result() is JobStatus.RUNNING
    written += write_json_files(tmp_path / "in", n_files=3, rows_per_file=2, start_file=3)
    expected = dict(collections.Counter(row["key"] for row in written))
    wait_until(lambda: _latest_counts(tmp_path / "out1") == expected, what="every row counted once")
    first.cancel().result(60)
