"""The keyed window operator: event-time and count windows of a keyed stream as a keyed
function.

Each record goes to the windows its assigner gives; a window's contents (its records, its
running reduce or its accumulator) are kept in a map state by window. An event-time timer at a
time window's last millisecond fires it, as Flink's event-time trigger does; the window is
forgotten once the watermark passes its end plus the allowed lateness, and each record that
comes within the lateness fires it again. Session windows merge with the key's windows they
overlap, their contents merged. A count window fires once it holds its size of records. A
global window fires each time its count trigger counted its number of records, keeping its
contents unless the trigger purges; without a count trigger it never fires, so nothing is kept.
A processing-time window takes the records handled while the clock is in it and fires at a
processing-time timer at its last millisecond (the runtime fires such timers when the key is
next handled after them; a bounded input's end fires none, as Flink's drops them).
Records too late for all their windows are dropped, or go to the late data's side output.
A trigger the job gives runs as Flink's window operator runs it
(:mod:`~pyflink_compat.runtime.triggers`).
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.functions import (
    KeyedProcessFunction, ProcessWindowFunction, ReduceFunction, RuntimeContext,
    WindowFunction)
from pyflink_compat.datastream.state import MapStateDescriptor
from pyflink_compat.runtime.triggers import Merges as _Merge

__all__ = ["WindowOperator"]


class _WindowContext(ProcessWindowFunction.Context):
    def __init__(self, window: Any, ctx: Any):
        self._window, self._ctx = window, ctx

    def window(self) -> Any:
        return self._window

    def current_processing_time(self) -> int:
        return int(self._ctx.timer_service().current_processing_time())

    def current_watermark(self) -> int:
        return int(self._ctx.timer_service().current_watermark())

    def window_state(self) -> Any:
        from pyflink_compat.missing import not_supported

        raise not_supported("ProcessWindowFunction", "pyflink.datastream.functions")

    def global_state(self) -> Any:
        from pyflink_compat.missing import not_supported

        raise not_supported("ProcessWindowFunction", "pyflink.datastream.functions")


class _AssignerContext(object):
    """What an assigner reads: the number of the key's records before this one (count
    windows), the clock (processing-time windows)."""

    def __init__(self, count: Any, timers: Any = None):
        self._count = count
        self._timers: Any = timers

    def get_current_processing_time(self) -> int:
        return int(self._timers.current_processing_time())

    def next_count(self) -> int:
        current = self._count.value() or 0
        self._count.update(current + 1)
        return int(current)


#: A watermark no window is behind.
_NEVER = -9223372036854775808


class WindowOperator(KeyedProcessFunction):
    """Windows of one keyed stream.

    Each window's entry in the map state is ``(number of records, contents)``: the records
    (``process``), their running reduce (``reduce``) or the accumulator (``aggregate``).

    :param assigner: The window assigner.
    :param kind: ``process`` (all records kept), ``reduce`` or ``aggregate``.
    :param function: The process window, reduce or aggregate function.
    :param window_function: The window function given beside a reduce or aggregate function.
    :param allowed_lateness: How long after its end (ms) a time window still takes records,
        firing again for each.
    :param late_tag: The output tag of the records too late for all their windows.
    :param trigger: The trigger the job gave (``None``: the assigner's own). A count or never
        trigger of global windows runs here; any other runs through
        :class:`~pyflink_compat.runtime.triggers.TriggeredWindows`.
    """

    def __init__(self, assigner: Any, kind: str, function: Any, window_function: Optional[Any] = None,
                 allowed_lateness: int = 0, late_tag: Any = None, trigger: Any = None):
        from pyflink_compat.datastream.window import (
            CountTrigger, DynamicProcessingTimeSessionWindows, ProcessingTimeSessionWindows,
            PurgingTrigger, SlidingProcessingTimeWindows, TumblingProcessingTimeWindows)

        from pyflink_compat.datastream.window import GlobalWindows, NeverTrigger

        nested = trigger.nested_trigger if isinstance(trigger, PurgingTrigger) else trigger
        #: the job's trigger, when it (not the assigner's own) decides when windows fire
        self._trigger = trigger if trigger is not None and not (
            isinstance(assigner, GlobalWindows) and type(nested) in (CountTrigger, NeverTrigger)) else None
        self._triggered: Any = None
        #: how many records fire a global window (None: it never fires)
        self._fire_every = nested._window_size if isinstance(nested, CountTrigger) else None
        self._purging = isinstance(trigger, PurgingTrigger)
        self._processing_time = isinstance(assigner, (
            TumblingProcessingTimeWindows, SlidingProcessingTimeWindows, ProcessingTimeSessionWindows,
            DynamicProcessingTimeSessionWindows))
        self._assigner = assigner
        self._kind = kind
        self._function = function
        self._window_function = window_function
        self._allowed_lateness = allowed_lateness
        self._late_tag = late_tag
        self._windows: Any = None
        self._count: Any = None

    def open(self, runtime_context: RuntimeContext) -> None:
        from pyflink_compat.datastream.state import ValueStateDescriptor

        for function in (self._function, self._window_function):
            if function is not None and hasattr(function, "open"):
                function.open(runtime_context)
        self._windows = runtime_context.get_map_state(MapStateDescriptor("_windows", None, None))  # type: ignore[arg-type]
        self._count = runtime_context.get_state(ValueStateDescriptor("_count", None))  # type: ignore[arg-type]
        if self._trigger is not None:
            from pyflink_compat.runtime.triggers import TriggeredWindows

            self._triggered = TriggeredWindows(
                self, self._trigger,
                runtime_context.get_map_state(MapStateDescriptor("_window_timers", None, None)),  # type: ignore[arg-type]
                runtime_context.get_map_state(MapStateDescriptor("_trigger_state", None, None)))  # type: ignore[arg-type]

    def close(self) -> None:
        for function in (self._function, self._window_function):
            if function is not None and hasattr(function, "close"):
                function.close()

    def process_element(self, value: Any, ctx: KeyedProcessFunction.Context) -> Iterator[Any]:
        from pyflink_compat.datastream.window import GlobalWindows, MergingWindowAssigner

        timers = ctx.timer_service()
        timestamp = ctx.timestamp()
        if self._triggered is not None:
            windows = self._assigner.assign_windows(value, timestamp, _AssignerContext(self._count, timers))
            yield from self._triggered.element(value, timestamp, windows, ctx)
            return
        if isinstance(self._assigner, GlobalWindows):
            yield from self._global_window(value, ctx)
            return
        watermark = timers.current_watermark()
        windows = self._assigner.assign_windows(value, timestamp, _AssignerContext(self._count, timers))
        if self._processing_time:
            self._processing_windows(value, windows, timers)
            return
        if not self._assigner.is_event_time():
            yield from self._count_windows(value, windows, ctx)
            return
        if isinstance(self._assigner, MergingWindowAssigner):
            windows = [self._merged(window, watermark) for window in windows]
        skipped = True
        for window in windows:
            if window is None or window.max_timestamp() + self._allowed_lateness <= watermark:
                continue  # late: the window has fired and been forgotten
            skipped = False
            key = (window.start, window.end)
            count, contents = self._windows.get(key) or (0, None)
            entry = (count + 1, self._add(contents, count > 0, value))
            self._windows.put(key, entry)
            if window.max_timestamp() <= watermark:  # late but allowed: fires again at once
                yield from self._fire(window, entry, ctx)
            else:
                timers.register_event_time_timer(window.max_timestamp())
            if self._allowed_lateness > 0:
                timers.register_event_time_timer(window.max_timestamp() + self._allowed_lateness)
        if skipped and self._late_tag is not None and timestamp + self._allowed_lateness <= watermark:
            yield self._late_tag, value

    def _merged(self, window: Any, watermark: int) -> Any:
        """The window ``window`` becomes once merged with the key's windows (their contents
        merged into it), or ``None`` when that window is too late."""
        from pyflink_compat.datastream.window import TimeWindow

        callback = _Merge()
        known = [TimeWindow(start, end) for start, end in self._windows.keys()]
        self._assigner.merge_windows(known + [window], callback)
        for members, result in callback.merges:
            if window not in members:
                continue
            if result.max_timestamp() + self._allowed_lateness <= watermark:
                return None
            count, contents = 0, None
            for member in sorted(m for m in members if m != window):
                entry = self._windows.get((member.start, member.end))
                self._windows.remove((member.start, member.end))
                count, contents = count + entry[0], entry[1] if count == 0 \
                    else self._merge(contents, entry[1])
            if count:
                self._windows.put((result.start, result.end), (count, contents))
            return result
        return window

    def _processing_windows(self, value: Any, windows: List[Any], timers: Any) -> None:
        """Flink's processing-time trigger: a timer at each window's last millisecond (by the
        clock, no window is ever late)."""
        from pyflink_compat.datastream.window import MergingWindowAssigner

        if isinstance(self._assigner, MergingWindowAssigner):
            windows = [self._merged(window, _NEVER) for window in windows]
        for window in windows:
            key = (window.start, window.end)
            count, contents = self._windows.get(key) or (0, None)
            self._windows.put(key, (count + 1, self._add(contents, count > 0, value)))
            timers.register_processing_time_timer(window.max_timestamp())

    def _count_windows(self, value: Any, windows: List[Any], ctx: Any) -> Iterator[Any]:
        size = self._assigner._window_size
        for window in windows:
            count, contents = self._windows.get((window.id,)) or (0, None)
            entry = (count + 1, self._add(contents, count > 0, value))
            if entry[0] >= size:  # full: fires, and no record can reach it again
                self._windows.remove((window.id,))
                yield from self._fire(window, entry, ctx)
            else:
                self._windows.put((window.id,), entry)

    def _global_window(self, value: Any, ctx: Any) -> Iterator[Any]:
        from pyflink_compat.datastream.window import GlobalWindow

        if self._fire_every is None:
            return  # a trigger that never fires: no one can see what the window holds
        count, contents = self._windows.get(()) or (0, None)
        entry = (count + 1, self._add(contents, count > 0, value))
        counted = (self._count.value() or 0) + 1  # the count trigger's own count
        if counted < self._fire_every:
            self._count.update(counted)
            self._windows.put((), entry)
            return
        self._count.clear()
        if self._purging:
            self._windows.remove(())
        else:
            self._windows.put((), entry)
        yield from self._fire(GlobalWindow.get(), entry, ctx)

    def _add(self, contents: Any, present: bool, value: Any) -> Any:
        if self._kind == "process":
            return (contents or []) + [value]
        if self._kind == "reduce":
            return value if not present else _reduce(self._function, contents, value)
        accumulator = contents if present else self._function.create_accumulator()
        return self._function.add(value, accumulator)

    def _merge(self, a: Any, b: Any) -> Any:
        if self._kind == "process":
            return a + b
        if self._kind == "reduce":
            return _reduce(self._function, a, b)
        return self._function.merge(a, b)

    def on_timer(self, timestamp: int, ctx: KeyedProcessFunction.OnTimerContext) -> Iterator[Any]:
        from pyflink_compat.datastream.window import TimeWindow

        if self._triggered is not None:
            yield from self._triggered.timer(timestamp, ctx)
            return
        for start, end in sorted(k for k in self._windows.keys() if len(k) == 2):
            window = TimeWindow(start, end)
            if window.max_timestamp() == timestamp:
                yield from self._fire(window, self._windows.get((start, end)), ctx)
            if window.max_timestamp() + self._allowed_lateness == timestamp:
                self._windows.remove((start, end))

    def _fire(self, window: Any, entry: Tuple[int, Any], ctx: Any) -> Iterator[Any]:
        contents = entry[1]
        if self._kind == "process":
            elements = contents
        elif self._kind == "reduce":
            elements = [contents]
        else:
            elements = [self._function.get_result(contents)]
        yield from self._emit(ctx.get_current_key(), window, elements, ctx)

    def _emit(self, key: Any, window: Any, elements: List[Any], ctx: Any) -> Iterator[Any]:
        function = self._function if self._kind == "process" else self._window_function
        if function is None:
            yield from elements
            return
        if isinstance(function, ProcessWindowFunction):
            produced = function.process(key, _WindowContext(window, ctx), elements)
        elif isinstance(function, WindowFunction):
            produced = function.apply(key, window, elements)
        else:
            produced = function(key, window, elements)
        for value in produced or ():
            yield value


def _reduce(function: Any, a: Any, b: Any) -> Any:
    if isinstance(function, ReduceFunction):
        return function.reduce(a, b)
    return function(a, b)


