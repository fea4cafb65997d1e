"""Running a job: its queries, their checkpoints, failures, restarts and clean-up.

A :class:`JobRun` starts one Spark streaming query per sink and watches them from a thread of
its own. It only polls and dispatches: what it needs comes from the :class:`JobPlan`, and each
Flink rule it applies is a function of :mod:`pyflink_compat.spark.rules` or a
:mod:`pyflink_compat.spark.restart` strategy:

* every committed micro-batch is a completed checkpoint (recorded as statistics and logged);
* a batch running past the checkpoint timeout, a failed checkpoint commit, or (with
  JobManager storage) state past its maximum size is a failed checkpoint; more consecutive
  failed checkpoints than tolerated fail the job;
* a failed job is restarted from its checkpoints as long as the restart strategy allows;
* when the job ends, its checkpoints are kept or deleted by the retention mode, deleting only
  what the job provably created.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from concurrent.futures import Future
from typing import Any, List, Optional, Sequence

from pyflink_compat.common.job_execution_result import JobExecutionResult
from pyflink_compat.common.job_id import JobID
from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.spark.checkpoint_dirs import CheckpointDirs, remove_temporary_root
from pyflink_compat.spark.plan import JobPlan, QueryPlan, SinkSpec, no_effect_message
from pyflink_compat.spark.rules import (
    IDLE_POLLS_BEFORE_FINISHED, CheckpointFailure, FailedCheckpoints, batch_took_too_long,
    deletes_checkpoints, idle_polls_after, partitions_mismatch, running_past_timeout, state_size_rejection,
    state_store_mismatch)
from pyflink_compat.spark.stats import CompletedCheckpointStats, stats_from_progress
from pyflink_compat.spark.translation import PROVIDER_CLASS, SHUFFLE_PARTITIONS
from pyflink_compat.spark.writers import apply_query_plan
from pyflink_compat.util.exceptions import job_failure

__all__ = ["JobRun", "NoSparkEffectWarning", "StateStoreMismatchWarning", "CheckpointFailure"]

LOG = logging.getLogger("pyflink_compat.job")

_POLL_SECONDS = 0.1
_CHECKPOINT_LOG_CLASSES = ("CheckpointFileManager", "HDFSMetadataLog", "CommitLog", "OffsetSeqLog")


class NoSparkEffectWarning(UserWarning):
    """Settings in force for a job that Spark does not honour."""


class StateStoreMismatchWarning(UserWarning):
    """A query resumes from a checkpoint written with another state store than configured."""


def _is_checkpoint_write_failure(exc: Any) -> bool:
    text = "{} {}".format(getattr(exc, "desc", ""), getattr(exc, "stackTrace", ""))
    return any(name in text for name in _CHECKPOINT_LOG_CLASSES)


class _Query:
    """One sink's query across restarts."""

    def __init__(self, sink: SinkSpec, plan: QueryPlan):
        self.sink = sink
        self.plan = plan
        self.handle: Any = None
        self.last_batch = -1
        self.finished = False
        self.idle_polls = 0
        self.active_since: Optional[float] = None
        self.timed_out_batch: Optional[int] = None
        #: Whether the current handle has completed a trigger (with or without data).
        self.triggered = False


class JobRun:
    """One execution of a job.

    :param plan: What the job does on Spark.
    :param sinks: The sinks, in registration order.
    :param spark: The environment's Spark session.
    :param temporary_root: The job-owned directory for temporary checkpoint locations.
    """

    def __init__(self, plan: JobPlan, sinks: Sequence[SinkSpec], spark: Any, temporary_root: str):
        self.plan = plan
        self.job_id = JobID()
        self._spark = spark
        self._temporary_root = temporary_root
        self._queries = [_Query(s, q) for s, q in zip(sinks, plan.queries)]
        self._status = JobStatus.CREATED
        self._lock = threading.RLock()
        self._cancel = threading.Event()
        self._interrupt = threading.Event()
        self._result: 'Future[JobExecutionResult]' = Future()
        self._cancelled: 'Future[None]' = Future()
        self._stats: List[CompletedCheckpointStats] = []
        self._failed = FailedCheckpoints(plan.tolerable_failed_checkpoints)
        self._restart = plan.restart.start()
        self._dirs: Optional[CheckpointDirs] = None
        self._started_at = 0.0
        self.kept: List[str] = []
        self.mismatches: List[str] = []
        self.restarts = 0
        self._thread = threading.Thread(target=self._run, name="pyflink_compat-job", daemon=True)

    # -- what clients see ---------------------------------------------------------------------
    @property
    def status(self) -> JobStatus:
        with self._lock:
            return self._status

    @property
    def result(self) -> 'Future[JobExecutionResult]':
        return self._result

    def checkpoint_statistics(self) -> List[CompletedCheckpointStats]:
        with self._lock:
            return list(self._stats)

    def cancel(self) -> 'Future[None]':
        """Ask the job to stop; the future completes once it is cancelled."""
        with self._lock:
            if self._status.is_terminal_state():
                if not self._cancelled.done():
                    self._cancelled.set_result(None)
                return self._cancelled
            self._set_status(JobStatus.CANCELLING)
        self._cancel.set()
        return self._cancelled

    def interrupt(self) -> None:
        """Stop the queries without ending the job: checkpoints are kept (``SUSPENDED``)."""
        self._interrupt.set()
        self._cancel.set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- start ----------------------------------------------------------------------------------
    def start(self) -> None:
        self._prepare_directories()
        message = no_effect_message(self.plan)
        if message is not None:
            warnings.warn(message, NoSparkEffectWarning, stacklevel=3)
            LOG.warning(message)
        LOG.info("Starting job %s (%s)\n%s", self.plan.job_name, self.job_id, self.plan)
        self._started_at = time.monotonic()
        self._thread.start()

    def _prepare_directories(self) -> None:
        durable = self.plan.durable_sinks
        if self.plan.job_dir is None or not durable:
            return
        self._dirs = CheckpointDirs(self._spark, self.plan.job_dir, self.plan.job_name)
        foreign = self._dirs.claim(durable)
        for sink in foreign:
            LOG.warning("Query '%s' resumes from a checkpoint this job did not create; it will "
                        "never be deleted by the job.", sink)
        wanted = self.plan.spark_conf.get(PROVIDER_CLASS)
        partitions = self.plan.spark_conf.get(SHUFFLE_PARTITIONS)
        for sink in durable:
            pinned = self._dirs.pinned_conf(sink)
            for text in (state_store_mismatch(sink, pinned.get(PROVIDER_CLASS), wanted),
                         partitions_mismatch(sink, pinned.get(SHUFFLE_PARTITIONS), partitions)):
                if text is not None:
                    self.mismatches.append(text)
                    warnings.warn(text, StateStoreMismatchWarning, stacklevel=4)
                    LOG.warning(text)

    # -- the supervising thread -------------------------------------------------------------------
    def _set_status(self, status: JobStatus) -> None:
        with self._lock:
            if self._status is not status:
                LOG.info("Job %s (%s) switched to %s", self.plan.job_name, self.job_id, status.name)
            self._status = status

    def _run(self) -> None:
        try:
            while True:
                self._start_queries()
                outcome, cause = self._watch()
                self._stop_queries()
                if outcome == "finished":
                    return self._finish(JobStatus.FINISHED)
                if outcome == "cancelled":
                    return self._finish(JobStatus.SUSPENDED if self._interrupt.is_set()
                                        else JobStatus.CANCELED)
                delay = self._restart.on_failure(time.monotonic())
                if delay is None:
                    return self._finish(JobStatus.FAILED, cause)
                self.restarts += 1
                self._set_status(JobStatus.RESTARTING)
                LOG.warning("Job %s failed (%s); restarting from its checkpoints in %.2f s "
                            "(restart %d)", self.plan.job_name, cause, delay, self.restarts)
                if self._cancel.wait(delay):
                    return self._finish(JobStatus.SUSPENDED if self._interrupt.is_set()
                                        else JobStatus.CANCELED)
        except BaseException as e:  # the job must end in a terminal state, whatever happened
            self._stop_queries()
            self._finish(JobStatus.FAILED, e)

    def _start_queries(self) -> None:
        self._failed.reset()
        for query in self._queries:
            if query.finished:
                continue
            query.handle = apply_query_plan(query.sink.writer, query.plan).start()
            query.active_since = None
            query.idle_polls = 0
            query.triggered = False
        if self._dirs is not None:
            self._dirs.record_query_ids()
        self._set_status(JobStatus.RUNNING)

    def _stop_queries(self) -> None:
        for query in self._queries:
            if query.handle is not None:
                try:
                    query.handle.stop()
                except Exception as e:  # a query that already died stops with its error
                    LOG.debug("Stopping query %s: %s", query.sink.name, e)

    def _watch(self) -> 'tuple[str, Optional[BaseException]]':
        while True:
            if self._cancel.wait(_POLL_SECONDS):
                return "cancelled", None
            for query in self._queries:
                if query.finished:
                    continue
                failure = self._check_query(query)
                if failure is not None:
                    return "failed", failure
            if all(q.finished for q in self._queries):
                return "finished", None

    def _check_query(self, query: _Query) -> Optional[BaseException]:
        handle = query.handle
        j_query = handle._jsq
        if not j_query.isActive():
            error: Optional[BaseException] = handle.exception()
            if error is None:
                query.finished = True
                return None
            if _is_checkpoint_write_failure(error):
                failure = self._failed_checkpoint(query, "its checkpoint could not be written: {}".format(
                    getattr(error, "desc", error)))
                if failure is None:
                    query.handle = apply_query_plan(query.sink.writer, query.plan).start()
                    query.triggered = False
                return failure
            return error
        failure = self._collect_progress(query)
        if failure is not None:
            return failure
        return self._check_timeout_and_end(query, j_query)

    def _collect_progress(self, query: _Query) -> Optional[BaseException]:
        recent = query.handle._jsq.recentProgress()
        if len(recent) > 0:
            # Spark reports every batch, and the first trigger that found no data.
            query.triggered = True
        fresh = []
        for index in range(len(recent) - 1, -1, -1):
            j_progress = recent[index]
            if int(j_progress.batchId()) <= query.last_batch:
                break
            fresh.append(j_progress)
        for j_progress in reversed(fresh):
            stats = stats_from_progress(query.sink.name, j_progress)
            if stats is None:
                continue
            query.last_batch = max(query.last_batch, stats.batch_id)
            if not self.plan.checkpointing_enabled:
                continue
            query.active_since = None
            if stats.batch_id == query.timed_out_batch:
                continue  # it expired while running: a failed checkpoint, not a completed one
            if batch_took_too_long(stats.duration_ms, self.plan.checkpoint_timeout):
                failure = self._failed_checkpoint(query, "batch {} took {} ms, past the checkpoint "
                                                  "timeout".format(stats.batch_id, stats.duration_ms))
                if failure is not None:
                    return failure
                continue
            rejection = state_size_rejection(stats.state_size, self.plan.state_limit)
            if rejection is not None:
                failure = self._failed_checkpoint(query, rejection)
                if failure is not None:
                    return failure
                continue
            self._failed.reset()
            with self._lock:
                self._stats.append(stats)
            LOG.info("Job %s: completed %s", self.plan.job_name, stats)
        return None

    def _check_timeout_and_end(self, query: _Query, j_query: Any) -> Optional[BaseException]:
        status = j_query.status()
        trigger_active = bool(status.isTriggerActive())
        now = time.monotonic()
        if trigger_active:
            query.idle_polls = 0
            if query.active_since is None:
                query.active_since = now
            running_batch = query.last_batch + 1
            if self.plan.checkpointing_enabled and query.timed_out_batch != running_batch \
                    and running_past_timeout(query.active_since, now, self.plan.checkpoint_timeout):
                query.timed_out_batch = running_batch
                return self._failed_checkpoint(query, "batch {} is still running after the "
                                               "checkpoint timeout".format(running_batch))
            return None
        query.active_since = None
        query.idle_polls = idle_polls_after(query.idle_polls, query.sink.bounded,
                                            bool(status.isDataAvailable()), query.triggered)
        if query.idle_polls >= IDLE_POLLS_BEFORE_FINISHED:
            query.handle.stop()
            query.finished = True
            LOG.info("Job %s: sink '%s' consumed all its input", self.plan.job_name, query.sink.name)
        return None

    def _failed_checkpoint(self, query: _Query, reason: str) -> Optional[BaseException]:
        failure = self._failed.record(query.sink.name, reason)
        LOG.warning("Job %s: checkpoint of '%s' failed (%d in a row, %d tolerated): %s",
                    self.plan.job_name, query.sink.name, self._failed.count, self._failed.tolerable,
                    reason)
        return failure

    # -- the end ------------------------------------------------------------------------------
    def _finish(self, status: JobStatus, cause: Optional[BaseException] = None) -> None:
        retention = self.plan.retention
        delete = deletes_checkpoints(retention, status)
        if status is JobStatus.FAILED:
            self._set_status(JobStatus.FAILING)
        try:
            if delete and self._dirs is not None:
                self.kept = self._dirs.delete_owned(self.plan.durable_sinks)
            elif self._dirs is not None:
                LOG.info("Job %s ended %s: checkpoints kept under %s (retention %s)",
                         self.plan.job_name, status.name, self._dirs.job_dir, retention)
        finally:
            remove_temporary_root(self._temporary_root)
            self._set_status(status)
            runtime = int((time.monotonic() - self._started_at) * 1000)
            if status is JobStatus.FAILED:
                self._result.set_exception(job_failure("Job '{}' ({}) failed: {}".format(
                    self.plan.job_name, self.job_id, cause), cause))
            else:
                self._result.set_result(JobExecutionResult(self.job_id, runtime))
            if not self._cancelled.done():
                self._cancelled.set_result(None)
