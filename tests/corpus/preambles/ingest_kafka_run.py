# Corpus preamble ingest_kafka_run: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/radonnachie/pyflink_ingest_kafka/blob/b4070241d677db326820dba9c03558cd2aeb5a8f/flink_processor/run.py
# Repository: radonnachie/pyflink_ingest_kafka; path: flink_processor/run.py; commit: b4070241d677db326820dba9c03558cd2aeb5a8f
# License: not stated in the repository
# Cut: the imports and the module-level environment statement, up to the first source.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (requests).
# ruff: noqa
import json

from pyflink.common.watermark_strategy import WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer
from pyflink.common import Types, SimpleStringSchema
from pyflink.datastream.formats.json import JsonRowDeserializationSchema

# jar files expected to be in "/opt/flink/lib/"
env = StreamExecutionEnvironment.get_execution_environment()
