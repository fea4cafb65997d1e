"""Imports behind try/except and if."""
import sys

try:
    from pyflink.datastream import StreamExecutionEnvironment
except ImportError:
    StreamExecutionEnvironment = None

if sys.version_info >= (3, 8):
    from pyflink.table import StreamTableEnvironment
else:
    from pyflink.table import TableEnvironment as StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(env)
t_env.get_config().set_local_timezone("UTC")
