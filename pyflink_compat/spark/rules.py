"""Flink's job-level rules, as small pure functions the supervisor consults.

Each rule takes plain facts (a status, a count, a duration, a size) and answers one question,
so that it has a table test of its own and the supervisor only polls and dispatches. Restart
strategies live in :mod:`pyflink_compat.spark.restart`, and what a job deletes when it ends in
:mod:`pyflink_compat.spark.ownership`.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import attrs

from pyflink_compat.settings.values import from_millis, to_seconds

__all__ = [
    "CheckpointFailure",
    "FailedCheckpoints",
    "batch_took_too_long",
    "running_past_timeout",
    "state_size_rejection",
    "state_store_mismatch",
    "partitions_mismatch",
    "IDLE_POLLS_BEFORE_FINISHED",
    "idle_polls_after",
    "runs_batch",
    "looks_for_input",
    "checkpoint_misfit",
    "lost_progress",
    "unloadable_class",
]

#: Polls in a row a bounded query must report no more data before it counts as finished.
IDLE_POLLS_BEFORE_FINISHED = 3


# Spark's status message while a trigger looks for input: a batch may follow, or nothing
_LOOKING = "Getting offsets from"
# Spark's status messages while a trigger waits (for input, or for the next trigger)
_WAITING = "Waiting for"


def runs_batch(trigger_active: bool, message: str) -> bool:
    """Whether a query's status shows a micro-batch running: its offsets being written, its
    data processed, or a batch run for its watermark and timers alone.

    A query with a processing-time trigger of 0 ms looks for input again some milliseconds
    after each empty trigger, and Spark counts that look as an active trigger: taken as a
    running batch, it would keep a bounded query from ever looking idle three polls in a row.
    """
    return trigger_active and not message.startswith(_LOOKING) and not message.startswith(_WAITING)


def looks_for_input(trigger_active: bool, message: str) -> bool:
    """Whether a query's status shows its trigger looking for input: a batch of new data may
    follow (its offsets are then written), so the look shows neither a running batch nor an
    input known to be exhausted."""
    return trigger_active and message.startswith(_LOOKING)


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


# -- checkpoints that do not belong to the pipeline, or went missing -----------------------------
def checkpoint_misfit(location: str, recorded: Optional[Mapping[str, Any]], now: Mapping[str, Any],
                      checkpoint_sources: Optional[int], state_operators: Sequence[int]) -> Optional[str]:
    """Why an existing checkpoint cannot be resumed by a query, or ``None`` when it fits.

    :param location: The checkpoint directory.
    :param recorded: The pipeline shape recorded when a run created the directory (``None``:
        not known).
    :param now: The shape of the query about to start (see
        :func:`pyflink_compat.spark.pipeline_shape.pipeline_shape`).
    :param checkpoint_sources: The sources in the checkpoint's newest offset log entry.
    :param state_operators: The stateful operators the checkpoint holds state for.
    """
    differences = []
    if recorded is not None:
        if recorded.get("format") != now.get("format"):
            differences.append("it was written by a '{}' sink, this query writes to '{}'".format(
                recorded.get("format"), now.get("format")))
        if recorded.get("sources") and now.get("sources") and recorded["sources"] != now["sources"]:
            differences.append("it was written for the sources [{}], this query reads [{}]".format(
                "; ".join(recorded["sources"]), "; ".join(now["sources"])))
    n_sources = len(now.get("sources") or ())
    if checkpoint_sources is not None and n_sources and checkpoint_sources != n_sources:
        differences.append("its newest offsets entry has {} source(s), this query reads {}".format(
            checkpoint_sources, n_sources))
    if state_operators and not now.get("stateful"):
        differences.append("it holds state of {} stateful operator(s), this query keeps no state".format(
            len(state_operators)))
    elif recorded is not None and recorded.get("stateful") is False and now.get("stateful"):
        differences.append("it was written by a query without state, this query keeps state")
    if not differences:
        return None
    return ("The checkpoint {} does not fit this job's pipeline: {}. Nothing was started or "
            "deleted; use another job name (or sink name) for a different pipeline, or remove the "
            "checkpoint to start over.").format(location, "; ".join(differences))


def lost_progress(location: str, last_committed: int, newest_commit: Optional[int],
                  metadata_present: bool) -> Optional[str]:
    """Why a query must not (re)start from its checkpoint: it lost batches this job committed.

    :param last_committed: The newest batch this job saw committed in the checkpoint (``-1``:
        none yet).
    :param newest_commit: The newest batch in the checkpoint's commit log now.
    :param metadata_present: Whether Spark's ``metadata`` file is still there.
    """
    if last_committed < 0:
        return None
    if metadata_present and newest_commit is not None and newest_commit >= last_committed:
        return None
    found = "no commit log" if newest_commit is None else "commits up to batch {}".format(newest_commit)
    if not metadata_present:
        found = "no metadata file"
    return ("The checkpoint {} lost the progress of this job: batch {} was its last committed "
            "batch, and the checkpoint now has {} (deleted or truncated while the job ran). The "
            "query is not started again, so that nothing is reprocessed from the beginning; remove "
            "the checkpoint before starting the job to start over deliberately.").format(
                location, last_committed, found)


def unloadable_class(setting: str, value: str, known: Sequence[str], loadable: bool) -> Optional[str]:
    """The start-up error for a setting naming a class the JVM cannot load.

    :param setting: The Flink setting that chose the class.
    :param value: The class name (or unknown value) in force.
    :param known: The values that need no class.
    :param loadable: Whether ``Class.forName`` found it through the context class loader.
    """
    if loadable:
        return None
    return ("{} = '{}' is neither a known value ({}) nor a class on the JVM class path: the job "
            "cannot run this way, so it is not started (add the class to the class path, e.g. "
            "with spark.jars, or fix the value).").format(setting, value, ", ".join(known))


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
