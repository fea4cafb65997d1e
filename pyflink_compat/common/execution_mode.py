"""How a batch program of Flink's former DataSet API exchanges data (kept for ExecutionConfig)."""
from enum import Enum

__all__ = ['ExecutionMode']


class ExecutionMode(Enum):
    """The data exchange mode of a batch program. It has no meaning for a streaming program
    and none on Spark: it is stored and read back only.

    :data:`PIPELINED`:

    Data flows between operators as it is produced, except where that could deadlock (the
    default).

    :data:`PIPELINED_FORCED`:

    Data always flows as it is produced, even where that may deadlock.

    :data:`BATCH`:

    Shuffles and broadcasts are materialised in full before the next operator reads them.

    :data:`BATCH_FORCED`:

    Every exchange is materialised in full.
    """

    PIPELINED = 0
    PIPELINED_FORCED = 1
    BATCH = 2
    BATCH_FORCED = 3

    @staticmethod
    def _from_j_execution_mode(j_execution_mode) -> 'ExecutionMode':
        name = j_execution_mode if isinstance(j_execution_mode, str) else j_execution_mode.name()
        return ExecutionMode[str(name)]

    def _to_j_execution_mode(self):
        """The name of this mode, as it is stored."""
        return self.name


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
