"""How often a running job's supervisor asks Spark about its queries.

Every question is a py4j round trip that competes with Spark's own tasks for the driver's
cores, so the supervisor asks as little as its rules allow:

* it polls every :data:`FASTEST_PAUSE` seconds while something is happening (a batch just
  completed, or a query started less than :data:`STARTING_SECONDS` ago) and while a bounded
  query runs (so that the end of its input is noticed within a few polls), and otherwise
  backs off, doubling the pause, up to :func:`slowest_pause` (see :func:`keeps_pace`);
* it asks for a query's status (whether a trigger is running, whether data is waiting) only
  when a rule needs it: a bounded query that reported nothing new may have run out of input,
  and a checkpoint timeout needs to know when a batch started, which :func:`status_every`
  bounds to a twentieth of the timeout.

A batch running past its checkpoint timeout is therefore noticed at most one status interval
late and never early, and a query failure at most :func:`slowest_pause` late.
"""

from __future__ import annotations

from typing import Optional

from pyflink_compat.settings.durations import to_seconds

__all__ = ["FASTEST_PAUSE", "SLOWEST_PAUSE", "STARTING_SECONDS", "keeps_pace", "slowest_pause",
           "next_pause", "status_every", "needs_status"]

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


def keeps_pace(bounded: bool, progressed: bool, since_start: float) -> bool:
    """Whether a query keeps the supervisor at the fastest pace.

    :param bounded: Whether the query ends when its input is exhausted: it is watched closely
        until then, since noticing that takes :data:`IDLE_POLLS_BEFORE_FINISHED
        <pyflink_compat.spark.rules.IDLE_POLLS_BEFORE_FINISHED>` polls in a row.
    :param progressed: Whether this poll found a newly completed batch.
    :param since_start: Seconds since the query (re)started.
    """
    return bounded or progressed or since_start < STARTING_SECONDS


def next_pause(pause: float, busy: bool, slowest: float) -> float:
    """The pause before the next poll: the fastest while ``busy``, else twice ``pause`` up to
    ``slowest``."""
    if busy:
        return FASTEST_PAUSE
    return min(max(pause * 2, FASTEST_PAUSE), max(slowest, FASTEST_PAUSE))


def status_every(checkpoint_timeout: Optional[int]) -> Optional[float]:
    """Seconds between status questions that watch a checkpoint timeout (ns); ``None`` when no
    timeout is watched (checkpointing disabled)."""
    if checkpoint_timeout is None:
        return None
    return min(_LONGEST_STATUS_EVERY, max(FASTEST_PAUSE, to_seconds(checkpoint_timeout) / 20))


def needs_status(bounded: bool, progressed: bool, since_status: float,
                 every: Optional[float]) -> bool:
    """Whether a poll asks for a query's status.

    :param bounded: Whether the query ends when its input is exhausted.
    :param progressed: Whether this poll found a newly completed batch (the query is busy, so
        it cannot be idle yet).
    :param since_status: Seconds since its status was last asked for.
    :param every: :func:`status_every` for the job.
    """
    if bounded and not progressed:
        return True
    return every is not None and since_status >= every
