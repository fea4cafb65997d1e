"""Declared PyFlink module ``pyflink.common.typeinfo``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['TypeInformation', 'Types']


class BasicArrayTypeInfo(Declared):
    pass


class BasicType(Declared):
    pass


class BasicTypeInfo(Declared):
    pass


class DateTypeInfo(Declared):
    pass


class ExternalTypeInfo(Declared):
    pass


class InstantTypeInfo(Declared):
    pass


class ListTypeInfo(Declared):
    pass


class LocalTimeTypeInfo(Declared):
    pass


class MapTypeInfo(Declared):
    pass


class ObjectArrayTypeInfo(Declared):
    pass


class PickledBytesTypeInfo(Declared):
    pass


class PrimitiveArrayTypeInfo(Declared):
    pass


class RowTypeInfo(Declared):
    pass


class SqlTimeTypeInfo(Declared):
    pass


class TimeTypeInfo(Declared):
    pass


class TimestampTypeInfo(Declared):
    pass


class TupleTypeInfo(Declared):
    pass


class TypeInformation(Declared):
    pass


class Types(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
