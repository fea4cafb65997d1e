"""Savepoints, restores and inspection of Spark query checkpoints, at the file level.

Nothing here needs the JVM: checkpoints and savepoints are read and written as files (only the
local file system so far, see :mod:`pyflink_compat.checkpoints.fs`). The one exception is
:func:`read_state`, which reads state rows through Spark 4's state data source.
"""

from pyflink_compat.checkpoints.errors import SavepointError
from pyflink_compat.checkpoints.inspection import list_storage, show, verify
from pyflink_compat.checkpoints.layout import QueryCheckpoint
from pyflink_compat.checkpoints.restore import RestoredQuery, restore_job, restore_query
from pyflink_compat.checkpoints.savepoint import dispose_savepoint, write_savepoint
from pyflink_compat.checkpoints.state_reader import read_state

__all__ = ["SavepointError", "QueryCheckpoint", "write_savepoint", "dispose_savepoint", "restore_query",
           "restore_job", "RestoredQuery", "list_storage", "show", "verify", "read_state"]
