"""How Flink writes SQL values as text: in a print sink's rows and in a tableau result.

A print sink prints Flink's ``Row.toString()`` of each record (``+I[a, 1]``: Java's text of each
field); ``TableResult.print()`` prints each field cast to STRING, as Flink's SQL client does.
Both are given the Python values a Spark ``Row`` holds.
"""

from __future__ import annotations

import datetime
import decimal
import math
import struct
from typing import Any, Optional, Sequence

__all__ = ["flink_type_name", "java_double_text", "java_float_text", "instant_text", "print_text",
           "row_text", "tableau_text"]


def java_double_text(value: float) -> str:
    """``Double.toString(value)`` of Java: ``1.0``, ``1.5E10``, ``1.0E-4``, ``NaN``, ``Infinity``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        text = format(value, "f") if "e" in repr(value) else repr(value)
        return text if "." in text else text + ".0"
    # Python's repr is the shortest text that reads back as ``value``, as Java's is.
    sign, digits, exponent = decimal.Decimal(repr(value)).normalize().as_tuple()
    text = "".join(str(d) for d in digits)
    scale = int(exponent) + len(text) - 1
    mantissa = text[0] + "." + (text[1:] or "0")
    return "{}{}E{}".format("-" if sign else "", mantissa, scale)


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def java_float_text(value: float) -> str:
    """``Float.toString(value)`` of Java: the shortest decimal that reads back as the same 32-bit
    float (``13.1``, ``86.399994``), written as Java writes a double."""
    if math.isnan(value) or math.isinf(value) or value == 0:
        return java_double_text(value)
    single = _float32(value)
    for digits in range(1, 10):
        text = "{:.{}g}".format(single, digits)
        if _float32(float(text)) == single:
            return java_double_text(float(text))
    return java_double_text(single)


def instant_text(value: datetime.datetime) -> str:
    """``Instant.toString()`` of Java: the UTC date-time, seconds always, then ``Z``."""
    if value.tzinfo is None:  # Spark gives a TIMESTAMP_LTZ as the driver's local date-time
        value = value.astimezone()
    value = value.astimezone(datetime.timezone.utc)
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    micros = value.microsecond
    if micros:
        text += ".%03d" % (micros // 1000) if micros % 1000 == 0 else ".%06d" % micros
    return text + "Z"


def _time_text(value: datetime.time) -> str:
    text = value.strftime("%H:%M")
    if value.second or value.microsecond:
        text += ":%02d" % value.second
    if value.microsecond:
        # Java prints the fraction in groups of three digits: millis, then micros
        micros = value.microsecond
        text += ".%03d" % (micros // 1000) if micros % 1000 == 0 else ".%06d" % micros
    return text


def print_text(value: Any, spark_type: Optional[str] = None) -> str:
    """Java's text of one field as a print sink shows it (``LocalDateTime.toString()``...);
    ``spark_type``, the name of the column's Spark type, tells a ``FLOAT`` (``FloatType``) and a
    ``TIMESTAMP_LTZ`` (``TimestampType``, an ``Instant`` in Flink) from the Python values alike."""
    if value is None:
        return "null"
    if spark_type == "FloatType" and isinstance(value, float):
        return java_float_text(value)
    if spark_type == "TimestampType" and isinstance(value, datetime.datetime):
        return instant_text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double_text(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() + "T" + _time_text(value.time())
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return _time_text(value)
    if isinstance(value, (bytes, bytearray)):
        return "[" + ", ".join(str(b if b < 128 else b - 256) for b in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(print_text(k) + "=" + print_text(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)) and not hasattr(value, "__fields__"):
        return "[" + ", ".join(print_text(v) for v in value) + "]"
    if hasattr(value, "__fields__"):  # a nested row
        return "(" + ",".join(print_text(v) for v in value) + ")"
    return str(value)


def row_text(kind: str, values: Sequence[Any], spark_types: Sequence[Optional[str]] = ()) -> str:
    """A record as Flink's ``Row.toString()``: ``+I[a, 1]`` (``spark_types``: the names of the
    columns' Spark types, see :func:`print_text`)."""
    kinds = list(spark_types) + [None] * (len(values) - len(spark_types))
    return "{}[{}]".format(kind, ", ".join(print_text(v, k) for v, k in zip(values, kinds)))


def timestamp_text(value: datetime.datetime, precision: int) -> str:
    """A ``TIMESTAMP(precision)`` value as Flink casts it to text: ``precision`` fraction
    digits, always."""
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    if precision > 0:
        text += "." + ("%06d" % value.microsecond + "000")[:precision]
    return text


def tableau_text(value: Any) -> str:
    """One field as ``TableResult.print()`` shows it: cast to STRING, ``<NULL>`` for null."""
    if value is None:
        return "<NULL>"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        if value.microsecond:
            text += "." + ("%06d" % value.microsecond)[:3]
        return text
    if isinstance(value, (list, tuple)) and not hasattr(value, "__fields__"):
        return "[" + ", ".join(tableau_text(v) if v is not None else "NULL" for v in value) + "]"
    if hasattr(value, "__fields__"):
        return "(" + ", ".join(tableau_text(v) if v is not None else "NULL" for v in value) + ")"
    return print_text(value)


_FLINK_TYPE_NAMES = {"ByteType": "TINYINT", "ShortType": "SMALLINT", "IntegerType": "INT",
                     "LongType": "BIGINT", "FloatType": "FLOAT", "DoubleType": "DOUBLE",
                     "StringType": "STRING", "BooleanType": "BOOLEAN", "DateType": "DATE",
                     "BinaryType": "BYTES", "TimestampNTZType": "TIMESTAMP(6)",
                     "TimestampType": "TIMESTAMP_LTZ(6)"}


def flink_type_name(data_type: Any) -> str:
    """The Flink SQL name of a Spark type, as Flink writes it in a schema (``BIGINT``)."""
    kind = type(data_type).__name__
    if kind == "DecimalType":
        return "DECIMAL({}, {})".format(data_type.precision, data_type.scale)
    if kind == "ArrayType":
        return "ARRAY<{}>".format(flink_type_name(data_type.elementType))
    if kind == "MapType":
        return "MAP<{}, {}>".format(flink_type_name(data_type.keyType), flink_type_name(data_type.valueType))
    if kind == "StructType":
        return "ROW<{}>".format(", ".join("`{}` {}".format(f.name, flink_type_name(f.dataType))
                                          for f in data_type.fields))
    return _FLINK_TYPE_NAMES.get(kind, data_type.simpleString().upper())
