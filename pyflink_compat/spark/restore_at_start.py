"""Restoring a job from a savepoint or checkpoint when it starts, rescaling its state.

:func:`prepare_restore` reads ``execution.state-recovery.*`` from the job's plan before any
query starts: it checks the source, the job's checkpoint locations and the sinks, and decides
per sink whether its saved state is rescaled to the partitions the plan asks for. It returns a
:class:`Restore` whose ``apply()`` fills the job's fresh checkpoint locations (copies, never
the source) before the queries start. The files are read and written through
:mod:`pyflink_compat.checkpoints`.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Dict, List, Optional, Tuple

import attrs

from pyflink_compat.checkpoints import SavepointError, restore_query
from pyflink_compat.checkpoints.access import file_access_for, file_access_for_paths
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import ROCKSDB_PROVIDER, QueryCheckpoint, is_query_checkpoint
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, read_manifest
from pyflink_compat.checkpoints.restore import resolve_restore_source
from pyflink_compat.checkpoints.savepoint import MARKER_NAME, job_queries
from pyflink_compat.spark.plan import JobPlan
from pyflink_compat.spark.query_introspection import sink_format, sink_path
from pyflink_compat.spark.translation import PROVIDER_CLASS
from pyflink_compat.util.exceptions import java_error

__all__ = ["Restore", "RestoreWarning", "prepare_restore", "rescale", "non_restored_state_message"]

LOG = logging.getLogger("pyflink_compat.savepoints")

#: File sink formats whose output directory keeps its own batch log (``_spark_metadata``).
_FILE_SINKS = ("parquet", "json", "csv", "orc", "text", "avro", "delta")


class RestoreWarning(UserWarning):
    """A restore setting was read differently from Flink (``LEGACY`` claim mode)."""


def non_restored_state_message(source: str, sink: str) -> str:
    """Flink's ``IllegalStateException`` text for saved state that no operator takes
    (``Checkpoints.throwNonRestoredStateException``), with the sink in place of the operator."""
    return ("Failed to rollback to checkpoint/savepoint {}. Cannot map checkpoint/savepoint state "
            "for operator {} to the new program, because the operator is not available in the new "
            "program. If you want to allow to skip this, you can set the --allowNonRestoredState "
            "option on the CLI.".format(source, sink))


@attrs.frozen
class Restore:
    """A checked restore, ready to fill a job's checkpoint locations.

    :param source: The savepoint or checkpoint restored from (an absolute local path or a full
        URI).
    :param copies: ``(sink, saved query directory, new location, state partitions to rescale
        to or None)`` to copy.
    :param in_place: Whether the job resumes its own checkpoints (``CLAIM`` of its own dir).
    """

    source: str
    copies: Tuple[Tuple[str, str, str, Optional[int]], ...]
    in_place: bool = False

    def apply(self, spark: Any) -> Dict[str, Any]:
        """Copy every restored query into its location, then rescale the copies that need it
        (never the source); nothing happens in place."""
        done = {}
        made: List[str] = []
        try:
            for sink, query_dir, location, partitions in self.copies:
                fs, local = file_access_for(location)
                if not fs.exists(local):
                    made.append(local)
                done[sink] = restore_query(query_dir, location)
                LOG.info("Sink '%s' restored from %s at batch %d", sink, query_dir, done[sink].batch_id)
                if partitions is not None:
                    rescale(spark, sink, location, partitions)
        except BaseException:
            # the job does not start: remove the copies made just now, so that a new attempt
            # finds its checkpoint locations empty again (they did not exist before)
            for local in made:
                fs, _ = file_access_for(local)
                if fs.exists(local):
                    fs.remove_tree(local)
            raise
        return done


def rescale(spark: Any, sink: str, location: str, partitions: int) -> None:
    """Repartition the state of a restored copy with Spark's offline repartition (4.2+,
    RocksDB); it adds one batch holding the repartitioned state."""
    try:
        spark._streamingCheckpointManager.repartition(location, partitions)
    except Exception as e:  # reported with what was being done
        raise SavepointError(location, "rescaling the restored state of sink '{}' to {} partitions failed "
                             "(the savepoint itself is unchanged): {}".format(sink, partitions, e)) from e
    LOG.info("Sink '%s': restored state rescaled to %d partitions", sink, partitions)


def _can_rescale(spark: Any, provider: str) -> Optional[str]:
    """Why the state of a checkpoint written with ``provider`` cannot be rescaled here, if so
    (every reason that applies: Spark 3.5 with HDFS-backed state gets both)."""
    version = str(getattr(spark, "version", "0"))
    major_minor = tuple(int(p) for p in (version.split(".") + ["0"])[:2] if p.isdigit())
    reasons = []
    if major_minor < (4, 2) or not hasattr(spark, "_streamingCheckpointManager"):
        reasons.append("Spark 4.2 or later (this is Spark {})".format(version))
    if provider != ROCKSDB_PROVIDER:
        reasons.append("the RocksDB state backend (state.backend.type: rocksdb) when the savepoint was taken; "
                       "this state was written by {}".format(provider))
    return "rescaling state needs " + " and ".join(reasons) if reasons else None


def _saved_queries(fs: FileAccess, path: str) -> Dict[str, str]:
    """The saved query directories of a restore source, by sink name."""
    if not fs.exists(path):
        raise SavepointError(path, "does not exist")
    if not fs.isdir(path):
        raise SavepointError(path, "is not a directory")
    if fs.isfile(path + "/" + MANIFEST_NAME):
        manifest = read_manifest(fs, path)
        return {str(q["path"]): path + "/" + str(q["path"]) for q in manifest["queries"]}
    parent, _, base = path.rpartition("/")
    if fs.isfile(parent + "/" + MANIFEST_NAME) or is_query_checkpoint(fs, path):
        return {base: path}
    queries = dict(job_queries(fs, path))
    if not queries or not fs.isfile(path + "/" + MARKER_NAME):
        resolve_restore_source(fs, path)  # raises the precise reason
    return queries


def _sink_log_ahead(writer: Any, batch: int) -> Optional[str]:
    """For a file sink whose output log already holds batches past ``batch``: why it must not
    be restored into (Spark would skip those batches' new output)."""
    if sink_format(writer) not in _FILE_SINKS:
        return None
    path = sink_path(writer)
    if path is None:  # no readable path: nothing to compare
        return None
    try:
        fs, local = file_access_for(path)
    except SavepointError:
        return None
    log = local.rstrip("/") + "/_spark_metadata"
    if not fs.isdir(log):
        return None
    numbers = [int(n.split(".")[0]) for n in fs.listdir(log) if n.split(".")[0].isdigit()]
    if not numbers or max(numbers) <= batch:
        return None
    return ("the file sink's output directory {} already holds batches up to {}, past the restored "
            "batch {}: Spark would silently skip the new output of batches {}..{}. Write to a new "
            "output directory, or remove the newer batches of its _spark_metadata log and their "
            "files.".format(local, max(numbers), batch, batch + 1, max(numbers)))


def _rescale_to(spark: Any, sink: str, checkpoint: QueryCheckpoint, batch: int, provider: Optional[str],
                target: Optional[int], explicit: bool) -> Optional[int]:
    saved = checkpoint.shuffle_partitions(checkpoint.pinned_conf(batch))
    if provider is None or target is None or saved is None or saved == target:
        return None
    why_not = _can_rescale(spark, provider)
    if why_not is None:
        return target
    if explicit:
        raise SavepointError(checkpoint.root, "sink '{}' was saved with {} state partitions and the job asks for "
                             "parallelism {}, but {}.".format(sink, saved, target, why_not))
    LOG.warning("Sink '%s' keeps its %d saved state partitions (the session has %d shuffle partitions): %s",
                sink, saved, target, why_not)
    return None


def prepare_restore(plan: JobPlan, writers: Dict[str, Any], spark: Any = None) -> Optional[Restore]:
    """Check a job's restore settings before anything is written.

    :param plan: The job's plan (its settings and checkpoint locations).
    :param writers: The sinks' ``DataStreamWriter`` by name (to guard file sinks).
    :param spark: The job's Spark session (whether this Spark can rescale state).
    :return: None without ``execution.state-recovery.path``.
    :raises SavepointError: for a missing, damaged or unrecognised source, a non-empty
        checkpoint location, or a file sink whose output is ahead of the restored batch.
    :raises JavaIllegalStateError: with Flink's message for saved queries no sink takes.
    """
    settings = plan.settings
    raw_source = settings.state_recovery_path
    if raw_source is None or not str(raw_source).strip():
        return None
    mode = settings.state_recovery_claim_mode
    if mode == "LEGACY":
        text = ("execution.state-recovery.claim-mode=LEGACY is treated as NO_CLAIM: the job copies "
                "the snapshot and never changes or deletes it.")
        warnings.warn(text, RestoreWarning, stacklevel=6)
        LOG.warning(text)
    sinks = [q.name for q in plan.queries]
    locations = {q.name: q.checkpoint_location for q in plan.queries}
    # one access for the source and every location: they may be on different file systems
    fs, paths = file_access_for_paths(str(raw_source), *(locations[s] for s in sinks))
    source, local_locations = paths[0], dict(zip(sinks, paths[1:]))
    saved = _saved_queries(fs, source)
    dropped = sorted(s for s in saved if s not in sinks)
    if dropped and not settings.state_recovery_ignore_unclaimed_state:
        raise java_error("java.lang.IllegalStateException", non_restored_state_message(source, dropped[0]),
                         "StreamExecutionEnvironment.execute")
    for sink in dropped:
        LOG.warning("Skipping the saved state of '%s' from %s: the job has no such sink "
                    "(ignore-unclaimed-state)", sink, source)
    chosen = [s for s in sinks if s in saved]
    own = [s for s in chosen if saved[s] == local_locations[s]]
    if own:
        if mode != "CLAIM" or len(own) != len(chosen):
            raise SavepointError(source, "these are the job's own checkpoints ({}); restoring them with "
                                 "claim mode {} would copy them onto themselves. Resume them in place with "
                                 "execution.state-recovery.claim-mode=CLAIM, or use a new job name."
                                 .format(", ".join(own), mode))
        return Restore(source, (), in_place=True)
    copies: List[Tuple[str, str, str, Optional[int]]] = []
    # the state partitions the job asks for: explicitly with a parallelism, else the session's
    target, explicit = plan.shuffle_partitions, plan.parallelism_set
    for sink in chosen:
        location = local_locations[sink]
        if fs.exists(location) and (not fs.isdir(location) or fs.listdir(location)):
            raise SavepointError(location, "the job already has a checkpoint for sink '{}'. A job restored "
                                 "from a savepoint or checkpoint starts in fresh checkpoint directories: give "
                                 "it a new job name (or checkpoint directory), or remove the old checkpoints "
                                 "first.".format(sink))
        query_dir, _, _, batch = resolve_restore_source(fs, saved[sink])
        checkpoint = QueryCheckpoint(fs, query_dir)
        provider = checkpoint.state_store_provider(checkpoint.pinned_conf(batch)) if checkpoint.operators() else None
        wanted = plan.spark_conf.get(PROVIDER_CLASS)
        if provider and wanted and provider != wanted:
            raise SavepointError(query_dir, "its state was written by the state store {} but the job is configured "
                                 "for {}: Spark cannot read one state store's files with the other. Restore it "
                                 "with the state backend it was taken with.".format(provider, wanted))
        ahead = _sink_log_ahead(writers.get(sink), batch)
        if ahead is not None:
            raise SavepointError(query_dir, "cannot restore sink '{}': {}".format(sink, ahead))
        copies.append((sink, query_dir, locations[sink],
                       _rescale_to(spark, sink, checkpoint, batch, provider, target, explicit)))
    for sink in sinks:
        if sink not in saved:
            LOG.info("Sink '%s' has no saved state in %s: it starts empty", sink, source)
    return Restore(source, tuple(copies))
