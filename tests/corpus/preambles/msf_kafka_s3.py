# Corpus preamble msf_kafka_s3: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/yhyyz/msf-pyflink-job/blob/2e68ac9d67cd5b2c6564a241f9889ca5146f095d/src/main-kafka-s3.py
# Repository: yhyyz/msf-pyflink-job; path: src/main-kafka-s3.py; commit: 2e68ac9d67cd5b2c6564a241f9889ca5146f095d
# License: not stated in the repository
# Cut: the imports, the logger and is_running_on_msf() helper, then the body of
#      create_table_environment(config) lifted to module level.
# Adaptations: the JobConfig argument is replaced by the one field the function reads
#              (operator chaining enabled, its default); logging lines dropped.
# ruff: noqa
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from dataclasses import dataclass

from pyflink.common import Configuration
from pyflink.table import EnvironmentSettings, TableEnvironment

logger = logging.getLogger(__name__)

MSF_PROPERTIES_FILE = "/etc/flink/application_properties.json"


def is_running_on_msf() -> bool:
    return os.path.isfile(MSF_PROPERTIES_FILE)


operator_chaining_enabled = True  # corpus adaptation: config.operator_chaining_enabled

flink_config = Configuration()
flink_config.set_string("execution.checkpointing.interval", "60s")

if not operator_chaining_enabled:
    flink_config.set_boolean("pipeline.operator-chaining.enabled", False)

env_settings = (
    EnvironmentSettings.new_instance()
    .in_streaming_mode()
    .with_configuration(flink_config)
    .build()
)
table_env = TableEnvironment.create(env_settings)

if not is_running_on_msf():
    table_env.get_config().get_configuration().set_string("rest.port", "8081")
    current_dir = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    jar_path = f"file:///{current_dir}/target/pyflink-dependencies.jar"
    if os.path.exists(f"{current_dir}/target/pyflink-dependencies.jar"):
        table_env.get_config().get_configuration().set_string(
            "pipeline.jars", jar_path
        )
