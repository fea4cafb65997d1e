"""The keyed functions behind ``KeyedStream.reduce`` and ``sum``/``min``/``max``/``min_by``/
``max_by``: a running reduce over a value state, emitting one output per input record as
Flink's does."""

from __future__ import annotations

from typing import Any, Iterator, Union

from pyflink_compat.datastream.functions import KeyedProcessFunction, ReduceFunction, RuntimeContext
from pyflink_compat.datastream.state import ValueStateDescriptor

__all__ = ["RunningReduce", "accumulating_reduce"]


class RunningReduce(KeyedProcessFunction):
    """Keeps the reduce of each key's records so far and emits it for every record; in batch
    mode (``final_only``) emits each key's reduce once, when the input has ended, as Flink's
    batch runtime does."""

    def __init__(self, reduce_function: ReduceFunction, final_only: bool = False):
        self._reduce_function = reduce_function
        self._state: Any = None
        self.final_only = final_only

    def open(self, runtime_context: RuntimeContext) -> None:
        self._reduce_function.open(runtime_context)
        # The running value is held pickled, whatever its type.
        descriptor = ValueStateDescriptor("_reduce_value", None)  # type: ignore[arg-type]
        self._state = runtime_context.get_state(descriptor)

    def close(self) -> None:
        self._reduce_function.close()

    def process_element(self, value: Any, ctx: KeyedProcessFunction.Context) -> Iterator[Any]:
        current = self._state.value()
        reduced = value if current is None else self._reduce_function.reduce(current, value)
        self._state.update(reduced)
        if not self.final_only:
            yield reduced
        elif current is None:
            from pyflink_compat.runtime.records import END_TIMESTAMP

            # fires with the watermark of the end of the input
            ctx.timer_service().register_event_time_timer(END_TIMESTAMP - 1)

    def on_timer(self, timestamp: int, ctx: KeyedProcessFunction.OnTimerContext) -> Iterator[Any]:
        yield self._state.value()


class _Accumulate(ReduceFunction):
    """Flink's field accumulations (sum, min, max, min_by, max_by) as a reduce function."""

    def __init__(self, position: Union[int, str], kind: str):
        self._position = position
        self._kind = kind

    def reduce(self, value1: Any, value2: Any) -> Any:
        from pyflink_compat.common.types import Row

        pos: Any = self._position
        kind = self._kind
        structured = isinstance(value2, (tuple, list, Row))
        if kind in ("min_by", "max_by"):
            a = value1[pos] if structured else value1
            b = value2[pos] if structured else value2
            if kind == "min_by":
                return value2 if b < a else value1
            return value2 if b > a else value1
        if not structured:
            if pos != 0:
                raise TypeError("The %s field selected on a basic type. A field expression on a basic "
                                "type can only select the 0th field (which means selecting the entire "
                                "basic type)." % pos)
            return _combine(kind, value1, value2)
        if isinstance(value2, tuple):
            values = list(value1)
            values[pos] = _combine(kind, value1[pos], value2[pos])
            return tuple(values)
        value1[pos] = _combine(kind, value1[pos], value2[pos])
        return value1


def _combine(kind: str, a: Any, b: Any) -> Any:
    if kind == "min":
        return b if b < a else a
    if kind == "max":
        return b if b > a else a
    return a + b


def accumulating_reduce(position: Union[int, str], kind: str) -> ReduceFunction:
    """The reduce function of ``sum``/``min``/``max``/``min_by``/``max_by`` over ``position``."""
    if not isinstance(position, (int, str)):
        raise TypeError("The field position must be of int or str type to locate the value to "
                        "calculate for min, max, min_by, max_by and sum."
                        "The given type is: %s" % type(position))
    return _Accumulate(position, kind)
