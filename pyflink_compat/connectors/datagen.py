"""``'connector' = 'datagen'``: generated rows, with Flink's DataGen options and defaults.

* ``fields.<f>.kind`` is ``random`` (default) or ``sequence``; a sequence counts from
  ``fields.<f>.start`` to ``fields.<f>.end`` (both required), one step per row.
* ``number-of-rows`` bounds the table; without it a table with sequence fields ends after the
  shortest sequence, and a table of random fields only is unbounded (Spark's ``rate`` source at
  ``rows-per-second`` rows per second, Flink's default 10000).
* Random values are drawn as Flink's: integers uniformly between ``fields.<f>.min`` and
  ``fields.<f>.max`` (the type's range by default), floating point values between ``min`` and
  ``max`` (the type's smallest positive and largest value by default), strings of
  ``fields.<f>.length`` (default 100) random hexadecimal characters, booleans either way,
  timestamps up to ``fields.<f>.max-past`` milliseconds (default 0) before now;
  ``fields.<f>.null-rate`` (default 0.0) is the share of NULLs.

A bounded table is generated once and read as a bounded stream
(:func:`pyflink_compat.spark.bounded_sources.as_stream`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from pyflink_compat.connectors.options import OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import DataType, StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["source", "generated_columns"]

_INTEGER_RANGES = {
    "ByteType": (-128, 127),
    "ShortType": (-32768, 32767),
    "IntegerType": (-2147483648, 2147483647),
    "LongType": (-9223372036854775808, 9223372036854775807),
}
_FLOAT_RANGES = {
    "FloatType": ("1.4E-45", "3.4028235E38"),
    "DoubleType": ("4.9E-324", "1.7976931348623157E308"),
}
_FIELD_OPTIONS = ("kind", "start", "end", "min", "max", "length", "null-rate", "max-past",
                  "var-len")


def _spark_type_name(data_type: "DataType") -> str:
    return type(data_type).__name__


def _random_expression(name: str, data_type: "DataType", field: Dict[str, str], review: OptionReview,
                       seed: int) -> str:
    kind = _spark_type_name(data_type)
    sql_type = data_type.simpleString()
    if kind in _INTEGER_RANGES:
        low, high = _INTEGER_RANGES[kind]
        low = int(field.get("min", low))
        high = int(field.get("max", high))
        # decimal arithmetic keeps the whole 64-bit range exact
        return ("CAST(FLOOR(CAST(rand({s}) AS DECIMAL(20, 19)) * CAST({span} AS DECIMAL(20, 0))) "
                "+ CAST({l} AS DECIMAL(20, 0)) AS {t})".format(s=seed, span=high - low + 1, l=low, t=sql_type))
    if kind in _FLOAT_RANGES:
        low_text, high_text = _FLOAT_RANGES[kind]
        low_f = float(field.get("min", low_text))
        high_f = float(field.get("max", high_text))
        return "CAST({l!r} + rand({s}) * ({h!r} - {l!r}) AS {t})".format(
            l=low_f, h=high_f, s=seed, t=sql_type)
    if kind == "BooleanType":
        return "rand({}) < 0.5".format(seed)
    if kind in ("StringType", "VarcharType", "CharType"):
        length = int(field.get("length", "100"))
        pieces = "concat(" + ", ".join("sha2(uuid(), 256)" for _ in range(length // 64 + 1)) + ")"
        return "CAST(substring({}, 1, {}) AS STRING)".format(pieces, length)
    if kind in ("TimestampType", "TimestampNTZType"):
        max_past = int(field.get("max-past", "0"))
        return ("CAST(timestamp_millis(CAST(unix_millis(current_timestamp()) - FLOOR(rand({s}) * {m}) "
                "AS BIGINT)) AS {t})".format(s=seed, m=max_past + 1, t=sql_type))
    raise refuse("datagen", "fields.{}.kind".format(name), review.statement,
                 "Random values of type {} are not generated here; declare the field as a "
                 "sequence, or generate it with PySpark (spark.range(...).selectExpr(...))."
                 .format(sql_type))


def _sequence(name: str, data_type: "DataType", field: Dict[str, str], review: OptionReview
              ) -> Tuple[str, int]:
    if "start" not in field or "end" not in field:
        raise refuse("datagen", "fields.{}.kind".format(name), review.statement,
                     "A sequence field needs 'fields.{0}.start' and 'fields.{0}.end'.".format(name))
    start, end = int(field["start"]), int(field["end"])
    sql_type = data_type.simpleString()
    return "CAST({} + id AS {})".format(start, sql_type), end - start + 1


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType"
           ) -> Tuple["DataFrame", bool]:
    """The generated rows of ``table``, and whether they are bounded."""
    expressions, count, rows_per_second = generated_columns(table, schema)
    if count is None:
        rate = (spark.readStream.format("rate").option("rowsPerSecond", rows_per_second).load()
                .withColumnRenamed("value", "id"))
        return rate.selectExpr(*expressions), False
    from pyflink_compat.spark.bounded_sources import as_stream

    return as_stream(spark.range(0, count, 1, 1).selectExpr(*expressions)), True


def generated_columns(table: "CreateTable", schema: "StructType") -> Tuple[List[str], Optional[int], str]:
    """How ``table``'s rows are generated, without Spark: the SQL expression of each column
    over the row number ``id``, how many rows there are (None: unbounded, read from Spark's
    ``rate`` source), and the rows per second of an unbounded table.

    :raises NotSupportedError: For an option or field Spark cannot generate."""
    review = OptionReview("datagen", table.options, table.text)
    rows_text = review.take("number-of-rows")
    rows_per_second = review.take("rows-per-second", "10000")
    review.drop("scan.parallelism", "Spark chooses the partitions of a generated table")
    fields = review.take_prefixed("fields.")
    per_field: Dict[str, Dict[str, str]] = {}
    for key, value in fields.items():
        name, _, option = key.rpartition(".")
        if name not in schema.fieldNames() or option not in _FIELD_OPTIONS:
            raise refuse("datagen", "fields." + key, table.text,
                         "No such field or field option of the datagen connector.")
        per_field.setdefault(name, {})[option] = value
    review.finish()

    expressions: List[str] = []
    lengths: List[int] = []
    for seed, column in enumerate(schema.fields):
        field = per_field.get(column.name, {})
        kind = field.get("kind", "random")
        if kind == "sequence":
            expression, length = _sequence(column.name, column.dataType, field, review)
            lengths.append(length)
        elif kind == "random":
            expression = _random_expression(column.name, column.dataType, field, review, seed)
        else:
            raise refuse("datagen", "fields.{}.kind".format(column.name), table.text,
                         "The kind is 'random' or 'sequence'.")
        null_rate = float(field.get("null-rate", "0.0"))
        if null_rate > 0:
            expression = "CASE WHEN rand({}) < {} THEN NULL ELSE {} END".format(
                seed + 1000, null_rate, expression)
        expressions.append("{} AS `{}`".format(expression, column.name))

    count: Optional[int] = int(rows_text) if rows_text is not None else None
    if lengths:
        count = min(lengths + ([count] if count is not None else []))
    return expressions, count, rows_per_second or "10000"
