# Corpus preamble learn_stream_config: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/cc3213252/pyflink-learn/blob/9bf97d290a120353fac06583e9ee20cf08f88d61/src/table_to_datastream/stream_config.py
# Repository: cc3213252/pyflink-learn; path: src/table_to_datastream/stream_config.py; commit: 9bf97d290a120353fac06583e9ee20cf08f88d61
# License: not stated in the repository
# Cut: the whole file (it is all imports and environment configuration).
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.datastream.checkpointing_mode import CheckpointingMode


# create Python DataStream API
env = StreamExecutionEnvironment.get_execution_environment()

# set various configuration early
env.set_max_parallelism(256)

env.get_config().add_default_kryo_serializer("type_class_name", "serializer_class_name")

env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)

# then switch to Python Table API
t_env = StreamTableEnvironment.create(env)

# set configuration early
t_env.get_config().set_local_timezone("Europe/Berlin")
