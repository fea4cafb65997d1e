# Corpus preamble zoomcamp_extras_aggregation_job: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/DataTalksClub/data-engineering-zoomcamp/blob/5cd686a16ee3bb982a0eb67ea73773271a20b51a/07-streaming/extras/pyflink/src/job/aggregation_job.py
# Repository: DataTalksClub/data-engineering-zoomcamp; path: 07-streaming/extras/pyflink/src/job/aggregation_job.py; commit: 5cd686a16ee3bb982a0eb67ea73773271a20b51a
# License: MIT, per the LICENSE file of 07-streaming/extras/pyflink (the directory this job is in; the repository root states no license)
# Cut: the imports, then the environment statements of log_aggregation() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, DataTypes, TableEnvironment, StreamTableEnvironment
from pyflink.common.watermark_strategy import WatermarkStrategy
from pyflink.common.time import Duration

# Set up the execution environment
env = StreamExecutionEnvironment.get_execution_environment()
env.enable_checkpointing(10 * 1000)
env.set_parallelism(3)

# Set up the table environment
settings = EnvironmentSettings.new_instance().in_streaming_mode().build()
t_env = StreamTableEnvironment.create(env, environment_settings=settings)
