"""PyFlink's ``pyflink.datastream.connectors.kafka``: Kafka topics as sources and sinks.

The builders record what a job configures in a plain description (a dict);
``pyflink_compat.runtime.kafka_io`` maps it to Spark's Kafka source and sink options
through the same mapping as Kafka tables (``pyflink_compat.connectors.kafka``), with
Flink's start positions: ``KafkaSource`` starts at the earliest offsets unless told otherwise,
``FlinkKafkaConsumer`` at the group's offsets (where the ``auto.offset.reset`` property, by
default ``latest``, says for a group without committed offsets).
"""
import warnings
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Set, Union

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.datastream.connectors.base import (
    DeliveryGuarantee, Sink, Source, StreamTransformer, SupportsPreprocessing)
from pyflink_compat.datastream.functions import SinkFunction, SourceFunction
from pyflink_compat.missing import not_supported

_MODULE = 'pyflink.datastream.connectors.kafka'

__all__ = ['FlinkKafkaConsumer', 'FlinkKafkaProducer', 'KafkaSource', 'KafkaSourceBuilder',
    'KafkaSink', 'KafkaSinkBuilder', 'Semantic', 'KafkaTopicPartition', 'KafkaOffsetsInitializer',
    'KafkaOffsetResetStrategy', 'KafkaRecordSerializationSchema',
    'KafkaRecordSerializationSchemaBuilder', 'KafkaTopicSelector']


# ---- legacy source and sink functions ----

class FlinkKafkaConsumerBase(SourceFunction, ABC):
    """What the legacy Kafka consumers configure.

    :param j_flink_kafka_consumer: The description of the consumer.
    """

    def __init__(self, j_flink_kafka_consumer: Dict[str, Any]):
        super(FlinkKafkaConsumerBase, self).__init__(source_func=j_flink_kafka_consumer)

    def set_commit_offsets_on_checkpoints(self, commit_on_checkpoints: bool) -> 'FlinkKafkaConsumerBase':
        """Recorded: Spark keeps the offsets in the query's checkpoint, not in the group."""
        self._j_function["commit_on_checkpoints"] = bool(commit_on_checkpoints)
        return self

    def set_start_from_earliest(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = ("earliest",)
        return self

    def set_start_from_latest(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = ("latest",)
        return self

    def set_start_from_timestamp(self, startup_offsets_timestamp: int) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = ("timestamp", int(startup_offsets_timestamp))
        return self

    def set_start_from_group_offsets(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = ("committed", self._j_function["reset"])
        return self

    def disable_filter_restored_partitions_with_subscribed_topics(self) -> 'FlinkKafkaConsumerBase':
        return self

    def get_produced_type(self) -> Any:
        from pyflink_compat.runtime.kafka_io import produced_type

        return produced_type(self._j_function["deserializer"])


class FlinkKafkaConsumer(FlinkKafkaConsumerBase):
    """The legacy Kafka source function, for ``env.add_source``.

    :param topics: The topic or topics to read.
    :param deserialization_schema: How the values become records.
    :param properties: The Kafka client properties (``bootstrap.servers``, ``group.id``...).
    """

    def __init__(self, topics: Union[str, List[str]], deserialization_schema: DeserializationSchema,
                 properties: Dict):
        warnings.warn("Deprecated in 1.16. Use KafkaSource instead.", DeprecationWarning, stacklevel=2)
        names = [topics] if isinstance(topics, str) else list(topics)
        # the Kafka client's own default for a group without committed offsets
        reset = str(properties.get("auto.offset.reset", "latest")).lower()
        super(FlinkKafkaConsumer, self).__init__(j_flink_kafka_consumer={
            "topics": names, "topic_pattern": None, "partitions": None,
            "deserializer": deserialization_schema._j_deserialization_schema,
            "properties": {str(k): str(v) for k, v in properties.items()},
            "starting": ("committed", reset), "stopping": None, "reset": reset})


class Semantic(Enum):
    """The delivery guarantee of ``FlinkKafkaProducer``."""

    # The trailing commas give the same member values as PyFlink's.
    EXACTLY_ONCE = 0,
    AT_LEAST_ONCE = 1,
    NONE = 2


class FlinkKafkaProducerBase(SinkFunction, ABC):
    """What the legacy Kafka producers configure.

    :param j_flink_kafka_producer: The description of the producer.
    """

    def __init__(self, j_flink_kafka_producer: Dict[str, Any]):
        super(FlinkKafkaProducerBase, self).__init__(sink_func=j_flink_kafka_producer)

    def set_log_failures_only(self, log_failures_only: bool) -> 'FlinkKafkaProducerBase':
        if log_failures_only:
            raise not_supported("FlinkKafkaProducerBase.set_log_failures_only", _MODULE)
        return self

    def set_flush_on_checkpoint(self, flush_on_checkpoint: bool) -> 'FlinkKafkaProducerBase':
        """Recorded: Spark's Kafka writer flushes at the end of each micro-batch."""
        return self

    def set_write_timestamp_to_kafka(self, write_timestamp_to_kafka: bool) -> 'FlinkKafkaProducerBase':
        if write_timestamp_to_kafka:
            raise not_supported("FlinkKafkaProducerBase.set_write_timestamp_to_kafka", _MODULE)
        return self


class FlinkKafkaProducer(FlinkKafkaProducerBase):
    """The legacy Kafka sink function, for ``DataStream.add_sink``.

    :param topic: The topic written to.
    :param serialization_schema: How records become values.
    :param producer_config: The Kafka client properties.
    :param kafka_producer_pool_size: Recorded (Spark's writer pools its producers itself).
    :param semantic: The delivery guarantee; exactly-once is refused (Spark's Kafka writer
        writes at least once).
    """

    def __init__(self, topic: str, serialization_schema: SerializationSchema,
                 producer_config: Dict, kafka_producer_pool_size: int = 5,
                 semantic: Semantic = Semantic.AT_LEAST_ONCE):
        super(FlinkKafkaProducer, self).__init__(j_flink_kafka_producer={
            "topic": topic, "serializer": serialization_schema._j_serialization_schema,
            "properties": {str(k): str(v) for k, v in producer_config.items()},
            "guarantee": semantic.name})

    def ignore_failures_after_transaction_timeout(self) -> 'FlinkKafkaProducer':
        return self


# ---- KafkaSource ----

class KafkaSource(Source):
    """The Kafka source of ``env.from_source``; built with :meth:`builder`.

    :param j_kafka_source: The description of the source.
    """

    def __init__(self, j_kafka_source: Dict[str, Any]):
        super(KafkaSource, self).__init__(source=j_kafka_source)

    @staticmethod
    def builder() -> 'KafkaSourceBuilder':
        return KafkaSourceBuilder()


class KafkaSourceBuilder(object):
    """Configures a :class:`KafkaSource`: servers, topics, start and end, value format."""

    def __init__(self) -> None:
        self._j_builder: Dict[str, Any] = {
            "topics": None, "topic_pattern": None, "partitions": None, "deserializer": None,
            "properties": {}, "starting": ("earliest",), "stopping": None}

    def build(self) -> 'KafkaSource':
        """The source; fails as Flink's builder does when servers, topics or the value format
        are missing, and when Spark cannot take what it configures."""
        from pyflink_compat.runtime.kafka_io import source_options

        description = dict(self._j_builder)
        source_options(description)
        return KafkaSource(description)

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSourceBuilder':
        self._j_builder["properties"]["bootstrap.servers"] = bootstrap_servers
        return self

    def set_group_id(self, group_id: str) -> 'KafkaSourceBuilder':
        self._j_builder["properties"]["group.id"] = group_id
        return self

    def set_topics(self, *topics: str) -> 'KafkaSourceBuilder':
        self._j_builder["topics"] = list(topics)
        return self

    def set_topic_pattern(self, topic_pattern: str) -> 'KafkaSourceBuilder':
        self._j_builder["topic_pattern"] = topic_pattern
        return self

    def set_partitions(self, partitions: Set['KafkaTopicPartition']) -> 'KafkaSourceBuilder':
        self._j_builder["partitions"] = sorted((p._topic, p._partition) for p in partitions)
        return self

    def set_starting_offsets(self, starting_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._j_builder["starting"] = starting_offsets_initializer._j_initializer
        return self

    def set_unbounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        raise not_supported("KafkaSourceBuilder.set_unbounded", _MODULE)

    def set_bounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._j_builder["stopping"] = stopping_offsets_initializer._j_initializer
        return self

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema) \
            -> 'KafkaSourceBuilder':
        self._j_builder["deserializer"] = deserialization_schema._j_deserialization_schema
        return self

    def set_client_id_prefix(self, prefix: str) -> 'KafkaSourceBuilder':
        self._j_builder["properties"]["client.id.prefix"] = prefix
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSourceBuilder':
        self._j_builder["properties"][key] = value
        return self

    def set_properties(self, props: Dict) -> 'KafkaSourceBuilder':
        for key, value in props.items():
            self._j_builder["properties"][str(key)] = str(value)
        return self


class KafkaTopicPartition(object):
    """A partition of a topic.

    :param topic: The topic.
    :param partition: The partition's number.
    """

    def __init__(self, topic: str, partition: int):
        self._topic = topic
        self._partition = partition

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, KafkaTopicPartition):
            return False
        return self._topic == other._topic and self._partition == other._partition

    def __hash__(self) -> int:
        return 31 * (31 + self._partition) + hash(self._topic)


class KafkaOffsetResetStrategy(Enum):
    """Where a group without committed offsets starts."""

    LATEST = 0
    EARLIEST = 1
    NONE = 2


class KafkaOffsetsInitializer(object):
    """Where a Kafka source starts or ends.

    :param j_initializer: The description of the position.
    """

    def __init__(self, j_initializer: Any):
        self._j_initializer = j_initializer

    @staticmethod
    def committed_offsets(offset_reset_strategy: KafkaOffsetResetStrategy = KafkaOffsetResetStrategy.NONE) \
            -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("committed", offset_reset_strategy.name.lower()))

    @staticmethod
    def timestamp(timestamp: int) -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("timestamp", int(timestamp)))

    @staticmethod
    def earliest() -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("earliest",))

    @staticmethod
    def latest() -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("latest",))

    @staticmethod
    def offsets(offsets: Dict['KafkaTopicPartition', int],
                offset_reset_strategy: KafkaOffsetResetStrategy = KafkaOffsetResetStrategy.EARLIEST) \
            -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("offsets", sorted((tp._topic, tp._partition, int(offset))
                                                          for tp, offset in offsets.items()),
                                        offset_reset_strategy.name.lower()))


# ---- KafkaSink ----

class KafkaSink(Sink, SupportsPreprocessing):
    """The Kafka sink of ``DataStream.sink_to``; built with :meth:`builder`.

    :param j_kafka_sink: The description of the sink.
    :param transformer: Transforms the stream before it is written.
    """

    def __init__(self, j_kafka_sink: Dict[str, Any], transformer: Optional[StreamTransformer] = None):
        super(KafkaSink, self).__init__(sink=j_kafka_sink)
        self._transformer = transformer

    @staticmethod
    def builder() -> 'KafkaSinkBuilder':
        return KafkaSinkBuilder()

    def get_transformer(self) -> Optional[StreamTransformer]:
        return self._transformer


class KafkaSinkBuilder(object):
    """Configures a :class:`KafkaSink`: servers, record serializer, delivery guarantee."""

    def __init__(self) -> None:
        self._j_builder: Dict[str, Any] = {"properties": {}, "guarantee": DeliveryGuarantee.NONE.name,
                                           "topic": None, "serializer": None}

    def build(self) -> 'KafkaSink':
        """The sink; fails when Spark cannot take what it configures."""
        from pyflink_compat.runtime.kafka_io import sink_options

        description = dict(self._j_builder)
        sink_options(description)
        return KafkaSink(description)

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSinkBuilder':
        self._j_builder["properties"]["bootstrap.servers"] = bootstrap_servers
        return self

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee) -> 'KafkaSinkBuilder':
        self._j_builder["guarantee"] = delivery_guarantee.name
        return self

    def set_transactional_id_prefix(self, transactional_id_prefix: str) -> 'KafkaSinkBuilder':
        self._j_builder["transactional_id_prefix"] = transactional_id_prefix
        return self

    def set_record_serializer(self, record_serializer: 'KafkaRecordSerializationSchema') \
            -> 'KafkaSinkBuilder':
        self._j_builder["topic"] = record_serializer._topic
        self._j_builder["serializer"] = record_serializer._j_serialization_schema
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSinkBuilder':
        self._j_builder["properties"][key] = value
        return self


class KafkaRecordSerializationSchema(SerializationSchema):
    """How a Kafka sink turns a record into a Kafka record: its topic and value.

    :param j_serialization_schema: The value's serialization.
    :param topic: The topic written to.
    """

    def __init__(self, j_serialization_schema: Any, topic: Optional[str] = None):
        super(KafkaRecordSerializationSchema, self).__init__(j_serialization_schema)
        self._topic = topic

    @staticmethod
    def builder() -> 'KafkaRecordSerializationSchemaBuilder':
        return KafkaRecordSerializationSchemaBuilder()


class KafkaRecordSerializationSchemaBuilder(object):
    """Builds a :class:`KafkaRecordSerializationSchema` of one topic and a value schema."""

    def __init__(self) -> None:
        self._topic: Optional[str] = None
        self._value_serialization_schema: Optional[SerializationSchema] = None

    def build(self) -> 'KafkaRecordSerializationSchema':
        if self._topic is None:
            raise ValueError("No topic or topic selector specified.")
        if self._value_serialization_schema is None:
            raise ValueError("No value serializer is configured.")
        return KafkaRecordSerializationSchema(
            self._value_serialization_schema._j_serialization_schema, self._topic)

    def set_topic(self, topic: str) -> 'KafkaRecordSerializationSchemaBuilder':
        self._topic = topic
        return self

    def set_topic_selector(self, topic_selector: Union[Callable[[Any], str], 'KafkaTopicSelector']) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        raise not_supported("KafkaRecordSerializationSchemaBuilder.set_topic_selector", _MODULE)

    def set_key_serialization_schema(self, key_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        raise not_supported("KafkaRecordSerializationSchemaBuilder.set_key_serialization_schema", _MODULE)

    def set_value_serialization_schema(self, value_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        self._value_serialization_schema = value_serialization_schema
        return self


class KafkaTopicSelector(ABC):
    """Chooses the topic of each record."""

    @abstractmethod
    def apply(self, data: Any) -> str:
        pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
