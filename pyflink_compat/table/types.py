"""The data types of the Table API: :class:`DataTypes` and the :class:`DataType` classes.

They are PyFlink's: the same classes, names, parameters, defaults, ``repr``/``str`` and
nullability (``.not_null()`` / ``.nullable()`` return a copy). A type is a plain description;
:mod:`pyflink_compat.sql.data_types` maps it onto the Flink SQL types the SQL runtime works with
(their text, ``INT NOT NULL``, and their Spark types). Importing this module imports nothing
beyond the standard library.
"""
import datetime
from copy import copy
from enum import Enum
from typing import Any, Iterator, List, Optional, Union

from pyflink_compat.common.types import Row, RowKind, _create_row
from pyflink_compat.missing.declared import declared_function

__all__ = ['DataTypes', 'UserDefinedType', 'Row', 'RowKind']

create_arrow_schema = declared_function(__name__, 'create_arrow_schema')
from_arrow_type = declared_function(__name__, 'from_arrow_type')
to_arrow_type = declared_function(__name__, 'to_arrow_type')

_EPOCH_DAY = datetime.date(1970, 1, 1).toordinal()
_MAX_LENGTH = 0x7fffffff


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


class DataType(object):
    """The type of a value in a table: a logical type and whether it admits ``None``.

    Two types are equal when they are of the same class with the same parameters and
    nullability; ``str()`` gives the type's family name (``INT``), ``repr()`` its parameters.

    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, nullable: bool = True):
        self._nullable = nullable
        self._conversion_cls = ''

    def __repr__(self) -> str:
        return '{}({})'.format(type(self).__name__, _bool_text(self._nullable))

    def __str__(self, *args: Any, **kwargs: Any) -> str:
        return type(self).type_name()

    def __hash__(self) -> int:
        return hash(str(self))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and vars(self) == vars(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def not_null(self) -> 'DataType':
        """A copy of this type that does not admit ``None``."""
        result = copy(self)
        result._nullable = False
        return result

    def nullable(self) -> 'DataType':
        """A copy of this type that admits ``None``."""
        result = copy(self)
        result._nullable = True
        return result

    @classmethod
    def type_name(cls) -> str:
        """The family name: the class name without ``Type``, upper case."""
        return cls.__name__[:-len("Type")].upper()

    def bridged_to(self, conversion_cls: str) -> 'DataType':
        """Record the class values should have when they enter or leave a table (a hint only).

        :param conversion_cls: The name of the class.
        :return: This type.
        """
        self._conversion_cls = conversion_cls
        return self

    def need_conversion(self) -> bool:
        """Whether a Python value of this type has another internal form."""
        return False

    def to_sql_type(self, obj: Any) -> Any:
        """The internal form of the Python value ``obj``."""
        return obj

    def from_sql_type(self, obj: Any) -> Any:
        """The Python value of the internal form ``obj``."""
        return obj


class AtomicType(DataType):
    """A type that is neither an array, a map nor a row."""

    def __init__(self, nullable: bool = True):
        super(AtomicType, self).__init__(nullable)


class NullType(AtomicType):
    """The type of the untyped ``NULL`` (it admits nothing else)."""

    def __init__(self) -> None:
        super(NullType, self).__init__(True)


class NumericType(AtomicType):
    """A number type."""

    def __init__(self, nullable: bool = True):
        super(NumericType, self).__init__(nullable)


class IntegralType(NumericType):
    """An integer type."""

    def __init__(self, nullable: bool = True):
        super(IntegralType, self).__init__(nullable)


class FractionalType(NumericType):
    """A number type with a fraction."""

    def __init__(self, nullable: bool = True):
        super(FractionalType, self).__init__(nullable)


class _LengthType(AtomicType):
    """A character or binary type of a given length (``repr`` shows it)."""

    def __init__(self, length: int = 1, nullable: bool = True):
        super(_LengthType, self).__init__(nullable)
        self.length = length

    def __repr__(self) -> str:
        return "{}({}, {})".format(type(self).__name__, self.length, _bool_text(self._nullable))


class CharType(_LengthType):
    """Strings of exactly ``length`` characters (``CHAR(n)``).

    :param length: The length, at least 1.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, length: int = 1, nullable: bool = True):
        super(CharType, self).__init__(length, nullable)


class VarCharType(_LengthType):
    """Strings of at most ``length`` characters (``VARCHAR(n)``; ``STRING`` at the maximum).

    :param length: The largest length, at least 1.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, length: int = 1, nullable: bool = True):
        super(VarCharType, self).__init__(length, nullable)


class BinaryType(_LengthType):
    """Byte strings of exactly ``length`` bytes (``BINARY(n)``).

    :param length: The length, at least 1.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, length: int = 1, nullable: bool = True):
        super(BinaryType, self).__init__(length, nullable)


class VarBinaryType(_LengthType):
    """Byte strings of at most ``length`` bytes (``VARBINARY(n)``; ``BYTES`` at the maximum).

    :param length: The largest length, at least 1.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, length: int = 1, nullable: bool = True):
        super(VarBinaryType, self).__init__(length, nullable)


class BooleanType(AtomicType):
    """``BOOLEAN``."""

    def __init__(self, nullable: bool = True):
        super(BooleanType, self).__init__(nullable)


class TinyIntType(IntegralType):
    """``TINYINT``: 1-byte signed integers."""

    def __init__(self, nullable: bool = True):
        super(TinyIntType, self).__init__(nullable)


class SmallIntType(IntegralType):
    """``SMALLINT``: 2-byte signed integers."""

    def __init__(self, nullable: bool = True):
        super(SmallIntType, self).__init__(nullable)


class IntType(IntegralType):
    """``INT``: 4-byte signed integers."""

    def __init__(self, nullable: bool = True):
        super(IntType, self).__init__(nullable)


class BigIntType(IntegralType):
    """``BIGINT``: 8-byte signed integers."""

    def __init__(self, nullable: bool = True):
        super(BigIntType, self).__init__(nullable)


class FloatType(FractionalType):
    """``FLOAT``: 4-byte floating point numbers."""

    def __init__(self, nullable: bool = True):
        super(FloatType, self).__init__(nullable)


class DoubleType(FractionalType):
    """``DOUBLE``: 8-byte floating point numbers."""

    def __init__(self, nullable: bool = True):
        super(DoubleType, self).__init__(nullable)


class DecimalType(FractionalType):
    """``DECIMAL(precision, scale)``: exact numbers of ``precision`` digits, ``scale`` of them
    after the point.

    :param precision: 1 to 38.
    :param scale: 0 to ``precision``.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, precision: int = 10, scale: int = 0, nullable: bool = True):
        super(DecimalType, self).__init__(nullable)
        assert 1 <= precision <= 38
        assert 0 <= scale <= precision
        self.precision = precision
        self.scale = scale
        self.has_precision_info = True

    def __repr__(self) -> str:
        return "DecimalType({}, {}, {})".format(self.precision, self.scale,
                                                _bool_text(self._nullable))


class DateType(AtomicType):
    """``DATE``: a day; held internally as days since 1970-01-01."""

    EPOCH_ORDINAL = _EPOCH_DAY

    def __init__(self, nullable: bool = True):
        super(DateType, self).__init__(nullable)

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, d: Any) -> Any:
        return None if d is None else d.toordinal() - _EPOCH_DAY

    def from_sql_type(self, v: Any) -> Any:
        return None if v is None else datetime.date.fromordinal(v + _EPOCH_DAY)


class _PrecisionType(AtomicType):
    """A time type with a fractional-second precision (``repr`` shows it)."""

    def __init__(self, precision: int, nullable: bool = True):
        super(_PrecisionType, self).__init__(nullable)
        assert 0 <= precision <= 9
        self.precision = precision

    def __repr__(self) -> str:
        return "{}({}, {})".format(type(self).__name__, self.precision, _bool_text(self._nullable))

    def need_conversion(self) -> bool:
        return True


class TimeType(_PrecisionType):
    """``TIME(p)``: a time of day; held internally as microseconds since midnight.

    :param precision: Digits of fractional seconds, 0 to 9.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, precision: int = 0, nullable: bool = True):
        super(TimeType, self).__init__(precision, nullable)

    def to_sql_type(self, t: Any) -> Any:
        if t is None:
            return None
        return ((t.hour * 60 + t.minute) * 60 + t.second) * 10 ** 6 + t.microsecond

    def from_sql_type(self, t: Any) -> Any:
        if t is None:
            return None
        seconds, micros = divmod(t, 10 ** 6)
        minutes, second = divmod(seconds, 60)
        return datetime.time(minutes // 60, minutes % 60, second, micros)


class TimestampType(_PrecisionType):
    """``TIMESTAMP(p)``: a date and time without time zone.

    :param precision: Digits of fractional seconds, 0 to 9.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, precision: int = 6, nullable: bool = True):
        super(TimestampType, self).__init__(precision, nullable)


class LocalZonedTimestampType(_PrecisionType):
    """``TIMESTAMP_LTZ(p)`` (``TIMESTAMP(p) WITH LOCAL TIME ZONE``): an instant, shown in the
    session time zone.

    :param precision: Digits of fractional seconds, 0 to 9.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, precision: int = 6, nullable: bool = True):
        super(LocalZonedTimestampType, self).__init__(precision, nullable)


class ZonedTimestampType(_PrecisionType):
    """``TIMESTAMP(p) WITH TIME ZONE``: a date and time with its zone offset.

    :param precision: Digits of fractional seconds, 0 to 9.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, precision: int = 6, nullable: bool = True):
        super(ZonedTimestampType, self).__init__(precision, nullable)


class Resolution(object):
    """The unit (and precision) of one end of an interval type.

    :param unit: A :class:`Resolution.IntervalUnit`.
    :param precision: Digits of years or days, or of fractional seconds; -1 when none.
    """

    class IntervalUnit(Enum):
        """The units of intervals."""
        SECOND = 0
        MINUTE = 1
        HOUR = 2
        DAY = 3
        MONTH = 4
        YEAR = 5

    def __init__(self, unit: 'Resolution.IntervalUnit', precision: int = -1):
        self._unit = unit
        self._precision = precision

    @property
    def unit(self) -> 'Resolution.IntervalUnit':
        """The unit."""
        return self._unit

    @property
    def precision(self) -> int:
        """The precision (-1 when none)."""
        return self._precision

    def __str__(self) -> str:
        return '{}({})'.format(self._unit, self._precision)


class YearMonthIntervalType(AtomicType):
    """``INTERVAL YEAR``, ``INTERVAL YEAR TO MONTH`` or ``INTERVAL MONTH``.

    :param resolution: A :class:`YearMonthIntervalType.YearMonthResolution` value.
    :param precision: Digits of years, 1 to 4.
    :param nullable: Whether the value may be ``None``.
    """

    class YearMonthResolution(object):
        """The resolutions of year-month intervals."""
        YEAR = 1
        MONTH = 2
        YEAR_TO_MONTH = 3

    DEFAULT_PRECISION = 2

    def __init__(self, resolution: int, precision: int = DEFAULT_PRECISION, nullable: bool = True):
        assert resolution in (1, 2, 3)
        assert resolution != self.YearMonthResolution.MONTH or precision == self.DEFAULT_PRECISION
        assert 1 <= precision <= 4
        self._resolution = resolution
        self._precision = precision
        super(YearMonthIntervalType, self).__init__(nullable)

    @property
    def resolution(self) -> int:
        """The resolution."""
        return self._resolution

    @property
    def precision(self) -> int:
        """Digits of years."""
        return self._precision


class DayTimeIntervalType(AtomicType):
    """A day-time interval, from ``INTERVAL DAY`` to ``INTERVAL SECOND(p)``; held internally as
    microseconds.

    :param resolution: A :class:`DayTimeIntervalType.DayTimeResolution`.
    :param day_precision: Digits of days, 1 to 6.
    :param fractional_precision: Digits of fractional seconds, 0 to 9.
    :param nullable: Whether the value may be ``None``.
    """

    class DayTimeResolution(Enum):
        """The resolutions of day-time intervals."""
        DAY = 1
        DAY_TO_HOUR = 2
        DAY_TO_MINUTE = 3
        DAY_TO_SECOND = 4
        HOUR = 5
        HOUR_TO_MINUTE = 6
        HOUR_TO_SECOND = 7
        MINUTE = 8
        MINUTE_TO_SECOND = 9
        SECOND = 10

    DEFAULT_DAY_PRECISION = 2
    DEFAULT_FRACTIONAL_PRECISION = 6

    def __init__(self, resolution: 'DayTimeIntervalType.DayTimeResolution',
                 day_precision: int = DEFAULT_DAY_PRECISION,
                 fractional_precision: int = DEFAULT_FRACTIONAL_PRECISION, nullable: bool = True):
        assert isinstance(resolution, DayTimeIntervalType.DayTimeResolution)
        assert not self._needs_default_day_precision(resolution) \
            or day_precision == self.DEFAULT_DAY_PRECISION
        assert not self._needs_default_fractional_precision(resolution) \
            or fractional_precision == self.DEFAULT_FRACTIONAL_PRECISION
        assert 1 <= day_precision <= 6
        assert 0 <= fractional_precision <= 9
        self._resolution = resolution
        self._day_precision = day_precision
        self._fractional_precision = fractional_precision
        super(DayTimeIntervalType, self).__init__(nullable)

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, timedelta: Any) -> Any:
        if timedelta is None:
            return None
        return (timedelta.days * 86400 + timedelta.seconds) * 10 ** 6 + timedelta.microseconds

    def from_sql_type(self, ts: Any) -> Any:
        return None if ts is None else datetime.timedelta(microseconds=ts)

    @property
    def resolution(self) -> 'DayTimeIntervalType.DayTimeResolution':
        """The resolution."""
        return self._resolution

    @property
    def day_precision(self) -> int:
        """Digits of days."""
        return self._day_precision

    @property
    def fractional_precision(self) -> int:
        """Digits of fractional seconds."""
        return self._fractional_precision

    @staticmethod
    def _needs_default_day_precision(resolution: 'DayTimeIntervalType.DayTimeResolution') -> bool:
        # the resolutions that do not start with days have no day precision of their own
        return resolution.value >= DayTimeIntervalType.DayTimeResolution.HOUR.value

    @staticmethod
    def _needs_default_fractional_precision(
            resolution: 'DayTimeIntervalType.DayTimeResolution') -> bool:
        # the resolutions that do not end with seconds have no fractional precision
        return not resolution.name.endswith("SECOND")


def _from_resolution(upper: Resolution, lower: Optional[Resolution] = None) -> DataType:
    """The interval type from ``upper`` to ``lower``."""
    units = Resolution.IntervalUnit
    day_time = DayTimeIntervalType.DayTimeResolution
    year_month = YearMonthIntervalType.YearMonthResolution
    key = (upper.unit, None if lower is None else lower.unit)
    fraction = -1 if lower is None else lower.precision
    if key == (units.YEAR, None):
        return YearMonthIntervalType(year_month.YEAR, upper.precision)
    if key == (units.MONTH, None):
        return YearMonthIntervalType(year_month.MONTH)
    if key == (units.YEAR, units.MONTH):
        return YearMonthIntervalType(year_month.YEAR_TO_MONTH)
    if key == (units.SECOND, None):
        return DayTimeIntervalType(day_time.SECOND, DayTimeIntervalType.DEFAULT_DAY_PRECISION,
                                   upper.precision)
    names = {units.DAY: "DAY", units.HOUR: "HOUR", units.MINUTE: "MINUTE", units.SECOND: "SECOND"}
    name = names.get(upper.unit, "") + ("" if lower is None else "_TO_" + names.get(lower.unit, ""))
    if name not in DayTimeIntervalType.DayTimeResolution.__members__:
        # no such interval: the pair is no key of the known resolutions
        raise KeyError(key)
    resolution = day_time[name]
    day_precision = upper.precision if upper.unit == units.DAY \
        else DayTimeIntervalType.DEFAULT_DAY_PRECISION
    fractional = fraction if name.endswith("_TO_SECOND") \
        else DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION
    return DayTimeIntervalType(resolution, day_precision, fractional)


class ArrayType(DataType):
    """``ARRAY<element_type>``.

    :param element_type: The :class:`DataType` of the elements.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, element_type: DataType, nullable: bool = True):
        assert isinstance(element_type, DataType), \
            "element_type {} should be an instance of {}".format(element_type, DataType)
        super(ArrayType, self).__init__(nullable)
        self.element_type = element_type

    def __repr__(self) -> str:
        return "ArrayType({!r}, {})".format(self.element_type, _bool_text(self._nullable))

    def need_conversion(self) -> bool:
        return self.element_type.need_conversion()

    def to_sql_type(self, obj: Any) -> Any:
        if not self.need_conversion() or not obj:
            return obj
        return [self.element_type.to_sql_type(v) for v in obj]

    def from_sql_type(self, obj: Any) -> Any:
        if not self.need_conversion() or not obj:
            return obj
        return [self.element_type.from_sql_type(v) for v in obj]


class ListViewType(DataType):
    """The type of a :class:`~pyflink_compat.table.ListView` in an aggregate's accumulator.

    :param element_type: The :class:`DataType` of the elements.
    """

    def __init__(self, element_type: DataType):
        assert isinstance(element_type, DataType), \
            "element_type {} should be an instance of {}".format(element_type, DataType)
        super(ListViewType, self).__init__(False)
        self._element_type = element_type

    def __repr__(self) -> str:
        return "ListViewType({!r})".format(self._element_type)


class MapType(DataType):
    """``MAP<key_type, value_type>``.

    :param key_type: The :class:`DataType` of the keys.
    :param value_type: The :class:`DataType` of the values.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, key_type: DataType, value_type: DataType, nullable: bool = True):
        assert isinstance(key_type, DataType), \
            "key_type {} should be an instance of {}".format(key_type, DataType)
        assert isinstance(value_type, DataType), \
            "value_type {} should be an instance of {}".format(value_type, DataType)
        super(MapType, self).__init__(nullable)
        self.key_type = key_type
        self.value_type = value_type

    def __repr__(self) -> str:
        return "MapType({!r}, {!r}, {})".format(self.key_type, self.value_type,
                                                 _bool_text(self._nullable))

    def need_conversion(self) -> bool:
        return self.key_type.need_conversion() or self.value_type.need_conversion()

    def to_sql_type(self, obj: Any) -> Any:
        if not self.need_conversion() or not obj:
            return obj
        return {self.key_type.to_sql_type(k): self.value_type.to_sql_type(v) for k, v in obj.items()}

    def from_sql_type(self, obj: Any) -> Any:
        if not self.need_conversion() or not obj:
            return obj
        return {self.key_type.from_sql_type(k): self.value_type.from_sql_type(v)
                for k, v in obj.items()}


class MapViewType(DataType):
    """The type of a :class:`~pyflink_compat.table.MapView` in an aggregate's accumulator.

    :param key_type: The :class:`DataType` of the keys.
    :param value_type: The :class:`DataType` of the values.
    """

    def __init__(self, key_type: DataType, value_type: DataType):
        assert isinstance(key_type, DataType), \
            "key_type {} should be an instance of {}".format(key_type, DataType)
        assert isinstance(value_type, DataType), \
            "value_type {} should be an instance of {}".format(value_type, DataType)
        super(MapViewType, self).__init__(False)
        self._key_type = key_type
        self._value_type = value_type

    def __repr__(self) -> str:
        return "MapViewType({!r}, {!r})".format(self._key_type, self._value_type)


class MultisetType(DataType):
    """``MULTISET<element_type>``: a bag of elements.

    :param element_type: The :class:`DataType` of the elements.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, element_type: DataType, nullable: bool = True):
        assert isinstance(element_type, DataType), \
            "element_type {} should be an instance of {}".format(element_type, DataType)
        super(MultisetType, self).__init__(nullable)
        self.element_type = element_type

    def __repr__(self) -> str:
        return "MultisetType({!r}, {})".format(self.element_type, _bool_text(self._nullable))

    def need_conversion(self) -> bool:
        return self.element_type.need_conversion()


class RowField(object):
    """One named field of a :class:`RowType`.

    :param name: The field name.
    :param data_type: Its :class:`DataType`.
    :param description: A description, or ``None``.
    """

    def __init__(self, name: str, data_type: DataType, description: Optional[str] = None):
        assert isinstance(data_type, DataType), \
            "data_type {} should be an instance of {}".format(data_type, DataType)
        assert isinstance(name, str), "field name {} should be string".format(name)
        if description is not None:
            assert isinstance(description, str), \
                "description {} should be string".format(description)
        self.name = name
        self.data_type = data_type
        self.description = '...' if description is None else description

    def __repr__(self) -> str:
        return "RowField({}, {!r}, {})".format(self.name, self.data_type, self.description)

    def __str__(self, *args: Any, **kwargs: Any) -> str:
        return "RowField({}, {})".format(self.name, self.data_type)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((self.name, str(self.data_type)))

    def need_conversion(self) -> bool:
        return self.data_type.need_conversion()

    def to_sql_type(self, obj: Any) -> Any:
        return self.data_type.to_sql_type(obj)

    def from_sql_type(self, obj: Any) -> Any:
        return self.data_type.from_sql_type(obj)


class RowType(DataType):
    """``ROW<name type, ...>``: a sequence of named fields.

    Iterating gives its :class:`RowField` s; ``row_type["name"]`` or ``row_type[0]`` one of them.

    :param fields: The :class:`RowField` s.
    :param nullable: Whether the value may be ``None``.
    """

    def __init__(self, fields: Optional[List[RowField]] = None, nullable: bool = True):
        super(RowType, self).__init__(nullable)
        if not fields:
            self.fields: List[RowField] = []
            self.names: List[str] = []
        else:
            self.fields = fields
            self.names = [f.name for f in fields]
            assert all(isinstance(f, RowField) for f in fields), \
                "fields should be a list of RowField"
        self._refresh()

    def _refresh(self) -> None:
        self._need_conversion = [f.need_conversion() for f in self.fields]
        self._need_serialize_any_field = any(self._need_conversion)

    def add(self, field: Union[str, RowField], data_type: Optional[DataType] = None) -> 'RowType':
        """Append a field: a :class:`RowField`, or a name and its :class:`DataType`.

        :return: This row type.
        """
        if isinstance(field, RowField):
            self.fields.append(field)
            self.names.append(field.name)
        else:
            if isinstance(field, str) and data_type is None:
                raise ValueError("Must specify DataType if passing name of row_field to create.")
            assert data_type is not None
            self.fields.append(RowField(field, data_type))
            self.names.append(field)
        self._refresh()
        return self

    def __iter__(self) -> Iterator[RowField]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            for field in self.fields:
                if field.name == key:
                    return field
            raise KeyError('No RowField named {0}'.format(key))
        if isinstance(key, int):
            try:
                return self.fields[key]
            except IndexError:
                raise IndexError('RowType index out of range') from None
        if isinstance(key, slice):
            return RowType(self.fields[key])
        raise TypeError('RowType keys should be strings, integers or slices')

    def __repr__(self) -> str:
        return "RowType({})".format(",".join(repr(field) for field in self.fields))

    def field_names(self) -> List[str]:
        """The field names, in order."""
        return list(self.names)

    def field_types(self) -> List[DataType]:
        """The field types, in order."""
        return [f.data_type for f in self.fields]

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, obj: Any) -> Any:
        if obj is None:
            return None
        if isinstance(obj, dict):
            values = [obj.get(n) for n in self.names]
        else:
            values = list(obj)
        return tuple(f.to_sql_type(v) for f, v in zip(self.fields, values))

    def from_sql_type(self, obj: Any) -> Any:
        if obj is None:
            return None
        return _create_row(self.names, [f.from_sql_type(v) for f, v in zip(self.fields, obj)])


class RawType(DataType):
    """An arbitrary Python object, pickled."""

    def from_sql_type(self, obj: Any) -> Any:
        import pickle

        return pickle.loads(obj)


class UserDefinedType(DataType):
    """A type defined by the user over a SQL type (``sql_type``), converting its values with
    ``serialize`` / ``deserialize``.
    """

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__.lower()

    @classmethod
    def sql_type(cls) -> DataType:
        """The SQL type holding the serialized values."""
        raise NotImplementedError("UDT must implement sql_type().")

    @classmethod
    def module(cls) -> str:
        """The module that defines the type."""
        raise NotImplementedError("UDT must implement module().")

    @classmethod
    def java_udt(cls) -> str:
        """The class name of a JVM counterpart, or ``''``."""
        return ''

    def need_conversion(self) -> bool:
        return True

    def to_sql_type(self, obj: Any) -> Any:
        return None if obj is None else self.sql_type().to_sql_type(self.serialize(obj))

    def from_sql_type(self, obj: Any) -> Any:
        return None if obj is None else self.deserialize(self.sql_type().from_sql_type(obj))

    def serialize(self, obj: Any) -> Any:
        """The SQL value of the user's object ``obj``."""
        raise NotImplementedError("UDT must implement serialize().")

    def deserialize(self, datum: Any) -> Any:
        """The user's object of the SQL value ``datum``."""
        raise NotImplementedError("UDT must implement deserialize().")


class DataTypes(object):
    """The factory of :class:`DataType` s, one method per Flink SQL type
    (``DataTypes.INT()``, ``DataTypes.ROW([DataTypes.FIELD("a", DataTypes.STRING())])``).
    """

    @staticmethod
    def NULL() -> NullType:
        """The type of the untyped ``NULL``."""
        return NullType()

    @staticmethod
    def CHAR(length: int, nullable: bool = True) -> CharType:
        """``CHAR(length)``."""
        return CharType(length, nullable)

    @staticmethod
    def VARCHAR(length: int, nullable: bool = True) -> VarCharType:
        """``VARCHAR(length)``."""
        return VarCharType(length, nullable)

    @staticmethod
    def STRING(nullable: bool = True) -> VarCharType:
        """``STRING``: ``VARCHAR`` of the largest length."""
        return DataTypes.VARCHAR(_MAX_LENGTH, nullable)

    @staticmethod
    def BOOLEAN(nullable: bool = True) -> BooleanType:
        """``BOOLEAN``."""
        return BooleanType(nullable)

    @staticmethod
    def BINARY(length: int, nullable: bool = True) -> BinaryType:
        """``BINARY(length)``."""
        return BinaryType(length, nullable)

    @staticmethod
    def VARBINARY(length: int, nullable: bool = True) -> VarBinaryType:
        """``VARBINARY(length)``."""
        return VarBinaryType(length, nullable)

    @staticmethod
    def BYTES(nullable: bool = True) -> VarBinaryType:
        """``BYTES``: ``VARBINARY`` of the largest length."""
        return DataTypes.VARBINARY(_MAX_LENGTH, nullable)

    @staticmethod
    def DECIMAL(precision: int, scale: int, nullable: bool = True) -> DecimalType:
        """``DECIMAL(precision, scale)``."""
        return DecimalType(precision, scale, nullable)

    @staticmethod
    def TINYINT(nullable: bool = True) -> TinyIntType:
        """``TINYINT``."""
        return TinyIntType(nullable)

    @staticmethod
    def SMALLINT(nullable: bool = True) -> SmallIntType:
        """``SMALLINT``."""
        return SmallIntType(nullable)

    @staticmethod
    def INT(nullable: bool = True) -> IntType:
        """``INT``."""
        return IntType(nullable)

    @staticmethod
    def BIGINT(nullable: bool = True) -> BigIntType:
        """``BIGINT``."""
        return BigIntType(nullable)

    @staticmethod
    def FLOAT(nullable: bool = True) -> FloatType:
        """``FLOAT``."""
        return FloatType(nullable)

    @staticmethod
    def DOUBLE(nullable: bool = True) -> DoubleType:
        """``DOUBLE``."""
        return DoubleType(nullable)

    @staticmethod
    def DATE(nullable: bool = True) -> DateType:
        """``DATE``."""
        return DateType(nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> TimeType:
        """``TIME(precision)``."""
        return TimeType(precision, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> TimestampType:
        """``TIMESTAMP(precision)``, without time zone."""
        return TimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_WITH_LOCAL_TIME_ZONE(precision: int = 6, nullable: bool = True) \
            -> LocalZonedTimestampType:
        """``TIMESTAMP(precision) WITH LOCAL TIME ZONE``, the same as :meth:`TIMESTAMP_LTZ`."""
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        """``TIMESTAMP_LTZ(precision)``."""
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> ArrayType:
        """``ARRAY<element_type>``."""
        return ArrayType(element_type, nullable)

    @staticmethod
    def LIST_VIEW(element_type: DataType) -> ListViewType:
        """The type of a ``ListView`` in an accumulator."""
        return ListViewType(element_type)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> MapType:
        """``MAP<key_type, value_type>``."""
        return MapType(key_type, value_type, nullable)

    @staticmethod
    def MAP_VIEW(key_type: DataType, value_type: DataType) -> MapViewType:
        """The type of a ``MapView`` in an accumulator."""
        return MapViewType(key_type, value_type)

    @staticmethod
    def MULTISET(element_type: DataType, nullable: bool = True) -> MultisetType:
        """``MULTISET<element_type>``."""
        return MultisetType(element_type, nullable)

    @staticmethod
    def ROW(row_fields: List = [], nullable: bool = True) -> RowType:  # noqa: B006
        """``ROW<...>`` of the :class:`RowField` s ``row_fields`` (made with :meth:`FIELD`)."""
        return RowType(row_fields, nullable)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: Optional[str] = None) -> RowField:
        """A field of a :meth:`ROW`."""
        return RowField(name, data_type, description)

    @staticmethod
    def SECOND(precision: int = DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION) -> Resolution:
        """Seconds with ``precision`` fractional digits, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.SECOND, precision)

    @staticmethod
    def MINUTE() -> Resolution:
        """Minutes, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.MINUTE)

    @staticmethod
    def HOUR() -> Resolution:
        """Hours, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.HOUR)

    @staticmethod
    def DAY(precision: int = DayTimeIntervalType.DEFAULT_DAY_PRECISION) -> Resolution:
        """Days with ``precision`` digits, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.DAY, precision)

    @staticmethod
    def MONTH() -> Resolution:
        """Months, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.MONTH)

    @staticmethod
    def YEAR(precision: int = YearMonthIntervalType.DEFAULT_PRECISION) -> Resolution:
        """Years with ``precision`` digits, an end of an :meth:`INTERVAL`."""
        return Resolution(Resolution.IntervalUnit.YEAR, precision)

    @staticmethod
    def INTERVAL(upper_resolution: Resolution, lower_resolution: Optional[Resolution] = None) \
            -> Union[DayTimeIntervalType, YearMonthIntervalType]:
        """The interval type from ``upper_resolution`` to ``lower_resolution``
        (``DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3))``)."""
        result = _from_resolution(upper_resolution, lower_resolution)
        assert isinstance(result, (DayTimeIntervalType, YearMonthIntervalType))
        return result


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
