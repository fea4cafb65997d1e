"""Sources and sinks on Spark: what a PyFlink connector with a static configuration becomes.

A :class:`ReaderSpec` is a ``spark.readStream`` (format, options, schema, the columns to
select) and a :class:`WriterSpec` a ``writeStream`` (format, options, the columns to write);
both render as PySpark source text. The functions here turn the configuration of PyFlink's
connectors (already evaluated to Python values by :mod:`~pyflink_compat.porting.pipeline` or
:mod:`~pyflink_compat.porting.sql`) into specs, with Spark's option names. The Kafka
connectors of the DataStream API are built by pyflink_compat's own builders and mapped by the
runtime's Kafka mapping (:mod:`pyflink_compat.runtime.kafka_io`), as the Kafka, datagen and
filesystem tables are by the runtime's table connectors: one mapping for the runtime and the
written PySpark. A configuration with anything the function does not know, or that the
runtime refuses, gives None: the statement is then left as it is rather than half-translated.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple

import attrs

__all__ = ["ReaderSpec", "WriterSpec", "SPARK_KAFKA_SOURCE_OPTIONS", "SPARK_KAFKA_SINK_OPTIONS",
           "kafka_source", "kafka_consumer", "kafka_sink", "kafka_producer",
           "file_source", "text_file", "file_sink", "KAFKA_PACKAGE_NOTE"]

#: Spark's option names of the Kafka source, as its Structured Streaming + Kafka Integration
#: Guide lists them (Spark 3.5 and 4.x); every ``kafka.``-prefixed name goes to the Kafka
#: consumer itself.
SPARK_KAFKA_SOURCE_OPTIONS = frozenset({
    "assign", "subscribe", "subscribePattern", "kafka.bootstrap.servers",
    "startingTimestamp", "startingOffsetsByTimestamp", "startingOffsets",
    "startingOffsetsByTimestampStrategy", "endingTimestamp", "endingOffsetsByTimestamp",
    "endingOffsets", "failOnDataLoss", "kafkaConsumer.pollTimeoutMs", "fetchOffset.numRetries",
    "fetchOffset.retryIntervalMs", "maxOffsetsPerTrigger", "minOffsetsPerTrigger", "maxTriggerDelay",
    "minPartitions", "maxRecordsPerPartition", "groupIdPrefix", "kafka.group.id", "includeHeaders",
})
#: Spark's option names of the Kafka sink (same guide); ``kafka.``-prefixed names go to the
#: Kafka producer.
SPARK_KAFKA_SINK_OPTIONS = frozenset({"kafka.bootstrap.servers", "topic", "includeHeaders"})

KAFKA_PACKAGE_NOTE = ("the Kafka source and sink need Spark's Kafka connector on the class path: "
                      "start Spark with spark.jars.packages={}")

#: Flink's Kafka starting positions (``scan.startup.mode`` and ``KafkaOffsetsInitializer``)
#: that Spark's ``startingOffsets`` has.
_STARTING = {"earliest-offset": "earliest", "latest-offset": "latest", "earliest": "earliest",
             "latest": "latest"}


def _py(value: Any) -> str:
    return repr(value)


@attrs.frozen
class ReaderSpec:
    """A streaming read.

    :param format: Spark's source format (``kafka``, ``text``, ``csv``, ``rate``...).
    :param options: Its options, by Spark's names.
    :param schema: A DDL schema for the file formats, else None.
    :param path: The path for a file source.
    :param columns: SQL expressions to select from what the source gives (None: all).
    :param bounded: Whether the source ends (a bounded sink then ends the job).
    :param kafka: Whether it needs Spark's Kafka connector.
    """

    format: str
    options: Tuple[Tuple[str, str], ...] = ()
    schema: Optional[str] = None
    path: Optional[str] = None
    columns: Optional[Tuple[str, ...]] = None
    bounded: bool = False
    kafka: bool = False
    #: what the runtime's connector said it left out or changed, for the report
    notes: Tuple[str, ...] = ()
    #: whether ``columns`` gives one struct column ``row`` whose fields become the columns
    flatten: bool = False
    #: the imports the written read needs
    imports: Tuple[str, ...] = ()
    #: for files read as the runtime reads them: (paths, mode, charset) of
    #: :func:`pyflink_compat.sources.text_lines`
    lines: Optional[Tuple[Tuple[str, ...], str, str]] = None

    def render(self, spark: str) -> str:
        """The PySpark expression of the streaming DataFrame, from the session ``spark``."""
        if self.lines is not None:
            paths, mode, charset = self.lines
            return "text_lines({}, {}, {}, {}, bounded={})".format(
                spark, _py(list(paths)), _py(mode), _py(charset), self.bounded)
        parts = ["{}.readStream.format({})".format(spark, _py(self.format))]
        if self.schema is not None:
            parts.append(".schema({})".format(_py(self.schema)))
        parts += [".option({}, {})".format(_py(k), _py(v)) for k, v in self.options]
        parts.append(".load({})".format("" if self.path is None else _py(self.path)))
        if self.columns is not None:
            parts.append(".selectExpr({})".format(", ".join(_py(c) for c in self.columns)))
        if self.flatten:
            parts.append('.select("row.*")')
        return "(" + "\n    ".join(parts) + ")"


@attrs.frozen
class WriterSpec:
    """A streaming write.

    :param format: Spark's sink format (``kafka``, ``console``, ``parquet``...).
    :param options: Its options, by Spark's names.
    :param columns: SQL expressions of the columns to write (None: all).
    :param kafka: Whether it needs Spark's Kafka connector.
    :param note: What Spark does differently, for a comment above the write.
    :param names: The sink's column names, given by position to what is written (as
        ``INSERT INTO`` does).
    :param foreach: For a print sink, the ``foreachBatch`` function (a Python expression using
        :data:`PRINT_IMPORT`'s names) that prints every row as the runtime's print sink does:
        Spark's console sink would show the first 20 rows of a batch, cut to 20 characters.
    """

    format: str
    options: Tuple[Tuple[str, str], ...] = ()
    columns: Optional[Tuple[str, ...]] = None
    kafka: bool = False
    note: Optional[str] = None
    names: Optional[Tuple[str, ...]] = None
    foreach: Optional[str] = None
    #: the imports the written write needs
    imports: Tuple[str, ...] = ()

    def render(self, frame: str, output_mode: Optional[str] = None) -> str:
        """The PySpark ``DataStreamWriter`` expression writing the DataFrame ``frame``."""
        parts = [frame]
        if self.names is not None:
            parts.append(".toDF({})".format(", ".join(_py(n) for n in self.names)))
        if self.columns is not None:
            parts.append(".selectExpr({})".format(", ".join(_py(c) for c in self.columns)))
        parts.append(".writeStream")
        if output_mode is not None:
            parts.append(".outputMode({})".format(_py(output_mode)))
        if self.foreach is not None:
            parts.append(".foreachBatch({})".format(self.foreach))
            return "(" + "\n    ".join(parts) + ")"
        parts.append(".format({})".format(_py(self.format)))
        parts += [".option({}, {})".format(_py(k), _py(v)) for k, v in self.options]
        return "(" + "\n    ".join(parts) + ")"


#: The import the written print sinks need.
PRINT_IMPORT = "from pyflink_compat.connectors.print_sink import ChangelogPrinter, print_lines"
#: A DataStream's ``print()``: each record's text on its own line, every row of every batch.
DATASTREAM_PRINT = WriterSpec("print", foreach="lambda batch, _: print_lines(batch, None, False)",
                              imports=(PRINT_IMPORT,))
#: A print table written by an INSERT that does not aggregate: Flink's ``+I[...]`` rows.
TABLE_PRINT = WriterSpec("print", foreach="ChangelogPrinter(None, False, False, ())", imports=(PRINT_IMPORT,))


def _kafka_properties(properties: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """Kafka client properties as Spark's ``kafka.``-prefixed options."""
    return [("kafka." + str(k), str(v)) for k, v in properties.items()]


def _value_columns(deserializer: Optional[str]) -> Optional[Tuple[str, ...]]:
    if deserializer in (None, "SimpleStringSchema"):
        return ("CAST(value AS STRING) AS value",)
    return None


def _runtime_value(value: Any) -> Any:
    """A value the pipeline writer evaluated from the code, as the pyflink_compat object the
    job's own call would build (a serialization schema, a start position, a guarantee)."""
    if value == "SimpleStringSchema":
        from pyflink_compat.common.serialization import SimpleStringSchema

        return SimpleStringSchema()
    if value in ("earliest", "latest"):
        from pyflink_compat.datastream.connectors.kafka import KafkaOffsetsInitializer

        return getattr(KafkaOffsetsInitializer, value)()
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "DeliveryGuarantee":
        from pyflink_compat.datastream.connectors import DeliveryGuarantee

        return DeliveryGuarantee[value[1]]
    if isinstance(value, dict) and set(value) <= {"topic", "value"}:
        from pyflink_compat.datastream.connectors.kafka import KafkaRecordSerializationSchema

        builder = KafkaRecordSerializationSchema.builder()
        if "topic" in value:
            builder = builder.set_topic(value["topic"])
        return builder.set_value_serialization_schema(_runtime_value(value.get("value", "SimpleStringSchema"))).build()
    return value


def _built(builder: Any, calls: Sequence[Tuple[str, List[Any]]]) -> Any:
    """``builder`` after ``calls`` (method, evaluated arguments) up to ``build()``."""
    for method, args in calls:
        if method == "build":
            break
        builder = getattr(builder, method)(*[_runtime_value(a) for a in args])
    return builder.build()


def _runtime(make: Any, notes: Optional[List[str]] = None) -> Optional[Any]:
    """What the runtime builds with ``make()`` (what its connectors say they drop or change
    added to ``notes``); None when it refuses it."""
    import warnings

    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            made = make()
    except Exception:  # noqa: BLE001 - what the runtime refuses is not written
        return None
    if notes is not None:
        notes.extend(" ".join(str(w.message).split()) for w in seen)
    return made


def _simple_string(attribute: str) -> Any:
    return getattr(_runtime_value("SimpleStringSchema"), attribute)


def _string_values(deserializer: Any) -> bool:
    from pyflink_compat.common.serialization import SimpleStringSchema

    return isinstance(deserializer, SimpleStringSchema)


def _reader_of(source: Any) -> Optional[ReaderSpec]:
    """The streaming read of a ``KafkaSource`` / ``FlinkKafkaConsumer`` of text values, with
    the options of the runtime's Kafka reader (:class:`pyflink_compat.runtime.kafka_io.KafkaSourceReader`)."""
    from pyflink_compat.runtime.kafka_io import KafkaSourceReader

    notes: List[str] = []
    reader = _runtime(lambda: KafkaSourceReader(source), notes)
    if reader is None or reader.description["deserializer"] != _simple_string("_j_deserialization_schema"):
        return None
    return ReaderSpec("kafka", tuple(reader.options.items()), columns=("CAST(value AS STRING) AS value",),
                      kafka=True, notes=tuple(notes))


def kafka_source(calls: Sequence[Tuple[str, List[Any]]]) -> Optional[ReaderSpec]:
    """``KafkaSource.builder()`` followed by ``calls`` (method, evaluated arguments) up to
    ``build()``, built by pyflink_compat's builder and mapped as its runtime maps it.
    Deserializers are given by their class name."""
    from pyflink_compat.datastream.connectors.kafka import KafkaSource

    source = _runtime(lambda: _built(KafkaSource.builder(), calls), [])
    return None if source is None else _reader_of(source)


def kafka_consumer(topics: Any, deserializer: Optional[str], properties: Mapping[str, Any]) -> Optional[ReaderSpec]:
    """``FlinkKafkaConsumer(topics, deserialization_schema, properties)``, mapped as the
    runtime maps it (from the group's committed offsets, as Flink's consumer starts)."""
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaConsumer

    consumer = _runtime(lambda: FlinkKafkaConsumer(topics, _runtime_value(deserializer), dict(properties)), [])
    return None if consumer is None else _reader_of(consumer)


_DELIVERY_NOTE = ("Spark's Kafka sink writes at least once (a replayed micro-batch is written "
                  "again), whatever the delivery guarantee asked of Flink's sink")


def _writer_of(sink: Any) -> Optional[WriterSpec]:
    """The streaming write of text values to a ``KafkaSink`` / ``FlinkKafkaProducer``, with the
    options of the runtime's Kafka writer (:func:`pyflink_compat.runtime.kafka_io.sink_options`)."""
    from pyflink_compat.runtime.kafka_io import sink_options

    description = dict(sink.get_java_function())
    notes: List[str] = []
    options = _runtime(lambda: sink_options(description), notes)
    if options is None or description.get("serializer") != _simple_string("_j_serialization_schema"):
        return None
    return WriterSpec("kafka", tuple(options.items()), columns=("CAST(value AS STRING) AS value",),
                      kafka=True, note=" ".join([_DELIVERY_NOTE + "."] + notes))


def kafka_sink(calls: Sequence[Tuple[str, List[Any]]]) -> Optional[WriterSpec]:
    """``KafkaSink.builder()`` followed by ``calls``, built by pyflink_compat's builder; the
    record serializer is given as a dict ``{"topic": ..., "value": <serializer class name>}``."""
    from pyflink_compat.datastream.connectors.kafka import KafkaSink

    sink = _runtime(lambda: _built(KafkaSink.builder(), calls), [])
    return None if sink is None else _writer_of(sink)


def kafka_producer(topic: Any, serializer: Optional[str], properties: Mapping[str, Any]) -> Optional[WriterSpec]:
    """``FlinkKafkaProducer(topic, serialization_schema, producer_config)``."""
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaProducer

    producer = _runtime(lambda: FlinkKafkaProducer(topic, _runtime_value(serializer), dict(properties)), [])
    return None if producer is None else _writer_of(producer)


#: The imports of the written file sources and sinks.
LINES_IMPORT = "from pyflink_compat.sources import text_lines"
FILE_PARTS_IMPORT = "from pyflink_compat.sinks import FilePartWriter"


def _lines_reader(reader: Any, paths: Sequence[str], kind: str) -> ReaderSpec:
    """The written read of what the runtime's file reader ``reader`` reads (the job's own
    ``paths``: the reader holds them made absolute where the tool runs)."""
    return ReaderSpec(kind, path=None, bounded=reader.bounded, imports=(LINES_IMPORT,),
                      lines=(tuple(paths), reader.mode, reader.charset))


def file_source(source: Any) -> Optional[ReaderSpec]:
    """A ``FileSource`` (pyflink_compat's, built from the job's configuration) read as the
    runtime's reader reads it (:func:`pyflink_compat.runtime.connector_io.file_source_reader`);
    None when the runtime refuses it."""
    from pyflink_compat.runtime.connector_io import file_source_reader

    reader = _runtime(lambda: file_source_reader(source))
    return None if reader is None else _lines_reader(reader, source.get_java_function()["paths"], "text")


def text_file(file_path: str, charset_name: str = "UTF-8") -> Optional[ReaderSpec]:
    """``read_text_file(file_path, charset_name)`` read as the runtime reads it."""
    from pyflink_compat.runtime.connector_io import text_file_reader

    reader = _runtime(lambda: text_file_reader(file_path, charset_name))
    return None if reader is None else _lines_reader(reader, [file_path], "text")


_ROLLING_NOTE = ("the part files roll at the rolling policy's part size and at every micro-batch "
                 "(Spark commits each micro-batch), not at its time intervals")


def file_sink(sink: Any) -> Optional[WriterSpec]:
    """A ``FileSink`` (pyflink_compat's, built from the job's configuration) writing a
    DataFrame's ``value`` column as the runtime's file sink writes it; None when the runtime
    refuses it."""
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.runtime.connector_io import sink_batch

    if _runtime(lambda: sink_batch(sink, Types.STRING(), "FileSink")) is None:
        return None
    spec = dict(sink.get_java_function())
    rolling = spec["rolling_policy"]["kind"] == "default"
    return WriterSpec("files", foreach="FilePartWriter({!r})".format(spec),
                      imports=(FILE_PARTS_IMPORT,), note=_ROLLING_NOTE if rolling else None)
