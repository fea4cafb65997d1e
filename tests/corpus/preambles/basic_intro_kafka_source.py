# Corpus preamble basic_intro_kafka_source: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/source/kafka_source.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: source/kafka_source.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the environment statements of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: none (the jar path is only recorded, never opened).
# ruff: noqa
import json

from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import WatermarkStrategy

brokers = 'localhost:9092'

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)

env.add_jars("file:///Users/oscar/software/jars/flink-sql-connector-kafka-1.17.0.jar")
