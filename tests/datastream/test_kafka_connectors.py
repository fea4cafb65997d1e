"""Kafka in DataStream jobs maps to Spark's Kafka source and sink through the one mapping of
Kafka tables, with Flink's start positions.

No broker runs where these tests run and Spark's Kafka connector jar is not installed: the
mapped options are checked against the validation Spark's Kafka source and sink perform
(:mod:`tests._helpers.kafka_validation`), records are decoded and encoded by the same functions
the job's Spark workers call, and a job that needs the connector fails at the call naming the
package."""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict

import pytest

from pyflink_compat.common import Row, SimpleStringSchema, Types
from pyflink_compat.connectors.options import ConnectorOptionWarning
from pyflink_compat.datastream.connectors import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (
    FlinkKafkaConsumer, FlinkKafkaProducer, KafkaOffsetResetStrategy, KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema, KafkaSink, KafkaSource, KafkaTopicPartition, Semantic)
from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.runtime.kafka_io import decode, encode, sink_options, source_options
from tests._helpers.kafka_validation import passes_spark_sink_validation, passes_spark_source_validation

ROW = Types.ROW_NAMED(["user", "n"], [Types.STRING(), Types.INT()])


def _builder() -> Any:
    return KafkaSource.builder().set_bootstrap_servers("broker:9092").set_topics("clicks") \
        .set_group_id("g").set_value_only_deserializer(SimpleStringSchema())


def _options(source: Any) -> Dict[str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConnectorOptionWarning)
        return source_options(source.get_java_function())


def test_a_kafka_source_starts_at_flinks_default_the_earliest_offsets_given_to_spark_explicitly():
    options = _options(_builder().build())
    assert options == {"kafka.bootstrap.servers": "broker:9092", "kafka.group.id": "g",
                       "subscribe": "clicks", "startingOffsets": "earliest"}
    assert passes_spark_source_validation(options)


@pytest.mark.parametrize("initializer, expected", [
    (KafkaOffsetsInitializer.latest(), {"startingOffsets": "latest"}),
    (KafkaOffsetsInitializer.timestamp(1700000000000), {"startingTimestamp": "1700000000000"}),
    (KafkaOffsetsInitializer.offsets({KafkaTopicPartition("clicks", 1): 300,
                                      KafkaTopicPartition("clicks", 0): 42}),
     {"startingOffsets": json.dumps({"clicks": {"0": 42, "1": 300}})}),
    (KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.LATEST), {"startingOffsets": "latest"}),
])
def test_each_start_position_maps_to_the_same_start_on_spark(initializer, expected):
    options = _options(_builder().set_starting_offsets(initializer).build())
    assert {k: options[k] for k in expected} == expected
    assert passes_spark_source_validation(options)


def test_partitions_and_topic_patterns_map_to_spark_options_and_a_bounded_end_is_refused():
    assigned = _options(_builder().set_partitions({KafkaTopicPartition("clicks", 2)}).build())
    assert json.loads(assigned["assign"]) == {"clicks": [2]} and "subscribe" not in assigned
    assert passes_spark_source_validation(assigned)
    pattern = _options(KafkaSource.builder().set_bootstrap_servers("b:1").set_topic_pattern("c.*")
                       .set_value_only_deserializer(SimpleStringSchema()).build())
    assert pattern["subscribePattern"] == "c.*" and passes_spark_source_validation(pattern)
    with pytest.raises(NotSupportedError, match="KafkaSourceBuilder.set_bounded.*endingOffsets"):
        _builder().set_bounded(KafkaOffsetsInitializer.latest()).build()


def test_a_legacy_consumer_starts_at_its_groups_reset_strategy_and_refused_properties_are_not_passed():
    """The registered divergence ``datastream-kafka-group-offsets-start``: Spark does not read
    a group's committed offsets, so the consumer starts where Flink starts for a group without
    them (the Kafka client's ``auto.offset.reset``, ``latest`` by default)."""
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    assert "datastream-kafka-group-offsets-start" in {d.id for d in RUNTIME_DIVERGENCES}
    with pytest.warns(DeprecationWarning):
        consumer = FlinkKafkaConsumer("clicks", SimpleStringSchema(),
                                      {"bootstrap.servers": "broker:9092", "group.id": "g",
                                       "enable.auto.commit": "true"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = source_options(consumer.get_java_function())
    texts = [str(w.message) for w in caught if issubclass(w.category, ConnectorOptionWarning)]
    assert any("committed offsets of group 'g'" in t for t in texts)
    assert any("'properties.enable.auto.commit'" in t for t in texts)
    assert options["startingOffsets"] == "latest" and passes_spark_source_validation(options)
    consumer.set_start_from_earliest()
    assert _options(consumer)["startingOffsets"] == "earliest"


def test_a_source_missing_what_flink_requires_fails_at_build_with_flinks_message():
    with pytest.raises(ValueError, match="Property bootstrap.servers is required but not provided"):
        KafkaSource.builder().set_topics("t").set_value_only_deserializer(SimpleStringSchema()).build()
    with pytest.raises(ValueError, match="No subscribe mode is specified"):
        KafkaSource.builder().set_bootstrap_servers("b:1").set_value_only_deserializer(SimpleStringSchema()).build()
    with pytest.raises(ValueError, match="Deserialization schema is required but not provided."):
        KafkaSource.builder().set_bootstrap_servers("b:1").set_topics("t").build()
    with pytest.raises(NotSupportedError, match="KafkaSourceBuilder.set_unbounded"):
        _builder().set_unbounded(KafkaOffsetsInitializer.latest())


def _sink(guarantee: DeliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE) -> KafkaSink:
    return KafkaSink.builder().set_bootstrap_servers("broker:9092").set_delivery_guarantee(guarantee) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("out")
                               .set_value_serialization_schema(SimpleStringSchema()).build()).build()


def test_kafka_sinks_map_to_spark_options_and_exactly_once_is_refused_with_the_pyspark_way():
    options = sink_options(_sink().get_java_function())
    assert options == {"kafka.bootstrap.servers": "broker:9092", "topic": "out"}
    assert passes_spark_sink_validation(options)
    with pytest.raises(NotSupportedError, match="at least once"):
        _sink(DeliveryGuarantee.EXACTLY_ONCE)
    producer = FlinkKafkaProducer("out", SimpleStringSchema(), {"bootstrap.servers": "broker:9092"},
                                  semantic=Semantic.EXACTLY_ONCE)
    with pytest.raises(NotSupportedError, match="at least once"):
        sink_options(producer.get_java_function())


def test_values_are_read_and_written_as_flinks_schemas_do():
    assert decode(("simple-string", "UTF-8"), "h\u00e9".encode("utf-8")) == "h\u00e9"
    schema = JsonRowDeserializationSchema.builder().type_info(ROW).build()._j_deserialization_schema
    assert decode(schema, b'{"user": "a", "n": 3, "x": 1}') == Row(user="a", n=3)
    assert decode(schema, b'{"user": "a"}') == Row(user="a", n=None)
    with pytest.raises(IOError, match="Failed to deserialize JSON object."):
        decode(schema, b"not json")
    lenient = JsonRowDeserializationSchema.builder().type_info(ROW).ignore_parse_errors().build()
    assert decode(lenient._j_deserialization_schema, b"not json") is None  # skipped, as in Flink
    writer = JsonRowSerializationSchema.builder().with_type_info(ROW).build()._j_serialization_schema
    assert encode(writer, Row("a", 3), ROW) == b'{"user":"a","n":3}'
    assert encode(("simple-string", "UTF-8"), (1, "a"), Types.TUPLE([Types.INT(), Types.STRING()])) == b"(1,a)"


def test_a_kafka_job_without_sparks_kafka_connector_fails_at_the_call_naming_the_package():
    from pyflink_compat.common import WatermarkStrategy
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConnectorOptionWarning)
        stream = env.from_source(_builder().build(), WatermarkStrategy.for_monotonous_timestamps(), "kafka")
    assert env._unbounded_sources
    with pytest.raises(RuntimeError, match=r"Kafka source needs Spark's Kafka connector.*spark-sql-kafka-0-10"):
        stream.print()
    ints = env.from_collection(["a"], type_info=Types.STRING())
    with pytest.raises(RuntimeError, match=r"Kafka sink needs Spark's Kafka connector.*spark.jars.packages"):
        ints.sink_to(_sink())
