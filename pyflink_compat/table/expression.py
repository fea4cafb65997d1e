"""Declared PyFlink module ``pyflink.table.expression``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['Expression', 'TimeIntervalUnit', 'TimePointUnit', 'JsonType', 'JsonExistsOnError',
    'JsonValueOnEmptyOrError', 'JsonQueryWrapper', 'JsonQueryOnEmptyOrError']


class Expression(Declared):
    pass


class JsonExistsOnError(Declared):
    pass


class JsonOnNull(Declared):
    pass


class JsonQueryOnEmptyOrError(Declared):
    pass


class JsonQueryWrapper(Declared):
    pass


class JsonType(Declared):
    pass


class JsonValueOnEmptyOrError(Declared):
    pass


class TimeIntervalUnit(Declared):
    pass


class TimePointUnit(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
