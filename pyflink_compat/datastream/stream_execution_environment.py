"""The entry point of a job: its checkpoint settings, and its Spark session."""
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

from pyflink_compat.common._execution_options import API_RESTART_STRATEGY_KEY
from pyflink_compat.common.configuration import Configuration
from pyflink_compat.datastream._environment_jobs import EnvironmentJobsMixin
from pyflink_compat.datastream._environment_settings import EnvironmentSettingsMixin
from pyflink_compat.datastream.checkpoint_config import _MODE_ENUM, CheckpointConfig
from pyflink_compat.datastream.checkpoint_storage import (
    FileSystemCheckpointStorage, _storage_record)
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.state_backend import (
    StateBackend, _from_j_state_backend)
from pyflink_compat.datastream._state_backend_records import (
    _record_of, _state_backend_from_record)
from pyflink_compat.serializers import PickleSerializer
from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS, SETTINGS_BY_NAME
from pyflink_compat.settings import values
from pyflink_compat.settings.store import parse_flink_options
from pyflink_compat.spark.translation import settings_store
from pyflink_compat.spark.paths import normalize_path
from pyflink_compat.util.exceptions import JavaType
from pyflink_compat.util.descriptors import descriptor_json, descriptor_record
from pyflink_compat.util.java_maps import map_to_dict
from pyflink_compat.util.java_args import JavaMethod, enum_member, java_attribute

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ['StreamExecutionEnvironment']

_OWNER = "StreamExecutionEnvironment"
_TARGET = _OWNER + "."
_GET_ENV_TARGET = ("z:org.apache.flink.streaming.api.environment.StreamExecutionEnvironment"
                   ".getExecutionEnvironment")
_BACKEND_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. Use `stream_execution_environment.configure` method instead to set "
    "the state backend.")


#: The keys the settings are read from (current and fallback keys).
_READ_KEYS = frozenset(key for setting in SETTINGS for key in setting.all_keys)


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


if TYPE_CHECKING:  # type checkers see the installed methods; at run time the base is object
    class _Base(EnvironmentSettingsMixin, EnvironmentJobsMixin):
        pass
else:
    _Base = object


@EnvironmentJobsMixin.install
@EnvironmentSettingsMixin.install
class StreamExecutionEnvironment(_Base):
    """The context a streaming job is configured and run in.

    Each environment owns a Spark session of its own (sharing the application's
    ``SparkContext``); its checkpoint settings live in that session's conf, so two
    environments never see each other's settings. Build the pipeline from
    :attr:`spark_session`; the checkpoint configuration applies to the queries the
    environment starts.

    :param j_stream_execution_environment: The JVM ``SparkSession`` of this environment.
    :param serializer: Kept for compatibility with PyFlink's signature.
    """

    # PyFlink's signature: the default is an instance, shown as ``PickleSerializer()``.
    def __init__(self, j_stream_execution_environment, serializer=PickleSerializer()):  # noqa: B008
        self._j_stream_execution_environment = j_stream_execution_environment
        self.serializer = serializer
        self._store = settings_store(j_stream_execution_environment.conf())
        self._spark_session: Optional['SparkSession'] = None
        self._sinks: List[Any] = []
        self._runs: List[Any] = []
        # The JVM object of the backend set through the API. As in PyFlink, the environment
        # shares it: setters called on the backend afterwards change the environment's.
        self._j_state_backend: Any = None
        #: Called, in order, before a job is planned or started (a TableConfig writing its
        #: options into the environment, for instance).
        self._before_job: List[Callable[[], None]] = []

    # -- creation and configuration -------------------------------------------------------
    @staticmethod
    def get_execution_environment(configuration: Configuration = None) \
            -> 'StreamExecutionEnvironment':
        """Create an environment with a Spark session of its own.

        Attaches to the active Spark session's application, or starts a local one
        (``local[*]``) when there is none. Flink options passed to the application as
        ``spark.flink.<key>`` (for example with ``spark-submit --conf``) are validated and
        apply, then those of ``configuration``.

        :param configuration: Flink options to apply, as with :meth:`configure`.
        :return: A new environment.

        >>> from pyflink_compat.common import Configuration
        >>> config = Configuration().set_string("execution.checkpointing.interval", "30 s")
        >>> env = StreamExecutionEnvironment.get_execution_environment(config)
        >>> env.get_checkpoint_interval()
        30000
        >>> StreamExecutionEnvironment.get_execution_environment().get_checkpoint_interval()  # its own
        -1
        """
        from pyflink_compat.spark.session import new_session

        # Any false value (None, '', {}, 0) means no configuration, as in PyFlink.
        if configuration:
            java_attribute(configuration, "_j_configuration")
        env = StreamExecutionEnvironment(new_session()._jsparkSession)
        env._store.adopt_session_options(_GET_ENV_TARGET)
        if configuration:
            env._configure(configuration, _GET_ENV_TARGET)
        return env

    def configure(self, configuration: Configuration):
        """Apply the Flink options present in ``configuration``.

        Options absent from it keep their values; keys pyflink_compat does not read are kept
        as text (the job plan names a likely intended key for a misspelled one). Values use Flink's
        syntax: durations such as ``5 s`` or ``1 min`` (a bare number means milliseconds),
        enum names in any case. A value that cannot be parsed or is out of range raises, and
        then nothing is applied.

        :param configuration: The options, as a :class:`~pyflink_compat.common.Configuration`.

        >>> from pyflink_compat.common import Configuration
        >>> config = Configuration().set_string("execution.checkpointing.interval", "1 min")
        >>> env.configure(config.set_string("execution.checkpointing.mode", "at_least_once"))
        >>> env.get_checkpoint_interval(), env.get_checkpointing_mode()
        (60000, <CheckpointingMode.AT_LEAST_ONCE: 1>)
        >>> env.configure(config.set_string("execution.checkpointing.interval", "2 min")
        ...               .set_string("execution.checkpointing.timeout", "soon"))
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
        : java.lang.IllegalArgumentException: Could not parse value 'soon' for key 'execution.checkpointing.timeout'...
        >>> env.get_checkpoint_interval()  # nothing of the rejected configuration applied
        60000
        """
        self._configure(configuration, _TARGET + "configure")

    def _configure(self, configuration: Configuration, target: str) -> None:
        j_configuration = java_attribute(configuration, "_j_configuration")
        options = {k: _option_text(v) for k, v in map_to_dict(j_configuration).items()}
        parsed = parse_flink_options(options, target)
        directory = parsed.get(SETTINGS_BY_NAME["checkpoint_dir"])
        objects = {}
        if directory is not None:
            # As in Flink, a configured checkpoint directory is a file system storage (unless
            # the same configuration names the storage kind, which discards the object).
            objects["checkpoint-storage"] = _storage_record(FileSystemCheckpointStorage(directory))
        # Keys pyflink_compat does not read are kept as text, written with the settings.
        others: Dict[str, Optional[str]] = {
            CONF_PREFIX + key: text for key, text in options.items() if key not in _READ_KEYS}
        if SETTINGS_BY_NAME["restart_strategy"] in parsed:
            # As in Flink, a configured restart strategy type replaces the one set by the API.
            others[CONF_PREFIX + API_RESTART_STRATEGY_KEY] = None
        self._store.put(parsed, target, objects=objects, others=others)

    # -- checkpointing --------------------------------------------------------------------
    def get_checkpoint_config(self) -> CheckpointConfig:
        """The checkpoint settings of this environment.

        :return: A new :class:`~pyflink_compat.datastream.CheckpointConfig` over them.

        >>> config = env.get_checkpoint_config().set_checkpoint_timeout(60_000)
        >>> env.get_checkpoint_config().get_checkpoint_timeout()  # a new wrapper, the same settings
        60000
        """
        config = CheckpointConfig(self._store._j_conf)
        config._store = self._store  # the same conf: share the JVM objects looked up for it
        return config

    def enable_checkpointing(self, interval: int, mode: CheckpointingMode = None) \
            -> 'StreamExecutionEnvironment':
        """Checkpoint every ``interval`` milliseconds, optionally setting the mode.

        Both values are checked before either is stored.

        :param interval: The time between checkpoints in milliseconds, at least 10.
        :param mode: The :class:`CheckpointingMode`; the current one is kept when ``None``.
        :return: This environment.

        >>> env.enable_checkpointing(5000).get_checkpoint_interval()
        5000
        >>> env.enable_checkpointing(2000, CheckpointingMode.AT_LEAST_ONCE).get_checkpointing_mode()
        <CheckpointingMode.AT_LEAST_ONCE: 1>
        >>> env.enable_checkpointing(1)
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
        : java.lang.IllegalArgumentException: Checkpoint interval must be larger than or equal to 10 ms...
        """
        method = JavaMethod(_OWNER, "enableCheckpointing", ("long",))
        changes: Dict[Any, Any] = {}
        others = []
        if mode is not None:  # converted first, as PyFlink does
            member = enum_member(mode, CheckpointingMode, _MODE_ENUM)
            changes[SETTINGS_BY_NAME["checkpointing_mode"]] = member._to_j_checkpointing_mode()
            others.append(JavaType("class " + _MODE_ENUM))
        millis = method.arg(interval, *others)
        changes[SETTINGS_BY_NAME["checkpoint_interval"]] = values.from_millis(millis)
        self._store.put(changes, method.target)
        return self

    def get_checkpoint_interval(self) -> int:
        """The time between checkpoints in milliseconds, or -1 when checkpointing is off."""
        return self.get_checkpoint_config().get_checkpoint_interval()

    def get_checkpointing_mode(self) -> CheckpointingMode:
        """The consistency guarantee of the checkpoints."""
        return self.get_checkpoint_config().get_checkpointing_mode()

    def get_checkpointing_consistency_mode(self) -> CheckpointingMode:
        """The consistency guarantee of the checkpoints (the same as
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_checkpointing_mode`)."""
        return self.get_checkpointing_mode()

    def is_unaligned_checkpoints_enabled(self):
        """Whether unaligned checkpoints are enabled (stored only; no Spark effect)."""
        return self.get_checkpoint_config().is_unaligned_checkpoints_enabled()

    def is_force_unaligned_checkpoints(self):
        """Whether unaligned checkpoints are forced (stored only; no Spark effect)."""
        return self.get_checkpoint_config().is_force_unaligned_checkpoints()

    # -- state ----------------------------------------------------------------------------
    def set_state_backend(self, state_backend: StateBackend) -> 'StreamExecutionEnvironment':
        """Set how the job's state is kept.

        Heap backends select Spark's HDFS-backed state store, RocksDB backends its RocksDB
        state store (with changelog checkpointing when incremental checkpoints are on).

        .. note:: Deprecated since 1.19, as in PyFlink (it warns): configure the
                  ``state.backend.type`` option instead.

        :param state_backend: A :class:`~pyflink_compat.datastream.StateBackend`.
        :return: This environment.

        >>> from pyflink_compat.datastream import EmbeddedRocksDBStateBackend
        >>> env = env.set_state_backend(EmbeddedRocksDBStateBackend(enable_incremental_checkpointing=True))
        >>> env.get_state_backend().is_incremental_checkpoints_enabled()
        True
        >>> env.get_job_plan().spark_conf["spark.sql.streaming.stateStore.providerClass"]
        'org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider'
        """
        warnings.warn(_BACKEND_DEPRECATION, DeprecationWarning, stacklevel=2)
        j_state_backend = java_attribute(state_backend, "_j_state_backend")
        # A descriptor made here has its record's text at hand: nothing to read or encode.
        text = descriptor_json(j_state_backend)
        if text is None:
            record, shared = _record_of(state_backend)
            self._store.put_object("state-backend", record)
        else:
            self._store.put_object("state-backend", text)
            shared = True
        self._j_state_backend = j_state_backend if shared else None
        return self

    def get_state_backend(self) -> StateBackend:
        """The state backend set with
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.set_state_backend`.

        :return: A new wrapper of it, or ``None``.
        """
        record = self._store.get_object("state-backend")
        if record is None:  # none set, or discarded by configuring state.backend.type
            self._j_state_backend = None
        elif self._j_state_backend is not None:
            return _from_j_state_backend(self._j_state_backend)
        # PyFlink's signature says StateBackend, yet it returns None when none is set.
        return _state_backend_from_record(record)  # type: ignore[return-value]

    def _refresh_state_backend(self) -> None:
        """Store the shared backend's current parameters before a job is planned."""
        if self._j_state_backend is not None and self._store.get_object("state-backend") is not None:
            self._store.put_object("state-backend", descriptor_record(self._j_state_backend))

    def _prepare_job(self) -> None:
        """Run the hooks registered to act before a job, then store the shared backend."""
        for hook in list(self._before_job):
            hook()
        self._refresh_state_backend()

    def enable_changelog_state_backend(self, enabled: bool) -> 'StreamExecutionEnvironment':
        """Enable or disable the changelog state backend.

        On Spark it turns on RocksDB changelog checkpointing (it applies with the RocksDB
        state store).

        :param enabled: The flag.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "enableChangelogStateBackend", ("boolean",))
        flag = method.arg(enabled)
        self._store.put({SETTINGS_BY_NAME["changelog_enabled"]: flag}, method.target)
        return self

    def is_changelog_state_backend_enabled(self) -> Optional[bool]:
        """Whether the changelog state backend is enabled.

        :return: The flag, or ``None`` when it was never set.
        """
        return self._store.get(SETTINGS_BY_NAME["changelog_enabled"],
                               _TARGET + "isChangelogStateBackendEnabled")

    def set_default_savepoint_directory(self, directory: str) -> 'StreamExecutionEnvironment':
        """Set the default directory of the savepoints a
        :class:`~pyflink_compat.common.JobClient` takes when none is given.

        :param directory: The directory; its syntax is checked when it is read back.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "setDefaultSavepointDirectory", ("String",))
        if directory is None:
            raise method.null_pointer()
        text = method.arg(directory)
        self._store.put({SETTINGS_BY_NAME["savepoint_dir"]: text}, method.target)
        return self

    def get_default_savepoint_directory(self) -> Optional[str]:
        """The default savepoint directory, normalised, or ``None``."""
        text = self._store.get(SETTINGS_BY_NAME["savepoint_dir"],
                               _TARGET + "getDefaultSavepointDirectory")
        return None if text is None else normalize_path(text)

    # -- Spark ----------------------------------------------------------------------------
    @property
    def spark_session(self) -> 'SparkSession':
        """The Spark session of this environment: build the pipeline from it."""
        if self._spark_session is None:
            from pyflink_compat.spark.session import python_session

            self._spark_session = python_session(self._j_stream_execution_environment)
        return self._spark_session


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
