"""Declared PyFlink module ``pyflink.datastream.connectors.rabbitmq``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['RMQConnectionConfig', 'RMQSource', 'RMQSink']


class RMQConnectionConfig(Declared):
    pass


class RMQSink(Declared):
    pass


class RMQSource(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
