"""PyFlink's ``pyflink.datastream.window``: windows and the assigners that put records in them.

Time windows and the tumbling and sliding event-time assigners run (a keyed window operator
in ``transformWithState``, firing each window when the watermark passes its end); the other
names are declared, and using one raises :class:`~pyflink_compat.missing.NotSupportedError`
naming the PySpark way.
"""
from abc import ABC, abstractmethod
from typing import Any, Generic, List, Optional, TypeVar

from pyflink_compat.missing.declared import Declared, declared_function

T = TypeVar('T')
W = TypeVar('W')

__all__ = ['Window', 'TimeWindow', 'CountWindow', 'GlobalWindow', 'WindowAssigner',
    'TumblingProcessingTimeWindows', 'TumblingEventTimeWindows', 'SlidingProcessingTimeWindows',
    'SlidingEventTimeWindows', 'ProcessingTimeSessionWindows', 'EventTimeSessionWindows',
    'DynamicProcessingTimeSessionWindows', 'DynamicEventTimeSessionWindows', 'GlobalWindows',
    'MergingWindowAssigner', 'CountTumblingWindowAssigner', 'CountSlidingWindowAssigner',
    'TriggerResult', 'Trigger', 'EventTimeTrigger', 'ProcessingTimeTrigger',
    'ContinuousEventTimeTrigger', 'ContinuousProcessingTimeTrigger', 'NeverTrigger',
    'PurgingTrigger', 'CountTrigger', 'TimeWindowSerializer', 'CountWindowSerializer',
    'GlobalWindowSerializer', 'SessionWindowTimeGapExtractor']

long_to_int_with_bit_mixing = declared_function(__name__, 'long_to_int_with_bit_mixing')
mod_inverse = declared_function(__name__, 'mod_inverse')


class ContinuousEventTimeTrigger(Declared):
    pass


class ContinuousProcessingTimeTrigger(Declared):
    pass


class CountSlidingWindowAssigner(Declared):
    pass


class CountTrigger(Declared):
    pass


class CountTumblingWindowAssigner(Declared):
    pass


class CountWindow(Declared):
    pass


class CountWindowSerializer(Declared):
    pass


class DynamicEventTimeSessionWindows(Declared):
    pass


class DynamicProcessingTimeSessionWindows(Declared):
    pass


class EventTimeSessionWindows(Declared):
    pass


class EventTimeTrigger(Declared):
    pass


class GlobalWindow(Declared):
    pass


class GlobalWindowSerializer(Declared):
    pass


class GlobalWindows(Declared):
    pass


class MergingWindowAssigner(Declared):
    pass


class Min(Declared):
    pass


class NeverTrigger(Declared):
    pass


class ProcessingTimeSessionWindows(Declared):
    pass


class ProcessingTimeTrigger(Declared):
    pass


class PurgingTrigger(Declared):
    pass


class SessionWindowTimeGapExtractor(Declared):
    pass


class SlidingProcessingTimeWindows(Declared):
    pass


class TimeWindowSerializer(Declared):
    pass


class Trigger(Declared):
    pass


class TriggerResult(Declared):
    pass


class TumblingProcessingTimeWindows(Declared):
    pass


class WindowOperationDescriptor(Declared):
    pass


class Window(ABC):
    """A finite group of records; every record of it has arrived once time passes its
    ``max_timestamp()``."""

    @abstractmethod
    def max_timestamp(self) -> int:
        pass


class TimeWindow(Window):
    """The records of an interval of time, from ``start`` (included) to ``end`` (excluded)."""

    def __init__(self, start: int, end: int):
        super(TimeWindow, self).__init__()
        self.start = start
        self.end = end

    def max_timestamp(self) -> int:
        return self.end - 1

    def intersects(self, other: 'TimeWindow') -> bool:
        return self.start <= other.end and self.end >= other.start

    def cover(self, other: 'TimeWindow') -> 'TimeWindow':
        return TimeWindow(min(self.start, other.start), max(self.end, other.end))

    @staticmethod
    def get_window_start_with_offset(timestamp: int, offset: int, window_size: int) -> int:
        return timestamp - (timestamp - offset + window_size) % window_size

    def __hash__(self) -> int:
        return hash((self.start, self.end))

    def __eq__(self, other: Any) -> bool:
        return self.__class__ == other.__class__ and self.end == other.end and self.start == other.start

    def __lt__(self, other: 'TimeWindow') -> bool:
        if not isinstance(other, TimeWindow):
            raise Exception("Does not support comparison with non-TimeWindow %s" % other)
        return self.start == other.start and self.end < other.end or self.start < other.start

    def __repr__(self) -> str:
        return "TimeWindow(start={}, end={})".format(self.start, self.end)


_NO_TIMESTAMP = -9223372036854775808


class WindowAssigner(ABC, Generic[T, W]):
    """Puts each record in zero or more windows."""

    @abstractmethod
    def assign_windows(self, element: T, timestamp: int, context: Any) -> List[W]:
        pass

    def is_event_time(self) -> bool:
        return True


def _millis(time: Any) -> int:
    return int(time.to_milliseconds())


def _checked_timestamp(timestamp: Optional[int]) -> int:
    if timestamp is None or timestamp <= _NO_TIMESTAMP:
        raise Exception("Record has Java Long.MIN_VALUE timestamp (= no timestamp marker). Is the "
                        "time characteristic set to 'ProcessingTime', or did you forget to call "
                        "'data_stream.assign_timestamps_and_watermarks(...)'?")
    return timestamp


class TumblingEventTimeWindows(WindowAssigner[Any, TimeWindow]):
    """Windows of ``size`` following each other, by event time."""

    def __init__(self, size: int, offset: int):
        if abs(offset) >= size:
            raise Exception("TumblingEventTimeWindows parameters must satisfy abs(offset) < size")
        self._size = size
        self._offset = offset

    @staticmethod
    def of(size: Any, offset: Any = None) -> 'TumblingEventTimeWindows':
        return TumblingEventTimeWindows(_millis(size), 0 if offset is None else _millis(offset))

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        start = TimeWindow.get_window_start_with_offset(_checked_timestamp(timestamp), self._offset,
                                                        self._size)
        return [TimeWindow(start, start + self._size)]

    def __repr__(self) -> str:
        return "TumblingEventTimeWindows(%s, %s)" % (self._size, self._offset)


class SlidingEventTimeWindows(WindowAssigner[Any, TimeWindow]):
    """Windows of ``size`` starting every ``slide``, by event time."""

    def __init__(self, size: int, slide: int, offset: int):
        if abs(offset) >= slide or size <= 0:
            raise Exception("SlidingEventTimeWindows parameters must satisfy "
                            + "abs(offset) < slide and size > 0")
        self._size = size
        self._slide = slide
        self._offset = offset

    @staticmethod
    def of(size: Any, slide: Any, offset: Any = None) -> 'SlidingEventTimeWindows':
        return SlidingEventTimeWindows(_millis(size), _millis(slide),
                                       0 if offset is None else _millis(offset))

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        timestamp = _checked_timestamp(timestamp)
        last_start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._slide)
        return [TimeWindow(start, start + self._size)
                for start in range(last_start, timestamp - self._size, -self._slide)]

    def __repr__(self) -> str:
        return "SlidingEventTimeWindows(%s, %s, %s)" % (self._size, self._slide, self._offset)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
