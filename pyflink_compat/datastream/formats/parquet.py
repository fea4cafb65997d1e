"""Declared PyFlink module ``pyflink.datastream.formats.parquet``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['AvroParquetReaders', 'AvroParquetWriters', 'ParquetColumnarRowInputFormat',
    'ParquetBulkWriters']


class AvroParquetReaders(Declared):
    pass


class AvroParquetWriters(Declared):
    pass


class ParquetBulkWriters(Declared):
    pass


class ParquetColumnarRowInputFormat(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
