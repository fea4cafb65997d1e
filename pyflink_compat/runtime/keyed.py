"""Runs a Flink keyed function (``KeyedProcessFunction``, and the running reduces) as a Spark
``StatefulProcessor`` in ``transformWithState``.

The processor holds the job's function; ``init`` calls the function's ``open`` with a runtime
context whose descriptors become Spark state variables (one per descriptor name, values
pickled); ``handleInputRows`` feeds one key's records in arrival order to
``process_element``; ``handleExpiredTimer`` calls ``on_timer``. A key's event-time timers are
kept, in order, in one state variable, and only the earliest is a Spark event-time timer (the
query runs in event-time mode behind ``withWatermark``): when it fires, every timer of the key
at or before the watermark fires in timestamp order (those that ``on_timer`` registers there
fire after them, as in PyFlink), and the next one becomes the Spark timer.
So a key costs one Spark timer at a time, not one per timer (each is a round trip to Spark's
state server), and timers of one timestamp are one timer, as in Flink. A bounded input ends
with a record at the greatest timestamp, whose watermark fires every pending timer, as
Flink's final watermark does. Processing-time timers are kept in a state variable and fire
when their key is next handled after their time (a registered divergence). State time-to-live
is checked on every access against the processing time, with Flink's update and visibility
rules. Each state access is a round trip to Spark's state server, so a value state without a
time-to-live is read once per key and task and written once per handler call.
"""

from __future__ import annotations

import bisect
import operator
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
from pyflink_compat.runtime import worker_output
from pyflink_compat.runtime.records import (
    END_KEY, END_SEQ, END_TIMESTAMP, LONG_MAX, conform, dumps, is_plain, is_tagged, key_bytes, loads,
    side_key)

__all__ = ["KeyedProcessor"]


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
        return dumps((value, _now_ms() if self.ttl_ms is not None else None))

    def expired(self, stamp: Optional[int]) -> bool:
        if self._processor is not None and self._processor.watermark == LONG_MAX:
            return False
        return self.ttl_ms is not None and stamp is not None and stamp + self.ttl_ms <= _now_ms()


#: The keys whose state a processor keeps between handler calls, at most (then it forgets them).
_CACHED_KEYS = 4096


class _KeyCache(object):
    """The stored bytes of one value state per key, as this task last read or wrote them.

    A task's processor is the only writer of its keys' state, so bytes read or written in one
    handler call are still the stored ones in the next call for the key. A write reaches
    Spark's state once, when the handler call ends (:meth:`flush`), not once per record; each
    state access is a round trip to the JVM's state server.
    """

    def __init__(self, spark_state: Any, processor: 'KeyedProcessor'):
        self._state = spark_state
        self._processor = processor
        self._known: Dict[bytes, Optional[bytes]] = {}
        self._dirty = False

    def active(self) -> bool:
        """Whether a handler call for a key is running (outside one, state goes to Spark)."""
        return self._processor.key_data is not None

    def get(self) -> Optional[bytes]:
        key = self._processor.key_data
        try:
            return self._known[key]  # type: ignore[index]
        except KeyError:
            stored = self._state.get()
            data = None if stored is None else bytes(stored[0])
            self._remember(key, data)  # type: ignore[arg-type]
            return data

    def put(self, data: Optional[bytes]) -> None:
        key = self._processor.key_data
        if key not in self._known:
            self._remember(key, data)  # type: ignore[arg-type]
        self._known[key] = data  # type: ignore[index]
        if not self._dirty:
            self._dirty = True
            self._processor.dirty.append(self)

    def _remember(self, key: bytes, data: Optional[bytes]) -> None:
        # Only the key at hand can hold an unwritten value, and it is not among the known
        # keys here, so forgetting them all loses nothing.
        if len(self._known) >= _CACHED_KEYS:
            self._known.clear()
        self._known[key] = data

    def flush(self) -> None:
        """Write the value of the key whose handler call ends to Spark's state."""
        self._dirty = False
        data = self._known.get(self._processor.key_data)  # type: ignore[arg-type]
        if data is None:
            self._state.clear()
        else:
            self._state.update((data,))


class _Value(ValueState):
    def __init__(self, spark_state: Any, ttl: _Ttl, type_info: Any = None, cache: Optional['_KeyCache'] = None):
        self._state, self._ttl, self._type = spark_state, ttl, type_info
        # Without a time-to-live a value's stored bytes depend on the value alone, so they
        # can be kept for the key at hand and written once per handler call.
        self._cache = cache if ttl.ttl_ms is None else None

    def value(self) -> Any:
        cache = self._cache
        if cache is not None and cache.active():
            data = cache.get()
            return None if data is None else loads(data)[0]
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
        cache = self._cache
        if cache is not None and cache.active():
            cache.put(None if value is None else self._ttl.wrap(value))
        elif value is None:
            self._state.clear()
        else:
            self._state.update((self._ttl.wrap(value),))

    def clear(self) -> None:
        cache = self._cache
        if cache is not None and cache.active():
            cache.put(None)
        else:
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
        # As Flink's runtime map state: the argument is iterated as (key, value) pairs (a
        # dict's ``items()``); a dict itself would give its keys.
        for key, value in dict_value:
            self.put(key, value)

    def get_internal_state(self) -> "_Map":
        """The map of the current key (Flink's runtime state hands out its per-key map, which
        has the same methods)."""
        return self

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


class _Keyless(object):
    """The state of no key, which a function's ``open`` reads and writes: in Flink, ``open`` runs
    before any key is current, so what it writes is never seen by a record's key. It takes the
    calls of Spark's value, list and map state variables that the state classes make."""

    def __init__(self, kind: str):
        self._kind = kind
        self._value: Optional[Tuple[Any, ...]] = None
        self._list: List[Tuple[Any, ...]] = []
        self._map: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}

    def exists(self) -> bool:
        return {"value": self._value is not None, "list": bool(self._list),
                "map": bool(self._map)}[self._kind]

    def get(self) -> Any:
        return self._value if self._kind == "value" else iter(list(self._list))

    def update(self, value: Tuple[Any, ...]) -> None:
        self._value = value

    def put(self, values: List[Tuple[Any, ...]]) -> None:
        self._list = list(values)

    def appendValue(self, value: Tuple[Any, ...]) -> None:  # noqa: N802 - Spark's name
        self._list.append(value)

    def getValue(self, key: Tuple[Any, ...]) -> Optional[Tuple[Any, ...]]:  # noqa: N802
        return self._map.get(key)

    def updateValue(self, key: Tuple[Any, ...], value: Tuple[Any, ...]) -> None:  # noqa: N802
        self._map[key] = value

    def removeKey(self, key: Tuple[Any, ...]) -> None:  # noqa: N802
        self._map.pop(key, None)

    def iterator(self) -> Iterator[Tuple[Tuple[Any, ...], Tuple[Any, ...]]]:
        return iter(list(self._map.items()))

    def clear(self) -> None:
        self._value, self._list, self._map = None, [], {}


class _Phased(object):
    """A state variable that is the keyless state while the function's ``open`` runs and the
    Spark state variable of the current key afterwards."""

    def __init__(self, spark_state: Any, keyless: _Keyless, processor: 'KeyedProcessor'):
        self._spark_state, self._keyless, self._processor = spark_state, keyless, processor

    def __getattr__(self, name: str) -> Any:
        target = self._spark_state if self._processor.opened else self._keyless
        return getattr(target, name)


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
        spark_state = _Phased(spark_state, _Keyless(kind), self._processor)
        self._processor.states[name] = (kind, spark_state)
        return spark_state, ttl, descriptor.type_info

    def _value(self, descriptor: StateDescriptor) -> _Value:
        spark_state, ttl, type_info = self._spark(descriptor, "value")
        return _Value(spark_state, ttl, type_info, self._processor.value_cache(descriptor.get_name(), spark_state))

    def get_state(self, state_descriptor: ValueStateDescriptor) -> ValueState:
        return self._value(state_descriptor)

    def get_list_state(self, state_descriptor: ListStateDescriptor) -> ListState:
        return _List(*self._spark(state_descriptor, "list"))

    def get_map_state(self, state_descriptor: MapStateDescriptor) -> MapState:
        return _Map(*self._spark(state_descriptor, "map"))

    def get_reducing_state(self, state_descriptor: ReducingStateDescriptor) -> ReducingState:
        function = state_descriptor.get_reduce_function()
        return _Reducing(self._value(state_descriptor), function.reduce)

    def get_aggregating_state(self, state_descriptor: AggregatingStateDescriptor) -> AggregatingState:
        return _Aggregating(self._value(state_descriptor), state_descriptor.get_agg_function())

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
        timestamp = int(timestamp)
        self._processor.processing_timers().updateValue((key_bytes(timestamp),), (b"",))
        known = self._processor.known_processing_timers()
        if known is not None and timestamp not in known:
            bisect.insort(known, timestamp)

    def register_event_time_timer(self, timestamp: int) -> None:
        processor = self._processor
        processor.require_event_time("register_event_time_timer")
        timestamp = int(timestamp)
        pending = processor.event_timers()[0]
        index = bisect.bisect_left(pending, timestamp)
        if index == len(pending) or pending[index] != timestamp:
            pending.insert(index, timestamp)
            processor.event_timers_changed = True

    def delete_processing_time_timer(self, timestamp: int) -> None:
        timestamp = int(timestamp)
        self._processor.processing_timers().removeKey((key_bytes(timestamp),))
        known = self._processor.known_processing_timers()
        if known is not None and timestamp in known:
            known.remove(timestamp)

    def delete_event_time_timer(self, timestamp: int) -> None:
        processor = self._processor
        processor.require_event_time("delete_event_time_timer")
        pending = processor.event_timers()[0]
        if int(timestamp) in pending:
            pending.remove(int(timestamp))
            processor.event_timers_changed = True


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
    :param output_directory: Where what the function prints goes
        (:mod:`~pyflink_compat.runtime.worker_output`).
    :param then_bytes: The per-record operators that take the function's records, pickled
        (``(kind, function, output type)`` as :func:`~pyflink_compat.runtime.record_operators.apply_values`
        runs them): run here on each output, not in a worker of their own.
    """

    def __init__(self, function_bytes: bytes, event_time: bool, watermark_delay_ms: int,
                 task_name: str, parallelism: int, output_directory: Optional[str] = None,
                 then_bytes: Optional[bytes] = None):
        self.output_directory = output_directory
        self.then_bytes = then_bytes
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
        # The key of the handler call running (None between calls), what its state still
        # has to write, and whether its event-time timers changed.
        self.key_data: Optional[bytes] = None
        self.dirty: List[_KeyCache] = []
        self.event_timers_changed = False
        # Per key: its pending event-time timers in order, and the one that is Spark's timer.
        self._event_known: Dict[bytes, List[Any]] = {}
        self._caches: Dict[str, _KeyCache] = {}
        self._known_processing: Dict[bytes, List[int]] = {}
        self._key: Tuple[Optional[bytes], Any] = (None, None)
        # Spark declares state variables in init only.
        self._processing_timers = handle.getMapState("t_processing", _KEY_SCHEMA, _VALUE_SCHEMA)
        self._event_timers = handle.getValueState("t_event", _VALUE_SCHEMA)
        self.timers = _Timers(self)
        self.context = _ElementContext(self)
        self.function = loads(self.function_bytes)
        self.opened = False
        self.then: Optional[List[Any]] = None
        self._then_opened: List[Any] = []
        with worker_output.forwarded(self.output_directory):
            self.function.open(_Context(self))
            then_bytes = getattr(self, "then_bytes", None)
            if then_bytes is not None:
                from pyflink_compat.runtime.record_operators import open_all

                self.then = loads(then_bytes)
                self._then_opened = open_all([op[1] for op in self.then])
        self.opened = True

    def processing_timers(self) -> Any:
        return self._processing_timers

    def event_timers(self, fired: Optional[int] = None) -> List[Any]:
        """``[pending, spark_timer]`` of the key at hand: its event-time timers in order and
        the one registered as Spark's timer (or None), read once per key in this task.

        ``fired``: the Spark timer firing; a key stored without timers of its own (saved before
        they were kept in state) has that one pending.
        """
        key_data: bytes = self.key_data  # type: ignore[assignment]
        entry = self._event_known.get(key_data)
        if entry is None:
            stored = self._event_timers.get()
            if stored is not None:
                entry = list(loads(stored[0]))
            elif fired is not None:
                entry = [[fired], fired]
            else:
                entry = [[], None]
            if len(self._event_known) >= _CACHED_KEYS:
                self._event_known.clear()
            self._event_known[key_data] = entry
        return entry

    def _store_event_timers(self) -> None:
        """Make the earliest pending timer of the key at hand Spark's timer, and store the
        key's timers (once per handler call that changed them)."""
        self.event_timers_changed = False
        entry = self.event_timers()
        pending, spark_timer = entry
        # A timer past Spark's greatest timestamp (a window ending at the largest long) fires
        # at the end of a bounded input, when Flink's watermark reaches the largest long.
        earliest = min(pending[0], END_TIMESTAMP - self.watermark_delay_ms) if pending else None
        if earliest != spark_timer:
            if spark_timer is not None:
                self.handle.deleteTimer(spark_timer)
            if earliest is not None:
                self.handle.registerTimer(earliest)
            entry[1] = earliest
        if pending:
            self._event_timers.update((dumps((pending, earliest)),))
        else:
            self._event_timers.clear()

    def value_cache(self, name: str, spark_state: Any) -> _KeyCache:
        """The cache of the value state ``name`` (one per state, however often it is asked for)."""
        cache = self._caches.get(name)
        if cache is None:
            cache = self._caches[name] = _KeyCache(spark_state, self)
        return cache

    def known_processing_timers(self) -> Optional[List[int]]:
        """The processing-time timers of the key at hand, in order, once read in this task."""
        return None if self.key_data is None else self._known_processing.get(self.key_data)

    def require_event_time(self, method: str) -> None:
        if not self.event_time:
            raise RuntimeError("TimerService.%s needs the keyed function to run in event time; "
                               "this operator runs without event time." % method)

    def _see_watermark(self, spark_watermark: int) -> None:
        if spark_watermark >= END_TIMESTAMP - self.watermark_delay_ms:
            self.watermark = LONG_MAX
        elif spark_watermark > 0:
            self.watermark = spark_watermark

    def _begin(self, key_data: bytes) -> Any:
        """Start a handler call for the key ``key_data``; its key, unpickled."""
        self.key_data = key_data
        if self._key[0] != key_data:
            # A reserved key (broadcast state, :mod:`~pyflink_compat.runtime.broadcast`) is no pickle.
            self._key = (key_data, key_data if key_data[:1] == b"\x00" else loads(key_data))
        return self._key[1]

    def _end(self) -> None:
        """End the handler call: write the state it changed."""
        for cache in self.dirty:
            cache.flush()
        self.dirty.clear()
        if self.event_timers_changed:
            self._store_event_timers()
        self.key_data = None

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        return worker_output.printing_to(self.output_directory, self._input_rows(key, rows, timerValues))

    def _input_rows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        key_data = key[0]
        records = _in_arrival_order(rows)
        if key_data == END_KEY:
            return
        self._see_watermark(timerValues.getCurrentWatermarkInMs())
        context = self.context
        context.key = self._begin(key_data)
        context.domain = None
        yield from self._fire_processing_timers(context)
        for value, ts, seq in records:
            context.ts = ts
            produced = self.function.process_element(loads(value), context)
            yield from self._emit(produced, ts, seq)
        self._end()

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        return worker_output.printing_to(self.output_directory,
                                         self._expired_timer(key, timerValues, expiredTimerInfo))

    def _expired_timer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        key_data = key[0]
        if key_data == END_KEY:
            return
        self._see_watermark(timerValues.getCurrentWatermarkInMs())
        fired = int(expiredTimerInfo.getExpiryTimeInMs())
        context = self.context
        context.key = self._begin(key_data)
        yield from self._fire_processing_timers(context)
        entry = self.event_timers(fired)
        if entry[1] == fired:  # Spark deletes its timer after this call
            entry[1] = None
            self.event_timers_changed = True
        pending = entry[0]
        limit = max(self.watermark, fired)
        # The timers due when the firing starts fire first, in timestamp order; those that
        # on_timer registers at or before the watermark fire after them, as PyFlink fires them.
        due = [t for t in pending if t <= limit]
        while due:
            for timestamp in due:
                if timestamp not in pending:  # deleted by an earlier on_timer
                    continue
                pending.remove(timestamp)
                self.event_timers_changed = True
                context.ts = timestamp
                context.domain = TimeDomain.EVENT_TIME
                produced = self.function.on_timer(timestamp, context)
                yield from self._emit(produced, timestamp, [END_SEQ, timestamp])
            due = [t for t in pending if t <= limit]
        self._end()

    def close(self) -> None:
        function = getattr(self, "function", None)
        if function is not None:
            with worker_output.forwarded(self.output_directory):
                function.close()
                for then in getattr(self, "_then_opened", ()):
                    then.close()

    # -- helpers --------------------------------------------------------------------------
    def _key_processing_timers(self) -> List[int]:
        """The processing-time timers of the key at hand, read from Spark's state once per
        key in this task and kept up to date as they are registered and deleted."""
        key_data: bytes = self.key_data  # type: ignore[assignment]
        known = self._known_processing.get(key_data)
        if known is None:
            timers = self.processing_timers()
            known = sorted(loads(k[0]) for k in list(timers.keys())) if timers.exists() else []
            if len(self._known_processing) >= _CACHED_KEYS:
                self._known_processing.clear()
            self._known_processing[key_data] = known
        return known

    def _fire_processing_timers(self, context: _ElementContext) -> Iterator[Any]:
        known = self._key_processing_timers()
        if not known:
            return
        timers = self.processing_timers()
        now = _now_ms()
        for timestamp in list(known):
            if timestamp > now:
                break
            timers.removeKey((key_bytes(timestamp),))
            if timestamp in known:
                known.remove(timestamp)
            context.ts = timestamp
            context.domain = TimeDomain.PROCESSING_TIME
            produced = self.function.on_timer(timestamp, context)
            yield from self._emit(produced, None, [END_SEQ, timestamp])
        context.domain = None

    def _emit(self, produced: Any, ts: Optional[int], seq: List[int]) -> Iterator[Any]:
        if produced is None:
            return
        then = self.then
        for index, value in enumerate(produced):
            if is_tagged(value):
                yield _Output(dumps(conform(value[1], value[0].type_info)), ts, seq + [index],
                              side_key(value[0].tag_id))
            elif then is None:
                yield _Output(dumps(value), ts, seq + [index], None)
            else:
                yield from self._then(then, value, ts, seq + [index])

    @staticmethod
    def _then(then: List[Any], value: Any, ts: Optional[int], seq: List[int]) -> Iterator[Any]:
        """The records the operators after the function make of one of its outputs."""
        from pyflink_compat.runtime.record_operators import apply_values

        # The operators see a copy, as they would after the record's trip through Spark; a
        # value that cannot change (a string, a tuple of plain values) is its own copy.
        if not is_plain(value):
            value = loads(dumps(value))
        for v, record_ts, record_seq, k in apply_values(then, value, ts, seq):
            yield _Output(dumps(v), record_ts, record_seq, k)


_SEQ = operator.itemgetter(2)


def _in_arrival_order(rows: Iterator[Any]) -> List[Tuple[bytes, Optional[int], List[int]]]:
    """A key's input rows as ``(v, ts, seq)``, in arrival order (the order of ``seq``).

    The columns are found by name once; each row is then read as a plain tuple, because a
    ``Row``'s item access by name or position is Python code, several calls per record.
    """
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return []
    fields = first.__fields__
    pick = operator.itemgetter(fields.index("v"), fields.index("ts"), fields.index("seq"))
    found = [pick(tuple(first))]
    found.extend(pick(tuple(row)) for row in rows)
    found.sort(key=_SEQ)
    return found


class _Output(SparkRow):
    """One row the keyed operator gives Spark (the columns of the record schema, in order).

    Spark turns each row a handler yields into a dict (``asDict(True)``), which for a ``Row``
    walks every value, and a ``Row`` made from keywords costs more than a tuple; a record's
    columns are plain values (bytes, int, a list of ints), so neither is needed per record.
    """

    __fields__ = ["v", "ts", "seq", "k"]

    def __new__(cls, v: Optional[bytes], ts: Optional[int], seq: List[int], k: Optional[bytes]) -> "_Output":
        return tuple.__new__(cls, (v, ts, seq, k))

    def asDict(self, recursive: bool = False) -> Dict[str, Any]:  # noqa: N802 - Spark's name
        v, ts, seq, k = self  # unpacked: a Row's indexing is Python code
        return {"v": v, "ts": ts, "seq": seq, "k": k}
