"""The checkpointing part of PyFlink's DataStream API, driving Spark Structured Streaming.

Build the pipeline with PySpark from :attr:`StreamExecutionEnvironment.spark_session`, and
configure its checkpoints exactly as with PyFlink. Names are imported on first use, so that
importing this package is cheap and starts nothing.
"""
from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports

__all__ = [
    'StreamExecutionEnvironment',
    'CheckpointingMode',
    'CheckpointConfig',
    'ExternalizedCheckpointCleanup',
    'ExternalizedCheckpointRetention',
    'StateBackend',
    'HashMapStateBackend',
    'EmbeddedRocksDBStateBackend',
    'CustomStateBackend',
    'MemoryStateBackend',
    'RocksDBStateBackend',
    'FsStateBackend',
    'PredefinedOptions',
    'CheckpointStorage',
    'JobManagerCheckpointStorage',
    'FileSystemCheckpointStorage',
    'CustomCheckpointStorage',
]

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
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

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
