"""The keyed window operator: event-time windows of a keyed stream as a keyed function.

Each record goes to the windows its assigner gives; a window's contents (its records, its
running reduce or its accumulator) are kept in a map state by window, and an event-time timer
at the window's last millisecond fires it: the result goes out with that timestamp and the
window is forgotten. Records of windows the watermark has already passed are dropped, as Flink
drops late records without allowed lateness.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.functions import (
    KeyedProcessFunction, ProcessWindowFunction, ReduceFunction, RuntimeContext,
    WindowFunction)
from pyflink_compat.datastream.state import MapStateDescriptor

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


class WindowOperator(KeyedProcessFunction):
    """Windows of one keyed stream.

    :param assigner: The window assigner.
    :param kind: ``process`` (all records kept), ``reduce`` or ``aggregate``.
    :param function: The process window, reduce or aggregate function.
    :param window_function: The window function given beside a reduce or aggregate function.
    """

    def __init__(self, assigner: Any, kind: str, function: Any, window_function: Optional[Any] = None):
        self._assigner = assigner
        self._kind = kind
        self._function = function
        self._window_function = window_function
        self._windows: Any = None

    def open(self, runtime_context: RuntimeContext) -> None:
        for function in (self._function, self._window_function):
            if function is not None and hasattr(function, "open"):
                function.open(runtime_context)
        self._windows = runtime_context.get_map_state(MapStateDescriptor("_windows", None, None))  # type: ignore[arg-type]

    def close(self) -> None:
        for function in (self._function, self._window_function):
            if function is not None and hasattr(function, "close"):
                function.close()

    def process_element(self, value: Any, ctx: KeyedProcessFunction.Context) -> Iterator[Any]:
        watermark = ctx.timer_service().current_watermark()
        for window in self._assigner.assign_windows(value, ctx.timestamp(), None):
            if window.max_timestamp() <= watermark:
                continue  # late: the window has fired already
            key = (window.start, window.end)
            present = self._windows.contains(key)
            contents = self._windows.get(key) if present else None
            self._windows.put(key, self._add(contents, present, value))
            if not present:
                ctx.timer_service().register_event_time_timer(window.max_timestamp())
        return iter(())

    def _add(self, contents: Any, present: bool, value: Any) -> Any:
        if self._kind == "process":
            return (contents or []) + [value]
        if self._kind == "reduce":
            return value if not present else _reduce(self._function, contents, value)
        accumulator = contents if present else self._function.create_accumulator()
        return self._function.add(value, accumulator)

    def on_timer(self, timestamp: int, ctx: KeyedProcessFunction.OnTimerContext) -> Iterator[Any]:
        from pyflink_compat.datastream.window import TimeWindow

        due: List[Tuple[int, int]] = sorted(k for k in self._windows.keys() if k[1] - 1 == timestamp)
        for start, end in due:
            contents = self._windows.get((start, end))
            self._windows.remove((start, end))
            window = TimeWindow(start, end)
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


