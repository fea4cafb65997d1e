# Corpus preamble ecommerce_order_processor: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/yuga-i2/streaming-pipeline-kafka-pyflink-aws-cdk/blob/671c51400fe6c0b20e1df428f91232722ad4e3c8/flink_pyflink_app/order_processor.py
# Repository: yuga-i2/streaming-pipeline-kafka-pyflink-aws-cdk; path: flink_pyflink_app/order_processor.py; commit: 671c51400fe6c0b20e1df428f91232722ad4e3c8
# License: MIT-0 (MIT No Attribution), per the repository's LICENSE file
# Cut: the imports, then the environment statements of main() lifted to module level, up to
#      the first source statement.
# Adaptations: imports of the job's own modules and of third-party packages other than PyFlink
#              left out (models); comment banners shortened.
# ruff: noqa
from pyflink.datastream import StreamExecutionEnvironment, MapFunction, KeyedProcessFunction
from pyflink.datastream.functions import AggregateFunction, KeySelector, ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows, TimeWindow
from pyflink.common.typeinfo import Types
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer, FlinkKafkaProducer
from pyflink.datastream.connectors.kafka import KafkaOffsetResetStrategy
from pyflink.datastream.functions import SimpleMapFunction
from pyflink.common import Configuration
from pyflink.datastream.state import StateTtlConfig, Time
from decimal import Decimal
from datetime import datetime, timezone
from typing import Iterable, Iterator
import json
import logging
import sys

# Initialize execution environment
env = StreamExecutionEnvironment.get_execution_environment()

# Configuration
config = Configuration()

# Interval: 60 seconds (balance between safety and latency)
env.enable_checkpointing(60_000)  # 60 seconds in milliseconds
from pyflink.datastream.checkpoint_mode import CheckpointingMode
env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)

# State backend: RocksDB (recommended for production)
from pyflink.datastream.state import EmbeddedRocksDBStateBackend
env.set_state_backend(EmbeddedRocksDBStateBackend())

# Default: Match number of Kafka partitions (e.g., 4 partitions → parallelism 4)
env.set_parallelism(4)
