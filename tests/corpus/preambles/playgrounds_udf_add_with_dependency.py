# Corpus preamble playgrounds_udf_add_with_dependency: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/pyflink/playgrounds/blob/cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72/examples/table/4-udf_add_with_dependency.py
# Repository: pyflink/playgrounds; path: examples/table/4-udf_add_with_dependency.py; commit: cacfa58a8ae4bfe5880f08ca3bdc6b2a75585f72
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports and the module-level environment statements, up to the first UDF
#      definition.
# Adaptations: none.
# ruff: noqa
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import udf

env_settings = EnvironmentSettings.new_instance().in_streaming_mode().use_blink_planner().build()
t_env = TableEnvironment.create(environment_settings=env_settings)
t_env.get_config().get_configuration().set_string('parallelism.default', '1')
