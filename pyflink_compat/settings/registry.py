"""Every Flink setting pyflink_compat understands, declared once, and the kinds of values they take.

Each field of :class:`JobSettings` is one Flink option. Its metadata (a :class:`Setting`)
says which key and fallback keys name it, how its text is parsed, what range is valid and with
which message PyFlink rejects a bad value, what it becomes in Spark and whether Spark honours
it. Validation, storage in the Spark session conf, the translation to Spark, the support matrix
in the docs and the warnings at job start are all driven by walking :func:`attrs.fields`.

An instance of :class:`JobSettings` is an immutable snapshot: the effective settings of one
environment at one moment. The kinds of checkpoint storage and state backend, the retention
modes of checkpoints and Flink's defaults for storages and backends are defined here too, once,
for the settings, the API objects and the translation to Spark.
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

import attrs

from pyflink_compat.settings import values
from pyflink_compat.settings.values import NANOS_PER_SECOND, Codec, from_millis, to_millis
from pyflink_compat.util.java_limits import INT_MAX, LONG_MAX

__all__ = [
    "Support", "Setting", "JobSettings", "SETTINGS", "SETTINGS_BY_KEY", "CONF_PREFIX",
    "DEFAULT_MAX_STATE_SIZE", "DEFAULT_FILE_STATE_THRESHOLD", "DEFAULT_WRITE_BUFFER_SIZE",
    "DEFAULT_TRANSFER_THREADS", "StorageKind", "StorageSpec", "BackendKind", "ROCKSDB_BACKENDS",
    "HEAP_BACKENDS", "Retention", "TriggerMode",
]

#: Prefix under which Flink settings live in the Spark session conf; ``spark-submit --conf
#: spark.flink.execution.checkpointing.interval=5s`` therefore configures a job too.
CONF_PREFIX = "spark.flink."


# -- the kinds of values settings take, and Flink's defaults for storages and backends ----------
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


class TriggerMode(str, enum.Enum):
    """What paces a streaming job's micro-batches (``compat.trigger.mode``)."""

    #: Records flow as in Flink: each query's trigger follows the buffer timeout, and the
    #: checkpoint interval sets how often state is materialised and checkpoints are reported.
    LATENCY = "LATENCY"
    #: One micro-batch per checkpoint interval: results are published once per interval.
    CHECKPOINT_INTERVAL = "CHECKPOINT_INTERVAL"

    def __str__(self) -> str:
        return self.value


def _buffer_timeout_unused(settings: "JobSettings") -> bool:
    """Whether no query of a job with ``settings`` is paced by the buffer timeout: one micro-batch
    per interval, or checkpointing disabled (Spark's default trigger)."""
    return settings.trigger_mode is TriggerMode.CHECKPOINT_INTERVAL or settings.checkpoint_interval is None


# -- the settings --------------------------------------------------------------------------------
class Support(enum.Enum):
    """How much of a Flink setting Spark honours."""

    #: Spark does what the setting asks, through a native mechanism.
    APPLIED = "applied"
    #: pyflink_compat reproduces the behaviour around Spark (supervision, clean-up).
    EMULATED = "emulated"
    #: Stored and read back, but Spark has no such concept; a job warns when it is set.
    NO_EFFECT = "no Spark effect"


Check = Callable[[Any], Optional[str]]


def _range(low: int, high: int, message: str) -> Check:
    def check(value: Any) -> Optional[str]:
        return None if low <= value <= high else message

    return check


@attrs.frozen(cache_hash=True)
class Setting:
    """The facts about one Flink option.

    :param key: The Flink option key (the stored one).
    :param fallback_keys: Older keys Flink still reads when ``key`` is absent, in order.
    :param codec: How the option's text is parsed and written.
    :param default: The value in force when the option is absent.
    :param check: Returns PyFlink's rejection message for an out-of-range value, else None.
    :param support: How much of it Spark honours.
    :param spark: What it becomes in Spark, in a sentence for the docs and the job summary.
    :param no_effect_when: For options Spark honours only in part: given the value and the
        settings in force, whether Spark ignores it.
    :param discards_object: The API object (``checkpoint-storage``, ``state-backend``) that
        ``configure()`` with this option discards, as Flink does so that the option applies.
    :param millis: Whether the duration is read back in milliseconds, so that one of more
        milliseconds than a Java ``long`` holds overflows, as in Flink.
    :param native: Whether Spark reads what it becomes from the session conf (rather than
        per query or through the supervisor): a change rewrites the derived Spark keys at once.
    :param name: The attribute name in :class:`JobSettings` (filled in by the registry).
    """

    key: str
    codec: Codec
    default: Any
    support: Support
    spark: str
    fallback_keys: Tuple[str, ...] = ()
    check: Optional[Check] = None
    no_effect_when: Optional[Callable[[Any, "JobSettings"], bool]] = None
    discards_object: Optional[str] = None
    millis: bool = False
    native: bool = False
    name: str = ""

    @property
    def conf_key(self) -> str:
        """The key of this option in the Spark session conf."""
        return CONF_PREFIX + self.key

    @property
    def all_keys(self) -> Tuple[str, ...]:
        return (self.key,) + self.fallback_keys

    def rejection(self, value: Any) -> Optional[Tuple[str, str]]:
        """The JVM exception class and message PyFlink rejects ``value`` with, else None."""
        if value is None:
            return None
        if self.millis and to_millis(value) > LONG_MAX:
            return "java.lang.ArithmeticException", "long overflow"
        message = None if self.check is None else self.check(value)
        return None if message is None else ("java.lang.IllegalArgumentException", message)

    def has_no_effect(self, value: Any, settings: "JobSettings") -> bool:
        """Whether ``value``, in force for a job with ``settings``, is one Spark does not honour."""
        if self.support is Support.NO_EFFECT:
            return bool(value != self.default)
        return self.no_effect_when is not None and self.no_effect_when(value, settings)


def _setting(key: str, codec: Codec, default: Any, support: Support, spark: str, **kw: Any) -> Any:
    return attrs.field(default=default, metadata={"setting": Setting(key, codec, default, support, spark, **kw)})


_CHECKPOINT_MODES = ("EXACTLY_ONCE", "AT_LEAST_ONCE")
_RESTART_TYPES = ("none", "fixed-delay", "exponential-delay", "failure-rate")
_CLAIM_MODES = ("CLAIM", "NO_CLAIM", "LEGACY")


def _restart_type(text: str) -> str:
    lowered = text.strip().lower()
    aliases = {"off": "none", "disable": "none", "fixeddelay": "fixed-delay",
               "exponentialdelay": "exponential-delay", "failurerate": "failure-rate"}
    lowered = aliases.get(lowered, lowered)
    if lowered not in _RESTART_TYPES:
        raise ValueError(text)
    return lowered


_RESTART_TYPE = Codec("restart strategy", _restart_type, str, _RESTART_TYPES)


def _retention(text: str) -> Retention:
    return Retention(text.upper())  # any other text: ValueError, as for every enum choice


_RETENTION = Codec("enum", _retention, str, tuple(r.value for r in Retention))


def _trigger_mode(text: str) -> TriggerMode:
    return TriggerMode(text.strip().upper())


_TRIGGER_MODE = Codec("enum", _trigger_mode, str, tuple(m.value for m in TriggerMode))


def _name_or_class(*names: str) -> Codec:
    """A known name in any case (stored lower case), or a class name kept as written: Flink
    compares the value with its names ignoring case and otherwise loads it as a class."""

    def parse(text: str) -> str:
        stripped = text.strip()
        return stripped.lower() if stripped.lower() in names else stripped

    return Codec("string", parse)


_STORAGE_NAME = _name_or_class(StorageKind.JOBMANAGER.value, StorageKind.FILESYSTEM.value)
_BACKEND_NAME = _name_or_class(*(HEAP_BACKENDS + ROCKSDB_BACKENDS))
_RUNTIME_MODES = ("STREAMING", "BATCH", "AUTOMATIC")
_TIME_CHARACTERISTICS = ("ProcessingTime", "IngestionTime", "EventTime")
_PARALLELISM_MESSAGE = ("Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT "
                        "(use system default).")


def _time_characteristic(text: str) -> str:
    for name in _TIME_CHARACTERISTICS:
        if name.lower() == text.strip().lower():
            return name
    raise ValueError(text)


_TIME_CHARACTERISTIC = Codec("enum", _time_characteristic, str, _TIME_CHARACTERISTICS)
_A = Support.APPLIED
_E = Support.EMULATED
_N = Support.NO_EFFECT


@attrs.frozen(kw_only=True)
class JobSettings:
    """The Flink settings in force for a job; durations are in nanoseconds (see
    :mod:`pyflink_compat.settings.values`), sizes in bytes."""

    # -- checkpointing -------------------------------------------------------------------
    checkpoint_interval: Optional[int] = _setting(
        "execution.checkpointing.interval", values.DURATION, None, _A,
        "how often state is materialised (stateStore.minDeltasForSnapshot) and a checkpoint is "
        "reported; with compat.trigger.mode CHECKPOINT_INTERVAL, Trigger.ProcessingTime(interval) "
        "on every query; unset means checkpointing is disabled",
        check=lambda v: None if v >= from_millis(10) else "Checkpoint interval must be larger than or equal to 10 ms",
        millis=True)
    checkpointing_mode: str = _setting(
        "execution.checkpointing.mode", values.enum_codec(*_CHECKPOINT_MODES), "EXACTLY_ONCE", _A,
        "EXACTLY_ONCE: synchronous micro-batches; AT_LEAST_ONCE: asynchronous progress tracking "
        "where the query allows it, else micro-batches")
    checkpoint_timeout: int = _setting(
        "execution.checkpointing.timeout", values.DURATION, 600 * NANOS_PER_SECOND, _E,
        "a micro-batch running longer counts as a failed checkpoint",
        check=lambda v: None if v >= from_millis(10) else "Checkpoint timeout must be larger than or equal to 10 ms",
        millis=True)
    min_pause: int = _setting(
        "execution.checkpointing.min-pause", values.DURATION, 0, _N,
        "none: a processing-time trigger starts the next batch as soon as the last one overran",
        check=lambda v: None if v >= 0 else "Pause value must be zero or positive", millis=True)
    max_concurrent_checkpoints: int = _setting(
        "execution.checkpointing.max-concurrent-checkpoints", values.INTEGER, 1, _A,
        "micro-batches never overlap, which is one concurrent checkpoint; more is not possible",
        check=_range(1, INT_MAX, "The maximum number of concurrent attempts must be at least one."),
        no_effect_when=lambda v, _: v > 1)
    tolerable_failed_checkpoints: int = _setting(
        "execution.checkpointing.tolerable-failed-checkpoints", values.INTEGER, 0, _E,
        "consecutive failed micro-batch commits or timeouts tolerated before the job fails",
        check=_range(0, INT_MAX, "The tolerable failure checkpoint number must be non-negative."))
    externalized_checkpoint_retention: Retention = _setting(
        "execution.checkpointing.externalized-checkpoint-retention", _RETENTION,
        Retention.NO_EXTERNALIZED_CHECKPOINTS, _E,
        "what happens to the job's checkpoint directories when it ends, by Flink's rules")
    unaligned_checkpoints: bool = _setting(
        "execution.checkpointing.unaligned.enabled", values.BOOLEAN, False, _N,
        "none: micro-batches have no barriers to align", fallback_keys=("execution.checkpointing.unaligned",))
    force_unaligned_checkpoints: bool = _setting(
        "execution.checkpointing.unaligned.forced", values.BOOLEAN, False, _N,
        "none: micro-batches have no barriers to align")
    aligned_checkpoint_timeout: int = _setting(
        "execution.checkpointing.aligned-checkpoint-timeout", values.DURATION, 0, _N,
        "none: micro-batches have no barriers to align",
        fallback_keys=("execution.checkpointing.alignment-timeout",))
    checkpoint_dir: Optional[str] = _setting(
        "execution.checkpointing.dir", values.TEXT, None, _A,
        "each query checkpoints under <dir>/<job name>/<sink name>",
        fallback_keys=("state.checkpoints.dir", "state.backend.fs.checkpointdir"))
    savepoint_dir: Optional[str] = _setting(
        "execution.checkpointing.savepoint-dir", values.TEXT, None, _E,
        "the default directory of JobClient.trigger_savepoint and stop_with_savepoint: a copy of "
        "each query's checkpoint at its newest committed micro-batch", fallback_keys=("state.savepoints.dir",))
    checkpoint_storage: Optional[str] = _setting(
        "execution.checkpointing.storage", _STORAGE_NAME, None, _A,
        "jobmanager: a temporary location owned by the job; filesystem: the checkpoint dir",
        fallback_keys=("state.checkpoint-storage",), discards_object="checkpoint-storage")
    num_retained: int = _setting(
        "execution.checkpointing.num-retained", values.INTEGER, 1, _A,
        "spark.sql.streaming.minBatchesToRetain, one more (the state of the newest committed batch "
        "stays while the next batch's is written)",
        fallback_keys=("state.checkpoints.num-retained",), native=True,
        check=_range(1, INT_MAX, "The number of retained checkpoints must be positive."))
    data_inline_threshold: int = _setting(
        "execution.checkpointing.data-inline-threshold", values.MEMORY_SIZE, DEFAULT_FILE_STATE_THRESHOLD, _N,
        "none: Spark writes state files of any size")
    write_buffer_size: int = _setting(
        "execution.checkpointing.write-buffer-size", values.INTEGER, DEFAULT_WRITE_BUFFER_SIZE, _N,
        "none: Hadoop's file system buffers checkpoint writes")
    # -- state backend -------------------------------------------------------------------
    state_backend: str = _setting(
        "state.backend.type", _BACKEND_NAME, "hashmap", _A,
        "spark.sql.streaming.stateStore.providerClass (hashmap: HDFS-backed; rocksdb: RocksDB)",
        fallback_keys=("state.backend",), discards_object="state-backend", native=True)
    incremental_checkpoints: bool = _setting(
        "execution.checkpointing.incremental", values.BOOLEAN, False, _A,
        "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled",
        fallback_keys=("state.backend.incremental",), native=True)
    changelog_enabled: Optional[bool] = _setting(
        "state.changelog.enabled", values.BOOLEAN, None, _A,
        "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled",
        fallback_keys=("state.backend.changelog.enabled",), native=True)
    # -- the job ------------------------------------------------------------------------
    parallelism: Optional[int] = _setting(
        "parallelism.default", values.INTEGER, None, _A,
        "spark.sql.shuffle.partitions: the state partitions of new checkpoints (a query resuming "
        "from a checkpoint keeps the number it was written with)",
        check=lambda v: None if v >= 1 or v == -1 else _PARALLELISM_MESSAGE, native=True)
    max_parallelism: int = _setting(
        "pipeline.max-parallelism", values.INTEGER, -1, _N,
        "none: the state partitions are spark.sql.shuffle.partitions, fixed by a query's first run")
    runtime_mode: str = _setting(
        "execution.runtime-mode", values.enum_codec(*_RUNTIME_MODES), "STREAMING", _A,
        "BATCH: every query runs with Trigger.AvailableNow and the job finishes; AUTOMATIC: "
        "BATCH when Spark can tell every source is bounded (file sources), else STREAMING")
    buffer_timeout: int = _setting(
        "execution.buffer-timeout.interval", values.DURATION, from_millis(100), _A,
        "Trigger.ProcessingTime(timeout) on every query of a checkpointed streaming job "
        "(0: Spark's default trigger, a batch as soon as input arrives); none with "
        "compat.trigger.mode CHECKPOINT_INTERVAL or with checkpointing disabled",
        fallback_keys=("execution.buffer-timeout",),
        no_effect_when=lambda v, s: _buffer_timeout_unused(s) and v != from_millis(100))
    buffer_timeout_enabled: bool = _setting(
        "execution.buffer-timeout.enabled", values.BOOLEAN, True, _A,
        "false (flush only when full): one micro-batch per checkpoint interval, as Flink's "
        "buffers then flush at each checkpoint",
        no_effect_when=lambda v, s: _buffer_timeout_unused(s) and not v)
    trigger_mode: TriggerMode = _setting(
        "compat.trigger.mode", _TRIGGER_MODE, TriggerMode.LATENCY, _A,
        "not a Flink option. LATENCY: the trigger follows the buffer timeout, the checkpoint "
        "interval governs durability; CHECKPOINT_INTERVAL: one micro-batch per checkpoint "
        "interval, results published once per interval")
    operator_chaining: bool = _setting(
        "pipeline.operator-chaining.enabled", values.BOOLEAN, True, _N,
        "none: Spark fuses operators itself (whole-stage code generation)",
        fallback_keys=("pipeline.operator-chaining",))
    time_characteristic: str = _setting(
        "pipeline.time-characteristic", _TIME_CHARACTERISTIC, "EventTime", _N,
        "none: event time is the column named in DataFrame.withWatermark")
    jars: Optional[str] = _setting(
        "pipeline.jars", values.TEXT, None, _N,
        "none at run time: pass jars to Spark with spark-submit --jars (spark.jars), or Maven "
        "coordinates with --packages (spark.jars.packages)")
    classpaths: Optional[str] = _setting(
        "pipeline.classpaths", values.TEXT, None, _N,
        "none at run time: pass them to Spark with spark-submit --jars (spark.jars) or "
        "--driver-class-path")
    python_files: Optional[str] = _setting(
        "python.files", values.TEXT, None, _A, "SparkContext.addPyFile(file) for each file at job start")
    python_archives: Optional[str] = _setting(
        "python.archives", values.TEXT, None, _A,
        "SparkContext.addArchive(path#dir) for each archive at job start")
    python_requirements: Optional[str] = _setting(
        "python.requirements", values.TEXT, None, _N,
        "none: install them into the executors' Python (spark-submit --archives with a packed "
        "environment)")
    python_executable: Optional[str] = _setting(
        "python.executable", values.TEXT, None, _N,
        "none at run time: set spark.pyspark.python (or PYSPARK_PYTHON) when submitting")
    # -- failure handling ----------------------------------------------------------------
    restart_strategy: Optional[str] = _setting(
        "restart-strategy.type", _RESTART_TYPE, None, _E,
        "queries restart from their checkpoints; unset with checkpointing means exponential-delay",
        fallback_keys=("restart-strategy",))
    fixed_delay_attempts: int = _setting(
        "restart-strategy.fixed-delay.attempts", values.INTEGER, 1, _E, "restart attempts")
    fixed_delay_delay: int = _setting(
        "restart-strategy.fixed-delay.delay", values.DURATION, NANOS_PER_SECOND, _E, "delay between restarts")
    exponential_initial_backoff: int = _setting(
        "restart-strategy.exponential-delay.initial-backoff", values.DURATION, NANOS_PER_SECOND, _E,
        "first restart delay")
    exponential_max_backoff: int = _setting(
        "restart-strategy.exponential-delay.max-backoff", values.DURATION, 60 * NANOS_PER_SECOND, _E,
        "largest restart delay")
    exponential_multiplier: float = _setting(
        "restart-strategy.exponential-delay.backoff-multiplier", values.FLOAT, 1.5, _E,
        "growth of the restart delay")
    exponential_reset_threshold: int = _setting(
        "restart-strategy.exponential-delay.reset-backoff-threshold", values.DURATION, 3600 * NANOS_PER_SECOND, _E,
        "a run this long without failure resets the delay")
    exponential_jitter: float = _setting(
        "restart-strategy.exponential-delay.jitter-factor", values.FLOAT, 0.1, _E, "random spread of the delay")
    exponential_attempts: int = _setting(
        "restart-strategy.exponential-delay.attempts-before-reset-backoff", values.INTEGER, INT_MAX, _E,
        "restart attempts before giving up")
    failure_rate_max_failures: int = _setting(
        "restart-strategy.failure-rate.max-failures-per-interval", values.INTEGER, 1, _E,
        "failures allowed per interval")
    failure_rate_interval: int = _setting(
        "restart-strategy.failure-rate.failure-rate-interval", values.DURATION, 60 * NANOS_PER_SECOND, _E,
        "the interval failures are counted in")
    failure_rate_delay: int = _setting(
        "restart-strategy.failure-rate.delay", values.DURATION, NANOS_PER_SECOND, _E, "delay between restarts")

    # -- state recovery (restoring a job from a savepoint or a retained checkpoint) ------------
    state_recovery_path: Optional[str] = _setting(
        "execution.state-recovery.path", values.TEXT, None, _E,
        "the job's query checkpoints start as copies of this savepoint or retained checkpoint",
        fallback_keys=("execution.savepoint.path",))
    state_recovery_claim_mode: str = _setting(
        "execution.state-recovery.claim-mode", values.enum_codec(*_CLAIM_MODES), "NO_CLAIM", _E,
        "NO_CLAIM: the source is copied and never changed; CLAIM: restoring the job's own "
        "checkpoints resumes them in place; LEGACY is treated as NO_CLAIM",
        fallback_keys=("execution.savepoint-restore-mode",))
    state_recovery_ignore_unclaimed_state: bool = _setting(
        "execution.state-recovery.ignore-unclaimed-state", values.BOOLEAN, False, _E,
        "saved queries no sink of the job takes are skipped instead of refusing the start",
        fallback_keys=("execution.savepoint.ignore-unclaimed-state",))


def _collect() -> Tuple[Setting, ...]:
    found = []
    for field in attrs.fields(JobSettings):
        found.append(attrs.evolve(field.metadata["setting"], name=field.name))
    return tuple(found)


#: Every setting, in declaration order.
SETTINGS: Tuple[Setting, ...] = _collect()
#: Every setting by its Flink key.
SETTINGS_BY_KEY: Dict[str, Setting] = {s.key: s for s in SETTINGS}
#: Every setting by its attribute name in :class:`JobSettings`.
SETTINGS_BY_NAME: Dict[str, Setting] = {s.name: s for s in SETTINGS}
