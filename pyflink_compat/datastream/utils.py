"""Declared PyFlink module ``pyflink.datastream.utils``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared, declared_function

convert_to_python_obj = declared_function(__name__, 'convert_to_python_obj')
create_hadoop_configuration = declared_function(__name__, 'create_hadoop_configuration')
create_java_properties = declared_function(__name__, 'create_java_properties')
pickled_bytes_to_python_obj = declared_function(__name__, 'pickled_bytes_to_python_obj')


class ResultTypeQueryable(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
