"""PyFlink's ``pyflink.common.watermark_strategy``: how a stream's records get event-time
timestamps and how its watermark follows them.

On Spark a strategy becomes the stream's event-time column and ``DataFrame.withWatermark``
with the out-of-orderness as delay; a bounded input ends with the greatest watermark, as in
Flink, so every pending event-time timer fires.
"""

import abc
from typing import Any, Optional

from pyflink_compat.common.time import Duration
from pyflink_compat.missing import not_supported
from pyflink_compat.missing.declared import Declared

__all__ = ['WatermarkStrategy', 'TimestampAssigner', 'AssignerWithPeriodicWatermarksWrapper']


def _millis(duration: Any) -> int:
    if isinstance(duration, Duration):
        return int(duration._j_duration.toMillis())
    return int(duration)


class WatermarkStrategy(object):
    """How records get their timestamps and how the watermark follows them.

    :param j_watermark_strategy: Kept for PyFlink's signature: the out-of-orderness in
        milliseconds, or ``None`` for a stream without watermarks.
    """

    def __init__(self, j_watermark_strategy: Optional[int]):
        self._out_of_orderness_ms = j_watermark_strategy
        self._timestamp_assigner: Optional['TimestampAssigner'] = None
        self._idleness_ms: Optional[int] = None

    def with_timestamp_assigner(self, timestamp_assigner: 'TimestampAssigner') -> 'WatermarkStrategy':
        """Take each record's timestamp from ``timestamp_assigner``."""
        self._timestamp_assigner = timestamp_assigner
        return self

    def with_idleness(self, idle_timeout: Duration) -> 'WatermarkStrategy':
        """Mark an input idle after ``idle_timeout`` without records (one input per stream on
        Spark, whose watermark never waits for an idle one)."""
        self._idleness_ms = _millis(idle_timeout)
        return self

    def with_watermark_alignment(self, watermark_group: str, max_allowed_watermark_drift: Duration,
                                 update_interval: Optional[Duration] = None) -> 'WatermarkStrategy':
        """Not supported: Spark has no watermark alignment between sources."""
        raise not_supported("WatermarkStrategy.with_watermark_alignment")

    @staticmethod
    def for_monotonous_timestamps() -> 'WatermarkStrategy':
        """Timestamps that never decrease: the watermark is the greatest timestamp seen."""
        return WatermarkStrategy(0)

    @staticmethod
    def for_bounded_out_of_orderness(max_out_of_orderness: Duration) -> 'WatermarkStrategy':
        """Timestamps out of order by at most ``max_out_of_orderness``."""
        return WatermarkStrategy(_millis(max_out_of_orderness))

    @staticmethod
    def no_watermarks() -> 'WatermarkStrategy':
        """No watermark: event time does not advance (until a bounded input ends)."""
        return WatermarkStrategy(None)


class TimestampAssigner(abc.ABC):
    """Gives each record its event-time timestamp, in milliseconds since the epoch."""

    @abc.abstractmethod
    def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
        """The timestamp of ``value``; ``record_timestamp`` is its previous one (or a negative
        number when it had none)."""
        pass


class AssignerWithPeriodicWatermarksWrapper(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
