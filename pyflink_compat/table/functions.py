"""Declared PyFlink module ``pyflink.table.functions``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

MAX_LONG_VALUE = 9223372036854775807
MIN_LONG_VALUE = -9223372036854775808


class AvgAggFunction(Declared):
    pass


class Count1AggFunction(Declared):
    pass


class CountAggFunction(Declared):
    pass


class DecimalSum0AggFunction(Declared):
    pass


class FirstValueAggFunction(Declared):
    pass


class FirstValueWithRetractAggFunction(Declared):
    pass


class FloatSum0AggFunction(Declared):
    pass


class IntSum0AggFunction(Declared):
    pass


class LastValueAggFunction(Declared):
    pass


class LastValueWithRetractAggFunction(Declared):
    pass


class ListAggFunction(Declared):
    pass


class ListAggWithRetractAggFunction(Declared):
    pass


class ListAggWsWithRetractAggFunction(Declared):
    pass


class MaxAggFunction(Declared):
    pass


class MaxWithRetractAggFunction(Declared):
    pass


class MinAggFunction(Declared):
    pass


class MinWithRetractAggFunction(Declared):
    pass


class Sum0AggFunction(Declared):
    pass


class SumAggFunction(Declared):
    pass


class SumWithRetractAggFunction(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
