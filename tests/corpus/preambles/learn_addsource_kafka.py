# Corpus preamble learn_addsource_kafka: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/cc3213252/pyflink-learn/blob/9bf97d290a120353fac06583e9ee20cf08f88d61/src/datastream_api/addsource_kafka.py
# Repository: cc3213252/pyflink-learn; path: src/datastream_api/addsource_kafka.py; commit: 9bf97d290a120353fac06583e9ee20cf08f88d61
# License: not stated in the repository
# Cut: the imports and the module-level environment statements, up to the deserialization
#      schema.
# Adaptations: none.
# ruff: noqa
from pyflink.common.serialization import JsonRowDeserializationSchema
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors import FlinkKafkaConsumer

env = StreamExecutionEnvironment.get_execution_environment()
# the sql connector for kafka is used here as it's a fat jar and could avoid dependency issues
env.add_jars("file:///path/to/flink-sql-connector-kafka.jar")
