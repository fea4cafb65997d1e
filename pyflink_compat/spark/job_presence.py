"""A running job's presence in its checkpoint storage: its registry record, kept current, and
the control requests it serves.

:meth:`JobPresence.begin` records a job that starts in the registry of its checkpoint storage
directory (:mod:`pyflink_compat.spark.job_registry`) and starts a thread of its own that

* rewrites the record at the storage's heartbeat (every second on local storage, every 5 s on
  any other: :class:`~pyflink_compat.spark.job_registry.StorageCadence`), and at once when the
  job's status changes, with its newest completed and failed checkpoints;
* looks for control requests once per micro-batch interval of the job's fastest query (within
  the storage's bounds of :func:`~pyflink_compat.spark.control_channel.request_poll_seconds`:
  0.1 to 0.2 s on local storage, 1 to 2 s on any other) and serves
  each through the run, exactly as :class:`~pyflink_compat.common.JobClient` does: a savepoint,
  a stop with a savepoint, a cancel (so the retention rule applies as for ``JobClient.cancel``);
  the answer is written when the run's future completes.

The thread is not the supervisor's: the supervisor waits out restart delays and writes the
savepoint of a stop, and a request is taken during both. The job's end is written by the
thread that ends it, before ``execute`` returns; a driver that exits right after its job ended
waits (a few seconds at most) for the answers still being written.

A storage that cannot be written does not stop the job: the job runs unrecorded, with a warning.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import weakref
from concurrent.futures import Future
import functools
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Set

import attrs

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.spark.control_channel import (
    Action, ControlChannel, Outcome, Request, request_poll_seconds)
from pyflink_compat.spark.failures import first_line
from pyflink_compat.spark.job_registry import (
    JobRecord, JobRegistry, StatusChange, cadence_for, process_start, this_host)

__all__ = ["JobPresence", "PresentRun", "SUBMISSION_CONF", "GIVEN_RESTORE_CONF"]

LOG = logging.getLogger("pyflink_compat.job")

#: The Spark conf that carries the id ``pyflink-compat run`` gave a submission, so that the
#: command finds the job it started.
SUBMISSION_CONF = "spark.pyflink_compat.submission"
#: The Spark conf that carries the restore path given to ``pyflink-compat run -s``: a run started
#: that way restores from it whatever its checkpoint directory holds (as ``flink run -s`` does).
GIVEN_RESTORE_CONF = "spark.pyflink_compat.given_restore_path"
#: How long a driver that exits waits for the answers its job is still writing, in seconds.
_EXIT_WAIT_SECONDS = 10.0

_live: "weakref.WeakSet[JobPresence]" = weakref.WeakSet()


def _wait_at_exit() -> None:
    deadline = time.monotonic() + _EXIT_WAIT_SECONDS
    for presence in list(_live):
        presence.settle(max(0.0, deadline - time.monotonic()))


atexit.register(_wait_at_exit)


def _spark_facts(spark: Any) -> Dict[str, Any]:
    """The Spark application id, UI address, master and submission id of the job's session."""
    facts: Dict[str, Any] = {}
    try:
        context = spark.sparkContext
        facts["app_id"] = str(context.applicationId)
        facts["ui_url"] = context.uiWebUrl
        facts["master"] = str(context.master)
        facts["submission"] = context.getConf().get(SUBMISSION_CONF, None)
    except Exception as e:  # the record says less; the job runs the same
        LOG.debug("Spark facts for the job record: %s", e)
    return facts


if TYPE_CHECKING:
    from pyflink_compat.common.job_id import JobID
    from pyflink_compat.spark.plan import JobPlan
    from pyflink_compat.spark.stats import CompletedCheckpointStats


class PresentRun(Protocol):
    """What a job's presence reads of its run and asks of it (a
    :class:`~pyflink_compat.spark.supervisor.JobRun`)."""

    @property
    def plan(self) -> "JobPlan": ...

    @property
    def job_id(self) -> "JobID": ...

    @property
    def status(self) -> JobStatus: ...

    @property
    def restarts(self) -> int: ...

    @property
    def result(self) -> "Future[Any]": ...

    def checkpoint_statistics(self) -> "Sequence[CompletedCheckpointStats]": ...

    def trigger_savepoint(self, directory: Optional[str]) -> "Future[str]": ...

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool, directory: Optional[str]) -> "Future[str]": ...

    def cancel(self) -> "Future[None]": ...


def _checkpoint_entry(stats: Any) -> Dict[str, Any]:
    return {"id": stats.checkpoint_id, "sink": stats.sink, "batch": stats.batch_id, "time": stats.trigger_timestamp,
            "duration_ms": stats.duration_ms, "state_size": stats.state_size, "records": stats.num_input_rows}


class JobPresence:
    """The registry record and control requests of one run.

    :param run: The :class:`~pyflink_compat.spark.supervisor.JobRun`.
    :param registry: The registry of the job's storage.
    :param record: Its first record (written already).
    """

    def __init__(self, run: PresentRun, registry: JobRegistry, record: JobRecord):
        self._run = run
        self._registry = registry
        self._record = record
        self._channel = ControlChannel(registry, record.job_id)
        self._history: List[StatusChange] = list(record.history)
        self._failed: List[Mapping[str, Any]] = []
        self._failed_count = 0
        self._taken: Set[str] = set()
        #: Requests being served, by id, with the future that gives their answer.
        self._open: Dict[str, "Future[Any]"] = {}
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._ended_written = threading.Event()
        self._warned = False
        self._poll = request_poll_seconds((query.interval_ms for query in run.plan.queries), registry.cadence)
        self._heartbeat = registry.cadence.heartbeat_seconds
        self._thread = threading.Thread(target=self._loop, name="pyflink_compat-presence", daemon=True)

    @classmethod
    def begin(cls, run: PresentRun, spark: Any) -> "Optional[JobPresence]":
        """Record a run that is about to start and serve its requests; ``None`` when its
        storage has no directory, or cannot be written (the job runs unrecorded then)."""
        plan = run.plan
        storage = plan.storage.path
        if storage is None or not str(storage).strip():
            return None
        now = time.time()
        job_id = run.job_id.to_hex_string()
        record = JobRecord(job_id=job_id, name=plan.job_name, status=run.status.name,
                           history=(StatusChange(run.status.name, now),), host=this_host(), pid=os.getpid(),
                           pid_start=process_start(os.getpid()), started=now, heartbeat=now,
                           heartbeat_every=cadence_for(str(storage)).heartbeat_seconds,
                           storage_dir=str(storage), job_dir=plan.job_dir)
        record = attrs.evolve(record, **_spark_facts(spark))
        try:
            registry = JobRegistry(str(storage), spark)
            registry.write(record)
            registry.prune(now)
        except (OSError, CheckpointFileError) as e:
            LOG.warning("Job %s (%s) is not recorded in its storage %s, so no command reaches it: %s",
                        plan.job_name, job_id, storage, e)
            return None
        presence = cls(run, registry, record)
        _live.add(presence)
        presence._thread.start()
        return presence

    # -- what the run reports ---------------------------------------------------------------------
    def status_changed(self, status: JobStatus) -> None:
        """The run switched to ``status`` (called by the run; takes no lock)."""
        self._history.append(StatusChange(status.name, time.time()))
        self._wake.set()

    def checkpoint_failed(self, sink: str, reason: str) -> None:
        """A checkpoint of ``sink`` failed (called by the run)."""
        self._failed.append({"sink": sink, "time": time.time(), "reason": reason})
        self._failed = self._failed[-20:]
        self._failed_count += 1

    def savepoint(self, future: "Future[str]") -> "Future[str]":
        """Record the savepoint ``future`` gives once it is written; returns ``future``."""
        def written(done: "Future[str]") -> None:
            if done.cancelled() or done.exception() is not None:
                return
            stats = self._run.checkpoint_statistics()
            with self._write_lock:
                self._record = self._fresh(stats=stats, savepoint=done.result(), savepoint_time=time.time())
                self._write()

        future.add_done_callback(written)
        return future

    # -- the record -------------------------------------------------------------------------------
    def _fresh(self, **changes: Any) -> JobRecord:
        """The record as of now, from what the run says (``stats``: its checkpoint statistics,
        read before the write lock is taken, so that it is never held while the run's is)."""
        record = self._record
        status = changes.pop("status", None) or self._history[-1].status
        stats = changes.pop("stats", None)
        if stats is None:
            stats = self._run.checkpoint_statistics()
        record = record.with_checkpoints([_checkpoint_entry(s) for s in stats], list(self._failed),
                                         len(stats), self._failed_count)
        running_since = getattr(self._run, "batch_running_since", None)
        return attrs.evolve(record, status=status, history=tuple(self._history), heartbeat=time.time(),
                            restarts=self._run.restarts,
                            batch_running_since=None if running_since is None else running_since(), **changes)

    def _write(self) -> None:
        try:
            self._registry.write(self._record)
        except OSError as e:
            if not self._warned:
                self._warned = True
                LOG.warning("The record of job %s (%s) cannot be written: %s", self._record.name,
                            self._record.job_id, e)

    # -- the thread -------------------------------------------------------------------------------
    def _loop(self) -> None:
        beat = time.monotonic()
        while not self._stopped.is_set():
            woken = self._wake.wait(self._poll)
            if self._stopped.is_set():
                return
            self._wake.clear()
            now = time.monotonic()
            try:
                if woken or now - beat >= self._heartbeat:
                    beat = now
                    stats = self._run.checkpoint_statistics()
                    with self._write_lock:
                        if self._stopped.is_set():
                            return
                        self._record = self._fresh(stats=stats)
                        self._write()
                self._serve()
            except Exception as e:  # the job runs on, whatever its record says
                LOG.debug("Job record of %s: %s", self._record.job_id, e)

    def _serve(self) -> None:
        for request in self._channel.pending():
            if request.request_id in self._taken or self._stopped.is_set():
                continue
            self._taken.add(request.request_id)
            status = self._run.status.name
            if not self._channel.accept(request, status):
                continue
            LOG.info("Job %s (%s): %s requested by %s (request %s)", self._record.name, self._record.job_id,
                     request.action.value, request.sender or "another process", request.request_id)
            try:
                future = self._dispatch(request)
            except Exception as e:  # the answer carries it
                future = Future()
                future.set_exception(e)
            self._open[request.request_id] = future
            future.add_done_callback(functools.partial(self._answer, request))

    def _dispatch(self, request: Request) -> "Future[Any]":
        run = self._run
        future: "Future[Any]"
        if request.action is Action.SAVEPOINT:
            future = run.trigger_savepoint(request.directory)
        elif request.action is Action.STOP:
            future = run.stop_with_savepoint(False, request.directory)
        else:
            future = run.cancel()
        return future

    def _answer(self, request: Request, done: "Future[Any]") -> None:
        error = None if done.cancelled() else done.exception()
        try:
            if error is None and not done.cancelled():
                result = done.result()
                self._channel.answer(request.request_id, Outcome.SUCCEEDED, None if result is None else str(result),
                                     job_status=self._history[-1].status)
            else:
                self._channel.answer(request.request_id, Outcome.FAILED,
                                     error=first_line(error) if error is not None else "cancelled",
                                     job_status=self._history[-1].status)
        except OSError as e:
            LOG.warning("The answer to request %s of job %s cannot be written: %s", request.request_id,
                        self._record.job_id, e)
        finally:
            self._open.pop(request.request_id, None)

    # -- the end ----------------------------------------------------------------------------------
    def ended(self, error: Optional[BaseException]) -> None:
        """Write the job's end, and fail the requests it did not take (called by the run once
        it has reached its terminal status, before its result is given, so that nothing of the
        job writes after a caller saw it end)."""
        self._stopped.set()
        self._wake.set()
        stats = self._run.checkpoint_statistics()
        status = self._run.status
        with self._write_lock:
            if self._history[-1].status != status.name:
                self._history.append(StatusChange(status.name, time.time()))
            self._record = self._fresh(stats=stats, status=status.name, ended=time.time(),
                                       error=None if error is None else first_line(error))
            self._write()
        try:
            for request in self._channel.pending():
                if request.request_id not in self._taken:
                    self._channel.answer(request.request_id, Outcome.FAILED, job_status=status.name,
                                         error="Job {} ({}) ended {} before it took the request.".format(
                                             self._record.name, self._record.job_id, status.name))
        except OSError as e:
            LOG.debug("Requests of job %s at its end: %s", self._record.job_id, e)
        self._ended_written.set()

    def settle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until what must be written is: once the job has
        ended, its end and every answer; while it runs, the answers whose result is known."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ended = self._run.result.done()
            waiting = [f for f in list(self._open.values()) if ended or f.done()]
            if not waiting and (not ended or self._ended_written.is_set()):
                return
            time.sleep(0.02)
