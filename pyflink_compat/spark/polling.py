"""How often a running job's supervisor asks Spark about its queries.

Every question is a py4j round trip that competes with Spark's own tasks for the driver's
cores, so the supervisor asks as little as its rules allow:

* after a query completed a batch, the next poll comes when the next batch is expected to
  be complete, as long as the last one took (:func:`batch_time_left`), not before (a bounded
  query's within :data:`SLOWEST_PAUSE`, as it may have no next batch);
* it polls every :data:`FASTEST_PAUSE` seconds while a query started less than
  :data:`STARTING_SECONDS` ago, and while a bounded query with no batch running or expected
  may have run out of input (so that its end is noticed within a few polls); otherwise it
  backs off, doubling the pause, up to :func:`slowest_pause` (see :func:`keeps_pace` and
  :class:`Pacer`);
* it asks for a query's status (whether a micro-batch is running, whether data is waiting) only
  when a rule needs it: a bounded query that reported nothing new when a batch was due may
  have run out of input, and a checkpoint timeout needs to know when a batch started, which
  :func:`status_every` bounds to a twentieth of the timeout.

A batch running past its checkpoint timeout is therefore noticed at most one status interval
late and never early, and a query failure at most :func:`slowest_pause` late. The end of a
bounded query's input is noticed at most :data:`SLOWEST_PAUSE` after its last batch, plus
a few fastest polls. While batches follow each other, a query costs about one poll per batch
(three JVM calls, and the few that record the completed checkpoint).
"""

from __future__ import annotations

from typing import Optional

from pyflink_compat.settings.values import to_seconds

__all__ = ["FASTEST_PAUSE", "SLOWEST_PAUSE", "STARTING_SECONDS", "keeps_pace", "slowest_pause",
           "Pacer", "batch_time_left", "status_every", "needs_status"]

#: Seconds between polls while something is happening.
FASTEST_PAUSE = 0.1
#: The longest pause between polls, whatever the settings.
SLOWEST_PAUSE = 1.0
#: Seconds after a query (re)starts during which it is polled at the fastest pace.
STARTING_SECONDS = 1.0
#: The longest interval between two status questions when a checkpoint timeout is watched.
_LONGEST_STATUS_EVERY = 5.0


def slowest_pause(checkpoint_timeout: Optional[int]) -> float:
    """The longest pause between polls: :data:`SLOWEST_PAUSE`, shorter for a timeout (ns)
    under 20 s, so that a batch past it is still noticed within a twentieth of it."""
    if checkpoint_timeout is None:
        return SLOWEST_PAUSE
    return min(SLOWEST_PAUSE, max(FASTEST_PAUSE, to_seconds(checkpoint_timeout) / 20))


def batch_time_left(since_progress: float, batch_seconds: float, bounded: bool = False) -> float:
    """Seconds until a query is expected to complete its next batch (0: one may be complete).

    :param since_progress: Seconds since a poll found its newest completed batch.
    :param batch_seconds: How long that batch took: the next one, which starts as it ends,
        is taken to take as long.
    :param bounded: Whether the query ends when its input is exhausted: then at most
        :data:`SLOWEST_PAUSE`, since it may have no next batch (a bounded input read in one
        batch, whose query planning and worker start make it many times longer than the end
        of the input takes to notice).
    """
    expected = min(batch_seconds, SLOWEST_PAUSE) if bounded else batch_seconds
    return max(0.0, expected - since_progress)


def keeps_pace(bounded: bool, since_start: float, running: bool = False,
               batch_expected: bool = False) -> bool:
    """Whether a query keeps the supervisor at the fastest pace: for :data:`STARTING_SECONDS`
    after it (re)starts, and while it is bounded and may have exhausted its input (no trigger
    found running, no batch expected), since noticing that takes
    :data:`IDLE_POLLS_BEFORE_FINISHED <pyflink_compat.spark.rules.IDLE_POLLS_BEFORE_FINISHED>`
    polls in a row.

    :param bounded: Whether the query ends when its input is exhausted.
    :param since_start: Seconds since the query (re)started.
    :param running: Whether its last status found a trigger running (the query is busy).
    :param batch_expected: Whether a batch is expected to complete soon
        (:func:`batch_time_left`).
    """
    return since_start < STARTING_SECONDS or (bounded and not running and not batch_expected)


class Pacer:
    """The pauses between the polls of one job.

    :param slowest: The longest pause (:func:`slowest_pause`).
    """

    def __init__(self, slowest: float):
        self.slowest = max(slowest, FASTEST_PAUSE)
        self._quiet = FASTEST_PAUSE

    def next(self, busy: bool, batch_due_in: Optional[float] = None) -> float:
        """The pause before the next poll: the fastest while ``busy``; else until the batch
        due soonest (``batch_due_in`` seconds), but within the slowest; else, while nothing
        happens, twice the last quiet pause, from the fastest up to the slowest.
        """
        if busy or batch_due_in is not None:
            self._quiet = FASTEST_PAUSE  # a quiet spell after this starts from the fastest
            return FASTEST_PAUSE if busy else min(max(batch_due_in or 0.0, FASTEST_PAUSE), self.slowest)
        pause, self._quiet = self._quiet, min(self._quiet * 2, self.slowest)
        return pause


def status_every(checkpoint_timeout: Optional[int]) -> Optional[float]:
    """Seconds between status questions that watch a checkpoint timeout (ns); ``None`` when no
    timeout is watched (checkpointing disabled)."""
    if checkpoint_timeout is None:
        return None
    return min(_LONGEST_STATUS_EVERY, max(FASTEST_PAUSE, to_seconds(checkpoint_timeout) / 20))


def needs_status(bounded: bool, progressed: bool, since_status: float,
                 every: Optional[float], batch_expected: bool = False) -> bool:
    """Whether a poll asks for a query's status.

    :param bounded: Whether the query ends when its input is exhausted.
    :param progressed: Whether this poll found a newly completed batch (the query is busy, so
        it cannot be idle yet).
    :param since_status: Seconds since its status was last asked for.
    :param every: :func:`status_every` for the job.
    :param batch_expected: Whether its next batch is not due yet (:func:`batch_time_left`):
        its input is not looked at until then.
    """
    if bounded and not progressed and not batch_expected:
        return True
    return every is not None and since_status >= every
