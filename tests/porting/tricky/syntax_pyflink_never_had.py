"""Calls that no PyFlink version has."""
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, TableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism_everywhere(2)
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.run_sql("SELECT 1")
