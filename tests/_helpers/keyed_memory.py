"""A keyed function run by hand, one key, with its state in dictionaries: for the logic of
the runtime's keyed functions (window firing, lateness) at watermarks a test sets itself,
which a bounded job (one micro-batch) never reaches."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set

from pyflink_compat.datastream.time_domain import TimeDomain


class _Value(object):
    def __init__(self) -> None:
        self._value: Any = None

    def value(self) -> Any:
        return self._value

    def update(self, value: Any) -> None:
        self._value = value

    def clear(self) -> None:
        self._value = None


class _Map(object):
    def __init__(self) -> None:
        self._items: Dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        return self._items.get(key)

    def put(self, key: Any, value: Any) -> None:
        self._items[key] = value

    def contains(self, key: Any) -> bool:
        return key in self._items

    def remove(self, key: Any) -> None:
        self._items.pop(key, None)

    def keys(self) -> List[Any]:
        return list(self._items)


class _Context(object):
    def __init__(self) -> None:
        self.states: Dict[str, Any] = {}

    def get_state(self, descriptor: Any) -> Any:
        return self.states.setdefault(descriptor.get_name(), _Value())

    def get_map_state(self, descriptor: Any) -> Any:
        return self.states.setdefault(descriptor.get_name(), _Map())


class KeyedByHand(object):
    """Runs ``function`` for the key ``key``: records and watermarks in the order a test gives.

    :param function: A ``KeyedProcessFunction`` of the runtime.
    :param key: The current key.
    """

    def __init__(self, function: Any, key: Any):
        self.function = function
        self.key = key
        self.watermark = -9223372036854775808
        self.timers: Set[int] = set()
        self.processing_timers: Set[int] = set()
        #: the processing time the function sees
        self.now = 0
        self.ts: Optional[int] = None
        self.domain: Any = None
        function.open(_Context())

    # -- the context the function sees -------------------------------------------------
    def timer_service(self) -> 'KeyedByHand':
        return self

    def current_watermark(self) -> int:
        return self.watermark

    def register_event_time_timer(self, timestamp: int) -> None:
        self.timers.add(timestamp)

    def current_processing_time(self) -> int:
        return self.now

    def register_processing_time_timer(self, timestamp: int) -> None:
        self.processing_timers.add(timestamp)

    def timestamp(self) -> Optional[int]:
        return self.ts

    def get_current_key(self) -> Any:
        return self.key

    def time_domain(self) -> Any:
        return self.domain

    # -- driving it ------------------------------------------------------------------------
    def record(self, value: Any, timestamp: int) -> List[Any]:
        """The outputs of one record."""
        self.ts = timestamp
        return list(self.function.process_element(value, self) or ())

    def advance(self, watermark: int) -> List[Any]:
        """The outputs of the timers the watermark ``watermark`` fires, in time order."""
        self.watermark = watermark
        out: List[Any] = []
        for timestamp in sorted(t for t in self.timers if t <= watermark):
            self.timers.discard(timestamp)
            self.ts = timestamp
            self.domain = TimeDomain.EVENT_TIME
            out.extend(self.function.on_timer(timestamp, self) or ())
        return out

    def advance_clock(self, now: int) -> List[Any]:
        """The outputs of the processing-time timers the clock at ``now`` fires, in time order."""
        self.now = now
        out: List[Any] = []
        for timestamp in sorted(t for t in self.processing_timers if t <= now):
            self.processing_timers.discard(timestamp)
            self.ts = timestamp
            self.domain = TimeDomain.PROCESSING_TIME
            out.extend(self.function.on_timer(timestamp, self) or ())
        return out
