# Corpus preamble iot_alerts_kafka_consumer: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/augustodn/pyflink-iot-alerts/blob/4a5717baf834eb26a2e4eb2066063e5edf0dce8e/kafka_consumer.py
# Repository: augustodn/pyflink-iot-alerts; path: kafka_consumer.py; commit: 4a5717baf834eb26a2e4eb2066063e5edf0dce8e
# License: MIT, per the repository's LICENSE file
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: none: __file__ is under the harness temp dir, so the jar path points there (it
#              is only recorded, never opened).
# ruff: noqa
import json

from pyflink.common import WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource

# Create a StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()

# Get current directory
current_dir_list = __file__.split("/")[:-1]
current_dir = "/".join(current_dir_list)

# Adding the jar to the flink streaming environment
env.add_jars(
    f"file://{current_dir}/flink-sql-connector-kafka-3.1.0-1.18.jar"
)
