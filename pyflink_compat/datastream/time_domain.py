"""PyFlink's ``pyflink.datastream.time_domain``: the time a timer follows."""
from enum import Enum


class TimeDomain(Enum):
    """Whether a timer follows event time (the watermark) or processing time (the clock)."""

    EVENT_TIME = 0
    PROCESSING_TIME = 1
