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
  format reads them (see :func:`csv_fields`).
* ``json``: ``json.ignore-parse-errors`` as for csv; ``json.timestamp-format.standard``
  ``SQL`` (default, ``yyyy-MM-dd HH:mm:ss.SSS``) or ``ISO-8601`` → ``timestampFormat``
  (``TIMESTAMP`` fields are read as Flink's json format reads them, see :func:`json_fields`);
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

__all__ = ["accepts_updates", "sink", "sink_options", "source", "source_options", "updating_refusal"]

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
        return csv_fields(spark, schema, options, path), bounded
    if fmt == "json":
        return json_fields(spark, schema, options, path), bounded
    return spark.readStream.schema(schema).format(fmt).options(**options).load(path), bounded


#: The text of a Flink ``TIMESTAMP`` in a csv field, as Flink's csv format accepts it: the
#: field trimmed, then ``yyyy-MM-dd HH:mm:ss`` with up to nine fraction digits (groups: year,
#: month, day, hour, minute, second, fraction).
_CSV_TIMESTAMP_TEXT = (r"^\s*([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})"
                       r"(\.[0-9]{0,9})?\s*$")

#: Java's message for an empty field of each type Flink's csv format parses (Flink reads an
#: empty BOOLEAN as false and an empty STRING as '').
_EMPTY_FIELD_CAUSES = {
    "IntegerType": 'For input string: ""', "LongType": 'For input string: ""',
    "ShortType": 'For input string: ""', "ByteType": 'For input string: ""',
    "FloatType": "empty String", "DoubleType": "empty String",
    "DecimalType": "java.lang.NumberFormatException",
    "DateType": "java.lang.IllegalArgumentException",
    "TimestampNTZType": "Text '' could not be parsed at index 0",
}


#: Where each group of a timestamp text of Flink's shape starts, and its length, once the text
#: is trimmed (``None``: to the end).
_GROUP_SPANS = {1: (1, 4), 2: (6, 2), 3: (9, 2), 4: (12, 2), 5: (15, 2), 6: (18, 2), 7: (20, None)}


def _group(name: str, index: int, shape: str) -> str:
    """SQL for group ``index`` of the text in column ``name``, which has ``shape`` (one of this
    module's timestamp shapes, whose groups sit at fixed places once the text is trimmed). A
    substring rather than a ``regexp_extract``: these expressions are compiled into the code of
    every row, where each ``regexp_extract`` adds enough to push that code past the size the
    JVM compiles (the rows are then interpreted, at about twice the cost)."""
    start, length = _GROUP_SPANS[index]
    return "substr(trim(`{}`), {}{})".format(name, start, "" if length is None else ", {}".format(length))


def _resolved_timestamp(name: str, shape: str) -> str:
    """SQL for the timestamp java.time's default (smart) resolver makes of a text of Flink's
    shape that Spark's cast refuses: a day of 29 to 31 past the month's end is the month's last
    day (``2024-02-30`` → ``2024-02-29``), and ``24:00:00`` is the next day's midnight;
    NULL for any other text."""
    year, month, day = ("CAST({} AS INT)".format(_group(name, i, shape)) for i in (1, 2, 3))
    first = "make_date({}, {}, 1)".format(year, month)
    date = ("CASE WHEN {m} BETWEEN 1 AND 12 AND {d} BETWEEN 1 AND 31 THEN date_add({f}, "
            "least({d}, day(last_day({f}))) - 1) END").format(m=month, d=day, f=first)
    time = "concat({}, ':', {}, ':', {}, {})".format(*(_group(name, i, shape) for i in (4, 5, 6, 7)))
    return ("CASE WHEN {t} RLIKE '^24:00:00(\\\\.0*)?$' THEN CAST(date_add({d}, 1) AS TIMESTAMP_NTZ) "
            "ELSE try_cast(concat(CAST({d} AS STRING), ' ', {t}) AS TIMESTAMP_NTZ) END"
            ).format(t=time, d=date)


def _timestamp_refusal(name: str, shape: str) -> str:
    """SQL for java.time's reason a text of Flink's shape is no timestamp."""
    parts = [("CAST({} AS INT)".format(_group(name, i, shape)), label, bounds)
             for i, label, bounds in ((2, "MonthOfYear", "1 - 12"), (3, "DayOfMonth", "1 - 28/31"),
                                      (4, "HourOfDay", "0 - 23"), (5, "MinuteOfHour", "0 - 59"),
                                      (6, "SecondOfMinute", "0 - 59"))]
    low = {"MonthOfYear": 1, "DayOfMonth": 1}
    branches = " ".join(
        "WHEN {v} NOT BETWEEN {lo} AND {hi} THEN 'Invalid value for {label} (valid values {b}): ' "
        "|| CAST({v} AS STRING)".format(v=v, lo=low.get(label, 0), hi=bounds.split(" - ")[1][-2:],
                                         label=label, b=bounds)
        for v, label, bounds in parts)
    return "CASE {} ELSE 'Invalid value for HourOfDay (valid values 0 - 23): 24' END".format(branches)


_SHAPED, _CAST = "__pyflink_compat_shaped_", "__pyflink_compat_cast_"

#: The text of a Flink ``DATE`` in a csv field, as ``java.sql.Date.valueOf`` (Flink's csv
#: format) accepts it: ``yyyy-[m]m-[d]d``, nothing around it.
_CSV_DATE_TEXT = r"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$"


def _date_of_text(name: str, lenient: bool) -> Any:
    """The ``DATE`` column of the csv text column ``name`` as Flink reads it: a day of 29 to 31
    past the month's end rolls into the next month (``2024-02-30`` is ``2024-03-01``); another
    text fails the query with Flink's message, or is NULL when ``lenient``."""
    from pyspark.sql import functions as F

    column = F.col("`{}`".format(name))
    quoted = name.replace("`", "``")
    # the groups have one or two digits: found by the pattern (for the rare texts the cast refuses)
    year, month, day = ("CAST(regexp_extract(`{}`, '{}', {}) AS INT)".format(
        quoted, _CSV_DATE_TEXT.replace("\\", "\\\\"), i) for i in (1, 2, 3))
    rolled = F.expr("CASE WHEN {m} BETWEEN 1 AND 12 AND {d} BETWEEN 1 AND 31 THEN "
                    "date_add(make_date({y}, {m}, 1), {d} - 1) END".format(y=year, m=month, d=day))
    # Spark's cast converts every text of the shape but those past the month's end
    value = F.when(column.rlike(_CSV_DATE_TEXT), F.coalesce(
        F.expr("try_cast(`{}` AS DATE)".format(quoted)), rolled))
    if lenient:
        return value
    return F.when(column.isNull() | value.isNotNull(), value).otherwise(F.raise_error(F.lit(
        "Fail to deserialize at field: {}. java.lang.IllegalArgumentException".format(name)))
        .cast("date"))


def _with_timestamp_parts(frame: "DataFrame", names: Sequence[str], shape: str) -> "DataFrame":
    """``frame`` with, for each text column in ``names``, whether it has the ``shape`` and its
    cast to ``TIMESTAMP_NTZ``: columns of their own, so that Spark computes each once per row
    (it does not merge a projection into the next when that would repeat such work)."""
    from pyspark.sql import functions as F

    extra = []
    for name in names:
        column = F.col("`{}`".format(name))
        extra += [column.rlike(shape).alias(_SHAPED + name),
                  F.expr("try_cast(`{}` AS TIMESTAMP_NTZ)".format(name.replace("`", "``")))
                  .alias(_CAST + name)]
    return frame.select("*", *extra)


def _timestamp_of_text(name: str, shape: str, lenient: bool, resolve: bool = True) -> Any:
    """The ``TIMESTAMP_NTZ`` column of the text column ``name`` whose texts of Flink's
    ``shape`` (groups as in :data:`_CSV_TIMESTAMP_TEXT`) Spark's cast converts; one of that
    shape the cast refuses is resolved as ``java.time`` resolves it in Flink
    (``2024-02-30 10:00:00`` is ``2024-02-29 10:00:00``, ``24:00:00`` the next midnight) or
    refused with its message (without ``resolve``, it is refused). Another text fails the
    query, or is NULL when ``lenient``.

    One ``CASE`` whose rarer branches Spark evaluates only for the rows that reach them."""
    from pyspark.sql import functions as F

    column = F.col("`{}`".format(name))
    quoted = name.replace("`", "``")
    shaped = F.col("`{}`".format(_SHAPED + name))
    # Spark's cast refuses a day past the month's end, which java.time adjusts
    candidates = [F.col("`{}`".format(_CAST + name))]
    if resolve:
        candidates.append(F.expr(_resolved_timestamp(quoted, shape)))
    if lenient:
        return F.when(shaped, F.coalesce(*candidates))
    prefix = F.lit("Fail to deserialize at field: {}. Text '".format(name))
    refused = F.raise_error(F.concat(prefix, column, F.lit("' could not be parsed: "), F.expr(
        _timestamp_refusal(quoted, shape)))).cast("timestamp_ntz")
    no_timestamp = F.raise_error(F.concat(prefix, column, F.lit(
        "' could not be parsed as a TIMESTAMP (yyyy-MM-dd HH:mm:ss[.fraction])"))).cast("timestamp_ntz")
    return F.when(column.isNull(), F.lit(None).cast("timestamp_ntz")).when(
        shaped, F.coalesce(*candidates, refused)).otherwise(no_timestamp)


#: A Flink ``TIMESTAMP`` in json with ``'json.timestamp-format.standard'`` ``SQL`` and
#: ``ISO-8601``: no spaces around it, up to nine fraction digits (groups as for csv).
_JSON_TIMESTAMP_TEXTS = {
    sep: r"^([0-9]{4})-([0-9]{2})-([0-9]{2})" + sep + r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{0,9})?$"
    for sep in (" ", "T")}


def json_fields(spark: "SparkSession", schema: "StructType", options: Dict[str, str],
                path: str) -> "DataFrame":
    """The json rows with each ``TIMESTAMP`` (``TIMESTAMP_NTZ``) field read as text and
    converted as :func:`csv_fields` converts csv timestamps, to the shape of the table's
    ``json.timestamp-format.standard`` (Spark's reader would parse it through a ``java.time``
    formatter, at about twice the cost, refusing a day past the month's end that Flink
    adjusts)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField, StructType, TimestampNTZType

    texts = [f.name for f in schema.fields if isinstance(f.dataType, TimestampNTZType)]
    if not texts:
        return spark.readStream.schema(schema).format("json").options(**options).load(path)
    read = StructType([StructField(f.name, StringType(), f.nullable) if f.name in texts else f
                       for f in schema.fields])
    frame = spark.readStream.schema(read).format("json").options(**options).load(path)
    iso = "'T'" in options.get("timestampNTZFormat", "")
    lenient = options.get("mode") == "PERMISSIVE"
    frame = _with_timestamp_parts(frame, texts, _JSON_TIMESTAMP_TEXTS["T" if iso else " "])
    # Flink's ISO-8601 parser resolves strictly: 2024-02-30T10:00:00 is no timestamp there
    return frame.select(*[
        _timestamp_of_text(f.name, _JSON_TIMESTAMP_TEXTS["T" if iso else " "], lenient, not iso)
        .alias(f.name) if f.name in texts
        else F.col("`{}`".format(f.name)) for f in schema.fields])


def csv_fields(spark: "SparkSession", schema: "StructType", options: Dict[str, str],
               path: str) -> "DataFrame":
    """The csv rows with each field read as Flink's csv format reads it.

    * ``TIMESTAMP`` (``TIMESTAMP_NTZ``) columns are read as text and converted by Spark's own
      cast once the text has Flink's shape. Spark's csv reader parses a timestamp with an
      explicit pattern through a ``java.time`` formatter, about twice the cost of the cast per
      value; without a pattern it also accepts text Flink's csv format fails on
      (``2024-01-01T00:00:00``, a date alone, a zone). A text of the right shape the cast
      refuses is resolved as ``java.time`` resolves it in Flink (``2024-02-30 10:00:00`` is
      ``2024-02-29 10:00:00``, ``24:00:00`` the next midnight) or refused with its message.
    * ``BOOLEAN`` columns are read as text: ``true`` in any case is true, anything else false,
      as Flink reads them.
    * An empty field, when ``csv.null-literal`` is not given, fails the job for a number, date
      or timestamp column with Flink's message, and reads as ``''`` in a ``STRING`` column and
      false in a ``BOOLEAN`` one (Spark's reader gives NULL).
      With ``csv.ignore-parse-errors`` a failing field is NULL instead, a row missing
      fields has them NULL, and a row of more fields than the table's is skipped.
    * ``DATE`` columns are read as text, as Flink's csv format reads them
      (``yyyy-[m]m-[d]d``; a day of 29 to 31 past the month's end rolls into the next month,
      ``2024-02-30`` is ``2024-03-01``; another text fails the job with Flink's message).

    A column the query does not read is not converted at all, as Flink's source does not parse
    it (unless a watermark reads it).
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import (BooleanType, DateType, StringType, StructField, StructType,
                                   TimestampNTZType)

    texts = [f.name for f in schema.fields
             if isinstance(f.dataType, (TimestampNTZType, BooleanType, DateType))]
    # Without csv.null-literal, Spark's NULL is an empty field (a short row fails Spark's
    # FAILFAST reader itself, and is marked corrupt by its PERMISSIVE one).
    empty_is_null = "nullValue" not in options
    lenient = options.get("mode") == "PERMISSIVE"
    corrupt = "_pyflink_compat_corrupt" if lenient else None
    if not texts and not empty_is_null and not lenient:
        return spark.readStream.schema(schema).format("csv").options(**options).load(path)
    read = StructType([StructField(f.name, StringType(), f.nullable) if f.name in texts else f
                       for f in schema.fields]
                      + ([StructField(corrupt, StringType())] if corrupt else []))
    reader = spark.readStream.schema(read).format("csv").options(**options)
    if corrupt:
        reader = reader.option("columnNameOfCorruptRecord", corrupt)
    frame = _with_timestamp_parts(reader.load(path), [
        f.name for f in schema.fields if isinstance(f.dataType, TimestampNTZType)], _CSV_TIMESTAMP_TEXT)
    empty = F.lit(True) if corrupt is None else F.col(corrupt).isNull()
    if corrupt is not None:
        # Flink skips a row of more fields than the table's (Spark's lenient reader keeps its
        # first ones): read the corrupt line again with one field more
        wider = ", ".join("`c{}` STRING".format(i) for i in range(len(schema.fields) + 1))
        again = F.from_csv(F.col(corrupt), wider, {k: v for k, v in options.items()
                                                   if k in ("sep", "quote", "escape", "comment")})
        frame = frame.where(F.col(corrupt).isNull()
                            | again.getField("c{}".format(len(schema.fields))).isNull())
    columns = []
    for field in schema.fields:
        column = F.col("`{}`".format(field.name))
        kind = type(field.dataType).__name__
        prefix = "Fail to deserialize at field: {}. ".format(field.name)
        if isinstance(field.dataType, BooleanType):
            value = F.lower(F.trim(column)) == F.lit("true")
            if empty_is_null:
                value = F.when(column.isNull() & empty, F.lit(False)).otherwise(value)
            columns.append(value.alias(field.name))
            continue
        if isinstance(field.dataType, TimestampNTZType):
            value = _timestamp_of_text(field.name, _CSV_TIMESTAMP_TEXT, lenient)
        elif isinstance(field.dataType, DateType):
            value = _date_of_text(field.name, lenient)
        else:
            value = column
        if empty_is_null and isinstance(field.dataType, StringType):
            value = F.when(column.isNull() & empty, F.lit("")).otherwise(value)
        elif empty_is_null and not lenient and kind in _EMPTY_FIELD_CAUSES:
            value = F.when(column.isNull(), F.raise_error(F.lit(
                prefix + _EMPTY_FIELD_CAUSES[kind])).cast(field.dataType)).otherwise(value)
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


def accepts_updates(table: "CreateTable") -> bool:
    """Whether the sink takes an updating query: only in a changelog format."""
    from pyflink_compat.connectors.changelog_files import CHANGELOG_FORMATS

    return table.options.get("format") in CHANGELOG_FORMATS


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
