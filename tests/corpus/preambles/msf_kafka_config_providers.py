# Corpus preamble msf_kafka_config_providers: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/aws-samples/amazon-managed-service-for-apache-flink-examples/blob/2153f99d42f2e26d030adcfe296b0dfefca9898f/python/KafkaConfigProviders/Kafka-mTLS-Keystore-ConfigProviders-DataStream/main.py
# Repository: aws-samples/amazon-managed-service-for-apache-flink-examples; path: python/KafkaConfigProviders/Kafka-mTLS-Keystore-ConfigProviders-DataStream/main.py; commit: 2153f99d42f2e26d030adcfe296b0dfefca9898f
# License: MIT-0 (MIT No Attribution), per the repository's LICENSE file
# Cut: the imports and the module-level IS_LOCAL statements, then the environment statements
#      of main() lifted to module level, up to the first read of the application properties.
# Adaptations: the utility functions between them left out; one line added before the
#              IS_LOCAL test sets IS_LOCAL so that the local branches (parallelism,
#              add_jars) run; __file__ is under the harness temp dir.
# ruff: noqa
from pyflink.common import Configuration
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaSink, KafkaRecordSerializationSchema, KafkaOffsetsInitializer

from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import WatermarkStrategy
import os
import json
import pyflink

APPLICATION_PROPERTIES_FILE_PATH = "/etc/flink/application_properties.json"
os.environ["IS_LOCAL"] = "true"  # corpus adaptation: take the local branch
is_local = True if os.environ.get("IS_LOCAL") else False

if is_local:
    APPLICATION_PROPERTIES_FILE_PATH = "application_properties.json"
    CURRENT_DIR = os.path.dirname(os.path.realpath(__file__))
    print("PyFlink home: " + os.path.dirname(os.path.abspath(pyflink.__file__)))
    print("Logging directory: " + os.path.dirname(os.path.abspath(pyflink.__file__)) + '/log')

# Set up the execution environment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)

if is_local:
    env.set_parallelism(1)
    env.add_jars("file:///" + os.path.dirname(os.path.realpath(__file__)) + "/target/pyflink-dependencies.jar")
