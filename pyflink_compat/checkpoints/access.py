"""Which file access reaches a path: local paths in Python, every other scheme through Hadoop.

Local paths and ``file:`` URIs get a :class:`~pyflink_compat.checkpoints.file_access.LocalFileAccess`
and need no JVM. Any other scheme (``hdfs://``, ``s3a://``, ``viewfs://``, ...) gets the
:class:`~pyflink_compat.checkpoints.file_access_hadoop.HadoopFileAccess` of a running Spark
session; without one, such a path raises :class:`~pyflink_compat.checkpoints.errors.CheckpointFileError`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, List, Optional, Tuple

from pyflink_compat.checkpoints.file_access import FileAccess, LocalFileAccess, local_path
from pyflink_compat.checkpoints.file_access_hadoop import hadoop_file_access

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["file_access_for", "file_access_for_paths"]


def file_access_for(path: str, spark: "Optional[SparkSession]" = None,
                    checksums: bool = False) -> Tuple[FileAccess, str]:
    """The file access for ``path`` and the path in the form that access understands.

    :param spark: The session whose Hadoop configuration opens a non-local path (by default,
        the one running in this process).
    :param checksums: For a local path, whether Hadoop's ``.crc`` files are read and written
        with the files (see :class:`~pyflink_compat.checkpoints.file_access.LocalFileAccess`);
        other file systems check what they check themselves.
    :raises ~pyflink_compat.checkpoints.errors.CheckpointFileError: for a non-local path when no
        Spark session runs, or its file system cannot be opened.
    """
    local = local_path(path)
    if local is not None:
        return LocalFileAccess(checksums), os.path.abspath(local)
    access = hadoop_file_access(path, spark)
    return access, access.qualify(path)


def file_access_for_paths(*paths: str) -> Tuple[FileAccess, List[str]]:
    """One file access that reaches all of ``paths``, and the paths in its form.

    All local: the pure-Python local access (absolute paths). Any other scheme among them: the
    Hadoop access of the running Spark session, which opens local paths too (as ``file:``), so
    that a copy from one file system to another works.

    :raises ~pyflink_compat.checkpoints.errors.CheckpointFileError: for a non-local path when no
        Spark session runs in this process.
    """
    locals_ = [local_path(p) for p in paths]
    if all(local is not None for local in locals_):
        return LocalFileAccess(), [os.path.abspath(str(local)) for local in locals_]
    remote = next(p for p, local in zip(paths, locals_) if local is None)
    access = hadoop_file_access(remote)
    return access, [access.qualify(p) for p in paths]
