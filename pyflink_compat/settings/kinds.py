"""Kinds and defaults shared by the settings, the API objects and the translation to Spark.

Flink's defaults for checkpoint storages and state backends, the kinds of checkpoint storage
and state backend, and the retention modes of checkpoints, defined once.
"""

from __future__ import annotations

import enum
from typing import Any, Mapping, Optional

import attrs

__all__ = [
    "DEFAULT_MAX_STATE_SIZE", "DEFAULT_FILE_STATE_THRESHOLD", "DEFAULT_WRITE_BUFFER_SIZE",
    "DEFAULT_TRANSFER_THREADS", "StorageKind", "StorageSpec", "BackendKind", "ROCKSDB_BACKENDS",
    "HEAP_BACKENDS", "Retention",
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


@attrs.frozen
class StorageSpec:
    """The checkpoint storage a job uses, resolved from the API object or the options.

    :param kind: Where the checkpoints go.
    :param path: The configured checkpoint directory, if any.
    :param max_state_size: The largest state in bytes a checkpoint may hold (JobManager storage).
    :param custom_class: The class a custom storage names.
    """

    kind: StorageKind
    path: Optional[str] = None
    max_state_size: Optional[int] = None
    custom_class: Optional[str] = None

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "StorageSpec":
        """The storage a record kept in the session conf (``spark.flink.object.*``) describes."""
        size = record.get("max_state_size")
        custom = record.get("class")
        return cls(StorageKind(record["type"]), record.get("path"),
                   None if size is None else int(size), None if custom is None else str(custom))


class BackendKind(str, enum.Enum):
    """The kind of a state backend object, as the ``type`` of its record."""

    HASHMAP = "hashmap"
    EMBEDDED_ROCKSDB = "rocksdb"
    MEMORY = "memory"
    FS = "fs"
    #: The deprecated ``RocksDBStateBackend``, which also names a checkpoint location.
    ROCKSDB_LEGACY = "rocksdb-legacy"
    #: A Spark state store provider class named by the user.
    CUSTOM = "custom"


#: State backend names (object kinds and ``state.backend.type`` values) kept in RocksDB.
ROCKSDB_BACKENDS = (BackendKind.EMBEDDED_ROCKSDB.value, BackendKind.ROCKSDB_LEGACY.value)
#: State backend names kept on the JVM heap (``jobmanager`` and ``filesystem`` are Flink's
#: older names for the heap backends).
HEAP_BACKENDS = (BackendKind.HASHMAP.value, BackendKind.MEMORY.value, BackendKind.FS.value,
                 "jobmanager", "filesystem")


class Retention(str, enum.Enum):
    """What happens to a job's durable checkpoints when the job ends, by Flink's
    ``ExternalizedCheckpointRetention``; each member's value is its name, the text kept in
    the Spark session conf (which :func:`str` gives too)."""

    #: Deleted when the job is cancelled or finishes, kept when it fails.
    DELETE_ON_CANCELLATION = "DELETE_ON_CANCELLATION"
    #: Always kept.
    RETAIN_ON_CANCELLATION = "RETAIN_ON_CANCELLATION"
    #: Deleted whenever the job ends (Flink's default).
    NO_EXTERNALIZED_CHECKPOINTS = "NO_EXTERNALIZED_CHECKPOINTS"

    def __str__(self) -> str:
        return self.value
