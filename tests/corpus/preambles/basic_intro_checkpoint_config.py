# Corpus preamble basic_intro_checkpoint_config: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/checkpoint/checkpoint_config.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: checkpoint/checkpoint_config.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the body of checkpoint_config_demo() lifted to module level (it is
#      all environment configuration).
# Adaptations: comments dropped; otherwise none (the hdfs:// checkpoint directory is only
#              recorded, never opened).
# ruff: noqa
import os
from pyflink.common import Configuration, Duration
from pyflink.datastream import StreamExecutionEnvironment, CheckpointingMode, CheckpointConfig, \
    ExternalizedCheckpointCleanup

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

env.enable_changelog_state_backend(True)

os.environ['HADOOP_USER_NAME'] = 'oscar'

env.enable_checkpointing(interval=5000, mode=CheckpointingMode.EXACTLY_ONCE)
checkpoint_config = env.get_checkpoint_config()
checkpoint_config.set_checkpoint_storage_dir('hdfs://Oscar-MacPro:8020/chk')
checkpoint_config.set_checkpoint_timeout(60000)
checkpoint_config.set_max_concurrent_checkpoints(1)
checkpoint_config.set_min_pause_between_checkpoints(1000)
checkpoint_config.set_externalized_checkpoint_cleanup(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)
checkpoint_config.set_tolerable_checkpoint_failure_number(10)

checkpoint_config.enable_unaligned_checkpoints()
checkpoint_config.set_alignment_timeout(alignment_timeout=Duration.of_seconds(1))
