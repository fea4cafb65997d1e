# Corpus preamble lakehouse_kafka_to_iceberg: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/M83windmill/mini-lakehouse-pyflink/blob/0d3e0cfc1eede7545c23e5450d3a3ab55edefd47/jobs/kafka_to_iceberg.py
# Repository: M83windmill/mini-lakehouse-pyflink; path: jobs/kafka_to_iceberg.py; commit: 0d3e0cfc1eede7545c23e5450d3a3ab55edefd47
# License: not stated in the repository
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: none (the jar paths are only recorded, never opened); section banner comments
#              dropped.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)

# Enable checkpointing for exactly-once semantics
env.enable_checkpointing(60000)  # checkpoint every 60 seconds

# Create Table environment
settings = EnvironmentSettings.new_instance() \
    .in_streaming_mode() \
    .build()
t_env = StreamTableEnvironment.create(env, environment_settings=settings)

# Configure state TTL for aggregations
t_env.get_config().set("table.exec.state.ttl", "86400000")  # 24 hours

jar_files = [
    "file:///opt/flink/lib/extra/iceberg-flink-runtime-1.19-1.7.0.jar",
    "file:///opt/flink/lib/extra/flink-sql-connector-kafka-3.2.0-1.19.jar",
    "file:///opt/flink/lib/extra/hadoop-aws-3.3.4.jar",
    "file:///opt/flink/lib/extra/aws-java-sdk-bundle-1.12.648.jar",
]
for jar in jar_files:
    t_env.get_config().set("pipeline.jars", ";".join(jar_files))
