"""Two connected streams as one: each record carries the number of its input.

``DataStream.connect`` marks each input's records as ``(input, value)`` (an ``input``
operator of the plan, which also orders a micro-batch's records of the first input before
the second's), keys them with that input's key selector (:class:`InputKey`) when the connected streams are
keyed, unions them, and runs the co-function through :class:`CoFunction`, which hands each
record to the function's method for its input. A keyed co-function so shares its state and
timers across both inputs for a key, as in Flink.
"""

from __future__ import annotations

from typing import Any, Iterator

from pyflink_compat.datastream.functions import (
    CoFlatMapFunction, CoMapFunction, Function, KeyedProcessFunction, KeySelector, RuntimeContext)

__all__ = ["InputKey", "CoFunction"]


class InputKey(object):
    """The key of a marked record: the key selector of its input applied to its value."""

    def __init__(self, selector: Any):
        self.selector = selector

    def __call__(self, value: Any) -> Any:
        if isinstance(self.selector, KeySelector):
            return self.selector.get_key(value[1])
        return self.selector(value[1])


class CoFunction(KeyedProcessFunction):
    """A co-function (``CoMapFunction``, ``CoFlatMapFunction``, ``CoProcessFunction``,
    ``KeyedCoProcessFunction``) as a process function of marked records."""

    def __init__(self, function: Any):
        self.function = function

    def open(self, runtime_context: RuntimeContext) -> None:
        if isinstance(self.function, Function):
            self.function.open(runtime_context)

    def close(self) -> None:
        if isinstance(self.function, Function):
            self.function.close()

    def process_element(self, value: Any, ctx: Any) -> Iterator[Any]:
        index, record = value
        function = self.function
        if isinstance(function, CoMapFunction):
            yield function.map1(record) if index == 1 else function.map2(record)
            return
        if isinstance(function, CoFlatMapFunction):
            produced = function.flat_map1(record) if index == 1 else function.flat_map2(record)
        elif index == 1:
            produced = function.process_element1(record, ctx)
        else:
            produced = function.process_element2(record, ctx)
        if produced is not None:
            yield from produced

    def on_timer(self, timestamp: int, ctx: Any) -> Any:
        on_timer = getattr(self.function, "on_timer", None)
        return on_timer(timestamp, ctx) if on_timer is not None else None
