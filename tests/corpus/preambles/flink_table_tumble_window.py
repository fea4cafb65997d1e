# Corpus preamble flink_table_tumble_window: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/table/windowing/tumble_window.py
# Repository: apache/flink; path: flink-python/pyflink/examples/table/windowing/tumble_window.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of tumble_window_demo() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
import logging
import sys

from pyflink.common.time import Instant

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import (DataTypes, TableDescriptor, Schema, StreamTableEnvironment)
from pyflink.table.expressions import lit, col
from pyflink.table.window import Tumble

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
