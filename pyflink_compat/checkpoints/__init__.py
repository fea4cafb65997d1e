"""Savepoints, restores and inspection of Spark query checkpoints, at the file level.

Checkpoints and savepoints are read and written as files: on local paths in plain Python,
with no JVM; on any other file system through Hadoop's ``FileSystem`` in the running Spark
session (see :mod:`pyflink_compat.checkpoints.fs`).
"""

from pyflink_compat.checkpoints.errors import SavepointError
from pyflink_compat.checkpoints.inspection import list_storage, show, verify
from pyflink_compat.checkpoints.layout import QueryCheckpoint
from pyflink_compat.checkpoints.restore import RestoredQuery, restore_job, restore_query
from pyflink_compat.checkpoints.savepoint import dispose_savepoint, write_savepoint

__all__ = ["SavepointError", "QueryCheckpoint", "write_savepoint", "dispose_savepoint", "restore_query",
           "restore_job", "RestoredQuery", "list_storage", "show", "verify"]
