"""Checkpoint statistics, as Flink reports them, read from Spark's query progress.

A completed micro-batch is durable: its offsets, state and commit are written. When one
micro-batch runs per checkpoint interval, every such batch is a completed checkpoint. Flink
numbers checkpoints from 1 and Spark numbers batches from 0, so checkpoint ``n`` of a query is
its batch ``n - 1``, in this run and across restarts, as in ``pyflink-compat checkpoints list``.
When micro-batches follow the buffer timeout, many run per interval, and
:class:`~pyflink_compat.spark.pacing.IntervalCheckpoints` reports one checkpoint per interval,
so that the statistics count what Flink counts; the ids then skip the batches in between, as
Flink's skip the checkpoints that did not complete.
"""

from __future__ import annotations

import datetime
import json
from typing import Any, Dict, Optional

import attrs

__all__ = ["CompletedCheckpointStats", "stats_from_progress"]


@attrs.frozen
class CompletedCheckpointStats:
    """One completed checkpoint of one query.

    :param checkpoint_id: Flink-style id: the Spark batch id plus one.
    :param sink: The sink (query) name.
    :param batch_id: The Spark batch id.
    :param trigger_timestamp: When the batch started, in epoch milliseconds.
    :param duration_ms: How long the batch took, end to end (``triggerExecution``).
    :param state_size: Bytes of state held by the query's state stores after the batch.
    :param num_input_rows: Records the batch read.
    """

    checkpoint_id: int
    sink: str
    batch_id: int
    trigger_timestamp: int
    duration_ms: int
    state_size: int
    num_input_rows: int

    def __str__(self) -> str:
        return "checkpoint {} of '{}' (batch {}): {} ms, state {} bytes, {} records".format(
            self.checkpoint_id, self.sink, self.batch_id, self.duration_ms, self.state_size,
            self.num_input_rows)


def _epoch_millis(timestamp: str) -> int:
    """Spark's progress timestamp (UTC, ``2024-01-31T12:00:00.123Z``) in epoch milliseconds."""
    if not isinstance(timestamp, str) or not timestamp.endswith("Z"):
        return 0
    try:
        moment = datetime.datetime.fromisoformat(timestamp[:-1])
    except ValueError:
        return 0
    return int(moment.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)


def state_size(progress: Dict[str, Any]) -> int:
    """Bytes of state a progress report says the query holds."""
    return sum(int(op.get("memoryUsedBytes", 0) or 0) for op in progress.get("stateOperators", []))


def stats_from_progress(sink: str, j_progress: Any) -> Optional[CompletedCheckpointStats]:
    """Statistics from one JVM ``StreamingQueryProgress``."""
    progress = json.loads(j_progress.json())
    batch_id = int(progress.get("batchId", -1))
    if batch_id < 0:
        return None
    durations = progress.get("durationMs", {}) or {}
    if "addBatch" not in durations:  # an idle report: no batch ran, nothing was checkpointed
        return None
    return CompletedCheckpointStats(
        checkpoint_id=batch_id + 1,
        sink=sink,
        batch_id=batch_id,
        trigger_timestamp=_epoch_millis(progress.get("timestamp", "")),
        duration_ms=int(durations.get("triggerExecution", 0) or 0),
        state_size=state_size(progress),
        num_input_rows=int(progress.get("numInputRows", 0) or 0),
    )

