"""The ``_metadata`` manifest of a savepoint: writing, reading and checking it.

A savepoint directory is only a savepoint once its manifest exists; the manifest is written
last, atomically. It is JSON and holds only paths relative to the savepoint directory, so the
directory can be moved or copied as a whole.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, List

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import FileAccess

__all__ = ["MANIFEST_NAME", "IN_PROGRESS_NAME", "FORMAT_NAME", "FORMAT_VERSION", "read_manifest", "write_manifest",
           "sha256_of", "check_files"]

MANIFEST_NAME = "_metadata"
#: The file a savepoint directory holds from its creation until its manifest is written: a
#: directory with it and without a manifest is an incomplete savepoint (its writer died).
IN_PROGRESS_NAME = "_savepoint_in_progress"
FORMAT_NAME = "pyflink-compat-savepoint"
FORMAT_VERSION = 1


def sha256_of(fs: FileAccess, path: str) -> str:
    digest = hashlib.sha256()
    with fs.open_read(path) as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _safe_relative(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and ".." not in parts and "" not in parts


def write_manifest(fs: FileAccess, savepoint_dir: str, manifest: Dict[str, Any]) -> None:
    data = json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8")
    fs.write_atomic(savepoint_dir + "/" + MANIFEST_NAME, data)


def read_manifest(fs: FileAccess, savepoint_dir: str) -> Dict[str, Any]:
    """The manifest of a savepoint, checked for shape.

    :raises CheckpointFileError: when the directory or the manifest is missing, or the manifest is
                            not one this package wrote.
    """
    if not fs.exists(savepoint_dir):
        raise CheckpointFileError(savepoint_dir, "does not exist")
    if not fs.isdir(savepoint_dir):
        raise CheckpointFileError(savepoint_dir, "is not a directory")
    path = savepoint_dir + "/" + MANIFEST_NAME
    if not fs.isfile(path):
        raise CheckpointFileError(savepoint_dir, "no {} manifest: not a savepoint, or an incomplete one".format(
            MANIFEST_NAME))
    try:
        manifest = json.loads(fs.read_text(path))
    except (ValueError, UnicodeDecodeError):
        raise CheckpointFileError(path, "the manifest is not valid JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise CheckpointFileError(path, "not a {} manifest".format(FORMAT_NAME))
    if manifest.get("format_version") != FORMAT_VERSION:
        raise CheckpointFileError(path, "unknown savepoint format version {!r}".format(manifest.get("format_version")))
    queries = manifest.get("queries")
    if not isinstance(queries, list) or not queries:
        raise CheckpointFileError(path, "the manifest lists no queries")
    for query in queries:
        if not isinstance(query, dict) or not _safe_relative(str(query.get("path", ""))) \
                or "/" in str(query.get("path")) or not isinstance(query.get("files"), list):
            raise CheckpointFileError(path, "a query entry of the manifest is malformed")
        for entry in query["files"]:
            if not isinstance(entry, dict) or not _safe_relative(str(entry.get("path", ""))) \
                    or not isinstance(entry.get("size"), int) or not isinstance(entry.get("sha256"), str):
                raise CheckpointFileError(path, "a file entry of the manifest is malformed: {!r}".format(entry))
    return manifest


def check_files(fs: FileAccess, savepoint_dir: str, query: Dict[str, Any], checksums: bool = True) -> List[str]:
    """Problems with one query's files against the manifest (empty when all are intact)."""
    problems = []
    base = savepoint_dir + "/" + query["path"]
    for entry in query["files"]:
        path = base + "/" + entry["path"]
        if not fs.isfile(path):
            problems.append("{}: missing".format(path))
        elif fs.size(path) != entry["size"]:
            problems.append("{}: size {} instead of {}".format(path, fs.size(path), entry["size"]))
        elif checksums and sha256_of(fs, path) != entry["sha256"]:
            problems.append("{}: checksum mismatch (the file was changed or is corrupt)".format(path))
    return problems
