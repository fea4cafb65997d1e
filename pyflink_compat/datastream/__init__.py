"""The checkpointing part of PyFlink's DataStream API, driving Spark Structured Streaming.

Build the pipeline with PySpark from :attr:`StreamExecutionEnvironment.spark_session`, and
configure its checkpoints exactly as with PyFlink. Names are imported on first use, so that
importing this package is cheap and starts nothing.
"""
from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports
from pyflink_compat._reexports import with_reexports

__all__ = ['StreamExecutionEnvironment', 'DataStream', 'KeyedStream', 'WindowedStream',
           'ConnectedStreams', 'BroadcastStream', 'BroadcastConnectedStream', 'DataStreamSink',
           'MapFunction', 'CoMapFunction', 'FlatMapFunction', 'CoFlatMapFunction',
           'ReduceFunction', 'FilterFunction', 'ProcessFunction', 'KeyedProcessFunction',
           'CoProcessFunction', 'KeyedCoProcessFunction', 'WindowFunction',
           'ProcessWindowFunction', 'AggregateFunction', 'BroadcastProcessFunction',
           'KeyedBroadcastProcessFunction', 'RuntimeContext', 'TimerService',
           'CheckpointingMode', 'CheckpointConfig', 'ExternalizedCheckpointCleanup',
           'ExternalizedCheckpointRetention', 'StateBackend', 'HashMapStateBackend',
           'EmbeddedRocksDBStateBackend', 'CustomStateBackend', 'MemoryStateBackend',
           'RocksDBStateBackend', 'FsStateBackend', 'PredefinedOptions', 'CheckpointStorage',
           'JobManagerCheckpointStorage', 'FileSystemCheckpointStorage',
           'CustomCheckpointStorage', 'RuntimeExecutionMode', 'Window', 'TimeWindow',
           'CountWindow', 'GlobalWindow', 'WindowAssigner', 'MergingWindowAssigner',
           'TriggerResult', 'Trigger', 'TimeCharacteristic', 'TimeDomain', 'KeySelector',
           'Partitioner', 'SourceFunction', 'SinkFunction', 'SlotSharingGroup', 'MemorySize',
           'OutputTag']

_EXPORTS = {
    'StreamExecutionEnvironment': 'stream_execution_environment',
    'CheckpointingMode': 'checkpointing_mode',
    'CheckpointConfig': 'checkpoint_config',
    'ExternalizedCheckpointCleanup': 'checkpoint_config',
    'ExternalizedCheckpointRetention': 'externalized_checkpoint_retention',
    'StateBackend': 'state_backend',
    'HashMapStateBackend': 'state_backend',
    'EmbeddedRocksDBStateBackend': 'state_backend',
    'CustomStateBackend': 'state_backend',
    'MemoryStateBackend': 'state_backend',
    'RocksDBStateBackend': 'state_backend',
    'FsStateBackend': 'state_backend',
    'PredefinedOptions': 'state_backend',
    'CheckpointStorage': 'checkpoint_storage',
    'JobManagerCheckpointStorage': 'checkpoint_storage',
    'FileSystemCheckpointStorage': 'checkpoint_storage',
    'CustomCheckpointStorage': 'checkpoint_storage',
    'RuntimeExecutionMode': 'execution_mode',
    'TimeCharacteristic': 'time_characteristic',
    # Placeholders (pyflink_compat.missing.declared): they import, and using one raises.
    'AggregateFunction': 'functions',
    'BroadcastConnectedStream': 'data_stream',
    'BroadcastProcessFunction': 'functions',
    'BroadcastStream': 'data_stream',
    'CoFlatMapFunction': 'functions',
    'CoMapFunction': 'functions',
    'CoProcessFunction': 'functions',
    'ConnectedStreams': 'data_stream',
    'CountWindow': 'window',
    'DataStream': 'data_stream',
    'DataStreamSink': 'data_stream',
    'FilterFunction': 'functions',
    'FlatMapFunction': 'functions',
    'GlobalWindow': 'window',
    'KeySelector': 'functions',
    'KeyedBroadcastProcessFunction': 'functions',
    'KeyedCoProcessFunction': 'functions',
    'KeyedProcessFunction': 'functions',
    'KeyedStream': 'data_stream',
    'MapFunction': 'functions',
    'MemorySize': 'slot_sharing_group',
    'MergingWindowAssigner': 'window',
    'OutputTag': 'output_tag',
    'Partitioner': 'functions',
    'ProcessFunction': 'functions',
    'ProcessWindowFunction': 'functions',
    'ReduceFunction': 'functions',
    'RuntimeContext': 'functions',
    'SinkFunction': 'functions',
    'SlotSharingGroup': 'slot_sharing_group',
    'SourceFunction': 'functions',
    'TimeDomain': 'time_domain',
    'TimeWindow': 'window',
    'TimerService': 'timerservice',
    'Trigger': 'window',
    'TriggerResult': 'window',
    'Window': 'window',
    'WindowAssigner': 'window',
    'WindowFunction': 'functions',
    'WindowedStream': 'data_stream',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__getattr__ = with_reexports(__name__, __getattr__)

if TYPE_CHECKING:
    from pyflink_compat.datastream.checkpoint_config import (  # noqa: F401
        CheckpointConfig, ExternalizedCheckpointCleanup)
    from pyflink_compat.datastream.checkpoint_storage import (  # noqa: F401
        CheckpointStorage, CustomCheckpointStorage, FileSystemCheckpointStorage,
        JobManagerCheckpointStorage)
    from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode  # noqa: F401
    from pyflink_compat.datastream.externalized_checkpoint_retention import (  # noqa: F401
        ExternalizedCheckpointRetention)
    from pyflink_compat.datastream.state_backend import (  # noqa: F401
        CustomStateBackend, EmbeddedRocksDBStateBackend, FsStateBackend, HashMapStateBackend,
        MemoryStateBackend, PredefinedOptions, RocksDBStateBackend, StateBackend)
    from pyflink_compat.datastream.stream_execution_environment import (  # noqa: F401
        StreamExecutionEnvironment)
