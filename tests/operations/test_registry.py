"""The job registry and the control channel, on real files, without a job: records, finding a
job, a driver that is gone, and a request's life from sending to its answer."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time

from concurrent.futures import Future
from types import SimpleNamespace
from typing import List

import attrs
import pytest

from pyflink_compat.common.job_id import JobID
from pyflink_compat.common.job_status import JobStatus

from pyflink_compat.spark.control_channel import (
    Action, ControlChannel, JobNotRunning, NoAnswer, Outcome, Request, RequestFailed, request_poll_seconds,
    send_request)
from pyflink_compat.spark.job_presence import JobPresence
from pyflink_compat.spark.job_registry import (
    GONE, JobNotFound, JobRecord, JobRegistry, StatusChange, cadence_for, driver_gone, find_job, gone_reason,
    no_progress, process_alive, process_start, shown_status, this_host)
from tests._helpers.commands import Commands
from tests._helpers.waiting import wait_until


def _record(job_id: str, name: str = "orders", status: str = "RUNNING", **changes) -> JobRecord:
    now = time.time()
    record = JobRecord(job_id=job_id, name=name, status=status, history=(StatusChange(status, now),),
                       host=this_host(), pid=os.getpid(), pid_start=process_start(os.getpid()), started=now,
                       heartbeat=now, heartbeat_every=1.0, storage_dir="/storage")
    return attrs.evolve(record, **changes)


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_record_is_written_privately_and_read_back(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    record = _record("a" * 32, checkpoints=({"id": 1, "sink": "rows", "batch": 0, "time": 5, "duration_ms": 3,
                                             "state_size": 0, "records": 2},), completed=1)
    registry.write(record)
    assert registry.read(record.job_id) == record
    assert registry.records() == [record]
    for directory in (registry.root, registry.path(record.job_id)):
        assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(registry.path(record.job_id, "job.json")).st_mode) == 0o600
    assert registry.read("b" * 32) is None


def test_jobs_are_found_by_id_unique_prefix_or_name():
    first, second = _record("ab" + "0" * 30, "orders"), _record("ac" + "0" * 30, "clicks")
    ended = _record("ad" + "0" * 30, "clicks", status="CANCELED")
    records = [first, second, ended]
    assert find_job(records, first.job_id) is first
    assert find_job(records, "ab") is first
    assert find_job(records, "orders") is first
    assert find_job(records, "clicks") is second  # the running one of two runs of that name
    with pytest.raises(JobNotFound, match="prefix 'a' is not unique"):
        find_job(records, "a")
    with pytest.raises(JobNotFound, match="No job with id or name 'nothing'"):
        find_job(records, "nothing")
    with pytest.raises(JobNotFound, match="Several jobs are named 'clicks'"):
        find_job([second, attrs.evolve(second, job_id="ae" + "0" * 30)], "clicks")


def test_a_driver_whose_process_is_gone_or_silent_is_shown_as_gone():
    alive = _record("a" * 32)
    assert driver_gone(alive) is None and shown_status(alive) == "RUNNING"
    killed = attrs.evolve(alive, pid=_dead_pid(), pid_start=None)
    assert "is gone" in driver_gone(killed) and shown_status(killed) == GONE
    reused = attrs.evolve(alive, pid_start="1")  # this pid, but another process's start time
    assert shown_status(reused) == (GONE if process_start(os.getpid()) is not None else "RUNNING")
    elsewhere = attrs.evolve(alive, host="another-host", heartbeat=time.time() - 60)
    assert "has not written its record for 60 s" in driver_gone(elsewhere)
    assert driver_gone(attrs.evolve(elsewhere, heartbeat=time.time())) is None
    assert driver_gone(attrs.evolve(killed, status="FINISHED")) is None  # an ended job is not gone
    # a living driver that has not written its record for a minute: on its host, its process decides
    silent = attrs.evolve(alive, heartbeat=time.time() - 60)
    assert process_alive(silent.pid, silent.pid_start) is True
    assert driver_gone(silent) is None and shown_status(silent) == "RUNNING"
    assert "for 60 s" in driver_gone(silent, host="another-host")


NOW = 1_000_000.0


@pytest.mark.parametrize("status, process, silent_for, gone", [
    # on the driver's host, the process found (same pid and start time): running, however silent
    ("RUNNING", True, 0.0, None),
    ("RUNNING", True, 3600.0, None),
    ("RESTARTING", True, 60.0, None),
    # on the driver's host, its process gone (or a zombie, or its pid reused): gone at once
    ("RUNNING", False, 0.0, "is gone"),
    ("CANCELLING", False, 0.0, "is gone"),
    # from another host, or a process that cannot be told apart: the heartbeat decides
    ("RUNNING", None, 0.0, None),
    ("RUNNING", None, 15.0, None),
    ("RUNNING", None, 15.5, "has not written its record for 16 s"),
    ("RUNNING", None, 3600.0, "has not written its record for 3600 s"),
    # a job that ended is never gone
    ("FINISHED", False, 3600.0, None),
    ("CANCELED", None, 3600.0, None),
])
def test_the_liveness_rule_lets_the_process_decide_on_its_host_and_the_heartbeat_elsewhere(
        status, process, silent_for, gone):
    record = _record("a" * 32, status=status, heartbeat=NOW - silent_for)
    reason = gone_reason(record, NOW, process)
    if gone is None:
        assert reason is None
    else:
        assert reason is not None and gone in reason


@pytest.mark.parametrize("intervals_ms, seconds", [
    ([100], 0.1),  # the buffer timeout's batches: a request waits for at most one batch interval
    ([150, 60000], 0.15),  # the fastest query decides
    ([None], 0.1),  # batches as soon as input arrives: as often as is reasonable
    ([20], 0.1),
    ([10000], 0.2),  # one batch per checkpoint interval: still five times a second
    ([], 0.2),
])
def test_a_job_looks_for_requests_once_per_batch_interval_within_bounds(intervals_ms, seconds):
    assert request_poll_seconds(intervals_ms) == pytest.approx(seconds)


@pytest.mark.parametrize("storage, heartbeat, poll_100ms, poll_60s", [
    ("/cp", 1.0, 0.1, 0.2),
    ("file:///cp", 1.0, 0.1, 0.2),
    ("hdfs://nn:8020/cp", 5.0, 1.0, 2.0),
    ("s3a://bucket/cp", 5.0, 1.0, 2.0),
])
def test_job_control_reads_and_writes_object_stores_and_hdfs_at_most_once_a_second(
        storage, heartbeat, poll_100ms, poll_60s):
    cadence = cadence_for(storage)
    assert cadence.heartbeat_seconds == heartbeat
    assert request_poll_seconds([100], cadence) == poll_100ms and request_poll_seconds([60000], cadence) == poll_60s
    if heartbeat > 1:  # a sender waiting for the answer reads it once a second at most, too
        assert cadence.answer_poll_seconds >= 1 and cadence.record_every_seconds >= 1


def test_ten_missed_heartbeats_count_when_they_last_longer_than_15_s():
    record = _record("a" * 32, heartbeat_every=2.0, heartbeat=NOW - 19.0)
    assert gone_reason(record, NOW, None) is None
    assert "for 21 s" in gone_reason(attrs.evolve(record, heartbeat=NOW - 21.0), NOW, None)


def test_records_of_jobs_that_ended_long_ago_are_pruned(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    old = _record("a" * 32, status="FINISHED", ended=time.time() - 7200)
    recent = _record("b" * 32, status="FINISHED", ended=time.time() - 60)
    silent = _record("c" * 32, pid=_dead_pid(), pid_start=None, heartbeat=time.time() - 7200)
    running = _record("d" * 32, started=time.time() - 7200)
    for record in (old, recent, silent, running):
        registry.write(record)
    assert registry.prune() == [old.job_id, silent.job_id]
    assert [r.job_id for r in registry.records()] == [running.job_id, recent.job_id]


# -- the control channel ------------------------------------------------------------------------------
class _Run:
    """A stand-in for a running job: the members of a ``JobRun`` that :class:`JobPresence` reads,
    with savepoints written at once to ``<directory>/savepoint-<n>`` (or failing for ``bad``)."""

    def __init__(self, storage: str):
        self.plan = SimpleNamespace(storage=SimpleNamespace(path=storage), job_name="orders", job_dir=None,
                                    queries=[SimpleNamespace(interval_ms=100)])
        self.job_id = JobID()
        self.status = JobStatus.RUNNING
        self.restarts = 0
        self.result: "Future[None]" = Future()
        self.served: List[str] = []
        self._lock = threading.Lock()

    def checkpoint_statistics(self) -> list:
        return []

    def trigger_savepoint(self, directory: str) -> "Future[str]":
        future: "Future[str]" = Future()
        if directory == "bad":
            future.set_exception(RuntimeError("no such directory"))
            return future
        with self._lock:
            self.served.append("{}/savepoint-{}".format(directory, len(self.served)))
            future.set_result(self.served[-1])
        return future


def test_a_running_job_answers_each_request_once_with_its_result_or_error(tmp_path):
    run = _Run(str(tmp_path / "cp"))
    presence = JobPresence.begin(run, None)
    assert presence is not None
    registry, job_id = JobRegistry(str(tmp_path / "cp")), run.job_id.to_hex_string()
    try:
        results = []
        threads = [threading.Thread(target=lambda: results.append(send_request(
            registry, job_id, Request.new(Action.SAVEPOINT, "/sp"), timeout=20))) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with pytest.raises(RequestFailed, match="no such directory"):
            send_request(registry, job_id, Request.new(Action.SAVEPOINT, "bad"), timeout=20)
    finally:
        run.status = JobStatus.CANCELED
        presence.ended(None)
    assert sorted(ack.result for ack in results) == sorted(run.served) and len(run.served) == 4
    assert ControlChannel(registry, job_id).pending() == []
    assert registry.read(job_id).status == "CANCELED"


def test_a_stop_answered_a_moment_after_the_job_wrote_its_end_is_the_senders_result(tmp_path):
    run = _Run(str(tmp_path / "cp"))
    stopped: "Future[str]" = Future()
    run.stop_with_savepoint = lambda advance, directory: stopped  # type: ignore[attr-defined]
    presence = JobPresence.begin(run, None)
    assert presence is not None
    registry, job_id = JobRegistry(str(tmp_path / "cp")), run.job_id.to_hex_string()

    def finish_as_a_stopped_run_does():
        wait_until(lambda: presence._open, what="the stop taken")
        run.status = JobStatus.FINISHED
        presence.ended(None)  # the end is written first ...
        time.sleep(1.5)
        stopped.set_result("/sp/savepoint-stop")  # ... the savepoint is the answer once the job finished

    ending = threading.Thread(target=finish_as_a_stopped_run_does)
    ending.start()
    try:
        ack = send_request(registry, job_id, Request.new(Action.STOP, "/sp"), timeout=20)
    finally:
        ending.join()
    assert ack.result == "/sp/savepoint-stop" and registry.read(job_id).status == "FINISHED"


def test_a_request_nobody_takes_is_withdrawn_at_its_timeout(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    registry.write(_record("a" * 32))
    started = time.monotonic()
    with pytest.raises(NoAnswer, match="did not take the request within 1 s; it was withdrawn") as caught:
        send_request(registry, "a" * 32, Request.new(Action.CANCEL), timeout=1)
    assert not caught.value.accepted and time.monotonic() - started < 5
    assert ControlChannel(registry, "a" * 32).pending() == []  # nothing left for the job to serve later


def test_a_request_taken_as_it_was_withdrawn_is_answered_withdrawn_and_not_served(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    registry.write(_record("a" * 32))
    channel = ControlChannel(registry, "a" * 32)
    request = Request.new(Action.CANCEL)
    channel.send(request)
    (pending,) = channel.pending()
    channel.withdraw(request.request_id)  # the sender gives up just before the job accepts
    assert not channel.accept(pending, "RUNNING")
    assert channel.acknowledgement(request.request_id).outcome is Outcome.WITHDRAWN


def test_a_request_to_a_job_that_ended_or_whose_driver_is_gone_fails_at_once(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    registry.write(_record("a" * 32, status="CANCELED"))
    registry.write(_record("b" * 32, pid=_dead_pid(), pid_start=None))
    started = time.monotonic()
    with pytest.raises(JobNotRunning, match="has ended: CANCELED"):
        send_request(registry, "a" * 32, Request.new(Action.SAVEPOINT), timeout=30)
    with pytest.raises(JobNotRunning, match=r"is not running: its driver \(process \d+ on .*\) is gone"):
        send_request(registry, "b" * 32, Request.new(Action.SAVEPOINT), timeout=30)
    assert time.monotonic() - started < 2
    assert ControlChannel(registry, "b" * 32).pending() == []


def test_an_unreadable_request_file_is_answered_with_an_error(tmp_path):
    registry = JobRegistry(str(tmp_path / "cp"))
    registry.write(_record("a" * 32))
    channel = ControlChannel(registry, "a" * 32)
    registry.make_dir(registry.path("a" * 32, "requests"))
    with open(registry.path("a" * 32, "requests", "0-x.json"), "w") as f:
        f.write('{"request_id": "0-x", "action": "explode"}')
    assert channel.pending() == []
    ack = channel.acknowledgement("0-x")
    assert ack.outcome is Outcome.FAILED and "cannot be read" in ack.error


# -- progress ----------------------------------------------------------------------------------------------
def test_a_running_job_whose_batch_runs_over_30_s_makes_no_progress_with_the_time_since_its_last_batch():
    now = time.time()
    checkpoints = ({"id": 3, "sink": "rows", "batch": 2, "time": (now - 50) * 1000, "duration_ms": 1000,
                    "state_size": 0, "records": 3},)
    stuck = _record("a" * 32, batch_running_since=now - 45, checkpoints=checkpoints)
    assert no_progress(stuck, now) == ("no progress: a batch has been running for 45 s (its tasks wait for "
                                       "executors, or one is stuck); its last batch completed 49 s ago")
    never = _record("b" * 32, batch_running_since=now - 40, started=now - 60)
    assert no_progress(never, now).endswith("no batch has completed since it started 60 s ago")
    assert no_progress(_record("c" * 32, batch_running_since=now - 20), now) is None  # a batch may take a while
    assert no_progress(_record("d" * 32), now) is None  # waiting for input is no stall
    assert no_progress(_record("e" * 32, status="CANCELED", batch_running_since=now - 45), now) is None


def test_list_and_info_show_a_job_that_makes_no_progress_from_its_heartbeat(tmp_path):
    run = _Run(str(tmp_path / "cp"))
    since = [time.time() - 45]
    run.batch_running_since = lambda: since[0]
    presence = JobPresence.begin(run, None)
    assert presence is not None
    registry, job_id = JobRegistry(str(tmp_path / "cp")), run.job_id.to_hex_string()
    try:
        wait_until(lambda: registry.read(job_id).batch_running_since is not None, timeout=10, what="a heartbeat")
        cli = Commands(tmp_path)
        code, out, err = cli("list")
        assert code == 0, err
        section = out.split("-------------- Running jobs making no progress ---------------\n")[1].splitlines()
        assert job_id in section[0] and ": no progress: a batch has been running for 4" in section[0]
        assert cli.json("info", job_id)["no_progress"].startswith("no progress: a batch has been running for 4")
        since[0] = time.time()  # a new batch began: progress again
        wait_until(lambda: no_progress(registry.read(job_id)) is None, timeout=10, what="the next heartbeat")
        assert "making no progress" not in cli("list")[1]
    finally:
        run.status = JobStatus.CANCELED
        presence.ended(None)
