# Corpus preamble flink_ds_kafka_json_format: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/datastream/connectors/kafka_json_format.py
# Repository: apache/flink; path: flink-python/pyflink/examples/datastream/connectors/kafka_json_format.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: the logging.basicConfig(...) call is left out; the jar path is only recorded,
#              never opened.
# ruff: noqa
import logging
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import FlinkKafkaProducer, FlinkKafkaConsumer
from pyflink.datastream.formats.json import JsonRowSerializationSchema, JsonRowDeserializationSchema

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars("file:///path/to/flink-sql-connector-kafka-1.15.0.jar")
