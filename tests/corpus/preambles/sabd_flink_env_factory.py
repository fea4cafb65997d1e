# Corpus preamble sabd_flink_env_factory: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/SimoneNicosanti/SABD_Project_2/blob/5fb40183dc4f4d5226ed338ae1bbd56596b27051/flink_processor/src/engineering/FlinkEnvFactory.py
# Repository: SimoneNicosanti/SABD_Project_2; path: flink_processor/src/engineering/FlinkEnvFactory.py; commit: 5fb40183dc4f4d5226ed338ae1bbd56596b27051
# License: not stated in the repository
# Cut: the imports, then the environment statements of getEnv() lifted to module level, up to
#      the first source statement.
# Adaptations: none (add_jars and add_python_file only record their paths).
# ruff: noqa
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode, TimeCharacteristic

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)
env.set_stream_time_characteristic(TimeCharacteristic.EventTime)

env.add_jars("file:///KafkaConnectorDependencies.jar")

env.add_python_file("file:///src/queries/utils/MyTimestampAssigner.py")
env.add_python_file("file:///src/queries/utils/Query_1_Utils.py")
env.add_python_file("file:///src/queries/utils/Query_2_Utils.py")
env.add_python_file("file:///src/queries/utils/Query_3_Utils.py")
env.add_python_file("file:///src/queries/utils/MetricsTaker.py")
