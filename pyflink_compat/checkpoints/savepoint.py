"""Writing and disposing of savepoints.

A savepoint of a job is a self-contained directory ``savepoint-<6 hex digits of the job id>-<12
random hex digits>``. It holds, per query (one per sink), a trimmed copy of that query's
checkpoint at its newest committed batch: exactly the files a restart after that batch needs
(see :func:`pyflink_compat.checkpoints.layout.QueryCheckpoint.files_for_restart`), under a
directory named after the sink. The ``_metadata`` manifest is written last; a directory
without it is not a savepoint.

A savepoint belongs to its user: its files are copies (copy-on-write clones where the local
file system has them), so nothing written into the live checkpoint, another savepoint or a
restored location ever changes it. Hard links are an explicit choice (``link=True``, on the local
file system and the same device only): Spark itself never rewrites a checkpoint file in place,
but a tool or a user writing into one linked file changes every directory that shares it.

From its creation until its manifest is written, the directory holds an ``_savepoint_in_progress``
file: the directory is made under a hidden name (``.savepoint-...``), the file written into it,
and the directory then renamed into place, so that a savepoint directory never exists without
it. A directory left with it (its writer died), a hidden one left before the rename, or an
empty directory named as a savepoint is an incomplete savepoint, which is never restored and
which :func:`dispose_savepoint` removes with ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.access import file_access_for, file_access_for_paths
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import QueryCheckpoint, is_query_checkpoint
from pyflink_compat.checkpoints.manifest import (
    FORMAT_NAME, FORMAT_VERSION, IN_PROGRESS_NAME, MANIFEST_NAME, read_manifest, sha256_of, write_manifest)
from pyflink_compat.checkpoints.marker import read_marker

__all__ = ["write_savepoint", "dispose_savepoint", "job_queries", "is_incomplete_savepoint", "is_savepoint_name"]


def job_queries(fs: FileAccess, job_dir: str) -> List[Tuple[str, str]]:
    """The ``(sink name, checkpoint dir)`` of every query checkpoint in a job directory.

    With a job marker, the sinks it records (that have a checkpoint); otherwise every
    sub-directory that is a query checkpoint.
    """
    marker = read_marker(fs, job_dir)
    names = sorted(marker.sinks) if marker is not None else fs.listdir(job_dir)
    return [(n, job_dir + "/" + n) for n in names if is_query_checkpoint(fs, job_dir + "/" + n)]


def _resolve_sources(fs: FileAccess, source: Union[str, Sequence[str]]) -> List[Tuple[str, str]]:
    """The queries of ``source`` (paths already in the form ``fs`` understands)."""
    if isinstance(source, str):
        path = source
        if not fs.exists(path):
            raise CheckpointFileError(path, "does not exist")
        if is_query_checkpoint(fs, path):
            return [(os.path.basename(path), path)]
        queries = job_queries(fs, path)
        if not queries:
            raise CheckpointFileError(path, "neither a query checkpoint nor a job directory holding query checkpoints")
        return queries
    result = []
    for path in source:
        if not is_query_checkpoint(fs, path):
            if not fs.exists(path) or not fs.exists(path + "/offsets"):
                raise CheckpointFileError(path, "the query has not completed its first checkpoint yet: nothing to "
                                     "save; trigger the savepoint after it")
            raise CheckpointFileError(path, "not a Spark query checkpoint (no metadata file and offsets/ log)")
        result.append((os.path.basename(path), path))
    names = [n for n, _ in result]
    if len(set(names)) != len(names):
        raise CheckpointFileError(", ".join(p for _, p in result), "two query checkpoints have the same directory name")
    return result


def _job_hex(job_name: str, job_id: Optional[str]) -> str:
    if job_id:
        cleaned = "".join(c for c in str(job_id).lower() if c in "0123456789abcdef")
        if len(cleaned) >= 6:
            return cleaned[:6]
    return hashlib.sha256(job_name.encode("utf-8")).hexdigest()[:6]


def _copy_query(fs: FileAccess, sink: str, source_dir: str, target: str, link: bool,
                max_attempts: int) -> Dict[str, Any]:
    """Copy one query's restart files into ``target``; re-plan when Spark removed a file."""
    last_error: Optional[BaseException] = None
    for _ in range(max_attempts):
        checkpoint = QueryCheckpoint(fs, source_dir)
        batch = checkpoint.latest_committed()
        if batch is None:
            raise CheckpointFileError(source_dir, "the query has not committed a batch yet: nothing to save")
        if fs.exists(target):
            fs.remove_tree(target)
        try:
            files = checkpoint.files_for_restart(batch)
            conf = checkpoint.pinned_conf(batch)
            _, positions = checkpoint.offsets_entry(batch)
            linked = 0
            for rel in files:
                linked += fs.copy_file(source_dir + "/" + rel, target + "/" + rel, link)
        except FileNotFoundError as error:
            last_error = error  # retention removed a file while copying: plan again
            continue
        except CheckpointFileError as error:
            if fs.exists(error.path) or not error.path.startswith(source_dir):
                raise
            last_error = error
            continue
        entries = [{"path": rel, "size": fs.size(target + "/" + rel), "sha256": sha256_of(fs, target + "/" + rel)}
                   for rel in files]
        return {
            "sink": sink, "path": sink, "source_checkpoint": os.path.basename(source_dir),
            "query_id": checkpoint.query_id(), "batch_id": batch,
            "planned_batch_id": batch + 1 if "offsets/{}".format(batch + 1) in files else None,
            "state_store_provider": checkpoint.state_store_provider(conf) if checkpoint.operators() else None,
            "shuffle_partitions": checkpoint.shuffle_partitions(conf),
            "pinned_conf": conf,
            "operators": [op.to_json() for op in checkpoint.operators()],
            "source_positions": {str(i): p for i, p in enumerate(positions)},
            "sink_position": {"last_committed_batch_id": batch},
            "files": entries, "linked_files": linked,
        }
    raise CheckpointFileError(source_dir, "files kept disappearing while copying ({} attempts): {}".format(
        max_attempts, last_error))


def _recorded_job(fs: FileAccess, source: Union[str, Sequence[str]]) -> Tuple[Optional[str], Optional[str]]:
    """The job name and the id of the newest run the marker of a job directory records."""
    if not isinstance(source, str):
        return None, None
    try:
        marker = read_marker(fs, source)
    except CheckpointFileError:  # a corrupt marker names no job: the savepoint is named from the call
        return None, None
    if marker is None:
        return None, None
    return (str(marker.job_name) if marker.job_name else None), marker.last_run


def write_savepoint(source: Union[str, Sequence[str]], target_dir: str, job_name: Optional[str] = None,
                    job_id: Optional[str] = None, spark_version: Optional[str] = None,
                    link: bool = False, max_attempts: int = 5, fs: Optional[FileAccess] = None) -> str:
    """Take a savepoint of a job's queries at each query's newest committed batch.

    The queries may keep running: files Spark adds later are not needed, and a file removed by
    retention while copying makes that query's copy start again at its then newest batch.

    :param source: A job directory (``<storage dir>/<job name>``), one query checkpoint, or a
                   list of query checkpoints.
    :param target_dir: The directory to create the savepoint in (created when missing).
    :param job_name: The job's name, recorded in the manifest; by default the name the job
                     directory's marker records.
    :param job_id: The job id (hex); its first 6 hex digits start the savepoint's name; by
                   default the id of the newest run the job directory's marker records.
    :param spark_version: The Spark version that wrote the checkpoints, when known.
    :param link: Hard-link files instead of copying them where possible (on the local file
                 system and the same device only; Hadoop file systems always copy). The
                 savepoint then shares its files with the checkpoint.
    :param max_attempts: How often one query's copy is started again when files vanish.
    :param fs: The file access to use (by default the one the paths need, see
               :func:`~pyflink_compat.checkpoints.access.file_access_for_paths`).
    :return: The savepoint directory.
    :raises CheckpointFileError: when a source is not a checkpoint, has no committed batch, or the
                            savepoint cannot be written.
    """
    sources = [source] if isinstance(source, str) else list(source)
    default_fs, paths = file_access_for_paths(target_dir, *sources)
    target_root, sources = paths[0], paths[1:]
    fs = fs or default_fs
    resolved = sources[0] if isinstance(source, str) else sources
    queries = _resolve_sources(fs, resolved)
    if job_name is None or job_id is None:
        recorded_name, recorded_id = _recorded_job(fs, resolved)
        job_name, job_id = job_name or recorded_name, job_id or recorded_id
    if not job_name:
        raise CheckpointFileError(resolved if isinstance(resolved, str) else ", ".join(resolved),
                             "no job marker records the job's name: name the job")
    name = "savepoint-{}-{}".format(_job_hex(job_name, job_id), os.urandom(6).hex())
    savepoint_dir = target_root + "/" + name
    staging = target_root + "/." + name
    if fs.exists(savepoint_dir) or fs.exists(staging):
        raise CheckpointFileError(savepoint_dir, "already exists")
    started = {"job_name": job_name, "job_id": job_id, "created_ms": int(time.time() * 1000)}
    # the directory appears under its name with the in-progress file already in it: a writer
    # killed before the rename leaves only a hidden directory, which is reported as incomplete
    fs.makedirs(staging)
    try:
        fs.write_atomic(staging + "/" + IN_PROGRESS_NAME, json.dumps(started).encode("utf-8"))
        fs.rename_dir(staging, savepoint_dir)
    except BaseException:
        if fs.exists(staging):
            fs.remove_tree(staging)
        raise
    try:
        entries = [_copy_query(fs, sink, path, savepoint_dir + "/" + sink, link, max_attempts)
                   for sink, path in queries]
        write_manifest(fs, savepoint_dir, {
            "format": FORMAT_NAME, "format_version": FORMAT_VERSION, "job_name": job_name,
            "job_id": job_id, "spark_version": spark_version,
            "created_ms": started["created_ms"], "queries": entries,
        })
    except BaseException:
        # nothing half-written stays behind; the directory is ours, made just above
        if fs.exists(savepoint_dir) and not fs.isfile(savepoint_dir + "/" + MANIFEST_NAME):
            fs.remove_tree(savepoint_dir)
        raise
    fs.remove_file(savepoint_dir + "/" + IN_PROGRESS_NAME)
    return savepoint_dir


#: The name of a savepoint directory, and of the hidden one it is made under.
_SAVEPOINT_NAME = re.compile(r"^\.?savepoint-[0-9a-f]{6}-[0-9a-f]{12}$")


def is_savepoint_name(name: str) -> bool:
    """Whether ``name`` is the name of a savepoint directory or of its hidden staging directory."""
    return _SAVEPOINT_NAME.match(name) is not None


def is_incomplete_savepoint(fs: FileAccess, path: str) -> bool:
    """Whether ``path`` is a savepoint whose writer died before its manifest was written.

    That is a directory without a manifest that holds the in-progress file, or one named as a
    savepoint (also hidden, before its rename) that holds nothing but hidden temporary files:
    what a writer killed at any point leaves. A directory with other content is judged by it.
    """
    if fs.isfile(path + "/" + MANIFEST_NAME):
        return False
    if fs.isfile(path + "/" + IN_PROGRESS_NAME):
        return True
    if not is_savepoint_name(path.rstrip("/").rpartition("/")[2]) or not fs.isdir(path):
        return False
    return all(n.startswith(".") for n in fs.listdir(path))


def dispose_savepoint(path: str, force: bool = False) -> None:
    """Delete a savepoint directory, and only that.

    :param force: Also delete an incomplete savepoint (one whose writer died before writing
                  its manifest): its directory holds the in-progress file and nothing but the
                  query directories it was copying.
    :raises CheckpointFileError: unless ``path`` holds a valid manifest (or, with ``force``, is an
                            incomplete savepoint) and nothing besides the manifest and the
                            query directories it lists (then nothing is deleted).
    """
    fs, local = file_access_for(path)
    if is_incomplete_savepoint(fs, local):
        if not force:
            raise CheckpointFileError(local, "an incomplete savepoint (its writer stopped before writing the "
                                 "{} manifest): dispose of it with force".format(MANIFEST_NAME))
        extra = [n for n in fs.listdir(local)
                 if n != IN_PROGRESS_NAME and not n.startswith("." + MANIFEST_NAME)
                 and not n.startswith("." + IN_PROGRESS_NAME) and not fs.isdir(local + "/" + n)]
        if extra:
            raise CheckpointFileError(local, "holds entries a savepoint never writes ({}); nothing was deleted".format(
                ", ".join(extra)))
        fs.remove_tree(local)
        return
    manifest = read_manifest(fs, local)
    allowed = {MANIFEST_NAME} | {str(q["path"]) for q in manifest["queries"]}
    extra = [n for n in fs.listdir(local) if n not in allowed]
    if extra:
        raise CheckpointFileError(local, "holds entries the savepoint manifest does not list ({}); "
                             "nothing was deleted".format(", ".join(extra)))
    fs.remove_tree(local)
