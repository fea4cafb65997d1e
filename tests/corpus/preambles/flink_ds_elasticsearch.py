# Corpus preamble flink_ds_elasticsearch: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/apache/flink/blob/release-1.20.5/flink-python/pyflink/examples/datastream/connectors/elasticsearch.py
# Repository: apache/flink; path: flink-python/pyflink/examples/datastream/connectors/elasticsearch.py; commit: release-1.20.5 (tag)
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, the __main__ block's environment lines and the add_jars call of
#      write_to_es7(), lifted to module level, up to the first source statement.
# Adaptations: the logging.basicConfig(...) and print(...) calls are left out.
# ruff: noqa
import logging
import sys

from pyflink.datastream.connectors.elasticsearch import Elasticsearch6SinkBuilder, \
    Elasticsearch7SinkBuilder, FlushBackoffType, ElasticsearchEmitter

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors import DeliveryGuarantee

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

ELASTICSEARCH_SQL_CONNECTOR_PATH = \
    'file:///path/to/flink-sql-connector-elasticsearch7-1.16.0.jar'
env.add_jars(ELASTICSEARCH_SQL_CONNECTOR_PATH)
