# Corpus preamble barsnir_log_processing: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/BarSnir/pyflink_demos/blob/401b0207c40e96573b3a0cf156daa09c5293ef46/main.py
# Repository: BarSnir/pyflink_demos; path: main.py; commit: 401b0207c40e96573b3a0cf156daa09c5293ef46
# License: GPL-3.0
# Cut: the imports, the jar helpers, then the environment statements of log_processing()
#      lifted to module level, up to the first DDL.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (dotenv, src.libs.connectors); the connector config file reading is
#              left out; the working directory is the harness temp dir.
# ruff: noqa
import os, json
from pyflink.table import TableEnvironment, EnvironmentSettings
from pyflink.table import expressions as F

def get_jars_path():
    path = os.getcwd()
    return f'file://{path}/jars/kafka_jars/'

def get_env(key:str, default:str) -> str: 
  return os.getenv(key, default)

def get_jars_full_path() -> str:
  jars_path = get_jars_path()
  jars = [
    'flink-sql-connector-kafka-1.16.0.jar;',
    'flink-sql-avro-1.16.0.jar;',
    'flink-sql-avro-confluent-registry-1.16.0.jar;',
    'flink-connector-jdbc-1.16.0.jar;',
    'mysql-connector-java-5.1.9.jar'
  ]
  full_str = ''
  for jar in jars:
    full_str = f'{full_str}{jars_path}{jar}'
  return full_str

env_settings = EnvironmentSettings.new_instance() \
  .with_built_in_catalog_name(get_env('CATALOG_NAME', 'my_catalog')) \
  .with_built_in_database_name(get_env('DATABASE_NAME', 'my_database')) \
  .in_streaming_mode().build()
t_env = TableEnvironment.create(env_settings)
t_env.get_config().set('pipeline.jars',get_jars_full_path()) \
  .set("parallelism.default", get_env('PARALLELISM', '6'))
