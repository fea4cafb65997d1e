"""Restoring one query from a savepoint or a retained checkpoint into a fresh location.

A Spark query started with the fresh location as its ``checkpointLocation`` resumes after the
saved batch ``N``: it re-runs a planned batch ``N + 1`` when the savepoint kept one, and
otherwise plans batch ``N + 1`` from the saved source positions.

Files are copied, never linked. A hard link would survive Spark's own use of the new location
(Spark renames new files over old names and deletes old ones, which leaves the other name of a
link alone), but it would tie the savepoint's content to every writer of the new location:
RocksDB uploads go through Hadoop's ``copyFromLocalFile`` with overwrite, which would truncate
and rewrite a linked file in place if a name ever repeated, and so would any tool run on the
restored checkpoint. Copying guarantees the savepoint never changes, at a cost proportional to
the saved state (which is bounded by a snapshot plus its changelogs).

The restored checkpoint gets a fresh query id by default, so that several restores of one
savepoint can run at the same time (Spark refuses two active queries with the same id).
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any, Dict, List, Optional, Tuple

import attrs

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.access import file_access_for_paths
from pyflink_compat.checkpoints.crc import crc_name
from pyflink_compat.checkpoints.file_access import FileAccess, local_path
from pyflink_compat.checkpoints.layout import (
    MARKER_NAME, METADATA, QueryCheckpoint, is_query_checkpoint, query_problems)
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, check_files, read_manifest
from pyflink_compat.checkpoints.marker import recorded_stateful
from pyflink_compat.checkpoints.savepoint import is_incomplete_savepoint, job_queries

__all__ = ["RestoredQuery", "restore_query", "restore_job", "resolve_restore_source"]


@attrs.frozen
class RestoredQuery:
    """What :func:`restore_query` did.

    :param location: The new checkpoint location.
    :param batch_id: The committed batch the query resumes after.
    :param files: How many files were copied.
    :param bytes: How many bytes were copied.
    :param query_id: The query id written into the new location.
    """

    location: str
    batch_id: int
    files: int
    bytes: int
    query_id: Optional[str]


def _pick(path: str, names: List[str], sink: Optional[str]) -> str:
    if sink is not None:
        if sink not in names:
            raise CheckpointFileError(path, "has no query for sink '{}' (it has: {})".format(sink, ", ".join(names)))
        return sink
    if len(names) != 1:
        raise CheckpointFileError(path, "holds several queries ({}): name the sink to restore".format(", ".join(names)))
    return names[0]


def resolve_restore_source(fs: FileAccess, path: str, sink: Optional[str] = None
                           ) -> Tuple[str, List[str], Optional[Dict[str, Any]], int]:
    """Find the query to restore and validate its files.

    :return: The query directory, the relative files to copy, the manifest's query entry (None
             for a retained checkpoint) and the batch id.
    :raises CheckpointFileError: naming the missing or corrupt files, or why ``path`` is neither.
    """
    if not fs.exists(path):
        raise CheckpointFileError(path, "does not exist")
    if not fs.isdir(path):
        raise CheckpointFileError(path, "is not a directory")
    parent, _, base = path.rpartition("/")
    manifest_dir: Optional[str] = None
    query_name: Optional[str] = None
    if fs.isfile(path + "/" + MANIFEST_NAME):
        manifest_dir = path
    elif fs.isfile(parent + "/" + MANIFEST_NAME):
        manifest_dir, query_name = parent, base
    for candidate in (path, parent):
        if manifest_dir is None and is_incomplete_savepoint(fs, candidate):
            raise CheckpointFileError(candidate, "no {} manifest: an incomplete savepoint, which is never "
                                 "restored".format(MANIFEST_NAME))
    if manifest_dir is not None:
        manifest = read_manifest(fs, manifest_dir)
        queries = {str(q["path"]): q for q in manifest["queries"]}
        chosen = _pick(manifest_dir, sorted(queries), sink if query_name is None else query_name)
        query = queries[chosen]
        problems = check_files(fs, manifest_dir, query)
        if problems:
            raise CheckpointFileError(manifest_dir, "the savepoint is damaged: " + "; ".join(problems))
        return manifest_dir + "/" + chosen, [str(f["path"]) for f in query["files"]], query, int(query["batch_id"])
    stateful: Optional[bool] = None
    if is_query_checkpoint(fs, path):
        query_dir = path
        if fs.isfile(parent + "/" + MARKER_NAME):
            stateful = recorded_stateful(fs, parent).get(base)
    else:
        queries = dict(job_queries(fs, path))
        if not queries:
            raise CheckpointFileError(path, "neither a savepoint (no _metadata manifest) nor a Spark query checkpoint "
                                 "nor a job directory")
        if not fs.isfile(path + "/" + MARKER_NAME):
            raise CheckpointFileError(path, "holds query checkpoints but neither a {} savepoint manifest nor a job "
                                 "marker: restore one of its query checkpoints by its own path".format(MANIFEST_NAME))
        chosen = _pick(path, sorted(queries), sink)
        query_dir = queries[chosen]
        stateful = recorded_stateful(fs, path).get(chosen)
    problems, files, batch = query_problems(fs, query_dir, stateful)
    if batch is None:
        raise CheckpointFileError(query_dir, "the checkpoint has no committed batch to restore")
    if problems:
        raise CheckpointFileError(query_dir, "the checkpoint cannot be restored: " + "; ".join(problems))
    return query_dir, files, None, batch  # the files of the batch that was checked


_OPERATOR_METADATA_V2 = re.compile(r"state/\d+/_metadata/v2/\d+")
_SCHEMA_FILE_PATH = re.compile(r"^(.*?)(/state/\d+/_stateSchema/.+)$")


def _location_uri(location: str, target: str) -> str:
    """The checkpoint location as Spark spells it in file paths (``file:/...`` when local)."""
    return "file:" + target if local_path(location) is not None else location.rstrip("/")


def _rewrite_schema_paths(fs: FileAccess, query_dir: str, files: List[str], location_uri: str) -> Dict[str, bytes]:
    """New contents for the operator metadata files that name state schema files by absolute
    path, pointing them into the new location.

    transformWithState on Spark 4 records the absolute path of its state schema files in its
    operator metadata (``state/<op>/_metadata/v2/<batch>``); a copy elsewhere fails to start
    (or reads the schema of the old location while that still exists) unless they are
    rewritten. The schema files themselves are among the copied files.

    :raises CheckpointFileError: when a path does not lie under ``state/<op>/_stateSchema/`` or the
                            file is not operator metadata Spark can have written.
    """
    rewritten: Dict[str, bytes] = {}
    for rel in files:
        if not _OPERATOR_METADATA_V2.fullmatch(rel):
            continue
        path = query_dir + "/" + rel
        lines = fs.read_bytes(path).decode("utf-8", "replace").split("\n")
        try:
            meta = json.loads(lines[1])
            infos = meta.get("stateStoreInfo", [])
        except (ValueError, IndexError, AttributeError):
            raise CheckpointFileError(path, "the operator metadata is not readable") from None
        changed = False
        for info in infos:
            paths = info.get("stateSchemaFilePaths") if isinstance(info, dict) else None
            if not isinstance(paths, list):
                continue
            moved = []
            for old in paths:
                match = _SCHEMA_FILE_PATH.match(str(old))
                if match is None:
                    raise CheckpointFileError(path, "the state schema file {} lies outside the checkpoint's state "
                                         "directory; it cannot be moved with the checkpoint".format(old))
                moved.append(location_uri + match.group(2))
            changed = changed or moved != paths
            info["stateSchemaFilePaths"] = moved
        if changed:
            lines[1] = json.dumps(meta, separators=(",", ":"))
            rewritten[rel] = "\n".join(lines).encode("utf-8")
    return rewritten


def _crc_of(rel: str) -> str:
    head, _, name = rel.rpartition("/")
    return (head + "/" if head else "") + crc_name(name)


def restore_query(source: str, fresh_checkpoint_location: str, sink: Optional[str] = None,
                  new_query_id: bool = True) -> RestoredQuery:
    """Prepare a fresh checkpoint location from which a Spark query resumes after batch N.

    :param source: A savepoint directory (with ``sink`` when it holds several queries), one
                   query's directory inside a savepoint, a retained query checkpoint, or a job
                   directory holding query checkpoints.
    :param fresh_checkpoint_location: Where to create the checkpoint; missing or empty.
    :param sink: Which query to restore from a savepoint or job directory with several.
    :param new_query_id: Give the restored query a new query id (the default), so that it can
                         run next to other restores of the same savepoint.
    :raises CheckpointFileError: when the source is not a savepoint or checkpoint, is damaged (the
                            message names each missing or corrupt file), or the target is not
                            empty. Nothing is written in that case.
    """
    fs, (src, target) = file_access_for_paths(source, fresh_checkpoint_location)
    if fs.exists(target) and (not fs.isdir(target) or fs.listdir(target)):
        raise CheckpointFileError(target, "the new checkpoint location is not empty; restore only into a fresh one")
    query_dir, files, _, batch = resolve_restore_source(fs, src, sink)
    rewritten = _rewrite_schema_paths(fs, query_dir, files, _location_uri(fresh_checkpoint_location, target))
    # a rewritten file's Hadoop checksum would not match; without one, Hadoop reads it unchecked
    stale_crcs = {_crc_of(rel) for rel in rewritten}
    fs.makedirs(target)
    total = 0
    try:
        for rel in files:
            if (new_query_id and rel in (METADATA, crc_name(METADATA))) or rel in stale_crcs:
                continue
            if rel in rewritten:
                fs.makedirs(target + "/" + rel.rpartition("/")[0])
                fs.write_atomic(target + "/" + rel, rewritten[rel])
            else:
                fs.copy_file(query_dir + "/" + rel, target + "/" + rel, link=False)
            total += fs.size(target + "/" + rel)
        query_id = QueryCheckpoint(fs, query_dir).query_id()
        if new_query_id:
            query_id = str(uuid.uuid4())
            data = (json.dumps({"id": query_id}) + "\n").encode("utf-8")
            fs.write_atomic(target + "/" + METADATA, data)
            total += len(data)
    except BaseException:
        # the target was empty (or missing) before: remove what we wrote into it
        for name in fs.listdir(target):
            path = target + "/" + name
            if fs.isdir(path):
                fs.remove_tree(path)
            else:
                fs.remove_file(path)
        raise
    return RestoredQuery(fresh_checkpoint_location, batch, len(files), total, query_id)


def restore_job(savepoint: str, job_dir: str, sinks: List[str],
                allow_non_restored_state: bool = False) -> Dict[str, RestoredQuery]:
    """Prepare a job's checkpoint directories from a savepoint before its queries start.

    Every sink of the job that the savepoint holds is restored into ``<job_dir>/<sink>``; sinks
    the savepoint does not hold start without state, as new operators do in Flink. Everything
    is checked before anything is written.

    :param savepoint: The savepoint directory.
    :param job_dir: ``<storage dir>/<job name>`` of the run that starts.
    :param sinks: The names of the job's sinks.
    :param allow_non_restored_state: Whether saved queries that no sink of the job takes may be
                                     left out (what a job's
                                     ``execution.state-recovery.ignore-unclaimed-state`` allows).
    :return: What was restored, by sink.
    :raises CheckpointFileError: when the savepoint is damaged, holds queries the job has no sink for
                            (unless allowed), or a sink's checkpoint directory is not empty.
    """
    fs, (local, job_local) = file_access_for_paths(savepoint, job_dir)
    manifest = read_manifest(fs, local)
    saved = sorted(str(q["path"]) for q in manifest["queries"])
    dropped = [s for s in saved if s not in sinks]
    if dropped and not allow_non_restored_state:
        raise CheckpointFileError(local, "holds the state of {} that this job has no sink for; allow non-restored "
                             "state to start without it".format(", ".join(dropped)))
    chosen = [s for s in saved if s in sinks]
    for sink in chosen:
        target = job_local + "/" + sink
        if fs.exists(target) and (not fs.isdir(target) or fs.listdir(target)):
            raise CheckpointFileError(target, "the sink already has a checkpoint; a run from a savepoint starts from "
                                 "empty checkpoint directories (use another job name or storage directory)")
        resolve_restore_source(fs, local, sink)
    return {sink: restore_query(local, job_local + "/" + sink, sink=sink) for sink in chosen}
