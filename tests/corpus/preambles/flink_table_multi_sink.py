# Corpus preamble flink_table_multi_sink: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/table/multi_sink.py
# Repository: apache/flink; path: flink-python/pyflink/examples/table/multi_sink.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statement of multi_sink() lifted to module level,
#      up to the first source statement.
# Adaptations: none.
# ruff: noqa
import logging
import sys

from pyflink.table import (EnvironmentSettings, TableEnvironment, DataTypes)
from pyflink.table.udf import udf

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
