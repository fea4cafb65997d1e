"""PyFlink's ``pyflink.datastream.functions``: the user functions of a DataStream job.

A job subclasses these (or passes plain callables); the runtime calls them on Spark's Python
workers as PyFlink calls them on its own: ``open`` once per parallel instance, then one call
per record, ``close`` at the end. Window functions (``ProcessWindowFunction[...]`` and the
like) are generic, so a job may subscript them as bases.
"""
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, Iterable, TypeVar

from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.missing.declared import Declared

if TYPE_CHECKING:  # state's module reads time and type classes that need py4j
    from pyflink_compat.datastream.state import (AggregatingState, ListState, MapState, ReducingState,
                                                 ValueState)

__all__ = ['RuntimeContext', 'MapFunction', 'CoMapFunction', 'FlatMapFunction',
    'CoFlatMapFunction', 'ReduceFunction', 'AggregateFunction', 'KeySelector', 'FilterFunction',
    'Partitioner', 'SourceFunction', 'SinkFunction', 'ProcessFunction', 'CoProcessFunction',
    'KeyedProcessFunction', 'KeyedCoProcessFunction', 'TimerService', 'WindowFunction',
    'AllWindowFunction', 'ProcessWindowFunction', 'ProcessAllWindowFunction',
    'BaseBroadcastProcessFunction', 'BroadcastProcessFunction', 'KeyedBroadcastProcessFunction']

IN = TypeVar('IN')
OUT = TypeVar('OUT')
KEY = TypeVar('KEY')
W = TypeVar('W')
W2 = TypeVar('W2')
IN1 = TypeVar('IN1')
IN2 = TypeVar('IN2')


class KeyedStateStore(ABC):
    """Where a keyed function gets its state, by descriptor."""

    @abstractmethod
    def get_state(self, state_descriptor: Any) -> 'ValueState':
        """The value state of ``state_descriptor`` for the current key."""
        pass

    @abstractmethod
    def get_list_state(self, state_descriptor: Any) -> 'ListState':
        """The list state of ``state_descriptor`` for the current key."""
        pass

    @abstractmethod
    def get_map_state(self, state_descriptor: Any) -> 'MapState':
        """The map state of ``state_descriptor`` for the current key."""
        pass

    @abstractmethod
    def get_reducing_state(self, state_descriptor: Any) -> 'ReducingState':
        """The reducing state of ``state_descriptor`` for the current key."""
        pass

    @abstractmethod
    def get_aggregating_state(self, state_descriptor: Any) -> 'AggregatingState':
        """The aggregating state of ``state_descriptor`` for the current key."""
        pass


class RuntimeContext(KeyedStateStore):
    """What a function learns in ``open``: its task, its parallel instance and its state."""

    @abstractmethod
    def get_task_name(self) -> str:
        pass

    @abstractmethod
    def get_number_of_parallel_subtasks(self) -> int:
        pass

    @abstractmethod
    def get_max_number_of_parallel_subtasks(self) -> int:
        pass

    @abstractmethod
    def get_index_of_this_subtask(self) -> int:
        pass

    @abstractmethod
    def get_attempt_number(self) -> int:
        pass

    @abstractmethod
    def get_task_name_with_subtasks(self) -> str:
        pass

    @abstractmethod
    def get_job_parameter(self, key: str, default_value: str) -> str:
        pass

    @abstractmethod
    def get_metrics_group(self) -> Any:
        pass


class Function(ABC):  # noqa: B024 (PyFlink's functions all derive from an ABC)
    """Base of the user functions: ``open`` before the first record, ``close`` after the last."""

    def open(self, runtime_context: RuntimeContext) -> None:  # noqa: B027
        pass

    def close(self) -> None:  # noqa: B027
        pass


class MapFunction(Function):
    """One output per record."""

    @abstractmethod
    def map(self, value: Any) -> Any:
        pass


class CoMapFunction(Function):
    """One output per record of either of two connected streams."""

    @abstractmethod
    def map1(self, value: Any) -> Any:
        pass

    @abstractmethod
    def map2(self, value: Any) -> Any:
        pass


class FlatMapFunction(Function):
    """Any number of outputs per record: ``flat_map`` returns or yields them."""

    @abstractmethod
    def flat_map(self, value: Any) -> Any:
        pass


class CoFlatMapFunction(Function):
    """Any number of outputs per record of either of two connected streams."""

    @abstractmethod
    def flat_map1(self, value: Any) -> Any:
        pass

    @abstractmethod
    def flat_map2(self, value: Any) -> Any:
        pass


class ReduceFunction(Function):
    """Combines two values of one key into one."""

    @abstractmethod
    def reduce(self, value1: Any, value2: Any) -> Any:
        pass


class AggregateFunction(Function):
    """Aggregates values through an accumulator."""

    @abstractmethod
    def create_accumulator(self) -> Any:
        pass

    @abstractmethod
    def add(self, value: Any, accumulator: Any) -> Any:
        pass

    @abstractmethod
    def get_result(self, accumulator: Any) -> Any:
        pass

    @abstractmethod
    def merge(self, acc_a: Any, acc_b: Any) -> Any:
        pass


class KeySelector(Function):
    """Gives each record its key."""

    @abstractmethod
    def get_key(self, value: Any) -> Any:
        pass


class NullByteKeySelector(KeySelector):
    """The same key for every record."""

    def get_key(self, value: Any) -> Any:
        return 0


class FilterFunction(Function):
    """Keeps the records it answers true for."""

    @abstractmethod
    def filter(self, value: Any) -> bool:
        pass


class Partitioner(Function):
    """Picks the partition of a key."""

    @abstractmethod
    def partition(self, key: Any, num_partitions: int) -> int:
        pass


class FunctionWrapper(Function):
    """A plain callable made into a function."""

    def __init__(self, func: Any):
        self._func = func


class ReduceFunctionWrapper(FunctionWrapper):
    """A plain callable of two values made into a :class:`ReduceFunction`."""

    def reduce(self, value1: Any, value2: Any) -> Any:
        return self._func(value1, value2)


class ProcessFunction(Function):
    """Any number of outputs per record (yielded), with the record's timestamp."""

    class Context(ABC):
        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    @abstractmethod
    def process_element(self, value: Any, ctx: 'ProcessFunction.Context') -> Any:
        pass


class KeyedProcessFunction(Function):
    """A function of a keyed stream with keyed state and timers: ``process_element`` per
    record and ``on_timer`` per firing timer, both yielding their outputs."""

    class Context(ABC):
        @abstractmethod
        def get_current_key(self) -> Any:
            pass

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    class OnTimerContext(Context):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abstractmethod
    def process_element(self, value: Any, ctx: 'KeyedProcessFunction.Context') -> Any:
        pass

    def on_timer(self, timestamp: int, ctx: 'KeyedProcessFunction.OnTimerContext') -> Any:
        pass


class CoProcessFunction(Function):
    """A function of two connected streams."""

    class Context(ABC):
        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    @abstractmethod
    def process_element1(self, value: Any, ctx: 'CoProcessFunction.Context') -> Any:
        pass

    @abstractmethod
    def process_element2(self, value: Any, ctx: 'CoProcessFunction.Context') -> Any:
        pass


class KeyedCoProcessFunction(Function):
    """A function of two connected keyed streams, with keyed state and timers."""

    class Context(ABC):
        @abstractmethod
        def get_current_key(self) -> Any:
            pass

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    class OnTimerContext(Context):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abstractmethod
    def process_element1(self, value: Any, ctx: 'KeyedCoProcessFunction.Context') -> Any:
        pass

    @abstractmethod
    def process_element2(self, value: Any, ctx: 'KeyedCoProcessFunction.Context') -> Any:
        pass

    def on_timer(self, timestamp: int, ctx: 'KeyedCoProcessFunction.OnTimerContext') -> Any:
        pass


class WindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Outputs for one window of one key, from all its records."""

    @abstractmethod
    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class AllWindowFunction(Function, Generic[IN, OUT, W]):
    """Outputs for one window of a non-keyed stream."""

    @abstractmethod
    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class ProcessWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Outputs for one window of one key, with the window's context."""

    class Context(ABC, Generic[W2]):
        @abstractmethod
        def window(self) -> W2:
            pass

        @abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abstractmethod
        def current_watermark(self) -> int:
            pass

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abstractmethod
    def process(self, key: KEY, context: 'ProcessWindowFunction.Context', elements: Iterable[IN]) \
            -> Iterable[OUT]:
        pass

    def clear(self, context: 'ProcessWindowFunction.Context') -> None:
        pass


class ProcessAllWindowFunction(Function, Generic[IN, OUT, W]):
    """Outputs for one window of a non-keyed stream, with the window's context."""

    class Context(ABC, Generic[W2]):
        @abstractmethod
        def window(self) -> W2:
            pass

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abstractmethod
    def process(self, context: 'ProcessAllWindowFunction.Context', elements: Iterable[IN]) \
            -> Iterable[OUT]:
        pass

    def clear(self, context: 'ProcessAllWindowFunction.Context') -> None:
        pass


class PassThroughWindowFunction(WindowFunction[IN, IN, KEY, W]):
    """Outputs a window's records unchanged."""

    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class PassThroughAllWindowFunction(AllWindowFunction[IN, IN, W]):
    """Outputs a window's records unchanged."""

    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class BaseBroadcastProcessFunction(Function):
    """What the functions of a stream connected with a broadcast stream share: their
    contexts."""

    class BaseContext(ABC):
        @abstractmethod
        def timestamp(self) -> int:
            pass

        @abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abstractmethod
        def current_watermark(self) -> int:
            pass

    class Context(BaseContext):
        """The context of a broadcast record: the broadcast state may be written."""

        @abstractmethod
        def get_broadcast_state(self, state_descriptor: Any) -> Any:
            pass

    class ReadOnlyContext(BaseContext):
        """The context of a record of the other input: the broadcast state is read only."""

        @abstractmethod
        def get_broadcast_state(self, state_descriptor: Any) -> Any:
            pass


class BroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[IN1, IN2, OUT]):
    """A function of a non-keyed stream connected with a broadcast stream."""

    class Context(BaseBroadcastProcessFunction.Context, ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, ABC):
        pass

    @abstractmethod
    def process_element(self, value: IN1, ctx: ReadOnlyContext) -> Any:
        pass

    @abstractmethod
    def process_broadcast_element(self, value: IN2, ctx: Context) -> Any:
        pass


class InternalIterableAllWindowFunction(Declared):
    pass


class InternalIterableProcessAllWindowFunction(Declared):
    pass


class InternalIterableProcessWindowFunction(Declared):
    pass


class InternalIterableWindowFunction(Declared):
    pass


class InternalProcessAllWindowContext(Declared):
    pass


class InternalProcessWindowContext(Declared):
    pass


class InternalSingleValueAllWindowFunction(Declared):
    pass


class InternalSingleValueProcessAllWindowFunction(Declared):
    pass


class InternalSingleValueProcessWindowFunction(Declared):
    pass


class InternalSingleValueWindowFunction(Declared):
    pass


class InternalWindowFunction(Declared):
    pass


class JavaFunctionWrapper(Declared):
    pass


class KeyedBroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[KEY, IN1, IN2, OUT]):
    """A function of a keyed stream connected with a broadcast stream: keyed state and
    timers for the keyed records, the broadcast state shared by all keys."""

    class Context(BaseBroadcastProcessFunction.Context, ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, ABC):
        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def get_current_key(self) -> Any:
            pass

    class OnTimerContext(ReadOnlyContext, ABC):
        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

        @abstractmethod
        def get_current_key(self) -> Any:
            pass

    @abstractmethod
    def process_element(self, value: IN1, ctx: ReadOnlyContext) -> Any:
        pass

    @abstractmethod
    def process_broadcast_element(self, value: IN2, ctx: Context) -> Any:
        pass

    def on_timer(self, timestamp: int, ctx: OnTimerContext) -> Any:
        pass


class SinkFunction(object):
    """The base of the sinks given to ``add_sink``.

    :param sink_func: What the sink writes to (its description).
    """

    def __init__(self, sink_func: Any):
        self._j_function = sink_func

    def get_java_function(self) -> Any:
        return self._j_function


class SourceFunction(object):
    """The base of the sources given to ``add_source``.

    :param source_func: What the source reads (its description).
    """

    def __init__(self, source_func: Any):
        self._j_function = source_func

    def get_java_function(self) -> Any:
        return self._j_function


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
