# Corpus preamble aws_getting_started: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/aws-samples/pyflink-getting-started/blob/aeef052f3bf0af44d1215678fd9668bab84a4725/pyflink-examples/GettingStarted/getting-started.py
# Repository: aws-samples/pyflink-getting-started; path: pyflink-examples/GettingStarted/getting-started.py; commit: aeef052f3bf0af44d1215678fd9668bab84a4725
# License: MIT-0 (MIT No Attribution), per the repository's LICENSE file
# Cut: the imports and the module-level environment statements (including the IS_LOCAL
#      branch), up to the first function definition.
# Adaptations: none (IS_LOCAL is not set, so the job takes its managed-service branch).
# ruff: noqa
from pyflink.table import EnvironmentSettings, TableEnvironment
import os
import json

# 1. Creates a Table Environment
env_settings = EnvironmentSettings.in_streaming_mode()
table_env = TableEnvironment.create(env_settings)
statement_set = table_env.create_statement_set()

APPLICATION_PROPERTIES_FILE_PATH = "/etc/flink/application_properties.json"  # on kda

is_local = (
    True if os.environ.get("IS_LOCAL") else False
)  # set this env var in your local environment

if is_local:
    # only for local, overwrite variable to properties and pass in your jars delimited by a semicolon (;)
    APPLICATION_PROPERTIES_FILE_PATH = "application_properties.json"  # local

    CURRENT_DIR = os.path.dirname(os.path.realpath(__file__))
    table_env.get_config().get_configuration().set_string(
        "pipeline.jars",
        "file:///" + CURRENT_DIR + "/lib/flink-sql-connector-kinesis-1.15.2.jar",
    )
