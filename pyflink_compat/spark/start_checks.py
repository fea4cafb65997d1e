"""The checks a job passes before its first query starts, and the warnings it gives then.

:func:`check_before_start` runs once per job start, before any query:

* it refuses a job whose plan names a connector missing from the class path (Spark's Kafka
  connector for a query writing to Kafka), with the package to add, rather than let Spark
  fail the query with its own error;
* it refuses settings that can never work on Spark (:func:`impossible_settings`): a state
  store provider or checkpoint file manager is a JVM class Spark loads when a query starts,
  and a name it cannot load (a typo such as ``state.backend.type: rocks-db``, or a custom
  class missing from the class path) would fail every start while a restart strategy retried
  forever;
* it refuses a second run of a job name whose job runs on the same checkpoint directory (its
  registry record says so and its driver is alive), before any file is touched: the two runs
  would share, and at their end delete, each other's checkpoints;
* it prepares the job's checkpoint directories (:func:`prepare_directories`): it applies a
  restore, checks that the job directory is this job's and that each sink's checkpoint fits
  its pipeline, records the new run in the ownership marker (so that the directories the run
  creates are provably the job's, and those it restores provably continue from its restore
  path), sets aside, unchanged, a checkpoint a restore replaces, warns when a checkpoint pins
  a state store or a partition count other than the one configured, and says what each sink
  starts from (:func:`starting_points`). Nothing is deleted here;
* it warns once about settings in force that have no Spark effect, and about keys that look
  like misspelled Flink keys (:class:`NoSparkEffectWarning`).

A sink whose checkpoint does not exist yet has nothing to be checked against, so its query's
plan is not read before it starts (a round trip per operator, on the way to the first batch):
the run records its pipeline's shape with :func:`record_new_shape` once the query has
committed, and a later run that finds no recorded shape records it then.

The warnings are given with the stack level of the environment method that started the job
(``execute_async``), through :func:`pyflink_compat.spark.supervisor.start_job`.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import attrs

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.settings.registry import HEAP_BACKENDS, ROCKSDB_BACKENDS, StorageKind
from pyflink_compat.spark.job_presence import GIVEN_RESTORE_CONF
from pyflink_compat.spark.job_registry import JobRegistry, running_namesake
from pyflink_compat.spark.ownership import CLAIM, NO_CLAIM, CheckpointError, JobOwnership
from pyflink_compat.spark.pipeline_shape import pipeline_shape
from pyflink_compat.spark.pacing import latency_warning
from pyflink_compat.spark.plan import DURABLE, JobPlan, QueryPlan, SinkSpec, no_effect_message
from pyflink_compat.spark.restore_at_start import (
    Restore, broadcast_seed, check_broadcast_partitions, prepare_restore)
from pyflink_compat.spark.rules import (
    checkpoint_misfit, partitions_mismatch, state_store_mismatch, unloadable_class)
from pyflink_compat.spark.translation import (
    FILE_MANAGER_CLASS, HDFS_PROVIDER, PROVIDER_CLASS, ROCKSDB_PROVIDER, SHUFFLE_PARTITIONS)
from pyflink_compat.spark.watched_query import WatchedQuery
from pyflink_compat.util.exceptions import job_start_failure
from pyflink_compat.util.java_classes import class_loadable

__all__ = [
    "NoSparkEffectWarning", "PreparedDirectories", "StateStoreMismatchWarning", "check_before_start",
    "impossible_settings", "prepare_directories", "record_new_shape", "starting_points",
]

LOG = logging.getLogger("pyflink_compat.job")


class NoSparkEffectWarning(UserWarning):
    """Settings in force for a job that Spark does not honour."""


class StateStoreMismatchWarning(UserWarning):
    """A query resumes from a checkpoint written with another state store than configured."""


@attrs.define
class PreparedDirectories:
    """What a job start found and decided about its checkpoint directories.

    :param dirs: The job's directories (``None``: no durable sink, or no job directory).
    :param claim_mode: ``CLAIM`` when the job resumes its own checkpoints in place, else
        ``NO_CLAIM``.
    :param last_committed: Per durable sink, the newest batch its checkpoint has committed
        (``-1``: none).
    :param mismatches: The state store and partition warnings given.
    :param unrecorded: The durable sinks whose checkpoint the run creates, so whose pipeline
        shape is recorded once they have committed (:func:`record_new_shape`).
    :param starting_points: What each sink starts from, one line each for the job log
        (:func:`starting_points`).
    :param broadcast_seeds: Per sink whose broadcast state was restored at another number of
        state partitions, the saved state its query's tasks seed the new partitions with
        (:attr:`~pyflink_compat.spark.restore_at_start.Restore.broadcast_seeds`).
    """

    dirs: Optional[JobOwnership] = None
    claim_mode: str = NO_CLAIM
    last_committed: Dict[str, int] = attrs.Factory(dict)
    mismatches: List[str] = attrs.Factory(list)
    unrecorded: Set[str] = attrs.Factory(set)
    starting_points: List[str] = attrs.Factory(list)
    broadcast_seeds: Dict[str, str] = attrs.Factory(dict)


def _already_running(plan: JobPlan, spark: Any) -> Optional[str]:
    """Why the job may not start because a job of its name runs on its checkpoint directory, or
    ``None``. Two runs in one directory would share, and at their end delete, each other's
    checkpoints, so the second is refused before it touches any file."""
    if plan.job_dir is None or plan.storage.path is None:
        return None
    try:
        records = JobRegistry(str(plan.storage.path), spark).records()
    except (OSError, CheckpointFileError):  # an unreadable registry is reported when the job records itself
        return None
    running = running_namesake(records, plan.job_name, plan.job_dir)
    if running is None:
        return None
    return ("a job of this name is already running on its checkpoint directory {} (job id {}, driver process {} "
            "on {}, status {}); a second run would share its checkpoints, so nothing was started and no file "
            "was touched. Stop or cancel it first (pyflink-compat stop {} / cancel {}), or run this one under "
            "another job name".format(plan.job_dir, running.job_id, running.pid, running.host, running.status,
                                      running.job_id, running.job_id))


def check_before_start(plan: JobPlan, queries: Sequence[Tuple[SinkSpec, QueryPlan]], spark: Any,
                       run_id: str) -> PreparedDirectories:
    """Check what can be checked before a job's queries start (see the module's text).

    Warnings are given with the stack level of a call from ``JobRun.start``.

    :param plan: The job's plan.
    :param queries: Each sink with its query's plan.
    :param spark: The job's Spark session.
    :param run_id: The id the ownership marker records for this run.
    :raises JobExecutionError: when the job cannot run (nothing was started or deleted).
    """
    problem = impossible_settings(plan)
    if problem is None and plan.missing_connectors:
        problem = "; ".join(plan.missing_connectors)
    if problem is None:
        problem = _already_running(plan, spark)
    if problem is not None:
        raise job_start_failure(plan.job_name, problem)
    try:
        prepared = prepare_directories(plan, queries, spark, run_id)
    except CheckpointError as e:
        raise job_start_failure(plan.job_name, str(e), e) from None
    message = no_effect_message(plan)
    if message is not None:
        warnings.warn(message, NoSparkEffectWarning, stacklevel=4)
        LOG.warning(message)
    slow = latency_warning(plan.job_name, plan.settings,
                           {q.name: q.latency_ms for q in plan.queries if not q.available_now})
    if slow is not None:
        LOG.warning(slow)
    return prepared


def impossible_settings(plan: JobPlan) -> Optional[str]:
    """Why the settings of ``plan`` cannot run on Spark, or ``None``."""
    provider = plan.spark_conf.get(PROVIDER_CLASS)
    if provider is not None and provider not in (HDFS_PROVIDER, ROCKSDB_PROVIDER):
        problem = unloadable_class("state.backend.type (or the state backend's class)", provider,
                                   HEAP_BACKENDS + ROCKSDB_BACKENDS, class_loadable(provider))
        if problem is not None:
            return problem
    manager = plan.spark_conf.get(FILE_MANAGER_CLASS)
    if manager is not None:
        return unloadable_class("execution.checkpointing.storage (or the checkpoint storage's class)",
                                manager, (StorageKind.JOBMANAGER.value, StorageKind.FILESYSTEM.value),
                                class_loadable(manager))
    return None


def prepare_directories(plan: JobPlan, queries: Sequence[Tuple[SinkSpec, QueryPlan]], spark: Any,
                        run_id: str) -> PreparedDirectories:
    """Prepare the checkpoint directories of a job about to start (see the module's text).

    Warnings are given with the stack level of a call from :func:`check_before_start`.

    :raises CheckpointError: when a directory is another job's, a checkpoint does not fit its
        pipeline, or the storage cannot be read or written.
    """
    prepared = PreparedDirectories()
    writers = {sink.name: sink.writer for sink, _ in queries}
    durable = plan.durable_sinks
    if plan.job_dir is None or not durable:
        restore = prepare_restore(plan, writers, spark)
        prepared.broadcast_seeds = dict(restore.broadcast_seeds) if restore else {}
        prepared.starting_points = starting_points(plan, restore, restore.apply(spark) if restore else {}, prepared)
        return prepared
    dirs = JobOwnership(spark, plan.job_dir, plan.job_name)
    restore = prepare_restore(plan, writers, spark, dirs.check_owner(), _given_restore_path(spark))
    prepared.broadcast_seeds = dict(restore.broadcast_seeds) if restore else {}
    if restore is not None and restore.replaced:
        # a restore always starts from its source: what is in its way is moved aside, never deleted
        restore = restore.reading_from(dirs.set_aside([name for name, _ in restore.replaced], run_id))
        for name, why in restore.replaced:
            LOG.info("Job '%s': sink '%s' did not continue from %s (%s)", plan.job_name, name, restore.source, why)
    shapes: Dict[str, Optional[Mapping[str, Any]]] = {}
    for sink, query_plan in queries:
        if query_plan.location_kind != DURABLE:
            continue
        name = sink.name
        if not dirs.exists(name):  # a checkpoint the run creates: nothing to compare yet
            shapes[name] = None
            prepared.unrecorded.add(name)
            prepared.last_committed[name] = -1
            continue
        shape = shapes[name] = pipeline_shape(sink.writer, query_plan)
        dirs.validate(name)
        misfit = checkpoint_misfit(dirs.location(name), dirs.recorded_pipeline(name), shape,
                                   dirs.source_count(name), dirs.state_operators(name))
        if misfit is not None:
            raise CheckpointError(misfit)
        if query_plan.broadcast_partitions is not None and name not in (restore.copied if restore else ()):
            from pyflink_compat.checkpoints.access import file_access_for
            from pyflink_compat.checkpoints.layout import QueryCheckpoint

            fs, local = file_access_for(dirs.location(name))
            checkpoint = QueryCheckpoint(fs, local)
            check_broadcast_partitions(query_plan, checkpoint, None)
            latest = checkpoint.latest_committed()
            # resumed before the first batch after a rescaled restore: its partitions are not seeded yet
            if name not in prepared.broadcast_seeds and latest is not None \
                    and checkpoint.pending_broadcast_seed(latest) is not None:
                seed = broadcast_seed(spark, query_plan, checkpoint, latest, None)
                if seed is not None:
                    prepared.broadcast_seeds[name] = seed
        prepared.last_committed[name] = max(dirs.committed_batches(name), default=-1)
    if restore is not None and restore.in_place:
        prepared.claim_mode = CLAIM  # the job resumes its own checkpoints, claimed
    foreign = dirs.begin_run(run_id, shapes, prepared.claim_mode,
                             restore_source=None if restore is None else restore.source,
                             restored_sinks=() if restore is None else restore.copied,
                             replaced=() if restore is None else [name for name, _ in restore.replaced])
    prepared.dirs = dirs
    restored: Dict[str, Any] = {}
    if restore is not None:
        # The restored copies land in directories this run created (NO_CLAIM: the savepoint
        # itself is never touched); the job has committed up to their batch.
        restored = restore.apply(spark)
        for name in shapes:
            prepared.last_committed[name] = max(dirs.committed_batches(name), default=-1)
    for sink_name in foreign:
        LOG.warning("Query '%s' resumes from a checkpoint this job did not create; it will "
                    "never be deleted by the job.", sink_name)
    wanted = plan.spark_conf.get(PROVIDER_CLASS)
    partitions = plan.spark_conf.get(SHUFFLE_PARTITIONS)
    for sink_name in durable:
        if sink_name in prepared.unrecorded and sink_name not in restored:
            continue  # a new checkpoint pins nothing yet
        pinned = dirs.pinned_conf(sink_name)
        for text in (state_store_mismatch(sink_name, pinned.get(PROVIDER_CLASS), wanted),
                     partitions_mismatch(sink_name, pinned.get(SHUFFLE_PARTITIONS), partitions)):
            if text is not None:
                prepared.mismatches.append(text)
                warnings.warn(text, StateStoreMismatchWarning, stacklevel=5)
                LOG.warning(text)
    prepared.starting_points = starting_points(plan, restore, restored, prepared)
    return prepared


def _given_restore_path(spark: Any) -> Optional[str]:
    """The restore path ``pyflink-compat run -s`` gave the application, if any."""
    try:
        given = spark.sparkContext.getConf().get(GIVEN_RESTORE_CONF, None)
    except Exception as e:  # no Spark context to ask: no path was given
        LOG.debug("Reading %s: %s", GIVEN_RESTORE_CONF, e)
        return None
    return None if given is None else str(given)


def starting_points(plan: JobPlan, restore: Optional[Restore], restored: Mapping[str, Any],
                    prepared: PreparedDirectories) -> List[str]:
    """What each sink of a run starts from, one line per sink: the savepoint or checkpoint it
    was restored from and the batch, the checkpoint it resumes and its newest committed batch,
    or that it starts fresh.

    :param restore: The run's restore (``None``: no ``execution.state-recovery.path``).
    :param restored: What :meth:`Restore.apply` restored, by sink.
    :param prepared: The directories as prepared so far (the newest committed batches).
    """
    lines = []
    kind = "savepoint" if restore is not None and restore.savepoint else "checkpoint"
    for query in plan.queries:
        name = query.name
        if name in restored:
            text = "restored from {} {} at batch {}".format(
                kind, restore.saved_query(name) if restore is not None else "", restored[name].batch_id)
        elif query.location_kind != DURABLE or name in prepared.unrecorded:
            text = "starts fresh (checkpoint location {})".format(query.checkpoint_location)
        else:
            batch = prepared.last_committed.get(name, -1)
            text = "resumes its checkpoint {} {}".format(
                query.checkpoint_location,
                "after batch {}".format(batch) if batch >= 0 else "(no committed batch yet)")
            if restore is not None and restore.in_place:
                text += " in place (claimed: execution.state-recovery.claim-mode=CLAIM)"
            elif restore is not None and name in restore.resumed:
                text += ", which an earlier run of this job restored from {} {}: it continues from there".format(
                    kind, restore.source)
        lines.append("Job '{}': sink '{}' {}".format(plan.job_name, name, text))
    return lines


def record_new_shape(dirs: JobOwnership, query: WatchedQuery) -> Optional[CheckpointError]:
    """Record the pipeline shape of a checkpoint the run created, once its query has committed
    (its plan is read only if the marker still lacks the shape).

    :return: The error when the marker cannot be read or written (returned, not raised).
    """
    if not query.shape_unrecorded:
        return None
    query.shape_unrecorded = False
    try:
        dirs.record_pipeline(query.sink.name, lambda: pipeline_shape(query.sink.writer, query.plan))
    except CheckpointError as e:
        return e
    return None
