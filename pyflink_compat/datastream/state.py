"""PyFlink's ``pyflink.datastream.state``: keyed state, its descriptors and time-to-live.

A keyed function gets its state from a descriptor through the
:class:`~pyflink_compat.datastream.functions.RuntimeContext` given to ``open``; on Spark the
state lives in the query's state store (``transformWithState``), one variable per descriptor
name, and so is part of every checkpoint.
"""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Dict, Generic, Iterable, Iterator, List, Optional, Tuple, TypeVar

from pyflink_compat.common.time import Time
from pyflink_compat.common.typeinfo import TypeInformation
from pyflink_compat.missing.declared import Declared

__all__ = ['ValueStateDescriptor', 'ValueState', 'ListStateDescriptor', 'ListState',
    'MapStateDescriptor', 'MapState', 'ReducingStateDescriptor', 'ReducingState',
    'AggregatingStateDescriptor', 'AggregatingState', 'ReadOnlyBroadcastState', 'BroadcastState',
    'StateTtlConfig', 'OperatorStateStore']

T = TypeVar('T')
K = TypeVar('K')
V = TypeVar('V')
IN = TypeVar('IN')
OUT = TypeVar('OUT')


class State(ABC):
    """One state variable of the current key."""

    @abstractmethod
    def clear(self) -> None:
        """Remove the value of the current key."""
        pass


class ValueState(State, Generic[T]):
    """One value per key (``None`` until updated)."""

    @abstractmethod
    def value(self) -> T:
        pass

    @abstractmethod
    def update(self, value: T) -> None:
        pass


class AppendingState(State, Generic[IN, OUT]):
    """State that values are added to."""

    @abstractmethod
    def get(self) -> OUT:
        pass

    @abstractmethod
    def add(self, value: IN) -> None:
        pass


class MergingState(AppendingState[IN, OUT]):
    """Appending state whose values can be merged."""


class ReducingState(MergingState[T, T]):
    """One value per key, combining every added value with a reduce function."""


class AggregatingState(MergingState[IN, OUT]):
    """One accumulator per key, fed by an aggregate function."""


class ListState(MergingState[T, Iterable[T]]):
    """A list of values per key."""

    @abstractmethod
    def update(self, values: List[T]) -> None:
        pass

    @abstractmethod
    def add_all(self, values: List[T]) -> None:
        pass

    def __iter__(self) -> Iterator[T]:
        return iter(self.get())


class MapState(State, Generic[K, V]):
    """A map per key."""

    @abstractmethod
    def get(self, key: K) -> V:
        pass

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class ReadOnlyBroadcastState(State, Generic[K, V]):
    """The broadcast state as the non-broadcast side of a broadcast connection reads it."""

    @abstractmethod
    def get(self, key: K) -> V:
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class BroadcastState(ReadOnlyBroadcastState[K, V]):
    """The broadcast state as the broadcast side writes it: the same map in every parallel
    instance."""

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        pass

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)


class OperatorStateStore(Declared):
    pass


class StateDescriptor(ABC):  # noqa: B024 (as PyFlink's)
    """Names a state variable and the type of its values."""

    def __init__(self, name: str, type_info: Any):
        self.name = name
        self.type_info = type_info
        self._ttl_config: Optional['StateTtlConfig'] = None

    def get_name(self) -> str:
        """The state's name, unique within its function."""
        return self.name

    def enable_time_to_live(self, ttl_config: 'StateTtlConfig') -> None:
        """Expire the state's values as ``ttl_config`` says."""
        self._ttl_config = ttl_config


class ValueStateDescriptor(StateDescriptor):
    """Describes a :class:`ValueState`."""

    def __init__(self, name: str, value_type_info: TypeInformation):
        super(ValueStateDescriptor, self).__init__(name, value_type_info)


class ListStateDescriptor(StateDescriptor):
    """Describes a :class:`ListState`."""

    def __init__(self, name: str, elem_type_info: TypeInformation):
        super(ListStateDescriptor, self).__init__(name, elem_type_info)


class MapStateDescriptor(StateDescriptor):
    """Describes a :class:`MapState`."""

    def __init__(self, name: str, key_type_info: TypeInformation, value_type_info: TypeInformation):
        super(MapStateDescriptor, self).__init__(name, (key_type_info, value_type_info))


class _CallableReduction(object):
    """A plain callable of two values, given the ``reduce`` method state descriptors call."""

    def __init__(self, func: Any):
        self._func = func

    def reduce(self, value1: Any, value2: Any) -> Any:
        return self._func(value1, value2)


#: The methods of an ``AggregateFunction`` an aggregating state calls.
_AGGREGATE_METHODS = ("create_accumulator", "add", "get_result", "merge")


class ReducingStateDescriptor(StateDescriptor):
    """Describes a :class:`ReducingState`: the reduce function combines the values added."""

    def __init__(self, name: str, reduce_function: Any, type_info: TypeInformation):
        super(ReducingStateDescriptor, self).__init__(name, type_info)
        # a ReduceFunction is known by its method: functions.py imports this module, and the
        # descriptor only needs something that reduces two values
        if not callable(getattr(reduce_function, "reduce", None)):
            if not callable(reduce_function):
                raise TypeError("The input must be a ReduceFunction or a callable function!")
            reduce_function = _CallableReduction(reduce_function)
        self._reduce_function = reduce_function

    def get_reduce_function(self) -> Any:
        return self._reduce_function


class AggregatingStateDescriptor(StateDescriptor):
    """Describes an :class:`AggregatingState`."""

    def __init__(self, name: str, agg_function: Any, state_type_info: Any):
        super(AggregatingStateDescriptor, self).__init__(name, state_type_info)
        if not all(callable(getattr(agg_function, method, None)) for method in _AGGREGATE_METHODS):
            raise TypeError("The input must be a pyflink.datastream.functions.AggregateFunction!")
        self._agg_function = agg_function

    def get_agg_function(self) -> Any:
        return self._agg_function


class StateTtlConfig(object):
    """When a state value expires: ``ttl`` after it was written (or read too), measured in
    processing time; expired values are never returned unless configured so."""

    class UpdateType(Enum):
        Disabled = 0
        OnCreateAndWrite = 1
        OnReadAndWrite = 2

    class StateVisibility(Enum):
        ReturnExpiredIfNotCleanedUp = 0
        NeverReturnExpired = 1

    class TtlTimeCharacteristic(Enum):
        ProcessingTime = 0

    def __init__(self, update_type: 'StateTtlConfig.UpdateType',
                 state_visibility: 'StateTtlConfig.StateVisibility',
                 ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic',
                 ttl: Time, cleanup_strategies: 'StateTtlConfig.CleanupStrategies'):
        self._update_type = update_type
        self._state_visibility = state_visibility
        self._ttl_time_characteristic = ttl_time_characteristic
        self._ttl = ttl
        self._cleanup_strategies = cleanup_strategies

    @staticmethod
    def new_builder(ttl: Time) -> 'StateTtlConfig.Builder':
        return StateTtlConfig.Builder(ttl)

    def get_update_type(self) -> 'StateTtlConfig.UpdateType':
        return self._update_type

    def get_state_visibility(self) -> 'StateTtlConfig.StateVisibility':
        return self._state_visibility

    def get_ttl(self) -> Time:
        return self._ttl

    def get_ttl_time_characteristic(self) -> 'StateTtlConfig.TtlTimeCharacteristic':
        return self._ttl_time_characteristic

    def is_enabled(self) -> bool:
        return self._update_type != StateTtlConfig.UpdateType.Disabled

    def get_cleanup_strategies(self) -> 'StateTtlConfig.CleanupStrategies':
        return self._cleanup_strategies

    def __repr__(self) -> str:
        return "StateTtlConfig<update_type={}, state_visibility={},ttl_time_characteristic ={}," \
               "ttl={}>".format(self._update_type, self._state_visibility,
                                self._ttl_time_characteristic, self._ttl)

    class Builder(object):
        """Builds a :class:`StateTtlConfig`."""

        def __init__(self, ttl: Time):
            self._ttl = ttl
            self._update_type = StateTtlConfig.UpdateType.OnCreateAndWrite
            self._state_visibility = StateTtlConfig.StateVisibility.NeverReturnExpired
            self._ttl_time_characteristic = StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
            self._is_cleanup_in_background = True
            self._strategies: Dict[Any, Any] = {}

        def set_update_type(self, update_type: 'StateTtlConfig.UpdateType') -> 'StateTtlConfig.Builder':
            self._update_type = update_type
            return self

        def update_ttl_on_create_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)

        def update_ttl_on_read_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite)

        def set_state_visibility(self, state_visibility: 'StateTtlConfig.StateVisibility') \
                -> 'StateTtlConfig.Builder':
            self._state_visibility = state_visibility
            return self

        def return_expired_if_not_cleaned_up(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp)

        def never_return_expired(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired)

        def set_ttl_time_characteristic(self, ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic') \
                -> 'StateTtlConfig.Builder':
            self._ttl_time_characteristic = ttl_time_characteristic
            return self

        def use_processing_time(self) -> 'StateTtlConfig.Builder':
            return self.set_ttl_time_characteristic(StateTtlConfig.TtlTimeCharacteristic.ProcessingTime)

        def cleanup_full_snapshot(self) -> 'StateTtlConfig.Builder':
            self._strategies["full_snapshot"] = True
            return self

        def cleanup_incrementally(self, cleanup_size: int, run_cleanup_for_every_record: Any) \
                -> 'StateTtlConfig.Builder':
            self._strategies["incremental"] = (cleanup_size, run_cleanup_for_every_record)
            return self

        def cleanup_in_rocksdb_compact_filter(self, query_time_after_num_entries: Any,
                                              periodic_compaction_time: Any = None) \
                -> 'StateTtlConfig.Builder':
            self._strategies["rocksdb"] = (query_time_after_num_entries, periodic_compaction_time)
            return self

        def disable_cleanup_in_background(self) -> 'StateTtlConfig.Builder':
            self._is_cleanup_in_background = False
            return self

        def set_ttl(self, ttl: Time) -> 'StateTtlConfig.Builder':
            self._ttl = ttl
            return self

        def build(self) -> 'StateTtlConfig':
            return StateTtlConfig(self._update_type, self._state_visibility,
                                  self._ttl_time_characteristic, self._ttl,
                                  StateTtlConfig.CleanupStrategies(dict(self._strategies),
                                                                   self._is_cleanup_in_background))

    class CleanupStrategies(object):
        """How expired values are cleaned up (expired values are never visible either way)."""

        def __init__(self, strategies: Dict[Any, Any], is_cleanup_in_background: bool):
            self._strategies = strategies
            self._is_cleanup_in_background = is_cleanup_in_background

        def is_cleanup_in_background(self) -> bool:
            return self._is_cleanup_in_background

        def in_full_snapshot(self) -> bool:
            return "full_snapshot" in self._strategies


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
