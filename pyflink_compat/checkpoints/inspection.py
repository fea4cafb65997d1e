"""Looking at a storage directory: jobs, their checkpoints, and savepoints.

Every function returns plain JSON-ready dictionaries (what the ``pyflink-compat`` command
prints with ``--json``). In Flink terms, checkpoint ``chk-N`` of a job is batch ``N`` of every
one of its queries; a batch is *retained* when every file a restart after it needs is still
on disk (Spark removes the state of old batches by itself).
"""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional

from pyflink_compat.checkpoints.errors import SavepointError
from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import (
    MARKER_NAME, QueryCheckpoint, check_checkpoint_files, is_query_checkpoint, relative_files_size)
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, check_files, read_manifest
from pyflink_compat.checkpoints.savepoint import job_queries

__all__ = ["list_storage", "show", "verify", "describe_query"]


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
    except SavepointError as error:  # a damaged offset log: report it, keep listing the rest
        conf = {}
        info["problem"] = str(error)
    operators = checkpoint.operators()
    info["state_store_provider"] = checkpoint.state_store_provider(conf) if operators else None
    info["shuffle_partitions"] = checkpoint.shuffle_partitions(conf)
    info["operators"] = [op.to_json() for op in operators]
    if newest is not None:
        info["time"] = _iso(fs.mtime(path + "/commits/{}".format(newest)))
        try:
            files = checkpoint.files_for_restart(newest)
            info["size"] = relative_files_size(fs, path, files)
            info["files"] = len(files)
        except SavepointError as error:
            info["size"] = None
            info.setdefault("problem", str(error))
    retained = []
    for batch in (info["committed_batches"] if all_batches else ([newest] if newest is not None else [])):
        try:
            checkpoint.files_for_restart(batch, include_planned=False)
            retained.append(batch)
        except SavepointError:
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
    checkpoints = [{"id": "chk-{}".format(b), "batch": b} for b in sorted(common or [])]
    return {"name": name, "path": path, "marker": fs.isfile(path + "/" + MARKER_NAME),
            "queries": queries, "checkpoints": checkpoints}


def list_storage(directory: str) -> Dict[str, Any]:
    """The jobs and savepoints in a storage directory.

    Savepoints are found directly in it and in its sub-directories that are not jobs (a
    savepoint target directory).

    :raises SavepointError: when the directory does not exist.
    """
    fs, root = file_access_for(directory)
    if not fs.isdir(root):
        raise SavepointError(root, "does not exist or is not a directory")
    jobs: List[Dict[str, Any]] = []
    savepoints: List[Dict[str, Any]] = []
    incomplete: List[str] = []
    if is_query_checkpoint(fs, root):
        return {"path": root, "jobs": [{"name": None, "path": root, "marker": False,
                                        "queries": [describe_query(fs, root, all_batches=True)], "checkpoints": []}],
                "savepoints": [], "incomplete_savepoints": []}

    def savepoint_entry(path: str) -> bool:
        if fs.isfile(path + "/" + MANIFEST_NAME):
            try:
                savepoints.append(_savepoint_summary(fs, path))
            except SavepointError:
                incomplete.append(path)
            return True
        if path.rpartition("/")[2].startswith("savepoint-"):
            incomplete.append(path)
            return True
        return False

    for name in fs.listdir(root):
        path = root + "/" + name
        if not fs.isdir(path) or savepoint_entry(path):
            continue
        if fs.isfile(path + "/" + MARKER_NAME) or job_queries(fs, path):
            jobs.append(_job(fs, path, name))
        else:
            # a directory of savepoints, such as a job's savepoint target directory
            for child in fs.listdir(path):
                if fs.isdir(path + "/" + child) and child.startswith("savepoint-"):
                    savepoint_entry(path + "/" + child)
    if not jobs and job_queries(fs, root):  # a job directory, perhaps holding its savepoints too
        jobs.append(_job(fs, root, root.rpartition("/")[2]))
    return {"path": root, "jobs": jobs, "savepoints": savepoints, "incomplete_savepoints": incomplete}


def show(path: str) -> Dict[str, Any]:
    """Details of a savepoint, a query checkpoint or a job directory."""
    fs, local = file_access_for(path)
    if not fs.exists(local):
        raise SavepointError(local, "does not exist")
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
        except SavepointError:  # already reported as the problem
            info["pinned_conf"] = {}
        return info
    if job_queries(fs, local):
        info = _job(fs, local, local.rpartition("/")[2])
        info["kind"] = "job"
        return info
    raise SavepointError(local, "neither a savepoint (no _metadata manifest) nor a query checkpoint "
                         "nor a job directory")


def verify(path: str) -> Dict[str, Any]:
    """Check a savepoint (every file present, sizes and SHA-256 as in the manifest) or a
    checkpoint (every file a restart at the newest batch needs present and intact).

    :return: ``{"path", "kind", "ok", "problems", "files"}``.
    :raises SavepointError: when ``path`` is neither a savepoint nor a checkpoint.
    """
    fs, local = file_access_for(path)
    if not fs.exists(local):
        raise SavepointError(local, "does not exist")
    problems: List[str] = []
    count = 0
    if fs.isfile(local + "/" + MANIFEST_NAME):
        kind = "savepoint"
        for query in read_manifest(fs, local)["queries"]:
            problems.extend(check_files(fs, local, query))
            count += len(query["files"])
    else:
        if is_query_checkpoint(fs, local):
            kind, targets = "checkpoint", [local]
        else:
            targets = [p for _, p in job_queries(fs, local)]
            kind = "job"
            if not targets:
                raise SavepointError(local, "neither a savepoint (no _metadata manifest) nor a query checkpoint "
                                     "nor a job directory")
        for target in targets:
            checkpoint = QueryCheckpoint(fs, target)
            newest = checkpoint.latest_committed()
            if newest is None:
                problems.append("{}: no committed batch".format(target))
                continue
            try:
                files = checkpoint.files_for_restart(newest)
            except SavepointError as error:
                problems.append(str(error))
                continue
            count += len(files)
            problems.extend(check_checkpoint_files(fs, target, files))
    return {"path": local, "kind": kind, "ok": not problems, "problems": problems, "files": count}
