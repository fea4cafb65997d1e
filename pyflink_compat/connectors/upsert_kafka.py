"""``'connector' = 'upsert-kafka'``: a table's changes written to Kafka as Flink's upsert-kafka
sink writes them, through Spark's Kafka sink.

Each change is one Kafka record keyed by the table's ``PRIMARY KEY`` columns (required, as in
Flink), encoded in ``key.format``: ``+I`` and ``+U`` write the row, encoded in ``value.format``
(every column, or those outside the key with ``'value.fields-include' = 'EXCEPT_KEY'``); ``-D``
writes a tombstone (the key with a NULL value); ``-U`` writes nothing, since the ``+U`` that
follows replaces the key's value. ``key.fields-prefix`` is taken off the key columns' names in
the key. The servers, topic and client properties map as for ``kafka`` (see
:mod:`pyflink_compat.connectors.kafka`); the buffer options are dropped with a warning, since a
micro-batch is written at once (Flink's buffer keeps the last change of a key, which a reader of
the compacted topic sees the same).

Reading an upsert-kafka table gives the table its topic makes, as Flink reads it: Spark's Kafka
source reads the topic from its earliest offsets (where Flink's upsert-kafka source always
starts), each record's key and value are decoded, and the records of each key go, in offset
order, through :class:`~pyflink_compat.runtime.upsert_normalize.UpsertNormalizeProcessor` in
``transformWithState``: the key's first row is ``+I``, a new value ``-U`` and ``+U``, a
tombstone ``-D``. A query reads these changes when it projects and filters the table, or
aggregates it by group (:mod:`pyflink_compat.sql.changelog_streams`); other queries of it are
refused before anything runs. This needs Spark 4 (``transformWithState``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Sequence, Tuple

from pyflink_compat.connectors.kafka import FORMATS, common_options, decoded, encoded, sink_delivery
from pyflink_compat.connectors.options import OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["UpsertFormats", "changes", "sink", "sink_options", "source", "source_options", "upsert_records"]


class UpsertFormats(object):
    """How an upsert-kafka table's rows become Kafka keys and values.

    :param key_columns: The key's columns, in the table's order of the primary key.
    :param key_names: Their names in the key (``key.fields-prefix`` taken off).
    :param value_columns: The value's columns.
    :param key_format: The key's format.
    :param value_format: The value's format.
    """

    def __init__(self, key_columns: List[str], key_names: List[str], value_columns: List[str],
                 key_format: str, value_format: str, ignore_key_errors: bool = False,
                 ignore_value_errors: bool = False):
        self.key_columns = key_columns
        self.key_names = key_names
        self.value_columns = value_columns
        self.key_format = key_format
        self.value_format = value_format
        #: Whether a malformed json key (value) is read as NULL fields instead of failing.
        self.ignore_key_errors = ignore_key_errors
        self.ignore_value_errors = ignore_value_errors


def sink_options(table: "CreateTable") -> Tuple[Dict[str, str], UpsertFormats]:
    """Spark's Kafka sink options for ``table``, and how its rows are encoded.

    :raises NotSupportedError: For a table without a primary key, or an option Spark cannot
        honour.
    """
    review = OptionReview("upsert-kafka", table.options, table.text)
    options = common_options(review, for_source=False)
    formats = _formats(table, review, reading=False)
    sink_delivery(review, "use 'at-least-once': an upsert by key leaves the same table when a "
                  "record is written twice.")
    review.drop("sink.buffer-flush.max-rows", "each micro-batch is written at once")
    review.drop("sink.buffer-flush.interval", "each micro-batch is written at once")
    review.finish()
    return options, formats


def source_options(table: "CreateTable") -> Tuple[Dict[str, str], UpsertFormats]:
    """Spark's Kafka source options for ``table`` (from the earliest offsets, where Flink's
    upsert-kafka source starts), and how its records are decoded.

    :raises NotSupportedError: For a table without a primary key, or an option Spark cannot
        honour.
    """
    review = OptionReview("upsert-kafka", table.options, table.text)
    options = common_options(review, for_source=True)
    options["startingOffsets"] = "earliest"
    formats = _formats(table, review, reading=True)
    for key in [k for k in review.remaining() if k.startswith("sink.")]:
        review.drop(key, "a sink option, and this table is read")
    review.finish()
    return options, formats


def _formats(table: "CreateTable", review: OptionReview, reading: bool) -> UpsertFormats:
    if not table.primary_key:
        raise refuse("upsert-kafka", "PRIMARY KEY", table.text,
                     "An 'upsert-kafka' table needs a PRIMARY KEY (...) NOT ENFORCED: its columns "
                     "are the Kafka message key, and its rows are updated or deleted by it.")
    formats, ignore = [], []
    for side in ("key", "value"):
        fmt = review.take(side + ".format")
        if fmt not in FORMATS:
            raise refuse("upsert-kafka", side + ".format", table.text,
                         "Kafka {}s are {} here as {}.".format(side, "read" if reading else "written",
                                                             ", ".join(FORMATS)))
        errors = "{}.{}.ignore-parse-errors".format(side, fmt)
        ignore.append(reading and fmt == "json" and (review.take(errors, "false") or "").lower() == "true")
        for key in [k for k in review.remaining() if k.startswith("{}.{}.".format(side, fmt))]:
            review.drop(key, "the {} is {} with Spark's {}_{} defaults".format(
                side, "decoded" if reading else "encoded", "from" if reading else "to", fmt))
        formats.append(fmt)
    prefix = review.take("key.fields-prefix", "") or ""
    include = (review.take("value.fields-include", "ALL") or "ALL").upper()
    if include not in ("ALL", "EXCEPT_KEY"):
        raise refuse("upsert-kafka", "value.fields-include", table.text,
                     "'value.fields-include' is 'ALL' or 'EXCEPT_KEY'.")
    columns = [c.name for c in table.physical_columns]
    keys = list(table.primary_key)
    if prefix and not all(k.startswith(prefix) for k in keys):
        raise refuse("upsert-kafka", "key.fields-prefix", table.text,
                     "Every key column's name starts with 'key.fields-prefix'.")
    values = [c for c in columns if include == "ALL" or c not in keys]
    if formats[0] == "raw" and len(keys) != 1 or formats[1] == "raw" and len(values) != 1:
        raise refuse("upsert-kafka", "key.format" if formats[0] == "raw" else "value.format", table.text,
                     "A 'raw' key or value holds exactly one column.")
    return UpsertFormats(keys, [k[len(prefix):] for k in keys], values, formats[0], formats[1],
                         ignore[0], ignore[1])


def upsert_records(frame: "DataFrame", formats: UpsertFormats, kind_column: str) -> "DataFrame":
    """The Kafka records (``key``, ``value``) of ``frame``'s changes, in order.

    :param frame: The changes: the table's columns, and the kind of each change in
        ``kind_column`` when the frame has one (else every row is an upsert).
    """
    from pyspark.sql import functions as F

    key = encoded([F.col("`{}`".format(c)).alias(n) for c, n in zip(formats.key_columns, formats.key_names)],
                  formats.key_format)
    value = encoded([F.col("`{}`".format(c)) for c in formats.value_columns], formats.value_format)
    if kind_column in frame.columns:
        kind = F.col("`{}`".format(kind_column))
        frame = frame.where(kind != F.lit("-U"))
        value = F.when(kind == F.lit("-D"), F.lit(None)).otherwise(value)
    return frame.select(key.alias("key"), value.alias("value"))


def changes(records: "DataFrame", formats: UpsertFormats, schema: "StructType") -> "DataFrame":
    """The changes of the table the upsert records ``records`` make, each with its kind.

    :param records: Kafka records, as Spark's Kafka source gives them (``key``, ``value``,
        ``partition``, ``offset``, ...).
    :param schema: The table's physical columns.
    :return: The physical columns and :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`.
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField, StructType

    from pyflink_compat.runtime.upsert_normalize import (
        DELETED_COLUMN, OFFSET_COLUMNS, UpsertNormalizeProcessor)
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    by_name = {f.name: f for f in schema.fields}
    key_schema = StructType([StructField(n, by_name[c].dataType, True)
                             for c, n in zip(formats.key_columns, formats.key_names)])
    value_schema = StructType([by_name[c] for c in formats.value_columns])
    decoded_records = records.select(
        decoded(F.col("key"), formats.key_format, key_schema, formats.ignore_key_errors).alias("k"),
        decoded(F.col("value"), formats.value_format, value_schema, formats.ignore_value_errors).alias("v"),
        F.col("value").isNull().alias(DELETED_COLUMN),
        F.col("partition").alias(OFFSET_COLUMNS[0]), F.col("offset").alias(OFFSET_COLUMNS[1]))
    columns = []
    for field in schema.fields:
        if field.name in formats.key_columns:
            from_key = F.col("k.`{}`".format(formats.key_names[formats.key_columns.index(field.name)]))
            # a key column in the value too ('ALL') is read from the value, as Flink reads it
            column = F.when(F.col("v").isNull(), from_key).otherwise(F.col("v.`{}`".format(field.name))) \
                if field.name in formats.value_columns else from_key
        else:
            column = F.col("v.`{}`".format(field.name))
        columns.append(column.cast(field.dataType).alias(field.name))
    rows = decoded_records.select(*columns, DELETED_COLUMN, *OFFSET_COLUMNS)
    output = StructType([StructField(f.name, f.dataType, True) for f in schema.fields]
                        + [StructField(KIND_COLUMN, StringType(), True)])
    return rows.groupBy(*["`{}`".format(c) for c in formats.key_columns]).transformWithState(
        UpsertNormalizeProcessor([f.name for f in schema.fields]), output, "Update", "None")


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType") -> Tuple["DataFrame", bool]:
    """The changes of the table the topic makes (:func:`changes`), unbounded.

    :raises NotSupportedError: On pyspark 3.5, which has no ``transformWithState``.
    """
    from pyspark.sql import GroupedData

    from pyflink_compat.missing import NotSupportedError

    options, formats = source_options(table)
    if not hasattr(GroupedData, "transformWithState"):
        import pyspark

        raise NotSupportedError(
            "Reading connector 'upsert-kafka' on pyspark {} (in: {})".format(
                pyspark.__version__, " ".join(table.text.split())[:300]),
            "Spark 4 keeps each key's row for it (transformWithState); on Spark 3.5 read the "
            "topic with spark.readStream.format('kafka') and keep each key's latest value with "
            "applyInPandasWithState or a foreachBatch MERGE into a table.")
    records = spark.readStream.format("kafka").options(**options).load()
    return changes(records, formats, schema), False


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s changes as upsert records."""
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    options, formats = sink_options(table)
    return upsert_records(frame, formats, KIND_COLUMN).writeStream.format("kafka").options(**options) \
        .outputMode("update" if updating else "append")
