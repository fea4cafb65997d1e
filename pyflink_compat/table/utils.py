"""Declared PyFlink module ``pyflink.table.utils``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import declared_function

arrow_to_pandas = declared_function(__name__, 'arrow_to_pandas')
pandas_to_arrow = declared_function(__name__, 'pandas_to_arrow')
pickled_bytes_to_python_converter = declared_function(__name__, 'pickled_bytes_to_python_converter')
to_expression_jarray = declared_function(__name__, 'to_expression_jarray')
tz_convert_from_internal = declared_function(__name__, 'tz_convert_from_internal')
tz_convert_to_internal = declared_function(__name__, 'tz_convert_to_internal')


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
