"""Declared PyFlink module ``pyflink.table.catalog``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['Catalog', 'CatalogDatabase', 'CatalogBaseTable', 'CatalogPartition', 'CatalogFunction',
    'Procedure', 'ObjectPath', 'CatalogPartitionSpec', 'CatalogTableStatistics',
    'CatalogColumnStatistics', 'HiveCatalog']


class Catalog(Declared):
    pass


class CatalogBaseTable(Declared):
    pass


class CatalogColumnStatistics(Declared):
    pass


class CatalogDatabase(Declared):
    pass


class CatalogFunction(Declared):
    pass


class CatalogPartition(Declared):
    pass


class CatalogPartitionSpec(Declared):
    pass


class CatalogTableStatistics(Declared):
    pass


class HiveCatalog(Declared):
    pass


class JdbcCatalog(Declared):
    pass


class ObjectPath(Declared):
    pass


class Procedure(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
