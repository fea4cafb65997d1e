# Corpus preamble pyflink_managed_aws_multi_sink: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/augustodn/pyflink-managed-aws/blob/c3558be6c220522b071249462ea2906b6b7bfd4f/multi_sink.py
# Repository: augustodn/pyflink-managed-aws; path: multi_sink.py; commit: c3558be6c220522b071249462ea2906b6b7bfd4f
# License: MIT, per the repository's LICENSE file
# Cut: the imports and the two environment helpers get_environment() and set_local_config()
#      (verbatim), then the environment statements of main() lifted to module level, up to
#      the first read of the application properties.
# Adaptations: the property-key and table-name assignments of main() between the first line
#              and the table environment left out; one line added before the IS_LOCAL test
#              sets IS_LOCAL so that the local branch (pipeline.jars and checkpointing keys)
#              runs; __file__ is under the harness temp dir.
# ruff: noqa
import json
import os

from pyflink.table import EnvironmentSettings, StreamTableEnvironment  # type: ignore



def get_environment() -> bool:
    return True if os.environ.get("IS_LOCAL") else False


def set_local_config(table_env: StreamTableEnvironment) -> StreamTableEnvironment:
    # only for local, overwrite variable to properties and
    # in this case since we're using maven to package dependecies in a big fat jar
    # only a pyflink-dependencies.jar is needed
    # Otherwise you can pass in your jars delimited by a semicolon (;) in the second
    # argument
    current_dir = os.path.dirname(os.path.realpath(__file__))
    table_env.get_config().get_configuration().set_string(
        "pipeline.jars",
        f"file:///{current_dir}/target/pyflink-dependencies.jar",
    )
    table_env.get_config().get_configuration().set_string(
        "execution.checkpointing.mode", "EXACTLY_ONCE"
    )
    table_env.get_config().get_configuration().set_string(
        "execution.checkpointing.interval", "1 min"
    )

    return table_env


PROPERTIES_FILEPATH = "/etc/flink/application_properties.json"  # on kda
# 1. Creates a Table Environment
env_settings = EnvironmentSettings.in_streaming_mode()
table_env = StreamTableEnvironment.create(environment_settings=env_settings)

os.environ["IS_LOCAL"] = "true"  # corpus adaptation: take the local branch
is_local = get_environment()

# 1. Sets local environment
if is_local:
    current_dir = os.path.dirname(os.path.realpath(__file__))
    PROPERTIES_FILEPATH = f"{current_dir}/application_properties.json"  # local
    table_env = set_local_config(table_env)
