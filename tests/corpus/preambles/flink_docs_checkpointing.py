# Corpus preamble flink_docs_checkpointing: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/040d69e506e1014df05368a7bd2e7c48016290aa/docs/content/docs/dev/datastream/fault-tolerance/checkpointing.md
# Repository: apache/flink; path: docs/content/docs/dev/datastream/fault-tolerance/checkpointing.md; commit: 040d69e506e1014df05368a7bd2e7c48016290aa
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the Python tab of the checkpoint configuration example (section "Enabling and
#      Configuring Checkpointing"), the whole code block.
# Adaptations: the block has no import line: one import of the three PyFlink names it uses
#              is added (marked); otherwise verbatim.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment, CheckpointingMode, ExternalizedCheckpointCleanup  # corpus adaptation: the import the snippet omits

env = StreamExecutionEnvironment.get_execution_environment()

# start a checkpoint every 1000 ms
env.enable_checkpointing(1000)

# advanced options:

# set mode to exactly-once (this is the default)
env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)

# make sure 500 ms of progress happen between checkpoints
env.get_checkpoint_config().set_min_pause_between_checkpoints(500)

# checkpoints have to complete within one minute, or are discarded
env.get_checkpoint_config().set_checkpoint_timeout(60000)

# only two consecutive checkpoint failures are tolerated
env.get_checkpoint_config().set_tolerable_checkpoint_failure_number(2)

# allow only one checkpoint to be in progress at the same time
env.get_checkpoint_config().set_max_concurrent_checkpoints(1)

# enable externalized checkpoints which are retained after job cancellation
env.get_checkpoint_config().enable_externalized_checkpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)

# enables the unaligned checkpoints
env.get_checkpoint_config().enable_unaligned_checkpoints()
