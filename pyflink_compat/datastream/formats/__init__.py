"""Declared PyFlink module ``pyflink.datastream.formats``.

Its names are imported from their modules on first use, so that importing the
package is cheap. Declared-only names raise
:class:`~pyflink_compat.missing.NotSupportedError` when used, naming the PySpark
way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
