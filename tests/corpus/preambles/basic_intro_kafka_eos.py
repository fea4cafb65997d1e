# Corpus preamble basic_intro_kafka_eos: the imports and environment set-up of a public PyFlink job.
# Source: https://github.com/huanglaoxie0503/pyflink-basic-introduction/blob/260781c6ccbad613cb6b7d438b37902d1ed7bcdd/checkpoint/kafka_eos.py
# Repository: huanglaoxie0503/pyflink-basic-introduction; path: checkpoint/kafka_eos.py; commit: 260781c6ccbad613cb6b7d438b37902d1ed7bcdd
# License: not stated in the repository
# Cut: the imports, then the environment statements of kafka_eos_demo() lifted to module
#      level, up to the first source statement.
# Adaptations: comments dropped; otherwise none.
# ruff: noqa
from pyflink.common import SimpleStringSchema, WatermarkStrategy, Duration
from pyflink.datastream import StreamExecutionEnvironment, CheckpointingMode, ExternalizedCheckpointCleanup
from pyflink.datastream.connectors import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer, KafkaSink, \
    KafkaRecordSerializationSchema

env = StreamExecutionEnvironment.get_execution_environment()

env.enable_checkpointing(interval=5000, mode=CheckpointingMode.EXACTLY_ONCE)
checkpoint_config = env.get_checkpoint_config()
checkpoint_config.set_checkpoint_storage_dir('hdfs://Oscar-MacPro:8020/chk')
checkpoint_config.set_externalized_checkpoint_cleanup(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)
