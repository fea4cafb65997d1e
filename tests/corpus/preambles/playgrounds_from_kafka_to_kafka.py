# Corpus preamble playgrounds_from_kafka_to_kafka: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/pyflink/playgrounds/blob/cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72/examples/table/2-from_kafka_to_kafka.py
# Repository: pyflink/playgrounds; path: examples/table/2-from_kafka_to_kafka.py; commit: cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of from_kafka_to_kafka_demo() lifted to
#      module level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment, TimeCharacteristic
from pyflink.table import StreamTableEnvironment, DataTypes, EnvironmentSettings
from pyflink.table.descriptors import Schema, Kafka, Json

s_env = StreamExecutionEnvironment.get_execution_environment()
s_env.set_stream_time_characteristic(TimeCharacteristic.EventTime)
s_env.set_parallelism(1)

# use blink table planner
st_env = StreamTableEnvironment \
    .create(s_env, environment_settings=EnvironmentSettings
            .new_instance()
            .in_streaming_mode()
            .use_blink_planner().build())
