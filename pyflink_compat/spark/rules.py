"""Flink's job-level rules, as small pure functions the supervisor consults.

Each rule takes plain facts (a status, a count, a duration, a size) and answers one question,
so that it has a table test of its own and the supervisor only polls and dispatches. Restart
strategies, the other rule, live in :mod:`pyflink_compat.spark.restart`.
"""

from __future__ import annotations

from typing import Optional

import attrs

from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.settings.durations import from_millis, to_seconds

__all__ = [
    "CheckpointFailure",
    "deletes_checkpoints",
    "FailedCheckpoints",
    "batch_took_too_long",
    "running_past_timeout",
    "state_size_rejection",
    "state_store_mismatch",
    "partitions_mismatch",
    "IDLE_POLLS_BEFORE_FINISHED",
    "idle_polls_after",
]

#: Polls in a row a bounded query must report no more data before it counts as finished.
IDLE_POLLS_BEFORE_FINISHED = 3


def idle_polls_after(idle_polls: int, bounded: bool, data_available: bool, triggered: bool) -> int:
    """The polls in a row a query has found its input exhausted, after one more poll.

    Only a bounded sink's query ends this way, and only once a trigger of its current run has
    happened: before that, Spark reports no data either (a resumed job with nothing new, or
    empty input, runs no batch at all). The query is finished once the count reaches
    :data:`IDLE_POLLS_BEFORE_FINISHED`.
    """
    if bounded and not data_available and triggered:
        return idle_polls + 1
    return 0


class CheckpointFailure(Exception):
    """Checkpoints failed more often in a row than the job tolerates."""


def deletes_checkpoints(retention: str, status: JobStatus) -> bool:
    """Whether a job that ended in ``status`` deletes its checkpoints under ``retention``.

    ``retention`` is the name of an ``ExternalizedCheckpointRetention`` member. Finished and
    cancelled jobs delete them unless they are retained on cancellation; failed jobs delete
    them only without externalized checkpoints; a suspended job (or any other status) keeps
    them, since it may resume.
    """
    if status in (JobStatus.FINISHED, JobStatus.CANCELED):
        return retention != "RETAIN_ON_CANCELLATION"
    if status is JobStatus.FAILED:
        return retention == "NO_EXTERNALIZED_CHECKPOINTS"
    return False


@attrs.define
class FailedCheckpoints:
    """Counts consecutive failed checkpoints against ``execution.checkpointing.tolerable-failed-checkpoints``.

    :param tolerable: Failed checkpoints in a row the job survives.
    """

    tolerable: int
    count: int = 0

    def record(self, sink: str, reason: str) -> Optional[CheckpointFailure]:
        """Count one failed checkpoint of ``sink``.

        :return: The failure that fails the job, once more than ``tolerable`` failed in a row.
        """
        self.count += 1
        if self.count > self.tolerable:
            return CheckpointFailure(
                "Exceeded checkpoint tolerable failure threshold. The latest checkpoint of '{}' "
                "failed: {}".format(sink, reason))
        return None

    def reset(self) -> None:
        """A checkpoint completed (or the job restarted): the count starts again."""
        self.count = 0


def batch_took_too_long(duration_ms: int, timeout: int) -> bool:
    """Whether a micro-batch of ``duration_ms`` (Spark's unit) ran past ``timeout`` (ns)."""
    return from_millis(duration_ms) > timeout


def running_past_timeout(active_since: float, now: float, timeout: int) -> bool:
    """Whether a batch running since ``active_since`` (monotonic seconds) is past ``timeout`` (ns)."""
    return now - active_since > to_seconds(timeout)


def state_size_rejection(state_size: int, limit: Optional[int]) -> Optional[str]:
    """Flink's reason for failing a checkpoint whose state exceeds the JobManager storage limit."""
    if limit is None or state_size <= limit:
        return None
    return ("Size of the state is larger than the maximum permitted memory-backed state. "
            "Size={} , maxSize={}. Consider using a different checkpoint storage, like the "
            "FileSystemCheckpointStorage.").format(state_size, limit)


def state_store_mismatch(sink: str, pinned: Optional[str], wanted: Optional[str]) -> Optional[str]:
    """The warning for a query resuming from a checkpoint written with another state store.

    :param pinned: The provider class Spark recorded in the checkpoint.
    :param wanted: The provider class the settings ask for.
    """
    if pinned is None or wanted is None or pinned == wanted:
        return None
    return ("Query '{}' resumes from a checkpoint written with state store {}; Spark keeps using "
            "it and ignores the configured {}. Use a new checkpoint directory or job name to "
            "change the state backend.").format(
                sink, pinned.rsplit(".", 1)[-1], wanted.rsplit(".", 1)[-1])


def partitions_mismatch(sink: str, pinned: Optional[str], wanted: Optional[str]) -> Optional[str]:
    """The warning for a query resuming from a checkpoint written with another parallelism.

    :param pinned: ``spark.sql.shuffle.partitions`` recorded in the checkpoint.
    :param wanted: The number the parallelism asks for (``None``: no parallelism set).
    """
    if pinned is None or wanted is None or pinned == wanted:
        return None
    return ("Query '{}' resumes from a checkpoint written with {} state partitions; Spark keeps "
            "using {} and ignores the parallelism {}. Use a new checkpoint directory or job name "
            "to change it.").format(sink, pinned, pinned, wanted)
