# Corpus preamble learn_changelog_stream: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/cc3213252/pyflink-learn/blob/9bf97d290a120353fac06583e9ee20cf08f88d61/src/table_to_datastream/changelog_stream.py
# Repository: cc3213252/pyflink-learn; path: src/table_to_datastream/changelog_stream.py; commit: 9bf97d290a120353fac06583e9ee20cf08f88d61
# License: not stated in the repository
# Cut: the imports and the module-level environment statements, up to the first DataStream.
# Adaptations: none.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.common.typeinfo import Types

# create environments of both APIs
env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(env)
