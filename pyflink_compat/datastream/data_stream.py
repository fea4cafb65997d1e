"""Declared PyFlink module ``pyflink.datastream.data_stream``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['CloseableIterator', 'DataStream', 'KeyedStream', 'ConnectedStreams', 'WindowedStream',
    'DataStreamSink', 'CloseableIterator', 'BroadcastStream', 'BroadcastConnectedStream']


class AllWindowedStream(Declared):
    pass


class BroadcastConnectedStream(Declared):
    pass


class BroadcastStream(Declared):
    pass


class CachedDataStream(Declared):
    pass


class CloseableIterator(Declared):
    pass


class ConnectedStreams(Declared):
    pass


class DataStream(Declared):
    pass


class DataStreamSink(Declared):
    pass


class KeyedStream(Declared):
    pass


class WindowedStream(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
