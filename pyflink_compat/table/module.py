"""Declared PyFlink module ``pyflink.table.module``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['HiveModule', 'Module', 'ModuleEntry']


class HiveModule(Declared):
    pass


class Module(Declared):
    pass


class ModuleEntry(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
