# Corpus preamble aws_datastream_kafka_connector: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/aws-samples/pyflink-getting-started/blob/aeef052f3bf0af44d1215678fd9668bab84a4725/pyflink-examples/DatastreamKafkaConnector/datastream-kafka-connector-example.py
# Repository: aws-samples/pyflink-getting-started; path: pyflink-examples/DatastreamKafkaConnector/datastream-kafka-connector-example.py; commit: aeef052f3bf0af44d1215678fd9668bab84a4725
# License: MIT-0 (MIT No Attribution), per the repository's LICENSE file
# Cut: the imports and the module-level environment statements (including the IS_LOCAL
#      branch), up to the first function definition.
# Adaptations: one line added before the IS_LOCAL test sets IS_LOCAL so that the local branch
#              (add_jars) runs; __file__ is under the harness temp dir; two editor-hint
#              comments dropped.
# ruff: noqa
import logging

from pyflink.common import Row
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment, RuntimeContext, MapFunction
from pyflink.datastream.connectors import FlinkKafkaConsumer, FlinkKafkaProducer
from pyflink.common.serialization import JsonRowDeserializationSchema, SimpleStringSchema, JsonRowSerializationSchema
from pyflink.datastream.state import ValueStateDescriptor
import os
import json

APPLICATION_PROPERTIES_FILE_PATH = "/etc/flink/application_properties.json"  # on kda

env = StreamExecutionEnvironment.get_execution_environment()

os.environ["IS_LOCAL"] = "true"  # corpus adaptation: take the local branch
is_local = (
    True if os.environ.get("IS_LOCAL") else False
)  # set this env var in your local environment

if is_local:
    # only for local, overwrite variable to properties and pass in your jars delimited by a semicolon (;)
    APPLICATION_PROPERTIES_FILE_PATH = "application_properties.json"  # local
    CURRENT_DIR = os.path.dirname(os.path.realpath(__file__))
    env.add_jars(
        f"file:///{CURRENT_DIR}/lib/flink-connector-kafka-1.15.2.jar",f"file:///{CURRENT_DIR}/lib/kafka-clients-3.3.1.jar"
    )
