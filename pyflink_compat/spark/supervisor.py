"""Starting a job and supervising it: its queries, their checkpoints, failures, restarts and end.

:func:`start_job` takes a job's plan (made by :func:`pyflink_compat.spark.plan.plan_run`), ships
its Python files and starts a :class:`JobRun`. A run checks what can be checked before anything runs
(:mod:`pyflink_compat.spark.start_checks`), starts one Spark streaming query per sink, and
watches them from a thread of its own. What it needs comes from the :class:`JobPlan`, and each
Flink rule it applies is a function of :mod:`pyflink_compat.spark.rules` or a
:mod:`pyflink_compat.spark.restart` strategy:

* committed micro-batches are completed checkpoints, one per batch or one per interval as the
  job is paced (:mod:`pyflink_compat.spark.pacing`); the
  :class:`~pyflink_compat.spark.checkpoint_tracker.CheckpointTracker` records them as
  statistics;
* a batch running past the checkpoint timeout, a failed checkpoint commit, or (with
  JobManager storage) state past its maximum size fails its checkpoint, counted in the same
  unit; more consecutive failed checkpoints than tolerated fail the job;
* a query that died because its checkpoint could not be written, while failed checkpoints are
  still tolerated, is started again at once on its own (the tolerated write-failure restart,
  see :mod:`pyflink_compat.spark.restart`);
* a failed job is restarted from its checkpoints as long as the restart strategy allows, except
  for a failure no restart can cure (state saved with another schema than the pipeline needs,
  see :func:`pyflink_compat.spark.failures.state_schema_change`), which fails it at once;
* a stop-with-savepoint stops the queries, has the savepoint written
  (:mod:`pyflink_compat.spark.job_savepoints`), then ends the job, or restarts the queries when
  the savepoint could not be written;
* when the job ends, its checkpoints are kept or deleted by the retention mode, deleting only
  what the job provably created (see :mod:`pyflink_compat.spark.ownership`).

Failures are the job's error (:class:`~pyflink_compat.util.exceptions.JobExecutionError`), with
the file or directory at fault in the message:

* before anything starts, :meth:`JobRun.start` refuses settings Spark cannot run, storage it
  cannot write, a corrupt marker or checkpoint file, and a checkpoint that does not fit the
  query's pipeline; nothing is deleted then;
* a query that fails to start counts as a failure of the job, so the restart strategy decides;
* before each (re)start, and whenever new batches complete, a query's checkpoint must still
  hold the newest batch this job saw committed there: a checkpoint deleted or truncated while
  the job runs fails the job instead of being rebuilt from the beginning.

:func:`job_run` and :func:`job_runs` give the run behind a ``JobClient`` and the runs an
environment started, for tests and tools that look at a run's queries, restarts and kept
checkpoints.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from pyflink_compat.common.job_execution_result import JobExecutionResult
from pyflink_compat.common.job_id import JobID
from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.spark.batch_interruption import report_interruptions
from pyflink_compat.spark.checkpoint_tracker import CheckpointTracker
from pyflink_compat.spark.failures import (
    CheckpointLost, NonRecoverableFailure, QueryStartFailure, failure_context, first_line,
    is_checkpoint_write_failure, state_schema_change)
from pyflink_compat.spark.job_presence import JobPresence
from pyflink_compat.spark.job_savepoints import SavepointWrite, stop_with_savepoint, trigger_savepoint, write_on_stop
from pyflink_compat.spark.ownership import (
    CheckpointError, Ending, JobOwnership)
from pyflink_compat.spark.polling import (
    Pacer, keeps_pace, needs_status, slowest_pause, status_every)
from pyflink_compat.spark.plan import DURABLE, JobPlan, SinkSpec, apply_query_plan, remove_temporary_root
from pyflink_compat.spark.rules import (
    IDLE_POLLS_BEFORE_FINISHED, idle_polls_after, looks_for_input, lost_progress, running_past_timeout,
    runs_batch)
from pyflink_compat.spark.start_checks import check_before_start, record_new_shape
from pyflink_compat.spark.stats import CompletedCheckpointStats
from pyflink_compat.spark.watched_query import WatchedQuery
from pyflink_compat.util.exceptions import job_failure

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["JobRun", "start_job", "job_run", "job_runs"]

LOG = logging.getLogger("pyflink_compat.job")


def start_job(plan: JobPlan, spark: "SparkSession", sinks: Sequence[SinkSpec]) -> "JobRun":
    """Start a planned job's queries under supervision."""
    from pyflink_compat._logging import install_default_handler

    # The job log shows on standard error unless the application configured it (see _logging).
    install_default_handler()
    try:
        _ship_python_dependencies(spark, plan)
        run = JobRun(plan, sinks, spark, plan.temporary_root)
        run.start()
    except BaseException:  # the job never started: nothing will remove its directory later
        remove_temporary_root(plan.temporary_root)
        raise
    return run


def _ship_python_dependencies(spark: "SparkSession", plan: JobPlan) -> None:
    """Ship the job's Python files and archives (``python.files``, ``python.archives``) to the
    executors, as Flink ships them to its Python workers."""
    context = spark.sparkContext
    for path in plan.python_files:
        context.addPyFile(path)
    for path in plan.python_archives:
        context.addArchive(path)


def job_run(client: Any) -> "JobRun":
    """The run behind a :class:`~pyflink_compat.common.JobClient` (PyFlink's ``JobClient``
    has no accessor for it).

    :raises TypeError: when ``client`` holds no run.
    """
    run = getattr(client, "_run", None)
    if not isinstance(run, JobRun):
        raise TypeError("{} holds no job run".format(type(client).__name__))
    return run


def job_runs(env: Any) -> Tuple["JobRun", ...]:
    """The runs a :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` started, oldest
    first (PyFlink's environment has no accessor for them)."""
    return tuple(getattr(env, "_runs", ()))


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
        self._queries = [WatchedQuery(s, q) for s, q in zip(sinks, plan.queries)]
        self._status = JobStatus.CREATED
        self._lock = threading.RLock()
        self._cancel = threading.Event()
        self._interrupt = threading.Event()
        self._result: 'Future[JobExecutionResult]' = Future()
        self._cancelled: 'Future[None]' = Future()
        self._checkpoints = CheckpointTracker(plan, self._check_commit, self._checkpoint_failed)
        self._restart = plan.restart.start()
        self._dirs: Optional[JobOwnership] = None
        #: The saved broadcast state each rescaled query's tasks seed their partitions with.
        self._broadcast_seeds: Dict[str, str] = {}
        self.run_id = self.job_id.to_hex_string()  # what the marker records for this run
        #: Which query failed last and the checkpoint files its error names.
        self._failure_context: Optional[str] = None
        self._started_at = 0.0
        self._kept: List[str] = []
        self._restarts = 0
        self._stop_request: Optional[SavepointWrite] = None
        #: Its record in the job registry and the control requests it serves.
        self._presence: Optional[JobPresence] = None
        self._thread = threading.Thread(target=self._run, name="pyflink_compat-job", daemon=True)

    # -- what clients see ---------------------------------------------------------------------
    @property
    def status(self) -> JobStatus:
        with self._lock:
            return self._status

    @property
    def result(self) -> 'Future[JobExecutionResult]':
        return self._result

    @property
    def handles(self) -> Tuple[Any, ...]:
        """Each sink's running PySpark ``StreamingQuery``, in registration order (``None``
        for a query not running: not started yet, finished, or between restarts)."""
        return tuple(query.handle for query in self._queries)

    @property
    def restarts(self) -> int:
        """How often the restart strategy restarted the job."""
        return self._restarts

    @property
    def kept(self) -> Tuple[str, ...]:
        """Why each directory the job's end would have deleted was kept (empty when all went,
        or when retention kept the checkpoints)."""
        return tuple(self._kept)

    def batch_running_since(self) -> Optional[float]:
        """When (epoch seconds) the oldest batch still running began, as the last poll of the
        queries found; ``None`` when none runs."""
        started = [q.active_since for q in self._queries if q.handle is not None and q.active_since is not None]
        return None if not started else time.time() - (time.monotonic() - min(started))

    def checkpoint_statistics(self) -> List[CompletedCheckpointStats]:
        return self._checkpoints.statistics()

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

    def trigger_savepoint(self, directory: Optional[str]) -> 'Future[str]':
        """Take a savepoint while the queries run (:func:`job_savepoints.trigger_savepoint
        <pyflink_compat.spark.job_savepoints.trigger_savepoint>`)."""
        future = trigger_savepoint(self.plan, self.job_id, self.status, self._spark, directory)
        return future if self._presence is None else self._presence.savepoint(future)

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool, directory: Optional[str]) -> 'Future[str]':
        """Stop the queries, take a savepoint, then finish the job
        (:func:`job_savepoints.stop_with_savepoint
        <pyflink_compat.spark.job_savepoints.stop_with_savepoint>`)."""
        future = stop_with_savepoint(self.plan, self.job_id, self.status, self._spark, self._stop_for_savepoint,
                                     advance_to_end_of_event_time, directory)
        return future if self._presence is None else self._presence.savepoint(future)

    def _stop_for_savepoint(self, write: Callable[[], str]) -> 'Future[str]':
        """Stop the queries, call ``write`` once they have terminated, then finish the job."""
        future: 'Future[str]' = Future()
        with self._lock:
            if self._stop_request is not None or self._status.is_terminal_state() or self._cancel.is_set():
                future.set_exception(RuntimeError("Job {} is already stopping".format(self.job_id)))
                return future
            self._stop_request = (write, future)
        self._cancel.set()
        return future

    def interrupt(self) -> None:
        """Stop the queries without ending the job: checkpoints are kept (``SUSPENDED``)."""
        self._interrupt.set()
        self._cancel.set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    # -- start ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Check what can be checked before anything runs, then start supervising.

        :raises JobExecutionError: when the job cannot run (nothing was started or deleted).
        """
        prepared = check_before_start(self.plan, [(q.sink, q.plan) for q in self._queries],
                                      self._spark, self.run_id)
        self._dirs = prepared.dirs
        self._broadcast_seeds = prepared.broadcast_seeds
        for query in self._queries:
            query.last_committed = prepared.last_committed.get(query.sink.name, query.last_committed)
            query.shape_unrecorded = query.sink.name in prepared.unrecorded
        LOG.info("Starting job %s (%s): %s", self.plan.job_name, self.job_id, self.plan.summary())
        LOG.debug("Plan of job %s (%s):\n%s", self.plan.job_name, self.job_id, self.plan)
        for line in prepared.starting_points:
            LOG.info(line)
        self._started_at = time.monotonic()
        self._presence = JobPresence.begin(self, self._spark)
        self._thread.start()

    # -- the supervising thread -------------------------------------------------------------------
    def _set_status(self, status: JobStatus) -> None:
        with self._lock:
            if self._status is not status:
                LOG.info("Job %s (%s) switched to %s", self.plan.job_name, self.job_id, status.name)
                if self._presence is not None:
                    self._presence.status_changed(status)
            self._status = status

    def _run(self) -> None:
        try:
            while True:
                cause = self._start_queries()
                if cause is None:
                    outcome, cause = self._watch()
                else:
                    outcome = "failed"
                self._stop_queries(record_progress=outcome == "cancelled")
                if outcome == "finished":
                    return self._finish(JobStatus.FINISHED)
                if outcome == "cancelled" and self._stop_request is not None:
                    request, self._stop_request = self._stop_request, None
                    path = write_on_stop(request)
                    if path is not None:
                        try:
                            return self._finish(JobStatus.FINISHED)
                        finally:
                            request[1].set_result(path)
                    with self._lock:  # the savepoint failed: the job runs on, as in Flink
                        if self._status is not JobStatus.CANCELLING and not self._interrupt.is_set():
                            self._cancel.clear()
                            continue
                if outcome == "cancelled":
                    return self._finish(JobStatus.SUSPENDED if self._interrupt.is_set()
                                        else JobStatus.CANCELED)
                if isinstance(cause, NonRecoverableFailure):
                    LOG.error("Job %s failed and is not restarted: %s", self.plan.job_name, cause)
                    return self._finish(JobStatus.FAILED, cause)
                delay = self._restart.on_failure(time.monotonic())
                if delay is None:
                    return self._finish(JobStatus.FAILED, cause)
                self._restarts += 1
                self._set_status(JobStatus.RESTARTING)
                LOG.warning("Job %s failed (%s); restarting from its checkpoints in %.2f s "
                            "(restart %d)", self.plan.job_name, cause, delay, self._restarts)
                if self._cancel.wait(delay) and self._stop_request is None:
                    return self._finish(JobStatus.SUSPENDED if self._interrupt.is_set()
                                        else JobStatus.CANCELED)
        except BaseException as e:  # the job must end in a terminal state, whatever happened
            self._stop_queries()
            self._finish(JobStatus.FAILED, e)

    def _start_queries(self) -> Optional[BaseException]:
        """Start the unfinished queries; the first failure is returned, not raised."""
        self._checkpoints.restarted()
        self._failure_context = None
        self._set_status(JobStatus.RUNNING)
        for query in self._queries:
            if query.finished:
                continue
            failure = self._check_checkpoint(query, before_start=True)
            if failure is None:
                failure = self._start_query(query)
            if failure is not None:
                return failure
        if self._dirs is not None:
            try:
                self._dirs.record_query_ids({q.sink.name: q.handle for q in self._queries if q.handle})
            except CheckpointError as e:
                return e
        return None

    def _start_query(self, query: WatchedQuery) -> Optional[BaseException]:
        """Start one query from its checkpoint; a failure to start is returned, not raised."""
        # before the start, so that the first batch's function is wrapped too
        report_interruptions(self._spark)
        from pyflink_compat.runtime.broadcast import SEED_PROPERTY

        seed = self._broadcast_seeds.get(query.sink.name)
        try:
            if seed is not None:
                # the query's session takes the setting when it starts: its tasks see it
                self._spark.conf.set(SEED_PROPERTY, seed)
            try:
                query.handle = apply_query_plan(query.sink.writer, query.plan).start()
            finally:
                if seed is not None:
                    self._spark.conf.unset(SEED_PROPERTY)
        except Exception as e:  # any start failure goes to the restart strategy
            return QueryStartFailure("Query '{}' could not start from its checkpoint {}: {}".format(
                query.sink.name, query.plan.checkpoint_location, first_line(e)))
        query.restarted(time.monotonic())
        return None

    def _check_checkpoint(self, query: WatchedQuery, before_start: bool) -> Optional[BaseException]:
        """Whether a durable query's checkpoint still holds what this job committed in it."""
        dirs = self._dirs
        if dirs is None or query.plan.location_kind != DURABLE:
            return None
        name = query.sink.name
        try:
            commits = dirs.committed_batches(name)
            metadata = dirs.query_id(name) is not None
            lost = lost_progress(dirs.location(name), query.last_committed,
                                 commits[-1] if commits else None, metadata)
            if lost is not None:
                return CheckpointLost(lost)
            if before_start:
                dirs.validate(name)
            if commits:
                query.last_committed = max(query.last_committed, commits[-1])
        except CheckpointError as e:
            return e
        return None

    def _check_commit(self, query: WatchedQuery, batch_id: int) -> Optional[BaseException]:
        """After Spark reported batch ``batch_id`` complete: the cheap check that its commit and
        the checkpoint's metadata are there (so nothing this job committed is lost), else the
        full one of :meth:`_check_checkpoint`, which says what is missing."""
        dirs = self._dirs
        if dirs is None or query.plan.location_kind != DURABLE:
            return None
        if batch_id >= query.last_committed and dirs.holds_commit(query.sink.name, batch_id):
            query.last_committed = batch_id
            return record_new_shape(dirs, query)
        return self._check_checkpoint(query, before_start=False) or record_new_shape(dirs, query)

    def _checkpoint_failed(self, sink: str, reason: str) -> None:
        if self._presence is not None:
            self._presence.checkpoint_failed(sink, reason)

    def _stop_queries(self, record_progress: bool = False) -> None:
        """Stop the running queries; with ``record_progress`` (a cancel), the batches they
        committed since the last poll are then recorded as completed checkpoints."""
        for query in self._queries:
            if query.handle is not None:
                try:
                    query.handle.stop()
                except Exception as e:  # a query that already died stops with its error
                    LOG.debug("Stopping query %s: %s", query.sink.name, e)
                    continue
                if record_progress:
                    try:
                        failure = self._checkpoints.collect_progress(query)
                    except Exception as e:  # the job is cancelled whatever this says
                        failure = e
                    if failure is not None:
                        LOG.debug("Progress of query %s at its stop: %s", query.sink.name, failure)
                    self._checkpoints.record(query.checkpoints.final())
                query.handle = None

    def _watch(self) -> 'tuple[str, Optional[BaseException]]':
        timeout = self.plan.checkpoint_timeout if self.plan.checkpointing_enabled else None
        pacer, every = Pacer(slowest_pause(timeout)), status_every(timeout)
        pause = pacer.next(busy=True)
        while True:
            if self._cancel.wait(pause):
                return "cancelled", None
            busy, due = False, None
            for query in self._queries:
                if query.finished or query.handle is None:
                    continue
                failure = self._check_query(query, every)
                if failure is not None:
                    return "failed", failure
                now = time.monotonic()
                left = query.batch_due_in(now)
                busy = busy or keeps_pace(query.sink.bounded, now - query.started_at,
                                          query.running, left > 0)
                if left > 0:
                    due = left if due is None else min(due, left)
            if all(q.finished for q in self._queries):
                return "finished", None
            pause = pacer.next(busy, due)

    def _check_query(self, query: WatchedQuery, status_every: Optional[float]) -> Optional[BaseException]:
        query.progressed = False
        handle = query.handle
        j_query = handle._jsq
        if not j_query.isActive():
            # Batches committed since the last poll are completed checkpoints whatever ended
            # the query after them (a failure in the next batch, a stop): record them first.
            collected = self._checkpoints.collect_progress(query)
            error: Optional[BaseException] = handle.exception()
            if error is None:
                if collected is not None:
                    return collected
                query.finished = True
                self._checkpoints.record(query.checkpoints.final())
                return None
            self._failure_context = failure_context(query.sink.name, query.plan.checkpoint_location,
                                                    j_query, self._dirs)
            changed = state_schema_change(query.sink.name, query.plan.checkpoint_location, error)
            if changed is not None:
                return changed
            if is_checkpoint_write_failure(error):
                return self._restart_after_tolerated_write_failure(query, error)
            return error
        failure = self._checkpoints.collect_progress(query)
        if failure is not None:
            return failure
        now = time.monotonic()
        if not needs_status(query.sink.bounded, query.progressed, now - query.status_at, status_every,
                            query.batch_due_in(now) > 0):
            if query.progressed:
                query.idle_polls = 0
            return None
        return self._check_timeout_and_end(query, j_query)

    def _restart_after_tolerated_write_failure(self, query: WatchedQuery,
                                               error: BaseException) -> Optional[BaseException]:
        """The tolerated write-failure restart: a query that died because its checkpoint could
        not be written is a failed checkpoint; while failed checkpoints are tolerated, that
        query alone starts again at once from its checkpoint (the restart strategy is not
        asked, as a tolerated failed checkpoint does not fail a Flink job).

        :return: The job's failure: too many failed checkpoints, a lost checkpoint, or the
            query failing to start again.
        """
        failure = self._checkpoints.failed(query, "its checkpoint could not be written: {}".format(
            getattr(error, "desc", error)))
        if failure is None:
            failure = self._check_checkpoint(query, before_start=True)
        if failure is None:
            failure = self._start_query(query)
        return failure

    def _check_timeout_and_end(self, query: WatchedQuery, j_query: Any) -> Optional[BaseException]:
        status = j_query.status()
        active, message = bool(status.isTriggerActive()), str(status.message())
        trigger_active = query.running = runs_batch(active, message)
        now = query.status_at = time.monotonic()
        if trigger_active:
            query.idle_polls = 0
            if query.active_since is None:
                query.active_since = now
            running_batch = query.last_batch + 1
            if self.plan.checkpointing_enabled and query.timed_out_batch != running_batch \
                    and running_past_timeout(query.active_since, now, self.plan.checkpoint_timeout):
                query.timed_out_batch = running_batch
                return self._checkpoints.failed(query, "batch {} is still running after the "
                                               "checkpoint timeout".format(running_batch))
            return None
        query.active_since = None
        if looks_for_input(active, message):
            return None  # new input may be found: the idle polls are neither counted nor reset
        query.idle_polls = idle_polls_after(query.idle_polls, query.sink.bounded,
                                            bool(status.isDataAvailable()), query.triggered)
        if query.idle_polls >= IDLE_POLLS_BEFORE_FINISHED:
            query.handle.stop()
            query.finished = True
            self._checkpoints.record(query.checkpoints.final())
            LOG.info("Job %s: sink '%s' consumed all its input", self.plan.job_name, query.sink.name)
        return None

    # -- the end ------------------------------------------------------------------------------
    def _finish(self, status: JobStatus, cause: Optional[BaseException] = None) -> None:
        if status is JobStatus.FAILED:
            self._set_status(JobStatus.FAILING)
        if self._stop_request is not None:
            self._stop_request[1].set_exception(RuntimeError("Job {} ended {} before its savepoint was "
                                                             "taken".format(self.job_id, status.name)))
        try:
            if self._dirs is not None:
                self._kept = self._dirs.end_run(self.plan.retention, Ending.of(status), self.plan.durable_sinks)
        finally:
            remove_temporary_root(self._temporary_root)
            self._set_status(status)
            if self._presence is not None:
                try:
                    self._presence.ended(cause if status is JobStatus.FAILED else None)
                except Exception as e:  # the job ends whatever its record says
                    LOG.warning("The end of job %s (%s) could not be recorded: %s", self.plan.job_name,
                                self.job_id, e)
            runtime = int((time.monotonic() - self._started_at) * 1000)
            if status is JobStatus.FAILED:
                message = "Job '{}' ({}) failed: {}".format(self.plan.job_name, self.job_id, cause)
                if self._failure_context is not None:
                    message += "\nFailed {}".format(self._failure_context)
                self._result.set_exception(job_failure(message, cause))
            else:
                self._result.set_result(JobExecutionResult(self.job_id, runtime))
            if not self._cancelled.done():
                self._cancelled.set_result(None)
