"""Flink settings as Spark session keys.

Session-wide Spark keys are derived here from a :class:`~pyflink_compat.settings.registry.JobSettings`
snapshot plus the checkpoint storage and state backend records an environment holds. The job
plan (:mod:`pyflink_compat.spark.plan`) takes them from here together with the per-query
mechanisms (trigger, checkpoint location, write options); :func:`settings_store` gives the
settings layer the same derivation, to keep the session conf current between jobs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional

from pyflink_compat.checkpoints.layout import HDFS_PROVIDER, PROVIDER_CLASS, ROCKSDB_PROVIDER, SHUFFLE_PARTITIONS
from pyflink_compat.settings.registry import (
    DEFAULT_MAX_STATE_SIZE, HEAP_BACKENDS, ROCKSDB_BACKENDS, BackendKind, StorageKind, StorageSpec)
from pyflink_compat.settings.registry import JobSettings
from pyflink_compat.settings.store import SettingsStore

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

    from pyflink_compat.spark.pacing import Pacing

__all__ = [
    "HDFS_PROVIDER",
    "ROCKSDB_PROVIDER",
    "MIN_BATCHES_TO_RETAIN",
    "PROVIDER_CLASS",
    "ROCKSDB_CHANGELOG",
    "FILE_MANAGER_CLASS",
    "SHUFFLE_PARTITIONS",
    "session_conf",
    "session_keys",
    "state_store_provider",
    "effective_storage",
    "settings_store",
    "MIN_DELTAS_FOR_SNAPSHOT",
]

MIN_BATCHES_TO_RETAIN = "spark.sql.streaming.minBatchesToRetain"
ROCKSDB_CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
FILE_MANAGER_CLASS = "spark.sql.streaming.checkpointFileManagerClass"
#: How many state deltas the state store writes before a full snapshot (from a job's pacing).
MIN_DELTAS_FOR_SNAPSHOT = "spark.sql.streaming.stateStore.minDeltasForSnapshot"


def state_store_provider(settings: JobSettings, backend: Optional[Mapping[str, Any]]) -> str:
    """The Spark state store provider class for the state backend in force.

    A backend object set with ``set_state_backend`` wins over ``state.backend.type``, as in
    Flink. Heap backends map to the HDFS-backed store (state in the JVM heap, written as
    deltas), RocksDB backends to the RocksDB store; any other name is taken as a provider
    class.
    """
    if backend is not None:
        kind = str(backend["type"])
        if kind == BackendKind.CUSTOM:
            return str(backend["class"])
    else:
        kind = settings.state_backend
    if kind in ROCKSDB_BACKENDS:
        return ROCKSDB_PROVIDER
    if kind in HEAP_BACKENDS:
        return HDFS_PROVIDER
    return kind


def changelog_checkpointing(settings: JobSettings, backend: Optional[Mapping[str, Any]]) -> bool:
    """Whether RocksDB writes changelogs instead of full uploads (Flink's incremental mode)."""
    incremental = settings.incremental_checkpoints
    if backend is not None and backend.get("incremental") is not None:
        incremental = bool(backend["incremental"])
    return bool(incremental or settings.changelog_enabled)


def effective_storage(settings: JobSettings, storage: Optional[Mapping[str, Any]]) -> StorageSpec:
    """The checkpoint storage a job uses, resolved the way Flink resolves it.

    A storage object set through the API wins; then ``execution.checkpointing.storage``; then a
    configured checkpoint directory means file system storage; otherwise JobManager storage.
    """
    if storage is not None:
        return StorageSpec.from_record(storage)
    kind = settings.checkpoint_storage
    path = settings.checkpoint_dir
    if kind == StorageKind.JOBMANAGER or (kind is None and path is None):
        return StorageSpec(StorageKind.JOBMANAGER, path, DEFAULT_MAX_STATE_SIZE)
    if kind in (None, StorageKind.FILESYSTEM):
        return StorageSpec(StorageKind.FILESYSTEM, path)
    return StorageSpec(StorageKind.CUSTOM, path, custom_class=kind)


def session_conf(
    settings: JobSettings,
    storage: Optional[Mapping[str, Any]],
    backend: Optional[Mapping[str, Any]],
) -> Mapping[str, Optional[str]]:
    """The session-wide Spark conf keys that follow from the Flink settings and the records
    of the API objects (:func:`session_keys` of the storage they resolve to)."""
    return session_keys(settings, effective_storage(settings, storage), backend)


def session_keys(
    settings: JobSettings,
    resolved: StorageSpec,
    backend: Optional[Mapping[str, Any]],
    paced: "Optional[Pacing]" = None,
) -> Mapping[str, Optional[str]]:
    """The session-wide Spark conf keys that follow from the Flink settings, once the
    checkpoint storage is resolved (:func:`effective_storage`), and from the job's pacing
    (:func:`pyflink_compat.spark.pacing.pacing`) when it runs: the batches between full state
    snapshots.

    A value of ``None`` means the key is to be unset, so that Spark's default applies. The
    RocksDB changelog key is given only when the provider may read it: the HDFS-backed store
    reads no RocksDB key, so under a heap backend the session keeps whatever value it has,
    and a switch between a heap and a RocksDB backend writes only keys that change something.
    """
    provider = state_store_provider(settings, backend)
    keys: Dict[str, Optional[str]] = {
        # one batch more than the checkpoints Flink keeps: a batch that Spark's state store has
        # written but whose commit is not logged yet (a crash, a stop, between the two) needs
        # the state of the batch before it to run again, which a store keeping only its newest
        # version would have removed at its next maintenance
        MIN_BATCHES_TO_RETAIN: str(settings.num_retained + 1),
        PROVIDER_CLASS: provider,
    }
    if provider != HDFS_PROVIDER:
        keys[ROCKSDB_CHANGELOG] = "true" if changelog_checkpointing(settings, backend) else "false"
    keys[FILE_MANAGER_CLASS] = resolved.custom_class if resolved.kind is StorageKind.CUSTOM else None
    if settings.parallelism is not None and settings.parallelism > 0:
        # Without a parallelism the session keeps its own number (spark-submit --conf, or
        # Spark's default), as a Flink job without one runs with the cluster's default.
        keys[SHUFFLE_PARTITIONS] = str(settings.parallelism)
    if paced is not None and paced.snapshot_every is not None:
        keys[MIN_DELTAS_FOR_SNAPSHOT] = str(paced.snapshot_every)
    return keys


def settings_store(j_conf: "JavaObject") -> SettingsStore:
    """The settings held in a Spark session's JVM ``RuntimeConfig``, kept in step with the
    Spark keys derived from them. Environment code reads and writes settings through it."""
    return SettingsStore(j_conf, session_conf)
