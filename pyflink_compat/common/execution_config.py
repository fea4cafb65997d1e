"""The job-wide execution settings of an environment: parallelism, watermarks, restarts...

Every setting is a Flink option read and written where the environment keeps its options (see
``pyflink_compat.common._execution_options``), so that setting it here and setting the option
through ``configure`` are the same thing.
"""
import warnings
from typing import Dict, List, Mapping, Optional

from pyflink_compat.common._execution_options import (
    API_RESTART_STRATEGY_KEY, as_options, decode_map, encode_map, millis_of, millis_text, restart_changes,
    restart_strategy_of)
from pyflink_compat.common.execution_mode import ExecutionMode
from pyflink_compat.common.input_dependency_constraint import InputDependencyConstraint
from pyflink_compat.common.restart_strategy import RestartStrategies, RestartStrategyConfiguration
from pyflink_compat.util.exceptions import call_java, illegal_argument, method_not_found, null_pointer
from pyflink_compat.util.java_args import java_call_args

__all__ = ['ExecutionConfig']

PARALLELISM_KEY = "parallelism.default"
MAX_PARALLELISM_KEY = "pipeline.max-parallelism"
AUTO_WATERMARK_KEY = "pipeline.auto-watermark-interval"
LATENCY_INTERVAL_KEY = "metrics.latency.interval"
CANCELLATION_INTERVAL_KEY = "task.cancellation.interval"
CANCELLATION_TIMEOUT_KEY = "task.cancellation.timeout"
CLOSURE_CLEANER_KEY = "pipeline.closure-cleaner-level"
FORCE_KRYO_KEY = "pipeline.force-kryo"
GENERIC_TYPES_KEY = "pipeline.generic-types"
AUTO_UIDS_KEY = "pipeline.auto-generate-uids"
FORCE_AVRO_KEY = "pipeline.force-avro"
OBJECT_REUSE_KEY = "pipeline.object-reuse"
AUTO_TYPE_REGISTRATION_KEY = "pipeline.auto-type-registration"
SNAPSHOT_COMPRESSION_KEY = "execution.checkpointing.snapshot-compression"
GLOBAL_JOB_PARAMETERS_KEY = "pipeline.global-job-parameters"
KRYO_TYPES_KEY = "pipeline.registered-kryo-types"
POJO_TYPES_KEY = "pipeline.registered-pojo-types"
#: Not Flink options: PyFlink keeps these on its ExecutionConfig object only.
EXECUTION_MODE_KEY = "compat.execution-config.execution-mode"

_DEFAULTS = {
    MAX_PARALLELISM_KEY: "-1",
    AUTO_WATERMARK_KEY: "200 ms",
    LATENCY_INTERVAL_KEY: "0 ms",
    CANCELLATION_INTERVAL_KEY: "30000 ms",
    CANCELLATION_TIMEOUT_KEY: "180000 ms",
    CLOSURE_CLEANER_KEY: "RECURSIVE",
    FORCE_KRYO_KEY: "false",
    GENERIC_TYPES_KEY: "true",
    AUTO_UIDS_KEY: "true",
    FORCE_AVRO_KEY: "false",
    OBJECT_REUSE_KEY: "false",
    AUTO_TYPE_REGISTRATION_KEY: "true",
    SNAPSHOT_COMPRESSION_KEY: "false",
    EXECUTION_MODE_KEY: "PIPELINED",
}

_PARALLELISM_DEFAULT = -1
_PARALLELISM_UNKNOWN = -2
_RESTART_DEPRECATION = ("Deprecated since version 1.19: This method is deprecated and will be "
                        "removed in future FLINK major version. Use "
                        "`stream_execution_environment.configure` method instead to set the "
                        "restart strategy.")
_INPUT_CONSTRAINT_DEPRECATION = ("Deprecated in 1.13. InputDependencyConstraint is not used "
                                 "anywhere. Therefore, the method call {} is obsolete.")


def _target(method: str) -> str:
    return "ExecutionConfig." + method


def _load_class(name: str, target: str) -> None:
    """Fail as PyFlink does (``ClassNotFoundException``) when the JVM has no class ``name``."""
    from pyflink_compat.java_gateway import get_gateway

    jvm = get_gateway().jvm
    loader = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    call_java(target, loader.loadClass, name)


class ExecutionConfig(object):
    """The settings of how a program executes: its parallelism, watermark interval, restart
    strategy, serialization flags and global job parameters.

    Get it from :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_config`. Each setting is the Flink
    option named in the method's description; what it does on Spark is listed in the
    documentation's settings table. Settings with no Spark counterpart (serializer flags,
    closure cleaner, cancellation timing) are stored and read back only.

    :param j_execution_config: Where the settings live: an ``ExecutionOptions`` (of
        ``pyflink_compat.common._execution_options``) or the JVM conf of the environment's
        Spark session.
    """

    #: The parallelism of an operator that takes the environment's default.
    PARALLELISM_DEFAULT = -1

    #: A parallelism not known yet; setting it changes nothing.
    PARALLELISM_UNKNOWN = -2

    def __init__(self, j_execution_config):
        self._j_execution_config = as_options(j_execution_config)

    # -- option access -----------------------------------------------------------------
    def _get(self, key: str) -> str:
        text = self._j_execution_config.get_option(key)
        return _DEFAULTS[key] if text is None else text

    def _get_bool(self, key: str) -> bool:
        return self._get(key).strip().lower() == "true"

    def _put(self, changes: Mapping[str, Optional[str]]) -> 'ExecutionConfig':
        self._j_execution_config.set_options(changes)
        return self

    def _put_bool(self, key: str, value: bool) -> 'ExecutionConfig':
        return self._put({key: "true" if value else "false"})

    # -- closure cleaner ---------------------------------------------------------------
    def enable_closure_cleaner(self) -> 'ExecutionConfig':
        """Turn the closure cleaner on (``pipeline.closure-cleaner-level: RECURSIVE``).
        Stored and reported only: Spark serializes Python functions with cloudpickle."""
        return self._put({CLOSURE_CLEANER_KEY: "RECURSIVE"})

    def disable_closure_cleaner(self) -> 'ExecutionConfig':
        """Turn the closure cleaner off (``pipeline.closure-cleaner-level: NONE``)."""
        return self._put({CLOSURE_CLEANER_KEY: "NONE"})

    def is_closure_cleaner_enabled(self) -> bool:
        """Whether the closure cleaner is on (on by default)."""
        return self._get(CLOSURE_CLEANER_KEY).strip().upper() != "NONE"

    # -- intervals ---------------------------------------------------------------------
    def set_auto_watermark_interval(self, interval: int) -> 'ExecutionConfig':
        """Set how often watermarks are emitted, in milliseconds
        (``pipeline.auto-watermark-interval``; 0 turns periodic watermarks off).

        :param interval: The interval in milliseconds, not negative.
        """
        if interval is None:
            raise null_pointer("Value must not be null.", _target("setAutoWatermarkInterval"))
        java_call_args("setAutoWatermarkInterval", _target("setAutoWatermarkInterval"),
                       [(interval, "long")])
        if interval < 0:
            raise illegal_argument("Auto watermark interval must not be negative.",
                                   _target("setAutoWatermarkInterval"))
        return self._put({AUTO_WATERMARK_KEY: millis_text(interval)})

    def get_auto_watermark_interval(self) -> int:
        """The watermark interval in milliseconds (200 by default)."""
        return millis_of(self._get(AUTO_WATERMARK_KEY))

    def set_latency_tracking_interval(self, interval: int) -> 'ExecutionConfig':
        """Set how often latency markers are emitted, in milliseconds
        (``metrics.latency.interval``; 0 or less turns them off).

        :param interval: The interval in milliseconds.
        """
        java_call_args("setLatencyTrackingInterval", _target("setLatencyTrackingInterval"),
                       [(interval, "long")])
        return self._put({LATENCY_INTERVAL_KEY: millis_text(interval)})

    def get_latency_tracking_interval(self) -> int:
        """The latency tracking interval in milliseconds (0 by default: off)."""
        return millis_of(self._get(LATENCY_INTERVAL_KEY))

    # -- parallelism -------------------------------------------------------------------
    def get_parallelism(self) -> int:
        """The default parallelism of the program's operators (``parallelism.default``)."""
        text = self._j_execution_config.get_option(PARALLELISM_KEY)
        if text is None:
            return self._j_execution_config.default_parallelism()
        return int(text)

    def set_parallelism(self, parallelism: int) -> 'ExecutionConfig':
        """Set the default parallelism of the program's operators (``parallelism.default``).

        :param parallelism: At least 1, or :data:`PARALLELISM_DEFAULT` (-1) for the system
                            default; :data:`PARALLELISM_UNKNOWN` (-2) changes nothing.
        """
        java_call_args("setParallelism", _target("setParallelism"), [(parallelism, "int")])
        if parallelism == _PARALLELISM_UNKNOWN:
            return self
        if parallelism < 1 and parallelism != _PARALLELISM_DEFAULT:
            raise illegal_argument(
                "Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT "
                "(use system default).", _target("setParallelism"))
        return self._put({PARALLELISM_KEY: str(parallelism)})

    def get_max_parallelism(self) -> int:
        """The maximum parallelism (``pipeline.max-parallelism``; -1 when not set)."""
        return int(self._get(MAX_PARALLELISM_KEY))

    def set_max_parallelism(self, max_parallelism: int) -> 'ExecutionConfig':
        """Set the maximum parallelism, the number of key groups of keyed state
        (``pipeline.max-parallelism``).

        :param max_parallelism: Greater than 0.
        """
        java_call_args("setMaxParallelism", _target("setMaxParallelism"),
                       [(max_parallelism, "int")])
        if max_parallelism <= 0:
            raise illegal_argument("The maximum parallelism must be greater than 0.",
                                   _target("setMaxParallelism"))
        return self._put({MAX_PARALLELISM_KEY: str(max_parallelism)})

    # -- task cancellation -------------------------------------------------------------
    def get_task_cancellation_interval(self) -> int:
        """Milliseconds between attempts to cancel a task (``task.cancellation.interval``)."""
        return millis_of(self._get(CANCELLATION_INTERVAL_KEY))

    def set_task_cancellation_interval(self, interval: int) -> 'ExecutionConfig':
        """Set the milliseconds between attempts to cancel a task. Stored and reported only.

        :param interval: The interval in milliseconds.
        """
        java_call_args("setTaskCancellationInterval", _target("setTaskCancellationInterval"),
                       [(interval, "long")])
        return self._put({CANCELLATION_INTERVAL_KEY: millis_text(interval)})

    def get_task_cancellation_timeout(self) -> int:
        """Milliseconds after which a task that does not cancel fails the process
        (``task.cancellation.timeout``)."""
        return millis_of(self._get(CANCELLATION_TIMEOUT_KEY))

    def set_task_cancellation_timeout(self, timeout: int) -> 'ExecutionConfig':
        """Set the task cancellation timeout. Stored and reported only.

        :param timeout: The timeout in milliseconds, 0 for none; not negative.
        """
        java_call_args("setTaskCancellationTimeout", _target("setTaskCancellationTimeout"),
                       [(timeout, "long")])
        if timeout < 0:
            raise illegal_argument("Timeout needs to be >= 0.", _target("setTaskCancellationTimeout"))
        return self._put({CANCELLATION_TIMEOUT_KEY: millis_text(timeout)})

    # -- restart strategy --------------------------------------------------------------
    def set_restart_strategy(
            self,
            restart_strategy_configuration: RestartStrategyConfiguration) -> 'ExecutionConfig':
        """Set the restart strategy (the ``restart-strategy.*`` options).

        :param restart_strategy_configuration: A configuration from
                                               :class:`~pyflink_compat.common.RestartStrategies`.

        .. note:: Deprecated since version 1.19: set the ``restart-strategy.*`` options
                  through ``StreamExecutionEnvironment.configure`` instead.
        """
        warnings.warn(_RESTART_DEPRECATION, DeprecationWarning, stacklevel=2)
        configuration = RestartStrategies._from_j_restart_strategy(
            restart_strategy_configuration._j_restart_strategy_configuration)
        assert configuration is not None
        current = self._j_execution_config.get_option(API_RESTART_STRATEGY_KEY)
        return self._put(restart_changes(current, configuration))

    def get_restart_strategy(self) -> RestartStrategyConfiguration:
        """The restart strategy configuration set through
        :meth:`~pyflink_compat.common.ExecutionConfig.set_restart_strategy`; the fall-back
        configuration when none was."""
        return restart_strategy_of(self._j_execution_config)

    # -- legacy batch settings ---------------------------------------------------------
    def set_execution_mode(self, execution_mode: ExecutionMode) -> 'ExecutionConfig':
        """Set the data exchange mode of batch programs. Stored and reported only.

        :param execution_mode: An :class:`~pyflink_compat.common.ExecutionMode`.
        """
        return self._put({EXECUTION_MODE_KEY: execution_mode._to_j_execution_mode()})

    def get_execution_mode(self) -> 'ExecutionMode':
        """The data exchange mode of batch programs (``PIPELINED`` by default)."""
        return ExecutionMode._from_j_execution_mode(self._get(EXECUTION_MODE_KEY))

    def set_default_input_dependency_constraint(
            self, input_dependency_constraint: InputDependencyConstraint) -> 'ExecutionConfig':
        """Accepted and ignored: Flink 1.20 ignores the constraint too, and reports ``ANY``.

        :param input_dependency_constraint: An
            :class:`~pyflink_compat.common.InputDependencyConstraint`.

        .. note:: Deprecated in 1.13: Flink no longer uses it.
        """
        warnings.warn(_INPUT_CONSTRAINT_DEPRECATION.format(
            "set_default_input_dependency_constraint"), DeprecationWarning, stacklevel=2)
        input_dependency_constraint._to_j_input_dependency_constraint()
        return self

    def get_default_input_dependency_constraint(self) -> 'InputDependencyConstraint':
        """The input dependency constraint: always ``ANY``, as in Flink 1.20.

        .. note:: Deprecated in 1.13: Flink no longer uses it.
        """
        warnings.warn(_INPUT_CONSTRAINT_DEPRECATION.format(
            "get_default_input_dependency_constraint"), DeprecationWarning, stacklevel=2)
        return InputDependencyConstraint.ANY

    # -- serialization flags (stored and reported only) --------------------------------
    def enable_force_kryo(self) -> 'ExecutionConfig':
        """Serialize every type with Kryo (``pipeline.force-kryo``). Stored only."""
        return self._put_bool(FORCE_KRYO_KEY, True)

    def disable_force_kryo(self) -> 'ExecutionConfig':
        """Stop forcing Kryo (``pipeline.force-kryo: false``)."""
        return self._put_bool(FORCE_KRYO_KEY, False)

    def is_force_kryo_enabled(self) -> bool:
        """Whether Kryo is forced (off by default)."""
        return self._get_bool(FORCE_KRYO_KEY)

    def enable_generic_types(self) -> 'ExecutionConfig':
        """Allow types that need a generic serializer (``pipeline.generic-types``). Stored
        only."""
        return self._put_bool(GENERIC_TYPES_KEY, True)

    def disable_generic_types(self) -> 'ExecutionConfig':
        """Forbid types that need a generic serializer (``pipeline.generic-types: false``)."""
        return self._put_bool(GENERIC_TYPES_KEY, False)

    def has_generic_types_disabled(self) -> bool:
        """Whether generic types are forbidden (they are allowed by default)."""
        return not self._get_bool(GENERIC_TYPES_KEY)

    def enable_auto_generated_uids(self) -> 'ExecutionConfig':
        """Let operators without a uid get a generated one (``pipeline.auto-generate-uids``).
        Stored only."""
        return self._put_bool(AUTO_UIDS_KEY, True)

    def disable_auto_generated_uids(self) -> 'ExecutionConfig':
        """Require a uid on every operator (``pipeline.auto-generate-uids: false``)."""
        return self._put_bool(AUTO_UIDS_KEY, False)

    def has_auto_generated_uids_enabled(self) -> bool:
        """Whether uids are generated (on by default)."""
        return self._get_bool(AUTO_UIDS_KEY)

    def enable_force_avro(self) -> 'ExecutionConfig':
        """Serialize POJOs with Avro (``pipeline.force-avro``). Stored only."""
        return self._put_bool(FORCE_AVRO_KEY, True)

    def disable_force_avro(self) -> 'ExecutionConfig':
        """Stop forcing Avro (``pipeline.force-avro: false``)."""
        return self._put_bool(FORCE_AVRO_KEY, False)

    def is_force_avro_enabled(self) -> bool:
        """Whether Avro is forced (off by default)."""
        return self._get_bool(FORCE_AVRO_KEY)

    def enable_object_reuse(self) -> 'ExecutionConfig':
        """Let operators reuse record objects (``pipeline.object-reuse``). Stored only."""
        return self._put_bool(OBJECT_REUSE_KEY, True)

    def disable_object_reuse(self) -> 'ExecutionConfig':
        """Copy records between operators (``pipeline.object-reuse: false``)."""
        return self._put_bool(OBJECT_REUSE_KEY, False)

    def is_object_reuse_enabled(self) -> bool:
        """Whether objects are reused (off by default)."""
        return self._get_bool(OBJECT_REUSE_KEY)

    # -- global job parameters ---------------------------------------------------------
    def get_global_job_parameters(self) -> Dict[str, str]:
        """The global job parameters (``pipeline.global-job-parameters``)."""
        return decode_map(self._j_execution_config.get_option(GLOBAL_JOB_PARAMETERS_KEY))

    def set_global_job_parameters(self, global_job_parameters_dict: Dict) -> 'ExecutionConfig':
        """Replace the global job parameters (``pipeline.global-job-parameters``). Stored and
        reported; on Spark, read them back from here or pass them to your functions.

        :param global_job_parameters_dict: Parameters by name; values are turned into text.
        """
        entries: Dict[str, str] = {}
        for key in global_job_parameters_dict:
            value = global_job_parameters_dict[key]
            text = value if isinstance(value, str) else str(value)
            if not isinstance(key, str):
                raise method_not_found("setString", [key, text], _target("setString"))
            entries[key] = text
        return self._put({GLOBAL_JOB_PARAMETERS_KEY: encode_map(entries) if entries else None})

    # -- type registration -------------------------------------------------------------
    def add_default_kryo_serializer(self,
                                    type_class_name: str,
                                    serializer_class_name: str) -> 'ExecutionConfig':
        """Not supported: a Flink Kryo serializer cannot serialize Spark's rows.

        Always raises ``NotSupportedError``; use Spark's ``spark.kryo.registrator``.
        """
        from pyflink_compat.missing import not_supported

        raise not_supported("ExecutionConfig.add_default_kryo_serializer")

    def register_type_with_kryo_serializer(self,
                                           type_class_name: str,
                                           serializer_class_name: str) -> 'ExecutionConfig':
        """Not supported: a Flink Kryo serializer cannot serialize Spark's rows.

        Always raises ``NotSupportedError``; use Spark's ``spark.kryo.registrator``.
        """
        from pyflink_compat.missing import not_supported

        raise not_supported("ExecutionConfig.register_type_with_kryo_serializer")

    def register_pojo_type(self, type_class_name: str) -> 'ExecutionConfig':
        """Register a JVM class as a POJO type (``pipeline.registered-pojo-types``). The class
        must exist in the JVM, as in PyFlink; stored and reported only.

        :param type_class_name: The fully qualified class name.
        """
        return self._register(POJO_TYPES_KEY, type_class_name, "registerPojoType")

    def register_kryo_type(self, type_class_name: str) -> 'ExecutionConfig':
        """Register a JVM class with Kryo (``pipeline.registered-kryo-types``). The class must
        exist in the JVM, as in PyFlink; stored and reported only (on Spark, list classes in
        ``spark.kryo.classesToRegister``).

        :param type_class_name: The fully qualified class name.
        """
        return self._register(KRYO_TYPES_KEY, type_class_name, "registerKryoType")

    def _register(self, key: str, type_class_name: str, java_method: str) -> 'ExecutionConfig':
        _load_class(type_class_name, _target("loadClass"))
        names = self._names(key)
        if type_class_name not in names:
            names.append(type_class_name)
        return self._put({key: ";".join(names)})

    def _names(self, key: str) -> List[str]:
        text = self._j_execution_config.get_option(key)
        return [n for n in (text or "").split(";") if n]

    def get_registered_types_with_kryo_serializer_classes(self) -> Dict[str, str]:
        """Types registered with a Kryo serializer: always empty here (see
        :meth:`~pyflink_compat.common.ExecutionConfig.register_type_with_kryo_serializer`)."""
        return {}

    def get_default_kryo_serializer_classes(self) -> Dict[str, str]:
        """Default Kryo serializers: always empty here (see
        :meth:`~pyflink_compat.common.ExecutionConfig.add_default_kryo_serializer`)."""
        return {}

    def get_registered_kryo_types(self) -> List[str]:
        """The class names registered with
        :meth:`~pyflink_compat.common.ExecutionConfig.register_kryo_type`, in order."""
        return self._names(KRYO_TYPES_KEY)

    def get_registered_pojo_types(self) -> List[str]:
        """The class names registered with
        :meth:`~pyflink_compat.common.ExecutionConfig.register_pojo_type`, in order."""
        return self._names(POJO_TYPES_KEY)

    def is_auto_type_registration_disabled(self) -> bool:
        """Whether automatic type registration is off (``pipeline.auto-type-registration``;
        on by default)."""
        return not self._get_bool(AUTO_TYPE_REGISTRATION_KEY)

    def disable_auto_type_registration(self) -> 'ExecutionConfig':
        """Turn automatic type registration off. Stored and reported only."""
        return self._put_bool(AUTO_TYPE_REGISTRATION_KEY, False)

    # -- snapshot compression ----------------------------------------------------------
    def is_use_snapshot_compression(self) -> bool:
        """Whether state snapshots are compressed
        (``execution.checkpointing.snapshot-compression``; off by default)."""
        return self._get_bool(SNAPSHOT_COMPRESSION_KEY)

    def set_use_snapshot_compression(self, use_snapshot_compression: bool) -> 'ExecutionConfig':
        """Compress state snapshots or not. Stored and reported: Spark compresses its state
        store files with ``spark.sql.streaming.stateStore.compression.codec``.

        :param use_snapshot_compression: Whether to compress.
        """
        java_call_args("setUseSnapshotCompression", _target("setUseSnapshotCompression"),
                       [(use_snapshot_compression, "boolean")])
        return self._put_bool(SNAPSHOT_COMPRESSION_KEY, use_snapshot_compression)

    def __eq__(self, other):
        return isinstance(other, self.__class__) and \
            self._j_execution_config == other._j_execution_config

    def __hash__(self):
        return hash(self._j_execution_config)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
