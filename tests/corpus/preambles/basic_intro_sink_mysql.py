# Corpus preamble basic_intro_sink_mysql: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/sink/sink_mysql.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: sink/sink_mysql.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the environment statements of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: none (the jar paths are only recorded, never opened).
# ruff: noqa
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode
from pyflink.datastream.connectors.jdbc import JdbcSink, JdbcConnectionOptions, JdbcExecutionOptions

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.AUTOMATIC)
env.add_jars("file:///Users/oscar/software/jars/flink-connector-jdbc-1.16.1.jar")
env.add_jars("file:///Users/oscar/software/jars/mysql-connector-java-8.0.30.jar")
