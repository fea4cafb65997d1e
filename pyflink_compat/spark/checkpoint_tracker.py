"""A running job's checkpoints: progress read from Spark, completed and failed checkpoints.

The supervisor hands each poll's query to :meth:`CheckpointTracker.collect_progress`, which reads
the micro-batches Spark completed since the last poll, checks each against Flink's rules (the
checkpoint timeout, the JobManager storage's state limit), and turns them into completed
checkpoints (statistics, logged) or failed ones, counted in one unit per pacing mode
(:class:`~pyflink_compat.spark.pacing.IntervalCheckpoints`) against
``execution.checkpointing.tolerable-failed-checkpoints``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, List, Optional

from pyflink_compat.spark.plan import JobPlan
from pyflink_compat.spark.rules import FailedCheckpoints, batch_took_too_long, state_size_rejection
from pyflink_compat.spark.stats import CompletedCheckpointStats, stats_from_progress
from pyflink_compat.spark.watched_query import WatchedQuery

__all__ = ["CheckpointTracker"]

LOG = logging.getLogger("pyflink_compat.job")


class CheckpointTracker:
    """The checkpoint bookkeeping of one job run.

    :param plan: The job's plan (timeout, state limit, tolerated failures).
    :param check_commit: Called with a query and the newest batch Spark reported complete;
        returns the job's failure when the checkpoint no longer holds what was committed.
    :param on_failed: Told of each failed checkpoint (sink, reason), e.g. the job's record.
    """

    def __init__(self, plan: JobPlan,
                 check_commit: Callable[[WatchedQuery, int], Optional[BaseException]],
                 on_failed: Callable[[str, str], None]):
        self.plan = plan
        self._check_commit = check_commit
        self._on_failed = on_failed
        self._lock = threading.Lock()
        self._stats: List[CompletedCheckpointStats] = []
        self._failed = FailedCheckpoints(plan.tolerable_failed_checkpoints)

    def statistics(self) -> List[CompletedCheckpointStats]:
        """The completed checkpoints so far, oldest first."""
        with self._lock:
            return list(self._stats)

    def restarted(self) -> None:
        """The job (re)started its queries: consecutive failures count from zero again."""
        self._failed.reset()

    def collect_progress(self, query: WatchedQuery) -> Optional[BaseException]:
        """Read the batches ``query`` completed since the last call and record what they mean.

        :return: The job's failure (a lost commit, or too many failed checkpoints), or ``None``.
        """
        j_query = query.handle._jsq
        # The last progress alone (two JVM calls) tells whether anything is new; the list of
        # recent ones (a call per entry) is walked only when more than one batch is new.
        j_last = j_query.lastProgress()
        if j_last is None:
            return None
        # Spark reports every batch, and the first trigger that found no data.
        query.triggered = True
        last_id = int(j_last.batchId())
        if last_id <= query.last_batch:
            return None
        fresh = [j_last]
        if last_id > query.last_batch + 1:
            fresh = []
            recent = j_query.recentProgress()
            for index in range(len(recent) - 1, -1, -1):
                j_progress = recent[index]
                if int(j_progress.batchId()) <= query.last_batch:
                    break
                fresh.append(j_progress)
        completed = [stats for stats in (stats_from_progress(query.sink.name, j_progress)
                                          for j_progress in reversed(fresh)) if stats is not None]
        if completed:
            lost = self._check_commit(query, max(stats.batch_id for stats in completed))
            if lost is not None:
                return lost
        if completed and completed[-1].batch_id > query.last_batch:
            # the next batch started as this one ended: it is expected to take as long (none
            # follows a bounded query's batch without input, run for its watermark and timers)
            query.progress_at, query.running = time.monotonic(), False
            last = completed[-1]
            query.batch_seconds = 0.0 if query.sink.bounded and last.num_input_rows == 0 \
                else last.duration_ms / 1000
        for stats in completed:
            query.progressed = query.progressed or stats.batch_id > query.last_batch
            query.last_batch = max(query.last_batch, stats.batch_id)
            if not self.plan.checkpointing_enabled:
                continue
            query.active_since = None
            if stats.batch_id == query.timed_out_batch:
                continue  # it expired while running: a failed checkpoint, not a completed one
            if batch_took_too_long(stats.duration_ms, self.plan.checkpoint_timeout):
                failure = self.failed(query, "batch {} took {} ms, past the checkpoint "
                                      "timeout".format(stats.batch_id, stats.duration_ms))
                if failure is not None:
                    return failure
                continue
            rejection = state_size_rejection(stats.state_size, self.plan.state_limit)
            if rejection is not None:
                failure = self.failed(query, rejection)
                if failure is not None:
                    return failure
                continue
            self.record(query.checkpoints.add(stats))
        return None

    def record(self, stats: Optional[CompletedCheckpointStats]) -> None:
        """Record a completed checkpoint (``None``: none completed); consecutive failures then
        count from zero again."""
        if stats is None:
            return
        self._failed.reset()
        with self._lock:
            self._stats.append(stats)
        LOG.info("Job %s: completed %s", self.plan.job_name, stats)

    def failed(self, query: WatchedQuery, reason: str) -> Optional[BaseException]:
        """A batch of ``query`` failed for ``reason``. It is counted when it is a new failed
        checkpoint (once per interval when one checkpoint spans many batches).

        :return: The job's failure once more checkpoints failed in a row than tolerated.
        """
        if not query.checkpoints.fail(time.monotonic() * 1000):
            LOG.warning("Job %s: a batch of '%s' failed within a checkpoint already counted as "
                        "failed: %s", self.plan.job_name, query.sink.name, reason)
            return None
        failure = self._failed.record(query.sink.name, reason)
        self._on_failed(query.sink.name, reason)
        LOG.warning("Job %s: checkpoint of '%s' failed (%d in a row, %d tolerated): %s",
                    self.plan.job_name, query.sink.name, self._failed.count, self._failed.tolerable,
                    reason)
        return failure

    def __repr__(self) -> str:
        return "CheckpointTracker({!r}, {} completed, {} failed in a row)".format(
            self.plan.job_name, len(self._stats), self._failed.count)
