# Corpus preamble flink_docs_restart_failure_rate: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/040d69e506e1014df05368a7bd2e7c48016290aa/docs/content/docs/ops/state/task_failure_recovery.md
# Repository: apache/flink; path: docs/content/docs/ops/state/task_failure_recovery.md; commit: 040d69e506e1014df05368a7bd2e7c48016290aa
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the Python tab of the failure rate restart strategy example, the whole code block.
# Adaptations: the block has no import lines: imports of the two PyFlink names it uses are
#              added (marked); otherwise verbatim.
# ruff: noqa
from pyflink.common import Configuration  # corpus adaptation: the imports the snippet omits
from pyflink.datastream import StreamExecutionEnvironment  # corpus adaptation

config = Configuration()
config.set_string('restart-strategy.type', 'failure-rate')
config.set_string('restart-strategy.failure-rate.max-failures-per-interval', '3') # max failures per interval
config.set_string('restart-strategy.failure-rate.failure-rate-interval', '5 min') # time interval for measuring failure rate
config.set_string('restart-strategy.failure-rate.delay', '10 s') # delay
env = StreamExecutionEnvironment.get_execution_environment(config)
