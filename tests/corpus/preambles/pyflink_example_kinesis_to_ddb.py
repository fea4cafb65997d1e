# Corpus preamble pyflink_example_kinesis_to_ddb: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/bradodarb/pyflink-example/blob/175ae610e022ea701543cbe25b08f92d4fb60fc5/jobs/ds_app_kinesis_ddb.py
# Repository: bradodarb/pyflink-example; path: jobs/ds_app_kinesis_ddb.py; commit: 175ae610e022ea701543cbe25b08f92d4fb60fc5
# License: MIT, per the repository's LICENSE file
# Cut: the imports and the module-level LOCAL_DEBUG flag, then the environment statements of
#      run() lifted to module level, up to the first source statement.
# Adaptations: the source and sink helper functions between them left out; otherwise none
#              (LOCAL_DEBUG is not set, so the jar branch is not taken).
# ruff: noqa
import os
from os import path
from typing import Dict

from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import (StreamExecutionEnvironment, RuntimeExecutionMode)
from pyflink.datastream.connectors.kinesis import (FlinkKinesisConsumer, KinesisStreamsSink, PartitionKeyGenerator)

LOCAL_DEBUG = os.getenv('LOCAL_DEBUG', False)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)

# To enable local running/debugging, we manually add the project's shadow jar that has all the connectors built in
if LOCAL_DEBUG:
    jar_location = str(path.join(path.dirname(path.abspath(__file__)), "../lib/bin/pyflink-services-1.0.jar"))
    env.add_jars(f"file:///{jar_location}")
    env.add_classpaths(f"file:///{jar_location}")
