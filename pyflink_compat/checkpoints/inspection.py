"""Looking at a storage directory: jobs, their checkpoints, and savepoints.

Every function returns plain JSON-ready dictionaries (what the ``pyflink-compat`` command
prints with ``--json``). Checkpoints are numbered as in Flink and in the job's log: checkpoint
``chk-N`` of a job is batch ``N - 1`` of every one of its queries; a batch is *retained* when
every file a restart after it needs is still on disk (Spark removes the state of old batches by
itself).

A directory is judged by what it holds, never by its name: a savepoint has a valid ``_metadata``
manifest, an incomplete savepoint has the in-progress file its writer leaves until the manifest
is written, a job directory has a job marker, and a query checkpoint has Spark's ``metadata``
and ``offsets/``.
"""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import (
    MARKER_NAME, REGISTRY_NAME, QueryCheckpoint, is_query_checkpoint, query_problems,
    relative_files_size)
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, check_files, read_manifest
from pyflink_compat.checkpoints.marker import recorded_stateful
from pyflink_compat.checkpoints.savepoint import is_incomplete_savepoint, job_queries

__all__ = ["list_storage", "show", "verify", "describe_query", "checkpoint_number"]


def checkpoint_number(batch: int) -> int:
    """Flink's number of the checkpoint that batch ``batch`` completes (the first is 1)."""
    return batch + 1


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def describe_query(fs: FileAccess, path: str, sink: Optional[str] = None, all_batches: bool = False) -> Dict[str, Any]:
    """One query checkpoint: newest committed batch, its time and size, state stores."""
    checkpoint = QueryCheckpoint(fs, path)
    newest = checkpoint.latest_committed()
    info: Dict[str, Any] = {"sink": sink, "path": path, "query_id": checkpoint.query_id(),
                            "committed_batches": checkpoint.committed_batches(), "newest_batch": newest}
    try:
        conf = checkpoint.pinned_conf() if checkpoint.log_batches("offsets") else {}
    except CheckpointFileError as error:  # a damaged offset log: report it, keep listing the rest
        conf = {}
        info["problem"] = str(error)
    operators = checkpoint.operators()
    info["state_store_provider"] = checkpoint.state_store_provider(conf) if operators else None
    info["shuffle_partitions"] = checkpoint.shuffle_partitions(conf)
    info["operators"] = [op.to_json() for op in operators]
    if newest is not None:
        info["time"] = _iso(checkpoint.commit_time(newest))
        try:
            files = checkpoint.files_for_restart(newest)
            info["size"] = relative_files_size(fs, path, files)
            info["files"] = len(files)
        except CheckpointFileError as error:
            info["size"] = None
            info.setdefault("problem", str(error))
    retained = []
    for batch in (info["committed_batches"] if all_batches else ([newest] if newest is not None else [])):
        try:
            checkpoint.files_for_restart(batch)
            retained.append(batch)
        except CheckpointFileError:
            pass
    info["restorable_batches"] = retained
    return info


def _savepoint_summary(fs: FileAccess, path: str) -> Dict[str, Any]:
    manifest = read_manifest(fs, path)
    return {"path": path, "job_name": manifest.get("job_name"), "job_id": manifest.get("job_id"),
            "created": _iso(manifest.get("created_ms", 0) / 1000.0), "spark_version": manifest.get("spark_version"),
            "queries": [{"sink": q.get("sink"), "path": q["path"], "batch_id": q.get("batch_id"),
                         "state_store_provider": q.get("state_store_provider"), "operators": q.get("operators"),
                         "files": len(q["files"]), "size": sum(f["size"] for f in q["files"])}
                        for q in manifest["queries"]]}


def _job(fs: FileAccess, path: str, name: str) -> Dict[str, Any]:
    queries = [describe_query(fs, qpath, sink, all_batches=True) for sink, qpath in job_queries(fs, path)]
    common = None
    for q in queries:
        batches = set(q["restorable_batches"])
        common = batches if common is None else common & batches
    checkpoints = [{"id": "chk-{}".format(checkpoint_number(b)), "batch": b} for b in sorted(common or [])]
    return {"name": name, "path": path, "marker": fs.isfile(path + "/" + MARKER_NAME),
            "queries": queries, "checkpoints": checkpoints}


def list_storage(directory: str) -> Dict[str, Any]:
    """The jobs and savepoints in a storage directory, each listed once.

    Savepoints are found directly in it and in its sub-directories that are not jobs (a
    savepoint target directory); ``directory`` may also be a job directory, a query checkpoint
    or a savepoint itself.

    :raises CheckpointFileError: when the directory does not exist.
    """
    fs, root = file_access_for(directory)
    if not fs.isdir(root):
        raise CheckpointFileError(root, "does not exist or is not a directory")
    jobs: List[Dict[str, Any]] = []
    savepoints: List[Dict[str, Any]] = []
    incomplete: List[str] = []
    result = {"path": root, "jobs": jobs, "savepoints": savepoints, "incomplete_savepoints": incomplete}

    def savepoint_entry(path: str) -> bool:
        if fs.isfile(path + "/" + MANIFEST_NAME):
            try:
                savepoints.append(_savepoint_summary(fs, path))
            except CheckpointFileError:
                incomplete.append(path)
            return True
        if is_incomplete_savepoint(fs, path):
            incomplete.append(path)
            return True
        return False

    if is_query_checkpoint(fs, root):
        jobs.append({"name": None, "path": root, "marker": False,
                     "queries": [describe_query(fs, root, all_batches=True)], "checkpoints": []})
        return result
    if savepoint_entry(root):
        return result
    for name in fs.listdir(root):
        path = root + "/" + name
        if name == REGISTRY_NAME or not fs.isdir(path) or savepoint_entry(path):
            continue
        if fs.isfile(path + "/" + MARKER_NAME) or job_queries(fs, path):
            jobs.append(_job(fs, path, name))
        else:
            # a directory of savepoints, such as a job's savepoint target directory
            for child in fs.listdir(path):
                if fs.isdir(path + "/" + child):
                    savepoint_entry(path + "/" + child)
    if not jobs and job_queries(fs, root):  # a job directory, perhaps holding its savepoints too
        jobs.append(_job(fs, root, root.rpartition("/")[2]))
    return result


def show(path: str) -> Dict[str, Any]:
    """Details of a savepoint, a query checkpoint or a job directory."""
    fs, local = file_access_for(path)
    if not fs.exists(local):
        raise CheckpointFileError(local, "does not exist")
    if fs.isfile(local + "/" + MANIFEST_NAME):
        manifest = read_manifest(fs, local)
        summary = _savepoint_summary(fs, local)
        summary["kind"] = "savepoint"
        for entry, query in zip(summary["queries"], manifest["queries"]):
            entry["pinned_conf"] = query.get("pinned_conf")
            entry["source_positions"] = query.get("source_positions")
            entry["planned_batch_id"] = query.get("planned_batch_id")
        return summary
    if is_query_checkpoint(fs, local):
        info = describe_query(fs, local, all_batches=True)
        info["kind"] = "checkpoint"
        try:
            info["pinned_conf"] = QueryCheckpoint(fs, local).pinned_conf() if info["committed_batches"] else {}
        except CheckpointFileError:  # already reported as the problem
            info["pinned_conf"] = {}
        return info
    if job_queries(fs, local):
        info = _job(fs, local, local.rpartition("/")[2])
        info["kind"] = "job"
        return info
    raise CheckpointFileError(local, "neither a savepoint (no _metadata manifest) nor a query checkpoint "
                         "nor a job directory")


def verify(path: str) -> Dict[str, Any]:
    """Check a savepoint (every file present, sizes and SHA-256 as in the manifest), a query
    checkpoint or a job directory (every query restartable, see :func:`query_problems`).

    A directory that is none of these by its content (an incomplete savepoint, or query
    checkpoints with neither a savepoint manifest nor a job marker) fails verification.

    :return: ``{"path", "kind", "ok", "problems", "files"}``.
    :raises CheckpointFileError: when ``path`` holds nothing to verify.
    """
    fs, local = file_access_for(path)
    if not fs.exists(local):
        raise CheckpointFileError(local, "does not exist")
    problems: List[str] = []
    count = 0
    if fs.isfile(local + "/" + MANIFEST_NAME):
        kind = "savepoint"
        for query in read_manifest(fs, local)["queries"]:
            problems.extend(check_files(fs, local, query))
            count += len(query["files"])
    elif is_incomplete_savepoint(fs, local):
        kind = "incomplete savepoint"
        problems.append("{}: no {} manifest: its writer stopped before finishing it; it is never restored "
                        "(dispose of it: pyflink-compat checkpoints savepoint dispose --force)".format(
                            local, MANIFEST_NAME))
    elif is_query_checkpoint(fs, local):
        kind = "checkpoint"
        problems, files, _ = query_problems(fs, local)
        count = len(files)
    elif fs.isfile(local + "/" + MARKER_NAME):
        kind = "job"
        stateful = recorded_stateful(fs, local)
        for sink, target in job_queries(fs, local):
            found, files, _ = query_problems(fs, target, stateful.get(sink))
            problems.extend(found)
            count += len(files)
    elif job_queries(fs, local):
        kind = "unknown"
        problems.append("{}: holds query checkpoints but neither a {} savepoint manifest nor a job marker; verify "
                        "each query checkpoint in it on its own".format(local, MANIFEST_NAME))
    else:
        raise CheckpointFileError(local, "neither a savepoint (no _metadata manifest) nor a query checkpoint "
                             "nor a job directory")
    return {"path": local, "kind": kind, "ok": not problems, "problems": problems, "files": count}
