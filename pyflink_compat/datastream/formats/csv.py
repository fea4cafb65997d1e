"""Declared PyFlink module ``pyflink.datastream.formats.csv``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['CsvSchema', 'CsvSchemaBuilder', 'CsvReaderFormat', 'CsvBulkWriters',
    'CsvRowDeserializationSchema', 'CsvRowSerializationSchema']


class CsvBulkWriters(Declared):
    pass


class CsvReaderFormat(Declared):
    pass


class CsvRowDeserializationSchema(Declared):
    pass


class CsvRowSerializationSchema(Declared):
    pass


class CsvSchema(Declared):
    pass


class CsvSchemaBuilder(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
