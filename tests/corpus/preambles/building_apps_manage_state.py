# Corpus preamble building_apps_manage_state: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/DiogoRibeiro7/building-pyflink-apps/blob/f6124ca23e824be5fe5356ee24459644434ba87f/src/s20_manage_state.py
# Repository: DiogoRibeiro7/building-pyflink-apps; path: src/s20_manage_state.py; commit: f6124ca23e824be5fe5356ee24459644434ba87f
# License: not stated in the repository
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (models); the logging line dropped; RUNTIME_ENV is not set, so the
#              local-jar branch runs with __file__ under the harness temp dir.
# ruff: noqa
import os
import logging
from typing import Iterable

from pyflink.common import WatermarkStrategy
from pyflink.datastream import DataStream
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode
from pyflink.datastream.window import TumblingEventTimeWindows, Time
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.functions import ProcessWindowFunction, RuntimeContext
from pyflink.datastream.connectors.kafka import (
    KafkaSource,
    KafkaOffsetsInitializer,
    KafkaSink,
    KafkaRecordSerializationSchema,
    DeliveryGuarantee,
)
from pyflink.datastream.formats.json import JsonRowSerializationSchema, JsonRowDeserializationSchema

RUNTIME_ENV = os.getenv("RUNTIME_ENV", "local")
BOOTSTRAP_SERVERS = os.getenv("BOOTSTRAP_SERVERS", "localhost:29092")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.STREAMING)
env.set_parallelism(1)

if RUNTIME_ENV != "docker":
    CURRENT_DIR = os.path.dirname(os.path.realpath(__file__))
    jar_files = ["flink-sql-connector-kafka-1.17.1.jar"]
    jar_paths = tuple(
        [f"file:///{os.path.join(CURRENT_DIR, 'jars', name)}" for name in jar_files]
    )
    env.add_jars(*jar_paths)
