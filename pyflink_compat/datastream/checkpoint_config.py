"""The checkpoint settings of an environment, kept in its Spark session's JVM conf."""
import warnings
from enum import Enum
from typing import Any, Optional

from pyflink_compat.common.time import Duration
from pyflink_compat.datastream.checkpoint_storage import (
    CheckpointStorage, FileSystemCheckpointStorage, _storage_from_record, _storage_record)
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.externalized_checkpoint_retention import \
    ExternalizedCheckpointRetention
from pyflink_compat.settings import values
from pyflink_compat.util.java_limits import INT_MAX
from pyflink_compat.settings.registry import SETTINGS_BY_NAME, Retention
from pyflink_compat.settings.store import SettingsStore
from pyflink_compat.spark.translation import settings_store
from pyflink_compat.util.exceptions import py4j_sends
from pyflink_compat.util.java_args import JavaMethod, enum_member, java_attribute
from pyflink_compat.util.descriptors import descriptor_json

__all__ = ['CheckpointConfig', 'ExternalizedCheckpointCleanup']

_UNLIMITED_TOLERABLE_FAILURES = INT_MAX
# The Java enums PyFlink converts to, named as py4j reports a missing member.
_MODE_ENUM = "org.apache.flink.core.execution.CheckpointingMode"
_CLEANUP_ENUM = \
    "org.apache.flink.streaming.api.environment.CheckpointConfig$ExternalizedCheckpointCleanup"
_RETENTION_ENUM = "org.apache.flink.configuration.ExternalizedCheckpointRetention"
# PyFlink 1.19 deprecated the storage setters and getter in favour of configuration options.
_STORAGE_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. Use `stream_execution_environment.configure` method instead to set "
    "the checkpoint storage.")
_GET_STORAGE_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. It is recommended to find which checkpoint storage is used by "
    "checkpoint storage ConfigOption.")


class CheckpointConfig(object):
    """The checkpoint settings of a :class:`StreamExecutionEnvironment`.

    Every value lives in the JVM conf of the environment's Spark session, under
    ``spark.flink.<Flink option key>``. Each setter validates the new value, then writes it to
    that conf and to the environment's copy of it, which the getters read; the copy is read
    afresh whenever a job is planned or started. A rejected value raises and leaves the
    setting as it was. Setters return this config, so calls chain. Each call of
    :meth:`StreamExecutionEnvironment.get_checkpoint_config` returns a new wrapper over the
    same settings.

    How each setting acts on Spark is listed in the support matrix of the documentation; the
    settings Spark cannot honour are stored, read back and reported when a job starts. The
    examples use ``env``, a new environment:

    >>> config = env.get_checkpoint_config().set_checkpoint_interval(10_000)
    >>> env.get_checkpoint_config().get_checkpoint_interval(), env.get_checkpoint_config() is config
    (10000, False)
    >>> env.spark_session.conf.get("spark.flink.execution.checkpointing.interval")
    '10000 ms'

    :param j_checkpoint_config: The JVM ``RuntimeConfig`` of the environment's Spark session.
    """

    #: The checkpointing mode in force unless set otherwise.
    DEFAULT_MODE = CheckpointingMode.EXACTLY_ONCE
    #: The checkpoint timeout in force unless set otherwise, in milliseconds (10 minutes).
    DEFAULT_TIMEOUT = 10 * 60 * 1000
    #: The minimal pause between checkpoints unless set otherwise, in milliseconds.
    DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS = 0
    #: The number of concurrent checkpoints unless set otherwise.
    DEFAULT_MAX_CONCURRENT_CHECKPOINTS = 1

    def __init__(self, j_checkpoint_config):
        self._j_checkpoint_config = j_checkpoint_config
        self._store = settings_store(j_checkpoint_config)

    @classmethod
    def _of_store(cls, store: SettingsStore) -> 'CheckpointConfig':
        """A config over an environment's settings store, sharing the JVM objects it has
        looked up for its conf."""
        config = cls.__new__(cls)
        config._j_checkpoint_config = store._j_conf
        config._store = store
        return config

    # -- plumbing -----------------------------------------------------------------------
    def _get(self, name: str, java_method: str) -> Any:
        return self._store.get(SETTINGS_BY_NAME[name], "CheckpointConfig." + java_method)

    def _set(self, method: JavaMethod, **changes: Any) -> 'CheckpointConfig':
        self._store.put({SETTINGS_BY_NAME[k]: v for k, v in changes.items()}, method.target)
        return self

    @staticmethod
    def _method(name: str, *kinds: str) -> JavaMethod:
        """The Java ``CheckpointConfig`` method a setter mirrors."""
        return JavaMethod("CheckpointConfig", name, kinds)

    # -- interval and mode ----------------------------------------------------------------
    def is_checkpointing_enabled(self) -> bool:
        """Whether checkpointing is on, that is whether an interval is set.

        :return: ``True`` when checkpointing is enabled.
        """
        return self.get_checkpoint_interval() > 0

    def get_checkpointing_mode(self) -> CheckpointingMode:
        """The consistency guarantee of the checkpoints.

        :return: The :class:`CheckpointingMode`.
        """
        return CheckpointingMode._from_j_checkpointing_mode(
            self._get("checkpointing_mode", "getCheckpointingMode"))

    def set_checkpointing_mode(self, checkpointing_mode: CheckpointingMode) -> 'CheckpointConfig':
        """Set the consistency guarantee of the checkpoints.

        :param checkpointing_mode: :data:`CheckpointingMode.EXACTLY_ONCE` (synchronous
                                   micro-batches) or :data:`CheckpointingMode.AT_LEAST_ONCE`.
        :return: This config.

        >>> config = env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.AT_LEAST_ONCE)
        >>> print(config.get_checkpointing_mode())
        CheckpointingMode.AT_LEAST_ONCE
        """
        mode = enum_member(checkpointing_mode, CheckpointingMode, _MODE_ENUM)
        return self._set(self._method("setCheckpointingMode"), checkpointing_mode=mode._to_j_checkpointing_mode())

    def get_checkpoint_interval(self) -> int:
        """The time between checkpoints, in milliseconds.

        :return: The interval, or -1 when checkpointing is disabled.
        """
        nanos = self._get("checkpoint_interval", "getCheckpointInterval")
        return -1 if nanos is None else values.to_millis(nanos)

    def set_checkpoint_interval(self, checkpoint_interval: int) -> 'CheckpointConfig':
        """Set the time between checkpoints, which also enables checkpointing.

        On Spark the interval keeps Flink's meaning: how often state is made durable. Records
        still move within the buffer timeout (each query's trigger), every micro-batch commits
        its offsets and state changes, the state store writes a full snapshot about once per
        interval, and the job reports one completed checkpoint per interval. With
        ``compat.trigger.mode`` set to ``CHECKPOINT_INTERVAL`` each query instead runs one
        micro-batch per interval, and each micro-batch is a checkpoint.

        :param checkpoint_interval: The interval in milliseconds, at least 10.
        :return: This config.

        >>> config = env.get_checkpoint_config().set_checkpoint_interval(5000)
        >>> config.set_checkpoint_interval(5)
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
        : java.lang.IllegalArgumentException: Checkpoint interval must be larger than or equal to 10 ms...
        >>> config.get_checkpoint_interval()  # a rejected call changes nothing
        5000
        """
        method = self._method("setCheckpointInterval", "long")
        interval = method.arg(checkpoint_interval)
        return self._set(method,
                         checkpoint_interval=values.from_millis(interval))

    def get_checkpoint_timeout(self) -> int:
        """The time a checkpoint may take before it is discarded, in milliseconds.

        :return: The timeout.
        """
        return values.to_millis(self._get("checkpoint_timeout", "getCheckpointTimeout"))

    def set_checkpoint_timeout(self, checkpoint_timeout: int) -> 'CheckpointConfig':
        """Set the time a checkpoint may take before it counts as failed.

        On Spark a micro-batch that runs longer counts as a failed checkpoint.

        :param checkpoint_timeout: The timeout in milliseconds, at least 10.
        :return: This config.

        >>> env.get_checkpoint_config().set_checkpoint_timeout(120_000).get_checkpoint_timeout()
        120000
        """
        method = self._method("setCheckpointTimeout", "long")
        timeout = method.arg(checkpoint_timeout)
        return self._set(method, checkpoint_timeout=values.from_millis(timeout))

    def get_min_pause_between_checkpoints(self) -> int:
        """The least time between the end of a checkpoint and the start of the next, in ms.

        :return: The pause.
        """
        return values.to_millis(self._get("min_pause", "getMinPauseBetweenCheckpoints"))

    def set_min_pause_between_checkpoints(self, min_pause_between_checkpoints: int) \
            -> 'CheckpointConfig':
        """Set the least time between the end of a checkpoint and the start of the next.

        Stored and read back; it has no Spark effect (a job warns when it is set).

        :param min_pause_between_checkpoints: The pause in milliseconds, zero or more.
        :return: This config.

        >>> env.get_checkpoint_config().set_min_pause_between_checkpoints(500).get_min_pause_between_checkpoints()
        500
        >>> [status.setting.key for status in env.get_job_plan().ignored]  # the plan reports it
        ['execution.checkpointing.min-pause']
        """
        method = self._method("setMinPauseBetweenCheckpoints", "long")
        pause = method.arg(min_pause_between_checkpoints)
        return self._set(method, min_pause=values.from_millis(pause))

    def get_max_concurrent_checkpoints(self) -> int:
        """How many checkpoints may be in progress at once.

        :return: The number.
        """
        return self._get("max_concurrent_checkpoints", "getMaxConcurrentCheckpoints")

    def set_max_concurrent_checkpoints(self, max_concurrent_checkpoints: int) \
            -> 'CheckpointConfig':
        """Set how many checkpoints may be in progress at once.

        Spark's micro-batches never overlap, which is one; a larger number is stored and read
        back, with no Spark effect.

        :param max_concurrent_checkpoints: The number, at least 1.
        :return: This config.

        >>> env.get_checkpoint_config().set_max_concurrent_checkpoints(2).get_max_concurrent_checkpoints()
        2
        """
        method = self._method("setMaxConcurrentCheckpoints", "int")
        number = method.arg(max_concurrent_checkpoints)
        return self._set(method, max_concurrent_checkpoints=number)

    # -- failures -----------------------------------------------------------------------
    def is_fail_on_checkpointing_errors(self) -> bool:
        """Whether a single failed checkpoint fails the job.

        :return: ``True`` when no failed checkpoint is tolerated.
        """
        return self.get_tolerable_checkpoint_failure_number() == 0

    def set_fail_on_checkpointing_errors(self, fail_on_checkpointing_errors: bool) \
            -> 'CheckpointConfig':
        """Set whether a failed checkpoint fails the job.

        ``True`` tolerates no failed checkpoint, ``False`` any number of them. Once a
        tolerable number has been set explicitly, this call changes nothing, as in Flink.

        :param fail_on_checkpointing_errors: Whether to fail on the first failed checkpoint.
        :return: This config.
        """
        method = self._method("setFailOnCheckpointingErrors", "boolean")
        fail = method.arg(fail_on_checkpointing_errors)
        if self._store.is_set(SETTINGS_BY_NAME["tolerable_failed_checkpoints"]):
            return self
        return self._set(method, tolerable_failed_checkpoints=(
            0 if fail else _UNLIMITED_TOLERABLE_FAILURES))

    def get_tolerable_checkpoint_failure_number(self) -> int:
        """How many consecutive failed checkpoints a job tolerates.

        :return: The number.
        """
        return self._get("tolerable_failed_checkpoints", "getTolerableCheckpointFailureNumber")

    def set_tolerable_checkpoint_failure_number(self, tolerable_checkpoint_failure_number: int) \
            -> 'CheckpointConfig':
        """Set how many consecutive failed checkpoints a job tolerates.

        On Spark a micro-batch that fails to commit or runs past the checkpoint timeout is a
        failed checkpoint; one more than this number fails the job, and then the restart
        strategy applies.

        :param tolerable_checkpoint_failure_number: The number, zero or more.
        :return: This config.

        >>> config = env.get_checkpoint_config().set_tolerable_checkpoint_failure_number(3)
        >>> config.get_tolerable_checkpoint_failure_number(), config.is_fail_on_checkpointing_errors()
        (3, False)
        """
        method = self._method("setTolerableCheckpointFailureNumber", "int")
        number = method.arg(tolerable_checkpoint_failure_number)
        return self._set(method,
                         tolerable_failed_checkpoints=number)

    # -- retention ------------------------------------------------------------------------
    def enable_externalized_checkpoints(
            self,
            cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        """Set what happens to the checkpoints when the job ends.

        .. note:: Deprecated since 1.15, as in PyFlink: use
                  :meth:`set_externalized_checkpoint_retention`.

        :param cleanup_mode: An :class:`ExternalizedCheckpointCleanup` member.
        :return: This config.
        """
        return self.set_externalized_checkpoint_cleanup(cleanup_mode)

    def set_externalized_checkpoint_cleanup(
            self,
            cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        """Set what happens to the checkpoints when the job ends.

        .. note:: Deprecated since 1.20, as in PyFlink: use
                  :meth:`set_externalized_checkpoint_retention`.

        :param cleanup_mode: An :class:`ExternalizedCheckpointCleanup` member.
        :return: This config.
        """
        mode = enum_member(cleanup_mode, ExternalizedCheckpointCleanup, _CLEANUP_ENUM)
        return self._set(self._method("setExternalizedCheckpointCleanup"),
                         externalized_checkpoint_retention=mode._to_j_externalized_checkpoint_cleanup())

    def set_externalized_checkpoint_retention(
            self,
            retention_mode: 'ExternalizedCheckpointRetention') -> 'CheckpointConfig':
        """Set what happens to the checkpoints when the job ends.

        This works in pyflink_compat; in PyFlink 1.20.5 every call of it fails.

        :param retention_mode: An :class:`ExternalizedCheckpointRetention` member.
        :return: This config.

        >>> config = env.get_checkpoint_config().set_externalized_checkpoint_retention(
        ...     ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
        >>> print(config.get_externalized_checkpoint_retention())
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
        """
        mode = enum_member(retention_mode, ExternalizedCheckpointRetention, _RETENTION_ENUM)
        return self._set(self._method("setExternalizedCheckpointRetention"),
                         externalized_checkpoint_retention=mode._to_j_externalized_checkpoint_retention())

    def is_externalized_checkpoints_enabled(self) -> bool:
        """Whether checkpoints may outlive the job.

        :return: ``False`` only for ``NO_EXTERNALIZED_CHECKPOINTS``.
        """
        return self._retention_name() != "NO_EXTERNALIZED_CHECKPOINTS"

    def get_externalized_checkpoint_cleanup(self) -> Optional['ExternalizedCheckpointCleanup']:
        """What happens to the checkpoints when the job ends.

        .. note:: Deprecated since 1.20, as in PyFlink: use
                  :meth:`get_externalized_checkpoint_retention`.

        :return: An :class:`ExternalizedCheckpointCleanup` member.
        """
        return ExternalizedCheckpointCleanup._from_j_externalized_checkpoint_cleanup(self._retention_name())

    def get_externalized_checkpoint_retention(self) -> Optional['ExternalizedCheckpointRetention']:
        """What happens to the checkpoints when the job ends.

        :return: An :class:`ExternalizedCheckpointRetention` member.
        """
        return ExternalizedCheckpointRetention._from_j_externalized_checkpoint_retention(
            self._retention_name())

    def _retention_name(self) -> str:
        return str(self._get("externalized_checkpoint_retention",
                             "getExternalizedCheckpointRetention"))

    # -- unaligned checkpoints ------------------------------------------------------------
    def is_unaligned_checkpoints_enabled(self) -> bool:
        """Whether unaligned checkpoints are enabled (stored only; no Spark effect).

        :return: The flag.
        """
        return bool(self._get("unaligned_checkpoints", "isUnalignedCheckpointsEnabled"))

    def enable_unaligned_checkpoints(self, enabled: bool = True) -> 'CheckpointConfig':
        """Enable or disable unaligned checkpoints.

        Spark's micro-batches have no barriers to align, so this has no Spark effect; it is
        stored, read back and reported when a job starts.

        :param enabled: Whether to enable them.
        :return: This config.

        >>> env.get_checkpoint_config().enable_unaligned_checkpoints().is_unaligned_checkpoints_enabled()
        True
        """
        method = self._method("enableUnalignedCheckpoints", "boolean")
        flag = method.arg(enabled)
        return self._set(method, unaligned_checkpoints=flag)

    def disable_unaligned_checkpoints(self) -> 'CheckpointConfig':
        """Disable unaligned checkpoints.

        :return: This config.
        """
        return self.enable_unaligned_checkpoints(False)

    def set_alignment_timeout(self, alignment_timeout: Duration) -> 'CheckpointConfig':
        """Set how long aligned checkpoints wait before switching to unaligned ones.

        Stored and read back at full precision; no Spark effect.

        :param alignment_timeout: A :class:`~pyflink_compat.common.Duration`.
        :return: This config.
        """
        j_duration = java_attribute(alignment_timeout, "_j_duration")
        # seconds and nanos separately: the total in nanoseconds may exceed a Java long
        nanos = values.from_seconds_and_nanos(int(j_duration.getSeconds()), int(j_duration.getNano()))
        return self._set(self._method("setAlignmentTimeout"), aligned_checkpoint_timeout=nanos)

    def get_alignment_timeout(self) -> 'Duration':
        """How long aligned checkpoints wait before switching to unaligned ones.

        :return: A :class:`~pyflink_compat.common.Duration`.
        """
        from pyflink_compat.java_gateway import get_gateway

        seconds, nanos = values.to_seconds_and_nanos(
            self._get("aligned_checkpoint_timeout", "getAlignmentTimeout"))
        return Duration(get_gateway().jvm.java.time.Duration.ofSeconds(seconds, nanos))

    def set_force_unaligned_checkpoints(
            self,
            force_unaligned_checkpoints: bool = True) -> 'CheckpointConfig':
        """Set whether unaligned checkpoints are forced (stored only; no Spark effect).

        :param force_unaligned_checkpoints: The flag.
        :return: This config.
        """
        method = self._method("setForceUnalignedCheckpoints", "boolean")
        flag = method.arg(force_unaligned_checkpoints)
        return self._set(method, force_unaligned_checkpoints=flag)

    def is_force_unaligned_checkpoints(self) -> 'bool':
        """Whether unaligned checkpoints are forced.

        :return: The flag.
        """
        return bool(self._get("force_unaligned_checkpoints", "isForceUnalignedCheckpoints"))

    # -- storage --------------------------------------------------------------------------
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
        return self

    def set_checkpoint_storage_dir(self, checkpoint_path: str) -> 'CheckpointConfig':
        """Keep checkpoints in a file system, under ``checkpoint_path``.

        The same as ``set_checkpoint_storage(FileSystemCheckpointStorage(checkpoint_path))``.

        .. note:: Deprecated since 1.19, as in PyFlink (it warns): configure the
                  ``execution.checkpointing.dir`` option instead.

        :param checkpoint_path: The base location, with a scheme (``file://``, ``hdfs://``).
        :return: This config.
        """
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
        return self

    def get_checkpoint_storage(self) -> Optional[CheckpointStorage]:
        """The checkpoint storage set through this API, if any.

        .. note:: Deprecated since 1.19, as in PyFlink (it warns).

        :return: A new wrapper of the storage, or ``None``.
        """
        warnings.warn(_GET_STORAGE_DEPRECATION, DeprecationWarning, stacklevel=2)
        return _storage_from_record(self._store.get_object("checkpoint-storage"))


class ExternalizedCheckpointCleanup(Enum):
    """What happens to a job's checkpoints when the job ends.

    .. note:: Deprecated, as in PyFlink: use :class:`ExternalizedCheckpointRetention`, which
              has the same members and meaning.

    :data:`DELETE_ON_CANCELLATION`: deleted when the job is cancelled or finishes, kept when
    it fails.

    :data:`RETAIN_ON_CANCELLATION`: always kept.

    :data:`NO_EXTERNALIZED_CHECKPOINTS`: deleted whenever the job ends.
    """

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2

    @staticmethod
    def _from_j_externalized_checkpoint_cleanup(j_cleanup_mode) \
            -> 'ExternalizedCheckpointCleanup':
        return ExternalizedCheckpointCleanup[str(j_cleanup_mode)]

    def _to_j_externalized_checkpoint_cleanup(self) -> Retention:
        return Retention[self.name]


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
