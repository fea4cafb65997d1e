# Corpus preamble playgrounds_ds_state_access_batch: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/pyflink/playgrounds/blob/cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72/examples/datastream/batch/11-data_stream_state_access.py
# Repository: pyflink/playgrounds; path: examples/datastream/batch/11-data_stream_state_access.py; commit: cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of state_access_demo() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.common import WatermarkStrategy, Row
from pyflink.common.serialization import Encoder
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors import FileSink, OutputFileConfig, NumberSequenceSource
from pyflink.datastream.execution_mode import RuntimeExecutionMode
from pyflink.datastream.functions import KeyedProcessFunction, RuntimeContext, MapFunction
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
