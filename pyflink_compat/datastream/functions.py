"""Declared PyFlink module ``pyflink.datastream.functions``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.missing.declared import Declared

__all__ = ['RuntimeContext', 'MapFunction', 'CoMapFunction', 'FlatMapFunction',
    'CoFlatMapFunction', 'ReduceFunction', 'AggregateFunction', 'KeySelector', 'FilterFunction',
    'Partitioner', 'SourceFunction', 'SinkFunction', 'ProcessFunction', 'CoProcessFunction',
    'KeyedProcessFunction', 'KeyedCoProcessFunction', 'TimerService', 'WindowFunction',
    'AllWindowFunction', 'ProcessWindowFunction', 'ProcessAllWindowFunction',
    'BaseBroadcastProcessFunction', 'BroadcastProcessFunction', 'KeyedBroadcastProcessFunction']


class AggregateFunction(Declared):
    pass


class AllWindowFunction(Declared):
    pass


class BaseBroadcastProcessFunction(Declared):
    pass


class BroadcastProcessFunction(Declared):
    pass


class CoFlatMapFunction(Declared):
    pass


class CoMapFunction(Declared):
    pass


class CoProcessFunction(Declared):
    pass


class FilterFunction(Declared):
    pass


class FlatMapFunction(Declared):
    pass


class Function(Declared):
    pass


class FunctionWrapper(Declared):
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


class KeySelector(Declared):
    pass


class KeyedBroadcastProcessFunction(Declared):
    pass


class KeyedCoProcessFunction(Declared):
    pass


class KeyedProcessFunction(Declared):
    pass


class KeyedStateStore(Declared):
    pass


class MapFunction(Declared):
    pass


class NullByteKeySelector(Declared):
    pass


class Partitioner(Declared):
    pass


class PassThroughAllWindowFunction(Declared):
    pass


class PassThroughWindowFunction(Declared):
    pass


class ProcessAllWindowFunction(Declared):
    pass


class ProcessFunction(Declared):
    pass


class ProcessWindowFunction(Declared):
    pass


class ReduceFunction(Declared):
    pass


class ReduceFunctionWrapper(Declared):
    pass


class RuntimeContext(Declared):
    pass


class SinkFunction(Declared):
    pass


class SourceFunction(Declared):
    pass


class WindowFunction(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
