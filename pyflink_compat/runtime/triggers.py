"""Windows fired by a trigger the job gives (``WindowedStream.trigger``), as Flink's window
operator runs them.

Each record added to a window asks the trigger (``on_element``); a timer the trigger
registered asks it again (``on_event_time`` / ``on_processing_time``) for the windows that
registered it. A ``FIRE`` result evaluates the window with its contents, a ``PURGE`` forgets
them. Every time window also has a cleanup time (its end, plus the allowed lateness in event
time), at which its contents and the trigger's state are forgotten and the trigger's
``clear`` runs; global and count windows have none (their last millisecond is the largest
long), so their contents stay until the trigger purges them. The runtime's timers belong to a key, not to a
window, so the windows waiting for each timer are kept in a map state, and so is the state the
trigger asks for with ``get_partitioned_state`` (by descriptor name and window).
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.state import (
    AggregatingState, AggregatingStateDescriptor, ListState, ListStateDescriptor, ReducingState,
    ReducingStateDescriptor, ValueState, ValueStateDescriptor)
from pyflink_compat.datastream.time_domain import TimeDomain

__all__ = ["TriggeredWindows", "Merges", "window_key", "window_of"]

_EVENT, _PROCESSING = 0, 1
_LONG_MAX = 9223372036854775807


class Merges(object):
    """Collects the merges a merging assigner asks for."""

    def __init__(self) -> None:
        self.merges: List[Tuple[List[Any], Any]] = []

    def merge(self, to_be_merged: Any, merge_result: Any) -> None:
        self.merges.append((list(to_be_merged), merge_result))


def window_key(window: Any) -> Tuple[int, ...]:
    """The key of a window in the operator's map states: ``(start, end)``, ``(id,)`` for a
    count window or ``()`` for the global window."""
    from pyflink_compat.datastream.window import CountWindow, TimeWindow

    if isinstance(window, TimeWindow):
        return (window.start, window.end)
    return (window.id,) if isinstance(window, CountWindow) else ()


def window_of(key: Tuple[int, ...]) -> Any:
    from pyflink_compat.datastream.window import CountWindow, GlobalWindow, TimeWindow

    if len(key) == 2:
        return TimeWindow(key[0], key[1])
    return CountWindow(key[0]) if len(key) == 1 else GlobalWindow.get()


class _Slot(object):
    """The value of one partitioned state of one window in the trigger-state map."""

    def __init__(self, states: Any, name: str, key: Tuple[int, ...]):
        self._states, self._slot = states, (name, key)

    def read(self) -> Any:
        return self._states.get(self._slot)

    def write(self, value: Any) -> None:
        if value is None:
            self._states.remove(self._slot)
        else:
            self._states.put(self._slot, value)


class _Value(ValueState):
    def __init__(self, slot: _Slot):
        self._slot = slot

    def value(self) -> Any:
        return self._slot.read()

    def update(self, value: Any) -> None:
        self._slot.write(value)

    def clear(self) -> None:
        self._slot.write(None)


class _Reducing(ReducingState):
    def __init__(self, slot: _Slot, function: Any):
        self._slot, self._function = slot, function

    def get(self) -> Any:
        return self._slot.read()

    def add(self, value: Any) -> None:
        current = self._slot.read()
        self._slot.write(value if current is None else _reduce(self._function, current, value))

    def clear(self) -> None:
        self._slot.write(None)


class _Aggregating(AggregatingState):
    def __init__(self, slot: _Slot, function: Any):
        self._slot, self._function = slot, function

    def get(self) -> Any:
        accumulator = self._slot.read()
        return None if accumulator is None else self._function.get_result(accumulator)

    def add(self, value: Any) -> None:
        accumulator = self._slot.read()
        if accumulator is None:
            accumulator = self._function.create_accumulator()
        self._slot.write(self._function.add(value, accumulator))

    def clear(self) -> None:
        self._slot.write(None)


class _List(ListState):
    def __init__(self, slot: _Slot):
        self._slot = slot

    def get(self) -> Any:
        return list(self._slot.read() or [])

    def add(self, value: Any) -> None:
        self._slot.write(list(self._slot.read() or []) + [value])

    def update(self, values: Any) -> None:
        self._slot.write(list(values) or None)

    def add_all(self, values: Any) -> None:
        for value in values or []:
            self.add(value)

    def clear(self) -> None:
        self._slot.write(None)


def _reduce(function: Any, a: Any, b: Any) -> Any:
    reduce = getattr(function, "reduce", None)
    return reduce(a, b) if reduce is not None else function(a, b)


class _TriggerContext(object):
    """What a trigger is given for one window: the time, its timers, its partitioned state."""

    def __init__(self, owner: 'TriggeredWindows', window: Any, ctx: Any,
                 merged: Optional[List[Tuple[int, ...]]] = None):
        self._owner, self._window, self._ctx, self._merged = owner, window, ctx, merged

    def get_current_processing_time(self) -> int:
        return int(self._ctx.timer_service().current_processing_time())

    def get_current_watermark(self) -> int:
        return int(self._ctx.timer_service().current_watermark())

    def get_metric_group(self) -> Any:
        from pyflink_compat.missing import not_supported

        raise not_supported("RuntimeContext.get_metrics_group")

    def register_event_time_timer(self, time: int) -> None:
        self._owner.register(_EVENT, int(time), self._window, self._ctx)

    def register_processing_time_timer(self, time: int) -> None:
        self._owner.register(_PROCESSING, int(time), self._window, self._ctx)

    def delete_event_time_timer(self, time: int) -> None:
        self._owner.unregister(_EVENT, int(time), self._window)

    def delete_processing_time_timer(self, time: int) -> None:
        self._owner.unregister(_PROCESSING, int(time), self._window)

    def get_partitioned_state(self, state_descriptor: Any) -> Any:
        slot = _Slot(self._owner.states, state_descriptor.get_name(), window_key(self._window))
        if isinstance(state_descriptor, ReducingStateDescriptor):
            return _Reducing(slot, state_descriptor.get_reduce_function())
        if isinstance(state_descriptor, AggregatingStateDescriptor):
            return _Aggregating(slot, state_descriptor.get_agg_function())
        if isinstance(state_descriptor, ListStateDescriptor):
            return _List(slot)
        if isinstance(state_descriptor, ValueStateDescriptor):
            return _Value(slot)
        from pyflink_compat.missing import not_supported

        raise not_supported("Trigger.TriggerContext.get_partitioned_state")

    def merge_partitioned_state(self, state_descriptor: Any) -> None:
        """Merge the state of the windows merged into this one (``on_merge``)."""
        name = state_descriptor.get_name()
        target = _Slot(self._owner.states, name, window_key(self._window))
        for key in self._merged or []:
            source = _Slot(self._owner.states, name, key)
            value = source.read()
            if value is None or key == window_key(self._window):
                continue
            current = target.read()
            if current is None:
                merged = value
            elif isinstance(state_descriptor, ReducingStateDescriptor):
                merged = _reduce(state_descriptor.get_reduce_function(), current, value)
            elif isinstance(state_descriptor, AggregatingStateDescriptor):
                merged = state_descriptor.get_agg_function().merge(current, value)
            elif isinstance(state_descriptor, ListStateDescriptor):
                merged = list(current) + list(value)
            else:
                merged = current
            target.write(merged)
            source.write(None)


class TriggeredWindows(object):
    """The trigger-driven part of a window operator.

    :param operator: The window operator (its contents, its evaluation).
    :param trigger: The job's trigger.
    :param timers: The map state of the windows waiting for each timer.
    :param states: The map state of the trigger's partitioned state.
    """

    def __init__(self, operator: Any, trigger: Any, timers: Any, states: Any):
        self.operator, self.trigger, self.timers, self.states = operator, trigger, timers, states

    def register(self, domain: int, time: int, window: Any, ctx: Any) -> None:
        waiting = list(self.timers.get((domain, time)) or [])
        key = window_key(window)
        if key not in waiting:
            self.timers.put((domain, time), waiting + [key])
        service = ctx.timer_service()
        if domain == _EVENT:
            service.register_event_time_timer(time)
        else:
            service.register_processing_time_timer(time)

    def unregister(self, domain: int, time: int, window: Any) -> None:
        waiting = [k for k in self.timers.get((domain, time)) or [] if k != window_key(window)]
        if waiting:
            self.timers.put((domain, time), waiting)
        else:
            self.timers.remove((domain, time))

    def _cleanup_time(self, window: Any) -> int:
        operator = self.operator
        end = window.max_timestamp()
        if end == _LONG_MAX:
            return _LONG_MAX
        if operator._assigner.is_event_time():
            return min(end + operator._allowed_lateness, _LONG_MAX)
        return end

    def _cleanup_domain(self) -> int:
        return _EVENT if self.operator._assigner.is_event_time() else _PROCESSING

    def element(self, value: Any, timestamp: Any, windows: List[Any], ctx: Any) -> Iterator[Any]:
        """Add ``value`` to its windows and run the trigger for each."""
        from pyflink_compat.datastream.window import MergingWindowAssigner

        operator = self.operator
        watermark = ctx.timer_service().current_watermark()
        if isinstance(operator._assigner, MergingWindowAssigner):
            windows = [self._merged(window, ctx) for window in windows]
        skipped = True
        for window in windows:
            if window is None:
                continue
            cleanup = self._cleanup_time(window)
            if operator._assigner.is_event_time() and cleanup <= watermark:
                continue  # late: the window has been cleaned up
            skipped = False
            key = window_key(window)
            count, contents = operator._windows.get(key) or (0, None)
            entry = (count + 1, operator._add(contents, count > 0, value))
            operator._windows.put(key, entry)
            result = self.trigger.on_element(value, timestamp, window, _TriggerContext(self, window, ctx))
            yield from self._apply(result, window, key, ctx)
            if cleanup != _LONG_MAX:
                self.register(self._cleanup_domain(), cleanup, window, ctx)
        if skipped and operator._late_tag is not None and operator._assigner.is_event_time() \
                and timestamp is not None and timestamp + operator._allowed_lateness <= watermark:
            yield operator._late_tag, value

    def _apply(self, result: Any, window: Any, key: Tuple[int, ...], ctx: Any) -> Iterator[Any]:
        operator = self.operator
        if result.is_fire():
            entry = operator._windows.get(key)
            if entry is not None:
                yield from operator._fire(window, entry, ctx)
        if result.is_purge():
            operator._windows.remove(key)

    def timer(self, timestamp: int, ctx: Any) -> Iterator[Any]:
        """Run the trigger for the windows waiting for the timer at ``timestamp``."""
        domain = _EVENT if ctx.time_domain() == TimeDomain.EVENT_TIME else _PROCESSING
        waiting = self.timers.get((domain, timestamp)) or []
        self.timers.remove((domain, timestamp))
        for key in sorted(waiting):
            window = window_of(key)
            context = _TriggerContext(self, window, ctx)
            if domain == _EVENT:
                result = self.trigger.on_event_time(timestamp, window, context)
            else:
                result = self.trigger.on_processing_time(timestamp, window, context)
            yield from self._apply(result, window, key, ctx)
            if domain == self._cleanup_domain() and timestamp == self._cleanup_time(window):
                self._clear(window, ctx)

    def _clear(self, window: Any, ctx: Any) -> None:
        key = window_key(window)
        self.operator._windows.remove(key)
        self.trigger.clear(window, _TriggerContext(self, window, ctx))
        for slot in [s for s in self.states.keys() if s[1] == key]:
            self.states.remove(slot)

    def _merged(self, window: Any, ctx: Any) -> Any:
        """The window ``window`` becomes once merged with the key's windows (their contents
        and trigger state merged into it, their trigger cleared), or ``None`` when too late."""
        operator = self.operator
        callback = Merges()
        known = [window_of(k) for k in operator._windows.keys() if len(k) == 2]
        operator._assigner.merge_windows(known + [window], callback)
        watermark = ctx.timer_service().current_watermark()
        for members, result in callback.merges:
            if window not in members:
                continue
            if operator._assigner.is_event_time() and self._cleanup_time(result) <= watermark:
                return None
            olds = sorted(m for m in members if m != window)
            count, contents = 0, None
            for member in olds:
                entry = operator._windows.get(window_key(member))
                operator._windows.remove(window_key(member))
                count, contents = count + entry[0], entry[1] if count == 0 \
                    else operator._merge(contents, entry[1])
            if count:
                operator._windows.put(window_key(result), (count, contents))
            merged_keys = [window_key(m) for m in olds]
            self.trigger.on_merge(result, _TriggerContext(self, result, ctx, merged_keys))
            for member in olds:
                if member == result:
                    continue
                self.trigger.clear(member, _TriggerContext(self, member, ctx))
                self.unregister(self._cleanup_domain(), self._cleanup_time(member), member)
                for slot in [s for s in self.states.keys() if s[1] == window_key(member)]:
                    self.states.remove(slot)
            return result
        return window
