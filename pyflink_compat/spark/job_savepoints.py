"""Savepoints of a running job: taken while it runs, or when it stops.

* :func:`trigger_savepoint` copies each query's checkpoint at its newest committed micro-batch
  while the queries keep running, on a worker thread.
* :func:`stop_with_savepoint` asks the run to stop its queries; once they have terminated, the
  supervising thread calls :func:`write_on_stop` before retention applies, and the job ends
  ``FINISHED``.

Each function is given what it needs of the run (its plan, id, status and Spark session, and
how to stop it); the files are written by :func:`pyflink_compat.checkpoints.write_savepoint`.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable, Optional, Tuple

from pyflink_compat.checkpoints import write_savepoint
from pyflink_compat.common.job_id import JobID
from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.spark.plan import JobPlan
from pyflink_compat.util.exceptions import java_error

__all__ = [
    "NO_SAVEPOINT_DIRECTORY", "SavepointWrite", "savepoint_directory", "trigger_savepoint",
    "stop_with_savepoint", "write_on_stop",
]

LOG = logging.getLogger("pyflink_compat.savepoints")

#: Flink 1.20's message when neither the call nor the configuration names a savepoint directory
#: (``SchedulerBase.triggerSavepoint`` / ``stopWithSavepoint``, an ``IllegalStateException``),
#: followed by what to do here (Flink's text names a command-line flag).
NO_SAVEPOINT_DIRECTORY = (
    "No savepoint directory configured. You can either specify a directory while cancelling via "
    "-s :targetDirectory or configure a cluster-wide default via key "
    "'execution.checkpointing.savepoint-dir'. With pyflink_compat, pass the savepoint_directory "
    "argument of JobClient.trigger_savepoint or stop_with_savepoint, or set "
    "execution.checkpointing.savepoint-dir in the job's configuration "
    "(StreamExecutionEnvironment.set_default_savepoint_directory).")

_ADVANCE_NOT_SUPPORTED = (
    "stop_with_savepoint(advance_to_end_of_event_time=True) is not supported: Spark cannot "
    "fire every event-time timer and window before stopping (there is no MAX_WATERMARK to "
    "emit). Stop with advance_to_end_of_event_time=False, or end the input so that a bounded "
    "sink finishes.")

#: A stop-with-savepoint waiting for the queries to stop: the write to do then, and the future
#: that gets the savepoint's directory.
SavepointWrite = Tuple[Callable[[], str], "Future[str]"]


def savepoint_directory(plan: JobPlan, directory: Optional[str], target: str) -> str:
    """The directory a savepoint goes to: the call's, else the configured default.

    :raises JavaIllegalStateError: with Flink's message when neither is set.
    """
    chosen = directory if directory is not None else plan.settings.savepoint_dir
    if chosen is None or not str(chosen).strip():
        raise java_error("java.lang.IllegalStateException", NO_SAVEPOINT_DIRECTORY, target)
    return str(chosen)


#: The longest a savepoint waits for a just-started job's first committed micro-batch.
FIRST_COMMIT_WAIT_S = 15.0


def _await_first_commits(plan: JobPlan, spark: Any) -> None:
    """Wait until every query has committed a micro-batch, at most the checkpoint timeout (and
    :data:`FIRST_COMMIT_WAIT_S`): a savepoint asked for as a job starts waits for its first
    checkpoint, as Flink's waits for the checkpoint it triggers. A query still without one is
    then refused by the copy, which names it."""
    from pyflink_compat.checkpoints.access import file_access_for
    from pyflink_compat.checkpoints.layout import QueryCheckpoint

    deadline = time.monotonic() + min(plan.checkpoint_timeout / 1e9, FIRST_COMMIT_WAIT_S)
    waiting = [q.checkpoint_location for q in plan.queries]
    while waiting and time.monotonic() < deadline:
        still = []
        for location in waiting:
            try:
                fs, local = file_access_for(location, spark)
                if QueryCheckpoint(fs, local).latest_committed() is None:
                    still.append(location)
            except Exception as e:  # the copy reports an unreadable checkpoint itself
                LOG.debug("Savepoint: reading %s: %s", location, e)
        waiting = still
        if waiting:
            time.sleep(0.2)


def _take(plan: JobPlan, job_id: JobID, spark: Any, directory: str, running: bool = False) -> str:
    if running:
        _await_first_commits(plan, spark)
    locations = [q.checkpoint_location for q in plan.queries]
    return write_savepoint(locations, directory, plan.job_name, job_id=job_id.to_hex_string(),
                           spark_version=str(spark.version))


def _failed(error: BaseException) -> "Future[str]":
    future: "Future[str]" = Future()
    future.set_exception(error)
    return future


def _not_running(plan: JobPlan, job_id: JobID, status: JobStatus, target: str) -> Optional[BaseException]:
    reason = None
    if status.is_terminal_state():
        reason = "Job {} ({}) is {}: no savepoint can be taken of a job that has ended.".format(
            plan.job_name, job_id, status.name)
    elif not plan.checkpointing_enabled:
        reason = ("Job {} ({}) runs without checkpointing (no checkpoint interval): enable "
                  "checkpointing to take savepoints.".format(plan.job_name, job_id))
    if reason is None:
        return None
    error: BaseException = java_error("java.lang.IllegalStateException", reason, target)
    return error


def trigger_savepoint(plan: JobPlan, job_id: JobID, status: JobStatus, spark: Any,
                      directory: Optional[str]) -> "Future[str]":
    """Take a savepoint of a running job; the future holds the savepoint directory.

    The copy runs on a thread of its own while the queries continue. A query without a
    committed micro-batch yet is waited for (see :func:`_await_first_commits`); one still
    without fails the future with :class:`~pyflink_compat.checkpoints.CheckpointFileError`.

    :param plan: The job's plan (its queries' checkpoint locations).
    :param job_id: The job's id, recorded in the savepoint.
    :param status: The job's status now (a job that has ended takes none).
    :param spark: The job's Spark session (its version is recorded in the savepoint).
    :param directory: Where to write it; the configured savepoint directory when ``None``.
    """
    target = "JobClient.triggerSavepoint"
    error = _not_running(plan, job_id, status, target)
    if error is not None:
        return _failed(error)
    try:
        where = savepoint_directory(plan, directory, target)
    except Exception as e:  # the future carries it, as in Flink
        return _failed(e)
    future: "Future[str]" = Future()

    def work() -> None:
        try:
            path = _take(plan, job_id, spark, where, running=True)
        except BaseException as e:
            LOG.warning("Savepoint of job %s failed: %s", plan.job_name, e)
            future.set_exception(e)
            return
        LOG.info("Savepoint of job %s (%s) written to %s", plan.job_name, job_id, path)
        future.set_result(path)

    threading.Thread(target=work, name="pyflink_compat-savepoint", daemon=True).start()
    return future


def stop_with_savepoint(plan: JobPlan, job_id: JobID, status: JobStatus, spark: Any,
                        stop: Callable[[Callable[[], str]], "Future[str]"],
                        advance_to_end_of_event_time: bool, directory: Optional[str]) -> "Future[str]":
    """Stop a job's queries, then take a savepoint; the job then ends ``FINISHED``.

    Retention applies only after the savepoint is written. When writing fails, the queries
    start again from their checkpoints and the job keeps running, as in Flink.

    :param stop: Stops the run's queries, then calls the write it is given (through
        :func:`write_on_stop`); its future holds the savepoint's directory.

    The other parameters are those of :func:`trigger_savepoint`.
    """
    target = "JobClient.stopWithSavepoint"
    if advance_to_end_of_event_time:
        return _failed(java_error("java.lang.UnsupportedOperationException", _ADVANCE_NOT_SUPPORTED, target))
    error = _not_running(plan, job_id, status, target)
    if error is not None:
        return _failed(error)
    try:
        where = savepoint_directory(plan, directory, target)
    except Exception as e:
        return _failed(e)
    return stop(lambda: _take(plan, job_id, spark, where))


def write_on_stop(request: SavepointWrite) -> Optional[str]:
    """Write the savepoint of a stop-with-savepoint once the queries have stopped.

    :return: The savepoint's directory; the caller completes the future with it once the job
             has finished, as Flink does. ``None`` when writing failed: the future then holds
             the error and the job runs on.
    """
    write, future = request
    try:
        path = write()
    except BaseException as e:  # the caller's future carries it
        LOG.warning("Stop-with-savepoint failed, the job continues: %s", e)
        future.set_exception(e)
        return None
    LOG.info("Savepoint written to %s; the job finishes", path)
    return path
