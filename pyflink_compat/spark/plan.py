"""What a job does on Spark, decided before it starts, and the summary that shows it.

:func:`build_plan` reads an environment's settings once, and :func:`plan_job` turns that
settings snapshot and the registered sinks into a :class:`JobPlan`: per query its trigger,
checkpoint location and write mode, the session-wide Spark keys, and for every Flink setting
whether Spark applies it, pyflink_compat emulates it, or it has no Spark effect. The Spark keys
of the plan are then written to the session conf. ``str(plan)`` is the summary printed by
:meth:`StreamExecutionEnvironment.get_job_plan` and logged at ``DEBUG`` when the job starts;
:meth:`JobPlan.summary` is the one line logged at ``INFO`` then.

What paces each query (its trigger, the state snapshot cadence, what one checkpoint is) is
decided by :func:`pyflink_compat.spark.pacing.pacing`, once per job.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

import attrs

from pyflink_compat.settings.registry import SETTINGS, JobSettings, Setting
from pyflink_compat.settings import values
from pyflink_compat.settings.registry import Retention, StorageKind, StorageSpec
from pyflink_compat.settings.store import SettingsStore, object_of
from pyflink_compat.spark.connector_packages import missing_kafka_connector
from pyflink_compat.spark.ownership import job_directory_name
from pyflink_compat.spark.query_introspection import is_stateful, sink_format, sources_bounded
from pyflink_compat.spark.restart import RestartPolicy, restart_policy_for
from pyflink_compat.spark.pacing import Pacing, pacing
from pyflink_compat.spark.translation import (
    HDFS_PROVIDER, PROVIDER_CLASS, ROCKSDB_CHANGELOG, ROCKSDB_PROVIDER, SHUFFLE_PARTITIONS,
    effective_storage, session_keys)
from pyflink_compat.util.java_classes import java_class

__all__ = [
    "SinkSpec", "QueryPlan", "SettingStatus", "JobPlan",
    "plan_run", "build_plan", "plan_job", "apply_query_plan", "make_temporary_root", "remove_temporary_root",
    "no_effect_message",
    "TEMPORARY", "DURABLE", "PLANNED_TEMPORARY_ROOT",
]

_ASYNC_SINKS = ("memory", "console", "noop", "kafka", "foreach")
_ASYNC_SINKS_SPARK3 = ("memory", "console", "noop", "kafka")  # 3.5 rejects foreach

#: Temporary checkpoint locations, owned by the job and removed when it ends.
TEMPORARY = "temporary"
#: Durable checkpoint locations under the configured checkpoint directory.
DURABLE = "durable"

_TEMPORARY_PREFIX = "pyflink_compat-"

#: Shown in a plan printed before the job starts, in place of the job's temporary directory.
PLANNED_TEMPORARY_ROOT = "file:<temporary directory of the job>"


@attrs.frozen
class SinkSpec:
    """One sink of a job: a Spark ``DataStreamWriter`` and how it ends.

    :param name: The query name and checkpoint subdirectory.
    :param writer: The PySpark ``DataStreamWriter``.
    :param bounded: Whether the query finishes once its input is exhausted.
    :param continuous: Whether to run in Spark's continuous processing mode (opt-in).
    """

    name: str
    writer: Any = attrs.field(eq=False, repr=False)
    bounded: bool = False
    continuous: bool = False
    #: Whether the query runs keyed functions in ``transformWithState`` (RocksDB state store).
    keyed_state: bool = False
    #: The state partitions its broadcast state is laid out for (``None``: it keeps none).
    broadcast_partitions: Optional[int] = None


@attrs.frozen
class QueryPlan:
    """How one query of the job runs.

    :param name: Query (and sink) name.
    :param trigger: The trigger, as the summary shows it.
    :param interval_ms: The trigger interval in ms (Spark's unit), or ``None`` for Spark's
        default trigger.
    :param checkpoint_location: Where the query checkpoints (a directory URI).
    :param location_kind: :data:`TEMPORARY` or :data:`DURABLE`.
    :param async_progress: Whether asynchronous progress tracking is on.
    :param guarantee: The processing guarantee, with the reason it was chosen.
    :param sink_format: The sink format, when it could be read from the writer.
    :param stateful: Whether the query keeps state, or a function that tells: then the query's
        plan is read the first time :attr:`stateful` is asked for, not while the job starts.
    :param continuous: Whether the trigger is Spark's continuous one (else processing time).
    :param write_options: The ``DataStreamWriter`` options the plan sets (checkpoint location,
        asynchronous progress tracking).
    :param available_now: Whether the query processes the input available when it starts and
        finishes (Spark's available-now trigger: runtime mode ``BATCH``).
    :param latency: How long records take to reach the sink, and why, for the summary.
    :param durability: How often the query's state is made durable, and why, for the summary.
    :param latency_ms: How long a record may wait for its micro-batch to start, in ms.
    :param checkpoint_every_ms: For a query whose micro-batches run more often than the
        checkpoint interval: the interval, at which the job reports a completed checkpoint
        (``None``: every committed micro-batch is one).
    """

    name: str
    trigger: str
    interval_ms: Optional[int]
    checkpoint_location: str
    location_kind: str
    async_progress: bool
    guarantee: str
    sink_format: Optional[str]
    _stateful: Union[bool, Callable[[], bool]] = attrs.field(eq=False, repr=False)
    continuous: bool = False
    write_options: Mapping[str, str] = attrs.field(factory=dict)
    available_now: bool = False
    latency: str = ""
    durability: str = ""
    latency_ms: Optional[int] = None
    checkpoint_every_ms: Optional[int] = None
    #: The state partitions the query's broadcast state is laid out for (``None``: none kept).
    broadcast_partitions: Optional[int] = None

    @property
    def trigger_name(self) -> str:
        """The trigger as Spark names it, without the reason it was chosen."""
        if self.available_now:
            return "AvailableNow"
        if self.interval_ms is None:
            return "ProcessingTime(0)"
        return "{}({} ms)".format("Continuous" if self.continuous else "ProcessingTime", self.interval_ms)

    @property
    def stateful(self) -> bool:
        """Whether the query keeps state (an aggregation, deduplication, join...)."""
        value = self._stateful
        if callable(value):
            value = bool(value())
            object.__setattr__(self, "_stateful", value)
        return value


@attrs.frozen
class SettingStatus:
    """One Flink setting as a job sees it."""

    setting: Setting
    value: Any
    explicit: bool
    no_effect: bool

    @property
    def status(self) -> str:
        if self.no_effect:
            return "no Spark effect"
        return self.setting.support.value


@attrs.frozen
class JobPlan:
    """Everything a job will do on Spark; ``str()`` renders the summary.

    The runtime reads all it needs from here and derives nothing itself.

    :param job_name: The job's name.
    :param settings: The settings in force.
    :param storage: The checkpoint storage in force, resolved.
    :param spark_conf: The session-wide Spark keys (``None``: unset).
    :param queries: One plan per sink, in registration order.
    :param statuses: Every Flink setting and what Spark makes of it.
    :param restart: The restart strategy's policy.
    :param job_dir: ``<storage dir>/<job directory name>`` when the queries checkpoint durably,
        else ``None`` (temporary locations, removed when the job ends).
    :param state_limit: The largest state in bytes a checkpoint may hold (JobManager storage).
    :param python_files: Files the job ships with ``SparkContext.addPyFile`` when it starts.
    :param python_archives: Archives (``path#dir``) it ships with ``SparkContext.addArchive``.
    :param unread_keys: Flink keys set but read by no setting, each with the known key it is
        probably a misspelling of (or ``None``).
    :param shuffle_partitions: The shuffle partitions the queries run with, so the state
        partitions of a new checkpoint: the parallelism when it is set, else the session's
        own ``spark.sql.shuffle.partitions`` when that is set (``None``: Spark's default).
    :param temporary_root: The directory the run owns for the checkpoint locations of queries
        whose checkpoints need not outlive it (``PLANNED_TEMPORARY_ROOT`` before a run).
    :param missing_connectors: For each query whose connector the session's JVM cannot load,
        what is missing and the package to add (the job then refuses to start).
    """

    job_name: str
    settings: JobSettings
    storage: StorageSpec
    spark_conf: Mapping[str, Optional[str]]
    queries: Tuple[QueryPlan, ...]
    statuses: Tuple[SettingStatus, ...]
    restart: RestartPolicy
    job_dir: Optional[str] = None
    state_limit: Optional[int] = None
    python_files: Tuple[str, ...] = ()
    python_archives: Tuple[str, ...] = ()
    unread_keys: Tuple[Tuple[str, Optional[str]], ...] = ()
    shuffle_partitions: Optional[int] = None
    temporary_root: str = PLANNED_TEMPORARY_ROOT
    missing_connectors: Tuple[str, ...] = ()

    @property
    def checkpoint_timeout(self) -> int:
        """How long a checkpoint (a micro-batch) may take, in nanoseconds."""
        return self.settings.checkpoint_timeout

    @property
    def tolerable_failed_checkpoints(self) -> int:
        """Failed checkpoints in a row the job survives."""
        return self.settings.tolerable_failed_checkpoints

    @property
    def retention(self) -> Retention:
        """What happens to durable checkpoints when the job ends."""
        return self.settings.externalized_checkpoint_retention

    @property
    def durable_sinks(self) -> Tuple[str, ...]:
        """The sinks whose queries checkpoint under :attr:`job_dir`."""
        return tuple(q.name for q in self.queries if q.location_kind == DURABLE)

    @property
    def parallelism_set(self) -> bool:
        """Whether the job asks for a parallelism (``parallelism.default``), which then sets
        :attr:`shuffle_partitions`."""
        return self.settings.parallelism is not None and self.settings.parallelism > 0

    @property
    def checkpointing_enabled(self) -> bool:
        return self.settings.checkpoint_interval is not None

    @property
    def ignored(self) -> Tuple[SettingStatus, ...]:
        """Settings in force that Spark does not honour (warned about at job start)."""
        return tuple(s for s in self.statuses if s.no_effect)

    def summary(self) -> str:
        """One line: the queries, their triggers, where they checkpoint, and the restore source."""
        triggers = sorted({q.trigger_name for q in self.queries})
        if self.job_dir is not None:
            where = "checkpoints under {}".format(self.job_dir)
        else:
            where = "temporary checkpoint locations, removed when the job ends"
        source = self.settings.state_recovery_path
        restore = "restore path {}".format(source) if source is not None and str(source).strip() \
            else "no restore path"
        return "{} quer{} ({}), trigger {}, {}, {}".format(
            len(self.queries), "y" if len(self.queries) == 1 else "ies", ", ".join(q.name for q in self.queries),
            " / ".join(triggers), where, restore)

    def __str__(self) -> str:
        lines = ["Job '{}' on Spark".format(self.job_name)]
        kind = self.storage.kind.value
        where = self.storage.path or "-"
        lines.append("  checkpoint storage: {} ({})".format(kind, where))
        lines.append("  restart strategy: {}".format(self.restart.describe()))
        lines.append("  Spark session conf:")
        for key, value in self.spark_conf.items():
            lines.append("    {} = {}".format(key, "<unset>" if value is None else value))
        for query in self.queries:
            lines.append("  query '{}':".format(query.name))
            lines.append("    trigger: {}".format(query.trigger))
            lines.append("    latency: {}".format(query.latency))
            lines.append("    durable state: {}".format(query.durability))
            lines.append("    checkpoint location: {} ({})".format(
                query.checkpoint_location, query.location_kind))
            lines.append("    guarantee: {}".format(query.guarantee))
        if self.settings.jars or self.settings.classpaths:
            paths = ";".join(p for p in (self.settings.jars, self.settings.classpaths) if p)
            lines.append("  jars: {} (not loaded at run time: pass them with spark-submit --jars "
                         "{}, or set spark.jars / spark.jars.packages when the application "
                         "starts)".format(paths, ",".join(paths.split(";"))))
        for missing in self.missing_connectors:
            lines.append("  missing connector: {}".format(missing))
        for path in self.python_files:
            lines.append("  python file: {} (SparkContext.addPyFile at job start)".format(path))
        for path in self.python_archives:
            lines.append("  python archive: {} (SparkContext.addArchive at job start)".format(path))
        if self.settings.python_executable:
            lines.append("  python executable: {} (no effect at run time: set spark.pyspark.python "
                         "when submitting)".format(self.settings.python_executable))
        for key, guess in self.unread_keys:
            lines.append("  unknown Flink key: {} (stored, not read{})".format(
                key, "" if guess is None else "; did you mean '{}'?".format(guess)))
        lines.append("  Flink settings:")
        for status in self.statuses:
            shown = _show(status.setting, status.value)
            lines.append("    {} = {}{} [{}] {}".format(
                status.setting.key, shown, "" if status.explicit else " (default)",
                status.status, status.setting.spark))
        return "\n".join(lines)


def _show(setting: Setting, value: Any) -> str:
    if value is None:
        return "<unset>"
    return setting.codec.show(value)


def _async_sinks() -> Tuple[str, ...]:
    import pyspark

    return _ASYNC_SINKS_SPARK3 if pyspark.__version__.startswith("3.") else _ASYNC_SINKS


def batch_reason(settings: JobSettings, sink: SinkSpec) -> Tuple[bool, str]:
    """Whether a sink's query runs as in ``BATCH`` mode, and why (for the summary)."""
    mode = settings.runtime_mode
    if mode == "BATCH":
        return True, "runtime mode BATCH"
    if mode != "AUTOMATIC":
        return False, "runtime mode STREAMING"
    if sink.bounded:
        return True, "runtime mode AUTOMATIC, the sink was added as bounded"
    bounded = sources_bounded(sink.writer)
    if bounded:
        return True, "runtime mode AUTOMATIC, every source is a file source"
    if bounded is None:
        return False, "runtime mode AUTOMATIC, Spark cannot tell whether the sources are " \
                      "bounded, so STREAMING"
    return False, "runtime mode AUTOMATIC, a source is unbounded, so STREAMING"


def _query_plan(settings: JobSettings, paced: Optional[Pacing], sink: SinkSpec, location: str,
                location_kind: str) -> QueryPlan:
    interval = settings.checkpoint_interval
    interval_ms = None if interval is None else values.to_millis(interval)
    fmt = sink_format(sink.writer)
    writer = sink.writer
    # Reading the plan costs a round trip per operator, so it is read here only when the
    # guarantee depends on it; otherwise when someone asks (a checkpoint to compare, the user).
    stateful: Union[bool, Callable[[], bool]] = functools.partial(is_stateful, writer)
    async_progress = False
    batch, reason = batch_reason(settings, sink)
    if batch:
        trigger = "AvailableNow ({}: processes the input available at start, then finishes)".format(
            reason)
        guarantee = "exactly-once (micro-batches until the available input is processed)"
        if interval_ms is None:
            guarantee = "none across runs: the temporary checkpoint is removed when the job ends"
        options = {"checkpointLocation": location}
        return QueryPlan(sink.name, trigger, interval_ms, location, location_kind, False, guarantee,
                         fmt, stateful, False, options, available_now=True,
                         latency="the whole input, then the job finishes",
                         durability="every micro-batch commits its offsets and state changes",
                         broadcast_partitions=sink.broadcast_partitions)
    if settings.runtime_mode == "AUTOMATIC":
        trigger_note = " ({})".format(reason)
    else:
        trigger_note = ""
    trigger_ms = None if paced is None else paced.interval_ms
    latency_ms: Optional[int] = 0
    report_every = None
    if paced is None:
        trigger = "ProcessingTime(0) (Spark's default: checkpointing is disabled)"
        guarantee = "none across runs: the temporary checkpoint is removed when the job ends"
        latency = "the batch's own time: a micro-batch starts as soon as input arrives"
        durability = "none across runs: the temporary checkpoint is removed when the job ends"
    elif sink.continuous:
        trigger_ms = interval_ms
        trigger = "Continuous({} ms)".format(interval_ms)
        guarantee = "at-least-once (continuous processing, opted in)"
        latency = "milliseconds: continuous processing moves records as they arrive"
        durability = "an epoch every {} ms".format(interval_ms)
    else:
        trigger, latency, durability = paced.trigger, paced.latency, paced.durability
        latency_ms, report_every = paced.latency_ms, paced.checkpoint_every_ms
        if settings.checkpointing_mode == "EXACTLY_ONCE":
            guarantee = "exactly-once (synchronous micro-batches)"
        else:
            stateful = is_stateful(writer)
            if stateful:
                guarantee = "exactly-once micro-batches (asynchronous progress tracking does not " \
                            "support stateful queries)"
            elif fmt not in _async_sinks():
                guarantee = "exactly-once micro-batches (sink '{}' does not support asynchronous " \
                            "progress tracking)".format(fmt)
            else:
                async_progress = True
                guarantee = "at-least-once (asynchronous progress tracking, checkpoint every {} " \
                            "ms)".format(interval_ms)
    options = {"checkpointLocation": location}
    if async_progress:
        options["asyncProgressTrackingEnabled"] = "true"
        options["asyncProgressTrackingCheckpointIntervalMs"] = str(interval_ms)
    return QueryPlan(sink.name, trigger + trigger_note, trigger_ms, location, location_kind,
                     async_progress, guarantee, fmt, stateful,
                     sink.continuous and interval_ms is not None, options,
                     latency=latency, durability=durability, latency_ms=latency_ms,
                     checkpoint_every_ms=report_every, broadcast_partitions=sink.broadcast_partitions)


def apply_query_plan(writer: Any, plan: QueryPlan) -> Any:
    """Give ``writer`` the query name, write options and trigger of ``plan``: everything applied
    here was decided by the plan. PySpark's ``trigger()`` takes no JVM trigger object, so the JVM
    writer behind it is configured directly, as PySpark itself does.

    :return: The same writer, ready to ``start()``.
    """
    j_writer = writer._jwrite.queryName(plan.name)
    trigger = java_class("org.apache.spark.sql.streaming.Trigger")
    if plan.available_now:
        j_writer = j_writer.trigger(trigger.AvailableNow())
    elif plan.interval_ms is not None:
        if plan.continuous:
            j_writer = j_writer.trigger(trigger.Continuous(plan.interval_ms))
        else:
            j_writer = j_writer.trigger(trigger.ProcessingTime(plan.interval_ms))
    for key, value in plan.write_options.items():
        j_writer = j_writer.option(key, value)
    writer._jwrite = j_writer
    return writer


def make_temporary_root(job_name: str) -> str:
    """A new local directory owned by one run of a job, for the checkpoint locations of queries
    whose checkpoints need not survive it, as a ``file:`` URI."""
    safe = "".join(c if c.isalnum() else "-" for c in job_name)[:40]
    return "file:" + tempfile.mkdtemp(prefix="{}{}-".format(_TEMPORARY_PREFIX, safe))


def remove_temporary_root(root: str) -> None:
    """Remove a directory made by :func:`make_temporary_root` (only a directory whose name
    shows it was made there is ever removed)."""
    local = root[len("file:"):] if root.startswith("file:") else root
    if os.path.basename(local).startswith(_TEMPORARY_PREFIX):
        shutil.rmtree(local, ignore_errors=True)


def plan_run(store: SettingsStore, job_name: str, sinks: Sequence[SinkSpec]) -> JobPlan:
    """The plan of a job about to run, with a new temporary root of the run's own.

    :raises RuntimeError: when the job has no sink.
    """
    if not sinks:
        raise RuntimeError("No sinks registered: add at least one with env.add_sink(writer) "
                           "before executing the job.")
    temporary_root = make_temporary_root(job_name)
    try:
        return build_plan(store, job_name, sinks, temporary_root)
    except BaseException:  # no run will remove it later
        remove_temporary_root(temporary_root)
        raise


def build_plan(store: SettingsStore, job_name: str, sinks: Sequence[SinkSpec], temporary_root: str) -> JobPlan:
    """The plan of a job from the environment's current settings, read afresh from its
    session conf (which is what the job's queries run with); the plan's Spark keys are then
    written to that conf."""
    store.refresh()
    raw = store.raw()
    plan = plan_job(job_name, store.snapshot(raw), list(raw), object_of(raw, "checkpoint-storage"),
                    object_of(raw, "state-backend"), sinks, temporary_root, store.text(SHUFFLE_PARTITIONS))
    store.sync_spark_conf(plan.spark_conf)
    if any(sink.keyed_state for sink in sinks):
        # Not derived from the settings alone (so not kept with them): written for this job.
        store.view.write({key: plan.spark_conf[key] for key in (PROVIDER_CLASS, ROCKSDB_CHANGELOG)
                          if plan.spark_conf.get(key) is not None})
    return plan


def _positive(text: Optional[str]) -> Optional[int]:
    if text is not None and text.strip().lstrip("-").isdigit() and int(text) > 0:
        return int(text)
    return None


def plan_job(
    job_name: str,
    settings: JobSettings,
    explicit_keys: Sequence[str],
    storage: Optional[Mapping[str, Any]],
    backend: Optional[Mapping[str, Any]],
    sinks: Sequence[SinkSpec],
    temporary_root: str,
    session_partitions: Optional[str] = None,
) -> JobPlan:
    """Decide how a job runs on Spark.

    :param job_name: The job's name.
    :param settings: The settings in force.
    :param explicit_keys: Flink keys that were set explicitly (the others are defaults).
    :param storage: The checkpoint storage record set through the API, if any.
    :param backend: The state backend record set through the API, if any.
    :param sinks: The sinks, in registration order.
    :param temporary_root: A job-owned directory URI for temporary checkpoint locations.
    :param session_partitions: The session's own ``spark.sql.shuffle.partitions``, if set
        (what the queries run with when the settings give no parallelism).
    """
    resolved = effective_storage(settings, storage)
    durable = settings.checkpoint_interval is not None and resolved.kind is not StorageKind.JOBMANAGER \
        and resolved.path is not None
    job_dir = None
    if durable:
        job_dir = "{}/{}".format(str(resolved.path).rstrip("/"), job_directory_name(job_name))
    paced = pacing(settings)
    queries: List[QueryPlan] = []
    for sink in sinks:
        if job_dir is not None:
            location = "{}/{}".format(job_dir, sink.name)
            queries.append(_query_plan(settings, paced, sink, location, DURABLE))
        else:
            location = "{}/{}".format(temporary_root.rstrip("/"), sink.name)
            queries.append(_query_plan(settings, paced, sink, location, TEMPORARY))
    explicit = set(explicit_keys)
    statuses = []
    for setting in SETTINGS:
        value = getattr(settings, setting.name)
        statuses.append(SettingStatus(setting, value, setting.key in explicit,
                                      setting.has_no_effect(value, settings)))
    limit = resolved.max_state_size if resolved.kind is StorageKind.JOBMANAGER else None
    keys = dict(session_keys(settings, resolved, backend, paced))
    if any(sink.keyed_state for sink in sinks) and keys.get(PROVIDER_CLASS) == HDFS_PROVIDER:
        # Spark's transformWithState keeps its state in the RocksDB store only.
        keys[PROVIDER_CLASS] = ROCKSDB_PROVIDER
        keys[ROCKSDB_CHANGELOG] = "false"
    partitions = keys.get(SHUFFLE_PARTITIONS) if SHUFFLE_PARTITIONS in keys else session_partitions
    missing = tuple(m for m in (missing_kafka_connector(q.name, q.sink_format) for q in queries) if m)
    return JobPlan(job_name, settings, resolved, keys,
                   tuple(queries), tuple(statuses), restart_policy_for(settings), job_dir,
                   limit, _split(settings.python_files), _split(settings.python_archives),
                   unread_keys(explicit_keys), _positive(partitions), temporary_root, missing)


def _split(text: Optional[str]) -> Tuple[str, ...]:
    return tuple(p for p in (text or "").split(",") if p)


#: Flink keys read elsewhere than the registry (the ExecutionConfig's), so not unknown.
_OTHER_KNOWN_PREFIXES = ("object.", "compat.", "pipeline.", "metrics.latency.", "task.cancellation.",
                         "execution.checkpointing.snapshot-compression", "table.", "python.")


def unread_keys(keys: Sequence[str]) -> Tuple[Tuple[str, Optional[str]], ...]:
    """The keys among ``keys`` no setting reads, each with the known key closest to it
    (``difflib``), when one is close enough to be a likely misspelling."""
    known = sorted({k for setting in SETTINGS for k in setting.all_keys})
    found = []
    for key in keys:
        if key in known or key.startswith(_OTHER_KNOWN_PREFIXES):
            continue
        import difflib  # imported only once a key no setting reads turns up

        close = difflib.get_close_matches(key, known, n=1, cutoff=0.85)
        found.append((key, close[0] if close else None))
    return tuple(found)


def no_effect_message(plan: JobPlan) -> Optional[str]:
    """The one warning a job gives at start for settings Spark does not honour, and for keys
    that look like misspelled Flink keys."""
    ignored = plan.ignored
    misspelled = ["'{}' (did you mean '{}'?)".format(k, g) for k, g in plan.unread_keys if g]
    if not ignored and not misspelled:
        return None
    parts = ["{}={}".format(s.setting.key, _show(s.setting, s.value)) for s in ignored]
    messages = []
    if parts:
        messages.append("Job '{}': these checkpoint settings are stored but have no Spark effect: "
                        "{}".format(plan.job_name, ", ".join(parts)))
    if misspelled:
        messages.append("Job '{}': unknown Flink keys, stored but not read: {}".format(
            plan.job_name, ", ".join(misspelled)))
    return "\n".join(messages)
