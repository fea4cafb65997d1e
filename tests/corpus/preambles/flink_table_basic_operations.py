# Corpus preamble flink_table_basic_operations: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/table/basic_operations.py
# Repository: apache/flink; path: flink-python/pyflink/examples/table/basic_operations.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statements of basic_operations() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
import json
import logging
import sys

from pyflink.common import Row
from pyflink.table import (DataTypes, TableEnvironment, EnvironmentSettings, ExplainDetail)
from pyflink.table.expressions import *
from pyflink.table.udf import udtf, udf, udaf, AggregateFunction, TableAggregateFunction, udtaf

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
