"""Where checkpoints are kept, as :class:`~pyflink_compat.datastream.CheckpointConfig` sets it.

These setters are deprecated in PyFlink 1.19 in favour of configuration options, and warn as
PyFlink's do. :class:`CheckpointStorageMethods` holds them; they are copied into
``CheckpointConfig``, whose only base stays ``object``, as in PyFlink.
"""
import warnings
from typing import TYPE_CHECKING, Any, Optional, cast

from pyflink_compat.datastream.checkpoint_storage import (
    CheckpointStorage, _storage_from_record, _storage_record)
from pyflink_compat.util.exceptions import py4j_sends
from pyflink_compat.util.java_args import JavaMethod, java_attribute
from pyflink_compat.util.descriptors import descriptor_json

if TYPE_CHECKING:
    from pyflink_compat.datastream.checkpoint_config import CheckpointConfig

__all__ = ["CheckpointStorageMethods"]

_STORAGE_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. Use `stream_execution_environment.configure` method instead to set "
    "the checkpoint storage.")
_GET_STORAGE_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. It is recommended to find which checkpoint storage is used by "
    "checkpoint storage ConfigOption.")


class CheckpointStorageMethods(object):
    """The checkpoint storage methods of :class:`~pyflink_compat.datastream.CheckpointConfig`."""

    if TYPE_CHECKING:  # defined by CheckpointConfig itself
        _store: Any

        @staticmethod
        def _method(name: str, *kinds: str) -> JavaMethod: ...

    def set_checkpoint_storage(self, storage: CheckpointStorage) -> 'CheckpointConfig':
        """Set where checkpoints are kept.

        .. note:: Deprecated since 1.19, as in PyFlink (it warns): configure the
                  ``execution.checkpointing.dir`` and ``execution.checkpointing.storage``
                  options instead.

        :param storage: A :class:`~pyflink_compat.datastream.CheckpointStorage`.
        :return: This config.

        >>> from pyflink_compat.datastream import FileSystemCheckpointStorage
        >>> config = env.get_checkpoint_config().set_checkpoint_interval(1000)
        >>> config = config.set_checkpoint_storage(FileSystemCheckpointStorage("file:///data/checkpoints"))
        >>> print(config.get_checkpoint_storage())
        FileSystemCheckpointStorage (checkpoints to file:/data/checkpoints) (fileStateThreshold: 20480, ...)
        >>> env.get_job_plan("orders").job_dir  # every query checkpoints in it, by sink name
        'file:/data/checkpoints/orders'
        """
        warnings.warn(_STORAGE_DEPRECATION, DeprecationWarning, stacklevel=2)
        if java_attribute(storage, "_j_checkpoint_storage") is None:
            # py4j hands a null to Java's setCheckpointStorage(String) overload.
            raise self._method("setCheckpointStorage").null_pointer(
                "Checkpoint directory must not be null")
        # A descriptor made here has its record's text at hand: nothing to encode.
        text = descriptor_json(storage._j_checkpoint_storage)
        self._store.put_object("checkpoint-storage", _storage_record(storage) if text is None else text)
        return cast('CheckpointConfig', self)  # the config this is installed in

    def set_checkpoint_storage_dir(self, checkpoint_path: str) -> 'CheckpointConfig':
        """Keep checkpoints in a file system, under ``checkpoint_path``.

        The same as ``set_checkpoint_storage(FileSystemCheckpointStorage(checkpoint_path))``.

        .. note:: Deprecated since 1.19, as in PyFlink (it warns): configure the
                  ``execution.checkpointing.dir`` option instead.

        :param checkpoint_path: The base location, with a scheme (``file://``, ``hdfs://``).
        :return: This config.
        """
        from pyflink_compat.datastream.checkpoint_storage import FileSystemCheckpointStorage

        warnings.warn(_STORAGE_DEPRECATION, DeprecationWarning, stacklevel=2)
        if checkpoint_path is None:
            raise self._method("setCheckpointStorage").null_pointer(
                "Checkpoint directory must not be null")
        if not isinstance(checkpoint_path, str):
            if py4j_sends(checkpoint_path):  # no setCheckpointStorage overload takes it
                raise self._method("setCheckpointStorage").not_found(checkpoint_path)
            java_attribute(checkpoint_path, "_get_object_id")
        # The storage's record, checked as its constructor checks it; no JVM object is needed.
        record = FileSystemCheckpointStorage._record_for(checkpoint_path, None, -1)
        self._store.put_object("checkpoint-storage", record)
        return cast('CheckpointConfig', self)  # the config this is installed in

    def get_checkpoint_storage(self) -> Optional[CheckpointStorage]:
        """The checkpoint storage set through this API, if any.

        .. note:: Deprecated since 1.19, as in PyFlink (it warns).

        :return: A new wrapper of the storage, or ``None``.
        """
        warnings.warn(_GET_STORAGE_DEPRECATION, DeprecationWarning, stacklevel=2)
        return _storage_from_record(self._store.get_object("checkpoint-storage"))
