"""Declared PyFlink module ``pyflink.datastream.state``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['ValueStateDescriptor', 'ValueState', 'ListStateDescriptor', 'ListState',
    'MapStateDescriptor', 'MapState', 'ReducingStateDescriptor', 'ReducingState',
    'AggregatingStateDescriptor', 'AggregatingState', 'ReadOnlyBroadcastState', 'BroadcastState',
    'StateTtlConfig', 'OperatorStateStore']


class AggregatingState(Declared):
    pass


class AggregatingStateDescriptor(Declared):
    pass


class AppendingState(Declared):
    pass


class BroadcastState(Declared):
    pass


class ListState(Declared):
    pass


class ListStateDescriptor(Declared):
    pass


class MapState(Declared):
    pass


class MapStateDescriptor(Declared):
    pass


class MergingState(Declared):
    pass


class OperatorStateStore(Declared):
    pass


class ReadOnlyBroadcastState(Declared):
    pass


class ReducingState(Declared):
    pass


class ReducingStateDescriptor(Declared):
    pass


class State(Declared):
    pass


class StateDescriptor(Declared):
    pass


class StateTtlConfig(Declared):
    pass


class ValueState(Declared):
    pass


class ValueStateDescriptor(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
