"""``'connector' = 'kafka'``: Flink's Kafka table options as Spark's Kafka source and sink
options, with Flink's start positions.

Start positions (``scan.startup.mode``, Flink's default ``group-offsets``) are always given to
Spark explicitly (``startingOffsets`` / ``startingTimestamp``), never left to Spark's own
default (``latest``):

* ``earliest-offset`` → ``earliest``; ``latest-offset`` → ``latest``;
* ``timestamp`` → ``startingTimestamp`` = ``scan.startup.timestamp-millis``;
* ``specific-offsets`` → ``startingOffsets`` as Spark's JSON (``{"topic": {"0": 42}}``);
* ``group-offsets``: Spark's source does not read a consumer group's committed offsets, so a
  query starts where Flink starts for a group without committed offsets: at
  ``properties.auto.offset.reset`` (``earliest`` or ``latest``), ``earliest`` when the table
  gives none; later starts resume from the query's checkpoint. A warning says so.

``scan.bounded.mode`` maps to ``endingOffsets`` / ``endingTimestamp`` (a bounded table: read
with Spark's batch Kafka reader, which takes an end where its streaming source does not).
``properties.*`` become ``kafka.*`` options, except those Spark refuses at start
(``auto.offset.reset``, ``enable.auto.commit``, key and value (de)serializers, interceptors):
these are left out with a warning saying what replaces them. Values are read with the table's
``format`` / ``value.format`` (``json``, ``csv`` or ``raw``).

Spark's Kafka connector is a package of its own (see
:mod:`pyflink_compat.spark.connector_packages`).
"""

from __future__ import annotations

import json
import warnings
from typing import TYPE_CHECKING, Any, Dict, List, Sequence, Tuple

from pyflink_compat.connectors.options import ConnectorOptionWarning, OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["FORMATS", "REFUSED_BY_SPARK", "accepts_updates", "common_options", "decoded", "encoded", "sink",
           "sink_delivery", "sink_options", "source", "source_options"]

#: Kafka client properties Spark's Kafka source or sink refuses, and what replaces each.
REFUSED_BY_SPARK = {
    "auto.offset.reset": "the start position is given by scan.startup.mode (Spark's startingOffsets)",
    "enable.auto.commit": "Spark keeps the offsets in the query's checkpoint",
    "key.deserializer": "Spark reads keys as bytes and the table's key format decodes them",
    "value.deserializer": "Spark reads values as bytes and the table's format decodes them",
    "key.serializer": "Spark writes keys as bytes encoded by the table's key format",
    "value.serializer": "Spark writes values as bytes encoded by the table's format",
    "interceptor.classes": "Spark's Kafka source and sink take no interceptors",
}
#: The formats of Kafka keys and values read and written here.
FORMATS = ("json", "csv", "raw")


def common_options(review: OptionReview, for_source: bool) -> Dict[str, str]:
    """Spark's options for the servers, topics and client properties of a Kafka table (its
    ``kafka`` or ``upsert-kafka`` options), the properties Spark refuses left out with a
    warning."""
    options: Dict[str, str] = {}
    properties = review.take_prefixed("properties.")
    servers = properties.get("bootstrap.servers")
    if not servers:
        raise refuse(review.connector, "properties.bootstrap.servers", review.statement,
                     "The Kafka connector needs 'properties.bootstrap.servers'.")
    for key, value in properties.items():
        if key in REFUSED_BY_SPARK:
            warnings.warn("Option 'properties.{}' = '{}' of connector '{}' is not passed to "
                          "Spark, which refuses it: {} (in: {})".format(
                              key, value, review.connector, REFUSED_BY_SPARK[key],
                              " ".join(review.statement.split())[:300]),
                          ConnectorOptionWarning, stacklevel=3)
            continue
        options["kafka." + key] = value
    topic = review.take("topic")
    pattern = review.take("topic-pattern")
    if topic and pattern:
        raise refuse(review.connector, "topic-pattern", review.statement,
                     "Give either 'topic' or 'topic-pattern'.")
    if for_source:
        if topic:
            options["subscribe"] = ",".join(t.strip() for t in topic.split(";") if t.strip())
        elif pattern:
            options["subscribePattern"] = pattern
        else:
            raise refuse(review.connector, "topic", review.statement, "A Kafka table needs 'topic' or 'topic-pattern'.")
    else:
        if not topic or ";" in topic:
            raise refuse(review.connector, "topic", review.statement,
                         "A Kafka sink writes to one topic: give 'topic' = '<one topic>'.")
        options["topic"] = topic
    return options


def _offsets_json(topic: str, text: str, review: OptionReview, key: str) -> str:
    offsets: Dict[str, int] = {}
    for item in text.split(";"):
        parts = dict(part.split(":", 1) for part in item.split(",") if ":" in part)
        if "partition" not in parts or "offset" not in parts:
            raise refuse("kafka", key, review.statement,
                         "Offsets are written 'partition:0,offset:42;partition:1,offset:300'.")
        offsets[parts["partition"].strip()] = int(parts["offset"])
    return json.dumps({topic: offsets})


def _format(review: OptionReview) -> str:
    fmt = review.take("value.format") or review.take("format")
    if fmt not in FORMATS:
        raise refuse("kafka", "format", review.statement,
                     "Kafka values are read and written here as {}; decode other formats with "
                     "PySpark functions on the value column.".format(", ".join(FORMATS)))
    review.refuse_if_given("key.format", "Keys are not decoded here; read the Kafka key column "
                           "with PySpark (spark.readStream.format('kafka')).")
    review.refuse_if_given("key.fields", "Keys are not decoded here.")
    review.take("value.fields-include")
    for key in list(review._left):
        if key.startswith(fmt + ".") or key.startswith("value." + fmt + "."):
            option = key.split(".", 1)[1] if key.startswith("value.") else key
            if option == "json.ignore-parse-errors" or option == "csv.ignore-parse-errors":
                review.take(key)
            else:
                review.drop(key, "the {} value is decoded with Spark's from_{} defaults".format(fmt, fmt))
    return fmt


def source_options(table: "CreateTable") -> Tuple[Dict[str, str], str]:
    """Spark's Kafka source options for ``table``, and the value format."""
    review = OptionReview("kafka", table.options, table.text)
    options = common_options(review, for_source=True)
    topic = options.get("subscribe", "")
    mode = review.take("scan.startup.mode", "group-offsets")
    reset = table.options.get("properties.auto.offset.reset", "").lower()
    if mode == "earliest-offset":
        options["startingOffsets"] = "earliest"
    elif mode == "latest-offset":
        options["startingOffsets"] = "latest"
    elif mode == "timestamp":
        millis = review.take("scan.startup.timestamp-millis")
        if millis is None:
            raise refuse("kafka", "scan.startup.timestamp-millis", table.text,
                         "Startup mode 'timestamp' needs 'scan.startup.timestamp-millis'.")
        options["startingTimestamp"] = millis
    elif mode == "specific-offsets":
        text = review.take("scan.startup.specific-offsets")
        if text is None or "," in topic:
            raise refuse("kafka", "scan.startup.specific-offsets", table.text,
                         "Startup mode 'specific-offsets' needs the offsets of one topic.")
        options["startingOffsets"] = _offsets_json(topic, text, review, "scan.startup.specific-offsets")
    elif mode == "group-offsets":
        start = reset if reset in ("earliest", "latest") else "earliest"
        options["startingOffsets"] = start
        warnings.warn("Kafka table of statement '{}': Spark does not read the committed offsets of "
                      "group '{}'; the query starts at '{}' (where Flink starts for a group "
                      "without committed offsets) and resumes from its checkpoint afterwards."
                      .format(" ".join(table.text.split())[:200],
                              table.options.get("properties.group.id", ""), start),
                      ConnectorOptionWarning, stacklevel=2)
    else:
        raise refuse("kafka", "scan.startup.mode", table.text, "Unknown startup mode '{}'.".format(mode))
    bounded = review.take("scan.bounded.mode", "unbounded")
    if bounded == "latest-offset":
        options["endingOffsets"] = "latest"
    elif bounded == "timestamp":
        options["endingTimestamp"] = review.take("scan.bounded.timestamp-millis") or ""
    elif bounded == "specific-offsets":
        text = review.take("scan.bounded.specific-offsets") or ""
        options["endingOffsets"] = _offsets_json(topic, text, review, "scan.bounded.specific-offsets")
    elif bounded != "unbounded":
        raise refuse("kafka", "scan.bounded.mode", table.text,
                     "Spark cannot end at a group's committed offsets; use 'latest-offset', "
                     "'timestamp' or 'specific-offsets'.")
    interval = review.take("scan.topic-partition-discovery.interval")
    if interval is not None:
        review.drop("scan.topic-partition-discovery.interval",
                    "Spark discovers new partitions at every micro-batch")
    fmt = _format(review)
    for key in [k for k in table.options if k.startswith("sink.")]:
        review.drop(key, "a sink option, and this table is read")
    review.finish()
    return options, fmt


def sink_delivery(review: OptionReview, exactly_once_hint: str) -> None:
    """Review a Kafka sink's delivery options: Spark's Kafka sink writes at least once, without
    transactions, from each partition of the micro-batch."""
    guarantee = review.take("sink.delivery-guarantee", "at-least-once")
    if guarantee == "exactly-once":
        raise refuse(review.connector, "sink.delivery-guarantee", review.statement,
                     "Spark's Kafka sink writes at least once; " + exactly_once_hint)
    review.drop("sink.transactional-id-prefix", "Spark's Kafka sink writes without transactions")
    review.drop("sink.parallelism", "Spark writes from each partition of the micro-batch")


def sink_options(table: "CreateTable") -> Tuple[Dict[str, str], str]:
    """Spark's Kafka sink options for ``table``, and the value format."""
    review = OptionReview("kafka", table.options, table.text)
    options = common_options(review, for_source=False)
    for key in [k for k in table.options if k.startswith("scan.")]:
        review.drop(key, "a source option, and this table is written")
    sink_delivery(review, "use 'at-least-once' and deduplicate downstream.")
    partitioner = review.take("sink.partitioner", "default")
    if partitioner not in ("default", "fixed", "round-robin"):
        raise refuse("kafka", "sink.partitioner", table.text,
                     "Custom partitioners do not run on Spark's Kafka sink.")
    fmt = _format(review)
    review.finish()
    return options, fmt


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType"
           ) -> Tuple["DataFrame", bool]:
    """The table's rows, decoded from the Kafka values."""
    from pyspark.sql import functions as F

    options, fmt = source_options(table)
    bounded = "endingOffsets" in options or "endingTimestamp" in options
    if bounded:
        # Spark's streaming Kafka source has no end ("ending offset not valid in streaming
        # queries"): a bounded table is a batch read of its offset range, streamed once.
        if options.get("startingOffsets") == "latest":
            raise refuse("kafka", "scan.startup.mode", table.text,
                         "A bounded table starting at the latest offsets reads a range Spark's "
                         "batch Kafka reader cannot start at ('latest'); start it at "
                         "'earliest-offset', a timestamp or specific offsets.")
        raw = spark.read.format("kafka").options(**options).load()
    else:
        raw = spark.readStream.format("kafka").options(**options).load()
    ignore = (table.options.get("json.ignore-parse-errors")
              or table.options.get("value.json.ignore-parse-errors") or "false").lower() == "true"
    frame = raw.select(decoded(F.col("value"), fmt, schema, ignore).alias("r")).select("r.*")
    if bounded:
        from pyflink_compat.spark.bounded_sources import as_stream

        frame = as_stream(frame)
    return frame, bounded


def decoded(value: Any, fmt: str, schema: "StructType", ignore_parse_errors: bool = False) -> Any:
    """The Spark column of the row ``schema`` describes, decoded from the Kafka bytes ``value``
    (a Spark column) in format ``fmt``: a JSON object (a malformed one fails the query unless
    ``ignore_parse_errors``, which makes its fields NULL, as Flink's json format does), a csv
    line, or the raw value of the one column. A NULL value gives a NULL row."""
    from pyspark.sql import functions as F

    if fmt == "raw":
        field = schema.fields[0]
        return F.when(value.isNull(), F.lit(None)).otherwise(
            F.struct(value.cast(field.dataType).alias(field.name)))
    if fmt == "json":
        return F.from_json(value.cast("string"), schema,
                           {"mode": "PERMISSIVE" if ignore_parse_errors else "FAILFAST"})
    return F.from_csv(value.cast("string"), schema.simpleString()[7:-1])


def encoded(columns: List[Any], fmt: str) -> Any:
    """The Spark column of ``columns`` (Spark columns) encoded in Kafka format ``fmt`` as Flink
    writes a row: a JSON object with every field (NULLs included), a csv line, or the raw value
    of the one column."""
    from pyspark.sql import functions as F

    if fmt == "json":
        return F.to_json(F.struct(*columns), {"ignoreNullFields": "false"})
    if fmt == "csv":
        return F.to_csv(F.struct(*columns))
    return columns[0].cast("binary")


def accepts_updates(table: "CreateTable") -> bool:
    """Whether the sink takes an updating query: never, its value formats are append-only (a
    changelog goes to Kafka through 'upsert-kafka' in Flink)."""
    return False


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s rows as Kafka values in the table's format."""
    from pyspark.sql import functions as F

    options, fmt = sink_options(table)
    value = encoded([F.col(c) for c in frame.columns], fmt)
    return frame.select(value.alias("value")).writeStream.format("kafka").options(**options) \
        .outputMode("update" if updating else "append")
