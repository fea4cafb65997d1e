"""How state is kept: the state backends of PyFlink, kept in the Spark JVM.

A backend is a value object whose parameters are checked (and whose paths are normalised)
when it is built; the RocksDB backends also have setters that change it in place. Handed to
``StreamExecutionEnvironment.set_state_backend``, it chooses Spark's state store provider:

* :class:`HashMapStateBackend`, :class:`MemoryStateBackend` and :class:`FsStateBackend` keep
  state on the JVM heap: Spark's HDFS-backed state store.
* :class:`EmbeddedRocksDBStateBackend` and :class:`RocksDBStateBackend` keep state in RocksDB:
  Spark's RocksDB state store, with incremental checkpoints mapped to changelog checkpointing.
* :class:`CustomStateBackend` names a Spark ``StateStoreProvider`` class.

Settings Spark has no use for (local directories, predefined options, transfer threads, ...)
are checked as Flink checks them, stored and read back, as ported code expects.
"""
# Annotations are spelled as PyFlink spells them, so that signatures read the same.
# ruff: noqa: UP006, UP035, UP045
import json
from abc import ABCMeta
from enum import Enum
from typing import Any, Dict, List, Optional, Tuple

from py4j.java_gateway import JavaObject

from pyflink_compat.datastream._flink_backend_errors import (
    FS_CLASS,
    MEMORY_CLASS,
    PATH_CLASS,
    ROCKSDB_CLASS,
    TERNARY,
    TRANSFER_THREADS_ERROR,
    URI,
    call_target,
    check_string_array,
    incremental_flag,
    is_java_int,
    no_constructor,
    options_factory_name,
    stream_backend_record,
    ternary,
    wrapped_descriptor,
)
from pyflink_compat.datastream._paths import checkpoint_location, local_directory, parse_location
from pyflink_compat.datastream._state_backend_text import (
    legacy_text, memory_text, paths_text, transfer_threads)
from pyflink_compat.datastream.checkpoint_storage import _check_file_sizes
from pyflink_compat.settings import registry
from pyflink_compat.util.descriptors import (
    descriptor_or_none,
    descriptor_put,
    descriptor_record,
    is_descriptor,
    new_descriptor,
)
from pyflink_compat.util.exceptions import illegal_argument, java_error, method_not_found
from pyflink_compat.util.java_args import java_attribute, java_int, java_string
from pyflink_compat.util.java_classes import context_class_loader

__all__ = [  # noqa: RUF022 - PyFlink's order
    'StateBackend',
    'HashMapStateBackend',
    'EmbeddedRocksDBStateBackend',
    'MemoryStateBackend',
    'FsStateBackend',
    'RocksDBStateBackend',
    'CustomStateBackend',
    'PredefinedOptions']


_STATE_STORE_PROVIDER = "org.apache.spark.sql.execution.streaming.state.StateStoreProvider"
_SET_STATE_BACKEND = "StreamExecutionEnvironment.setStateBackend"


# --- reading and changing a backend's descriptor ----------------------------------------------

def _descriptor(backend: 'StateBackend', java_method: str) -> Any:
    return wrapped_descriptor(backend._j_state_backend, java_method)


def _read(backend: 'StateBackend', java_method: str, key: str) -> Any:
    return _descriptor(backend, java_method).get(key)


def _rocksdb_record(kind: str, incremental: Optional[bool]) -> Dict[str, Any]:
    # -1 transfer threads: not set, as Flink keeps it.
    return {"type": kind, "incremental": incremental, "db_storage_paths": None,
            "predefined_options": None, "options": None, "number_of_transfer_threads": -1}


# The RocksDB settings both RocksDB backends have: each backend's methods call these.

def _set_db_storage_paths(backend: 'StateBackend', paths: Any) -> None:
    if len(paths) < 1:
        descriptor_put(_descriptor(backend, "setDbStoragePath"), "db_storage_paths", None)
        return
    check_string_array(paths)  # py4j fills a String[] first
    j_backend = _descriptor(backend, "setDbStoragePaths")
    target = call_target(j_backend, "setDbStoragePaths")
    descriptor_put(j_backend, "db_storage_paths",
                   json.dumps([local_directory(path, target) for path in paths]))


def _db_storage_paths(backend: 'StateBackend') -> List[str]:
    # No paths read back as None, which PyFlink's list() turns into a TypeError.
    return list(json.loads(_read(backend, "getDbStoragePaths", "db_storage_paths") or "null"))


def _is_incremental(backend: 'StateBackend') -> bool:
    return bool(_read(backend, "isIncrementalCheckpointsEnabled", "incremental"))


def _set_predefined_options(backend: 'StateBackend', options: Any) -> None:
    j_backend = _descriptor(backend, "setPredefinedOptions")
    descriptor_put(j_backend, "predefined_options", options._to_j_predefined_options())


def _predefined_options(backend: 'StateBackend') -> 'PredefinedOptions':
    name = _read(backend, "getPredefinedOptions", "predefined_options")
    return PredefinedOptions._from_j_predefined_options(name or "DEFAULT")


def _set_options(backend: 'StateBackend', class_name: Any) -> None:
    name = options_factory_name(class_name)
    descriptor_put(_descriptor(backend, "setRocksDBOptions"), "options", name)


def _options(backend: 'StateBackend') -> Optional[str]:
    return _read(backend, "getRocksDBOptions", "options")


def _set_transfer_threads(backend: 'StateBackend', number: Any, java_method: str) -> None:
    j_backend = _descriptor(backend, java_method)
    target = call_target(j_backend, java_method)
    java_int(number, java_method, target)
    if number <= 0:
        raise illegal_argument(TRANSFER_THREADS_ERROR, target)
    descriptor_put(j_backend, "number_of_transfer_threads", number)


# --- wrapping and records -------------------------------------------------------------------

def _from_j_state_backend(j_state_backend):
    """Wrap a JVM state backend in the Python class that matches its kind.

    :param j_state_backend: A backend descriptor, a JVM ``StateStoreProvider`` or ``None``.
    :return: The backend wrapper, or ``None`` for ``None``.
    """
    if j_state_backend is None:
        return None
    if not isinstance(j_state_backend, JavaObject):
        raise AttributeError(  # noqa: TRY004 - PyFlink's error
            f"'{type(j_state_backend).__name__}' object has no attribute 'getClass'")
    if is_descriptor(j_state_backend):
        cls, keyword = {
            "hashmap": (HashMapStateBackend, "j_hashmap_state_backend"),
            "rocksdb": (EmbeddedRocksDBStateBackend, "j_embedded_rocks_db_state_backend"),
            "memory": (MemoryStateBackend, "j_memory_state_backend"),
            "fs": (FsStateBackend, "j_fs_state_backend"),
            "rocksdb-legacy": (RocksDBStateBackend, "j_rocks_db_state_backend"),
        }.get(j_state_backend.get("type"), (None, None))
        if cls is None:
            return CustomStateBackend(j_state_backend.get("class"))
        return cls(**{str(keyword): j_state_backend})
    loader = context_class_loader()
    if not loader.loadClass(_STATE_STORE_PROVIDER).isAssignableFrom(j_state_backend.getClass()):
        raise TypeError(f"The input {j_state_backend} is not an instance of StateBackend.")
    return CustomStateBackend(j_state_backend)


def _state_backend_record(backend: 'StateBackend', target: str = _SET_STATE_BACKEND,
                          ) -> Tuple[Dict[str, Any], bool]:
    """The record of ``backend`` an environment keeps in its session conf, and whether its JVM
    object is a descriptor.

    :param target: The call named in the error for a backend that wraps nothing (Flink's
                   ``NullPointerException``) or something of the wrong type.
    """
    j_backend = java_attribute(backend, "_j_state_backend")
    if j_backend is None:
        raise java_error("java.lang.NullPointerException", None, target)
    record = descriptor_or_none(j_backend)
    if record is not None:
        return record, True
    if not isinstance(j_backend, (str, JavaObject)):
        raise method_not_found("setStateBackend", [j_backend], target)
    return {"type": registry.BackendKind.CUSTOM.value,
            "class": CustomStateBackend._class_name(j_backend)}, False


def _state_backend_from_record(record: Optional[Dict[str, Any]]) -> Optional['StateBackend']:
    """The backend a record made by :func:`_state_backend_record` describes."""
    if record is None:
        return None
    return _from_j_state_backend(new_descriptor(record))


class StateBackend(metaclass=ABCMeta):  # noqa: B024 - an ABC without abstract methods, as in PyFlink
    """Decides how a job's keyed state is held while it runs and how it is checkpointed.

    Pass one to ``StreamExecutionEnvironment.set_state_backend``. On Spark it picks the state
    store provider (``spark.sql.streaming.stateStore.providerClass``) of the job's queries.

    :param j_state_backend: The JVM object that holds the backend's parameters.
    """

    def __init__(self, j_state_backend):
        self._j_state_backend = j_state_backend


class HashMapStateBackend(StateBackend):
    """State kept as objects on the JVM heap: Spark's HDFS-backed state store.

    The store keeps each partition's state in an in-memory map and writes a delta file per
    micro-batch (plus periodic snapshots) to the checkpoint location.

    >>> env = env.set_state_backend(HashMapStateBackend())
    >>> env.get_job_plan().spark_conf["spark.sql.streaming.stateStore.providerClass"]
    'org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider'

    :param j_hashmap_state_backend: An existing JVM backend to wrap.
    """

    def __init__(self, j_hashmap_state_backend=None):
        if j_hashmap_state_backend is None:
            j_hashmap_state_backend = new_descriptor({"type": "hashmap"})
        super().__init__(j_hashmap_state_backend)

    def __str__(self):
        # Flink shows an identity hash or a Class object here; a stable text instead.
        return "HashMapStateBackend (state in the JVM heap; Spark: HDFS-backed state store)"


class EmbeddedRocksDBStateBackend(StateBackend):
    """State kept in an embedded RocksDB instance: Spark's RocksDB state store.

    Incremental checkpoints map to the store's changelog checkpointing, which uploads only the
    changes of each micro-batch. The other settings are checked, stored and read back; Spark
    manages RocksDB's local directories, tuning and file transfers itself.

    >>> env = env.set_state_backend(EmbeddedRocksDBStateBackend(enable_incremental_checkpointing=True))
    >>> env.get_job_plan().spark_conf["spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"]
    'true'

    :param enable_incremental_checkpointing: ``True``, ``False``, or ``None`` for the configured
                                             default (off).
    :param j_embedded_rocks_db_state_backend: An existing JVM backend to wrap.
    """

    def __init__(self,
                 enable_incremental_checkpointing=None,
                 j_embedded_rocks_db_state_backend=None):
        if j_embedded_rocks_db_state_backend is None:
            j_embedded_rocks_db_state_backend = new_descriptor(
                _rocksdb_record("rocksdb", incremental_flag(enable_incremental_checkpointing)))
        super().__init__(j_embedded_rocks_db_state_backend)

    def set_db_storage_paths(self, *paths: str):
        """Set the local directories for RocksDB's files: absolute paths or ``file:`` URIs.
        Without arguments, clears them."""
        _set_db_storage_paths(self, paths)

    def get_db_storage_paths(self) -> List[str]:
        """The local directories set, as absolute paths (a ``TypeError`` if none are set)."""
        return _db_storage_paths(self)

    def is_incremental_checkpoints_enabled(self) -> bool:
        """Whether checkpoints upload only changes (Spark: changelog checkpointing)."""
        return _is_incremental(self)

    def set_predefined_options(self, options: 'PredefinedOptions'):
        """Set the predefined RocksDB tuning profile, a :class:`PredefinedOptions` member."""
        _set_predefined_options(self, options)

    def get_predefined_options(self) -> 'PredefinedOptions':
        """The predefined tuning profile (``DEFAULT`` unless set)."""
        return _predefined_options(self)

    def set_options(self, options_factory_class_name: str):
        """Set a Flink ``RocksDBOptionsFactory`` class (stored only): Flink's own factories by
        name, any other class only if it loads in the Spark JVM."""
        _set_options(self, options_factory_class_name)

    def get_options(self) -> Optional[str]:
        """The options factory class name, or ``None`` if none was set."""
        return _options(self)

    def get_number_of_transfer_threads(self) -> int:
        """The number of threads transferring files (4 unless set)."""
        return transfer_threads(
            _read(self, "getNumberOfTransferThreads", "number_of_transfer_threads"))

    def set_number_of_transfer_threads(self, number_of_transfering_threads: int):
        """Set the number of threads transferring files; it must be positive."""
        _set_transfer_threads(self, number_of_transfering_threads, "setNumberOfTransferThreads")

    def __str__(self):
        record = descriptor_record(_descriptor(self, "toString"))
        incremental = {None: "UNDEFINED", True: "TRUE", False: "FALSE"}[record["incremental"]]
        return ("EmbeddedRocksDBStateBackend{, localRocksDbDirectories="
                f"{paths_text(record['db_storage_paths'])}, "
                f"enableIncrementalCheckpointing={incremental}, "
                f"numberOfTransferThreads={record['number_of_transfer_threads']}, "
                "writeBatchSize=-1}")


class MemoryStateBackend(StateBackend):
    """Deprecated heap backend that checkpoints to the JobManager: Spark's HDFS-backed store.

    :param checkpoint_path: Optional checkpoint location, with a scheme.
    :param savepoint_path: Optional savepoint location, with a scheme.
    :param max_state_size: Largest state a checkpoint may hold, in bytes (default 5 MiB).
    :param using_asynchronous_snapshots: ``None``, ``True`` or ``False``; snapshots are always
                                         asynchronous, so it has no effect.
    :param j_memory_state_backend: An existing JVM backend to wrap.
    """

    #: The state size limit used when none is given: 5 MiB.
    DEFAULT_MAX_STATE_SIZE = registry.DEFAULT_MAX_STATE_SIZE

    def __init__(self,
                 checkpoint_path=None,
                 savepoint_path=None,
                 max_state_size=None,
                 using_asynchronous_snapshots=None,
                 j_memory_state_backend=None):
        if j_memory_state_backend is None:
            asynchronous = ternary(using_asynchronous_snapshots, 'using_asynchronous_snapshots')
            if max_state_size is None:
                max_state_size = MemoryStateBackend.DEFAULT_MAX_STATE_SIZE
            target = "None." + MEMORY_CLASS
            paths = (checkpoint_path, savepoint_path)
            if not (all(isinstance(p, (str, type(None))) for p in paths)
                    and is_java_int(max_state_size)):
                raise no_constructor(MEMORY_CLASS, [*paths, max_state_size, TERNARY], target)
            # Both are parsed before either is checked, as in Flink.
            j_paths = [None if p is None else parse_location(p, target) for p in paths]
            checkpoint, savepoint = [None if p is None else checkpoint_location(p, target)
                                     for p in j_paths]
            if max_state_size <= 0:
                raise illegal_argument("maxStateSize must be > 0", target)
            j_memory_state_backend = new_descriptor({
                "type": "memory", "checkpoint_path": checkpoint, "savepoint_path": savepoint,
                "max_state_size": max_state_size, "asynchronous_snapshots": asynchronous})
        super().__init__(j_memory_state_backend)

    def get_max_state_size(self) -> int:
        """The largest state, in bytes, a checkpoint may hold."""
        return int(_read(self, "getMaxStateSize", "max_state_size"))

    def is_using_asynchronous_snapshots(self) -> bool:
        """Always ``True``: snapshots are asynchronous whatever was asked."""
        _descriptor(self, "isUsingAsynchronousSnapshots")
        return True

    def __str__(self):
        return memory_text(descriptor_record(_descriptor(self, "toString")))


class FsStateBackend(StateBackend):
    """Deprecated heap backend that checkpoints to a file system: Spark's HDFS-backed store.

    :param checkpoint_directory_uri: The checkpoint location, with a scheme (required).
    :param default_savepoint_directory_uri: Optional savepoint location, with a scheme.
    :param file_state_size_threshold: Inline threshold in bytes, in ``[-1, 1 MiB]``; ``-1`` or
                                      ``None`` means the default, 20 KiB.
    :param write_buffer_size: Write buffer in bytes; ``-1`` or ``None`` means 4096.
    :param using_asynchronous_snapshots: ``None``, ``True`` or ``False``; no effect.
    :param j_fs_state_backend: An existing JVM backend to wrap.
    """

    def __init__(self,
                 checkpoint_directory_uri=None,
                 default_savepoint_directory_uri=None,
                 file_state_size_threshold=None,
                 write_buffer_size=None,
                 using_asynchronous_snapshots=None,
                 j_fs_state_backend=None):
        if j_fs_state_backend is None:
            if checkpoint_directory_uri is None:
                raise ValueError("The parameter 'checkpoint_directory_uri' is required!")
            # PyFlink parses both locations on their own before calling the constructor.
            path_target = "None." + PATH_CLASS
            j_paths = []
            for uri in (checkpoint_directory_uri, default_savepoint_directory_uri):
                if uri is not None:
                    java_string(uri, PATH_CLASS, path_target, constructor=True)
                    uri = parse_location(uri, path_target)
                j_paths.append(uri)
            threshold = -1 if file_state_size_threshold is None else file_state_size_threshold
            buffer_size = -1 if write_buffer_size is None else write_buffer_size
            asynchronous = ternary(using_asynchronous_snapshots, 'using_asynchronous_snapshots')
            target = "None." + FS_CLASS
            if not (is_java_int(threshold) and is_java_int(buffer_size)):
                raise no_constructor(FS_CLASS, [
                    URI, None if j_paths[1] is None else URI, threshold, buffer_size,
                    TERNARY], target)
            checkpoint, savepoint = [None if p is None else checkpoint_location(p, target)
                                     for p in j_paths]
            _check_file_sizes(threshold, buffer_size, target)
            j_fs_state_backend = new_descriptor({
                "type": "fs", "checkpoint_path": checkpoint, "savepoint_path": savepoint,
                "file_state_size_threshold": threshold, "write_buffer_size": buffer_size,
                "asynchronous_snapshots": asynchronous})
        super().__init__(j_fs_state_backend)

    def get_checkpoint_path(self) -> str:
        """The checkpoint location, normalised."""
        return _read(self, "getCheckpointPath", "checkpoint_path")

    def get_min_file_size_threshold(self) -> int:
        """The inline threshold in force, in bytes (20480 unless set)."""
        value = _read(self, "getMinFileSizeThreshold", "file_state_size_threshold")
        return registry.DEFAULT_FILE_STATE_THRESHOLD if value == -1 else int(value)

    def is_using_asynchronous_snapshots(self) -> bool:
        """Always ``True``: snapshots are asynchronous whatever was asked."""
        _descriptor(self, "isUsingAsynchronousSnapshots")
        return True

    def get_write_buffer_size(self) -> int:
        """The write buffer size in force, in bytes (4096 unless set)."""
        value = _read(self, "getWriteBufferSize", "write_buffer_size")
        return registry.DEFAULT_WRITE_BUFFER_SIZE if value == -1 else int(value)


class RocksDBStateBackend(StateBackend):
    """Deprecated RocksDB backend that also says where checkpoints go.

    On Spark it selects the RocksDB state store, like :class:`EmbeddedRocksDBStateBackend`;
    its checkpoint location is that of the backend it checkpoints through. Built with neither
    a URI nor a suitable backend, it wraps nothing and every method fails, as in PyFlink.

    :param checkpoint_data_uri: A checkpoint location with a scheme, checkpointed through an
                                :class:`FsStateBackend`.
    :param enable_incremental_checkpointing: ``True``, ``False`` or ``None`` (off).
    :param checkpoint_stream_backend: Without a URI: the :class:`FsStateBackend`,
                                      :class:`MemoryStateBackend` or :class:`RocksDBStateBackend`
                                      to checkpoint through.
    :param j_rocks_db_state_backend: An existing JVM backend to wrap.
    """

    def __init__(self,
                 checkpoint_data_uri=None,
                 enable_incremental_checkpointing=None,
                 checkpoint_stream_backend=None,
                 j_rocks_db_state_backend=None):
        if j_rocks_db_state_backend is None:
            incremental = incremental_flag(enable_incremental_checkpointing)
            target = "None." + ROCKSDB_CLASS
            inner = None
            if checkpoint_data_uri is not None:
                args = [checkpoint_data_uri]
                if enable_incremental_checkpointing is not None:
                    args.append(enable_incremental_checkpointing)
                if not isinstance(checkpoint_data_uri, str) or not all(
                        isinstance(a, bool) for a in args[1:]):
                    raise no_constructor(ROCKSDB_CLASS, args, target)
                path = checkpoint_location(parse_location(checkpoint_data_uri, target), target)
                inner = {"type": "fs", "checkpoint_path": path, "savepoint_path": None,
                         "file_state_size_threshold": -1, "write_buffer_size": -1,
                         "asynchronous_snapshots": None}
            elif isinstance(checkpoint_stream_backend, StateBackend):
                inner = stream_backend_record(checkpoint_stream_backend._j_state_backend, target)
            if inner is not None:
                record = _rocksdb_record("rocksdb-legacy", incremental)
                record["checkpoint_backend"] = json.dumps(inner)
                record["checkpoint_path"] = inner.get("checkpoint_path")
                j_rocks_db_state_backend = new_descriptor(record)
        super().__init__(j_rocks_db_state_backend)

    def get_checkpoint_backend(self):
        """The backend checkpoints go through, as a new wrapper."""
        text = _read(self, "getCheckpointBackend", "checkpoint_backend")
        return _from_j_state_backend(new_descriptor(json.loads(text)))

    def set_db_storage_paths(self, *paths: str):
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.set_db_storage_paths`."""
        _set_db_storage_paths(self, paths)

    def get_db_storage_paths(self) -> List[str]:
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.get_db_storage_paths`."""
        return _db_storage_paths(self)

    def is_incremental_checkpoints_enabled(self) -> bool:
        """As
        :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.is_incremental_checkpoints_enabled`."""
        return _is_incremental(self)

    def set_predefined_options(self, options: 'PredefinedOptions'):
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.set_predefined_options`."""
        _set_predefined_options(self, options)

    def get_predefined_options(self) -> 'PredefinedOptions':
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.get_predefined_options`."""
        return _predefined_options(self)

    def set_options(self, options_factory_class_name: str):
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.set_options`."""
        _set_options(self, options_factory_class_name)

    def get_options(self) -> Optional[str]:
        """As :meth:`~pyflink_compat.datastream.EmbeddedRocksDBStateBackend.get_options`."""
        return _options(self)

    def get_number_of_transfering_threads(self) -> int:
        """The number of threads transferring files (4 unless set)."""
        return transfer_threads(
            _read(self, "getNumberOfTransferingThreads", "number_of_transfer_threads"))

    def set_number_of_transfering_threads(self, number_of_transfering_threads: int):
        """Set the number of threads transferring files; it must be positive."""
        _set_transfer_threads(self, number_of_transfering_threads, "setNumberOfTransferingThreads")

    def __str__(self):
        return legacy_text(descriptor_record(_descriptor(self, "toString")))


class PredefinedOptions(Enum):
    """Predefined RocksDB tuning profiles, stored and read back; Spark tunes RocksDB through
    its own ``spark.sql.streaming.stateStore.rocksdb.*`` settings.

    :data:`DEFAULT`: RocksDB's own defaults.

    :data:`SPINNING_DISK_OPTIMIZED`: tuned for spinning disks.

    :data:`SPINNING_DISK_OPTIMIZED_HIGH_MEM`: tuned for spinning disks, using more memory.

    :data:`FLASH_SSD_OPTIMIZED`: tuned for flash SSDs.
    """

    DEFAULT = 0
    SPINNING_DISK_OPTIMIZED = 1
    SPINNING_DISK_OPTIMIZED_HIGH_MEM = 2
    FLASH_SSD_OPTIMIZED = 3

    @staticmethod
    def _from_j_predefined_options(j_predefined_options) -> 'PredefinedOptions':
        if not isinstance(j_predefined_options, str):
            j_predefined_options = j_predefined_options.name()
        return PredefinedOptions[j_predefined_options]

    def _to_j_predefined_options(self):
        return self.name


class CustomStateBackend(StateBackend):
    """State kept by a Spark state store provider of your own.

    Pass the provider's class name (or a JVM ``StateStoreProvider``); it becomes
    ``spark.sql.streaming.stateStore.providerClass`` and must be on the driver's and
    executors' class path.

    :param j_custom_state_backend: A provider class name or a JVM provider object.
    """

    def __init__(self, j_custom_state_backend):
        super().__init__(j_custom_state_backend)

    @staticmethod
    def _class_name(j_custom_state_backend: Any) -> str:
        if isinstance(j_custom_state_backend, str):
            return j_custom_state_backend
        return str(j_custom_state_backend.getClass().getName())


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
