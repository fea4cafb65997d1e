"""Not Python at all: refused, and left as it is."""
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment(
env.execute("never")
