"""The whole package under another name."""
import pyflink as pf

env = pf.datastream.StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
schema = pf.common.Types.STRING()
