# Corpus preamble aws_starter_data_pipeline: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/aws-samples/amazon-managed-apache-flink-service-pyflink-starter-kit/blob/a7507c1f2fe50895009e5c84756d7c488681beed/kda-pyflink-starter-data-pipeline/starter-data-pipeline.py
# Repository: aws-samples/amazon-managed-apache-flink-service-pyflink-starter-kit; path: kda-pyflink-starter-data-pipeline/starter-data-pipeline.py; commit: a7507c1f2fe50895009e5c84756d7c488681beed
# License: MIT-0 (MIT No Attribution), per the repository's LICENSE file
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first table DDL.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (boto3 and the project's utils/serialization/process/sink packages);
#              the call configure_app(table_env) is left out because it reads the managed
#              service's property file.
# ruff: noqa
import logging
import os
import time
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, CheckpointingMode, MapFunction, FlatMapFunction
from pyflink.datastream.state import MapStateDescriptor
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.enable_checkpointing(420000, CheckpointingMode.AT_LEAST_ONCE)
env.get_checkpoint_config().enable_unaligned_checkpoints()
table_env = StreamTableEnvironment.create(env)
