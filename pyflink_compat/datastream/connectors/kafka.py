"""Declared PyFlink module ``pyflink.datastream.connectors.kafka``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['FlinkKafkaConsumer', 'FlinkKafkaProducer', 'KafkaSource', 'KafkaSourceBuilder',
    'KafkaSink', 'KafkaSinkBuilder', 'Semantic', 'KafkaTopicPartition', 'KafkaOffsetsInitializer',
    'KafkaOffsetResetStrategy', 'KafkaRecordSerializationSchema',
    'KafkaRecordSerializationSchemaBuilder', 'KafkaTopicSelector']


class FlinkKafkaConsumer(Declared):
    pass


class FlinkKafkaConsumerBase(Declared):
    pass


class FlinkKafkaProducer(Declared):
    pass


class FlinkKafkaProducerBase(Declared):
    pass


class KafkaOffsetResetStrategy(Declared):
    pass


class KafkaOffsetsInitializer(Declared):
    pass


class KafkaRecordSerializationSchema(Declared):
    pass


class KafkaRecordSerializationSchemaBuilder(Declared):
    pass


class KafkaSink(Declared):
    pass


class KafkaSinkBuilder(Declared):
    pass


class KafkaSource(Declared):
    pass


class KafkaSourceBuilder(Declared):
    pass


class KafkaTopicPartition(Declared):
    pass


class KafkaTopicSelector(Declared):
    pass


class Semantic(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
