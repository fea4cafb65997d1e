"""The validation Spark's Kafka source and sink perform on their options, as Spark documents it
(``KafkaSourceProvider``): Spark's Kafka connector jar is not installed where the tests run and
no broker runs, so mapped options are checked against these rules.

Source: exactly one of ``subscribe``, ``subscribePattern``, ``assign``; ``kafka.bootstrap.servers``
required; the Kafka client properties ``auto.offset.reset``, ``enable.auto.commit``,
``key.deserializer``, ``value.deserializer``, ``key.serializer``, ``value.serializer`` and
``interceptor.classes`` refused; ``endingOffsets`` and ``endingOffsetsByTimestamp`` refused
("ending offset not valid in streaming queries": a streaming Kafka source has no end); otherwise
only ``kafka.*`` and Spark's own source options.
A batch read (``spark.read``) also takes ``endingOffsets`` / ``endingTimestamp``, but neither
``startingOffsets`` ``latest`` nor ``endingOffsets`` ``earliest``.
Sink: ``kafka.bootstrap.servers`` required, the same client properties refused.
"""

from __future__ import annotations

from typing import Dict

SPARK_SOURCE_OPTIONS = {"subscribe", "subscribePattern", "assign", "startingOffsets", "startingTimestamp",
                        "failOnDataLoss", "maxOffsetsPerTrigger", "minPartitions", "groupIdPrefix",
                        "includeHeaders"}
SPARK_SINK_OPTIONS = {"topic", "includeHeaders"}
SPARK_REFUSED = {"kafka." + key for key in ("auto.offset.reset", "enable.auto.commit", "key.deserializer",
                                            "value.deserializer", "key.serializer", "value.serializer",
                                            "interceptor.classes")}


def passes_spark_source_validation(options: Dict[str, str]) -> bool:
    """Whether Spark's Kafka source accepts ``options``."""
    subscriptions = [k for k in ("subscribe", "subscribePattern", "assign") if k in options]
    return (len(subscriptions) == 1 and "kafka.bootstrap.servers" in options
            and not (set(options) & SPARK_REFUSED)
            and all(k.startswith("kafka.") or k in SPARK_SOURCE_OPTIONS for k in options))


def passes_spark_batch_source_validation(options: Dict[str, str]) -> bool:
    """Whether Spark's batch Kafka reader (``spark.read.format("kafka")``) accepts ``options``."""
    ends = {k: v for k, v in options.items() if k in ("endingOffsets", "endingTimestamp")}
    rest = {k: v for k, v in options.items() if k not in ends}
    return (passes_spark_source_validation(rest) and options.get("startingOffsets") != "latest"
            and options.get("endingOffsets") != "earliest")


def passes_spark_sink_validation(options: Dict[str, str]) -> bool:
    """Whether Spark's Kafka sink accepts ``options``."""
    return ("kafka.bootstrap.servers" in options and not (set(options) & SPARK_REFUSED)
            and all(k.startswith("kafka.") or k in SPARK_SINK_OPTIONS for k in options))
