# Corpus preamble basic_intro_sink_doris: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/sink/sink_doris.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: sink/sink_doris.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the environment statements of kafka_2_doris() lifted to module
#      level, up to the first source statement.
# Adaptations: comments and a commented-out statement dropped; imports of the job's own
#              modules and of third-party packages other than PyFlink left out (utils.common);
#              the call of its helper get_jar_file(dir_path=path, need_jars=filters), which
#              joins the matching jars of a local directory as file:// URLs with ';', is
#              replaced by that string for the two jars under the harness temp dir.
# ruff: noqa
from pyflink.common import Duration
from pyflink.datastream import StreamExecutionEnvironment, CheckpointingMode
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()

env.enable_checkpointing(10)
env.get_checkpoint_config().set_checkpoint_storage_dir('file:///Users/oscar/projects/big_data/pyflink-basic-introduction/flink-checkpoints')
env.get_checkpoint_config().set_alignment_timeout(Duration.of_millis(1))
env.get_checkpoint_config().set_checkpointing_mode(checkpointing_mode=CheckpointingMode.EXACTLY_ONCE)

table_env = StreamTableEnvironment.create(env)

path = '/Users/oscar/software/jars'
filters = [
    'flink-sql-connector-kafka-1.17.1.jar',
    'flink-doris-connector-1.17-1.4.0.jar'
]
str_jars = ';'.join('file://' + CORPUS_TMP + '/' + jar for jar in filters)  # corpus adaptation
table_env.get_config().set("pipeline.jars", str_jars)
