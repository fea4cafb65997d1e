# Corpus preamble building_apps_table_user_counts: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/DiogoRibeiro7/building-pyflink-apps/blob/f6124ca23e824be5fe5356ee24459644434ba87f/src/s26_table_api_user_counts.py
# Repository: DiogoRibeiro7/building-pyflink-apps; path: src/s26_table_api_user_counts.py; commit: f6124ca23e824be5fe5356ee24459644434ba87f
# License: not stated in the repository
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: argument parsing left out (the environment lines do not read it).
# ruff: noqa
import os
import argparse
import json
from datetime import datetime
from typing import Dict, Any

from pyflink.common import Types
from pyflink.common.time import Time
from pyflink.datastream import (
    StreamExecutionEnvironment,
    RuntimeExecutionMode,
)
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer
from pyflink.table import TableEnvironment, DataTypes
from pyflink.table.descriptors import (
    Schema,
    Kafka as KafkaDescriptor,
    Json as JsonDescriptor,
    FormatDescriptor,
)
from pyflink.table.window import Tumble

# 1. Set up Stream + Table environments
env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
t_env = TableEnvironment.create(env)
