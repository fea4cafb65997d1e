# Corpus preamble learn_use_jar: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/cc3213252/pyflink-learn/blob/9bf97d290a120353fac06583e9ee20cf08f88d61/src/connectors/use_jar.py
# Repository: cc3213252/pyflink-learn; path: src/connectors/use_jar.py; commit: 9bf97d290a120353fac06583e9ee20cf08f88d61
# License: not stated in the repository
# Cut: the imports, then the environment statements of log_processing() lifted to module
#      level, up to the first source statement.
# Adaptations: none (the jar paths are only recorded, never opened).
# ruff: noqa
from pyflink.table import TableEnvironment, EnvironmentSettings

env_settings = EnvironmentSettings.in_streaming_mode()
t_env = TableEnvironment.create(env_settings)
# specify connector and format jars
t_env.get_config().set("pipeline.jars", "file:///my/jar/path/connector.jar;file:///my/jar/path/json.jar")
