"""The Table API's :class:`~pyflink_compat.table.types.DataType` s as the Flink SQL types of
:mod:`pyflink_compat.sql.types`, and back.

That module holds the one model of Flink SQL types (their text, their Spark types, Flink's
result-type rules); a ``DataType`` is mapped onto it here, so ``DataTypes.INT().not_null()`` and
the DDL text ``INT NOT NULL`` are the same type everywhere (:func:`type_text` of
``DataTypes.ROW([DataTypes.FIELD("a", DataTypes.DECIMAL(10, 2))])`` is
``ROW<`a` DECIMAL(10, 2)>``).
"""

from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from sqlglot import exp

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql import types as flink_types
from pyflink_compat.table import types as dt

if TYPE_CHECKING:
    from pyspark.sql import types as spark_types

__all__ = ["to_flink_type", "from_flink_type", "type_text", "to_spark_type", "parse_data_type"]

T = exp.DataType.Type

_SIMPLE: Dict[type, Any] = {
    dt.BooleanType: T.BOOLEAN, dt.TinyIntType: T.TINYINT, dt.SmallIntType: T.SMALLINT,
    dt.IntType: T.INT, dt.BigIntType: T.BIGINT, dt.FloatType: T.FLOAT, dt.DoubleType: T.DOUBLE,
    dt.DateType: T.DATE,
}
_LENGTH: Dict[type, Any] = {
    dt.CharType: T.CHAR, dt.VarCharType: T.VARCHAR, dt.BinaryType: T.BINARY,
    dt.VarBinaryType: T.VARBINARY,
}
_PRECISION: Dict[type, Any] = {
    dt.TimeType: T.TIME, dt.TimestampType: T.TIMESTAMP, dt.LocalZonedTimestampType: T.TIMESTAMPLTZ,
    dt.ZonedTimestampType: T.TIMESTAMPTZ,
}


def _not_supported(data_type: dt.DataType) -> NotSupportedError:
    return NotSupportedError(
        "DataTypes type {!r} in a table".format(data_type),
        "Declare the column with a Flink SQL type that has a Spark type (a UDT's sql_type(), "
        "or pickle the value into BYTES), or use PySpark's types.")


def to_flink_type(data_type: dt.DataType) -> exp.DataType:
    """The Flink SQL type (see :mod:`pyflink_compat.sql.types`) described by ``data_type``.

    :raises NotSupportedError: for ``RAW``, user-defined and view types, which no column holds.
    """
    kind = type(data_type)
    nullable = data_type._nullable
    if kind in _SIMPLE:
        return flink_types.build(_SIMPLE[kind], nullable=nullable)
    if isinstance(data_type, dt.NullType):
        return flink_types.build(T.NULL)
    if isinstance(data_type, dt._LengthType):
        return flink_types.build(_LENGTH[kind], data_type.length, nullable=nullable)
    if isinstance(data_type, dt.DecimalType):
        return flink_types.build(T.DECIMAL, data_type.precision, data_type.scale, nullable=nullable)
    if isinstance(data_type, dt._PrecisionType):
        return flink_types.build(_PRECISION[kind], data_type.precision, nullable=nullable)
    if isinstance(data_type, dt.ArrayType):
        inner = flink_types.array_type(to_flink_type(data_type.element_type))
    elif isinstance(data_type, dt.MapType):
        inner = flink_types.map_type(to_flink_type(data_type.key_type),
                                     to_flink_type(data_type.value_type))
    elif isinstance(data_type, dt.MultisetType):
        inner = flink_types.multiset_type(to_flink_type(data_type.element_type))
    elif isinstance(data_type, dt.RowType):
        inner = flink_types.row_type([(f.name, to_flink_type(f.data_type)) for f in data_type])
    elif isinstance(data_type, (dt.DayTimeIntervalType, dt.YearMonthIntervalType)):
        inner = flink_types.interval_type(_qualifier(data_type))
    else:
        raise _not_supported(data_type)
    return flink_types.with_nullable(inner, nullable)


def _qualifier(data_type: Any) -> str:
    if isinstance(data_type, dt.YearMonthIntervalType):
        year = "YEAR({})".format(data_type.precision)
        resolution = dt.YearMonthIntervalType.YearMonthResolution
        return {resolution.YEAR: year, resolution.MONTH: "MONTH",
                resolution.YEAR_TO_MONTH: year + " TO MONTH"}[data_type.resolution]
    ends = data_type.resolution.name.split("_TO_")
    words = []
    for unit in ends:
        if unit == "DAY":
            words.append("DAY({})".format(data_type.day_precision))
        elif unit == "SECOND":
            words.append("SECOND({})".format(data_type.fractional_precision))
        else:
            words.append(unit)
    return " TO ".join(words)


def type_text(data_type: dt.DataType) -> str:
    """``data_type`` as Flink prints it (``INT NOT NULL``, ``ROW<`a` STRING>``)."""
    return flink_types.flink_name(to_flink_type(data_type))


def to_spark_type(data_type: dt.DataType) -> "spark_types.DataType":
    """The Spark type holding the values of ``data_type``."""
    return flink_types.to_spark(to_flink_type(data_type))


def parse_data_type(text: str) -> dt.DataType:
    """The :class:`~pyflink_compat.table.types.DataType` of the Flink type text ``text``."""
    return from_flink_type(flink_types.parse_type(text))


def _split_unit(word: str) -> Tuple[str, int]:
    name, _, rest = word.partition("(")
    return name.strip(), int(rest.rstrip(") ")) if rest else -1


def _interval(qualifier: str) -> dt.DataType:
    ends: List[Tuple[str, int]] = [_split_unit(w) for w in qualifier.split(" TO ")]
    units = dt.Resolution.IntervalUnit
    if ends[0][0] == "YEAR":
        # DataTypes.INTERVAL keeps the default year precision of YEAR TO MONTH; a type text
        # may carry another
        resolution = dt.YearMonthIntervalType.YearMonthResolution
        return dt.YearMonthIntervalType(
            resolution.YEAR if len(ends) == 1 else resolution.YEAR_TO_MONTH,
            ends[0][1] if ends[0][1] > 0 else dt.YearMonthIntervalType.DEFAULT_PRECISION)
    resolutions = []
    for name, precision in ends:
        unit = units[name]
        if precision < 0 and unit == units.SECOND:
            precision = dt.DayTimeIntervalType.DEFAULT_FRACTIONAL_PRECISION
        elif precision < 0 and unit == units.DAY:
            precision = dt.DayTimeIntervalType.DEFAULT_DAY_PRECISION
        elif precision < 0 and unit == units.YEAR:
            precision = dt.YearMonthIntervalType.DEFAULT_PRECISION
        resolutions.append(dt.Resolution(unit, precision))
    return dt._from_resolution(*resolutions)


def from_flink_type(flink_type: exp.DataType) -> dt.DataType:
    """The :class:`~pyflink_compat.table.types.DataType` of the Flink SQL type ``flink_type``."""
    kind = flink_type.this
    nullable = flink_types.is_nullable(flink_type)
    simple = {v: k for k, v in _SIMPLE.items()}
    result: dt.DataType
    if kind in simple:
        result = simple[kind](nullable)
    elif kind == T.NULL:
        return dt.NullType()
    elif kind == T.DECIMAL:
        precision, scale = flink_types.precision_scale(flink_type)
        result = dt.DecimalType(precision, scale, nullable)
    elif kind in (T.CHAR, T.NCHAR):
        result = dt.CharType(flink_types.length_of(flink_type), nullable)
    elif kind in (T.VARCHAR, T.TEXT, T.NVARCHAR):
        result = dt.VarCharType(flink_types.length_of(flink_type), nullable)
    elif kind == T.BINARY:
        result = dt.BinaryType(flink_types.length_of(flink_type), nullable)
    elif kind == T.VARBINARY:
        result = dt.VarBinaryType(flink_types.length_of(flink_type), nullable)
    elif kind in (T.TIME, T.TIMESTAMP, T.DATETIME, T.TIMESTAMPNTZ, T.TIMESTAMPLTZ, T.TIMESTAMPTZ):
        precision = _precision(flink_type, 0 if kind == T.TIME else 6)
        cls = {T.TIME: dt.TimeType, T.TIMESTAMPLTZ: dt.LocalZonedTimestampType,
               T.TIMESTAMPTZ: dt.ZonedTimestampType}.get(kind, dt.TimestampType)
        result = cls(precision, nullable)
    elif kind == T.ARRAY:
        result = dt.ArrayType(from_flink_type(flink_type.expressions[0]), nullable)
    elif kind == T.MAP:
        key, value = flink_type.expressions
        marker = flink_type.args.get("kind")
        if isinstance(marker, exp.Var) and marker.name == "MULTISET":
            result = dt.MultisetType(from_flink_type(key), nullable)
        else:
            result = dt.MapType(from_flink_type(key), from_flink_type(value), nullable)
    elif kind == T.STRUCT:
        result = dt.RowType([dt.RowField(f.name, from_flink_type(f.args["kind"]))
                             for f in flink_type.expressions], nullable)
    elif kind == T.INTERVAL:
        qualifier = flink_type.expressions[0].name if flink_type.expressions else "SECOND(3)"
        result = _interval(qualifier)
        result._nullable = nullable
    else:
        raise ValueError("No DataType for the Flink type {}".format(flink_type.sql()))
    return result


def _precision(flink_type: exp.DataType, default: int) -> int:
    params = [p for p in flink_type.expressions if isinstance(p, exp.DataTypeParam)]
    if params and isinstance(params[0].this, exp.Literal):
        return int(params[0].this.this)
    return default
