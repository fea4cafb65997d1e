# Corpus preamble pyflink_faq_k8s_word_count: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/dianfu/pyflink-faq/blob/27d4a84b893e9792840be36c72ae52c2d55827b1/k8s/docker/word_count.py
# Repository: dianfu/pyflink-faq; path: k8s/docker/word_count.py; commit: 27d4a84b893e9792840be36c72ae52c2d55827b1
# License: Apache-2.0, per the repository's LICENSE file
# Cut: the imports, then the environment statement of the __main__ block lifted to module
#      level, up to the first source statement.
# Adaptations: the Apache license comment banner and the logging.basicConfig(...) call left
#              out.
# ruff: noqa
import logging
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment, TableDescriptor, Schema, DataTypes
from pyflink.table.expressions import lit, col
from pyflink.table.udf import udf

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
