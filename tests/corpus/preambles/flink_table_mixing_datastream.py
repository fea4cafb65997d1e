# Corpus preamble flink_table_mixing_datastream: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/table/mixing_use_of_datastream_and_table.py
# Repository: apache/flink; path: flink-python/pyflink/examples/table/mixing_use_of_datastream_and_table.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of mixing_use_of_datastream_and_table()
#      lifted to module level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
import logging
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import (DataTypes, TableDescriptor, Schema, StreamTableEnvironment)
from pyflink.table.expressions import col
from pyflink.table.udf import udf

# use StreamTableEnvironment instead of TableEnvironment when mixing use of table & datastream
env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
