# Corpus preamble flink_table_pandas_dataframe: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/table/pandas/conversion_from_dataframe.py
# Repository: apache/flink; path: flink-python/pyflink/examples/table/pandas/conversion_from_dataframe.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of conversion_from_dataframe() lifted to
#      module level, up to the first source statement.
# Adaptations: the pandas and numpy imports are left out (third-party packages other than
#              PyFlink).
# ruff: noqa
import logging
import sys

from pyflink.table import (DataTypes, TableEnvironment, EnvironmentSettings)

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
