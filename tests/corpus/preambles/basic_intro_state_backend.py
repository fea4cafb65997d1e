# Corpus preamble basic_intro_state_backend: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/state/state_backend.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: state/state_backend.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the environment statements of state_backend_demo() lifted to module
#      level, up to the first source statement.
# Adaptations: comments dropped (including the commented-out RocksDB lines); imports of the
#              job's own modules left out (functions.func, state.keyed_list_state).
# ruff: noqa
from pyflink.common import SimpleStringSchema, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment, HashMapStateBackend, EmbeddedRocksDBStateBackend
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

hash_map_state_backend = HashMapStateBackend()
env.set_state_backend(hash_map_state_backend)
