"""Where checkpoints are written: the checkpoint storages of PyFlink, kept in the Spark JVM.

A storage is a value object: its parameters are checked and its path is normalised when it is
built, and it takes effect once handed to a checkpoint config. In Spark terms:

* :class:`JobManagerCheckpointStorage` checkpoints each query into a temporary location owned
  by the job, removed when the job ends (not durable, like Flink's JobManager heap).
* :class:`FileSystemCheckpointStorage` checkpoints each query under
  ``<checkpoint path>/<job name>/<sink name>``, so re-running a job resumes from it.
* :class:`CustomCheckpointStorage` names a JVM ``CheckpointFileManager`` class that Spark uses
  to write checkpoint files.
"""
from abc import ABCMeta
from typing import Any, Dict, Optional

from pyflink_compat.datastream._paths import checkpoint_location, new_path
from pyflink_compat.settings import registry
from pyflink_compat.util.exceptions import JavaType, illegal_argument
from pyflink_compat.util.java_args import java_call_args
from pyflink_compat.util.descriptors import (
    descriptor_or_none, is_descriptor, new_descriptor)

__all__ = [
    'CheckpointStorage',
    'JobManagerCheckpointStorage',
    'FileSystemCheckpointStorage',
    'CustomCheckpointStorage']

_JM_CLASS = "org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage"
_FS_CLASS = "org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage"


def _from_j_checkpoint_storage(j_checkpoint_storage):
    """Wrap a JVM checkpoint storage in the Python class that matches its kind.

    :param j_checkpoint_storage: A storage descriptor, a JVM ``CheckpointFileManager`` or
                                 ``None``.
    :return: The storage wrapper, or ``None`` for ``None``.
    """
    if j_checkpoint_storage is None:
        return None
    if is_descriptor(j_checkpoint_storage):
        kind = j_checkpoint_storage.get("type")
        if kind == registry.StorageKind.JOBMANAGER:
            return JobManagerCheckpointStorage(
                j_jobmanager_checkpoint_storage=j_checkpoint_storage)
        if kind == registry.StorageKind.FILESYSTEM:
            return FileSystemCheckpointStorage(
                j_filesystem_checkpoint_storage=j_checkpoint_storage)
        return CustomCheckpointStorage(j_checkpoint_storage.get("class"))
    return CustomCheckpointStorage(j_checkpoint_storage)


def _path_arg(j_path: Any) -> Optional[JavaType]:
    """A parsed path as the constructor argument py4j reports (``null`` for none)."""
    return None if j_path is None else JavaType("class org.apache.flink.core.fs.Path")


def _storage_record(storage: 'CheckpointStorage') -> Dict[str, Any]:
    """The record of ``storage`` an environment keeps in its session conf."""
    j_storage = storage._j_checkpoint_storage
    if isinstance(j_storage, str) and type(storage) is CheckpointStorage:
        # A path given to the base class: py4j picks Java's setCheckpointStorage(String)
        # overload, which makes a file system storage at that path.
        return _storage_record(FileSystemCheckpointStorage(j_storage))
    record = descriptor_or_none(j_storage)
    if record is not None:
        return record
    return {"type": registry.StorageKind.CUSTOM.value, "class": CustomCheckpointStorage._class_name(j_storage)}


def _check_file_sizes(file_state_size_threshold: int, write_buffer_size: int, target: str) -> None:
    """Flink's range checks of a file system storage's sizes, which its ``FsStateBackend``
    makes too; ``-1`` stands for the deployment's value."""
    maximum = FileSystemCheckpointStorage.MAX_FILE_STATE_THRESHOLD
    if not -1 <= file_state_size_threshold <= maximum:
        raise illegal_argument(
            "The threshold for file state size must be in [-1, %d], where '-1' means "
            "to use the value from the deployment's configuration." % maximum, target)
    if write_buffer_size < -1:
        raise illegal_argument(
            "The write buffer size must be not less than '-1', where '-1' means to use "
            "the value from the deployment's configuration.", target)


def _storage_from_record(record: Optional[Dict[str, Any]]) -> Optional['CheckpointStorage']:
    if record is None:
        return None
    return _from_j_checkpoint_storage(new_descriptor(record))


class CheckpointStorage(object, metaclass=ABCMeta):
    """Decides where the checkpoints of a job are kept.

    Pass one to :meth:`~pyflink_compat.datastream.CheckpointConfig.set_checkpoint_storage`.
    Spark writes every micro-batch's offsets, commit marker and state store files to the
    query's checkpoint location; the storage decides which location that is.

    :param j_checkpoint_storage: The JVM object that holds the storage's parameters.
    """

    def __init__(self, j_checkpoint_storage):
        self._j_checkpoint_storage = j_checkpoint_storage


class JobManagerCheckpointStorage(CheckpointStorage):
    """Checkpoints kept only as long as the job runs.

    Flink keeps these checkpoints in the JobManager's heap; pyflink_compat gives each query a
    temporary checkpoint location owned by the job and removes it when the job ends, so a
    restarted driver starts afresh. ``max_state_size`` is enforced: a job whose state grows
    past it fails. The optional ``checkpoint_path`` is where Flink would persist metadata; it
    is stored and read back.

    >>> storage = JobManagerCheckpointStorage(max_state_size=10 * 1024 * 1024)
    >>> storage.get_max_state_size(), storage.get_checkpoint_path()
    (10485760, None)
    >>> JobManagerCheckpointStorage(max_state_size=0)
    Traceback (most recent call last):
    pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
    : java.lang.IllegalArgumentException: maxStateSize must be > 0...
    >>> config = env.enable_checkpointing(1000).get_checkpoint_config().set_checkpoint_storage(storage)
    >>> env.get_job_plan().state_limit  # a job whose state grows past it fails
    10485760

    :param checkpoint_path: Optional location (with a scheme) for checkpoint metadata.
    :param max_state_size: Largest state a checkpoint may hold, in bytes (default 5 MiB).
    :param j_jobmanager_checkpoint_storage: An existing JVM storage to wrap.
    """

    #: The state size limit used when none is given: 5 MiB.
    DEFAULT_MAX_STATE_SIZE = registry.DEFAULT_MAX_STATE_SIZE

    def __init__(self, checkpoint_path=None, max_state_size=None,
                 j_jobmanager_checkpoint_storage=None):
        if j_jobmanager_checkpoint_storage is None:
            target = "None." + _JM_CLASS
            j_path = None if checkpoint_path is None else new_path(checkpoint_path)
            if max_state_size is None:
                max_state_size = JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE
            java_call_args(_JM_CLASS, target, [(_path_arg(j_path), None), (max_state_size, "int")],
                           constructor=True)
            if max_state_size <= 0:
                raise illegal_argument("maxStateSize must be > 0", target)
            path = None if j_path is None else checkpoint_location(j_path, target)
            record = {"type": "jobmanager", "path": path, "max_state_size": max_state_size}
            j_jobmanager_checkpoint_storage = new_descriptor(record)
        super(JobManagerCheckpointStorage, self).__init__(j_jobmanager_checkpoint_storage)

    def get_checkpoint_path(self) -> Optional[str]:
        """The location given for checkpoint metadata, if any.

        :return: The normalised path, or ``None``.
        """
        return self._j_checkpoint_storage.get("path")

    def get_max_state_size(self) -> int:
        """The largest state, in bytes, a checkpoint of the job may hold."""
        return int(self._j_checkpoint_storage.get("max_state_size"))

    def get_savepoint_path(self) -> Optional[str]:
        """Always ``None``: this storage has no savepoint location."""
        return None

    def __str__(self):
        return "JobManagerCheckpointStorage (checkpoints to JobManager) ( maxStateSize: %d)" \
            % self.get_max_state_size()


class FileSystemCheckpointStorage(CheckpointStorage):
    """Checkpoints kept durably in a file system that Spark's Hadoop client can reach.

    Every query of a job checkpoints under ``<checkpoint_path>/<job name>/<sink name>``, so a
    re-run of the same job resumes where it stopped (Flink, which names checkpoint
    directories after a per-submission job id, would start afresh). Only file systems the
    Spark distribution ships (``file:``, ``hdfs:``) work without extra jars.

    >>> storage = FileSystemCheckpointStorage("file:///var/checkpoints/")
    >>> storage.get_checkpoint_path(), storage.get_min_file_size_threshold()
    ('file:/var/checkpoints', 20480)
    >>> FileSystemCheckpointStorage("var/checkpoints")
    Traceback (most recent call last):
    pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
    : java.lang.IllegalArgumentException: The scheme (hdfs://, file://, etc) is null. ...
    >>> config = env.enable_checkpointing(1000).get_checkpoint_config().set_checkpoint_storage(storage)
    >>> env.get_job_plan("orders").job_dir
    'file:/var/checkpoints/orders'

    :param checkpoint_path: The base location, with a scheme (``file://``, ``hdfs://``).
    :param file_state_size_threshold: State below this many bytes would be inlined by Flink;
                                      stored, no Spark effect. ``-1`` or ``None`` means the
                                      default (20 KiB); at most 1 MiB.
    :param write_buffer_size: Write buffer size in bytes; stored, no Spark effect. ``-1``
                              means the default (4096).
    :param j_filesystem_checkpoint_storage: An existing JVM storage to wrap.
    """

    #: The largest accepted ``file_state_size_threshold``: 1 MiB.
    MAX_FILE_STATE_THRESHOLD = 1024 * 1024

    def __init__(self,
                 checkpoint_path=None,
                 file_state_size_threshold=None,
                 write_buffer_size=-1,
                 j_filesystem_checkpoint_storage=None):
        if j_filesystem_checkpoint_storage is None:
            if checkpoint_path is None:
                raise ValueError("checkpoint_path must not be None")
            record = self._record_for(checkpoint_path, file_state_size_threshold,
                                      write_buffer_size)
            j_filesystem_checkpoint_storage = new_descriptor(record)
        super(FileSystemCheckpointStorage, self).__init__(j_filesystem_checkpoint_storage)

    @classmethod
    def _record_for(cls, checkpoint_path: Any, file_state_size_threshold: Any,
                    write_buffer_size: Any) -> Dict[str, Any]:
        """The record of the storage these arguments make, checked as Flink's constructor
        checks them (no JVM object is made)."""
        target = "None." + _FS_CLASS
        j_path = new_path(checkpoint_path)
        if file_state_size_threshold is None:
            file_state_size_threshold = -1
        java_call_args(_FS_CLASS, target, [
            (_path_arg(j_path), None), (file_state_size_threshold, "int"),
            (write_buffer_size, "int")], constructor=True)
        _check_file_sizes(file_state_size_threshold, write_buffer_size, target)
        return {"type": "filesystem", "path": checkpoint_location(j_path, target),
                "file_state_size_threshold": file_state_size_threshold,
                "write_buffer_size": write_buffer_size}

    def get_checkpoint_path(self) -> str:
        """The base location of the checkpoints, normalised."""
        return self._j_checkpoint_storage.get("path")

    def get_savepoint_path(self) -> Optional[str]:
        """Always ``None``: savepoints have no Spark counterpart."""
        return None

    def get_min_file_size_threshold(self) -> int:
        """The file state size threshold in force, in bytes (20480 unless set)."""
        value = int(self._j_checkpoint_storage.get("file_state_size_threshold"))
        return registry.DEFAULT_FILE_STATE_THRESHOLD if value == -1 else value

    def get_write_buffer_size(self) -> int:
        """The write buffer size in force, in bytes (4096 unless set)."""
        value = int(self._j_checkpoint_storage.get("write_buffer_size"))
        return registry.DEFAULT_WRITE_BUFFER_SIZE if value == -1 else value

    def __str__(self):
        return "FileSystemCheckpointStorage (checkpoints to %s) (fileStateThreshold: %d, " \
               "writeBufferSize: %d)" % (self.get_checkpoint_path(),
                                         self.get_min_file_size_threshold(),
                                         self.get_write_buffer_size())


class CustomCheckpointStorage(CheckpointStorage):
    """Checkpoint files written through a JVM ``CheckpointFileManager`` of your own.

    Spark writes a query's checkpoint files through the class named by
    ``spark.sql.streaming.checkpointFileManagerClass``; this storage sets it. Pass either a JVM
    object whose class implements Spark's ``CheckpointFileManager``, or the class name. The
    class must be on the driver's and executors' class path.

    :param j_custom_checkpoint_storage: A JVM ``CheckpointFileManager`` or its class name.
    """

    def __init__(self, j_custom_checkpoint_storage):
        super(CustomCheckpointStorage, self).__init__(j_custom_checkpoint_storage)

    @staticmethod
    def _class_name(j_custom_checkpoint_storage: Any) -> str:
        if isinstance(j_custom_checkpoint_storage, str):
            return j_custom_checkpoint_storage
        return str(j_custom_checkpoint_storage.getClass().getName())


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
