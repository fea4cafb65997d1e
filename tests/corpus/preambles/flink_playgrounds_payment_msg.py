# Corpus preamble flink_playgrounds_payment_msg: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink-playgrounds/blob/6115f8e6d083b1b69f7c82b19d5723a90aed95a1/pyflink-walkthrough/payment_msg_proccessing.py
# Repository: apache/flink-playgrounds; path: pyflink-walkthrough/payment_msg_proccessing.py; commit: 6115f8e6d083b1b69f7c82b19d5723a90aed95a1
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of log_processing() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment, TimeCharacteristic
from pyflink.table import StreamTableEnvironment, DataTypes, EnvironmentSettings
from pyflink.table.expressions import call, col
from pyflink.table.udf import udf

env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
t_env.get_config().get_configuration().set_boolean("python.fn-execution.memory.managed", True)
