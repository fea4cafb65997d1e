"""``'connector' = 'filesystem'``: files in ``'path'``, as csv, json, parquet or orc, with Flink's
format options.

As a source, the files are read once (a bounded table, as in Flink) unless
``'source.monitor-interval'`` is set, which makes the table unbounded (Spark's file source
watching the directory). As a sink, each micro-batch writes new part files under ``'path'``
(``PARTITIONED BY`` columns become ``col=value`` directories, as in Flink); a sink of files is
append-only, so an updating query into it is refused before it starts, with Flink's message.

Formats (Flink option → Spark option):

* ``csv``: ``csv.field-delimiter`` → ``sep`` (``,``), ``csv.quote-character`` → ``quote``
  (``"``), ``csv.escape-character`` → ``escape``, ``csv.allow-comments`` → ``comment`` ``#``,
  ``csv.null-literal`` → ``nullValue``, ``csv.ignore-parse-errors`` → ``mode`` ``PERMISSIVE``
  (Flink: fields that fail to parse become NULL) or ``FAILFAST`` (Flink's default: a bad
  record fails the job); no header either way. ``TIMESTAMP`` fields are read as Flink's csv
  format reads them (see :func:`csv_timestamps`).
* ``json``: ``json.ignore-parse-errors`` as for csv; ``json.timestamp-format.standard``
  ``SQL`` (default, ``yyyy-MM-dd HH:mm:ss.SSS``) or ``ISO-8601`` → ``timestampFormat``;
  written with NULL fields kept (``ignoreNullFields=false``) as Flink writes them.
* ``parquet`` and ``orc``: Spark's own readers and writers of the same file formats, columns by
  name. ``parquet.compression`` / ``orc.compress`` → ``compression``; Flink's other
  ``parquet.*`` / ``orc.*`` entries are Hadoop writer settings and are dropped with a warning.
  ``parquet.utc-timezone`` is taken only as ``true`` when the session time zone is not UTC:
  Flink's default (``false``) writes timestamps in the local zone, which equals Spark's only
  there.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Sequence, Tuple

from pyflink_compat.connectors.options import OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["sink", "sink_options", "source", "source_options", "updating_refusal"]

_FORMATS = ("csv", "json", "parquet", "orc")
_SQL_TIMESTAMP = "yyyy-MM-dd HH:mm:ss[.SSS]"
_ISO_TIMESTAMP = "yyyy-MM-dd'T'HH:mm:ss[.SSS]"


def _format_options(review: OptionReview, fmt: str) -> Dict[str, str]:
    spark: Dict[str, str] = {}
    if fmt == "csv":
        spark["header"] = "false"
        spark["sep"] = review.take("csv.field-delimiter", ",") or ","
        spark["quote"] = review.take("csv.quote-character", '"') or '"'
        escape = review.take("csv.escape-character")
        if escape is not None:
            spark["escape"] = escape
        if (review.take("csv.allow-comments", "false") or "").lower() == "true":
            spark["comment"] = "#"
        null_literal = review.take("csv.null-literal")
        if null_literal is not None:
            spark["nullValue"] = null_literal
        ignore = (review.take("csv.ignore-parse-errors", "false") or "").lower() == "true"
        spark["mode"] = "PERMISSIVE" if ignore else "FAILFAST"
        spark["timestampFormat"] = _SQL_TIMESTAMP
        spark["timestampNTZFormat"] = _SQL_TIMESTAMP
        review.refuse_if_given("csv.array-element-delimiter",
                               "Spark's csv format has no arrays; read the column as STRING and "
                               "split it with split().")
        review.refuse_if_given("csv.disable-quote-character",
                               "Set the quote character with csv.quote-character instead.")
    elif fmt == "json":
        ignore = (review.take("json.ignore-parse-errors", "false") or "").lower() == "true"
        spark["mode"] = "PERMISSIVE" if ignore else "FAILFAST"
        standard = (review.take("json.timestamp-format.standard", "SQL") or "SQL").upper()
        spark["timestampFormat"] = _ISO_TIMESTAMP if standard == "ISO-8601" else _SQL_TIMESTAMP
        spark["timestampNTZFormat"] = spark["timestampFormat"]
        spark["ignoreNullFields"] = "false"
        if (review.take("json.fail-on-missing-field", "false") or "").lower() == "true":
            raise refuse("filesystem", "json.fail-on-missing-field", review.statement,
                         "Spark's json reader makes a missing field NULL; check for NULLs "
                         "after reading instead.")
        review.drop("json.map-null-key.mode", "Spark writes map keys as they are")
        review.drop("json.map-null-key.literal", "Spark writes map keys as they are")
        review.drop("json.encode.decimal-as-plain-number", "Spark writes decimals as plain numbers")
    elif fmt in ("parquet", "orc"):
        compression = review.take("parquet.compression" if fmt == "parquet" else "orc.compress")
        if compression is not None:
            spark["compression"] = compression.lower()
        if fmt == "parquet":
            utc = (review.take("parquet.utc-timezone", "false") or "").lower() == "true"
            if not utc and _local_zone_offset() != 0:
                raise refuse("filesystem", "parquet.utc-timezone", review.statement,
                             "Flink writes parquet timestamps in the machine's zone unless "
                             "'parquet.utc-timezone' = 'true'; Spark writes them in UTC. Set it to "
                             "'true', or run in UTC.")
        for key in [k for k in review.remaining() if k.startswith(fmt + ".")]:
            review.drop(key, "a Hadoop {} writer setting Spark sets itself".format(fmt))
    return spark


def _local_zone_offset() -> float:
    """The machine's offset from UTC now, in seconds."""
    import time

    return -time.timezone if not time.localtime().tm_isdst else -time.altzone


def _review(table: "CreateTable") -> Tuple[OptionReview, str, str]:
    review = OptionReview("filesystem", table.options, table.text)
    path = review.take("path")
    fmt = review.take("format")
    if not path:
        raise refuse("filesystem", "path", table.text, "The filesystem connector needs 'path'.")
    if "://" not in path and not os.path.isabs(path):
        # Relative to the job's working directory, as Flink resolves it (Spark's JVM would
        # resolve it against its own).
        path = os.path.abspath(path)
    from pyflink_compat.connectors.changelog_files import CHANGELOG_FORMATS

    if fmt not in _FORMATS + CHANGELOG_FORMATS:
        raise refuse("filesystem", "format", table.text,
                     "Formats read and written here: {}; read other formats with "
                     "spark.readStream.format(...).".format(", ".join(_FORMATS)))
    return review, path, fmt


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType"
           ) -> Tuple["DataFrame", bool]:
    """The rows of the files, and whether the table is bounded (read once)."""
    fmt, options, path, bounded = source_options(table)
    if fmt == "csv":
        return csv_timestamps(spark, schema, options, path), bounded
    return spark.readStream.schema(schema).format(fmt).options(**options).load(path), bounded


#: The text of a Flink ``TIMESTAMP`` in a csv field, as Flink's csv format accepts it: the
#: field trimmed, then ``yyyy-MM-dd HH:mm:ss`` with up to nine fraction digits.
_CSV_TIMESTAMP_TEXT = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{0,9})?\s*$"


def csv_timestamps(spark: "SparkSession", schema: "StructType", options: Dict[str, str],
                   path: str) -> "DataFrame":
    """The csv rows with each ``TIMESTAMP`` (``TIMESTAMP_NTZ``) column read as text and
    converted by Spark's own cast once its text has Flink's shape.

    Spark's csv reader parses a timestamp with an explicit pattern through a ``java.time``
    formatter, about twice the cost of the cast per value; without a pattern it also accepts
    text Flink's csv format fails on (``2024-01-01T00:00:00``, a date alone, a zone). A field
    of another shape fails the query, as it fails Flink's job, or becomes NULL with
    ``csv.ignore-parse-errors``. A column the query does not read is not converted at all, as
    Flink's source does not parse it (unless a watermark reads it).
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField, StructType, TimestampNTZType

    texts = [f.name for f in schema.fields if isinstance(f.dataType, TimestampNTZType)]
    if not texts:
        return spark.readStream.schema(schema).format("csv").options(**options).load(path)
    read = StructType([StructField(f.name, StringType(), f.nullable) if f.name in texts else f
                       for f in schema.fields])
    frame = spark.readStream.schema(read).format("csv").options(**options).load(path)
    lenient = options.get("mode") == "PERMISSIVE"
    columns = []
    for field in schema.fields:
        column = F.col("`{}`".format(field.name))
        if field.name not in texts:
            columns.append(column)
            continue
        # an invalid date of the right shape (2024-02-30) is no timestamp to the cast either
        value = F.when(column.rlike(_CSV_TIMESTAMP_TEXT),
                       F.expr("try_cast(`{}` AS TIMESTAMP_NTZ)".format(field.name)))
        if not lenient:
            value = F.when(column.isNull(), F.lit(None).cast("timestamp_ntz")).when(
                value.isNotNull(), value).otherwise(F.raise_error(F.concat(
                    F.lit("Fail to deserialize at field: {}. Text '".format(field.name)),
                    column, F.lit("' could not be parsed as a TIMESTAMP (yyyy-MM-dd "
                                  "HH:mm:ss[.fraction])"))).cast("timestamp_ntz"))
        columns.append(value.alias(field.name))
    return frame.select(*columns)


def source_options(table: "CreateTable") -> Tuple[str, Dict[str, str], str, bool]:
    """How the table's files are read, without Spark: Spark's format, its options, the path
    to load and whether the table is bounded (its options reviewed: a refused one raises)."""
    review, path, fmt = _review(table)
    if fmt not in _FORMATS:
        raise refuse("filesystem", "format", table.text,
                     "Files of format '{}' are written here, not read; read them with "
                     "spark.readStream.format('json').".format(fmt))
    monitor = review.take("source.monitor-interval")
    review.drop("source.path.regex-pattern", "every file under the path is read")
    for key in list(table.options):
        if key.startswith("sink.") or key.startswith("partition.") or key == "auto-compaction":
            review.drop(key, "a sink option, and this table is read")
    options = _format_options(review, fmt)
    review.finish()
    if table.partition_keys:
        options["basePath"] = path
    local = path[len("file://"):] if path.startswith("file://") else path
    if "://" not in local and os.path.isfile(local):
        # Spark's file stream reads directories: a single file is its directory, filtered to it.
        directory, name = os.path.split(os.path.abspath(local))
        options["pathGlobFilter"] = glob_escape(name)
        return fmt, options, directory, monitor is None
    return fmt, options, path, monitor is None


def glob_escape(name: str) -> str:
    """``name`` as a Hadoop glob matching only itself."""
    return "".join("\\" + c if c in "*?[]{}\\" else c for c in name)


def updating_refusal(table_name: str, node: str) -> str:
    """Flink's message for an updating query written into an append-only sink."""
    return ("Table sink '{}' doesn't support consuming update changes which is produced by node {}"
            .format(table_name, node))


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s rows as new files under the table's path."""
    path, fmt, options = sink_options(table)
    from pyflink_compat.connectors.changelog_files import CHANGELOG_FORMATS, ChangelogFileWriter

    if fmt in CHANGELOG_FORMATS:
        if table.partition_keys:
            raise refuse("filesystem", "format", table.text,
                         "A partitioned table of format '{}' is not written here.".format(fmt))
        from pyflink_compat.sql.changelog_streams import KIND_COLUMN

        ChangelogFileWriter.check(frame.drop(KIND_COLUMN), table.text)
        names = frame.columns
        # a result whose rows carry their kinds has them in a column of its own
        kind_position = names.index(KIND_COLUMN) if KIND_COLUMN in names else None
        writer_of = ChangelogFileWriter(path, [n for n in names if n != KIND_COLUMN], updating,
                                        [names.index(k) for k in keys if k in names], kind_position)
        return frame.writeStream.foreachBatch(writer_of).outputMode(
            "update" if updating else "append")
    writer = frame.writeStream.format(fmt).option("path", path).options(**options)
    if table.partition_keys:
        writer = writer.partitionBy(*table.partition_keys)
    return writer.outputMode("append")


def batch_writer(table: "CreateTable", frame: "DataFrame") -> Any:
    """A writer of the rows of the batch DataFrame ``frame`` as new files under the table's path
    (the final rows of a bounded job, written once)."""
    path, fmt, options = sink_options(table)
    writer = frame.write.format(fmt).option("path", path).options(**options).mode("append")
    if table.partition_keys:
        writer = writer.partitionBy(*table.partition_keys)
    return writer


def sink_options(table: "CreateTable") -> Tuple[str, str, Dict[str, str]]:
    """The path, Spark format and Spark options the table is written with (its options
    reviewed: a refused one raises)."""
    review, path, fmt = _review(table)
    for key in list(table.options):
        if key.startswith("sink.rolling-policy.") or key == "auto-compaction" \
                or key.startswith("compaction.") or key.startswith("sink.partition-commit.") \
                or key.startswith("partition.time-extractor."):
            review.drop(key, "Spark writes one set of files per micro-batch (committed with it)")
    review.drop("source.monitor-interval", "a source option, and this table is written")
    options = _format_options(review, fmt)
    for read_only in ("mode",):
        options.pop(read_only, None)
    review.finish()
    return path, fmt, options
