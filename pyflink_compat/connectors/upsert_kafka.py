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

Reading an upsert-kafka table (the latest value of each key, a tombstone deleting it) is not
run here: Spark's Kafka source gives the records, not the table they make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Sequence, Tuple

from pyflink_compat.connectors.kafka import FORMATS, common_options, encoded, sink_delivery
from pyflink_compat.connectors.options import OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["UpsertFormats", "sink", "sink_options", "source", "upsert_records"]


class UpsertFormats(object):
    """How an upsert-kafka table's rows become Kafka keys and values.

    :param key_columns: The key's columns, in the table's order of the primary key.
    :param key_names: Their names in the key (``key.fields-prefix`` taken off).
    :param value_columns: The value's columns.
    :param key_format: The key's format.
    :param value_format: The value's format.
    """

    def __init__(self, key_columns: List[str], key_names: List[str], value_columns: List[str],
                 key_format: str, value_format: str):
        self.key_columns = key_columns
        self.key_names = key_names
        self.value_columns = value_columns
        self.key_format = key_format
        self.value_format = value_format


def sink_options(table: "CreateTable") -> Tuple[Dict[str, str], UpsertFormats]:
    """Spark's Kafka sink options for ``table``, and how its rows are encoded.

    :raises NotSupportedError: For a table without a primary key, or an option Spark cannot
        honour.
    """
    review = OptionReview("upsert-kafka", table.options, table.text)
    if not table.primary_key:
        raise refuse("upsert-kafka", "PRIMARY KEY", table.text,
                     "An 'upsert-kafka' table needs a PRIMARY KEY (...) NOT ENFORCED: its columns "
                     "are the Kafka message key, and its rows are updated or deleted by it.")
    options = common_options(review, for_source=False)
    formats = []
    for side in ("key", "value"):
        fmt = review.take(side + ".format")
        if fmt not in FORMATS:
            raise refuse("upsert-kafka", side + ".format", table.text,
                         "Kafka {}s are written here as {}.".format(side, ", ".join(FORMATS)))
        for key in [k for k in review.remaining() if k.startswith("{}.{}.".format(side, fmt))]:
            review.drop(key, "the {} is encoded with Spark's to_{} defaults".format(side, fmt))
        formats.append(fmt)
    prefix = review.take("key.fields-prefix", "") or ""
    include = (review.take("value.fields-include", "ALL") or "ALL").upper()
    if include not in ("ALL", "EXCEPT_KEY"):
        raise refuse("upsert-kafka", "value.fields-include", table.text,
                     "'value.fields-include' is 'ALL' or 'EXCEPT_KEY'.")
    sink_delivery(review, "use 'at-least-once': an upsert by key leaves the same table when a "
                  "record is written twice.")
    review.drop("sink.buffer-flush.max-rows", "each micro-batch is written at once")
    review.drop("sink.buffer-flush.interval", "each micro-batch is written at once")
    review.finish()
    columns = [c.name for c in table.physical_columns]
    keys = list(table.primary_key)
    if prefix and not all(k.startswith(prefix) for k in keys):
        raise refuse("upsert-kafka", "key.fields-prefix", table.text,
                     "Every key column's name starts with 'key.fields-prefix'.")
    values = [c for c in columns if include == "ALL" or c not in keys]
    if formats[0] == "raw" and len(keys) != 1 or formats[1] == "raw" and len(values) != 1:
        raise refuse("upsert-kafka", "key.format" if formats[0] == "raw" else "value.format", table.text,
                     "A 'raw' key or value holds exactly one column.")
    return options, UpsertFormats(keys, [k[len(prefix):] for k in keys], values, formats[0], formats[1])


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


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType") -> Any:
    """Refused: Spark has no source of the table an upsert topic makes."""
    from pyflink_compat.missing import NotSupportedError

    raise NotSupportedError(
        "Reading connector 'upsert-kafka' (in: {})".format(" ".join(table.text.split())[:300]),
        "Read the topic with spark.readStream.format('kafka') and keep each key's latest value "
        "(a NULL value deleting the key), for example with transformWithState or a foreachBatch "
        "MERGE into a table.")


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s changes as upsert records."""
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    options, formats = sink_options(table)
    return upsert_records(frame, formats, KIND_COLUMN).writeStream.format("kafka").options(**options) \
        .outputMode("update" if updating else "append")
