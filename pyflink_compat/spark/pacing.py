"""What paces a job's streaming queries, and what one checkpoint is under that pacing.

Flink's checkpoint interval and buffer timeout mean different things: the interval decides how
often state is made durable, the buffer timeout how long a record may wait before it moves on.
A Spark micro-batch does both at once, so this module decides, from a job's settings alone:

* the trigger of each checkpointed query (:func:`pacing`): in the default trigger mode
  (``compat.trigger.mode`` ``LATENCY``) the buffer timeout, capped at the interval; with
  ``CHECKPOINT_INTERVAL``, or the buffer timeout disabled, one micro-batch per interval;
* how many micro-batches run between full state snapshots (:attr:`Pacing.snapshot_every`,
  which :func:`~pyflink_compat.spark.translation.session_keys` writes as Spark's
  ``stateStore.minDeltasForSnapshot``), so that a restart replays about one interval, as Flink's
  changelog state backend materialises periodically;
* what one checkpoint is (:class:`IntervalCheckpoints`): every micro-batch when one runs per
  interval, else one per interval, for completed and failed checkpoints alike
  (:func:`failure_is_new_checkpoint`), so that ``tolerable-failed-checkpoints`` counts what
  Flink counts;
* when a job warns at start that its records wait long (:func:`latency_warning`).

``TriggerMode`` and the rule saying when the buffer timeout setting has no effect are declared
with the settings (:mod:`pyflink_compat.settings.registry`), which never import this layer.
"""

from __future__ import annotations

from typing import Mapping, Optional

import attrs

from pyflink_compat.settings import values
from pyflink_compat.settings.registry import JobSettings, TriggerMode
from pyflink_compat.spark.stats import CompletedCheckpointStats

__all__ = [
    "SHORTEST_BATCH_MS", "HIGH_LATENCY_MS", "Pacing", "pacing", "latency_warning",
    "IntervalCheckpoints", "failure_is_new_checkpoint",
]

#: The shortest micro-batch period assumed when counting batches per checkpoint interval: a
#: trigger of 0 runs batches back to back, and a local micro-batch takes about this long.
SHORTEST_BATCH_MS = 100

#: A job whose records may wait longer than this (ms) for their micro-batch says so when it
#: starts: Flink's records move within its buffer timeout (100 ms by default).
HIGH_LATENCY_MS = 2000


@attrs.frozen
class Pacing:
    """What paces a checkpointed streaming query, and what follows for its records and state.

    :param interval_ms: The processing-time trigger interval in ms; ``None`` for Spark's
        default trigger (the next batch as soon as input arrives).
    :param trigger: The trigger with the reason it was chosen, for the plan.
    :param latency_ms: How long a record may wait for its batch to start, in ms (the batch's
        own time comes on top).
    :param latency: The expected delivery delay in words, for the plan.
    :param durability: How often state is made durable, in words, for the plan.
    :param snapshot_every: Batches between full state snapshots (Spark's
        ``stateStore.minDeltasForSnapshot``), or ``None`` to leave Spark's default.
    :param checkpoint_every_ms: How long one checkpoint lasts, in ms: the job reports a completed
        checkpoint, and counts a failed one, at most once per this time; ``None`` when every
        micro-batch is one checkpoint.
    """

    interval_ms: Optional[int]
    trigger: str
    latency_ms: int
    latency: str
    durability: str
    snapshot_every: Optional[int] = None
    checkpoint_every_ms: Optional[int] = None


def pacing(settings: JobSettings) -> Optional[Pacing]:
    """How a checkpointed streaming query of a job with ``settings`` is paced, or ``None``
    when checkpointing is disabled (Spark's default trigger, nothing durable)."""
    if settings.checkpoint_interval is None:
        return None
    interval = values.to_millis(settings.checkpoint_interval)
    if settings.trigger_mode is TriggerMode.CHECKPOINT_INTERVAL or not settings.buffer_timeout_enabled:
        why = "compat.trigger.mode CHECKPOINT_INTERVAL" \
            if settings.trigger_mode is TriggerMode.CHECKPOINT_INTERVAL \
            else "execution.buffer-timeout.enabled false: Flink then flushes at each checkpoint"
        return Pacing(
            interval, "ProcessingTime({} ms) (one micro-batch per checkpoint interval; {})".format(interval, why),
            interval, "up to {} ms plus the batch: results are published once per interval".format(interval),
            "every micro-batch is a checkpoint: offsets, commit and state changes, once per "
            "interval")
    timeout = min(values.to_millis(settings.buffer_timeout), interval)
    batches = max(1, interval // max(timeout, SHORTEST_BATCH_MS))
    if timeout == 0:
        trigger = "ProcessingTime(0) (buffer timeout 0: a micro-batch as soon as input arrives)"
        latency = "the batch's own time: a micro-batch starts as soon as input arrives"
    else:
        trigger = "ProcessingTime({} ms) (the buffer timeout{})".format(
            timeout, "" if timeout == values.to_millis(settings.buffer_timeout) else
            ", capped at the checkpoint interval")
        latency = "up to {} ms plus the batch: records move within the buffer timeout".format(timeout)
    durability = ("every micro-batch commits its offsets and state changes; a full state snapshot "
                  "every {} batches (about one per {} ms checkpoint interval at one batch per {} ms), "
                  "which bounds what a restart replays; one checkpoint reported per interval".format(
                      batches, interval, max(timeout, SHORTEST_BATCH_MS)))
    return Pacing(timeout or None, trigger, timeout, latency, durability, batches, interval)


def latency_warning(job_name: str, settings: JobSettings,
                    latencies: Mapping[str, Optional[int]]) -> Optional[str]:
    """What a job says when it starts if its records may wait longer than
    :data:`HIGH_LATENCY_MS` for their micro-batch, with what to set instead; else ``None``.

    :param latencies: For each streaming query (not one that processes what is available and
        finishes), how long a record may wait for its batch, in ms.
    """
    slow = {name: ms for name, ms in latencies.items() if ms is not None and ms > HIGH_LATENCY_MS}
    if not slow:
        return None
    if settings.trigger_mode is TriggerMode.CHECKPOINT_INTERVAL:
        cause = "compat.trigger.mode is CHECKPOINT_INTERVAL, so each query runs one micro-batch per " \
                "checkpoint interval; set it to LATENCY for Flink-like latency"
    elif not settings.buffer_timeout_enabled:
        cause = "execution.buffer-timeout.enabled is false, so each query runs one micro-batch per " \
                "checkpoint interval; enable the buffer timeout for Flink-like latency"
    else:
        cause = "the buffer timeout (execution.buffer-timeout.interval) is the trigger interval; " \
                "lower it for Flink-like latency"
    return "Job '{}': records may wait up to {} ms before they reach the sinks of {}: {}.".format(
        job_name, max(slow.values()), ", ".join("'{}'".format(name) for name in slow), cause)


def failure_is_new_checkpoint(every_ms: Optional[int], last_failure_ms: Optional[float],
                              completed_since: bool, now_ms: float) -> bool:
    """Whether a failure seen at ``now_ms`` is another failed checkpoint, rather than a further
    failure of the checkpoint that already failed.

    Flink's job fails after more consecutive failed *checkpoints* than it tolerates. When every
    micro-batch is a checkpoint (``every_ms`` ``None``) every failure is one. When one
    checkpoint lasts an interval, the first failure in it fails that checkpoint and later ones
    in the same interval add nothing: the next failed checkpoint is a failure at least an
    interval after the last one counted, or after a checkpoint completed.

    :param every_ms: How long one checkpoint lasts (:attr:`Pacing.checkpoint_every_ms`).
    :param last_failure_ms: When the last counted failure was seen (any monotonic clock, in
        ms), or ``None``.
    :param completed_since: Whether a checkpoint completed since that failure.
    :param now_ms: When this failure is seen, on the same clock.
    """
    if every_ms is None or last_failure_ms is None or completed_since:
        return True
    return now_ms - last_failure_ms >= every_ms


class IntervalCheckpoints:
    """The completed and failed checkpoints among one query's micro-batches.

    With no interval every batch is one checkpoint. Otherwise a checkpoint completes with the
    first batch that ends at least ``every_ms`` after the previous checkpoint (after the first
    batch began, for the first one); it counts the records of every batch since the previous
    checkpoint, and its id, duration and state size are those of the batch that completed it.
    A failure within an interval fails that interval's checkpoint once
    (:func:`failure_is_new_checkpoint`); the next checkpoint then completes a whole interval
    after the failure, and counts the records of every batch since the last completed one.

    :param every_ms: The checkpoint interval in ms, or ``None``.
    """

    def __init__(self, every_ms: Optional[int]):
        self.every_ms = every_ms
        self._since: Optional[int] = None
        self._rows = 0
        self._pending: Optional[CompletedCheckpointStats] = None
        self._failed_at: Optional[float] = None
        self._completed_since_failure = False

    def add(self, batch: CompletedCheckpointStats) -> Optional[CompletedCheckpointStats]:
        """The checkpoint that ``batch`` completes, or ``None`` while the interval runs."""
        if self.every_ms is None:
            self._completed_since_failure = True
            return batch
        if self._since is None:
            self._since = batch.trigger_timestamp
        self._rows += batch.num_input_rows
        self._pending = batch
        if batch.trigger_timestamp + batch.duration_ms - self._since < self.every_ms:
            return None
        return self.final()

    def fail(self, now_ms: float) -> bool:
        """A batch of this query failed at ``now_ms`` (monotonic): whether that is a new failed
        checkpoint, to be counted against the tolerated failures."""
        if not failure_is_new_checkpoint(self.every_ms, self._failed_at, self._completed_since_failure, now_ms):
            return False
        self._failed_at, self._completed_since_failure = now_ms, False
        # the failed checkpoint completes nothing: the next interval starts with the next batch
        self._since = None
        return True

    def final(self) -> Optional[CompletedCheckpointStats]:
        """The checkpoint of the batches committed since the last one, when the query stops
        (``None`` when there are none)."""
        batch, self._pending = self._pending, None
        if batch is None:
            return None
        self._since = batch.trigger_timestamp + batch.duration_ms
        rows, self._rows = self._rows, 0
        self._completed_since_failure = True
        return attrs.evolve(batch, num_input_rows=rows)
