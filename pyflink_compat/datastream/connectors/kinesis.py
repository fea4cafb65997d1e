"""Declared PyFlink module ``pyflink.datastream.connectors.kinesis``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['KinesisShardAssigner', 'KinesisDeserializationSchema', 'WatermarkTracker',
    'PartitionKeyGenerator', 'FlinkKinesisConsumer', 'KinesisStreamsSink',
    'KinesisStreamsSinkBuilder', 'KinesisFirehoseSink', 'KinesisFirehoseSinkBuilder']


class FlinkKinesisConsumer(Declared):
    pass


class KinesisDeserializationSchema(Declared):
    pass


class KinesisFirehoseSink(Declared):
    pass


class KinesisFirehoseSinkBuilder(Declared):
    pass


class KinesisShardAssigner(Declared):
    pass


class KinesisStreamsSink(Declared):
    pass


class KinesisStreamsSinkBuilder(Declared):
    pass


class PartitionKeyGenerator(Declared):
    pass


class WatermarkTracker(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
