"""Every name from star imports."""
from pyflink.table import *
from pyflink.datastream import *

env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(env, environment_settings=EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("CREATE TABLE t (x INT) WITH ('connector' = 'datagen')")
