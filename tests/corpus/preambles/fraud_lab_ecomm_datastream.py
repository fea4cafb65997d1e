# Corpus preamble fraud_lab_ecomm_datastream: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/Z-1220/pyflink-fraud-detection-lab/blob/dfcd8b79b34b0d574f0b26b85f09a92183c1c0bc/src/code/class10_ecomm_datastream.py
# Repository: Z-1220/pyflink-fraud-detection-lab; path: src/code/class10_ecomm_datastream.py; commit: dfcd8b79b34b0d574f0b26b85f09a92183c1c0bc
# License: not stated in the repository
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (pymysql, fastapi, starlette); the jar paths are only recorded, never
#              opened.
# ruff: noqa
import json
import os
import traceback
from datetime import datetime, timezone

from pyflink.common import Duration, Time, WatermarkStrategy, Types, RestartStrategies
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.state import ListStateDescriptor
from pyflink.datastream.window import TumblingEventTimeWindows

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_restart_strategy(RestartStrategies.no_restart())
env.get_config().set_global_job_parameters({
    "python.fn-execution.bundle.size": "1",
    "python.fn-execution.bundle.time": "0",
})

env.add_jars(
    "file:///D:/PythonProject/00_Learning/pyflink_project/jars/flink-connector-kafka-3.1.0-1.18.jar",
    "file:///D:/PythonProject/00_Learning/pyflink_project/jars/kafka-clients-3.6.1.jar",
)
