"""Kinds and limits shared by the settings, the API objects and the translation to Spark.

Java's integer limits (defined in :mod:`pyflink_compat.util.java_args`), Flink's defaults for
checkpoint storages and state backends, and the kinds of checkpoint storage and state backend,
defined once.
"""

from __future__ import annotations

import enum

from pyflink_compat.util.java_args import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN

__all__ = [
    "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN",
    "DEFAULT_MAX_STATE_SIZE", "DEFAULT_FILE_STATE_THRESHOLD", "DEFAULT_WRITE_BUFFER_SIZE",
    "DEFAULT_TRANSFER_THREADS", "StorageKind", "ROCKSDB_BACKENDS", "HEAP_BACKENDS",
]

#: Largest state in bytes JobManager (memory) checkpoint storage accepts unless set (5 MiB).
DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024
#: Size in bytes under which file system storage inlines state unless set (20 KiB).
DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024
#: Write buffer in bytes of file system storage unless set.
DEFAULT_WRITE_BUFFER_SIZE = 4096
#: Threads RocksDB uses to transfer files unless set.
DEFAULT_TRANSFER_THREADS = 4


class StorageKind(str, enum.Enum):
    """Where a job's checkpoints go, as the ``type`` of a checkpoint storage record."""

    #: A temporary location owned by the job (Flink keeps such checkpoints in memory).
    JOBMANAGER = "jobmanager"
    #: A durable directory under the configured checkpoint path.
    FILESYSTEM = "filesystem"
    #: A storage class named by the user; Spark receives it as a checkpoint file manager.
    CUSTOM = "custom"


#: State backend kinds kept in RocksDB.
ROCKSDB_BACKENDS = ("rocksdb", "rocksdb-legacy")
#: State backend kinds kept on the JVM heap.
HEAP_BACKENDS = ("hashmap", "memory", "fs", "jobmanager", "filesystem")
