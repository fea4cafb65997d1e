"""Declared PyFlink module ``pyflink.table.types``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.common.types import Row, RowKind
from pyflink_compat.missing.declared import Declared, declared_function

__all__ = ['DataTypes', 'UserDefinedType', 'Row', 'RowKind']

create_arrow_schema = declared_function(__name__, 'create_arrow_schema')
from_arrow_type = declared_function(__name__, 'from_arrow_type')
to_arrow_type = declared_function(__name__, 'to_arrow_type')


class ArrayType(Declared):
    pass


class AtomicType(Declared):
    pass


class BigIntType(Declared):
    pass


class BinaryType(Declared):
    pass


class BooleanType(Declared):
    pass


class CharType(Declared):
    pass


class DataType(Declared):
    pass


class DataTypes(Declared):
    pass


class DateType(Declared):
    pass


class DayTimeIntervalType(Declared):
    pass


class DecimalType(Declared):
    pass


class DoubleType(Declared):
    pass


class FloatType(Declared):
    pass


class FractionalType(Declared):
    pass


class IntType(Declared):
    pass


class IntegralType(Declared):
    pass


class ListViewType(Declared):
    pass


class LocalZonedTimestampType(Declared):
    pass


class MapType(Declared):
    pass


class MapViewType(Declared):
    pass


class MultisetType(Declared):
    pass


class NullType(Declared):
    pass


class NumericType(Declared):
    pass


class RawType(Declared):
    pass


class Resolution(Declared):
    pass


class RowField(Declared):
    pass


class RowType(Declared):
    pass


class SmallIntType(Declared):
    pass


class TimeType(Declared):
    pass


class TimestampType(Declared):
    pass


class TinyIntType(Declared):
    pass


class UserDefinedType(Declared):
    pass


class VarBinaryType(Declared):
    pass


class VarCharType(Declared):
    pass


class YearMonthIntervalType(Declared):
    pass


class ZonedTimestampType(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
