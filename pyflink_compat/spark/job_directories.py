"""A job's checkpoint directories before its queries start.

:func:`prepare_directories` runs once per job start, before any query: it applies a restore,
checks that the job directory is this job's and that each sink's checkpoint fits its pipeline,
records the new run in the ownership marker (so that the directories the run creates are
provably the job's), and warns when a checkpoint pins a state store or a partition count other
than the one configured. Nothing is deleted here.

A sink whose checkpoint does not exist yet has nothing to be checked against, so its query's
plan is not read before it starts (a round trip per operator, on the way to the first batch):
the run records its pipeline's shape with :func:`record_new_shape` once the query has
committed, and a later run that finds no recorded shape records it then.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import attrs

from pyflink_compat.spark.ownership import CLAIM, NO_CLAIM, CheckpointError, JobOwnership
from pyflink_compat.spark.pipeline_shape import pipeline_shape
from pyflink_compat.spark.plan import DURABLE, JobPlan, QueryPlan, SinkSpec
from pyflink_compat.spark.rules import checkpoint_misfit, partitions_mismatch, state_store_mismatch
from pyflink_compat.spark.savepoints import prepare_restore
from pyflink_compat.spark.translation import PROVIDER_CLASS, SHUFFLE_PARTITIONS
from pyflink_compat.spark.watched_query import WatchedQuery

__all__ = ["PreparedDirectories", "StateStoreMismatchWarning", "prepare_directories", "record_new_shape"]

LOG = logging.getLogger("pyflink_compat.job")


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
    """

    dirs: Optional[JobOwnership] = None
    claim_mode: str = NO_CLAIM
    last_committed: Dict[str, int] = attrs.Factory(dict)
    mismatches: List[str] = attrs.Factory(list)
    unrecorded: Set[str] = attrs.Factory(set)


def prepare_directories(plan: JobPlan, queries: Sequence[Tuple[SinkSpec, QueryPlan]], spark: Any,
                        run_id: str) -> PreparedDirectories:
    """Prepare the checkpoint directories of a job about to start (see the module's text).

    Warnings are given with the stack level of a call from ``JobRun.start``, so that they
    point at the user's ``execute`` call.

    :raises CheckpointError: when a directory is another job's, a checkpoint does not fit its
        pipeline, or the storage cannot be read or written.
    """
    prepared = PreparedDirectories()
    restore = prepare_restore(plan, {sink.name: sink.writer for sink, _ in queries}, spark)
    durable = plan.durable_sinks
    if plan.job_dir is None or not durable:
        if restore is not None:
            restore.apply(spark)
        return prepared
    dirs = JobOwnership(spark, plan.job_dir, plan.job_name)
    dirs.check_owner()
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
        prepared.last_committed[name] = max(dirs.committed_batches(name), default=-1)
    if restore is not None and restore.in_place:
        prepared.claim_mode = CLAIM  # the job resumes its own checkpoints, claimed
    foreign = dirs.begin_run(run_id, shapes, prepared.claim_mode)
    prepared.dirs = dirs
    if restore is not None:
        # The restored copies land in directories this run created (NO_CLAIM: the savepoint
        # itself is never touched); the job has committed up to their batch.
        restore.apply(spark)
        for name in shapes:
            prepared.last_committed[name] = max(dirs.committed_batches(name), default=-1)
    for sink_name in foreign:
        LOG.warning("Query '%s' resumes from a checkpoint this job did not create; it will "
                    "never be deleted by the job.", sink_name)
    wanted = plan.spark_conf.get(PROVIDER_CLASS)
    partitions = plan.spark_conf.get(SHUFFLE_PARTITIONS)
    for sink_name in durable:
        if sink_name in prepared.unrecorded and restore is None:
            continue  # a new checkpoint pins nothing yet
        pinned = dirs.pinned_conf(sink_name)
        for text in (state_store_mismatch(sink_name, pinned.get(PROVIDER_CLASS), wanted),
                     partitions_mismatch(sink_name, pinned.get(SHUFFLE_PARTITIONS), partitions)):
            if text is not None:
                prepared.mismatches.append(text)
                warnings.warn(text, StateStoreMismatchWarning, stacklevel=4)
                LOG.warning(text)
    return prepared


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
