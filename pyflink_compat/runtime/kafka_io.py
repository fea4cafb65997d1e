"""Kafka in DataStream jobs: ``KafkaSource`` / ``FlinkKafkaConsumer`` as Spark's Kafka source,
``KafkaSink`` / ``FlinkKafkaProducer`` as Spark's Kafka writer.

A builder's description becomes the options of a Kafka table
(``properties.*``, ``topic`` / ``topic-pattern``, ``scan.startup.mode``,
``sink.delivery-guarantee``) and goes through the one mapping Kafka tables use
(:mod:`pyflink_compat.connectors.kafka`), so that start positions, the properties Spark refuses
and the refused guarantees are the same for both APIs. Start positions: ``earliest()`` →
``earliest-offset``, ``latest()`` → ``latest-offset``, ``timestamp(t)`` → ``timestamp``,
``offsets({...})`` → ``specific-offsets`` (one topic), ``committed_offsets(strategy)`` →
``group-offsets`` with ``auto.offset.reset`` = the strategy. ``set_partitions`` reads the
partitions given (Spark's ``assign``). ``set_bounded`` is refused: Spark's Kafka stream source
has no end.

Values are read as bytes (the ``raw`` format) and decoded in a ``mapInArrow`` by the job's
deserialization schema: ``SimpleStringSchema`` (text in its charset) or
``JsonRowDeserializationSchema`` (a row of its type; a malformed record fails the job unless
parse errors are ignored, then it is skipped, as in Flink). Each record carries its Kafka
timestamp as its event-time timestamp and is ordered by (partition, offset). Sinks write the
values of each micro-batch with Spark's Kafka batch writer from the job's sink writer.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional

from pyflink_compat.missing import NotSupportedError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["source_options", "sink_options", "produced_type", "KafkaSourceReader", "KafkaSinkBatch"]


def _table(options: Dict[str, str], text: str) -> Any:
    from pyflink_compat.sql.statements import CreateTable

    return CreateTable(name="kafka", columns=(), options=options, text=text)


def _start(initializer: Any, options: Dict[str, str]) -> None:
    prefix = "scan.startup"
    kind = initializer[0]
    if kind == "earliest":
        options[prefix + ".mode"] = "earliest-offset"
    elif kind == "latest":
        options[prefix + ".mode"] = "latest-offset"
    elif kind == "timestamp":
        options[prefix + ".mode"] = "timestamp"
        options[prefix + ".timestamp-millis"] = str(initializer[1])
    elif kind == "offsets":
        options[prefix + ".mode"] = "specific-offsets"
        options[prefix + ".specific-offsets"] = ";".join(
            "partition:%d,offset:%d" % (partition, offset) for _, partition, offset in initializer[1])
    elif kind == "committed":
        options[prefix + ".mode"] = "group-offsets"
        options["properties.auto.offset.reset"] = initializer[1]
    else:
        raise ValueError("Unknown start position %r" % (initializer,))


def source_options(description: Dict[str, Any]) -> Dict[str, str]:
    """Spark's Kafka source options for a source's description (checked as Flink's builder
    checks it, then mapped as a Kafka table's options are)."""
    from pyflink_compat.connectors import kafka

    properties = description["properties"]
    if not properties.get("bootstrap.servers"):
        raise ValueError("Property bootstrap.servers is required but not provided")
    topics, pattern, partitions = description["topics"], description["topic_pattern"], description["partitions"]
    if not (topics or pattern or partitions):
        raise ValueError("No subscribe mode is specified, should be one of topics, topic pattern "
                         "and partition set.")
    if description["deserializer"] is None:
        raise ValueError("Deserialization schema is required but not provided.")
    produced_type(description["deserializer"])
    options = {"properties." + k: v for k, v in properties.items() if k != "client.id.prefix"}
    if partitions:
        topics = sorted({topic for topic, _ in partitions})
    if topics:
        options["topic"] = ";".join(topics)
    if pattern:
        options["topic-pattern"] = pattern
    starting = description["starting"]
    if starting[0] == "committed" and not properties.get("group.id"):
        raise ValueError("Property group.id is required when using committed offset for offsets "
                         "initializer")
    _start(starting, options)
    if description["stopping"] is not None:
        raise NotSupportedError(
            "KafkaSourceBuilder.set_bounded",
            "Spark's Kafka stream source has no end (it refuses endingOffsets in streaming "
            "queries); read a bounded range of offsets with spark.read.format(\"kafka\")"
            ".option(\"endingOffsets\", ...).")
    options["format"] = "raw"
    text = "KafkaSource(%s)" % ", ".join("%s=%s" % (k, options[k]) for k in sorted(options)
                                          if not k.startswith("properties.sasl"))
    spark_options, _ = kafka.source_options(_table(options, text))
    if partitions:
        spark_options.pop("subscribe", None)
        assign: Dict[str, List[int]] = {}
        for topic, partition in partitions:
            assign.setdefault(topic, []).append(partition)
        spark_options["assign"] = json.dumps(assign)
    return spark_options


_GUARANTEES = {"EXACTLY_ONCE": "exactly-once", "AT_LEAST_ONCE": "at-least-once", "NONE": "none"}


def sink_options(description: Dict[str, Any]) -> Dict[str, str]:
    """Spark's Kafka sink options for a sink's description (mapped as a Kafka table's)."""
    from pyflink_compat.connectors import kafka

    if description["serializer"] is None:
        raise ValueError("No record serializer is configured.")
    options = {"properties." + k: v for k, v in description["properties"].items()}
    if description["topic"] is not None:
        options["topic"] = description["topic"]
    options["sink.delivery-guarantee"] = _GUARANTEES[description["guarantee"]]
    if description.get("transactional_id_prefix"):
        options["sink.transactional-id-prefix"] = description["transactional_id_prefix"]
    options["format"] = "raw"
    text = "KafkaSink(%s)" % ", ".join("%s=%s" % (k, options[k]) for k in sorted(options)
                                        if not k.startswith("properties.sasl"))
    spark_options, _ = kafka.sink_options(_table(options, text))
    return spark_options


def produced_type(deserializer: Any) -> Any:
    """The type of the records a deserialization schema gives."""
    from pyflink_compat.common.typeinfo import Types

    if deserializer[0] == "simple-string":
        return Types.STRING()
    if deserializer[0] == "json-row":
        return deserializer[1]
    raise NotSupportedError("DeserializationSchema %r" % (deserializer[0],),
                            "Kafka values are decoded here with SimpleStringSchema or "
                            "JsonRowDeserializationSchema; decode others with PySpark functions on "
                            "the value column of spark.readStream.format('kafka').")


def _require_connector(what: str) -> None:
    from pyflink_compat.spark.connector_packages import KAFKA_PROVIDER, running_kafka_package
    from pyflink_compat.util.java_classes import class_loadable

    if not class_loadable(KAFKA_PROVIDER):
        package = running_kafka_package()
        raise RuntimeError(
            "{} needs Spark's Kafka connector ({}), which is not on the class path: start Spark "
            "with spark.jars.packages={} (or spark-submit --packages {})".format(
                what, KAFKA_PROVIDER, package, package))


def _kafka_description(source: Any) -> Dict[str, Any]:
    return dict(source.get_java_function())


class KafkaSourceReader(object):
    """The records of a Kafka source as a streaming DataFrame of the plan's record schema.

    :param source: A ``KafkaSource`` or ``FlinkKafkaConsumer``.
    """

    #: Kafka records carry their timestamps (the event time of a strategy without assigner).
    has_timestamps = True

    def __init__(self, source: Any):
        self.description = _kafka_description(source)
        self.options = source_options(self.description)
        self.bounded = False  # a Kafka stream has no end on Spark
        self.type_info = produced_type(self.description["deserializer"])

    def frame(self, spark: "SparkSession") -> "DataFrame":
        from pyspark.sql import functions as F

        from pyflink_compat.runtime.plan import RECORD_SCHEMA

        _require_connector("A Kafka source")
        raw = spark.readStream.format("kafka").options(**self.options).load()
        columns = raw.select("value", F.unix_millis("timestamp").alias("ts"), "partition", "offset")
        return columns.mapInArrow(_decoder(self.description["deserializer"]), RECORD_SCHEMA)


def decode(deserializer: Any, data: Optional[bytes]) -> Any:
    """The record of one Kafka value, or ``None`` for a record that is skipped."""
    from pyflink_compat.common.types import Row

    if data is None:
        return None
    if deserializer[0] == "simple-string":
        return bytes(data).decode(deserializer[1])
    _, type_info, fail_on_missing, ignore_errors = deserializer
    try:
        parsed = json.loads(bytes(data).decode("utf-8"))
        names = list(type_info.get_field_names())
        if fail_on_missing:
            missing = [n for n in names if n not in parsed]
            if missing:
                raise ValueError("Could not find field with name '%s'." % missing[0])
        row = Row(*[parsed.get(n) for n in names])
        row.set_field_names(names)
        return row
    except (ValueError, AttributeError) as error:
        if ignore_errors:
            return None
        raise IOError("Failed to deserialize JSON object.") from error


def _decoder(deserializer: Any) -> Callable[[Iterator[Any]], Iterator[Any]]:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped]

        from pyflink_compat.runtime.kafka_io import decode
        from pyflink_compat.runtime.records import arrow_schema, dumps

        schema = arrow_schema()
        for batch in batches:
            columns = batch.to_pydict()
            values: List[bytes] = []
            stamps: List[int] = []
            seqs: List[List[int]] = []
            for data, ts, partition, offset in zip(columns["value"], columns["ts"],
                                                   columns["partition"], columns["offset"]):
                record = decode(deserializer, data)
                if record is not None:
                    values.append(dumps(record))
                    stamps.append(ts)
                    seqs.append([partition, offset])
            yield pa.RecordBatch.from_arrays(
                [pa.array(values, pa.binary()), pa.array(stamps, pa.int64()),
                 pa.array(seqs, pa.list_(pa.int64())), pa.array([None] * len(values), pa.binary())],
                schema=schema)

    return run


def encode(serializer: Any, value: Any, type_info: Any) -> bytes:
    """The Kafka value of one record."""
    from pyflink_compat.runtime.records import conform, print_text

    if serializer[0] == "simple-string":
        return print_text(value, type_info).encode(serializer[1])
    if serializer[0] == "json-row":
        row_type = serializer[1]
        row = conform(value, row_type)
        names = list(row_type.get_field_names())
        return json.dumps(dict(zip(names, list(row))), separators=(",", ":"),
                          ensure_ascii=False, default=str).encode("utf-8")
    raise NotSupportedError("SerializationSchema %r" % (serializer[0],),
                            "Kafka values are written here with SimpleStringSchema or "
                            "JsonRowSerializationSchema; encode others with PySpark functions and "
                            "df.writeStream.format('kafka').")


class KafkaSinkBatch(object):
    """Writes each micro-batch's records as Kafka values with Spark's Kafka writer.

    :param sink: A ``KafkaSink`` or ``FlinkKafkaProducer``.
    :param type_info: The stream's declared type.
    """

    def __init__(self, sink: Any, type_info: Any):
        self.description = _kafka_description(sink)
        self.options = sink_options(self.description)
        self.type_info = type_info
        _require_connector("A Kafka sink")

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyspark.sql import SparkSession

        from pyflink_compat.runtime.sinks import ordered_values

        values = ordered_values(rows)
        if not values:
            return
        spark = SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
        data = [(encode(self.description["serializer"], v, self.type_info),) for v in values]
        spark.createDataFrame(data, "value binary").write.format("kafka").options(**self.options).save()
