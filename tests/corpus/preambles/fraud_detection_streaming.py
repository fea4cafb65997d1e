# Corpus preamble fraud_detection_streaming: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/DiogoRibeiro7/pyflink-fraud-detection-streaming/blob/5d9679a73d0d46c2d4148fa834e42b95bee317d4/src/fraud_streaming/flink_job.py
# Repository: DiogoRibeiro7/pyflink-fraud-detection-streaming; path: src/fraud_streaming/flink_job.py; commit: 5d9679a73d0d46c2d4148fa834e42b95bee317d4
# License: MIT, per the repository's LICENSE file
# Cut: the PyFlink imports of run_job(args), then its environment statements lifted to module
#      level.
# Adaptations: the validated runtime configuration is replaced by the two values the lines
#              read, the command line defaults (parallelism 1, checkpoint interval 30000 ms).
# ruff: noqa
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment

parallelism = 1  # corpus adaptation: config.parallelism (command line default)
checkpoint_interval_ms = 30_000  # corpus adaptation: config.checkpoint_interval_ms (default)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(parallelism)
if checkpoint_interval_ms is not None:
    env.enable_checkpointing(checkpoint_interval_ms)
