# Corpus preamble zoomcamp_pass_through_job: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/DataTalksClub/data-engineering-zoomcamp/blob/5cd686a16ee3bb982a0eb67ea73773271a20b51a/07-streaming/workshop/src/job/pass_through_job.py
# Repository: DataTalksClub/data-engineering-zoomcamp; path: 07-streaming/workshop/src/job/pass_through_job.py; commit: 5cd686a16ee3bb982a0eb67ea73773271a20b51a
# License: not stated in the repository
# Cut: the imports, then the environment statements of log_processing() lifted to module
#      level, up to the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment

# Set up the execution environment
env = StreamExecutionEnvironment.get_execution_environment()
env.enable_checkpointing(10 * 1000)

# Set up the table environment
settings = EnvironmentSettings.new_instance().in_streaming_mode().build()
t_env = StreamTableEnvironment.create(env, environment_settings=settings)
