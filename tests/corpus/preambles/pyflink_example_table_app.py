# Corpus preamble pyflink_example_table_app: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/bradodarb/pyflink-example/blob/175ae610e022ea701543cbe25b08f92d4fb60fc5/jobs/app.py
# Repository: bradodarb/pyflink-example; path: jobs/app.py; commit: 175ae610e022ea701543cbe25b08f92d4fb60fc5
# License: MIT, per the repository's LICENSE file
# Cut: the import, then the environment statements of run() lifted to module level, up to
#      the first source statement.
# Adaptations: none.
# ruff: noqa
from pyflink.table import EnvironmentSettings, TableEnvironment

env_settings = EnvironmentSettings.in_streaming_mode()
table_env = TableEnvironment.create(env_settings)
