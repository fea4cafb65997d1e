"""Runs a Flink keyed function (``KeyedProcessFunction``, and the running reduces) as a Spark
``StatefulProcessor`` in ``transformWithState``.

The processor holds the job's function; ``init`` calls the function's ``open`` with a runtime
context whose descriptors become Spark state variables (one per descriptor name, values
pickled); ``handleInputRows`` feeds one key's records in arrival order to
``process_element``; ``handleExpiredTimer`` calls ``on_timer``. Event-time timers are Spark's
event-time timers (the query runs in event-time mode behind ``withWatermark``); a bounded input
ends with a record at the greatest timestamp, whose watermark fires every pending timer, as
Flink's final watermark does. Processing-time timers are kept in a state variable and fire
when their key is next handled after their time (a registered divergence). State time-to-live
is checked on every access against the processing time, with Flink's update and visibility
rules.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

from pyflink_compat.datastream.functions import KeyedProcessFunction, RuntimeContext
from pyflink_compat.datastream.state import (
    AggregatingState, AggregatingStateDescriptor, ListState, ListStateDescriptor, MapState,
    MapStateDescriptor, ReducingState, ReducingStateDescriptor, StateDescriptor, StateTtlConfig,
    ValueState, ValueStateDescriptor)
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.runtime.records import END_SEQ, conform, is_tagged, key_bytes, loads, side_key

__all__ = ["KeyedProcessor", "END_KEY", "END_TIMESTAMP", "LONG_MAX"]

#: The key of the records that mark the end of a bounded input.
END_KEY = b""
#: The timestamp of those records (Spark's greatest timestamp, 9999-12-31).
END_TIMESTAMP = 253402300799000
LONG_MAX = 9223372036854775807

_VALUE_SCHEMA = "v binary"
_KEY_SCHEMA = "k binary"


def _now_ms() -> int:
    return int(time.time() * 1000)


class _Ttl(object):
    """Flink's time-to-live rules for one state variable (``None``: values never expire).

    Timers that the end of a bounded input fires run, in Flink, right after its last record;
    here they run in a later micro-batch, so no time counts against the state while they run.
    """

    def __init__(self, config: Optional[StateTtlConfig], processor: Any = None):
        self._processor = processor
        enabled = config is not None and config.is_enabled()
        self.ttl_ms = int(config.get_ttl().to_milliseconds()) if enabled and config else None
        self.on_read = enabled and config is not None and \
            config.get_update_type() == StateTtlConfig.UpdateType.OnReadAndWrite
        self.return_expired = enabled and config is not None and \
            config.get_state_visibility() == StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp

    def wrap(self, value: Any) -> bytes:
        from pyflink_compat.runtime.records import dumps

        return dumps((value, _now_ms() if self.ttl_ms is not None else None))

    def expired(self, stamp: Optional[int]) -> bool:
        if self._processor is not None and self._processor.watermark == LONG_MAX:
            return False
        return self.ttl_ms is not None and stamp is not None and stamp + self.ttl_ms <= _now_ms()


class _Value(ValueState):
    def __init__(self, spark_state: Any, ttl: _Ttl, type_info: Any = None):
        self._state, self._ttl, self._type = spark_state, ttl, type_info

    def value(self) -> Any:
        stored = self._state.get()
        if stored is None:
            return None
        value, stamp = loads(stored[0])
        if self._ttl.expired(stamp):
            if not self._ttl.return_expired:
                self._state.clear()
                return None
        elif self._ttl.on_read:
            self._state.update((self._ttl.wrap(value),))
        return value

    def update(self, value: Any) -> None:
        if value is None:
            self._state.clear()
        else:
            self._state.update((self._ttl.wrap(value),))

    def clear(self) -> None:
        self._state.clear()


class _List(ListState):
    def __init__(self, spark_state: Any, ttl: _Ttl, type_info: Any = None):
        self._state, self._ttl, self._type = spark_state, ttl, type_info

    def _entries(self) -> List[Tuple[Any, Optional[int]]]:
        if not self._state.exists():
            return []
        return [loads(row[0]) for row in self._state.get()]

    def get(self) -> List[Any]:
        entries = self._entries()
        live = [e for e in entries if self._ttl.return_expired or not self._ttl.expired(e[1])]
        if len(live) != len(entries) or (self._ttl.on_read and live):
            self._put([v for v, _ in live])
        return [v for v, _ in live]

    def _put(self, values: List[Any]) -> None:
        if values:
            self._state.put([(self._ttl.wrap(v),) for v in values])
        else:
            self._state.clear()

    def add(self, value: Any) -> None:
        if value is None:
            raise ValueError("You cannot add null to a ListState.")
        self._state.appendValue((self._ttl.wrap(value),))

    def update(self, values: List[Any]) -> None:
        self._put(list(values or []))

    def add_all(self, values: List[Any]) -> None:
        for value in values or []:
            self.add(value)

    def clear(self) -> None:
        self._state.clear()


class _Map(MapState):
    def __init__(self, spark_state: Any, ttl: _Ttl, type_info: Any = None):
        self._state, self._ttl = spark_state, ttl
        self._key_type, self._type = type_info if isinstance(type_info, tuple) else (None, None)

    def _read(self, raw: Any, user_key_bytes: bytes) -> Tuple[bool, Any]:
        value, stamp = loads(raw[0])
        if self._ttl.expired(stamp):
            if not self._ttl.return_expired:
                self._state.removeKey((user_key_bytes,))
                return False, None
        elif self._ttl.on_read:
            self._state.updateValue((user_key_bytes,), (self._ttl.wrap(value),))
        return True, value

    def get(self, key: Any) -> Any:
        kb = key_bytes(key)
        raw = self._state.getValue((kb,))
        if raw is None:
            return None
        return self._read(raw, kb)[1]

    def put(self, key: Any, value: Any) -> None:
        self._state.updateValue((key_bytes(key),),
                                (self._ttl.wrap(value),))

    def put_all(self, dict_value: Any) -> None:
        # PyFlink's keyed map state iterates its argument as (key, value) pairs
        for key, value in dict_value:
            self.put(key, value)

    def remove(self, key: Any) -> None:
        self._state.removeKey((key_bytes(key),))

    def contains(self, key: Any) -> bool:
        kb = key_bytes(key)
        raw = self._state.getValue((kb,))
        return raw is not None and self._read(raw, kb)[0]

    def items(self) -> List[Tuple[Any, Any]]:
        if not self._state.exists():
            return []
        found = []
        for user_key, raw in list(self._state.iterator()):
            live, value = self._read(raw, user_key[0])
            if live:
                found.append((loads(user_key[0]), value))
        return found

    def keys(self) -> List[Any]:
        return [k for k, _ in self.items()]

    def values(self) -> List[Any]:
        return [v for _, v in self.items()]

    def is_empty(self) -> bool:
        return not self.items()

    def get_internal_state(self) -> '_Map':
        """The map of the current key itself (PyFlink's internal map state has its methods)."""
        return self

    def clear(self) -> None:
        self._state.clear()


class _Reducing(ReducingState):
    def __init__(self, value: _Value, reduce: Callable[[Any, Any], Any]):
        self._value, self._reduce = value, reduce

    def get(self) -> Any:
        return self._value.value()

    def add(self, value: Any) -> None:
        current = self._value.value()
        self._value.update(value if current is None else self._reduce(current, value))

    def clear(self) -> None:
        self._value.clear()


class _Aggregating(AggregatingState):
    def __init__(self, value: _Value, function: Any):
        self._value, self._function = value, function

    def get(self) -> Any:
        accumulator = self._value.value()
        return None if accumulator is None else self._function.get_result(accumulator)

    def add(self, value: Any) -> None:
        accumulator = self._value.value()
        if accumulator is None:
            accumulator = self._function.create_accumulator()
        self._value.update(self._function.add(value, accumulator))

    def clear(self) -> None:
        self._value.clear()


class _KeylessInOpen(object):
    """A state variable as the function's ``open`` and the rest of its life see it.

    Flink runs ``open`` with no current key: what it writes to keyed state there reaches no
    key's records (live PyFlink 1.20.5 reads it back within ``open`` only). Until ``open``
    returns, the variable's values live in a scratch of their own, dropped afterwards; Spark's
    state variable takes no value before a key is handled.
    """

    def __init__(self, kind: str, spark_state: Any, processor: 'KeyedProcessor'):
        self._kind, self._spark_state, self._processor = kind, spark_state, processor
        self._values: Dict[Any, Any] = {}
        self._list: List[Any] = []

    def __getattr__(self, name: str) -> Any:
        if self._processor.opening:
            return getattr(self, "_scratch_" + name)
        return getattr(self._spark_state, name)

    def _scratch_exists(self) -> bool:
        return bool(self._list if self._kind == "list" else self._values)

    def _scratch_get(self) -> Any:
        return list(self._list) if self._kind == "list" else self._values.get(None)

    def _scratch_update(self, row: Any) -> None:
        self._values[None] = row

    def _scratch_clear(self) -> None:
        self._values.clear()
        self._list.clear()

    def _scratch_put(self, rows: List[Any]) -> None:
        self._list[:] = rows

    def _scratch_appendValue(self, row: Any) -> None:
        self._list.append(row)

    def _scratch_getValue(self, key: Any) -> Any:
        return self._values.get(key)

    def _scratch_updateValue(self, key: Any, row: Any) -> None:
        self._values[key] = row

    def _scratch_removeKey(self, key: Any) -> None:
        self._values.pop(key, None)

    def _scratch_iterator(self) -> Iterator[Any]:
        return iter(list(self._values.items()))


class _Context(RuntimeContext):
    """The runtime context of one parallel instance: state by descriptor, task facts."""

    def __init__(self, processor: 'KeyedProcessor'):
        self._processor = processor

    def _spark(self, descriptor: StateDescriptor, kind: str) -> Tuple[Any, _Ttl, Any]:
        name = "s_" + descriptor.get_name()
        handle = self._processor.handle
        ttl = _Ttl(descriptor._ttl_config, self._processor)
        known = self._processor.states.get(name)
        if known is not None:
            if known[0] != kind:
                raise ValueError("State '%s' is already registered as %s state, not as %s state."
                                 % (descriptor.get_name(), known[0], kind))
            return known[1], ttl, descriptor.type_info
        spark_state: Any
        if kind == "map":
            spark_state = handle.getMapState(name, _KEY_SCHEMA, _VALUE_SCHEMA)
        elif kind == "list":
            spark_state = handle.getListState(name, _VALUE_SCHEMA)
        else:
            spark_state = handle.getValueState(name, _VALUE_SCHEMA)
        spark_state = _KeylessInOpen(kind, spark_state, self._processor)
        self._processor.states[name] = (kind, spark_state)
        return spark_state, ttl, descriptor.type_info

    def get_state(self, state_descriptor: ValueStateDescriptor) -> ValueState:
        return _Value(*self._spark(state_descriptor, "value"))

    def get_list_state(self, state_descriptor: ListStateDescriptor) -> ListState:
        return _List(*self._spark(state_descriptor, "list"))

    def get_map_state(self, state_descriptor: MapStateDescriptor) -> MapState:
        return _Map(*self._spark(state_descriptor, "map"))

    def get_reducing_state(self, state_descriptor: ReducingStateDescriptor) -> ReducingState:
        function = state_descriptor.get_reduce_function()
        return _Reducing(_Value(*self._spark(state_descriptor, "value")), function.reduce)

    def get_aggregating_state(self, state_descriptor: AggregatingStateDescriptor) -> AggregatingState:
        return _Aggregating(_Value(*self._spark(state_descriptor, "value")),
                            state_descriptor.get_agg_function())

    def get_task_name(self) -> str:
        return self._processor.task_name

    def get_number_of_parallel_subtasks(self) -> int:
        return self._processor.parallelism

    def get_max_number_of_parallel_subtasks(self) -> int:
        return 128

    def get_index_of_this_subtask(self) -> int:
        from pyspark import TaskContext

        context = TaskContext.get()
        return int(context.partitionId()) if context is not None else 0

    def get_attempt_number(self) -> int:
        from pyspark import TaskContext

        context = TaskContext.get()
        return int(context.attemptNumber()) if context is not None else 0

    def get_task_name_with_subtasks(self) -> str:
        return "%s (%d/%d)" % (self.get_task_name(), self.get_index_of_this_subtask() + 1,
                               self.get_number_of_parallel_subtasks())

    def get_job_parameter(self, key: str, default_value: str) -> str:
        return default_value

    def get_metrics_group(self) -> Any:
        from pyflink_compat.missing import not_supported

        raise not_supported("RuntimeContext.get_metrics_group")


class _Timers(TimerService):
    def __init__(self, processor: 'KeyedProcessor'):
        self._processor = processor

    def current_processing_time(self) -> int:
        return _now_ms()

    def current_watermark(self) -> int:
        return self._processor.watermark

    def register_processing_time_timer(self, timestamp: int) -> None:
        self._processor.processing_timers().updateValue((key_bytes(int(timestamp)),), (b"",))

    def register_event_time_timer(self, timestamp: int) -> None:
        self._processor.require_event_time("register_event_time_timer")
        self._processor.handle.registerTimer(int(timestamp))

    def delete_processing_time_timer(self, timestamp: int) -> None:
        self._processor.processing_timers().removeKey((key_bytes(int(timestamp)),))

    def delete_event_time_timer(self, timestamp: int) -> None:
        self._processor.require_event_time("delete_event_time_timer")
        self._processor.handle.deleteTimer(int(timestamp))


class _ElementContext(KeyedProcessFunction.OnTimerContext):
    def __init__(self, processor: 'KeyedProcessor'):
        self._processor = processor
        self.key: Any = None
        self.ts: Optional[int] = None
        self.domain: Optional[TimeDomain] = None

    def get_current_key(self) -> Any:
        return self.key

    def timer_service(self) -> TimerService:
        return self._processor.timers

    def timestamp(self) -> Any:
        return self.ts

    def time_domain(self) -> TimeDomain:
        return self.domain  # type: ignore[return-value]


class KeyedProcessor(StatefulProcessor):
    """The Spark processor of one keyed function.

    :param function_bytes: The job's keyed function, pickled (classes of the job's main module
        by value).
    :param event_time: Whether the query runs in Spark's event-time mode (event-time timers).
    :param watermark_delay_ms: How far Spark's watermark stays behind the greatest timestamp
        (the strategy's out-of-orderness and Flink's 1 ms).
    :param task_name: The operator's name, for the runtime context.
    :param parallelism: The number of key partitions.
    """

    def __init__(self, function_bytes: bytes, event_time: bool, watermark_delay_ms: int,
                 task_name: str, parallelism: int):
        self.function_bytes = function_bytes
        self.event_time = event_time
        self.watermark_delay_ms = watermark_delay_ms
        self.task_name = task_name
        self.parallelism = parallelism

    # -- Spark's side -------------------------------------------------------------------
    def init(self, handle: StatefulProcessorHandle) -> None:
        self.handle = handle
        self.states: Dict[str, Tuple[str, Any]] = {}
        self.watermark = -9223372036854775808
        # Spark declares state variables in init only.
        self._processing_timers = handle.getMapState("t_processing", _KEY_SCHEMA, _VALUE_SCHEMA)
        self.timers = _Timers(self)
        self.context = _ElementContext(self)
        self.function = loads(self.function_bytes)
        self.opening = True
        try:
            self.function.open(_Context(self))
        finally:
            self.opening = False

    def processing_timers(self) -> Any:
        return self._processing_timers

    def require_event_time(self, method: str) -> None:
        if not self.event_time:
            raise RuntimeError("TimerService.%s needs the keyed function to run in event time; "
                               "this operator runs without event time." % method)

    def _see_watermark(self, spark_watermark: int) -> None:
        if spark_watermark >= END_TIMESTAMP - self.watermark_delay_ms:
            self.watermark = LONG_MAX
        elif spark_watermark > 0:
            self.watermark = spark_watermark

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        key_data = key[0]
        records = sorted(rows, key=lambda r: list(r["seq"]))
        if key_data == END_KEY:
            return
        self._see_watermark(timerValues.getCurrentWatermarkInMs())
        context = self.context
        context.key = loads(key_data)
        context.domain = None
        yield from self._fire_processing_timers(context)
        for row in records:
            context.ts = row["ts"]
            produced = self.function.process_element(loads(row["v"]), context)
            yield from self._emit(produced, row["ts"], list(row["seq"]))

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        key_data = key[0]
        if key_data == END_KEY:
            return
        self._see_watermark(timerValues.getCurrentWatermarkInMs())
        timestamp = int(expiredTimerInfo.getExpiryTimeInMs())
        context = self.context
        context.key = loads(key_data)
        yield from self._fire_processing_timers(context)
        context.ts = timestamp
        context.domain = TimeDomain.EVENT_TIME
        produced = self.function.on_timer(timestamp, context)
        yield from self._emit(produced, timestamp, [END_SEQ, timestamp])

    def close(self) -> None:
        function = getattr(self, "function", None)
        if function is not None:
            function.close()

    # -- helpers --------------------------------------------------------------------------
    def _fire_processing_timers(self, context: _ElementContext) -> Iterator[Any]:
        timers = self.processing_timers()
        if not timers.exists():
            return
        now = _now_ms()
        due = sorted(loads(k[0]) for k in list(timers.keys()))
        for timestamp in due:
            if timestamp > now:
                break
            timers.removeKey((key_bytes(timestamp),))
            context.ts = timestamp
            context.domain = TimeDomain.PROCESSING_TIME
            produced = self.function.on_timer(timestamp, context)
            yield from self._emit(produced, None, [END_SEQ, timestamp])
        context.domain = None

    def _emit(self, produced: Any, ts: Optional[int], seq: List[int]) -> Iterator[Any]:
        from pyflink_compat.runtime.records import dumps

        if produced is None:
            return
        for index, value in enumerate(produced):
            if is_tagged(value):
                yield SparkRow(v=dumps(conform(value[1], value[0].type_info)), ts=ts,
                               seq=seq + [index], k=side_key(value[0].tag_id))
            else:
                yield SparkRow(v=dumps(value), ts=ts, seq=seq + [index], k=None)
