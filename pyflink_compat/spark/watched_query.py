"""What the supervisor of a job knows about one of its queries, across restarts."""

from __future__ import annotations

from typing import Any, Optional

from pyflink_compat.spark.plan import QueryPlan, SinkSpec
from pyflink_compat.spark.polling import batch_time_left
from pyflink_compat.spark.pacing import IntervalCheckpoints

__all__ = ["WatchedQuery"]


class WatchedQuery:
    """One sink's query, as the polls of its supervisor found it.

    :param sink: The sink.
    :param plan: How its query runs.
    """

    def __init__(self, sink: SinkSpec, plan: QueryPlan):
        self.sink = sink
        self.plan = plan
        #: The running PySpark ``StreamingQuery`` (``None`` between runs).
        self.handle: Any = None
        self.last_batch = -1
        #: The newest batch this job saw in the checkpoint's commit log (-1: none).
        self.last_committed = -1
        #: Whether its checkpoint is new and the marker still lacks its pipeline's shape.
        self.shape_unrecorded = False
        self.finished = False
        self.idle_polls = 0
        self.active_since: Optional[float] = None
        self.timed_out_batch: Optional[int] = None
        #: Whether the current handle has completed a trigger (with or without data).
        self.triggered = False
        #: When (monotonic seconds) the current handle started, and its status was last read.
        self.started_at = 0.0
        self.status_at = 0.0
        #: Whether the last poll found a newly completed batch.
        self.progressed = False
        #: When a poll last found a newly completed batch, and how long that batch took (s).
        self.progress_at = 0.0
        self.batch_seconds = 0.0
        #: Whether its last status found a trigger running.
        self.running = False
        #: Which of its batches make completed or failed checkpoints.
        self.checkpoints = IntervalCheckpoints(plan.checkpoint_every_ms)

    def batch_due_in(self, now: float) -> float:
        """Seconds until its next batch is expected to complete (0: one may be complete)."""
        return batch_time_left(now - self.progress_at, self.batch_seconds, self.sink.bounded)

    def restarted(self, now: float) -> None:
        """Forget what the polls of the previous handle found."""
        self.active_since = None
        self.idle_polls = 0
        self.triggered = False
        self.running = False
        self.batch_seconds = 0.0
        self.started_at = self.status_at = now
