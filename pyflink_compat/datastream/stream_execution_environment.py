"""The entry point of a job: its settings, its Spark session, and running it."""
import base64
import concurrent.futures
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional

from pyflink_compat.common._execution_options import API_RESTART_STRATEGY_KEY, SessionOptions
from pyflink_compat.common.configuration import Configuration, _java_map
from pyflink_compat.common.execution_config import _RESTART_DEPRECATION, ExecutionConfig
from pyflink_compat.common.restart_strategy import RestartStrategyConfiguration
from pyflink_compat.datastream._paths import normalize_path
from pyflink_compat.datastream.checkpoint_config import _MODE_ENUM, CheckpointConfig
from pyflink_compat.datastream.checkpoint_storage import (
    FileSystemCheckpointStorage, _storage_record)
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream.state_backend import (
    StateBackend, _from_j_state_backend, _state_backend_from_record, _state_backend_record)
from pyflink_compat.datastream.time_characteristic import TimeCharacteristic
from pyflink_compat.missing import not_supported
from pyflink_compat.serializers import PickleSerializer
from pyflink_compat.settings import values
from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS, SETTINGS_BY_NAME, Setting
from pyflink_compat.settings.store import SettingsStore, parse_flink_options
from pyflink_compat.spark.translation import settings_store
from pyflink_compat.util.exceptions import (
    JavaType, illegal_argument, java_error, jvm_name_missing, method_not_found)
from pyflink_compat.util.java_args import JavaMethod, enum_member, java_attribute
from pyflink_compat.util.descriptors import descriptor_json, descriptor_record
from pyflink_compat.util.java_maps import map_to_dict

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from pyflink_compat.datastream.data_stream import DataStream

__all__ = ['StreamExecutionEnvironment']

_OWNER = "StreamExecutionEnvironment"
_TARGET = _OWNER + "."
_GET_ENV_TARGET = ("z:org.apache.flink.streaming.api.environment.StreamExecutionEnvironment"
                   ".getExecutionEnvironment")
_BACKEND_DEPRECATION = (
    "Deprecated since version 1.19: This method is deprecated and will be removed in future "
    "FLINK major version. Use `stream_execution_environment.configure` method instead to set "
    "the state backend.")


#: The largest maximum parallelism Flink accepts (its number of key groups).
_MAX_MAX_PARALLELISM = 32768
_TIME_CHARACTERISTIC_CLASS = "org.apache.flink.streaming.api.TimeCharacteristic"
_AUTO_WATERMARK_DEFAULT = 200
_FILE_DELIMITER = ","
_PARAM_DELIMITER = "#"
_LIST_DELIMITER = ";"

#: The default local parallelism, as Flink's static one: the machine's processors.
_default_local_parallelism: List[int] = [os.cpu_count() or 1]

#: The keys the settings are read from (current and fallback keys).
_READ_KEYS = frozenset(key for setting in SETTINGS for key in setting.all_keys)


def _s(name: str) -> Setting:
    return SETTINGS_BY_NAME[name]


def _option_text(value: Any) -> str:
    """A value of a Flink ``Configuration`` as the text of the option (bytes in base64, the
    text Flink reads bytes from)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return str(value)


def _configure_store(store: SettingsStore, options: Mapping[str, str], target: str) -> None:
    """Apply Flink options to an environment's settings, as
    :meth:`StreamExecutionEnvironment.configure` does: every value is checked first, and
    nothing is stored when one is rejected.

    :param store: The environment's settings.
    :param options: The options, as text by key.
    :param target: The Java call a rejected value's error names.
    """
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
    store.put(parsed, target, objects=objects, others=others)


def _interrupted_line(plan: Any) -> str:
    """The one line a job interrupted by Ctrl-C ends with."""
    if plan.job_dir is not None:
        return ("Job '{}' interrupted: its checkpoints are kept under {}; run it again to resume "
                "from them.".format(plan.job_name, plan.job_dir))
    return ("Job '{}' interrupted: it checkpointed to a temporary location (no checkpoint "
            "directory configured), which was removed.".format(plan.job_name))


class StreamExecutionEnvironment(object):
    """The context a streaming job is configured and run in.

    Each environment owns a Spark session of its own (sharing the application's
    ``SparkContext``); its settings live in that session's conf, so two environments never see
    each other's settings. Besides checkpointing they are the job-wide settings: parallelism,
    runtime mode, restart strategy, dependencies, and those Spark has no use for. The support
    matrix of the documentation says what each becomes in Spark. Build the pipeline from
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
        #: DataStream sinks not yet registered: (DataFrame, batch function, keyed state?).
        self._datastream_outputs: List[Any] = []
        #: the state partitions the job's broadcast state is laid out for (None: no broadcast state)
        self._broadcast_partitions: Optional[int] = None
        #: Whether a DataStream source of the job keeps reading (files watched, Kafka).
        self._unbounded_sources = False

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
        j_configuration = _java_map(java_attribute(configuration, "_j_configuration"))
        options = {k: _option_text(v) for k, v in map_to_dict(j_configuration).items()}
        _configure_store(self._store, options, target)

    # -- checkpointing --------------------------------------------------------------------
    def get_checkpoint_config(self) -> CheckpointConfig:
        """The checkpoint settings of this environment.

        :return: A new :class:`~pyflink_compat.datastream.CheckpointConfig` over them.

        >>> config = env.get_checkpoint_config().set_checkpoint_timeout(60_000)
        >>> env.get_checkpoint_config().get_checkpoint_timeout()  # a new wrapper, the same settings
        60000
        """
        return CheckpointConfig._of_store(self._store)

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
            record, shared = _state_backend_record(state_backend)
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

    # -- ExecutionConfig ------------------------------------------------------------------
    def get_config(self) -> ExecutionConfig:
        """The execution settings of this environment.

        :return: A new :class:`~pyflink_compat.common.ExecutionConfig` over the environment's
                 settings (changes made through it are the environment's).
        """
        store = SessionOptions(self._store._j_conf, lambda: _default_local_parallelism[0],
                                 settings=self._store)
        return ExecutionConfig(store)

    # -- parallelism ----------------------------------------------------------------------
    def set_parallelism(self, parallelism: int) -> 'StreamExecutionEnvironment':
        """Set the default parallelism of the job's operators (``parallelism.default``).

        On Spark it is ``spark.sql.shuffle.partitions`` of the environment's session, which
        is also the number of state partitions of a new checkpoint. A query resuming from a
        checkpoint keeps the number it was written with (the job warns when they differ).

        :param parallelism: At least 1, or -1 for the default.
        :return: This environment.

        >>> env.set_parallelism(4).get_parallelism()
        4
        >>> env.spark_session.conf.get("spark.sql.shuffle.partitions")
        '4'
        >>> env.set_parallelism(0)
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalArgumentError: An error occurred while calling ...
        : java.lang.IllegalArgumentException: Parallelism must be at least one, or ...
        """
        self.get_config().set_parallelism(parallelism)
        return self

    def get_parallelism(self) -> int:
        """The default parallelism: the one set, else the default local parallelism."""
        return self.get_config().get_parallelism()

    def set_max_parallelism(self, max_parallelism: int) -> 'StreamExecutionEnvironment':
        """Set the maximum parallelism (``pipeline.max-parallelism``; stored, no Spark effect:
        Spark's number of state partitions is the parallelism of a query's first run).

        :param max_parallelism: Between 1 and 32768.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "setMaxParallelism", ("int",))
        value = method.arg(max_parallelism)
        if not 0 < value <= _MAX_MAX_PARALLELISM:
            raise illegal_argument(
                "maxParallelism is out of bounds 0 < maxParallelism <= {}. Found: {}".format(
                    _MAX_MAX_PARALLELISM, value), method.target)
        self._store.put({_s("max_parallelism"): value}, method.target)
        return self

    def get_max_parallelism(self) -> int:
        """The maximum parallelism, -1 when not set."""
        return int(self._store.get(_s("max_parallelism"), _TARGET + "getMaxParallelism"))

    def get_default_local_parallelism(self) -> int:
        """The parallelism of environments that have none set (the processors, by default)."""
        return _default_local_parallelism[0]

    def set_default_local_parallelism(self, parallelism: int) -> None:
        """Set the parallelism of environments that have none set (shared, as in Flink).

        :param parallelism: The parallelism.
        """
        method = JavaMethod(_OWNER, "setDefaultLocalParallelism", ("int",))
        _default_local_parallelism[0] = method.arg(parallelism)

    # -- runtime mode -----------------------------------------------------------------------
    def set_runtime_mode(self, execution_mode: RuntimeExecutionMode) -> 'StreamExecutionEnvironment':
        """Set how the job runs (``execution.runtime-mode``).

        ``BATCH``: every query processes the input available when it starts and finishes
        (Spark's available-now trigger), and the job ends ``FINISHED``. ``STREAMING``: the
        queries run until cancelled. ``AUTOMATIC``: ``BATCH`` when Spark can tell that every
        source of every sink is bounded (file sources), else ``STREAMING``; the job plan says
        which was chosen.

        :param execution_mode: A :class:`~pyflink_compat.datastream.RuntimeExecutionMode`.
        :return: This environment (PyFlink returns its Java environment).
        """
        name = execution_mode._to_j_execution_mode()
        self._store.put({_s("runtime_mode"): name}, _TARGET + "setRuntimeMode")
        return self

    # -- buffer timeout and chaining -------------------------------------------------------
    def set_buffer_timeout(self, timeout_millis: int) -> 'StreamExecutionEnvironment':
        """Set how long records may wait before they move on.

        On Spark this is the processing-time trigger of every query of a checkpointed streaming
        job (0: a micro-batch as soon as input arrives; -1: one micro-batch per checkpoint
        interval, as Flink's full-only buffers then flush at each checkpoint). With
        ``compat.trigger.mode`` set to ``CHECKPOINT_INTERVAL`` it is stored and has no Spark
        effect.

        :param timeout_millis: Milliseconds, 0 to flush after every record, -1 to flush only
                               full buffers.
        :return: This environment.
        """
        method = JavaMethod(_OWNER, "setBufferTimeout", ("long",))
        millis = method.arg(timeout_millis)
        if millis < -1:
            raise illegal_argument("Timeout of buffer must be non-negative or -1", method.target)
        if millis == -1:
            changes: Dict[Setting, Any] = {_s("buffer_timeout_enabled"): False}
        else:
            changes = {_s("buffer_timeout_enabled"): None,
                       _s("buffer_timeout"): values.from_millis(millis)}
        self._store.put(changes, method.target)
        return self

    def get_buffer_timeout(self) -> int:
        """The buffer timeout in milliseconds, -1 when buffers are flushed only when full."""
        target = _TARGET + "getBufferTimeout"
        if not self._store.get(_s("buffer_timeout_enabled"), target):
            return -1
        return values.to_millis(self._store.get(_s("buffer_timeout"), target))

    def disable_operator_chaining(self) -> 'StreamExecutionEnvironment':
        """Disable operator chaining (stored, no Spark effect: Spark fuses operators itself).

        :return: This environment.
        """
        self._store.put({_s("operator_chaining"): False}, _TARGET + "disableOperatorChaining")
        return self

    def is_chaining_enabled(self) -> bool:
        """Whether operator chaining is enabled."""
        return bool(self._store.get(_s("operator_chaining"), _TARGET + "isChainingEnabled"))

    def is_chaining_of_operators_with_different_max_parallelism_enabled(self) -> bool:
        """Whether operators of different maximum parallelism may be chained (always true)."""
        return True

    # -- restart strategy -------------------------------------------------------------------
    def set_restart_strategy(self, restart_strategy_configuration: RestartStrategyConfiguration):
        """Set the restart strategy (the ``restart-strategy.*`` options), which decides how
        the job's queries restart from their checkpoints after a failure.

        :param restart_strategy_configuration: A configuration from
            :class:`~pyflink_compat.common.RestartStrategies`.

        .. note:: Deprecated since version 1.19 (it warns, as in PyFlink): configure the
                  ``restart-strategy.*`` options instead.
        """
        warnings.warn(_RESTART_DEPRECATION, DeprecationWarning, stacklevel=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # warned above, once
            self.get_config().set_restart_strategy(restart_strategy_configuration)

    def get_restart_strategy(self) -> RestartStrategyConfiguration:
        """The restart strategy configuration set through the API (the fall-back one when none
        was, or after ``restart-strategy.type`` was configured)."""
        return self.get_config().get_restart_strategy()

    # -- time characteristic ----------------------------------------------------------------
    def set_stream_time_characteristic(self, characteristic: TimeCharacteristic) -> None:
        """Set the time characteristic (stored, no Spark effect: event time is the column
        named in ``DataFrame.withWatermark``). As in Flink, ``ProcessingTime`` sets the
        automatic watermark interval to 0, the other two set it to 200 ms when it was 0.

        :param characteristic: A :class:`~pyflink_compat.datastream.TimeCharacteristic`.
        """
        name = characteristic.name
        if name not in TimeCharacteristic.__members__:
            raise jvm_name_missing("{}.{}".format(_TIME_CHARACTERISTIC_CLASS, name))
        config = self.get_config()
        if name == "ProcessingTime":
            config.set_auto_watermark_interval(0)
        elif config.get_auto_watermark_interval() == 0:
            config.set_auto_watermark_interval(_AUTO_WATERMARK_DEFAULT)
        self._store.put({_s("time_characteristic"): name},
                        _TARGET + "setStreamTimeCharacteristic")

    def get_stream_time_characteristic(self) -> TimeCharacteristic:
        """The time characteristic (``EventTime`` unless set)."""
        name = self._store.get(_s("time_characteristic"), _TARGET + "getStreamTimeCharacteristic")
        return TimeCharacteristic._from_j_time_characteristic(name)

    # -- dependencies -----------------------------------------------------------------------
    def _text(self, name: str) -> Optional[str]:
        text = self._store.get(_s(name), _TARGET + "getConfiguration")
        return None if text is None else str(text)

    def add_python_file(self, file_path: str) -> None:
        """Add a Python file (or package directory) to the job's Python path; on Spark it is
        shipped with ``SparkContext.addPyFile`` when the job starts (``python.files``).

        :param file_path: The file.
        """
        if file_path is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        current = self._text("python_files")
        text = file_path if current is None else _FILE_DELIMITER.join([file_path, current])
        self._store.put({_s("python_files"): text}, _TARGET + "addPythonFile")

    def set_python_requirements(self, requirements_file_path: str,
                                requirements_cache_dir: str = None) -> None:
        """Set the job's third-party Python requirements (``python.requirements``; stored, no
        Spark effect: install them into the executors' Python environment).

        :param requirements_file_path: The requirements file.
        :param requirements_cache_dir: A directory of the packages to install offline.
        """
        text = requirements_file_path
        if requirements_cache_dir is not None:
            text = _PARAM_DELIMITER.join([text, requirements_cache_dir])
        if text is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        self._store.put({_s("python_requirements"): text}, _TARGET + "setPythonRequirements")

    def add_python_archive(self, archive_path: str, target_dir: str = None) -> None:
        """Add an archive extracted in the workers' working directory; on Spark it is shipped
        with ``SparkContext.addArchive`` when the job starts (``python.archives``).

        :param archive_path: The archive.
        :param target_dir: The directory it is extracted into (its file name by default).
        """
        if target_dir is not None:
            archive_path = _PARAM_DELIMITER.join([archive_path, target_dir])
        if archive_path is None:
            raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
        current = self._text("python_archives")
        text = archive_path if current is None else _FILE_DELIMITER.join([current, archive_path])
        self._store.put({_s("python_archives"): text}, _TARGET + "addPythonArchive")

    def set_python_executable(self, python_exec: str) -> None:
        """Set the workers' Python interpreter (``python.executable``; stored, no Spark effect
        once Spark runs: set ``spark.pyspark.python`` when submitting the job).

        :param python_exec: The interpreter.
        """
        if not isinstance(python_exec, str):
            if python_exec is None:
                raise JavaMethod(_OWNER, "setString").null_pointer("Value must not be null.")
            raise method_not_found("setString", ["python.executable", python_exec],
                                   "Configuration.setString")
        self._store.put({_s("python_executable"): python_exec}, _TARGET + "setPythonExecutable")

    def _add_paths(self, name: str, paths: Any, target: str) -> None:
        for path in paths:
            if not isinstance(path, str):
                raise method_not_found("java.net.URL", [path], target, constructor=True)
        current = self._text(name)
        joined = ([] if not current else current.split(_LIST_DELIMITER)) + list(paths)
        self._store.put({_s(name): _LIST_DELIMITER.join(joined) if joined else None}, target)

    def add_jars(self, *jars_path: str) -> None:
        """Add jar files to the job (``pipeline.jars``; stored, and the job plan says how to
        give them to Spark: ``spark-submit --jars`` or ``spark.jars`` / ``spark.jars.packages``).

        :param jars_path: URLs of the jars (``file:///...``).
        """
        self._add_paths("jars", jars_path, _TARGET + "addJars")

    def add_classpaths(self, *classpaths: str) -> None:
        """Add URLs to the job's class path (``pipeline.classpaths``; stored, reported like
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.add_jars`).

        :param classpaths: The URLs.
        """
        self._add_paths("classpaths", classpaths, _TARGET + "addClasspaths")

    # -- types and serializers (Spark serializes rows itself) ------------------------------
    def add_default_kryo_serializer(self, type_class_name: str, serializer_class_name: str) -> None:
        """Register a default Kryo serializer (stored in the ExecutionConfig, no Spark effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().add_default_kryo_serializer(type_class_name, serializer_class_name)

    def register_type_with_kryo_serializer(self, type_class_name: str,
                                           serializer_class_name: str) -> None:
        """Register a Kryo serializer for a type (stored in the ExecutionConfig, no Spark
        effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().register_type_with_kryo_serializer(type_class_name, serializer_class_name)

    def register_type(self, type_class_name: str) -> None:
        """Register a type with the serialization stack (stored, no Spark effect).

        .. note:: Deprecated since version 1.19, as in PyFlink.
        """
        self.get_config().register_kryo_type(type_class_name)

    def register_slot_sharing_group(self, slot_sharing_group: Any) -> Any:
        """Not supported: Spark schedules tasks itself."""
        raise not_supported("StreamExecutionEnvironment.register_slot_sharing_group")

    # -- pipeline methods: build the pipeline with PySpark ---------------------------------
    def from_source(self, source: Any, watermark_strategy: Any, source_name: str,
                    type_info: Any = None) -> Any:
        """A stream of the records of ``source`` (a ``FileSource`` or ``KafkaSource``),
        with the timestamps and watermarks of ``watermark_strategy``.

        :return: A :class:`~pyflink_compat.datastream.DataStream`.
        """
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.runtime.connector_io import source_node

        return DataStream(source_node(self, source, watermark_strategy, source_name, type_info,
                                      "StreamExecutionEnvironment.from_source"))

    def add_source(self, source_func: Any, source_name: str = 'Custom Source',
                   type_info: Any = None) -> Any:
        """A stream of the records of a legacy source function (``FlinkKafkaConsumer``).

        :return: A :class:`~pyflink_compat.datastream.DataStream`.
        """
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.runtime.connector_io import source_node

        return DataStream(source_node(self, source_func, None, source_name, type_info,
                                      "StreamExecutionEnvironment.add_source"))

    def from_collection(self, collection: Any, type_info: Any = None) -> 'DataStream':
        """A bounded stream of the values of ``collection``, in order.

        :param collection: The values.
        :param type_info: Their type; without one they travel pickled.
        :return: A :class:`~pyflink_compat.datastream.DataStream`.
        """
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.runtime.graph import SOURCE, Node

        return DataStream(Node(self, SOURCE, (), (list(collection), type_info), type_info,
                               name="Collection Source"))

    def read_text_file(self, file_path: str, charset_name: str = "UTF-8") -> Any:
        """A bounded stream of the lines (``STRING``) of the file or directory at
        ``file_path``, read once.

        :return: A :class:`~pyflink_compat.datastream.DataStream`.
        """
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.runtime.connector_io import text_file_node

        return DataStream(text_file_node(self, file_path, charset_name))

    def create_input(self, input_format: Any, type_info: Any = None) -> Any:
        """Not supported: read the input with ``spark.readStream.format(...)``."""
        raise not_supported("StreamExecutionEnvironment.create_input")

    def get_execution_plan(self) -> str:
        """Not supported: see
        :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_job_plan`, or
        ``DataFrame.explain()``."""
        raise not_supported("StreamExecutionEnvironment.get_execution_plan")

    def register_cached_file(self, file_path: str, name: str, executable: bool = False) -> None:
        """Not supported: ship the file with ``SparkContext.addFile``."""
        raise not_supported("StreamExecutionEnvironment.register_cached_file")

    # -- jobs -----------------------------------------------------------------------------
    def add_sink(self, writer, name: str = None, bounded: bool = False,
                 continuous: bool = False) -> 'StreamExecutionEnvironment':
        """Register a Spark streaming writer as one sink of this environment's job.

        The writer's query starts when the job is executed, with the trigger, checkpoint
        location and query name the checkpoint configuration gives it.

        :param writer: A :class:`pyspark.sql.streaming.DataStreamWriter` of a DataFrame built
                       from :attr:`spark_session`.
        :param name: Names the query and its checkpoint subdirectory; ``sink_<n>`` (by
                     registration order) when omitted. Two sinks may not share a name.
        :param bounded: Whether the sink finishes once its input is exhausted (as a Flink job
                        with bounded sources does); otherwise it runs until cancelled.
        :param continuous: Run in Spark's continuous processing mode with the checkpoint
                           interval as epoch interval (an explicit opt-in: map-like queries and
                           a few sinks only, at-least-once).
        :return: This environment.
        """
        from pyflink_compat.spark.writers import check_writer
        from pyflink_compat.spark.plan import SinkSpec

        check_writer(self.spark_session, writer)
        if name is None:
            name = "sink_%d" % len(self._sinks)
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError("A sink name must be a non-empty string without '/', got %r" % (name,))
        if any(sink.name == name for sink in self._sinks):
            raise ValueError("A sink named '%s' is already registered." % name)
        self._sinks.append(SinkSpec(name, writer, bool(bounded), bool(continuous)))
        return self

    def _add_datastream_sink(self, frame: Any, batch_function: Any, keyed_state: bool) -> None:
        """Add a DataStream sink: the records of ``frame`` go to ``batch_function`` per
        micro-batch. The DataStream sinks of a job run as one query (see
        :func:`pyflink_compat.runtime.sinks.one_query`), registered when the job starts."""
        self._datastream_outputs.append((frame, batch_function, keyed_state))

    def _register_datastream_sinks(self) -> None:
        if not self._datastream_outputs:
            return
        from pyflink_compat.runtime.sinks import one_query
        from pyflink_compat.spark.plan import SinkSpec

        writer, keyed_state = one_query(self._datastream_outputs)
        self._datastream_outputs = []
        name = "datastream"
        while any(sink.name == name for sink in self._sinks):
            name += "_"
        # Bounded unless a source of the job keeps reading (files watched, Kafka).
        bounded = not self._unbounded_sources
        self._sinks.append(SinkSpec(name, writer, bounded, False, keyed_state, self._broadcast_partitions))

    def get_job_plan(self, job_name: str = 'Flink Streaming Job'):
        """What a job of the registered sinks would do on Spark, without starting it.

        ``print(env.get_job_plan())`` shows, per query, the trigger, the expected latency, how
        often state is made durable, the checkpoint location and the guarantee; the Spark
        session keys set; and for every Flink setting its value and whether Spark applies it,
        pyflink_compat emulates it, or it has no Spark effect. The same summary is logged when
        the job starts.

        :param job_name: The job's name (it names the checkpoint directory).
        :return: A :class:`~pyflink_compat.spark.plan.JobPlan`.

        >>> events = env.spark_session.readStream.format("rate").load()
        >>> env = env.enable_checkpointing(2000).add_sink(events.writeStream.format("noop"), name="events")
        >>> plan = env.get_job_plan("demo")
        >>> print(str(plan).split("Flink settings:")[0].rstrip())
        Job 'demo' on Spark
          checkpoint storage: jobmanager (-)
          restart strategy: exponential-delay (1 s to 60 s, x1.5, jitter 0.1, 2147483647 attempts)
          Spark session conf:
            spark.sql.streaming.minBatchesToRetain = 2
            spark.sql.streaming.stateStore.providerClass = org.apache.spark...HDFSBackedStateStoreProvider
            spark.sql.streaming.checkpointFileManagerClass = <unset>
            spark.sql.streaming.stateStore.minDeltasForSnapshot = 20
          query 'events':
            trigger: ProcessingTime(100 ms) (the buffer timeout)
            latency: up to 100 ms plus the batch: records move within the buffer timeout
            durable state: every micro-batch commits its offsets and state changes; a full state...
            checkpoint location: file:<temporary directory of the job>/events (temporary)
            guarantee: exactly-once (synchronous micro-batches)
        >>> for status in plan.statuses[:4]:  # then every Flink setting: its value and Spark effect
        ...     print(status.setting.key, "-", status.status)
        execution.checkpointing.interval - applied
        execution.checkpointing.mode - applied
        execution.checkpointing.timeout - emulated
        execution.checkpointing.min-pause - no Spark effect
        """
        from pyflink_compat.spark.plan import PLANNED_TEMPORARY_ROOT, build_plan

        self._prepare_job()
        return build_plan(self._store, job_name, self._sinks, PLANNED_TEMPORARY_ROOT)

    def configure_writer(self, writer, name: str, job_name: str = 'Flink Streaming Job'):
        """Apply the checkpoint configuration to one writer that you start yourself.

        Sets the query name, the checkpoint location (``<dir>/<job_name>/<name>``, or a
        temporary one) and the trigger. What this loses compared to :meth:`execute`: no
        restart strategy, checkpoint timeout or tolerable failures, no retention clean-up, no
        ``max_state_size`` enforcement, no checkpoint statistics and no warning about
        settings without Spark effect.

        :param writer: A :class:`pyspark.sql.streaming.DataStreamWriter`.
        :param name: The query name.
        :param job_name: The job name used in the checkpoint location.
        :return: The same writer, ready to ``start()``.
        """
        from pyflink_compat.spark.writers import check_writer, configure_one_writer

        check_writer(self.spark_session, writer)
        self._prepare_job()
        return configure_one_writer(self._store, writer, name, job_name)

    def execute(self, job_name: str = None):
        """Run the job and wait until it ends.

        Starts one streaming query per registered sink under the checkpoint configuration.
        Returns when every sink has finished (bounded sinks) or the job was cancelled from a
        :class:`~pyflink_compat.common.JobClient`; a job that fails beyond its restart
        strategy raises. Interrupting the wait (Ctrl-C) stops the queries and keeps their
        checkpoints, so a re-run resumes: one line on standard error says where they are, and a
        script then exits with status 130 (as after Ctrl-C in a shell) instead of printing a
        traceback; in an interactive session ``KeyboardInterrupt`` is raised again.

        :param job_name: The job's name; ``Flink Streaming Job`` when omitted.
        :return: A :class:`~pyflink_compat.common.JobExecutionResult`.
        :raises JobExecutionError: when the job failed; ``__cause__`` is the failure.

        A word count over one file, whose sink ends once the file is read:

        >>> import tempfile
        >>> spark, work = env.spark_session, tempfile.mkdtemp()
        >>> spark.createDataFrame([["apple"], ["bread"], ["apple"]], "word STRING").write.json(work + "/in")
        >>> counts = spark.readStream.schema("word STRING").json(work + "/in").groupBy("word").count()
        >>> env = env.enable_checkpointing(1000).add_sink(
        ...     counts.writeStream.outputMode("complete").format("memory"), name="counts", bounded=True)
        >>> result = env.execute("word count")
        >>> spark.table("counts").sort("word").collect()
        [Row(word='apple', count=2), Row(word='bread', count=1)]
        >>> result.get_net_runtime() > 0
        True
        """
        client = self.execute_async(job_name if job_name is not None else 'Flink Streaming Job')
        run = client._run
        try:
            while not run.wait(0.5):
                pass
        except KeyboardInterrupt:
            run.interrupt()
            # wait on the result, which is set once the end is recorded: a thread join that the
            # interrupt cut short may return at once on later calls
            concurrent.futures.wait([run.result])
            print(_interrupted_line(run.plan), file=sys.stderr, flush=True)
            if hasattr(sys, "ps1") or sys.flags.interactive:
                raise
            raise SystemExit(130) from None
        finally:
            # what the functions printed in Spark's workers, all of it before execute returns
            from pyflink_compat.runtime import worker_output

            worker_output.drain()
        return run.result.result()

    def execute_async(self, job_name: str = 'Flink Streaming Job'):
        """Start the job and return at once.

        :param job_name: The job's name (it names the checkpoint directory).
        :return: A :class:`~pyflink_compat.common.JobClient` for the running job.

        >>> events = env.spark_session.readStream.format("rate").load()
        >>> client = env.enable_checkpointing(1000).add_sink(events.writeStream.format("noop")).execute_async()
        >>> client.cancel().result()
        >>> print(client.get_job_status().result())
        JobStatus.CANCELED
        >>> env.execute_async()  # executing took the sinks: a job needs new ones
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalStateError: An error occurred while calling ...
        : java.lang.IllegalStateException: No operators defined in streaming topology...
        """
        from pyflink_compat.common.job_client import JobClient
        from pyflink_compat.spark.plan import plan_run
        from pyflink_compat.spark.supervisor import start_job

        self._register_datastream_sinks()
        if not self._sinks:
            # As in Flink, executing clears the pipeline: a second call needs new sinks.
            raise java_error("java.lang.IllegalStateException",
                             "No operators defined in streaming topology. Cannot execute.",
                             _TARGET + "getStreamGraph")
        self._prepare_job()
        sinks = list(self._sinks)
        self._sinks.clear()
        run = start_job(plan_run(self._store, job_name, sinks), self.spark_session, sinks)
        self._runs.append(run)
        return JobClient(run)

    def close(self):
        """Release the environment: cancel its jobs that still run and forget its sinks."""
        for run in self._runs:
            if not run.status.is_terminal_state():
                run.cancel()
                run.wait()
        self._sinks.clear()

    # -- Spark ----------------------------------------------------------------------------
    @property
    def spark_session(self) -> 'SparkSession':
        """The Spark session of this environment: build the pipeline from it."""
        if self._spark_session is None:
            from pyflink_compat.spark.session import python_session

            self._spark_session = python_session(self._j_stream_execution_environment)
        return self._spark_session


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
