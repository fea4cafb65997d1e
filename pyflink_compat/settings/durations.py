"""Durations: the one unit they are kept in, and every conversion to and from it.

Inside pyflink_compat a duration is an ``int`` of nanoseconds, from the registry through the
job plan, so that sub-millisecond values set with a :class:`~pyflink_compat.common.Duration`
survive. The API converts milliseconds at its boundary, the runtime converts to seconds for
its clocks and the Spark writer to milliseconds for Spark's triggers, all through the functions
of this module.
"""

from __future__ import annotations

from typing import Optional, Tuple

__all__ = [
    "NANOS_PER_MILLI",
    "NANOS_PER_SECOND",
    "from_millis",
    "to_millis",
    "to_seconds",
    "from_seconds_and_nanos",
    "to_seconds_and_nanos",
    "show",
]

#: Nanoseconds in one millisecond.
NANOS_PER_MILLI = 1_000_000
#: Nanoseconds in one second.
NANOS_PER_SECOND = 1_000_000_000


def from_millis(millis: int) -> int:
    """A duration given in milliseconds (the API's unit), in nanoseconds."""
    return millis * NANOS_PER_MILLI


def to_millis(nanos: int) -> int:
    """A duration in whole milliseconds, rounded down (as Java's ``Duration.toMillis``)."""
    return nanos // NANOS_PER_MILLI


def to_seconds(nanos: int) -> float:
    """A duration in seconds, for clocks such as :func:`time.monotonic`."""
    return nanos / NANOS_PER_SECOND


def from_seconds_and_nanos(seconds: int, nanos: int) -> int:
    """A ``java.time.Duration``'s seconds and nano adjustment, as one count of nanoseconds."""
    return seconds * NANOS_PER_SECOND + nanos


def to_seconds_and_nanos(nanos: int) -> Tuple[int, int]:
    """A duration as the seconds and nano adjustment of a ``java.time.Duration``."""
    seconds, rest = divmod(nanos, NANOS_PER_SECOND)
    return seconds, rest


def show(nanos: Optional[int]) -> str:
    """A duration for the job summary: whole milliseconds as ``ms``, otherwise ``ns``."""
    if nanos is None:
        return "<unset>"
    if nanos % NANOS_PER_MILLI == 0:
        return "{} ms".format(to_millis(nanos))
    return "{} ns".format(nanos)
