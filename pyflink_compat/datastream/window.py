"""PyFlink's ``pyflink.datastream.window``: windows, the assigners that put records in them and
the triggers that fire them.

Time and count windows run with the tumbling, sliding and session event-time assigners (fixed
or dynamic gaps), the tumbling and sliding count assigners and the global windows (a keyed
window operator in ``transformWithState``). Every window takes any trigger: the
assigner's own, the built-in ones or the job's own ``Trigger`` subclass. The processing-time
assigners run too, their windows firing when their key is next handled after their end (a
registered divergence). The other names are declared, and using one raises
:class:`~pyflink_compat.missing.NotSupportedError` naming the PySpark way.
"""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Generic, Iterable, List, Optional, TypeVar

from pyflink_compat.datastream.functions import ReduceFunction
from pyflink_compat.missing.declared import Declared, declared_function

T = TypeVar('T')
W = TypeVar('W')
W2 = TypeVar('W2')

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










class CountWindowSerializer(Declared):
    pass








class GlobalWindowSerializer(Declared):
    pass









class TimeWindowSerializer(Declared):
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


class CountWindow(Window):
    """The ``id``-th window of a key's records counted in arrival order."""

    def __init__(self, id: int):
        super(CountWindow, self).__init__()
        self.id = id

    def max_timestamp(self) -> int:
        return 9223372036854775807

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: Any) -> bool:
        return self.__class__ == other.__class__ and self.id == other.id

    def __repr__(self) -> str:
        return "CountWindow(id={})".format(self.id)


class GlobalWindow(Window):
    """The one window of all the records of a key."""

    @staticmethod
    def get() -> 'GlobalWindow':
        return GlobalWindow()

    def max_timestamp(self) -> int:
        return 9223372036854775807

    def __eq__(self, other: Any) -> bool:
        return self.__class__ == other.__class__

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "GlobalWindow"


class TriggerResult(Enum):
    """What a trigger asks of its window: nothing, evaluate it, forget its contents, or both."""

    CONTINUE = (False, False)
    FIRE_AND_PURGE = (True, True)
    FIRE = (True, False)
    PURGE = (False, True)

    def is_fire(self) -> bool:
        return self.value[0]

    def is_purge(self) -> bool:
        return self.value[1]


class Trigger(ABC, Generic[T, W]):
    """Decides when a window is evaluated and when its contents are forgotten; a job may
    subclass it and give it to ``WindowedStream.trigger``."""

    @abstractmethod
    def on_element(self, element: T, timestamp: int, window: W, ctx: Any) -> TriggerResult:
        pass

    @abstractmethod
    def on_processing_time(self, time: int, window: W, ctx: Any) -> TriggerResult:
        pass

    @abstractmethod
    def on_event_time(self, time: int, window: W, ctx: Any) -> TriggerResult:
        pass

    def can_merge(self) -> bool:
        return False

    @abstractmethod
    def on_merge(self, window: W, ctx: Any) -> None:
        pass

    @abstractmethod
    def clear(self, window: W, ctx: Any) -> None:
        pass


class EventTimeTrigger(Trigger[Any, 'TimeWindow']):
    """Fires a time window once the watermark passes its end (the event-time assigners'
    trigger)."""

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        if window.max_timestamp() <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: Any, ctx: Any) -> None:
        if window.max_timestamp() > ctx.get_current_watermark():
            ctx.register_event_time_timer(window.max_timestamp())

    def clear(self, window: Any, ctx: Any) -> None:
        ctx.delete_event_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'EventTimeTrigger':
        return EventTimeTrigger()


class ProcessingTimeTrigger(Trigger[Any, 'TimeWindow']):
    """Fires a time window once the clock passes its end (the processing-time assigners'
    trigger)."""

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        ctx.register_processing_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.FIRE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: Any, ctx: Any) -> None:
        if window.max_timestamp() > ctx.get_current_processing_time():
            ctx.register_processing_time_timer(window.max_timestamp())

    def clear(self, window: Any, ctx: Any) -> None:
        ctx.delete_processing_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'ProcessingTimeTrigger':
        return ProcessingTimeTrigger()


class Min(ReduceFunction):
    """The smaller of two values."""

    def reduce(self, value1: Any, value2: Any) -> Any:
        return min(value1, value2)


class _Sum(ReduceFunction):
    def reduce(self, value1: Any, value2: Any) -> Any:
        return value1 + value2


class ContinuousEventTimeTrigger(Trigger[Any, 'TimeWindow']):
    """Fires a time window every ``interval`` of event time while it is open (from the
    interval its first record falls in), and once the watermark passes its end."""

    def __init__(self, interval: int):
        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.datastream.state import ReducingStateDescriptor

        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", Min(), Types.LONG())

    @staticmethod
    def of(interval: Any) -> 'ContinuousEventTimeTrigger':
        return ContinuousEventTimeTrigger(interval.to_milliseconds())

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        if window.max_timestamp() <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        next_fire = ctx.get_partitioned_state(self.state_desc)
        if next_fire.get() is None:
            self._next(timestamp - (timestamp % self.interval), window, ctx, next_fire)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        if time == window.max_timestamp():
            return TriggerResult.FIRE
        next_fire = ctx.get_partitioned_state(self.state_desc)
        if next_fire.get() is not None and next_fire.get() == time:
            next_fire.clear()
            self._next(time, window, ctx, next_fire)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_merge(self, window: Any, ctx: Any) -> None:
        ctx.merge_partitioned_state(self.state_desc)
        next_fire = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire is not None:
            ctx.register_event_time_timer(next_fire)

    def clear(self, window: Any, ctx: Any) -> None:
        next_fire = ctx.get_partitioned_state(self.state_desc)
        if next_fire.get() is not None:
            ctx.delete_event_time_timer(next_fire.get())
            next_fire.clear()

    def can_merge(self) -> bool:
        return True

    def _next(self, time: int, window: Any, ctx: Any, next_fire: Any) -> None:
        at = min(time + self.interval, window.max_timestamp())
        next_fire.add(at)
        ctx.register_event_time_timer(at)


class ContinuousProcessingTimeTrigger(Trigger[Any, 'TimeWindow']):
    """Fires a window every ``interval`` of the clock while it is open, from the interval the
    clock was in at its first record (processing-time timers fire when their key is next
    handled, at a micro-batch: the registered divergence
    ``datastream-processing-time-windows-fire-with-their-key``)."""

    def __init__(self, interval: int):
        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.datastream.state import ReducingStateDescriptor

        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", Min(), Types.LONG())

    @staticmethod
    def of(interval: Any) -> 'ContinuousProcessingTimeTrigger':
        return ContinuousProcessingTimeTrigger(interval.to_milliseconds())

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        next_fire = ctx.get_partitioned_state(self.state_desc)
        now = ctx.get_current_processing_time()
        if next_fire.get() is None:
            self.register_next_fire_timestamp(now - (now % self.interval), window, ctx, next_fire)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        next_fire = ctx.get_partitioned_state(self.state_desc)
        if next_fire.get() == time:
            next_fire.clear()
            self.register_next_fire_timestamp(time, window, ctx, next_fire)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_merge(self, window: Any, ctx: Any) -> None:
        ctx.merge_partitioned_state(self.state_desc)
        next_fire = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire is not None:
            ctx.register_processing_time_timer(next_fire)

    def clear(self, window: Any, ctx: Any) -> None:
        next_fire = ctx.get_partitioned_state(self.state_desc)
        if next_fire.get() is not None:
            ctx.delete_processing_time_timer(next_fire.get())
            next_fire.clear()

    def can_merge(self) -> bool:
        return True

    def register_next_fire_timestamp(self, time: int, window: Any, ctx: Any,
                                     fire_timestamp_state: Any) -> None:
        at = min(time + self.interval, window.max_timestamp())
        fire_timestamp_state.add(at)
        ctx.register_processing_time_timer(at)


class CountTrigger(Trigger[Any, CountWindow]):
    """Fires a window each time ``window_size`` more records reached it (the count
    assigners' trigger)."""

    def __init__(self, window_size: int):
        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.datastream.state import ReducingStateDescriptor

        self._window_size = window_size
        self._count_state_descriptor = ReducingStateDescriptor("trigger_counter", _Sum(), Types.LONG())

    @staticmethod
    def of(window_size: int) -> 'CountTrigger':
        return CountTrigger(window_size)

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        counted = ctx.get_partitioned_state(self._count_state_descriptor)
        counted.add(1)
        if counted.get() >= self._window_size:
            counted.clear()  # fires, keeping the window's records
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: Any, ctx: Any) -> None:
        ctx.merge_partitioned_state(self._count_state_descriptor)

    def clear(self, window: Any, ctx: Any) -> None:
        ctx.get_partitioned_state(self._count_state_descriptor).clear()


class NeverTrigger(Trigger[Any, GlobalWindow]):
    """Never fires (the global windows' trigger)."""

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_merge(self, window: Any, ctx: Any) -> None:
        pass

    def clear(self, window: Any, ctx: Any) -> None:
        pass


class PurgingTrigger(Trigger[Any, Window]):
    """The nested trigger, with each firing also forgetting the window's contents."""

    def __init__(self, nested_trigger: Trigger):
        self.nested_trigger = nested_trigger

    @staticmethod
    def of(nested_trigger: Trigger) -> 'PurgingTrigger':
        return PurgingTrigger(nested_trigger)

    def on_element(self, element: Any, timestamp: int, window: Any, ctx: Any) -> TriggerResult:
        result = self.nested_trigger.on_element(element, timestamp, window, ctx)
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_processing_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        result = self.nested_trigger.on_processing_time(time, window, ctx)
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_event_time(self, time: int, window: Any, ctx: Any) -> TriggerResult:
        result = self.nested_trigger.on_event_time(time, window, ctx)
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def can_merge(self) -> bool:
        return self.nested_trigger.can_merge()

    def on_merge(self, window: Any, ctx: Any) -> None:
        self.nested_trigger.on_merge(window, ctx)

    def clear(self, window: Any, ctx: Any) -> None:
        self.nested_trigger.clear(window, ctx)


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


class TumblingProcessingTimeWindows(WindowAssigner[Any, TimeWindow]):
    """Windows of ``size`` following each other, by the clock when a record is handled."""

    def __init__(self, size: int, offset: int):
        if abs(offset) >= size:
            raise Exception("TumblingProcessingTimeWindows parameters must satisfy "
                            "abs(offset) < size")
        self._size = size
        self._offset = offset

    @staticmethod
    def of(size: Any, offset: Any = None) -> 'TumblingProcessingTimeWindows':
        return TumblingProcessingTimeWindows(_millis(size), 0 if offset is None else _millis(offset))

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        now = context.get_current_processing_time()
        start = TimeWindow.get_window_start_with_offset(now, self._offset, self._size)
        return [TimeWindow(start, start + self._size)]

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "TumblingProcessingTimeWindows(%s, %s)" % (self._size, self._offset)


class SlidingProcessingTimeWindows(WindowAssigner[Any, TimeWindow]):
    """Windows of ``size`` starting every ``slide``, by the clock when a record is handled."""

    def __init__(self, size: int, slide: int, offset: int):
        if abs(offset) >= slide or size <= 0:
            raise Exception("SlidingProcessingTimeWindows parameters must satisfy "
                            "abs(offset) < slide and size > 0")
        self._size = size
        self._slide = slide
        self._offset = offset

    @staticmethod
    def of(size: Any, slide: Any, offset: Any = None) -> 'SlidingProcessingTimeWindows':
        return SlidingProcessingTimeWindows(_millis(size), _millis(slide),
                                            0 if offset is None else _millis(offset))

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        now = context.get_current_processing_time()
        last_start = TimeWindow.get_window_start_with_offset(now, self._offset, self._slide)
        return [TimeWindow(start, start + self._size)
                for start in range(last_start, now - self._size, -self._slide)]

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "SlidingProcessingTimeWindows(%s, %s, %s)" % (self._size, self._slide, self._offset)


class MergingWindowAssigner(WindowAssigner[T, W]):
    """An assigner whose windows merge when they overlap (session windows)."""

    class MergeCallback(ABC, Generic[W2]):
        @abstractmethod
        def merge(self, to_be_merged: Iterable[W2], merge_result: W2) -> None:
            pass

    @abstractmethod
    def merge_windows(self, windows: Iterable[W], callback: Any) -> None:
        pass


def _merge_time_windows(windows: Iterable[TimeWindow], callback: Any) -> None:
    groups: List[List[TimeWindow]] = []
    for window in sorted(windows, key=lambda w: (w.start, w.end)):
        if groups and _cover(groups[-1]).intersects(window):
            groups[-1].append(window)
        else:
            groups.append([window])
    for group in groups:
        if len(group) > 1:
            callback.merge(group, _cover(group))


def _cover(windows: List[TimeWindow]) -> TimeWindow:
    return TimeWindow(min(w.start for w in windows), max(w.end for w in windows))


class SessionWindowTimeGapExtractor(ABC):
    """Gives each record its session gap, in milliseconds."""

    @abstractmethod
    def extract(self, element: Any) -> int:
        pass


class EventTimeSessionWindows(MergingWindowAssigner[Any, TimeWindow]):
    """Sessions by event time: a key's records less than ``session_gap`` apart share a
    window."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("EventTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Any) -> 'EventTimeSessionWindows':
        return EventTimeSessionWindows(_millis(size))

    @staticmethod
    def with_dynamic_gap(extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow], callback: Any) -> None:
        _merge_time_windows(windows, callback)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        return [TimeWindow(timestamp, timestamp + self._session_gap)]

    def get_default_trigger(self, env: Any) -> Trigger:
        return EventTimeTrigger()

    def __repr__(self) -> str:
        return "EventTimeSessionWindows(%s)" % self._session_gap


class ProcessingTimeSessionWindows(MergingWindowAssigner[Any, TimeWindow]):
    """Sessions by the clock when records are handled: a key's records handled less than
    ``session_gap`` apart share a window."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("ProcessingTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Any) -> 'ProcessingTimeSessionWindows':
        return ProcessingTimeSessionWindows(_millis(size))

    @staticmethod
    def with_dynamic_gap(extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow], callback: Any) -> None:
        _merge_time_windows(windows, callback)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        now = context.get_current_processing_time()
        return [TimeWindow(now, now + self._session_gap)]

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "ProcessingTimeSessionWindows(%s)" % self._session_gap


class DynamicProcessingTimeSessionWindows(MergingWindowAssigner[Any, TimeWindow]):
    """Sessions by the clock when records are handled, each record giving its own gap through
    ``session_window_time_gap_extractor``."""

    def __init__(self, session_window_time_gap_extractor: SessionWindowTimeGapExtractor):
        self._session_gap = 0
        self._session_window_time_gap_extractor = session_window_time_gap_extractor

    @staticmethod
    def with_dynamic_gap(extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow], callback: Any) -> None:
        _merge_time_windows(windows, callback)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        now = context.get_current_processing_time()
        self._session_gap = self._session_window_time_gap_extractor.extract(element)
        if self._session_gap <= 0:
            raise Exception("Dynamic session time gap must satisfy 0 < gap")
        return [TimeWindow(now, now + self._session_gap)]

    def get_default_trigger(self, env: Any) -> Trigger:
        return ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "DynamicProcessingTimeSessionWindows(%s)" % self._session_gap


class DynamicEventTimeSessionWindows(MergingWindowAssigner[Any, TimeWindow]):
    """Sessions by event time, each record giving its own gap through ``session_window_time_gap_extractor``."""

    def __init__(self, session_window_time_gap_extractor: SessionWindowTimeGapExtractor):
        self._session_gap_func = session_window_time_gap_extractor
        self._session_gap = 0

    @staticmethod
    def with_dynamic_gap(extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow], callback: Any) -> None:
        _merge_time_windows(windows, callback)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[TimeWindow]:
        self._session_gap = self._session_gap_func.extract(element)
        if self._session_gap <= 0:
            raise Exception("Dynamic session time gap must satisfy 0 < gap")
        return [TimeWindow(timestamp, timestamp + self._session_gap)]

    def get_default_trigger(self, env: Any) -> Trigger:
        return EventTimeTrigger()

    def __repr__(self) -> str:
        return "DynamicEventTimeSessionWindows(%s)" % self._session_gap


class CountTumblingWindowAssigner(WindowAssigner[Any, CountWindow]):
    """Windows of ``window_size`` records of a key, one after the other."""

    def __init__(self, window_size: int):
        self._window_size = window_size

    @staticmethod
    def of(window_size: int) -> 'CountTumblingWindowAssigner':
        return CountTumblingWindowAssigner(window_size)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[CountWindow]:
        return [CountWindow(context.next_count() // self._window_size)]

    def get_default_trigger(self, env: Any) -> Trigger:
        return CountTrigger(self._window_size)

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "CountTumblingWindowAssigner(%s)" % self._window_size


class CountSlidingWindowAssigner(WindowAssigner[Any, CountWindow]):
    """Windows of ``window_size`` records of a key, one starting every ``window_slide``
    records."""

    def __init__(self, window_size: int, window_slide: int):
        self._window_size = window_size
        self._window_slide = window_slide

    @staticmethod
    def of(window_size: int, window_slide: int) -> 'CountSlidingWindowAssigner':
        return CountSlidingWindowAssigner(window_size, window_slide)

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[CountWindow]:
        count = context.next_count()
        # window n holds the records counted n * slide ... n * slide + size - 1
        newest = count // self._window_slide
        oldest = max(0, -((self._window_size - 1 - count) // self._window_slide))
        return [CountWindow(n) for n in range(newest, oldest - 1, -1)
                if n * self._window_slide <= count <= n * self._window_slide + self._window_size - 1]

    def get_default_trigger(self, env: Any) -> Trigger:
        return CountTrigger(self._window_size)

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "CountSlidingWindowAssigner(%s, %s)" % (self._window_size, self._window_slide)


class GlobalWindows(WindowAssigner[Any, GlobalWindow]):
    """One window of all the records of a key. Its own trigger never fires: give it a
    ``CountTrigger`` (firing each time that many more records came, the window keeping its
    records) or a ``PurgingTrigger`` of one (the window emptied at each firing)."""

    def __init__(self) -> None:
        super().__init__()

    def assign_windows(self, element: Any, timestamp: int, context: Any) -> List[GlobalWindow]:
        return [GlobalWindow.get()]

    @staticmethod
    def create() -> 'GlobalWindows':
        return GlobalWindows()

    def get_default_trigger(self, env: Any) -> Trigger:
        return NeverTrigger()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "GlobalWindows()"


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
