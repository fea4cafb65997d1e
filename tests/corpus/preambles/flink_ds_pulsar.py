# Corpus preamble flink_ds_pulsar: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/datastream/connectors/pulsar.py
# Repository: apache/flink; path: flink-python/pyflink/examples/datastream/connectors/pulsar.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: the logging.basicConfig(...) call is left out; the jar path is only recorded,
#              never opened.
# ruff: noqa
import logging
import sys

from pyflink.common import SimpleStringSchema, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.pulsar import PulsarSource, PulsarSink, StartCursor, \
    StopCursor, DeliveryGuarantee, TopicRoutingMode

PULSAR_SQL_CONNECTOR_PATH = 'file:///path/to/flink-sql-connector-pulsar-1.16.0.jar'
SERVICE_URL = 'pulsar://localhost:6650'
ADMIN_URL = 'http://localhost:8080'

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.add_jars(PULSAR_SQL_CONNECTOR_PATH)
