"""Restoring a job from a savepoint or checkpoint when it starts, rescaling its state.

:func:`prepare_restore` reads ``execution.state-recovery.*`` from the job's plan before any
query starts: it checks the source, the job's checkpoint locations and the sinks, and decides
per sink whether its saved state is rescaled to the partitions the plan asks for. It returns a
:class:`Restore` whose ``apply()`` fills the job's fresh checkpoint locations (copies, never
the source) before the queries start. The files are read and written through
:mod:`pyflink_compat.checkpoints`.

A deployment that keeps ``execution.state-recovery.path`` in its configuration starts every
run with the same restore path. The first run copies the source; a later run finds its own
checkpoints there and resumes them in place, as Flink resumes a restarted job from its latest
checkpoint, when the job marker proves they continue from that very source
(:func:`continues_from`): a run of this job created the directory while restoring from it, and
the query id in it is still the one recorded. A run given its path with ``pyflink-compat run
-s`` (the ``given`` path of :func:`prepare_restore`) is a rollback: it always restores from that
path, as ``flink run -s`` does, even when a crashed run left a checkpoint restored from it.

Any other checkpoint in a sink's place (left by a killed driver, retained by a cancel, or the
job's own checkpoint restored with ``NO_CLAIM``) is replaced: the restore always starts from
the source asked for, as Flink starts a restored job in a checkpoint directory of its own. The
replaced checkpoint is set aside unchanged by
:meth:`~pyflink_compat.spark.ownership.JobOwnership.set_aside` before the copy is made
(:attr:`Restore.replaced`), never deleted.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Dict, List, Optional, Tuple

import attrs

from pyflink_compat.checkpoints import CheckpointFileError, restore_query
from pyflink_compat.checkpoints.access import file_access_for, file_access_for_paths
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import ROCKSDB_PROVIDER, QueryCheckpoint, is_query_checkpoint
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, read_manifest
from pyflink_compat.checkpoints.restore import resolve_restore_source
from pyflink_compat.checkpoints.marker import MARKER_NAME, JobMarker
from pyflink_compat.checkpoints.savepoint import job_queries
from pyflink_compat.spark.plan import JobPlan, QueryPlan
from pyflink_compat.spark.query_introspection import sink_format, sink_path
from pyflink_compat.spark.translation import PROVIDER_CLASS
from pyflink_compat.util.exceptions import java_error

__all__ = [
    "Restore", "RestoreWarning", "continues_from", "prepare_restore", "rescale", "non_restored_state_message",
    "check_broadcast_partitions", "broadcast_seed", "write_pending_seed",
]

LOG = logging.getLogger("pyflink_compat.savepoints")

#: File sink formats whose output directory keeps its own batch log (``_spark_metadata``).
_FILE_SINKS = ("parquet", "json", "csv", "orc", "text", "avro", "delta")


#: Why a checkpoint in a sink's place is set aside when the run was given its restore path with
#: ``run -s``.
GIVEN_REASON = "the run was started with run -s, which always starts from the path it is given"


class RestoreWarning(UserWarning):
    """A restore does something the user may not expect: a restore setting read differently
    from Flink (``LEGACY``, ``CLAIM`` of a savepoint), or a sink that starts without state."""


def non_restored_state_message(source: str, sink: str) -> str:
    """Flink's ``IllegalStateException`` text for saved state that no operator takes
    (``Checkpoints.throwNonRestoredStateException``), with the sink in place of the operator,
    followed by the setting that allows it here (Flink names a command-line flag)."""
    return ("Failed to rollback to checkpoint/savepoint {}. Cannot map checkpoint/savepoint state "
            "for operator {} to the new program, because the operator is not available in the new "
            "program. If you want to allow to skip this, you can set the --allowNonRestoredState "
            "option on the CLI. With pyflink_compat, set execution.state-recovery.ignore-unclaimed-state "
            "to true in the job's configuration to start without the state of '{}'.".format(source, sink, sink))


def _no_saved_state_message(sink: str, source: str) -> str:
    return ("Sink '{}' has no saved state in {}: it starts empty and reads its source from the start "
            "(a file source reads every file already there; Kafka starts at its startingOffsets option). "
            "To start elsewhere, set the position on the PySpark reader: option('startingOffsets', ...) "
            "or option('startingTimestamp', ...) for Kafka, option('maxFileAge', ...) or "
            "option('latestFirst', 'true') for files.".format(sink, source))


def _claim_copied_message(source: str, savepoint: bool) -> str:
    what = ("a savepoint is never claimed: it belongs to the user, who disposes of it"
            if savepoint else "it is not this job's own checkpoint directory")
    return ("execution.state-recovery.claim-mode=CLAIM copies {} like NO_CLAIM: {}. CLAIM applies only to "
            "the job's own retained checkpoints (execution.state-recovery.path set to the job's "
            "checkpoint directory), which it then resumes in place.".format(source, what))


def continues_from(marker: Optional[JobMarker], sink: str, source: str,
                   query_id: Optional[str]) -> Optional[str]:
    """Why the job's existing checkpoint of ``sink`` is not provably a continuation of a restore
    from ``source``, or ``None`` when it is.

    It is when the job marker records that a run of this job created the sink's directory
    while restoring from ``source`` (``restored_from`` of the sink's record), and the directory
    still holds the query id recorded for it (a restored copy gets its ``metadata`` last, so a
    copy that was cut short has none).

    :param marker: The job marker (``None``: none).
    :param query_id: The query id in the checkpoint's ``metadata`` (``None``: no such file).
    """
    record = None if marker is None else marker.sinks.get(sink)
    if record is None or record.created_by is None:
        return "no run of this job created it"
    restored_from = record.restored_from
    if restored_from is None:
        return "the run of this job that created it did not restore from a savepoint or checkpoint"
    if restored_from != source:
        return "it continues from another restore, of {}".format(restored_from)
    if query_id is None:
        return "it has no metadata file (the restore that created it did not complete)"
    recorded = record.query_id
    if recorded is not None and recorded != query_id:
        return "its query id {} is not the one the job recorded ({})".format(query_id, recorded)
    return None


@attrs.frozen
class Restore:
    """A checked restore, ready to fill a job's checkpoint locations.

    :param source: The savepoint or checkpoint restored from (an absolute local path or a full
        URI).
    :param copies: ``(sink, saved query directory, new location, state partitions to rescale
        to or None)`` to copy.
    :param in_place: Whether the job resumes its own checkpoints (``CLAIM`` of its own dir).
    :param resumed: The sinks whose checkpoint an earlier run restored from :attr:`source`
        and that resume in place (nothing is copied for them).
    :param savepoint: Whether the source is a savepoint (else a retained checkpoint).
    :param replaced: The sinks whose checkpoint is in their place and does not continue from
        :attr:`source` (with why), set aside before the copies are made.
    :param broadcast_seeds: For the sinks whose broadcast state is restored at another number of
        state partitions: the saved copies to seed the new partitions with, as the value of
        :data:`~pyflink_compat.runtime.broadcast.SEED_PROPERTY` for their queries.
    """

    source: str
    copies: Tuple[Tuple[str, str, str, Optional[int]], ...]
    in_place: bool = False
    resumed: Tuple[str, ...] = ()
    savepoint: bool = False
    replaced: Tuple[Tuple[str, str], ...] = ()
    broadcast_seeds: Tuple[Tuple[str, str], ...] = ()

    def reading_from(self, moved: Dict[str, str]) -> "Restore":
        """This restore with its saved queries read from where :attr:`replaced` checkpoints
        moved (``moved``: new path by former path), for a source that was one of them."""
        def place(query_dir: str) -> str:
            for former, new in moved.items():
                former = former.rstrip("/")
                if query_dir.rstrip("/") == former or query_dir.startswith(former + "/"):
                    return new.rstrip("/") + query_dir.rstrip("/")[len(former):]
            return query_dir
        return attrs.evolve(self, copies=tuple((sink, place(query_dir), location, partitions)
                                               for sink, query_dir, location, partitions in self.copies))

    @property
    def copied(self) -> Tuple[str, ...]:
        """The sinks restored from a copy of their saved query."""
        return tuple(sink for sink, _, _, _ in self.copies)

    def saved_query(self, sink: str) -> Optional[str]:
        """The saved query directory a copied sink is restored from."""
        return next((query_dir for name, query_dir, _, _ in self.copies if name == sink), None)

    def apply(self, spark: Any) -> Dict[str, Any]:
        """Copy every restored query into its location, then rescale the copies that need it
        (never the source); nothing happens in place.

        :return: What was restored (:class:`~pyflink_compat.checkpoints.restore.RestoredQuery`),
            by sink.
        """
        done = {}
        made: List[str] = []
        seeds = dict(self.broadcast_seeds)
        try:
            for sink, query_dir, location, partitions in self.copies:
                fs, local = file_access_for(location)
                if not fs.exists(local):
                    made.append(local)
                done[sink] = restore_query(query_dir, location)
                if partitions is not None:
                    rescale(spark, sink, location, partitions)
                if sink in seeds:
                    write_pending_seed(location, seeds[sink])
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
    RocksDB); it adds one batch holding the repartitioned state.

    Spark repartitions only a checkpoint whose last planned batch committed. A batch planned
    but not committed when the savepoint was taken (a stop in the middle of it) is dropped from
    the copy first: the rescaled query plans its input again from the saved batch's offsets,
    so it reads the same records, perhaps cut into other batches.
    """
    _drop_planned_batch(sink, location)
    try:
        spark._streamingCheckpointManager.repartition(location, partitions)
    except Exception as e:  # reported with what was being done
        raise CheckpointFileError(location, "rescaling the restored state of sink '{}' to {} partitions failed "
                             "(the savepoint itself is unchanged): {}".format(sink, partitions, e)) from e
    LOG.info("Sink '%s': restored state rescaled to %d partitions", sink, partitions)


def _drop_planned_batch(sink: str, location: str) -> None:
    fs, local = file_access_for(location)
    checkpoint = QueryCheckpoint(fs, local)
    committed = checkpoint.latest_committed()
    for batch in checkpoint.log_batches("offsets"):
        if committed is not None and batch > committed:
            for name in (str(batch), "." + str(batch) + ".crc"):
                if fs.isfile(local + "/offsets/" + name):
                    fs.remove_file(local + "/offsets/" + name)
            LOG.info("Sink '%s': the planned batch %d of the restored copy is planned again after rescaling",
                     sink, batch)


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


def _is_savepoint(fs: FileAccess, path: str) -> bool:
    """Whether a restore source is a savepoint or one query of a savepoint."""
    return fs.isfile(path + "/" + MANIFEST_NAME) or fs.isfile(path.rpartition("/")[0] + "/" + MANIFEST_NAME)


def _saved_queries(fs: FileAccess, path: str) -> Dict[str, str]:
    """The saved query directories of a restore source, by sink name."""
    if not fs.exists(path):
        raise CheckpointFileError(path, "does not exist")
    if not fs.isdir(path):
        raise CheckpointFileError(path, "is not a directory")
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
    except CheckpointFileError:
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
        raise CheckpointFileError(checkpoint.root, "sink '{}' was saved with {} state partitions and the job asks for "
                             "parallelism {}, but {}.".format(sink, saved, target, why_not))
    LOG.warning("Sink '%s' keeps its %d saved state partitions (the session has %d shuffle partitions): %s",
                sink, saved, target, why_not)
    return None


def check_broadcast_partitions(query: QueryPlan, checkpoint: QueryCheckpoint, batch: Optional[int]) -> None:
    """Refuse to continue broadcast state at another number of state partitions without
    rescaling it (a checkpoint resumed in place, or a restore Spark cannot rescale).

    Each state partition keeps its copy of the broadcast state under a key of its own
    (:mod:`~pyflink_compat.runtime.broadcast`), chosen for the number of partitions: only a
    rescaled restore (:func:`broadcast_seed`) gives the new partitions their copies.
    """
    wanted, sink = query.broadcast_partitions, query.name
    if wanted is None:
        return
    saved = checkpoint.shuffle_partitions(checkpoint.pinned_conf(batch))
    if saved is None or saved == wanted:
        return
    raise CheckpointFileError(
        checkpoint.root, "sink '{}' keeps broadcast state (BroadcastConnectedStream.process), one copy per "
        "state partition under keys chosen for {} partitions, and the job would run it with {} without "
        "rescaling its state: restore it from a savepoint or retained checkpoint with "
        "execution.state-recovery.path (rescaled), or run it at parallelism {} "
        "(env.set_parallelism, or spark.sql.shuffle.partitions).".format(sink, saved, wanted, saved))


def broadcast_seed(spark: Any, query: QueryPlan, checkpoint: QueryCheckpoint, batch: int,
                   rescaled_to: Optional[int]) -> Optional[str]:
    """The saved broadcast state that the state partitions of a restored query start with,
    when it is restored at another number of partitions, or from a checkpoint or savepoint
    taken after such a restore but before its first batch seeded them (``None``: it keeps none,
    or nothing is to be seeded); see :mod:`~pyflink_compat.runtime.broadcast`.

    The copies of such a pending seed are those of its partitions, which are the ones
    restored at ``batch``: partition ``i`` of the new restore takes the copy of pending
    partition ``i`` modulo their number, as a restore of Flink's parallel instances does.

    :param rescaled_to: The number of partitions the restored state is rescaled to (``None``:
        it is not rescaled, then another number is refused).
    :raises CheckpointFileError: when the partitions differ and the state is not rescaled to the
        job's, or two broadcast functions of the query keep states of the same names.
    """
    from pyflink_compat.checkpoints.state_reader import read_broadcast_state
    from pyflink_compat.runtime.broadcast import read_seed, reserved_keys, saved_copies, seed_text, spread

    wanted = query.broadcast_partitions
    saved = checkpoint.shuffle_partitions(checkpoint.pinned_conf(batch))
    pending = checkpoint.pending_broadcast_seed(batch)
    if wanted is None or saved is None or (saved == wanted and pending is None):
        return None
    if saved != wanted and rescaled_to != wanted:
        check_broadcast_partitions(query, checkpoint, batch)
    stored_states = read_broadcast_state(checkpoint.root, batch, spark).values()
    # the reserved keys stored that the job's partitions do not use: each partition drops those
    # placed in it (a pending seed's state still has the keys of the partitions saved before it)
    used = set(reserved_keys(wanted))
    stale = sorted({key for stored in stored_states for entries in stored.values() for key in entries} - used)
    seeds: Dict[Tuple[str, ...], Any] = {}
    if pending is not None:
        copies, _ = read_seed(str(pending["seed"]))
        seeds = {names: spread(saved_copies_, int(pending["partitions"])) for names, saved_copies_ in copies.items()}
    else:
        for stored in stored_states:
            names = tuple(sorted(stored))
            if names in seeds:
                raise CheckpointFileError(
                    checkpoint.root, "sink '{}' has two broadcast functions keeping broadcast states named {}: "
                    "restore it at parallelism {}, or give their MapStateDescriptors different "
                    "names.".format(query.name, ", ".join(names), saved))
            seeds[names] = saved_copies(stored, saved)
    LOG.info("Sink '%s': the broadcast state of its %d saved partitions seeds its %d partitions",
             query.name, saved, wanted)
    return seed_text(seeds, stale) if seeds else None


def write_pending_seed(location: str, seed: str) -> None:
    """Record in a restored query's checkpoint the broadcast seed its partitions take in its
    first batch, at the batch restored and the partitions its state has now, so that a
    checkpoint or savepoint taken before that batch carries the seed on
    (:meth:`~pyflink_compat.checkpoints.layout.QueryCheckpoint.pending_broadcast_seed`)."""
    import json

    from pyflink_compat.checkpoints.layout import BROADCAST_SEED

    fs, local = file_access_for(location)
    checkpoint = QueryCheckpoint(fs, local)
    batch = checkpoint.latest_committed()
    partitions = checkpoint.shuffle_partitions(checkpoint.pinned_conf(batch))
    if batch is None or partitions is None:
        return
    record = {"batch": batch, "partitions": partitions, "seed": seed}
    fs.write_atomic(local.rstrip("/") + "/" + BROADCAST_SEED, json.dumps(record).encode("utf-8"))


def prepare_restore(plan: JobPlan, writers: Dict[str, Any], spark: Any = None,
                    marker: Optional[JobMarker] = None, given: Optional[str] = None) -> Optional[Restore]:
    """Check a job's restore settings before anything is written.

    Warnings are given with the stack level of a call from
    :func:`pyflink_compat.spark.start_checks.prepare_directories`.

    :param plan: The job's plan (its settings and checkpoint locations).
    :param writers: The sinks' ``DataStreamWriter`` by name (to guard file sinks).
    :param spark: The job's Spark session (whether this Spark can rescale state).
    :param marker: The job marker of the job directory, if any (whether the job's existing
        checkpoints continue from the restore source, see :func:`continues_from`).
    :param given: The restore path given to ``pyflink-compat run -s``, if any: when it is the
        restore source, the run restores from it whatever is in the sinks' places (no checkpoint
        continues it), as ``flink run -s`` always starts from the path it is given.
    :return: None without ``execution.state-recovery.path``.
    :raises CheckpointFileError: for a missing, damaged or unrecognised source, or a file sink whose
        output is ahead of the restored batch.
    :raises JavaIllegalStateError: with Flink's message for saved queries no sink takes.
    """
    settings = plan.settings
    raw_source = settings.state_recovery_path
    if raw_source is None or not str(raw_source).strip():
        return None
    mode = settings.state_recovery_claim_mode
    if mode == "LEGACY":
        _warn("execution.state-recovery.claim-mode=LEGACY is treated as NO_CLAIM: the job copies "
              "the snapshot and never changes or deletes it.")
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
    # run -s names the path to start from: nothing in the sinks' places continues it
    rollback = given is not None and given.strip().rstrip("/") == str(raw_source).strip().rstrip("/")
    chosen = [s for s in sinks if s in saved]
    own = [s for s in chosen if saved[s] == local_locations[s]]
    if own and mode == "CLAIM":
        if len(own) != len(chosen):
            raise CheckpointFileError(source, "only some of the restored queries are the job's own checkpoints ({}); "
                                 "CLAIM resumes the job's own checkpoints in place, all of them. Restore them "
                                 "with execution.state-recovery.claim-mode=NO_CLAIM (copied), or use a new "
                                 "job name.".format(", ".join(own)))
        return Restore(source, (), in_place=True)
    savepoint = _is_savepoint(fs, source)
    if mode == "CLAIM":
        _warn(_claim_copied_message(source, savepoint))
    copies: List[Tuple[str, str, str, Optional[int]]] = []
    resumed: List[str] = []
    # in a sink's place, a checkpoint that does not continue from the source (the source itself
    # too, under NO_CLAIM) is set aside unchanged; the copy is then read from where it went
    replaced: List[Tuple[str, str]] = []
    seeds: List[Tuple[str, str]] = []
    # the state partitions the job asks for: explicitly with a parallelism, else the session's
    target, explicit = plan.shuffle_partitions, plan.parallelism_set
    for sink in chosen:
        location = local_locations[sink]
        if _holds_checkpoint(fs, location):
            why = GIVEN_REASON if rollback else \
                continues_from(marker, sink, source, QueryCheckpoint(fs, location).query_id())
            if why is None:
                resumed.append(sink)
                # a run killed before its first batch after a rescaled restore has not yet
                # seeded every partition with the broadcast state: it seeds them again
                seed = _resumed_seed(spark, fs, plan, sink, saved[sink])
                if seed is not None:
                    seeds.append((sink, seed))
                continue
            replaced.append((sink, why))
        query_dir, _, _, batch = resolve_restore_source(fs, saved[sink])
        checkpoint = QueryCheckpoint(fs, query_dir)
        provider = checkpoint.state_store_provider(checkpoint.pinned_conf(batch)) if checkpoint.operators() else None
        wanted = plan.spark_conf.get(PROVIDER_CLASS)
        if provider and wanted and provider != wanted:
            raise CheckpointFileError(
                query_dir, "its state was written by the state store {} but the job is configured for {}: Spark "
                "cannot read one state store's files with the other. Restore it with the state backend it was "
                "taken with.".format(provider, wanted))
        ahead = _sink_log_ahead(writers.get(sink), batch)
        if ahead is not None:
            raise CheckpointFileError(query_dir, "cannot restore sink '{}': {}".format(sink, ahead))
        rescaled_to = _rescale_to(spark, sink, checkpoint, batch, provider, target, explicit)
        seed = broadcast_seed(spark, next(q for q in plan.queries if q.name == sink), checkpoint, batch, rescaled_to)
        if seed is not None:
            seeds.append((sink, seed))
        copies.append((sink, query_dir, locations[sink], rescaled_to))
    for sink in sinks:
        if sink not in saved and not _holds_checkpoint(fs, local_locations[sink]):
            _warn(_no_saved_state_message(sink, source))
    return Restore(source, tuple(copies), resumed=tuple(resumed), savepoint=savepoint, replaced=tuple(replaced),
                   broadcast_seeds=tuple(seeds))


def _resumed_seed(spark: Any, fs: FileAccess, plan: JobPlan, sink: str, saved_query: str) -> Optional[str]:
    """For a sink that resumes the checkpoint an earlier run restored from ``saved_query``: the
    broadcast seed of that restore, when it was rescaled (the partitions apply it only where
    no broadcast state is stored yet, so it is harmless once they were seeded)."""
    query = next(q for q in plan.queries if q.name == sink)
    if query.broadcast_partitions is None:
        return None
    query_dir, _, _, batch = resolve_restore_source(fs, saved_query)
    checkpoint = QueryCheckpoint(fs, query_dir)
    return broadcast_seed(spark, query, checkpoint, batch, query.broadcast_partitions)


def _holds_checkpoint(fs: FileAccess, location: str) -> bool:
    """Whether a checkpoint location is taken (anything there but an empty directory)."""
    return fs.exists(location) and (not fs.isdir(location) or bool(fs.listdir(location)))


def _warn(text: str) -> None:
    """A restore warning, logged and given as a :class:`RestoreWarning` at the stack level of
    the environment method that started the job."""
    warnings.warn(text, RestoreWarning, stacklevel=7)
    LOG.warning(text)
