"""Declared PyFlink module ``pyflink.common.constants``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""

DEFAULT_OUTPUT_TAG = ''
MAX_LONG_VALUE = 9223372036854775807
MIN_LONG_VALUE = -9223372036854775808
