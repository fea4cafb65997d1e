# Corpus preamble flink_ds_state_access: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/datastream/state_access.py
# Repository: apache/flink; path: flink-python/pyflink/examples/datastream/state_access.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.common import Time
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction, RuntimeContext
from pyflink.datastream.state import ValueStateDescriptor, StateTtlConfig

env = StreamExecutionEnvironment.get_execution_environment()
